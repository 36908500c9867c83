/* genai_perf.c: the reader of perf_analyzer's profile_export.json, the per-request record
 * genai-perf computes its figures from.
 *
 *   {"experiments": [{"experiment": {"mode": "concurrency" | "request_rate", "value": N},
 *                     "requests": [{"timestamp": ns, "request_inputs": {...},
 *                                   "response_timestamps": [ns, ...],
 *                                   "response_outputs": [{"response": "<bytes>"}, ...]}, ...],
 *                     "window_boundaries": [ns, ...]}, ...],
 *    "version": ..., "service_kind": "openai", "endpoint": "v1/chat/completions"}
 *
 * Times are nanoseconds since the Unix epoch (read as integers: they exceed 2^53). Each
 * experiment is a run. Per request, with our definitions: TTFT = the first response that
 * carried generated text minus the request's timestamp; E2E = the last such response minus
 * the timestamp; ITL = the gaps between consecutive responses with text; output tokens = the
 * server's usage count when the stream has one, else the number of responses with text (one
 * token per chunk, as vLLM streams). A request without any text failed (genai-perf records no
 * failure: perf_analyzer stops the run on an HTTP error; it leaves such a request out of its
 * latencies but counts it in its request throughput). A non-streaming reply that is not a
 * completion (embeddings) gives an end-to-end latency only. The run's duration is
 * genai-perf's: first request sent to last text received, over the requests with text.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "input/genai_perf.h"
#include "input/jreader.h"

const llmm_cli_tool llmm_cli_genai_perf_tool = {
    "genai-perf",
    "numpy.percentile (linear interpolation) over the requests with text",
    {
        "the same: to the first response with non-empty text",
        "genai-perf calls this inter_token_latency: (E2E - TTFT) / (OSL - 1) per request, with "
        "OSL from a client tokenizer; ours counts usage tokens or text chunks",
        "genai-perf has no per-chunk ITL (its inter_token_latency is our TPOT); ours is every "
        "gap between responses with text",
        "the same: to the last response with non-empty text",
        "genai-perf divides ALL requests (those without text too) by the duration; ours only "
        "the completed ones",
        "genai-perf counts output tokens with a client tokenizer; ours are usage counts or text "
        "chunks",
        NULL,
        "genai-perf's --goodput limits are not in this file; ours uses --slo",
    }};

enum { G_ROOT = 1, G_EXPS, G_EXP, G_MODE, G_REQS, G_REQ, G_TS, G_OUTS, G_OUT, G_INPUTS };
enum {
    K_EXPERIMENTS = 1, K_SERVICE, K_ENDPOINT, K_EXPERIMENT, K_REQUESTS, K_MODE, K_VALUE,
    K_TIMESTAMP, K_RESP_TS, K_RESP_OUT, K_RESPONSE, K_INPUTS, K_PAYLOAD, K_MODEL
};

typedef struct gp {
    llmm_cli_jreader jr; /* first */
    llmm_cli_gp_stream st;
    /* the experiment */
    llmm_cli_run run;
    int64_t t0, first_start, last_end; /* ns; t0: the first request's timestamp */
    uint64_t nreq, ncontent;
    int has_t0;
    char label[64];
    char model[128]; /* the "model" of its requests' payloads, "" none yet */
    /* the request */
    int64_t ts;
    int has_ts, has_outputs;
    int64_t *rts;
    size_t nrts, caprts;
    uint64_t no_text;
    char service[32], endpoint[64];
} gp;

#define FAIL(p, ...) llmm_cli_jr_fail(&(p)->jr, LLMM_CLI_EPARSE, __VA_ARGS__)
#define STOP(p, ...) llmm_cli_jr_stop(&(p)->jr, LLMM_CLI_EPARSE, __VA_ARGS__)

static int lookup(const char *k, size_t len, const char *const *names, const int *ids, int n,
                  int text)
{
    int i = llmm_cli_key_find(k, len, names, n);
    if (i < 0)
        return LLMM_CLI_JSON_SKIP;
    return ids[i] | ((text >> i) & 1 ? LLMM_CLI_JSON_TEXT : 0);
}

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    static const char *const root[] = {"experiments", "service_kind", "endpoint"};
    static const int root_id[] = {K_EXPERIMENTS, K_SERVICE, K_ENDPOINT};
    static const char *const exp[] = {"experiment", "requests"};
    static const int exp_id[] = {K_EXPERIMENT, K_REQUESTS};
    static const char *const mode[] = {"mode", "value"};
    static const int mode_id[] = {K_MODE, K_VALUE};
    static const char *const req[] = {"timestamp", "response_timestamps", "response_outputs",
                                      "request_inputs"};
    static const int req_id[] = {K_TIMESTAMP, K_RESP_TS, K_RESP_OUT, K_INPUTS};
    static const char *const inputs[] = {"payload"};
    static const int inputs_id[] = {K_PAYLOAD};
    static const char *const out[] = {"response", "text_output"};
    static const int out_id[] = {K_RESPONSE, K_RESPONSE};
    switch (f->type) {
    case G_ROOT:
        return lookup(k, len, root, root_id, 3, 6);
    case G_EXP:
        return lookup(k, len, exp, exp_id, 2, 0);
    case G_MODE:
        return lookup(k, len, mode, mode_id, 2, 1);
    case G_REQ:
        return lookup(k, len, req, req_id, 4, 0);
    case G_INPUTS: /* the payload is read only until an experiment's model is known */
        return ((gp *)self)->model[0] ? LLMM_CLI_JSON_SKIP
                                      : lookup(k, len, inputs, inputs_id, 1, 1);
    case G_OUT:
        return lookup(k, len, out, out_id, 2, 3);
    default:
        return LLMM_CLI_JSON_SKIP;
    }
}

static void begin_experiment(gp *p)
{
    llmm_cli_run_init(&p->run);
    p->has_t0 = 0;
    p->first_start = INT64_MAX;
    p->last_end = INT64_MIN;
    p->nreq = p->ncontent = 0;
    p->label[0] = '\0';
    p->model[0] = '\0';
}

/* The request payload's JSON (a string in the file): its top-level "model". */
static int payload_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    (void)self;
    return f->type == 1 && llmm_cli_key_is(k, len, "model") ? K_MODEL | LLMM_CLI_JSON_TEXT
                                                             : LLMM_CLI_JSON_SKIP;
}

static int payload_open(void *self, llmm_cli_json_frame *parent, int map)
{
    (void)self;
    return !parent && map ? 1 : LLMM_CLI_JSON_SKIP;
}

static int payload_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    gp *p = self;
    if (!f || f->key != K_MODEL || v->kind != K_STRING)
        return 1;
    snprintf(p->model, sizeof p->model, "%.*s", (int)(v->len > 127 ? 127 : v->len), v->text);
    return 0; /* found: stop */
}

static const llmm_cli_json_handler payload_handler = {payload_key, payload_open, payload_scalar,
                                                      NULL};

/* The model of a payload, into p->model; a payload that is not JSON names none. The
 * response parser's tokenizer is free between requests' responses. */
static int payload_model(gp *p, const char *text, size_t len)
{
    llmm_cli_json_init(&p->st.inner, &payload_handler, p, 0);
    if (llmm_cli_json_feed(&p->st.inner, text, len) == LLMM_CLI_JSON_NOMEM)
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_ENOMEM, "out of memory");
    return 1;
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    gp *p = self;
    int want = -1; /* the container expected here, as (label, map) */
    int want_map = 0;
    if (!parent) {
        want = G_ROOT;
        want_map = 1;
    } else {
        switch (parent->type) {
        case G_ROOT:
            want = parent->key == K_EXPERIMENTS ? G_EXPS : -1;
            break;
        case G_EXPS:
            want = G_EXP;
            want_map = 1;
            break;
        case G_EXP:
            want = parent->key == K_EXPERIMENT ? G_MODE : G_REQS;
            want_map = parent->key == K_EXPERIMENT;
            break;
        case G_REQS:
            want = G_REQ;
            want_map = 1;
            break;
        case G_REQ:
            want = parent->key == K_RESP_TS    ? G_TS
                   : parent->key == K_RESP_OUT ? G_OUTS
                   : parent->key == K_INPUTS   ? G_INPUTS
                                               : -1;
            want_map = want == G_INPUTS;
            break;
        case G_OUTS:
            want = G_OUT;
            want_map = 1;
            break;
        default:
            break;
        }
    }
    if (want < 0 || (want == G_INPUTS && !map)) /* request_inputs not an object: not read */
        return LLMM_CLI_JSON_SKIP;
    if (map != want_map)
        return STOP(p, "found %s where %s belongs", map ? "an object" : "a list",
                    want_map ? "an object" : "a list");
    if (want == G_EXP)
        begin_experiment(p);
    if (want == G_REQ) {
        p->has_ts = p->has_outputs = 0;
        p->nrts = 0;
        llmm_cli_gp_stream_begin(&p->st);
    }
    if (want == G_OUTS)
        p->has_outputs = 1;
    return want;
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    gp *p = self;
    int64_t n;
    if (!f)
        return FAIL(p, "found %s where a JSON object (a profile export) should begin",
                    llmm_cli_json_kind_name(v->kind));
    switch (f->type) {
    case G_ROOT:
        if (v->kind == K_STRING)
            snprintf(f->key == K_SERVICE ? p->service : p->endpoint,
                     f->key == K_SERVICE ? sizeof p->service : sizeof p->endpoint, "%.*s",
                     (int)(v->len > 60 ? 60 : v->len), v->text);
        return 1;
    case G_MODE:
        if (f->key == K_MODE && v->kind == K_STRING)
            snprintf(p->label, sizeof p->label, "%.*s", (int)(v->len > 40 ? 40 : v->len),
                     v->text);
        else if (f->key == K_VALUE && v->kind == K_NUMBER && isfinite(v->num) && v->num > 0) {
            if (llmm_cli_key_is(p->label, strlen(p->label), "concurrency"))
                p->run.concurrency = v->num;
            else
                p->run.request_rate = v->num;
        }
        return 1;
    case G_REQ:
        if (f->key == K_INPUTS)
            return 1;
        if (f->key != K_TIMESTAMP) {
            if (v->kind != K_NULL)
                return FAIL(p, "requests[%zu].%s is %s, expected a list", f[-1].idx,
                            f->key == K_RESP_TS ? "response_timestamps" : "response_outputs",
                            llmm_cli_json_kind_name(v->kind));
            return 1;
        }
        if (!llmm_cli_json_int(v, &n))
            return FAIL(p, "requests[%zu].timestamp is %s, expected nanoseconds (an integer)",
                        f[-1].idx, v->kind == K_NUMBER ? "not an integer >= 0"
                                                       : llmm_cli_json_kind_name(v->kind));
        p->ts = n;
        p->has_ts = 1;
        return 1;
    case G_INPUTS:
        return f->key == K_PAYLOAD && v->kind == K_STRING ? payload_model(p, v->text, v->len)
                                                          : 1;
    case G_TS:
        if (!llmm_cli_json_int(v, &n))
            return FAIL(p, "requests[%zu].response_timestamps[%zu] is not an integer >= 0",
                        f[-2].idx, f->idx);
        if (llmm_cli_grow(&p->rts, &p->caprts, p->nrts + 1, sizeof *p->rts, 64) != LLMM_CLI_OK)
            return llmm_cli_jr_fail(&p->jr, LLMM_CLI_ENOMEM, "out of memory");
        p->rts[p->nrts++] = n;
        return 1;
    case G_OUT: {
        int rc;
        if (v->kind != K_STRING)
            return 1;
        rc = llmm_cli_gp_stream_response(&p->st, f[-1].idx, v->text, v->len);
        if (rc == LLMM_CLI_ENOMEM)
            return llmm_cli_jr_fail(&p->jr, LLMM_CLI_ENOMEM, "out of memory");
        if (rc != LLMM_CLI_OK)
            return FAIL(p, "requests[%zu].response_outputs[%zu]: %s", f[-3].idx, f[-1].idx,
                        p->st.msg);
        return 1;
    }
    default:
        return 1;
    }
}

/* A request ended: its record and ITLs. */
static int end_request(gp *p, size_t idx)
{
    llmm_cli_record r;
    size_t first = SIZE_MAX, last = 0, n = 0;
    int rc = llmm_cli_gp_stream_end(&p->st);
    if (rc != LLMM_CLI_OK)
        return rc == LLMM_CLI_ENOMEM ? llmm_cli_jr_fail(&p->jr, rc, "out of memory")
                                     : FAIL(p, "requests[%zu]: %s", idx, p->st.msg);
    if (!p->has_ts)
        return FAIL(p, "requests[%zu] has no timestamp", idx);
    if (!p->has_outputs)
        return FAIL(p, "requests[%zu] has no response_outputs: cannot tell which responses "
                       "carried text",
                    idx);
    if (p->st.ncontent > p->nrts)
        return FAIL(p, "requests[%zu] has %zu response_outputs but %zu response_timestamps", idx,
                    p->st.ncontent, p->nrts);
    for (size_t k = 0; k < p->nrts; k++) {
        if (p->rts[k] < p->ts || (k > 0 && p->rts[k] < p->rts[k - 1]))
            return FAIL(p, "requests[%zu].response_timestamps[%zu] is %s", idx, k,
                        p->rts[k] < p->ts ? "before the request's timestamp"
                                          : "before the previous response");
        if (k < p->st.ncontent && p->st.content[k]) {
            if (first == SIZE_MAX)
                first = k;
            last = k;
            n++;
        }
    }
    if (!p->has_t0) {
        p->t0 = p->ts;
        p->has_t0 = 1;
    }
    p->nreq++;
    r.start_s = (double)(p->ts - p->t0) * 1e-9;
    r.input_tokens = p->st.in_tokens;
    r.output_tokens = p->st.out_tokens >= 0 ? p->st.out_tokens : (int64_t)n;
    r.failed = 0;
    r.ttft_s = r.e2e_s = NAN;
    if (n == 0 && p->st.other_body && p->nrts > 0) { /* an end-to-end latency only */
        r.e2e_s = (double)(p->rts[p->nrts - 1] - p->ts) * 1e-9;
        r.output_tokens = -1;
        first = last = p->nrts - 1;
    } else if (n == 0) {
        r.failed = 1;
        r.output_tokens = -1;
        p->no_text++;
        return llmm_cli_jr_record(&p->jr, &r);
    } else {
        r.ttft_s = (double)(p->rts[first] - p->ts) * 1e-9;
        r.e2e_s = (double)(p->rts[last] - p->ts) * 1e-9;
    }
    p->ncontent++;
    if (p->ts < p->first_start)
        p->first_start = p->ts;
    if (p->rts[last] > p->last_end)
        p->last_end = p->rts[last];
    if (!llmm_cli_jr_record(&p->jr, &r))
        return 0;
    for (size_t k = first + 1, prev = first; n > 1 && k <= last; k++) {
        if (!p->st.content[k])
            continue;
        p->jr.info.has_itls = 1;
        if (!llmm_cli_jr_itl(&p->jr, (double)(p->rts[k] - p->rts[prev]) * 1e-9))
            return 0;
        prev = k;
    }
    return 1;
}

static int end_experiment(gp *p)
{
    char label[96];
    double dur = NAN;
    if (p->ncontent > 0)
        dur = (double)(p->last_end - p->first_start) * 1e-9;
    p->run.duration_s = dur;
    p->run.duration_from = "genai-perf's: first request sent to last response with text";
    if (dur > 0) {
        double rate = (double)p->nreq / dur;
        static const char name[] = "request_throughput (genai-perf's definition)";
        if (!llmm_cli_jr_figure(&p->jr, name, sizeof name - 1, LLMM_CLI_FM_REQ_RATE,
                                LLMM_CLI_ST_VALUE, NAN, rate, "req/s", rate))
            return 0;
    }
    if (!llmm_cli_jr_figure(&p->jr, "request_count", 13, LLMM_CLI_FM_COMPLETED,
                            LLMM_CLI_ST_VALUE, NAN, (double)p->ncontent, "count",
                            (double)p->ncontent))
        return 0;
    snprintf(label, sizeof label, "%s %g", p->label[0] ? p->label : "mode",
             !isnan(p->run.concurrency) ? p->run.concurrency : p->run.request_rate);
    p->run.label = label;
    p->run.model = p->model[0] ? p->model : NULL;
    p->run.completed = (int64_t)p->ncontent;
    return llmm_cli_jr_run_end(&p->jr, &p->run);
}

static int on_close(void *self, llmm_cli_json_frame *f)
{
    gp *p = self;
    if (f->type == G_REQ)
        return end_request(p, f[-1].idx);
    if (f->type == G_EXP)
        return end_experiment(p);
    return 1;
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, on_close};

/* The input ended: every experiment was a run; the layout names the service. */
static int gp_end(llmm_cli_jreader *r, llmm_cli_error *err)
{
    gp *p = (gp *)r;
    if (p->jr.info.runs == 0)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                             "%s: no 'experiments' list: not a perf_analyzer profile export",
                             p->jr.name);
    if (p->no_text)
        llmm_cli_jr_note(&p->jr,
                         "%llu requests received no text: counted failed here; genai-perf "
                         "leaves them out of its latencies but counts them in its request "
                         "throughput",
                         (unsigned long long)p->no_text);
    snprintf(p->jr.info.layout, sizeof p->jr.info.layout,
             "perf_analyzer profile_export.json%s%.16s%s%.24s", p->service[0] ? ", service " : "",
             p->service, p->endpoint[0] ? ", endpoint " : "", p->endpoint);
    return LLMM_CLI_OK;
}

static void gp_free(llmm_cli_jreader *r)
{
    gp *p = (gp *)r;
    llmm_cli_gp_stream_free(&p->st);
    free(p->rts);
}

static const llmm_cli_jformat gp_format = {
    &handler, sizeof(gp), "genai-perf profile export", &llmm_cli_genai_perf_tool, 0, NULL,
    gp_end, gp_free};

static int gp_detect(const llmm_cli_sniff *s)
{
    return s->kind == '{' && (llmm_cli_sniff_has(s, "/experiments[]/requests") ||
                              llmm_cli_sniff_has(s, "/experiments[]/experiment"))
               ? 3
               : 0;
}

LLMM_CLI_JFORMAT_READER(genai_perf, LLMM_CLI_FORMAT_GENAI_PERF, "genai-perf",
    "an 'experiments' list whose items hold 'requests'",
    gp_detect, &gp_format);
