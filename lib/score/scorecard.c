/* The scorecard object: layer weights, metric definitions with owned names, observations, and
 * the evaluation into per-layer scores and an overall score. */
#include <math.h>
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "core/options.h"
#include "score/weights.h"

typedef struct metric {
    char *name; /* owned, NUL-terminated, allocated with name_size bytes */
    size_t name_size;
    llmm_layer layer;
    double target;
    double worst;
    double weight;
    double value; /* latest observation, valid when observed */
    int observed;
} metric;

struct llmm_scorecard {
    llmm_ctx *ctx;
    llmm_scenario scenario;
    int weights_set; /* 0 only for a custom scorecard before llmm_scorecard_set_weights */
    double w[LLMM_LAYER_COUNT];
    int32_t missing; /* a llmm_missing_policy (option LLMM_SCORECARD_MISSING) */
    metric *m;
    uint32_t n;
    uint32_t cap;
};

llmm_status llmm_scorecard_new(llmm_ctx *ctx, llmm_scenario preset, llmm_scorecard **out)
{
    llmm_scorecard *sc;
    double w[LLMM_LAYER_COUNT] = {0.0, 0.0, 0.0, 0.0};
    int is_preset;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    is_preset = llmm__score_preset(preset, w);
    if (!is_preset && preset != LLMM_SCENARIO_CUSTOM)
        return LLMM_E_INVALID;
    sc = llmm__calloc(ctx, 1, sizeof *sc);
    if (!sc)
        return LLMM_E_NOMEM;
    sc->ctx = ctx;
    sc->scenario = preset;
    sc->weights_set = is_preset;
    memcpy(sc->w, w, sizeof w);
    llmm__option_defaults(&llmm__scorecard_options, sc);
    *out = sc;
    return LLMM_OK;
}

void llmm_scorecard_free(llmm_scorecard *sc)
{
    uint32_t i;
    if (!sc)
        return;
    for (i = 0; i < sc->n; i++)
        llmm__free(sc->ctx, sc->m[i].name, sc->m[i].name_size);
    if (sc->m)
        llmm__free(sc->ctx, sc->m, (size_t)sc->cap * sizeof *sc->m);
    llmm__free(sc->ctx, sc, sizeof *sc);
}

llmm_status llmm_scorecard_set_weights(llmm_scorecard *sc, const double *weights, size_t n)
{
    if (!sc || !weights || n != LLMM_LAYER_COUNT || !llmm__score_weights_valid(weights))
        return LLMM_E_INVALID;
    memcpy(sc->w, weights, sizeof sc->w);
    sc->weights_set = 1;
    sc->scenario = LLMM_SCENARIO_CUSTOM;
    return LLMM_OK;
}

llmm_status llmm_scorecard_weights(const llmm_scorecard *sc, double *weights, size_t n)
{
    if (!sc || !weights || n != LLMM_LAYER_COUNT)
        return LLMM_E_INVALID;
    if (!sc->weights_set)
        return LLMM_E_STATE;
    memcpy(weights, sc->w, sizeof sc->w);
    return LLMM_OK;
}

static const llmm__option scorecard_opts[] = {
    LLMM__OPTION_I32(llmm_scorecard, LLMM_SCORECARD_MISSING, "missing", 0, LLMM_MISSING_REFUSE,
                     LLMM_MISSING_RENORMALIZE, LLMM_MISSING_REFUSE, missing),
};

const llmm__option_kind llmm__scorecard_options = {
    LLMM__KIND_OF(scorecard_opts), 0, NULL, NULL, NULL, NULL,
};

LLMM__OPTION_CALLS_I32(llmm_scorecard, llmm_scorecard_option, &llmm__scorecard_options)

/* Length of name if it is 1..LLMM_SCORE_NAME_MAX bytes, else 0; never reads past the limit. */
static size_t name_length(const char *name)
{
    size_t len = 0;
    while (len <= LLMM_SCORE_NAME_MAX && name[len] != '\0')
        len++;
    return len > LLMM_SCORE_NAME_MAX ? 0 : len;
}

static metric *find_metric(const llmm_scorecard *sc, const char *name)
{
    uint32_t i;
    for (i = 0; i < sc->n; i++)
        if (strcmp(sc->m[i].name, name) == 0)
            return &sc->m[i];
    return NULL;
}

/* Make room for one more metric; on failure the array is as before. */
static llmm_status reserve_one(llmm_scorecard *sc)
{
    uint32_t cap;
    size_t old_bytes, new_bytes;
    metric *m;
    if (sc->n < sc->cap)
        return LLMM_OK;
    if (sc->cap >= UINT32_MAX / 2)
        return LLMM_E_NOMEM;
    cap = sc->cap ? sc->cap * 2 : 8;
    old_bytes = (size_t)sc->cap * sizeof *m;
    if (!llmm__mul_size(cap, sizeof *m, &new_bytes))
        return LLMM_E_NOMEM;
    m = sc->m ? llmm__realloc(sc->ctx, sc->m, old_bytes, new_bytes)
              : llmm__alloc(sc->ctx, new_bytes);
    if (!m)
        return LLMM_E_NOMEM;
    sc->m = m;
    sc->cap = cap;
    return LLMM_OK;
}

llmm_status llmm_scorecard_add_metric(llmm_scorecard *sc, llmm_layer layer, const char *name,
                                      llmm_direction dir, double target, double worst,
                                      double weight, uint32_t *id)
{
    size_t len;
    char *copy;
    metric *m;
    llmm_status st;

    if (!sc || !name || (int)layer < 0 || (int)layer >= LLMM_LAYER_COUNT)
        return LLMM_E_INVALID;
    len = name_length(name);
    if (len == 0 || find_metric(sc, name))
        return LLMM_E_INVALID;
    if (!llmm__score_bounds_valid(dir, target, worst) || !llmm__is_finite(weight) ||
        !(weight > 0.0))
        return LLMM_E_INVALID;
    st = reserve_one(sc);
    if (st != LLMM_OK)
        return st;
    copy = llmm__alloc(sc->ctx, len + 1);
    if (!copy)
        return LLMM_E_NOMEM;
    memcpy(copy, name, len + 1);
    m = &sc->m[sc->n];
    m->name = copy;
    m->name_size = len + 1;
    m->layer = layer;
    m->target = target;
    m->worst = worst;
    m->weight = weight;
    m->value = 0.0;
    m->observed = 0;
    if (id)
        *id = sc->n;
    sc->n++;
    return LLMM_OK;
}

llmm_status llmm_scorecard_observe(llmm_scorecard *sc, const char *name, double value)
{
    metric *m;
    if (!sc || !name || !llmm__is_finite(value))
        return LLMM_E_INVALID;
    m = find_metric(sc, name);
    if (!m)
        return LLMM_E_INVALID;
    m->value = value;
    m->observed = 1;
    return LLMM_OK;
}

llmm_status llmm_scorecard_observe_id(llmm_scorecard *sc, uint32_t id, double value)
{
    if (!sc || id >= sc->n || !llmm__is_finite(value))
        return LLMM_E_INVALID;
    sc->m[id].value = value;
    sc->m[id].observed = 1;
    return LLMM_OK;
}

llmm_status llmm_scorecard_clear(llmm_scorecard *sc)
{
    uint32_t i;
    if (!sc)
        return LLMM_E_INVALID;
    for (i = 0; i < sc->n; i++)
        sc->m[i].observed = 0;
    return LLMM_OK;
}

llmm_status llmm_scorecard_metric_score(const llmm_scorecard *sc, uint32_t id, double *score)
{
    const metric *m;
    if (!sc || !score || id >= sc->n)
        return LLMM_E_INVALID;
    m = &sc->m[id];
    if (!m->observed)
        return LLMM_E_EMPTY;
    *score = llmm__score_of(m->target, m->worst, m->value);
    return LLMM_OK;
}

/* Per-layer part of the result: scores, presence, counts, configured weights. */
static void score_layers(const llmm_scorecard *sc, llmm_score_result *r)
{
    double num[LLMM_LAYER_COUNT] = {0.0, 0.0, 0.0, 0.0};
    double den[LLMM_LAYER_COUNT] = {0.0, 0.0, 0.0, 0.0};
    uint32_t i;
    int l;

    for (l = 0; l < LLMM_LAYER_COUNT; l++) {
        r->layer_metrics[l] = 0;
        r->layer_observed[l] = 0;
    }
    /* Every term w·s <= w and rounding is monotone, so num <= den and the mean stays <= 1. */
    for (i = 0; i < sc->n; i++) {
        const metric *m = &sc->m[i];
        r->layer_metrics[m->layer]++;
        if (!m->observed)
            continue;
        r->layer_observed[m->layer]++;
        num[m->layer] += m->weight * llmm__score_of(m->target, m->worst, m->value);
        den[m->layer] += m->weight;
    }
    r->layers_missing = 0;
    for (l = 0; l < LLMM_LAYER_COUNT; l++) {
        r->layer_present[l] = r->layer_observed[l] > 0;
        r->layer_score[l] = r->layer_present[l] ? num[l] / den[l] : NAN;
        r->layer_weight[l] = sc->w[l];
        r->layer_effective_weight[l] = 0.0;
        r->layer_contribution[l] = 0.0;
        if (!r->layer_present[l])
            r->layers_missing++;
    }
    r->scenario = sc->scenario;
    r->renormalized = 0;
    r->overall = NAN;
}

/* The overall score from the layers score_layers() filled: the status of the evaluation. */
static llmm_status score_overall(const llmm_scorecard *sc, llmm_score_result *r)
{
    double total = 0.0, overall = 0.0;
    int l, missing_weighted = 0;

    for (l = 0; l < LLMM_LAYER_COUNT; l++) {
        if (r->layer_present[l])
            total += sc->w[l];
        else if (sc->w[l] > 0.0)
            missing_weighted = 1;
    }
    if (!(total > 0.0))
        return LLMM_E_EMPTY;
    if (missing_weighted && sc->missing == LLMM_MISSING_REFUSE)
        return LLMM_E_STATE;
    for (l = 0; l < LLMM_LAYER_COUNT; l++) {
        if (!r->layer_present[l])
            continue;
        r->layer_effective_weight[l] = sc->w[l] / total;
        r->layer_contribution[l] = r->layer_effective_weight[l] * r->layer_score[l];
        overall += r->layer_contribution[l];
    }
    /* The effective weights may sum to 1 + ulp after division: keep the promise overall <= 1. */
    r->overall = overall > 1.0 ? 1.0 : overall;
    r->renormalized = missing_weighted;
    return LLMM_OK;
}

llmm_status llmm_scorecard_evaluate(const llmm_scorecard *sc, llmm_score_result *r)
{
    llmm_score_result o;
    llmm_status st;

    if (!sc || !r)
        return LLMM_E_INVALID;
    if (LLMM__SIZED_CHECK(llmm_score_result, r) != LLMM_OK)
        return LLMM_E_ABI;
    if (!sc->weights_set)
        return LLMM_E_STATE;
    LLMM__SIZED_DEFAULTS(llmm_score_result, &o);
    score_layers(sc, &o);
    /* The layers are reported also when no overall score can be given. */
    st = score_overall(sc, &o);
    LLMM__SIZED_PUT(llmm_score_result, r, &o);
    return st;
}
