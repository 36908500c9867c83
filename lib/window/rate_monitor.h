/* Internal: an (events, total) ratio over a fixed window, on a ratio window of up to
 * LLMM__RATE_MONITOR_SLOTS slots. Shared by the KV hit-rate tracker and the TLB monitor
 * (resource) and the error-share trigger (slo). */
#ifndef LLMM_WINDOW_RATE_MONITOR_H
#define LLMM_WINDOW_RATE_MONITOR_H

#include "llmmetrics/window.h"

/* Slots of every rate monitor's ring (the window is cut into this many slots). */
#define LLMM__RATE_MONITOR_SLOTS 60

typedef struct llmm__rate_monitor {
    llmm_ratio_window *rw;
    uint64_t window_ns;
    uint64_t total; /* since creation or reset: bounds every sum of the ring */
} llmm__rate_monitor;

/* window_ns >= 1. LLMM_E_RANGE for a window within LLMM__RATE_MONITOR_SLOTS - 1 ns of 2^64
 * (the ring would not fit in 64 bits); on any failure m->rw is NULL. */
llmm_status llmm__rate_monitor_init(llmm__rate_monitor *m, llmm_ctx *ctx, uint64_t window_ns);
void llmm__rate_monitor_fini(llmm__rate_monitor *m);

/* LLMM_E_INVALID (events > total, time backwards) or LLMM_E_RANGE (lifetime total would
 * overflow) change nothing. */
llmm_status llmm__rate_monitor_add(llmm__rate_monitor *m, uint64_t now_ns, uint64_t events,
                                   uint64_t total);

/* Counts and ratio over the window at now_ns. LLMM_E_INVALID (time) and LLMM_E_EMPTY (no
 * total) change nothing, the clock included. */
llmm_status llmm__rate_monitor_read(llmm__rate_monitor *m, uint64_t now_ns, uint64_t *events,
                                    uint64_t *total, double *ratio);

void llmm__rate_monitor_reset(llmm__rate_monitor *m);

#endif /* LLMM_WINDOW_RATE_MONITOR_H */
