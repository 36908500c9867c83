/* vllm.c: the reader of `vllm bench serve --save-result --save-detailed` result files, streamed.
 *
 * The file is one JSON object (several, one per line, with --append-result) holding summary
 * numbers and per-request lists of equal length, in vLLM's own key order:
 *
 *   input_lens [int], output_lens [int], ttfts [s], itls [[s]], latencies [s] (newer vLLM),
 *   start_times [s] (newer vLLM), generated_texts [str], errors [str], duration (s), ...
 *
 * A request failed when its `errors` entry is a non-empty string (vLLM keeps "" for a
 * success). vLLM's definitions, which the report follows:
 *   E2E  = the request's client-measured latency (`latencies`), or TTFT + sum(ITL) in files
 *          without that list (the same reconstruction vLLM's timeline plot uses);
 *   TPOT = (E2E − TTFT) / (output tokens − 1), for requests with more than one output token;
 *   ITL  = every gap between streamed chunks of successful requests.
 *
 * YAJL streams the text; the parser keeps a few numbers per request and never the ITL lists
 * or texts, so memory follows the number of requests, not the file size. Each ITL goes to
 * the sink as it is read. vLLM writes `errors` after `itls`, so the ITLs of a request that
 * failed half-way have already been delivered when its error is seen: the parser then asks
 * for a second pass (llmm_cli_vllm_needs_replay()) that delivers only the ITLs of successful
 * requests. Unknown keys are skipped whatever they hold.
 *
 * One extension, ignored by vLLM's own tools: "llmm_events", a list of {"t": seconds on the
 * clock of start_times, "type": an event name such as "model.weight_switch", "value": number}
 * (vllm_events.c); `llmm demo` writes its weight switch there.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/numbers.h"
#include "input/vllm.h"

const char *const llmm_cli_vllm_field_name[F_COUNT] = {
    "", "", "ttfts", "itls", "latencies", "start_times", "input_lens", "output_lens",
    "errors", "duration", "failed", "llmm_events"};

#define field_name llmm_cli_vllm_field_name
#define cb_fail llmm_cli_vllm_fail

int llmm_cli_vllm_fail(llmm_cli_vllm *p, int code, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = llmm_cli_cb_vfail(&p->cb, code, fmt, ap); /* 0: tells YAJL to stop */
    va_end(ap);
    return r;
}

static int sink_status(llmm_cli_vllm *p, int rc)
{
    if (rc == LLMM_CLI_OK)
        return 1;
    return cb_fail(p, rc, rc == LLMM_CLI_ENOMEM ? "out of memory" : "cannot record the data");
}

static vreq *get_req(llmm_cli_vllm *p, size_t i)
{
    if (i >= p->nreq) {
        if (llmm_cli_grow(&p->req, &p->capreq, i + 1, sizeof *p->req, 1024) != LLMM_CLI_OK)
            return NULL;
        for (size_t k = p->nreq; k <= i; k++) {
            vreq *q = &p->req[k];
            q->ttft = q->lat = q->start = NAN;
            q->itl_sum = 0;
            q->in_len = q->out_len = -1;
            q->itl_n = 0;
            q->failed = q->tentative = q->seen = 0;
        }
        p->nreq = i + 1;
    }
    return &p->req[i];
}

static void begin_document(llmm_cli_vllm *p)
{
    p->nreq = 0;
    p->duration = NAN;
    p->file_failed = NAN;
    memset(p->seen_field, 0, sizeof p->seen_field);
    memset(p->col_len, 0, sizeof p->col_len);
}

static int push_failed_flag(llmm_cli_vllm *p, uint8_t f)
{
    if (llmm_cli_grow(&p->failed, &p->capfailed, p->nfailed + 1, 1, 4096) != LLMM_CLI_OK)
        return LLMM_CLI_ENOMEM;
    p->failed[p->nfailed++] = f;
    return LLMM_CLI_OK;
}

/* The whole document is known: check it and deliver its requests. */
static int end_document(llmm_cli_vllm *p)
{
    size_t n = p->col_len[F_TTFTS];
    uint64_t nfailed = 0;
    if (p->replay) {
        p->replay_base += p->nreq;
        return 1;
    }
    if (!p->seen_field[F_TTFTS])
        return cb_fail(p, LLMM_CLI_EPARSE,
                       "no 'ttfts' list: not a detailed vLLM result (run vllm bench serve "
                       "with --save-result --save-detailed)");
    for (int f = F_TTFTS; f <= F_ERR; f++) {
        if (p->seen_field[f] && p->col_len[f] != n)
            return cb_fail(p, LLMM_CLI_EPARSE, "'%s' has %zu entries but 'ttfts' has %zu",
                           field_name[f], p->col_len[f], n);
    }
    if (n > 0 && !p->seen_field[F_LAT] && !p->seen_field[F_ITLS])
        return cb_fail(p, LLMM_CLI_EPARSE,
                       "neither 'latencies' nor 'itls': no end-to-end latency to report");
    for (size_t i = 0; i < n; i++) {
        vreq *q = &p->req[i];
        llmm_cli_record r;
        r.start_s = q->start;
        r.input_tokens = q->in_len;
        r.output_tokens = q->out_len;
        r.failed = q->failed;
        r.ttft_s = r.e2e_s = NAN;
        if (!q->failed) {
            if (isnan(q->ttft))
                return cb_fail(p, LLMM_CLI_EPARSE, "ttfts[%zu] is null for a successful request",
                               i);
            r.ttft_s = q->ttft;
            if (!isnan(q->lat)) {
                r.e2e_s = q->lat;
                p->info.e2e_from_latencies++;
            } else if (p->seen_field[F_ITLS]) {
                r.e2e_s = q->ttft + q->itl_sum;
                p->info.e2e_from_itls++;
            } else {
                return cb_fail(p, LLMM_CLI_EPARSE,
                               "latencies[%zu] is null and there are no 'itls' to rebuild it",
                               i);
            }
            if (r.e2e_s < r.ttft_s)
                return cb_fail(p, LLMM_CLI_EPARSE,
                               "request %zu: end-to-end latency %.9g s is below its TTFT %.9g s",
                               i, r.e2e_s, r.ttft_s);
        } else {
            nfailed++;
            if (q->tentative && q->itl_n > 0)
                p->needs_replay = 1;
        }
        if (push_failed_flag(p, q->failed) != LLMM_CLI_OK)
            return cb_fail(p, LLMM_CLI_ENOMEM, "out of memory");
        if (p->sink.record && !sink_status(p, p->sink.record(p->sink.user, &r)))
            return 0;
    }
    p->info.requests += n;
    p->info.runs++;
    if (p->seen_field[F_START])
        p->info.has_start_times = 1;
    if (p->seen_field[F_ITLS])
        p->info.has_itls = 1;
    if (!isnan(p->file_failed) && p->file_failed != (double)nfailed && p->sink.note) {
        char msg[256];
        snprintf(msg, sizeof msg,
                 "%s: the file says failed=%.0f but %llu requests carry an error message; "
                 "the report counts the latter",
                 p->name, p->file_failed, (unsigned long long)nfailed);
        p->sink.note(p->sink.user, msg);
    }
    if (p->sink.run_end && !sink_status(p, p->sink.run_end(p->sink.user, p->duration)))
        return 0;
    return 1;
}

static int deliver_itl(llmm_cli_vllm *p, vreq *q, size_t idx, double v)
{
    int deliver;
    if (!p->sink.itl)
        return 1;
    if (p->replay) {
        size_t g = p->replay_base + idx;
        deliver = g < p->replay_n && !p->replay[g];
    } else if (q->seen & SEEN_ERR) {
        deliver = !q->failed;
    } else {
        deliver = 1;
        q->tentative = 1;
    }
    return deliver ? sink_status(p, p->sink.itl(p->sink.user, v)) : 1;
}

#define kind_name llmm_cli_json_kind_name

static int column_element(llmm_cli_vllm *p, int kind, double v, size_t slen)
{
    size_t i = p->idx;
    vreq *q = get_req(p, i);
    const char *fn = field_name[p->field];
    if (!q)
        return cb_fail(p, LLMM_CLI_ENOMEM, "out of memory");
    switch (p->field) {
    case F_ITLS:
        if (kind != K_NULL)
            return cb_fail(p, LLMM_CLI_EPARSE, "itls[%zu] is %s, expected a list of numbers", i,
                           kind_name(kind));
        q->seen |= SEEN_ITL; /* null: no tokens streamed */
        break;
    case F_ERR:
        if (kind != K_STRING && kind != K_NULL)
            return cb_fail(p, LLMM_CLI_EPARSE, "errors[%zu] is %s, expected a string or null", i,
                           kind_name(kind));
        q->failed = kind == K_STRING && slen > 0;
        q->seen |= SEEN_ERR;
        break;
    default:
        if (kind != K_NUMBER && kind != K_NULL)
            return cb_fail(p, LLMM_CLI_EPARSE, "%s[%zu] is %s, expected a number", fn, i,
                           kind_name(kind));
        if (kind == K_NUMBER) {
            if (p->field != F_START && v < 0)
                return cb_fail(p, LLMM_CLI_EPARSE, "%s[%zu] is negative (%.9g)", fn, i, v);
            if ((p->field == F_IN || p->field == F_OUT) && (v != floor(v) || v > 9.0e15))
                return cb_fail(p, LLMM_CLI_EPARSE, "%s[%zu] is not a token count (%.9g)", fn,
                               i, v);
        }
        switch (p->field) {
        case F_TTFTS:
            q->ttft = kind == K_NUMBER ? v : NAN;
            q->seen |= SEEN_TTFT;
            break;
        case F_LAT:
            q->lat = kind == K_NUMBER ? v : NAN;
            q->seen |= SEEN_LAT;
            break;
        case F_START:
            q->start = kind == K_NUMBER ? v : NAN;
            q->seen |= SEEN_START;
            break;
        case F_IN:
            q->in_len = kind == K_NUMBER ? (int64_t)v : -1;
            break;
        default:
            q->out_len = kind == K_NUMBER ? (int64_t)v : -1;
            break;
        }
        break;
    }
    p->idx++;
    return 1;
}

static int scalar(llmm_cli_vllm *p, int kind, double v, const unsigned char *s, size_t slen)
{
    p->saw_value = 1;
    if (p->skip)
        return 1;
    switch (p->depth) {
    case 0:
        return cb_fail(p, LLMM_CLI_EPARSE,
                       "found %s where a JSON object (a vLLM result) should begin",
                       kind_name(kind));
    case 1:
        if (p->field == F_DURATION || p->field == F_FAILED) {
            if (kind == K_NUMBER && v >= 0) {
                if (p->field == F_DURATION)
                    p->duration = v;
                else
                    p->file_failed = v;
            } else if (kind != K_NULL) {
                return cb_fail(p, LLMM_CLI_EPARSE, "'%s' is %s, expected a number >= 0",
                               field_name[p->field], kind == K_NUMBER ? "negative" : kind_name(kind));
            }
        } else if (p->field != F_SKIP) {
            return cb_fail(p, LLMM_CLI_EPARSE, "'%s' is %s, expected a list",
                           field_name[p->field], kind_name(kind));
        }
        p->field = F_NONE;
        return 1;
    case 2:
        if (p->field == F_EVENTS) {
            if (kind != K_NULL)
                return cb_fail(p, LLMM_CLI_EPARSE, "llmm_events[%zu] is %s, expected an object",
                               p->idx, kind_name(kind));
            p->idx++;
            return 1;
        }
        return column_element(p, kind, v, slen);
    default: {
        if (p->field == F_EVENTS)
            return llmm_cli_vllm_event_scalar(p, kind, v, s, slen);
        vreq *q = get_req(p, p->idx);
        if (!q)
            return cb_fail(p, LLMM_CLI_ENOMEM, "out of memory");
        if (kind != K_NUMBER)
            return cb_fail(p, LLMM_CLI_EPARSE, "itls[%zu] holds %s, expected numbers", p->idx,
                           kind_name(kind));
        if (v < 0)
            return cb_fail(p, LLMM_CLI_EPARSE, "itls[%zu] holds a negative latency (%.9g)",
                           p->idx, v);
        q->itl_sum += v;
        q->itl_n++;
        return deliver_itl(p, q, p->idx, v);
    }
    }
}

/* ---- the JSON events (json.h) --------------------------------------------------------------- */

static int on_scalar(void *ctx, int kind, int b, const char *text, size_t len)
{
    llmm_cli_vllm *p = ctx;
    double v = 0;
    (void)b;
    if (kind == K_NUMBER) {
        if (p->skip)
            return 1;
        if (p->replay && p->depth < 3) { /* the second pass reads ITLs only */
            p->saw_value = 1;
            return p->depth == 2 ? (p->idx++, 1) : (p->field = F_NONE, 1);
        }
        if (llmm_cli_number(text, len, &v) != LLMM_CLI_OK)
            return cb_fail(p, LLMM_CLI_EPARSE, "number %.*s is out of range",
                           len > 40 ? 40 : (int)len, text);
    }
    return scalar(p, kind, v, (const unsigned char *)text, len);
}

static int on_key(void *ctx, const char *key, size_t len)
{
    llmm_cli_vllm *p = ctx;
    if (p->skip)
        return 1;
    if (p->depth == 3 && p->field == F_EVENTS)
        return llmm_cli_vllm_event_key(p, (const unsigned char *)key, len);
    if (p->depth != 1)
        return 1;
    p->field = F_SKIP;
    for (int f = F_TTFTS; f < F_COUNT; f++) {
        if (strlen(field_name[f]) == len && memcmp(field_name[f], key, len) == 0) {
            if (p->seen_field[f])
                return cb_fail(p, LLMM_CLI_EPARSE, "key '%s' appears twice", field_name[f]);
            p->seen_field[f] = 1;
            p->field = (enum field)f;
            break;
        }
    }
    return 1;
}

/* A container opens. 1 when it is skipped whole: inside a skipped value, or the value of an
 * unknown key (of the document or of an event); 0 when the caller reads it. */
static int skip_container(llmm_cli_vllm *p)
{
    p->saw_value = 1;
    if (p->skip) {
        p->skip++;
        return 1;
    }
    if ((p->depth == 1 && p->field == F_SKIP) ||
        (p->depth >= 3 && p->field == F_EVENTS && p->ev_key == 0)) {
        p->skip = 1;
        return 1;
    }
    return 0;
}

static int start_map(llmm_cli_vllm *p)
{
    switch (p->depth) {
    case 0:
        begin_document(p);
        p->depth = 1;
        p->field = F_NONE;
        return 1;
    case 1:
        return cb_fail(p, LLMM_CLI_EPARSE, "'%s' is an object, expected %s",
                       field_name[p->field],
                       p->field == F_DURATION || p->field == F_FAILED ? "a number" : "a list");
    case 2:
        if (p->field == F_EVENTS)
            return llmm_cli_vllm_event_start(p);
        return cb_fail(p, LLMM_CLI_EPARSE, "%s[%zu] is an object", field_name[p->field], p->idx);
    default:
        return cb_fail(p, LLMM_CLI_EPARSE, "%s[%zu] holds an object", field_name[p->field],
                       p->idx);
    }
}

static int start_array(llmm_cli_vllm *p)
{
    switch (p->depth) {
    case 0:
        return cb_fail(p, LLMM_CLI_EPARSE,
                       "found a list where a JSON object (a vLLM result) should begin");
    case 1:
        if (p->field == F_DURATION || p->field == F_FAILED)
            return cb_fail(p, LLMM_CLI_EPARSE, "'%s' is a list, expected a number",
                           field_name[p->field]);
        p->depth = 2;
        p->idx = 0;
        return 1;
    case 2:
        if (p->field != F_ITLS)
            return cb_fail(p, LLMM_CLI_EPARSE, "%s[%zu] is a list, expected %s",
                           field_name[p->field], p->idx,
                           p->field == F_ERR      ? "a string"
                           : p->field == F_EVENTS ? "an object"
                                                  : "a number");
        if (!get_req(p, p->idx))
            return cb_fail(p, LLMM_CLI_ENOMEM, "out of memory");
        p->req[p->idx].seen |= SEEN_ITL;
        p->depth = 3;
        return 1;
    default:
        return cb_fail(p, LLMM_CLI_EPARSE, "%s[%zu] holds a nested list", field_name[p->field],
                       p->idx);
    }
}

/* The value of an unknown key ended: back to the object that holds it. */
static void end_skip(llmm_cli_vllm *p)
{
    if (--p->skip == 0) {
        if (p->depth == 1)
            p->field = F_NONE;
        p->ev_key = 0;
    }
}

static int end_array(llmm_cli_vllm *p)
{
    if (p->depth == 3) {
        p->idx++;
        p->depth = 2;
    } else {
        p->col_len[p->field] = p->idx;
        p->field = F_NONE;
        p->depth = 1;
    }
    return 1;
}

static int end_map(llmm_cli_vllm *p)
{
    if (p->depth == 3)
        return llmm_cli_vllm_event_end(p);
    p->depth = 0;
    return end_document(p);
}

static int on_container(void *ctx, int open, int map)
{
    llmm_cli_vllm *p = ctx;
    if (open)
        return skip_container(p) ? 1 : map ? start_map(p) : start_array(p);
    if (p->skip) {
        end_skip(p);
        return 1;
    }
    return map ? end_map(p) : end_array(p);
}

const llmm_cli_json_events llmm_cli_vllm_events = {on_scalar, on_key, on_container};
