/* knee_json.c: `llmm knee --json` (knee.h). */
#include <math.h>

#include "common/jsonw.h"
#include "render/knee.h"

/* "key": {definition, status, quality: an estimator's head (the USL fit's too). */
static void estimator_head(llmm_cli_jw *w, const char *key, const char *def, const char *status,
                           llmm_knee_quality q)
{
    llmm_cli_jw_key_map(w, key);
    llmm_cli_jw_kv_str(w, "definition", def);
    llmm_cli_jw_kv_str(w, "status", status);
    llmm_cli_jw_kv_str(w, "quality", llmm_cli_quality_name(q));
}

/* "status": "ok", "needs >= K points (has N)" or the library's message. */
static const char *status_of(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, int e,
                             llmm_status st, char *buf, size_t cap)
{
    const char *need = llmm_cli_knee_short(s, k, e, st, buf, cap);
    return st == LLMM_OK || st == LLMM_E_EMPTY ? "ok" : need ? need : llmm_strerror(st);
}

static void place_json(llmm_cli_jw *w, const llmm_cli_knee_eval *k, int e)
{
    llmm_cli_jw_kv_u64(w, "needs_points", k->need[e]);
    if (k->where[e])
        llmm_cli_jw_kv_str(w, "where", k->where[e]);
    else
        (llmm_cli_jw_key(w, "where"), llmm_cli_jw_null(w));
}

static void knee_json(llmm_cli_jw *w, const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, int e,
                      const char *key, const char *def, llmm_status st, const llmm_knee *kn,
                      const char *strength)
{
    char buf[64];
    estimator_head(w, key, def, status_of(s, k, e, st, buf, sizeof buf), kn->quality);
    LLMM_CLI_JW_NUMS(w, {"knee", kn->knee}, {"qps", kn->qps}, {"strength", kn->strength});
    llmm_cli_jw_kv_str(w, "strength_is", strength);
    place_json(w, k, e);
    llmm_cli_jw_map_end(w);
}

static void usl_json(llmm_cli_jw *w, const llmm_cli_sweep *s, const llmm_cli_knee_eval *k)
{
    const llmm_usl *u = &k->usl;
    char buf[64];
    estimator_head(w, "usl", llmm_cli_knee_def_usl,
                   status_of(s, k, LLMM_CLI_KE_USL, k->st_usl, buf, sizeof buf), u->quality);
    LLMM_CLI_JW_NUMS(w, {"lambda", u->lambda}, {"sigma", u->sigma}, {"kappa", u->kappa},
                     {"n_max", u->n_max}, {"x_max", u->x_max}, {"r2", u->r2}, {"rss", u->rss},
                     {"iterations", u->iterations});
    llmm_cli_jw_kv_bool(w, "kappa_at_bound", u->kappa_at_bound);
    place_json(w, k, LLMM_CLI_KE_USL);
    llmm_cli_jw_map_end(w);
}

static void slo_json(llmm_cli_jw *w, const llmm_cli_knee_eval *k)
{
    llmm_cli_jw_key(w, "slo");
    if (isnan(k->slo_ms)) {
        llmm_cli_jw_null(w);
        return;
    }
    llmm_cli_jw_map(w);
    llmm_cli_jw_kv_str(w, "definition", llmm_cli_knee_def_slo);
    LLMM_CLI_JW_NUMS(w, {"slo_ms", k->slo_ms}, {"usl_concurrency", k->slo_usl_n});
    llmm_cli_jw_kv_bool(w, "usl_unbounded", isinf(k->slo_usl_n));
    LLMM_CLI_JW_NUMS(w, {"usl_qps", k->slo_usl_x}, {"measured_concurrency", k->slo_measured_n},
                     {"measured_qps", k->slo_measured_qps});
    llmm_cli_jw_map_end(w);
}

int llmm_cli_knee_json(const llmm_cli_sweep *s, const llmm_cli_knee_eval *k, const char *name,
                       FILE *out)
{
    llmm_cli_jw w;
    if (llmm_cli_jw_open(&w) != 0)
        return LLMM_CLI_ENOMEM;
    llmm_cli_jw_map(&w);
    llmm_cli_jw_key_map(&w, "input");
    llmm_cli_jw_kv_str(&w, "file", name);
    llmm_cli_jw_kv_u64(&w, "rows", s->rows);
    llmm_cli_jw_kv_u64(&w, "points", s->n);
    llmm_cli_jw_kv_bool(&w, "has_p99", s->has_p99);
    llmm_cli_jw_kv_str(&w, "built_from", s->source[0] ? s->source : "a table");
    llmm_cli_jw_map_end(&w);
    LLMM_CLI_JW_NUM_MAP(&w, "options", {"trim", k->opt.trim},
                        {"collapse_fraction", k->opt.collapse_fraction},
                        {"smooth", k->opt.smooth},
                        {"kneedle_sensitivity", k->opt.kneedle_sensitivity});
    llmm_cli_jw_key_map(&w, "estimators");
    knee_json(&w, s, k, LLMM_CLI_KE_INFLECTION, "inflection", llmm_cli_knee_def_inflection,
              k->st_inflection, &k->inflection, "R2 of the cubic");
    knee_json(&w, s, k, LLMM_CLI_KE_COLLAPSE, "collapse", llmm_cli_knee_def_collapse,
              k->st_collapse, &k->collapse, "share of the initial growth lost after the knee");
    knee_json(&w, s, k, LLMM_CLI_KE_KNEEDLE, "kneedle", llmm_cli_knee_def_kneedle, k->st_kneedle,
              &k->kneedle, "largest normalised difference above the chord");
    usl_json(&w, s, k);
    llmm_cli_jw_kv_str(&w, "where_is", llmm_cli_knee_def_where);
    llmm_cli_jw_map_end(&w);
    slo_json(&w, k);
    llmm_cli_jw_key_arr(&w, "points");
    for (size_t i = 0; i < s->n; i++) {
        llmm_cli_jw_num_map(&w, NULL,
                            LLMM_CLI_JW_PAIRS({"concurrency", s->conc[i]}, {"qps", s->qps[i]},
                                              {"p99_ms", s->has_p99 ? s->p99_ms[i] : NAN}),
                            s->has_p99 ? 3 : 2);
    }
    llmm_cli_jw_arr_end(&w);
    llmm_cli_jw_map_end(&w);
    return llmm_cli_jw_finish_line(&w, out);
}
