/* guidellm_request.c: the requests of one GuideLLM benchmark (guidellm.h).
 *
 * GuideLLM lists requests by status (successful, errored, incomplete); its figures count
 * only those overlapping the benchmark's measured window, and its lists may hold warm-up and
 * cool-down requests too. So the benchmark's requests are kept until it ends, those outside
 * the window are left out, and the rest go to the sink in send order. With our definitions:
 * TTFT = first token − request start; E2E = last token − request start (GuideLLM's own
 * request_latency runs to the response's end); TPOT = (E2E − TTFT) / (output tokens − 1),
 * which is GuideLLM's inter_token_latency_ms. An errored request is failed; an incomplete one
 * (cancelled at the benchmark's end) is neither completed nor failed and is left out, as its
 * latency is unknown. GuideLLM stores no per-token times: no ITL samples. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "input/guidellm.h"

void llmm_cli_gl_reqs_free(gl_reqs *r)
{
    free(r->v);
    memset(r, 0, sizeof *r);
}

int llmm_cli_gl_keep(llmm_cli_guidellm *p)
{
    gl_reqs *r = &p->reqs;
    if (llmm_cli_grow(&r->v, &r->cap, r->n + 1, sizeof *r->v, 64) != LLMM_CLI_OK)
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_ENOMEM, "out of memory");
    r->v[r->n++] = r->cur;
    return 1;
}

static int by_start(const void *pa, const void *pb)
{
    const gl_req *a = pa, *b = pb;
    return (a->start > b->start) - (a->start < b->start);
}

/* Inside [lo, hi] (either may be NaN: no bound)? A request counts when its span overlaps it. */
static int in_window(const gl_req *q, double lo, double hi)
{
    double end = !isnan(q->end) ? q->end : !isnan(q->last) ? q->last : q->start;
    return !(q->start > hi) && !(end < lo);
}

/* The record of a successful request; 0 when its times are unusable. */
static int success(llmm_cli_guidellm *p, const gl_req *q, llmm_cli_record *r)
{
    double end = !isnan(q->last) ? q->last : q->end;
    r->ttft_s = isnan(q->first) ? NAN : q->first - q->start;
    r->e2e_s = end - q->start;
    if (!isfinite(r->e2e_s) || r->e2e_s < 0 || (!isnan(r->ttft_s) && !(r->ttft_s >= 0)))
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE,
                                "a successful request (sent at %.6f) has no usable start, "
                                "first-token and end times",
                                q->start);
    if (r->e2e_s < r->ttft_s) /* last token before the first: rounding of Unix times */
        r->e2e_s = r->ttft_s;
    return 1;
}

int llmm_cli_gl_deliver(llmm_cli_guidellm *p)
{
    gl_reqs *rs = &p->reqs;
    double lo = !isnan(p->win_start) ? p->win_start : p->bench_start;
    double hi = !isnan(p->win_end) ? p->win_end : p->bench_end;
    uint64_t kept[GL_LISTS] = {0, 0, 0};
    double t0 = NAN;
    if (rs->n > 1)
        qsort(rs->v, rs->n, sizeof *rs->v, by_start);
    for (size_t i = 0; i < rs->n; i++) {
        const gl_req *q = &rs->v[i];
        llmm_cli_record r;
        int inside;
        if (isnan(q->start))
            return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE,
                                    "a %s request has no request start time",
                                    q->list == GL_SUCCESSFUL ? "successful" : "listed");
        inside = in_window(q, lo, hi);
        kept[q->list] += (uint64_t)inside;
        if (!inside || q->list == GL_INCOMPLETE) {
            p->jr.info.not_delivered++;
            continue;
        }
        if (isnan(t0))
            t0 = q->start;
        r.start_s = q->start - t0;
        r.input_tokens = q->in_tokens;
        r.output_tokens = q->out_tokens;
        r.failed = q->list == GL_ERRORED;
        r.ttft_s = r.e2e_s = NAN;
        if (!r.failed && !success(p, q, &r))
            return 0;
        if (!llmm_cli_jr_record(&p->jr, &r))
            return 0;
    }
    for (int l = 0; l < GL_LISTS; l++) {
        if (p->totals[l] >= 0 && (uint64_t)p->totals[l] > kept[l]) {
            p->sampled_benchmarks++;
            p->run.sampled = p->totals[GL_SUCCESSFUL] >= 0;
            llmm_cli_jr_note(&p->jr,
                             "benchmark %llu lists %llu of the %lld %s requests GuideLLM "
                             "counted (a sample): the report's counts, tokens and throughput "
                             "are GuideLLM's totals (request_totals, total_sum), its "
                             "percentiles are over the listed requests",
                             (unsigned long long)p->jr.info.runs, (unsigned long long)kept[l],
                             (long long)p->totals[l],
                             l == GL_SUCCESSFUL ? "successful"
                             : l == GL_ERRORED  ? "errored"
                                                : "incomplete");
            break;
        }
    }
    rs->n = 0;
    return 1;
}
