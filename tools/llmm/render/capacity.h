/* capacity.h: the figures of `llmm capacity` (capacity.c): each one closed-form library call
 * (doc/spec.md §3) on the values of the options, written as text with its formula or as JSON. */
#ifndef LLMM_CLI_RENDER_CAPACITY_H
#define LLMM_CLI_RENDER_CAPACITY_H

#include <stddef.h>

/* The options of `llmm capacity` (cmd/command.h's spec), in the order of the indexes below (an
 * option's id is LLMM_CLI_OPT + its index; llmm_cli_capacity.v is indexed by it). */
#define LLMM_CLI_CAPACITY_OPTIONS                                                              \
    "p999-ms= concurrency= safety= actual= peak= peak-flops= bandwidth= intensity= flops= "    \
    "bytes= ideal= measured= single= devices= comm-ms= step-ms= tps-short= tps-long= json"

enum {
    O_P999 = 0, O_CONC, O_SAFETY, O_ACTUAL, O_PEAK, O_PEAK_FLOPS, O_BW, O_INTENSITY,
    O_FLOPS, O_BYTES, O_IDEAL, O_MEASURED, O_SINGLE, O_DEVICES, O_COMM, O_STEP, O_SHORT,
    O_LONG, O_JSON, O_COUNT
};

#define LLMM_CLI_CAPACITY_LIST_MAX 32

typedef struct llmm_cli_capacity {
    double p999[LLMM_CLI_CAPACITY_LIST_MAX], ideal[LLMM_CLI_CAPACITY_LIST_MAX],
        measured[LLMM_CLI_CAPACITY_LIST_MAX];
    size_t np999, nideal, nmeasured;
    double v[O_COUNT]; /* single values by option id; NaN = not given */
} llmm_cli_capacity;

/* Whether option id was given. */
int llmm_cli_capacity_given(const llmm_cli_capacity *o, int id);
/* Whether the options ask for any figure. */
int llmm_cli_capacity_wanted(const llmm_cli_capacity *o);
/* Every figure the options ask for, on stdout. Returns the exit status: 0, 1 when a figure's
 * inputs are out of its domain, 2 when they do not fit together (message on stderr). */
int llmm_cli_capacity_write(const llmm_cli_capacity *o, int json);

#endif /* LLMM_CLI_RENDER_CAPACITY_H */
