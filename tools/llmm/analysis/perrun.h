/* perrun.h: the inputs read run by run (perrun.c): each run (a vLLM document, a GuideLLM
 * benchmark, a genai-perf experiment, a CSV file ...) gets its own trace, summarised when the
 * run ends and handed to the caller; `llmm compare` and `llmm knee` build on it. */
#ifndef LLMM_CLI_PERRUN_H
#define LLMM_CLI_PERRUN_H

#include "analysis/trace.h"
#include "input/input.h"

/* Where a run came from. */
typedef struct llmm_cli_run_src {
    const char *path;     /* the input */
    llmm_cli_format fmt;  /* its format */
    uint64_t index;       /* the run's place in it, from 0 */
} llmm_cli_run_src;

/* One run: what it stated, its own trace (its time line on its own clock, from 0) and summary.
 * LLMM_CLI_OK, or an error code with err filled. */
typedef int (*llmm_cli_run_fn)(void *user, const llmm_cli_run_src *src, const llmm_cli_run *run,
                               const llmm_cli_trace *t, const llmm_cli_summary *s,
                               llmm_cli_error *err);

/* Read every file (fmt: AUTO to detect each), one run at a time; slo: goodput limits (NULL:
 * none). tools[i], when tools is not NULL, gets the tool of file i (NULL for CSV, JSONL). */
int llmm_cli_per_run(char **files, size_t nfiles, llmm_cli_format fmt, const double slo[3],
                     llmm_cli_run_fn fn, void *user, const llmm_cli_tool **tools,
                     llmm_cli_error *err);

#endif /* LLMM_CLI_PERRUN_H */
