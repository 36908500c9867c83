/* engine.h: the simulated continuous-batching engine (engine.c), in real time on
 * CLOCK_MONOTONIC nanoseconds: the step loop of model.h, the batch, the KV reservation and the
 * waiting queue. It knows requests, not sockets: each emitted token and each request leaving
 * the engine go to the server's callbacks. */
#ifndef LLMM_CLI_SIM_ENGINE_H
#define LLMM_CLI_SIM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/model.h"

/* A request as the engine sees it; the server embeds it in its own record. */
typedef struct llmm_sim_seq {
    uint64_t prompt_tokens;
    uint64_t reserve;         /* KV tokens held while running: prompt + max output */
    llmm_sim_plan plan;
    uint32_t emitted;         /* tokens produced so far */
    uint64_t resume_ns;       /* stalled until then (0: not stalled) */
    int cancelled;            /* its client went away: leaves at the next step */
    int in_step;              /* part of the step in progress */
    struct llmm_sim_seq *next; /* waiting queue */
} llmm_sim_seq;

typedef struct llmm_sim_engine_cb {
    void *ctx;
    /* Token number s->emitted of s, produced at t_ns. Returns 0 to go on, 1 when the
     * request ends here (its connection dropped). */
    int (*token)(void *ctx, llmm_sim_seq *s, uint64_t t_ns);
    /* s leaves the engine (finished, dropped or cancelled); the engine forgets it. */
    void (*release)(void *ctx, llmm_sim_seq *s, uint64_t t_ns);
} llmm_sim_engine_cb;

typedef struct llmm_sim_engine {
    llmm_sim_params p;
    llmm_sim_engine_cb cb;
    llmm_sim_seq **run;        /* running sequences, max_batch of room */
    uint32_t nrun;
    llmm_sim_seq *wait_head, *wait_tail;
    size_t nwait;
    uint64_t kv_used;
    uint64_t step_end_ns;      /* end of the step in progress; 0: none */
    uint64_t wake_ns;          /* no step, every running sequence stalled: wake then; 0 */
    uint32_t step_b;           /* sequences in the step in progress */
    uint64_t steps;            /* steps completed */
} llmm_sim_engine;

/* 0, or -1 out of memory. */
int llmm_sim_engine_init(llmm_sim_engine *e, const llmm_sim_params *p,
                         const llmm_sim_engine_cb *cb);
void llmm_sim_engine_free(llmm_sim_engine *e);
/* Can a request reserving `reserve` KV tokens ever run? */
int llmm_sim_engine_fits(const llmm_sim_engine *e, uint64_t reserve);
/* A new request at now_ns: queued, admitted at the next step start (now, if idle). */
void llmm_sim_engine_submit(llmm_sim_engine *e, llmm_sim_seq *s, uint64_t now_ns);
/* Run every step that has ended by now_ns. */
void llmm_sim_engine_advance(llmm_sim_engine *e, uint64_t now_ns);
/* When the engine next needs llmm_sim_engine_advance: a CLOCK_MONOTONIC time, 0 for never. */
uint64_t llmm_sim_engine_deadline(const llmm_sim_engine *e);

#endif /* LLMM_CLI_SIM_ENGINE_H */
