/* report_tools.c: the report's part on what the benchmark tools reported themselves: each
 * run's own figures as the tool wrote them, ours next to them where the report holds that
 * one run, and how each tool's definitions relate to ours (report.h). */
#include <math.h>
#include <string.h>

#include "common/jsonw.h"
#include "render/report.h"
#include "render/text.h"

/* The report has exactly one run with samples: our figures are that run's. */
static int single_run(const llmm_cli_report *r)
{
    return r->trace.runs == 1;
}

/* The line a figure is shown on: a latency of ours (counterpart), the name's part before its
 * last '.' (genai-perf's "time_to_second_token.p99", GuideLLM's "output_token_count.mean"), or
 * none ("": the line of rates and counts, or of other single figures). */
typedef struct fgroup {
    char key[64];
    int counterpart;
} fgroup;

static void group_of(const llmm_cli_figure *f, fgroup *g)
{
    const char *dot = strrchr(f->name, '.');
    g->counterpart = f->metric <= LLMM_CLI_FM_E2E;
    if (g->counterpart)
        snprintf(g->key, sizeof g->key, "%s", llmm_cli_figure_metric_name(f->metric));
    else if (f->metric == LLMM_CLI_FM_OTHER && dot && f->stat != LLMM_CLI_ST_VALUE)
        snprintf(g->key, sizeof g->key, "%.*s", (int)(dot - f->name), f->name);
    else
        g->key[0] = '\0';
}

/* The statistics the text shows (--json has every figure). */
static int shown(const llmm_cli_figure *f)
{
    static const double qs[] = {0.5, 0.9, 0.95, 0.99, 0.999};
    if (f->stat == LLMM_CLI_ST_COUNT_OF)
        return 0;
    if (f->stat != LLMM_CLI_ST_QUANTILE)
        return 1;
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++)
        if (fabs(f->q - qs[i]) < 1e-9)
            return 1;
    return 0;
}

/* Units worth printing after a value ("count" is not). */
static int show_unit(const llmm_cli_figure *f)
{
    return f->unit[0] && strcmp(f->unit, "count") != 0;
}

/* A line that wraps at 100 columns under its first item. */
typedef struct wrap {
    FILE *o;
    size_t col, indent;
    int items;
} wrap;

/* "    HEAD  PREFIX" and items from there on. */
static void wrap_start(wrap *w, FILE *o, const char *head, const char *prefix)
{
    int n = fprintf(o, "    %-21s", head);
    w->o = o;
    w->items = 0;
    if (strlen(head) >= 21) { /* no room for a space after it: the figures go below */
        fprintf(o, "\n%25s", "");
        n = 25;
    }
    w->col = (size_t)n + (size_t)fprintf(o, "%-12s", prefix);
    w->indent = w->col;
}

static void wrap_item(wrap *w, const char *item)
{
    size_t n = strlen(item);
    if (w->items && w->col + 2 + n > 100) {
        fprintf(w->o, ",\n%*s", (int)w->indent, "");
        w->col = w->indent;
    } else if (w->items) {
        fputs(", ", w->o);
        w->col += 2;
    }
    fputs(item, w->o);
    w->col += n;
    w->items++;
}

static void wrap_end(wrap *w)
{
    if (w->items)
        fputc('\n', w->o);
}

/* "p99 247.4" of the tool, or ours in the tool's unit. */
static void stat_item(const llmm_cli_report *r, const llmm_cli_figure *f, int ours, char *buf,
                      size_t cap)
{
    char st[24];
    double v = f->value;
    llmm_cli_figure_stat_name(f, st, sizeof st);
    if (ours)
        v = llmm_cli_figure_ours(&r->trace, &r->sum, f) * llmm_cli_unit_per_si(f->unit);
    if (f->stat == LLMM_CLI_ST_VALUE)
        snprintf(buf, cap, "%s %.10g%s%s", f->name, v, show_unit(f) ? " " : "",
                 show_unit(f) ? f->unit : "");
    else if (isnan(v))
        snprintf(buf, cap, "%s -", st);
    else
        snprintf(buf, cap, "%s %.6g", st, v);
}

/* One group's line of the tool's figures, and ours under it. */
static void group_lines(const llmm_cli_report *r, const llmm_cli_run_rec *run, const char *tool,
                        const fgroup *grp, FILE *o)
{
    char head[96], unit[16] = "";
    for (size_t i = 0; i < run->nfig && !unit[0]; i++) {
        fgroup g;
        group_of(&run->fig[i], &g);
        if (strcmp(g.key, grp->key) == 0 && run->fig[i].stat != LLMM_CLI_ST_COUNT_OF)
            snprintf(unit, sizeof unit, "%s", run->fig[i].unit);
    }
    snprintf(head, sizeof head, "%s%s%s", grp->key, unit[0] ? ", " : "", unit);
    for (int ours = 0; ours < 2; ours++) {
        wrap w;
        char item[160];
        if (ours && (run->stats_only || !single_run(r) || !grp->counterpart))
            return;
        wrap_start(&w, o, ours ? "" : head, !ours ? tool : r->exact ? "llmm exact:" : "llmm:");
        for (size_t i = 0; i < run->nfig; i++) {
            fgroup g;
            group_of(&run->fig[i], &g);
            if (strcmp(g.key, grp->key) != 0 || !shown(&run->fig[i]))
                continue;
            stat_item(r, &run->fig[i], ours, item, sizeof item);
            wrap_item(&w, item);
        }
        wrap_end(&w);
    }
}

/* The rates and counts with a counterpart, one line with ours in brackets. */
static void value_line(const llmm_cli_report *r, const llmm_cli_run_rec *run, const char *tool,
                       FILE *o)
{
    wrap w;
    int any = 0;
    for (size_t i = 0; i < run->nfig; i++) {
        const llmm_cli_figure *f = &run->fig[i];
        char item[200], mine[64];
        double v;
        if (f->metric <= LLMM_CLI_FM_E2E || f->metric == LLMM_CLI_FM_OTHER)
            continue;
        if (!any++)
            wrap_start(&w, o, "rates, counts", tool);
        stat_item(r, f, 0, item, sizeof item);
        v = run->stats_only || !single_run(r) ? NAN
                                               : llmm_cli_figure_ours(&r->trace, &r->sum, f);
        if (!isnan(v)) {
            snprintf(mine, sizeof mine, " (llmm %.10g)", v);
            strncat(item, mine, sizeof item - strlen(item) - 1);
        }
        wrap_item(&w, item);
    }
    if (any)
        wrap_end(&w);
}

/* Single figures with no counterpart. */
static void other_line(const llmm_cli_run_rec *run, const char *tool, FILE *o)
{
    wrap w;
    int any = 0;
    for (size_t i = 0; i < run->nfig; i++) {
        const llmm_cli_figure *f = &run->fig[i];
        fgroup g;
        char item[160];
        group_of(f, &g);
        if (f->metric != LLMM_CLI_FM_OTHER || g.key[0])
            continue;
        if (!any++)
            wrap_start(&w, o, "other figures", tool);
        snprintf(item, sizeof item, "%s %.10g%s%s", f->name, f->value, show_unit(f) ? " " : "",
                 show_unit(f) ? f->unit : "");
        wrap_item(&w, item);
    }
    if (any)
        wrap_end(&w);
}

/* A run's figures: every group once, in the order they appear. A run with samples shows only
 * what has a counterpart of ours (and its single figures) when its input holds several runs;
 * one with statistics only shows everything. Returns the figures left to --json. */
static size_t run_text(const llmm_cli_report *r, const llmm_cli_run_rec *run, FILE *o)
{
    const llmm_cli_input *in = &r->inputs[run->input];
    int brief = !run->stats_only && in->info.runs > 1;
    char tool[40], seen[64][64];
    size_t nseen = 0, hidden = 0;
    snprintf(tool, sizeof tool, "%s:", in->info.tool->name);
    fprintf(o, "  %s, run %llu%s%s%s: %s's own figures%s\n", in->path,
            (unsigned long long)run->index + 1, run->label[0] ? " (" : "", run->label,
            run->label[0] ? ")" : "", in->info.tool->name,
            run->stats_only ? " (statistics only: no per-request samples, and no distribution "
                              "is made of them)"
                            : "");
    for (size_t i = 0; i < run->nfig; i++) {
        fgroup g;
        int dup = 0;
        group_of(&run->fig[i], &g);
        hidden += !shown(&run->fig[i]) || (brief && !g.counterpart && g.key[0]);
        if (!g.key[0] || (brief && !g.counterpart))
            continue;
        for (size_t k = 0; k < nseen && !dup; k++)
            dup = strcmp(seen[k], g.key) == 0;
        if (dup || nseen == 64)
            continue;
        memcpy(seen[nseen++], g.key, sizeof g.key);
        group_lines(r, run, tool, &g, o);
    }
    value_line(r, run, tool, o);
    other_line(run, tool, o);
    return hidden;
}

/* The distinct tools of the inputs, in order. */
static size_t tools_of(const llmm_cli_report *r, const llmm_cli_tool **t, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ninputs; i++) {
        const llmm_cli_tool *x = r->inputs[i].info.tool;
        int dup = 0;
        for (size_t k = 0; k < n && !dup; k++)
            dup = t[k] == x;
        if (x && !dup && n < cap)
            t[n++] = x;
    }
    return n;
}

void llmm_cli_report_tools_text(const llmm_cli_report *r, FILE *o)
{
    const llmm_cli_tool *tools[16];
    size_t ntools = tools_of(r, tools, 16), hidden = 0;
    int any = 0;
    for (size_t i = 0; i < r->trace.run_list.n; i++)
        any |= r->trace.run_list.v[i].nfig > 0;
    if (!ntools)
        return;
    fputs("\nWhat the tools reported themselves (their figures, as written)\n", o);
    if (!any)
        fputs("  the inputs hold no figures of their tools\n", o);
    for (size_t i = 0; i < r->trace.run_list.n; i++)
        if (r->trace.run_list.v[i].nfig)
            hidden += run_text(r, &r->trace.run_list.v[i], o);
    if (hidden)
        fprintf(o, "  (%zu more figures of the tools, other percentiles and quantities, are in "
                   "--json)\n",
                hidden);
    if (any && r->trace.runs > 1)
        fputs("  (llmm's figures are over all runs merged; `llmm compare` puts them per run)\n",
              o);
    for (size_t k = 0; k < ntools; k++) {
        const llmm_cli_tool *t = tools[k];
        fprintf(o, "  How %s's figures relate to ours:\n", t->name);
        for (int m = 0; m <= LLMM_CLI_FM_GOODPUT; m++) {
            if (!t->relation[m])
                continue;
            llmm_cli_wrapped(o, 4, llmm_cli_figure_metric_name(m), 24, t->relation[m]);
        }
        {
            char pct[400];
            snprintf(pct, sizeof pct, "%s: %s; llmm: %s", t->name, t->percentiles,
                     r->exact ? "numpy.percentile (linear) over every value (--exact)"
                              : "nearest rank, rank = max(1, ceil(q n)), from sketches");
            llmm_cli_wrapped(o, 4, "percentiles", 24, pct);
        }
    }
}

/* ---- JSON -------------------------------------------------------------------------------- */

static void figure_json(llmm_cli_jw *w, const llmm_cli_report *r, const llmm_cli_run_rec *run,
                        const llmm_cli_figure *f)
{
    char st[24];
    llmm_cli_figure_stat_name(f, st, sizeof st);
    llmm_cli_jw_map(w);
    llmm_cli_jw_kv_str(w, "name", f->name);
    llmm_cli_jw_kv(w, "value", f->value);
    llmm_cli_jw_kv_str(w, "unit", f->unit);
    llmm_cli_jw_kv_str(w, "measures", llmm_cli_figure_metric_key(f->metric));
    llmm_cli_jw_kv_str(w, "statistic", st);
    llmm_cli_jw_kv(w, "si", f->si);
    if (f->metric != LLMM_CLI_FM_OTHER && !run->stats_only && single_run(r))
        llmm_cli_jw_kv(w, "ours_si", llmm_cli_figure_ours(&r->trace, &r->sum, f));
    llmm_cli_jw_map_end(w);
}

void llmm_cli_report_runs_json(llmm_cli_jw *w, const llmm_cli_report *r, size_t input)
{
    llmm_cli_jw_key_arr(w, "run_info");
    for (size_t i = 0; i < r->trace.run_list.n; i++) {
        const llmm_cli_run_rec *run = &r->trace.run_list.v[i];
        if (run->input != input)
            continue;
        llmm_cli_jw_map(w);
        llmm_cli_jw_kv_u64(w, "index", run->index);
        llmm_cli_jw_kv_str(w, "label", run->label);
        llmm_cli_jw_kv_bool(w, "statistics_only", run->stats_only);
        LLMM_CLI_JW_NUM_MAP(w, "stated", {"duration_s", run->duration_s},
                            {"concurrency", run->concurrency},
                            {"request_rate", run->request_rate},
                            {"completed", run->completed < 0 ? NAN : (double)run->completed},
                            {"failed", run->failed < 0 ? NAN : (double)run->failed});
        if (run->model[0])
            llmm_cli_jw_kv_str(w, "model", run->model);
        llmm_cli_jw_key_arr(w, "figures");
        for (size_t k = 0; k < run->nfig; k++)
            figure_json(w, r, run, &run->fig[k]);
        llmm_cli_jw_arr_end(w);
        llmm_cli_jw_map_end(w);
    }
    llmm_cli_jw_arr_end(w);
}

void llmm_cli_report_tool_json(llmm_cli_jw *w, const llmm_cli_tool *t)
{
    llmm_cli_jw_key(w, "tool");
    if (!t) {
        llmm_cli_jw_null(w);
        return;
    }
    llmm_cli_jw_map(w);
    llmm_cli_jw_kv_str(w, "name", t->name);
    llmm_cli_jw_kv_str(w, "percentiles", t->percentiles);
    llmm_cli_jw_key_map(w, "relation_to_ours");
    for (int m = 0; m <= LLMM_CLI_FM_GOODPUT; m++)
        if (t->relation[m])
            llmm_cli_jw_kv_str(w, llmm_cli_figure_metric_key(m), t->relation[m]);
    llmm_cli_jw_map_end(w);
    llmm_cli_jw_map_end(w);
}
