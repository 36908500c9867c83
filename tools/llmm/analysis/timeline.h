/* timeline.h: the watched metric of every request with a send time, in the order it became
 * known, for the time-ordered sections (spikes, collapses) and the P99-over-time chart.
 *
 * The trace records one point per successful request with a send time: its send time on its
 * run's clock, the delay after which the watched value became known (TTFT for TTFT, E2E for
 * TPOT and E2E) and the value: 24 bytes, nothing else of the request. A run's points move onto
 * the merged time line when the run ends (the offset is known then). Up to `bound` points are
 * kept in memory; past that the points go to a scratch file in $TMPDIR (deleted on creation),
 * which llmm_cli_timeline_finish sorts chunk by chunk, and the sections read the merged
 * chunks back in order: memory stays at about bound x 40 bytes (24 for the points, 16 for
 * sorting) whatever the number of requests. */
#ifndef LLMM_CLI_TIMELINE_H
#define LLMM_CLI_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

typedef struct llmm_cli_obs {
    double t, v; /* when the value became known (seconds on the time line), the value */
} llmm_cli_obs;

typedef struct llmm_cli_tl_raw llmm_cli_tl_raw;
typedef struct llmm_cli_tl_run llmm_cli_tl_run;
typedef struct llmm_cli_tl_chunk llmm_cli_tl_chunk;

/* Points kept in memory before the time line spills (24 MiB of points), unless the
 * environment variable LLMM_TIMELINE_KIB gives another size in KiB. */
#define LLMM_CLI_TIMELINE_BOUND ((size_t)1 << 20)

typedef struct llmm_cli_timeline {
    size_t bound;              /* points held in memory before a spill */
    llmm_cli_tl_raw *raw;      /* the points not yet in the scratch file */
    size_t nraw, capraw;
    llmm_cli_obs *obs;         /* finished, nothing spilled: the sorted observations */
    uint64_t total;            /* points recorded */
    uint64_t spilled;          /* of which in the scratch file */
    int fd;                    /* the scratch file, -1 until the first spill */
    llmm_cli_tl_run *runs;     /* where each run's points begin, and their offset */
    size_t nruns, capruns;
    uint64_t run_first;        /* the current run's first point */
    llmm_cli_tl_chunk *chunks; /* finished, spilled: the sorted chunks of the scratch file */
    size_t nchunks;
    double last_t;             /* finished: the latest observation's time */
    int finished;
} llmm_cli_timeline;

/* An empty time line holding up to bound points in memory (0: LLMM_CLI_TIMELINE_BOUND or
 * LLMM_TIMELINE_KIB). */
void llmm_cli_timeline_init(llmm_cli_timeline *tl, size_t bound);
void llmm_cli_timeline_free(llmm_cli_timeline *tl);
/* One point: send time on its run's clock, the delay until the value was known, the value. */
int llmm_cli_timeline_add(llmm_cli_timeline *tl, double start, double delay, double v,
                          llmm_cli_error *err);
/* The current run ended: its points move by offset seconds onto the merged time line. */
int llmm_cli_timeline_run_end(llmm_cli_timeline *tl, double offset, llmm_cli_error *err);
/* Every point is in: sort (spilled chunks in the scratch file). Reading needs it first. */
int llmm_cli_timeline_finish(llmm_cli_timeline *tl, llmm_cli_error *err);

/* Reading a finished time line in time order (ties by value): t = max(0, (start + offset) +
 * delay), the arithmetic of the merged time line. Any number of readers, one after another
 * or at once. */
typedef struct llmm_cli_tl_reader llmm_cli_tl_reader;
typedef struct llmm_cli_tl_iter {
    const llmm_cli_timeline *tl;
    size_t i;                 /* in memory: the next observation */
    llmm_cli_tl_reader *rd;   /* spilled: one reader per chunk */
    size_t *heap, nheap;      /* chunk readers by their next observation */
} llmm_cli_tl_iter;

int llmm_cli_timeline_begin(const llmm_cli_timeline *tl, llmm_cli_tl_iter *it,
                            llmm_cli_error *err);
/* The next observation into *o: 1, 0 at the end, -1 when the scratch file cannot be read
 * (err set). */
int llmm_cli_timeline_next(llmm_cli_tl_iter *it, llmm_cli_obs *o, llmm_cli_error *err);
void llmm_cli_timeline_end(llmm_cli_tl_iter *it);

/* The nearest-rank quantile q of the values in each time bin [b·bin, (b + 1)·bin), b = 0 …
 * nbins - 1 (later observations count in the last bin), into out[b] (NaN for an empty bin).
 * Exact, in two passes, holding only each bin's values above its quantile. */
int llmm_cli_timeline_binned(const llmm_cli_timeline *tl, double bin, double q, double *out,
                             size_t nbins, llmm_cli_error *err);

/* Seconds on the time line to the detectors' nanoseconds (negative → 0). */
uint64_t llmm_cli_ns(double seconds);

#endif /* LLMM_CLI_TIMELINE_H */
