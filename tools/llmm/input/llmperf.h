/* llmperf.h: what LLMPerf's two readers share (llmperf.c, llmperf_summary.c): how its
 * definitions relate to ours. */
#ifndef LLMM_CLI_LLMPERF_H
#define LLMM_CLI_LLMPERF_H

#include "input/record.h"

extern const llmm_cli_tool llmm_cli_llmperf_tool;

#endif /* LLMM_CLI_LLMPERF_H */
