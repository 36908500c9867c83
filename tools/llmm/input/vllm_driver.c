/* vllm_driver.c: the readers of vLLM's and SGLang's result documents (vllm.h): their calls
 * (input.h), their detection, and how each tool's definitions relate to ours. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/vllm.h"

static const llmm_cli_tool vllm_tool = {
    "vLLM",
    "numpy.percentile (linear interpolation) over the successful requests",
    {
        "the same: the file's ttfts (to the first chunk with choices: for chat, the role-only "
        "first chunk)",
        "the same formula, (E2E - TTFT) / (output tokens - 1) over requests with more than one "
        "output token",
        "the same: every gap between streamed chunks (the file's itls)",
        "the same: the client's latency to the last chunk (the file's latencies; TTFT + sum of "
        "ITLs where it has none)",
        "the same: completed requests / the benchmark's duration",
        "the same: output tokens of the completed requests / duration",
        "the same: input and output tokens of the completed requests / duration",
        "good requests / duration under vLLM's --goodput limits (not stored in the file); ours "
        "uses --slo",
    }};

/* benchmarks/benchmark_serving.py, before `vllm bench serve`: no per-request latencies, and
 * its latency (and so its TPOT and E2E statistics) taken when the stream ended. */
static const llmm_cli_tool vllm_legacy_tool = {
    "vLLM",
    "numpy.percentile (linear interpolation) over the successful requests",
    {
        "the same: the file's ttfts (to the first chunk with choices)",
        "(latency - TTFT) / (output tokens - 1), its latency taken when the stream ended "
        "([DONE], after the last token) and not stored per request; ours is (E2E - TTFT) / "
        "(output tokens - 1) with our E2E = TTFT + sum of the file's itls, to the last token: "
        "ours is lower by the time from the last token to the stream's end / (output tokens - "
        "1)",
        "the same: every gap between streamed chunks (the file's itls)",
        "its latency (mean_e2el_ms where written) runs to the stream's end ([DONE]) and is not "
        "stored per request; ours is TTFT + sum of the file's itls, to the last token, so ours "
        "is at most vLLM's",
        "the same: completed requests / the benchmark's duration",
        "the same: output tokens of the completed requests / duration",
        "the same: input and output tokens of the completed requests / duration",
        "good requests / duration under its --goodput limits (not stored in the file); ours "
        "uses --slo",
    }};

static const llmm_cli_tool sglang_tool = {
    "SGLang",
    "numpy.percentile (linear interpolation) over the requests it counts completed",
    {
        "the same values: the file's ttfts (SGLang times the first non-empty chunk, skipping a "
        "chat role chunk)",
        "SGLang's (E2E - TTFT) / (N - 1) uses its E2E (to [DONE]) and N = usage tokens or the "
        "requested length; ours uses our E2E and the file's output_lens",
        "the same values: the file's itls (gaps between non-empty chunks)",
        "SGLang's E2E runs to the stream's last line ([DONE]) and is not stored per request; ours "
        "is TTFT + sum of ITLs, to the last token, so ours is at most SGLang's",
        "completed / duration as ours, but SGLang counts a reply without tokens as completed; "
        "we count it failed",
        "output tokens / duration; SGLang's tokens are usage counts or the requested lengths",
        "input and output tokens / duration",
        NULL,
    }};

static const llmm_cli_vllm_dialect vllm_dialect = {&vllm_tool, 0, "vLLM result"};
static const llmm_cli_vllm_dialect sglang_dialect = {&sglang_tool, 1, "SGLang result"};

static int vllm_create(const llmm_cli_reader *rd, const char *name, const llmm_cli_sink *sink,
                       const uint8_t *replay_failed, size_t replay_n, void **out,
                       llmm_cli_error *err)
{
    llmm_cli_vllm *p = calloc(1, sizeof *p);
    llmm_cli_sink s;
    *out = NULL;
    if (!p)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
    p->d = rd->detail;
    memset(&s, 0, sizeof s);
    if (sink)
        s = *sink;
    if (replay_failed) { /* the second pass delivers ITLs and nothing else */
        s.record = NULL;
        s.run_end = NULL;
        s.note = NULL;
        s.event = NULL;
    }
    llmm_cli_jr_init(&p->jr, &llmm_cli_vllm_handler, name, p->d->what, &s, 1);
    p->jr.info.tool = p->d->tool;
    p->replay = replay_failed;
    p->replay_n = replay_n;
    *out = p;
    return LLMM_CLI_OK;
}

static int vllm_feed(void *v, const char *buf, size_t len, llmm_cli_error *err)
{
    return llmm_cli_jr_feed(v, buf, len, err);
}

/* Written by benchmarks/benchmark_serving.py: its "request_goodput:" key, or no endpoint_type
 * (which `vllm bench serve` always writes) and no per-request latencies (which the legacy
 * script never kept). */
static int legacy(const llmm_cli_vllm *p)
{
    int m = p->layout_marks;
    return (m & MARK_LEGACY) || (!(m & MARK_NEW) && !p->docs_with_lat);
}

/* Which layout the documents had, for the input table. */
static void layout(llmm_cli_vllm *p)
{
    const char *what;
    int m = p->layout_marks;
    if (p->d->sglang)
        what = p->docs_with_ttfts ? "sglang.bench_serving with --output-details"
                                  : "sglang.bench_serving, statistics only (no --output-details)";
    else if (m & MARK_POOLING)
        what = p->docs_with_lat ? "vllm bench serve, pooling run: end-to-end latencies only, no "
                                  "per-token latencies"
                                : "vllm bench serve, pooling run, statistics only";
    else if (legacy(p))
        what = p->docs_with_ttfts ? "benchmarks/benchmark_serving.py (legacy), per request"
                                  : "benchmarks/benchmark_serving.py (legacy), statistics only";
    else if (p->docs_with_ttfts)
        what = "vllm bench serve --save-detailed";
    else if (p->docs_with_lat)
        what = "vllm bench serve without --save-detailed: end-to-end latencies only";
    else
        what = "vllm bench serve, statistics only";
    snprintf(p->jr.info.layout, sizeof p->jr.info.layout, "%s", what);
    /* the legacy script (no endpoint_type, which `vllm bench serve` always writes) times its
     * latency at the stream's end */
    if (!p->d->sglang && !(m & MARK_POOLING) && legacy(p))
        p->jr.info.tool = &vllm_legacy_tool;
}

static int vllm_finish(void *v, llmm_cli_input_info *info, llmm_cli_error *err)
{
    llmm_cli_vllm *p = v;
    int rc = llmm_cli_jr_finish(&p->jr, err);
    if (rc != LLMM_CLI_OK || p->replay)
        return rc;
    if (p->jr.info.runs == 0)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: empty input: no %s document", p->jr.name,
                             p->d->what);
    layout(p);
    if (info)
        *info = p->jr.info;
    return LLMM_CLI_OK;
}

static const uint8_t *vllm_replay(const void *v, size_t *n)
{
    const llmm_cli_vllm *p = v;
    *n = p->nfailed;
    return p->needs_replay ? p->failed : NULL;
}

static void vllm_destroy(void *v)
{
    llmm_cli_vllm *p = v;
    if (!p)
        return;
    llmm_cli_jr_free(&p->jr);
    free(p->req);
    free(p->failed);
    free(p);
}

/* ---- detection ------------------------------------------------------------------------------ */

static int has(const llmm_cli_sniff *s, const char *path)
{
    return llmm_cli_sniff_has(s, path);
}

static int sglang_marked(const llmm_cli_sniff *s)
{
    return has(s, "/dataset_name") || has(s, "/total_output_tokens_retokenized") ||
           has(s, "/mean_e2e_latency_ms") || has(s, "/total_output_retokenized");
}

static int vllm_detect(const llmm_cli_sniff *s)
{
    if (s->kind != '{' || sglang_marked(s))
        return 0;
    if (has(s, "/completed") && has(s, "/duration"))
        return has(s, "/date") || has(s, "/model_id") || has(s, "/endpoint_type") ? 3 : 2;
    return has(s, "/ttfts") || has(s, "/latencies") ? 2 : 0;
}

static int sglang_detect(const llmm_cli_sniff *s)
{
    return s->kind == '{' && sglang_marked(s) && (has(s, "/completed") || has(s, "/ttfts")) ? 3
                                                                                            : 0;
}

const llmm_cli_reader llmm_cli_reader_vllm = {
    LLMM_CLI_FORMAT_VLLM, "vllm",
    "a JSON object with 'completed' and 'duration', or 'ttfts' / 'latencies' lists",
    vllm_detect, &vllm_dialect, vllm_create, vllm_feed, vllm_finish, vllm_replay, vllm_destroy};

const llmm_cli_reader llmm_cli_reader_sglang = {
    LLMM_CLI_FORMAT_SGLANG, "sglang",
    "JSON objects with 'completed' and 'dataset_name' or 'mean_e2e_latency_ms'",
    sglang_detect, &sglang_dialect, vllm_create, vllm_feed, vllm_finish, vllm_replay,
    vllm_destroy};
