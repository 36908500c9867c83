/* llmperf.c: the reader of LLMPerf's *_individual_responses.json (token_benchmark_ray.py), a
 * JSON list of one object per request, in completion order:
 *
 *   {"error_code": null | code, "error_msg": "", "inter_token_latency_s": s, "ttft_s": s,
 *    "end_to_end_latency_s": s, "request_output_throughput_token_per_s": ...,
 *    "number_total_tokens": n, "number_output_tokens": n, "number_input_tokens": n}
 *
 * A request failed when its error_code is not null. TTFT and E2E are the file's; TPOT is ours,
 * (E2E - TTFT) / (output tokens - 1). LLMPerf stores no send times (no time line, no
 * duration: give --duration for throughput) and no per-token times (no ITL samples); its
 * inter_token_latency_s is kept as its own figure, the mean over the successful requests as
 * its summary file computes it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/numbers.h"
#include "input/jreader.h"
#include "input/llmperf.h"

const llmm_cli_tool llmm_cli_llmperf_tool = {
    "LLMPerf",
    "pandas Series.quantile (linear interpolation, as numpy's) over the requests without an "
    "error code",
    {
        "the same: the file's ttft_s (to the first chunk with content)",
        "LLMPerf has none; its inter_token_latency_s = (sum of chunk gaps, TTFT included) / "
        "chunks is neither our ITL nor our TPOT. Its token counts (number_output_tokens) are "
        "its client tokenizer's count of the text, not the server's",
        "LLMPerf stores no per-token times: no ITL distribution",
        "the file's end_to_end_latency_s, which runs until the stream closes (after [DONE]): a "
        "little above vLLM's definition, which ends at the last token",
        "completed requests / LLMPerf's test time, which only its summary states (as "
        "results_num_completed_requests_per_min); its responses file holds no time (give "
        "--duration)",
        "output tokens (its client tokenizer's count) of the completed requests / its test "
        "time (the summary's results_mean_output_throughput_token_per_s)",
        NULL,
        NULL,
    }};

enum { P_LIST = 1, P_REQ };
enum { K_ERROR = 1, K_TTFT, K_E2E, K_OUT, K_IN, K_ITL };

typedef struct llmperf {
    llmm_cli_jreader jr; /* first */
    llmm_cli_record r;
    int has_ttft, has_e2e;
    double itl;
    double itl_sum;
    uint64_t itl_n;
} llmperf;

#define FAIL(p, ...) llmm_cli_jr_fail(&(p)->jr, LLMM_CLI_EPARSE, __VA_ARGS__)

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    static const char *const names[] = {"error_code", "ttft_s", "end_to_end_latency_s",
                                        "number_output_tokens", "number_input_tokens",
                                        "inter_token_latency_s"};
    int i = llmm_cli_key_find(k, len, names, 6);
    (void)self;
    (void)f;
    return i < 0 ? LLMM_CLI_JSON_SKIP : i + 1;
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    llmperf *p = self;
    if (!parent && !map)
        return P_LIST;
    if (parent && parent->type == P_LIST && map) {
        llmm_cli_record *r = &p->r;
        r->start_s = r->ttft_s = r->e2e_s = NAN;
        r->input_tokens = r->output_tokens = -1;
        r->failed = 0;
        p->has_ttft = p->has_e2e = 0;
        p->itl = NAN;
        return P_REQ;
    }
    if (parent && parent->type == P_REQ)
        return LLMM_CLI_JSON_SKIP;
    return llmm_cli_jr_stop(&p->jr, LLMM_CLI_EPARSE, "%s",
                            !parent ? "found an object where a JSON list (LLMPerf's individual "
                                      "responses) should begin"
                                    : "each element must be an object (one request)");
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    llmperf *p = self;
    static const char *const names[] = {"", "error_code", "ttft_s", "end_to_end_latency_s",
                                        "number_output_tokens", "number_input_tokens",
                                        "inter_token_latency_s"};
    size_t i;
    if (!f || f->type == P_LIST)
        return FAIL(p, "found %s where a request object belongs", llmm_cli_json_kind_name(v->kind));
    i = f[-1].idx;
    if (f->key == K_ERROR) {
        p->r.failed = v->kind != K_NULL;
        return 1;
    }
    if (v->kind == K_NULL)
        return 1;
    if (v->kind != K_NUMBER)
        return FAIL(p, "[%zu].%s is %s, expected a number", i, names[f->key],
                    llmm_cli_json_kind_name(v->kind));
    if (!isfinite(v->num) && f->key != K_ITL)
        return FAIL(p, "[%zu].%s is %s", i, names[f->key], llmm_cli_nonfinite_name(v->num));
    if (v->num < 0)
        return FAIL(p, "[%zu].%s is negative (%.9g)", i, names[f->key], v->num);
    switch (f->key) {
    case K_TTFT:
        p->r.ttft_s = v->num;
        p->has_ttft = 1;
        break;
    case K_E2E:
        p->r.e2e_s = v->num;
        p->has_e2e = 1;
        break;
    case K_ITL:
        p->itl = v->num;
        break;
    default:
        if (!llmm_cli_token_count_ok(v->num))
            return FAIL(p, "[%zu].%s is not a token count (%.9g)", i, names[f->key], v->num);
        if (f->key == K_OUT)
            p->r.output_tokens = (int64_t)v->num;
        else
            p->r.input_tokens = (int64_t)v->num;
    }
    return 1;
}

static int on_close(void *self, llmm_cli_json_frame *f)
{
    llmperf *p = self;
    llmm_cli_record *r = &p->r;
    size_t i;
    if (f->type != P_REQ) { /* the list: the one run */
        llmm_cli_run run;
        llmm_cli_run_init(&run);
        if (p->itl_n > 0) {
            static const char name[] = "inter_token_latency_s.mean";
            double m = p->itl_sum / (double)p->itl_n;
            if (!llmm_cli_jr_figure(&p->jr, name, sizeof name - 1, LLMM_CLI_FM_OTHER,
                                    LLMM_CLI_ST_MEAN, NAN, m, "s", m))
                return 0;
        }
        return llmm_cli_jr_run_end(&p->jr, &run);
    }
    i = f[-1].idx;
    if (r->failed) {
        r->ttft_s = r->e2e_s = NAN;
    } else {
        if (!p->has_ttft || !p->has_e2e)
            return FAIL(p, "[%zu]: a successful request needs ttft_s and end_to_end_latency_s",
                        i);
        if (r->e2e_s < r->ttft_s)
            return FAIL(p, "[%zu]: end_to_end_latency_s %.9g is below ttft_s %.9g", i, r->e2e_s,
                        r->ttft_s);
        if (isfinite(p->itl)) {
            p->itl_sum += p->itl;
            p->itl_n++;
        }
    }
    return llmm_cli_jr_record(&p->jr, r);
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, on_close};

static int lp_end(llmm_cli_jreader *r, llmm_cli_error *err)
{
    (void)err;
    snprintf(r->info.layout, sizeof r->info.layout,
             "LLMPerf *_individual_responses.json: no send or per-token times; client-"
             "tokenizer token counts");
    return LLMM_CLI_OK;
}

static const llmm_cli_jformat lp_format = {
    &handler, sizeof(llmperf), "LLMPerf responses list", &llmm_cli_llmperf_tool, 0, NULL, lp_end,
    NULL};

static int lp_detect(const llmm_cli_sniff *s)
{
    return s->kind == '[' && llmm_cli_sniff_has(s, "[]/ttft_s") &&
                   llmm_cli_sniff_has(s, "[]/end_to_end_latency_s")
               ? 3
               : 0;
}

LLMM_CLI_JFORMAT_READER(llmperf, LLMM_CLI_FORMAT_LLMPERF, "llmperf",
    "a list of objects with 'ttft_s' and 'end_to_end_latency_s'",
    lp_detect, &lp_format);
