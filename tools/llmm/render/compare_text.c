/* compare_text.c: `llmm compare` as a table, a row per figure and a column per run, in
 * blocks of five runs (compare.h). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "render/compare.h"
#include "render/text.h"

#define PER_BLOCK 5
#define COL 16

void llmm_cli_cmp_run_name(const llmm_cli_cmp_run *r, char *buf, size_t cap)
{
    const char *base = strrchr(r->path, '/');
    base = base ? base + 1 : r->path;
    if (r->of > 1)
        snprintf(buf, cap, "%s #%llu", base, (unsigned long long)r->index + 1);
    else
        snprintf(buf, cap, "%s", base);
}

/* A rate's cell: at least three significant digits. */
static void rate_cell(FILE *o, double v, int tool)
{
    char b[48], r[40];
    if (isnan(v))
        snprintf(b, sizeof b, "-");
    else
        snprintf(b, sizeof b, "%s%s", llmm_cli_rate3(v, r, sizeof r), tool ? "*" : "");
    fprintf(o, " %*s", COL - 1, b);
}

/* One cell: a number with its precision, '*' when it is the tool's own, '-' when unknown. */
static void cell(FILE *o, double v, int prec, int tool)
{
    char b[48];
    if (isnan(v))
        snprintf(b, sizeof b, "-");
    else
        snprintf(b, sizeof b, "%.*f%s", prec, v, tool ? "*" : "");
    fprintf(o, " %*s", COL - 1, b);
}

/* A text cell: the first COL-2 characters of a text, '~' where cut (the legend under the
 * table has it whole). */
static void text_cell(FILE *o, const char *s)
{
    size_t n = strlen(s), w = COL - 1;
    if (n <= w)
        fprintf(o, " %*s", (int)w, s);
    else
        fprintf(o, " %.*s~", (int)(w - 1), s);
}

/* The load a run states, short: "c 16", "rate 2/s", "c 4, rate inf". */
static void load_text(const llmm_cli_cmp_run *r, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    if (!isnan(r->concurrency))
        n += (size_t)snprintf(buf, cap, "c %g", r->concurrency);
    if (isinf(r->request_rate) && n < cap)
        snprintf(buf + n, cap - n, "%srate inf", n ? ", " : "");
    else if (!isnan(r->request_rate) && n < cap)
        snprintf(buf + n, cap - n, "%srate %.3g/s", n ? ", " : "", r->request_rate);
    if (!buf[0])
        snprintf(buf, cap, "-");
}

/* A model's name without its organisation ("meta-llama/"). */
static const char *model_short(const char *m)
{
    const char *slash = strrchr(m, '/');
    return !m[0] ? "-" : slash && slash[1] ? slash + 1 : m;
}

typedef enum {
    R_RUN,
    R_FILE,
    R_MODEL,
    R_LABEL,
    R_REQS,
    R_ERR,
    R_RPS,
    R_TPS,
    R_LAT,
    R_GOOD,
    R_IN,
    R_DECAY
} row_kind;

static void row(const llmm_cli_compare *c, size_t lo, size_t hi, row_kind k, int m, int q,
                FILE *o)
{
    char head[40];
    switch (k) {
    case R_RUN: snprintf(head, sizeof head, "run"); break;
    case R_FILE:
        snprintf(head, sizeof head, "file");
        break;
    case R_MODEL:
        snprintf(head, sizeof head, "model");
        break;
    case R_LABEL:
        snprintf(head, sizeof head, "load (stated)");
        break;
    case R_REQS: snprintf(head, sizeof head, "requests completed"); break;
    case R_ERR: snprintf(head, sizeof head, "error rate %%"); break;
    case R_RPS: snprintf(head, sizeof head, "throughput req/s"); break;
    case R_TPS: snprintf(head, sizeof head, "output tok/s"); break;
    case R_LAT:
        snprintf(head, sizeof head, "%s %s ms", llmm_cli_metric_label[llmm_cli_cmp_metric[m]],
                 llmm_cli_cmp_q_label[q]);
        break;
    case R_GOOD: snprintf(head, sizeof head, "goodput req/s"); break;
    case R_IN: snprintf(head, sizeof head, "mean input tokens"); break;
    default: snprintf(head, sizeof head, "seq-length decay"); break;
    }
    fprintf(o, "  %-22s", head);
    for (size_t i = lo; i < hi; i++) {
        const llmm_cli_cmp_run *r = &c->runs[i];
        const llmm_cli_summary *s = &r->sum;
        char name[128];
        switch (k) {
        case R_RUN:
            snprintf(name, sizeof name, "#%zu", i + 1);
            text_cell(o, name);
            break;
        case R_FILE:
            llmm_cli_cmp_run_name(r, name, sizeof name);
            text_cell(o, name);
            break;
        case R_MODEL:
            text_cell(o, model_short(r->model));
            break;
        case R_LABEL:
            load_text(r, name, sizeof name);
            text_cell(o, name);
            break;
        case R_REQS:
            cell(o, r->stats_only && !r->completed_stated ? NAN : (double)s->completed, 0,
                 r->stats_only);
            break;
        case R_ERR:
            cell(o, 100.0 * s->error_rate, 2, r->stats_only);
            break;
        case R_RPS:
            rate_cell(o, s->req_per_s, r->stats_only);
            break;
        case R_TPS:
            rate_cell(o, s->tok_per_s, r->stats_only);
            break;
        case R_LAT:
            cell(o, 1e3 * r->lat[m][q], 2, r->from_tool[m][q]);
            break;
        case R_GOOD:
            rate_cell(o, s->has_goodput ? s->good_per_s : NAN, 0);
            break;
        case R_IN:
            cell(o, r->in_mean, 1, r->stats_only);
            break;
        default:
            cell(o, r->decay, 4, 0);
            break;
        }
    }
    fputc('\n', o);
}

static void block(const llmm_cli_compare *c, size_t lo, size_t hi, FILE *o)
{
    int goodput = !isnan(c->slo[0]) || !isnan(c->slo[1]) || !isnan(c->slo[2]);
    int models = 0;
    for (size_t i = lo; i < hi; i++)
        models |= c->runs[i].model[0] != '\0';
    for (row_kind k = R_RUN; k <= R_DECAY; k++) {
        if ((k == R_GOOD && !goodput) || (k == R_DECAY && !c->has_decay) ||
            (k == R_MODEL && !models))
            continue;
        if (k == R_LAT) {
            for (int m = 0; m < LLMM_CLI_CMP_NM; m++)
                for (int q = 0; q < LLMM_CLI_CMP_NQ; q++)
                    row(c, lo, hi, k, m, q, o);
        } else {
            row(c, lo, hi, k, 0, 0, o);
        }
    }
}

/* Every run whole: its input, its place there, its label and model. */
static void legend(const llmm_cli_compare *c, FILE *o)
{
    for (size_t i = 0; i < c->n; i++) {
        const llmm_cli_cmp_run *r = &c->runs[i];
        fprintf(o, "  #%-3zu %s", i + 1, r->path);
        if (r->of > 1)
            fprintf(o, ", run %llu of %llu", (unsigned long long)r->index + 1,
                    (unsigned long long)r->of);
        if (r->label[0])
            fprintf(o, " (%s)", r->label);
        if (r->model[0])
            fprintf(o, ", model %s", r->model);
        fputc('\n', o);
    }
    fputc('\n', o);
}

void llmm_cli_compare_text(const llmm_cli_compare *c, FILE *o)
{
    fprintf(o, "llmm compare: %zu run%s\n", c->n, c->n == 1 ? "" : "s");
    for (size_t lo = 0; lo < c->n; lo += PER_BLOCK) {
        fputc('\n', o);
        block(c, lo, lo + PER_BLOCK < c->n ? lo + PER_BLOCK : c->n, o);
    }
    fputc('\n', o);
    legend(c, o);
    llmm_cli_wrapped(o, 2, "runs", 14, llmm_cli_cmp_def_runs);
    llmm_cli_wrapped(o, 2, "latencies", 14,
                     "ours, vLLM's definitions (llmm report --help); TTFT, TPOT and E2E of the "
                     "successful requests");
    if (!isnan(c->slo[0]) || !isnan(c->slo[1]) || !isnan(c->slo[2]))
        llmm_cli_wrapped(o, 2, "goodput", 14,
                         "completed requests meeting every --slo limit, per second (vLLM's "
                         "definition)");
    if (c->has_decay) {
        llmm_cli_wrapped(o, 2, "decay", 14, llmm_cli_cmp_def_decay);
        for (size_t i = 0; i < c->n; i++) {
            const llmm_cli_cmp_run *r = &c->runs[i];
            if (r->baseline != SIZE_MAX)
                fprintf(o, "                #%zu against #%zu\n", i + 1, r->baseline + 1);
            else if (r->decay_why)
                fprintf(o, "                #%zu -: %s\n", i + 1, r->decay_why);
        }
    }
}
