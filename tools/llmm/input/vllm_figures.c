/* vllm_figures.c: the figures vLLM and SGLang write next to their per-request lists: the
 * latency statistics (`mean_ttft_ms`, `p99.9_e2el_ms`, SGLang's `median_e2e_latency_ms`), in
 * milliseconds, and the run's counts and rates. Each becomes one of the run's figures
 * (record.h), as the tool wrote it; some keys only tell which layout the document has. */
#include <math.h>
#include <string.h>

#include "input/vllm.h"

typedef struct numkey {
    const char *key;
    int metric;
    const char *unit;
    int mark;
} numkey;

/* Every count and rate a tool writes at the top of a document. */
static const numkey numkeys[] = {
    {"duration", LLMM_CLI_FM_DURATION, "s", 0},
    {"completed", LLMM_CLI_FM_COMPLETED, "count", 0},
    {"failed", LLMM_CLI_FM_FAILED, "count", 0},
    {"total_input_tokens", LLMM_CLI_FM_IN_TOKENS, "count", 0},
    {"total_output_tokens", LLMM_CLI_FM_OUT_TOKENS, "count", 0},
    {"total_input", LLMM_CLI_FM_IN_TOKENS, "count", MARK_SGLANG},
    {"total_output", LLMM_CLI_FM_OUT_TOKENS, "count", MARK_SGLANG},
    {"request_throughput", LLMM_CLI_FM_REQ_RATE, "req/s", 0},
    {"request_goodput", LLMM_CLI_FM_GOODPUT, "req/s", 0},
    {"request_goodput:", LLMM_CLI_FM_GOODPUT, "req/s", MARK_LEGACY},
    {"output_throughput", LLMM_CLI_FM_OUT_TOK_RATE, "tok/s", 0},
    {"total_token_throughput", LLMM_CLI_FM_TOTAL_TOK_RATE, "tok/s", 0},
    {"total_throughput", LLMM_CLI_FM_TOTAL_TOK_RATE, "tok/s", MARK_SGLANG},
    {"input_throughput", LLMM_CLI_FM_OTHER, "tok/s", MARK_SGLANG},
    {"input_sequence_throughput", LLMM_CLI_FM_OTHER, "seq/s", MARK_POOLING},
    {"total_input_sequences", LLMM_CLI_FM_OTHER, "count", MARK_POOLING},
    {"max_output_tokens_per_s", LLMM_CLI_FM_OTHER, "tok/s", 0},
    {"max_concurrent_requests", LLMM_CLI_FM_OTHER, "count", 0},
    {"concurrency", LLMM_CLI_FM_OTHER, "requests", MARK_SGLANG},
    {"total_output_tokens_retokenized", LLMM_CLI_FM_OTHER, "count", MARK_SGLANG},
    {"accept_length", LLMM_CLI_FM_OTHER, "tokens", 0},
};

/* Keys that only tell the layout. */
static const numkey marks[] = {
    {"endpoint_type", 0, NULL, MARK_NEW},
    {"dataset_name", 0, NULL, MARK_SGLANG},
};

static void pending(llmm_cli_vllm *p, const char *k, size_t len, int metric, int stat, double q,
                    const char *unit, double scale)
{
    if (len >= sizeof p->fig_name)
        len = sizeof p->fig_name - 1;
    memcpy(p->fig_name, k, len);
    p->fig_name[len] = '\0';
    p->fig_len = len;
    p->fig_metric = metric;
    p->fig_stat = stat;
    p->fig_q = q;
    p->fig_unit = unit;
    p->fig_scale = scale;
}

int llmm_cli_vllm_figure_key(llmm_cli_vllm *p, const char *k, size_t len)
{
    int stat, metric;
    double q;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        if (llmm_cli_key_is(k, len, marks[i].key)) {
            p->marks |= marks[i].mark;
            return VF_NONE; /* its value is skipped */
        }
    }
    for (size_t i = 0; i < sizeof numkeys / sizeof numkeys[0]; i++) {
        const numkey *n = &numkeys[i];
        if (llmm_cli_key_is(k, len, n->key)) {
            p->marks |= n->mark;
            pending(p, k, len, n->metric, LLMM_CLI_ST_VALUE, NAN, n->unit, 1.0);
            return VF_FIGURE;
        }
    }
    if (llmm_cli_stat_key(k, len, &stat, &q, &metric)) {
        if (llmm_cli_key_is(k, len, "mean_e2e_latency_ms"))
            p->marks |= MARK_SGLANG;
        pending(p, k, len, metric, stat, q, "ms", 1e-3);
        return VF_FIGURE;
    }
    return VF_NONE;
}

int llmm_cli_vllm_figure_value(llmm_cli_vllm *p, const llmm_cli_json_value *v)
{
    if (v->kind != K_NUMBER || p->replay)
        return 1; /* null: not measured (request_goodput without --goodput) */
    return llmm_cli_jr_figure(&p->jr, p->fig_name, p->fig_len, p->fig_metric, p->fig_stat,
                              p->fig_q, v->num, p->fig_unit, v->num * p->fig_scale);
}
