/* vllm.c: the result documents of `vllm bench serve` (and the older
 * benchmarks/benchmark_serving.py) and of SGLang's `bench_serving`, streamed.
 *
 * A document is one JSON object (a file holds several, one per line, with vLLM's
 * --append-result and SGLang's JSON Lines) with summary figures and, when the run saved them,
 * per-request lists of equal length, in vLLM's order:
 *
 *   input_lens [int], output_lens [int], ttfts [s], itls [[s]], latencies [s], start_times [s],
 *   generated_texts [str], errors [str]
 *
 * (SGLang writes them after its statistics, without latencies or start times; pooling runs
 * have latencies and no ttfts). A request failed when its `errors` entry is a non-empty
 * string; also when it has no first token (TTFT 0) or no latency (0): vLLM writes 0 for
 * both, and an empty error string for a non-200 reply with an empty reason phrase. SGLang
 * counts a reply without tokens as completed; its files mark it with output length 0, and
 * the reader counts it failed. Definitions (vLLM's, which the report follows):
 *   E2E  = the request's client-measured latency (`latencies`), or TTFT + sum(ITL) without it;
 *   TPOT = (E2E - TTFT) / (output tokens - 1), for requests with more than one output token;
 *   ITL  = every gap between streamed chunks of successful requests.
 * A document without ttfts gives end-to-end latencies only (pooling runs, vLLM files saved
 * without --save-detailed, which keep `latencies`); one without either gives the tool's
 * statistics only (vllm_figures.c), never a made-up distribution.
 *
 * The reader keeps a few numbers per request, never the ITL lists or texts, so memory follows
 * the number of requests, not the file size. Each ITL goes to the sink as it is read, when the
 * request looks successful from what came before it (vLLM writes output length 0 and TTFT 0
 * for failures, both before `itls`); when the end of the document proves that guess wrong for
 * a request that had ITLs, the reader asks for a second pass (input.h) that delivers exactly
 * the ITLs of the successful requests. Unknown keys are skipped whatever they hold.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/numbers.h"
#include "input/vllm.h"

const char *const llmm_cli_vllm_field_name[VF_LISTS] = {
    "", "input_lens", "output_lens", "ttfts", "itls", "latencies", "start_times", "errors",
    "llmm_events"};

#define NAME(f) llmm_cli_vllm_field_name[f]
#define FAIL(p, ...) llmm_cli_jr_fail(&(p)->jr, LLMM_CLI_EPARSE, __VA_ARGS__)
#define STOP(p, ...) llmm_cli_jr_stop(&(p)->jr, LLMM_CLI_EPARSE, __VA_ARGS__)

static vreq *get_req(llmm_cli_vllm *p, size_t i)
{
    if (i >= p->nreq) {
        if (llmm_cli_grow(&p->req, &p->capreq, i + 1, sizeof *p->req, 1024) != LLMM_CLI_OK)
            return NULL;
        for (size_t k = p->nreq; k <= i; k++) {
            vreq *q = &p->req[k];
            memset(q, 0, sizeof *q);
            q->ttft = q->lat = q->start = NAN;
            q->in_len = q->out_len = -1;
        }
        p->nreq = i + 1;
    }
    return &p->req[i];
}

static void begin_document(llmm_cli_vllm *p)
{
    p->nreq = 0;
    memset(p->seen_field, 0, sizeof p->seen_field);
    memset(p->col_len, 0, sizeof p->col_len);
    p->marks = 0;
    p->backend[0] = '\0';
    p->model[0] = '\0';
    p->stated_completed = p->stated_failed = -1;
    llmm_cli_run_init(&p->run);
}

static int push_failed_flag(llmm_cli_vllm *p, uint8_t f)
{
    if (llmm_cli_grow(&p->failed, &p->capfailed, p->nfailed + 1, 1, 4096) != LLMM_CLI_OK)
        return LLMM_CLI_ENOMEM;
    p->failed[p->nfailed++] = f;
    return LLMM_CLI_OK;
}

/* ---- the end of a document --------------------------------------------------------------- */

/* Did request q fail? (Everything of the document is known.) */
static int failed(const llmm_cli_vllm *p, const vreq *q)
{
    if (q->err)
        return 1;
    if (p->seen_field[VF_TTFTS] && q->ttft == 0)
        return 1;
    if (p->seen_field[VF_LAT] && q->lat == 0)
        return 1;
    return p->d->sglang && q->out_len == 0;
}

/* The record of request i (not failed). */
static int success_record(llmm_cli_vllm *p, size_t i, llmm_cli_record *r)
{
    const vreq *q = &p->req[i];
    if (p->seen_field[VF_TTFTS]) {
        if (isnan(q->ttft))
            return FAIL(p, "ttfts[%zu] is null for a successful request", i);
        r->ttft_s = q->ttft;
    }
    if (!isnan(q->lat)) {
        r->e2e_s = q->lat;
        p->jr.info.e2e_from_latencies++;
    } else if (p->seen_field[VF_ITLS] && p->seen_field[VF_TTFTS]) {
        r->e2e_s = q->ttft + q->itl_sum;
        p->jr.info.e2e_from_itls++;
        if (!isfinite(r->e2e_s))
            return FAIL(p,
                        "request %zu: the end-to-end latency rebuilt from its TTFT (ttfts[%zu] = "
                        "%.9g s) and its %u ITLs (itls[%zu], sum %g s) overflows to infinity",
                        i, i, q->ttft, (unsigned)q->itl_n, i, q->itl_sum);
    } else {
        return FAIL(p, "latencies[%zu] is null and there are no 'itls' to rebuild it", i);
    }
    if (r->e2e_s < r->ttft_s)
        return FAIL(p, "request %zu: end-to-end latency %.9g s is below its TTFT %.9g s", i,
                    r->e2e_s, r->ttft_s);
    return 1;
}

/* The lists agree in length; there is something per request to report. */
static int check_lists(llmm_cli_vllm *p, size_t *n)
{
    *n = 0;
    for (int f = VF_IN; f < VF_EVENTS; f++)
        if (p->seen_field[f] && p->col_len[f] > *n)
            *n = p->col_len[f];
    for (int f = VF_IN; f < VF_EVENTS; f++) {
        if (p->seen_field[f] && p->col_len[f] != *n)
            return FAIL(p, "'%s' has %zu entries but other lists have %zu", NAME(f),
                        p->col_len[f], *n);
    }
    if (p->seen_field[VF_TTFTS] && *n > 0 && !p->seen_field[VF_LAT] && !p->seen_field[VF_ITLS])
        return FAIL(p, "neither 'latencies' nor 'itls': no end-to-end latency to report");
    if (p->seen_field[VF_ITLS] && !p->seen_field[VF_TTFTS])
        return FAIL(p, "'itls' without 'ttfts'");
    return 1;
}

/* The tool's counts against the requests' flags. */
static void check_counts(llmm_cli_vllm *p, uint64_t ok, uint64_t bad)
{
    const char *tool = p->d->tool->name;
    if (p->stated_completed >= 0 && (uint64_t)p->stated_completed != ok)
        llmm_cli_jr_note(&p->jr,
                         "%s says completed=%lld but %llu requests have a first token, a latency "
                         "and no error; the report counts the latter",
                         tool, (long long)p->stated_completed, (unsigned long long)ok);
    if (p->stated_failed >= 0 && (uint64_t)p->stated_failed != bad)
        llmm_cli_jr_note(&p->jr,
                         "%s says failed=%lld but %llu requests carry an error, no first token "
                         "or no latency; the report counts the latter",
                         tool, (long long)p->stated_failed, (unsigned long long)bad);
}

static void set_label(llmm_cli_vllm *p, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    if (!isnan(p->run.request_rate))
        n += (size_t)snprintf(buf, cap, isinf(p->run.request_rate) ? "rate inf" : "rate %g/s",
                              p->run.request_rate);
    if (!isnan(p->run.concurrency) && n < cap)
        snprintf(buf + n, cap - n, "%sconcurrency %g", n ? ", " : "", p->run.concurrency);
    p->run.label = buf[0] ? buf : NULL;
}

/* The whole document is known: deliver its requests, then the run. */
static int end_document(llmm_cli_vllm *p)
{
    uint64_t ok = 0, bad = 0;
    size_t n;
    char label[96];
    if (p->replay) {
        p->replay_base += p->col_len[VF_ITLS];
        return 1;
    }
    if (!check_lists(p, &n))
        return 0;
    p->run.stats_only = !p->seen_field[VF_TTFTS] && !p->seen_field[VF_LAT];
    for (size_t i = 0; !p->run.stats_only && i < n; i++) {
        vreq *q = &p->req[i];
        llmm_cli_record r;
        int f = failed(p, q);
        r.start_s = q->start;
        r.input_tokens = q->in_len;
        r.output_tokens = q->out_len;
        r.failed = f;
        r.ttft_s = r.e2e_s = NAN;
        if (!f && !success_record(p, i, &r))
            return 0;
        f ? bad++ : ok++;
        if (q->itl_n > 0 && (q->itl == ITL_SENT) == f)
            p->needs_replay = 1;
        if (p->seen_field[VF_ITLS] && push_failed_flag(p, (uint8_t)f) != LLMM_CLI_OK)
            return llmm_cli_jr_fail(&p->jr, LLMM_CLI_ENOMEM, "out of memory");
        if (!llmm_cli_jr_record(&p->jr, &r))
            return 0;
        if (f && q->nkind && p->jr.sink.failure &&
            !llmm_cli_jr_sink(&p->jr, p->jr.sink.failure(p->jr.sink.user, q->kind, q->nkind)))
            return 0;
    }
    if (!p->run.stats_only) {
        check_counts(p, ok, bad);
        p->docs_with_ttfts += p->seen_field[VF_TTFTS];
        p->docs_with_lat += p->seen_field[VF_LAT];
    }
    if (p->seen_field[VF_ITLS])
        p->jr.info.has_itls = 1;
    p->layout_marks |= p->marks;
    p->run.completed = p->stated_completed;
    p->run.failed = p->stated_failed;
    set_label(p, label, sizeof label);
    p->run.model = p->model[0] ? p->model : NULL;
    return llmm_cli_jr_run_end(&p->jr, &p->run);
}

/* ---- per-request lists ---------------------------------------------------------------------- */

/* Should request q's ITLs go to the sink now? */
static int itl_now(const llmm_cli_vllm *p, size_t i)
{
    const vreq *q = &p->req[i];
    if (p->replay) {
        size_t g = p->replay_base + i;
        return g < p->replay_n && !p->replay[g];
    }
    if ((q->seen & SEEN_ERR) && q->err)
        return 0;
    if ((q->seen & SEEN_TTFT) && q->ttft == 0)
        return 0;
    return !((q->seen & SEEN_OUT) && q->out_len == 0);
}

/* A number of a list that must be finite: the message names the list and the element. */
static int finite_number(llmm_cli_vllm *p, int field, size_t i, const llmm_cli_json_value *v)
{
    if (v->kind != K_NUMBER && v->kind != K_NULL)
        return FAIL(p, "%s[%zu] is %s, expected a number", NAME(field), i,
                    llmm_cli_json_kind_name(v->kind));
    if (v->kind == K_NUMBER && !isfinite(v->num))
        return FAIL(p, "%s[%zu] is %s", NAME(field), i, llmm_cli_nonfinite_name(v->num));
    if (v->kind == K_NUMBER && field != VF_START && v->num < 0)
        return FAIL(p, "%s[%zu] is negative (%.9g)", NAME(field), i, v->num);
    return 1;
}

static int element(llmm_cli_vllm *p, int field, size_t i, const llmm_cli_json_value *v)
{
    vreq *q = get_req(p, i);
    double x = v->kind == K_NUMBER ? v->num : NAN;
    if (!q)
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_ENOMEM, "out of memory");
    switch (field) {
    case VF_ITLS:
        if (v->kind != K_NULL)
            return FAIL(p, "itls[%zu] is %s, expected a list of numbers", i,
                        llmm_cli_json_kind_name(v->kind));
        return 1; /* null: no tokens streamed */
    case VF_ERR:
        if (v->kind != K_STRING && v->kind != K_NULL)
            return FAIL(p, "errors[%zu] is %s, expected a string or null", i,
                        llmm_cli_json_kind_name(v->kind));
        q->err = v->kind == K_STRING && v->len > 0;
        q->seen |= SEEN_ERR;
        q->nkind = 0;
        if (q->err && v->text) {
            const char *colon = memchr(v->text, ':', v->len);
            size_t n = colon ? (size_t)(colon - v->text) : v->len;
            q->nkind = (uint8_t)(n < sizeof q->kind ? n : sizeof q->kind);
            memcpy(q->kind, v->text, q->nkind);
        }
        return 1;
    default:
        break;
    }
    if (!finite_number(p, field, i, v))
        return 0;
    if ((field == VF_IN || field == VF_OUT) && v->kind == K_NUMBER &&
        !llmm_cli_token_count_ok(x))
        return FAIL(p, "%s[%zu] is not a token count (%.9g)", NAME(field), i, x);
    switch (field) {
    case VF_TTFTS:
        q->ttft = x;
        q->seen |= SEEN_TTFT;
        break;
    case VF_LAT:
        q->lat = x;
        break;
    case VF_START:
        q->start = x;
        break;
    case VF_IN:
        q->in_len = v->kind == K_NUMBER ? (int64_t)x : -1;
        break;
    default:
        q->out_len = v->kind == K_NUMBER ? (int64_t)x : -1;
        q->seen |= SEEN_OUT;
        break;
    }
    return 1;
}

/* One ITL of request i. */
static int itl(llmm_cli_vllm *p, size_t i, const llmm_cli_json_value *v)
{
    vreq *q = &p->req[i];
    if (v->kind != K_NUMBER)
        return FAIL(p, "itls[%zu] holds %s, expected numbers", i, llmm_cli_json_kind_name(v->kind));
    if (!isfinite(v->num))
        return FAIL(p, "itls[%zu] holds %s", i, llmm_cli_nonfinite_name(v->num));
    if (v->num < 0)
        return FAIL(p, "itls[%zu] holds a negative latency (%.9g)", i, v->num);
    q->itl_sum += v->num;
    q->itl_n++;
    return q->itl != ITL_SENT || llmm_cli_jr_itl(&p->jr, v->num);
}

/* ---- the handler ------------------------------------------------------------------------------ */

static int doc_key(llmm_cli_vllm *p, const char *k, size_t len)
{
    static const char *const scalars[] = {"duration",     "completed", "failed",  "max_concurrency",
                                          "request_rate", "backend",   "model_id"};
    int f = llmm_cli_key_find(k, len, llmm_cli_vllm_field_name + 1, VF_LISTS - 1) + 1, s;
    if (p->replay) /* the second pass reads ITLs only */
        return f == VF_ITLS ? (p->seen_field[VF_ITLS] = 1, VF_ITLS) : LLMM_CLI_JSON_SKIP;
    if (f > 0) {
        if (p->seen_field[f])
            return STOP(p, "key '%s' appears twice", NAME(f));
        p->seen_field[f] = 1;
        return f;
    }
    s = llmm_cli_key_find(k, len, scalars, 7);
    if (s >= 0) {
        int field = VF_DURATION + s;
        /* these three are figures too */
        if (field <= VF_FAILED)
            llmm_cli_vllm_figure_key(p, k, len);
        return field == VF_RATE || field >= VF_BACKEND ? field | LLMM_CLI_JSON_TEXT : field;
    }
    f = llmm_cli_vllm_figure_key(p, k, len);
    return f == VF_NONE ? LLMM_CLI_JSON_SKIP : f;
}

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    llmm_cli_vllm *p = self;
    if (f->type == VT_DOC)
        return doc_key(p, k, len);
    if (f->type == VT_EVENT)
        return llmm_cli_vllm_event_key(p, k, len);
    return LLMM_CLI_JSON_SKIP;
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    llmm_cli_vllm *p = self;
    const char *what = map ? "an object" : "a list";
    if (!parent) {
        if (!map)
            return STOP(p, "found a list where a JSON object (a %s) should begin", p->d->what);
        begin_document(p);
        return VT_DOC;
    }
    switch (parent->type) {
    case VT_DOC:
        if (parent->key >= VF_LISTS) {
            if (parent->key <= VF_FAILED)
                return STOP(p, "'%s' is %s, expected a number", p->fig_name, what);
            return LLMM_CLI_JSON_SKIP;
        }
        if (map)
            return STOP(p, "'%s' is an object, expected a list", NAME(parent->key));
        /* errors: their text, for the kind of each failure */
        return parent->key == VF_ERR ? VT_LIST | LLMM_CLI_JSON_TEXT : VT_LIST;
    case VT_LIST: {
        int field = parent[-1].key;
        if (field == VF_EVENTS && map)
            return llmm_cli_vllm_event_open(p);
        if (field == VF_ITLS && !map) {
            vreq *q = get_req(p, parent->idx);
            if (!q)
                return llmm_cli_jr_stop(&p->jr, LLMM_CLI_ENOMEM, "out of memory");
            q->itl = itl_now(p, parent->idx) ? ITL_SENT : ITL_HELD;
            return VT_ROW;
        }
        return STOP(p, "%s[%zu] is %s, expected %s", NAME(field), parent->idx, what,
                    field == VF_ERR      ? "a string"
                    : field == VF_EVENTS ? "an object"
                                         : "a number");
    }
    default:
        return STOP(p, "%s[%zu] holds a nested %s",
                    parent->type == VT_ROW ? "itls" : "llmm_events", parent[-1].idx,
                    map ? "object" : "list");
    }
}

static int doc_scalar(llmm_cli_vllm *p, int field, const llmm_cli_json_value *v)
{
    if (field < VF_LISTS)
        return FAIL(p, "'%s' is %s, expected a list", NAME(field), llmm_cli_json_kind_name(v->kind));
    switch (field) {
    case VF_DURATION:
    case VF_COMPLETED:
    case VF_FAILED:
        if (v->kind == K_NULL)
            return 1;
        if (v->kind != K_NUMBER || !(v->num >= 0) || isinf(v->num))
            return FAIL(p, "'%s' is %s, expected a number >= 0", p->fig_name,
                        v->kind == K_NUMBER ? (isnan(v->num) || isinf(v->num)
                                                   ? llmm_cli_nonfinite_name(v->num)
                                                   : "negative")
                                            : llmm_cli_json_kind_name(v->kind));
        if (field == VF_DURATION)
            p->run.duration_s = v->num;
        else if (field == VF_COMPLETED)
            p->stated_completed = v->num < 9e15 ? (int64_t)v->num : -1;
        else
            p->stated_failed = v->num < 9e15 ? (int64_t)v->num : -1;
        return llmm_cli_vllm_figure_value(p, v);
    case VF_MAXCONC:
        if (v->kind == K_NUMBER && v->num > 0)
            p->run.concurrency = v->num;
        return 1;
    case VF_RATE: /* a number, Infinity, or vLLM's string "inf" */
        if (v->kind == K_NUMBER && v->num > 0)
            p->run.request_rate = v->num;
        else if (v->kind == K_STRING && llmm_cli_key_is(v->text, v->len, "inf"))
            p->run.request_rate = INFINITY;
        return 1;
    case VF_BACKEND:
        if (v->kind == K_STRING) {
            snprintf(p->backend, sizeof p->backend, "%.*s", (int)(v->len > 47 ? 47 : v->len),
                     v->text);
            if (strstr(p->backend, "embeddings") || strstr(p->backend, "rerank") ||
                strstr(p->backend, "pooling"))
                p->marks |= MARK_POOLING;
        }
        return 1;
    case VF_MODEL:
        if (v->kind == K_STRING)
            snprintf(p->model, sizeof p->model, "%.*s", (int)(v->len > 95 ? 95 : v->len), v->text);
        return 1;
    default:
        return llmm_cli_vllm_figure_value(p, v);
    }
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    llmm_cli_vllm *p = self;
    if (!f)
        return FAIL(p, "found %s where a JSON object (a %s) should begin",
                    llmm_cli_json_kind_name(v->kind), p->d->what);
    switch (f->type) {
    case VT_ROW:
        return itl(p, f[-1].idx, v);
    case VT_LIST:
        if (p->replay)
            return 1;
        if (f[-1].key == VF_EVENTS) {
            if (v->kind != K_NULL)
                return FAIL(p, "llmm_events[%zu] is %s, expected an object", f->idx,
                            llmm_cli_json_kind_name(v->kind));
            return 1;
        }
        return element(p, f[-1].key, f->idx, v);
    case VT_EVENT:
        return llmm_cli_vllm_event_scalar(p, f, v);
    default:
        return doc_scalar(p, f->key, v);
    }
}

static int on_close(void *self, llmm_cli_json_frame *f)
{
    llmm_cli_vllm *p = self;
    switch (f->type) {
    case VT_DOC:
        return end_document(p);
    case VT_LIST:
        p->col_len[f[-1].key] = f->idx;
        return 1;
    case VT_EVENT:
        return llmm_cli_vllm_event_close(p, f[-1].idx);
    default:
        return 1;
    }
}

const llmm_cli_json_handler llmm_cli_vllm_handler = {on_key, on_open, on_scalar, on_close};
