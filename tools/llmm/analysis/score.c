/* score.c: the four-layer score (`--scenario`, `--metric`), through llmm_scorecard.
 *
 * A trace measures part of the performance and engineering layers; everything else comes from
 * `--metric LAYER:NAME=VALUE:TARGET:WORST[:lower]`. VALUE '-' takes NAME from the report.
 * With a scenario the report adds, unless a --metric of the same name is given:
 *   engineering:error_rate   lower is better, target 0, worst = --slo err (default 0.05, the
 *                            "5xx share > 5 %" self-healing trigger of doc/spec.md §2)
 *   performance:M_p95_s      for each SLO M given with --slo (ttft, tpot, e2e): lower is
 *                            better, target = the SLO, worst = twice the SLO
 * Layers without any metric are reported missing and the overall score is renormalised over
 * the present layers (llmm's LLMM_MISSING_RENORMALIZE), which the output says.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/report.h"

static const struct { const char *name; llmm_scenario s; } scenarios[] = {
    {"customer-service", LLMM_SCENARIO_CUSTOMER_SERVICE},
    {"code-assistant", LLMM_SCENARIO_CODE_ASSISTANT},
    {"content-generation", LLMM_SCENARIO_CONTENT_GENERATION},
};

static const char *const layer_names[LLMM_LAYER_COUNT] = {"capability", "performance",
                                                           "engineering", "business"};

const char *llmm_cli_layer_name(llmm_layer l)
{
    return (int)l >= 0 && (int)l < LLMM_LAYER_COUNT ? layer_names[l] : "?";
}

int llmm_cli_score_scenario(llmm_cli_score *sc, const char *name, llmm_cli_error *err)
{
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        size_t n = strlen(scenarios[i].name);
        int same = strlen(name) == n;
        for (size_t k = 0; same && k < n; k++) {
            char c = name[k] == '_' ? '-' : name[k];
            same = c == scenarios[i].name[k];
        }
        if (same) {
            sc->enabled = 1;
            sc->scenario = scenarios[i].s;
            sc->scenario_name = scenarios[i].name;
            return LLMM_CLI_OK;
        }
    }
    return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                         "--scenario: '%s' is not customer-service, code-assistant or "
                         "content-generation",
                         name);
}

/* ---- trace metrics ------------------------------------------------------------------------ */

static const char *const metric_short[LLMM_CLI_M_COUNT] = {"ttft", "tpot", "itl", "e2e"};

void llmm_cli_score_trace_names(FILE *f)
{
    fputs("Scorecard metrics the report measures (VALUE '-'): M_P_s and M_mean_s for M in\n"
          "ttft, tpot, itl, e2e and P in p50, p90, p95, p99, p99_9, p99_99 (seconds, e.g.\n"
          "e2e_p95_s); req_per_s, tok_per_s, error_rate, goodput (fraction of requests meeting\n"
          "every --slo). With --scenario the report adds engineering:error_rate (lower, target\n"
          "0, worst --slo err or 0.05) and performance:M_p95_s for each --slo M (lower, target\n"
          "the SLO, worst twice the SLO) unless given. Missing layers are reported and the\n"
          "overall score is renormalised over the present ones.\n",
          f);
}

/* The value of a trace metric; returns 0 if NAME is not one (value NaN = not measured). */
static int trace_value(const llmm_cli_summary *s, const char *name, double *v)
{
    *v = NAN;
    if (strcmp(name, "req_per_s") == 0) {
        *v = s->req_per_s;
        return 1;
    }
    if (strcmp(name, "tok_per_s") == 0) {
        *v = s->tok_per_s;
        return 1;
    }
    if (strcmp(name, "error_rate") == 0) {
        *v = s->error_rate;
        return 1;
    }
    if (strcmp(name, "goodput") == 0) {
        *v = s->has_goodput ? s->good_fraction : NAN;
        return 1;
    }
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        size_t n = strlen(metric_short[m]);
        const char *rest;
        if (strncmp(name, metric_short[m], n) != 0 || name[n] != '_')
            continue;
        rest = name + n + 1;
        if (strcmp(rest, "mean_s") == 0) {
            *v = s ? s->m[m].mean : NAN;
            return 1;
        }
        for (int k = 0; k < LLMM_CLI_NQ; k++) {
            size_t kn = strlen(llmm_cli_q_key[k]);
            if (strncmp(rest, llmm_cli_q_key[k], kn) == 0 && strcmp(rest + kn, "_s") == 0) {
                *v = s ? s->m[m].q[k] : NAN;
                return 1;
            }
        }
    }
    return 0;
}

static int parse_num(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*v);
}

int llmm_cli_score_metric_option(llmm_cli_score *sc, const char *arg, llmm_cli_error *err)
{
    llmm_cli_score_metric *m;
    char buf[256], *parts[5], *colon, *eq, *save = NULL;
    size_t np = 0;
    int layer = -1;
    static const llmm_cli_summary none;
    double dummy;
    if (sc->n == LLMM_CLI_SCORE_MAX_METRICS)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--metric: at most %d metrics",
                             LLMM_CLI_SCORE_MAX_METRICS);
    if (strlen(arg) >= sizeof buf)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--metric: too long");
    strcpy(buf, arg);
    colon = strchr(buf, ':');
    eq = colon ? strchr(colon + 1, '=') : NULL;
    if (!colon || !eq)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                             "--metric '%s': expected LAYER:NAME=VALUE:TARGET:WORST[:lower]", arg);
    *colon = '\0';
    *eq = '\0';
    for (int l = 0; l < LLMM_LAYER_COUNT; l++) {
        static const char *const short_names[LLMM_LAYER_COUNT] = {"cap", "perf", "eng", "biz"};
        if (strcasecmp(buf, layer_names[l]) == 0 || strcasecmp(buf, short_names[l]) == 0)
            layer = l;
    }
    if (layer < 0)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                             "--metric '%s': layer '%s' is not capability, performance, "
                             "engineering or business",
                             arg, buf);
    for (char *tok = strtok_r(eq + 1, ":", &save); tok && np < 5; tok = strtok_r(NULL, ":", &save))
        parts[np++] = tok;
    if (np < 3 || np > 4 || strtok_r(NULL, ":", &save))
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                             "--metric '%s': expected VALUE:TARGET:WORST[:lower] after '='", arg);
    m = &sc->metrics[sc->n];
    memset(m, 0, sizeof *m);
    m->layer = (llmm_layer)layer;
    m->score = NAN;
    if (colon[1] == '\0' || strlen(colon + 1) >= sizeof m->name)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--metric '%s': bad NAME", arg);
    strcpy(m->name, colon + 1);
    if (strcmp(parts[0], "-") == 0) {
        if (!trace_value(&none, m->name, &dummy))
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                 "--metric '%s': '%s' is not a metric the report measures "
                                 "(see llmm report --help)",
                                 arg, m->name);
        m->from_trace = 1;
        m->value = NAN;
    } else if (!parse_num(parts[0], &m->value)) {
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--metric '%s': VALUE is not a number", arg);
    }
    if (!parse_num(parts[1], &m->target) || !parse_num(parts[2], &m->worst))
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--metric '%s': TARGET or WORST is not a number",
                             arg);
    m->dir = LLMM_HIGHER_IS_BETTER;
    if (np == 4) {
        if (strcmp(parts[3], "lower") == 0)
            m->dir = LLMM_LOWER_IS_BETTER;
        else if (strcmp(parts[3], "higher") != 0)
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                 "--metric '%s': the last field must be 'lower' or 'higher'", arg);
    }
    if (m->dir == LLMM_HIGHER_IS_BETTER ? !(m->target > m->worst) : !(m->target < m->worst))
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                             "--metric '%s': TARGET must be %s WORST%s", arg,
                             m->dir == LLMM_HIGHER_IS_BETTER ? "above" : "below",
                             m->dir == LLMM_HIGHER_IS_BETTER ? " (add ':lower' if lower is better)"
                                                             : "");
    for (size_t i = 0; i < sc->n; i++) {
        if (strcmp(sc->metrics[i].name, m->name) == 0)
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--metric: '%s' given twice", m->name);
    }
    sc->n++;
    return LLMM_CLI_OK;
}

static void add_default(llmm_cli_score *sc, llmm_layer layer, const char *name, double target,
                        double worst)
{
    llmm_cli_score_metric *m;
    for (size_t i = 0; i < sc->n; i++) {
        if (strcmp(sc->metrics[i].name, name) == 0)
            return;
    }
    if (sc->n == LLMM_CLI_SCORE_MAX_METRICS)
        return;
    m = &sc->metrics[sc->n++];
    memset(m, 0, sizeof *m);
    m->layer = layer;
    snprintf(m->name, sizeof m->name, "%s", name);
    m->from_trace = 1;
    m->is_default = 1;
    m->value = NAN;
    m->target = target;
    m->worst = worst;
    m->dir = LLMM_LOWER_IS_BETTER;
    m->score = NAN;
}

int llmm_cli_score_eval(llmm_cli_report *r, llmm_cli_error *err)
{
    llmm_cli_score *sc = &r->score;
    llmm_scorecard *card = NULL;
    llmm_status st;
    if (!sc->enabled)
        return LLMM_CLI_OK;
    add_default(sc, LLMM_LAYER_ENGINEERING, "error_rate", 0.0,
                isnan(r->err_max) || r->err_max <= 0 ? 0.05 : r->err_max);
    for (int i = 0; i < 3; i++) {
        static const char *const names[3] = {"ttft_p95_s", "tpot_p95_s", "e2e_p95_s"};
        if (!isnan(r->slo[i]) && r->slo[i] > 0)
            add_default(sc, LLMM_LAYER_PERFORMANCE, names[i], r->slo[i], 2.0 * r->slo[i]);
    }
    st = llmm_scorecard_new(NULL, sc->scenario, &card);
    if (st == LLMM_OK)
        st = llmm_scorecard_set_i32(card, LLMM_SCORECARD_MISSING, LLMM_MISSING_RENORMALIZE);
    for (size_t i = 0; st == LLMM_OK && i < sc->n; i++) {
        llmm_cli_score_metric *m = &sc->metrics[i];
        uint32_t id;
        if (m->from_trace)
            trace_value(&r->sum, m->name, &m->value);
        st = llmm_scorecard_add_metric(card, m->layer, m->name, m->dir, m->target, m->worst, 1.0,
                                       &id);
        if (st == LLMM_OK && isfinite(m->value)) {
            st = llmm_scorecard_observe_id(card, id, m->value);
            if (st == LLMM_OK)
                st = llmm_scorecard_metric_score(card, id, &m->score);
        }
    }
    if (st != LLMM_OK) {
        llmm_scorecard_free(card);
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "scorecard: %s", llmm_strerror(st));
    }
    llmm_score_result_init(&sc->result);
    sc->status = llmm_scorecard_evaluate(card, &sc->result);
    sc->evaluated = 1;
    llmm_scorecard_free(card);
    return LLMM_CLI_OK;
}
