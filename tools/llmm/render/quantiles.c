/* quantiles.c: what `llmm quantiles` prints about a sketch, as text or JSON (sketch.h). */
#include <math.h>
#include <string.h>

#include "common/jsonw.h"
#include "common/numbers.h"
#include "render/sketch.h"

typedef struct info {
    uint64_t count, zero, under, over;
    double sum, min, max, mean, lo, hi, rel;
    int32_t scale, first, last;
    int has_buckets;
} info;

static void read_info(const llmm_sketch *s, info *in)
{
    memset(in, 0, sizeof *in);
    in->count = llmm_sketch_count(s);
    in->min = in->max = in->mean = NAN;
    llmm_sketch_sum(s, &in->sum);
    llmm_sketch_min(s, &in->min);
    llmm_sketch_max(s, &in->max);
    llmm_sketch_mean(s, &in->mean);
    llmm_sketch_special_counts(s, &in->zero, &in->under, &in->over);
    llmm_sketch_range(s, &in->lo, &in->hi);
    in->scale = llmm_sketch_scale(s);
    in->rel = llmm_cli_rel_error(in->scale);
    in->has_buckets = llmm_sketch_bucket_span(s, &in->first, &in->last) == LLMM_OK;
}

int llmm_cli_quantiles_json(const llmm_cli_quantiles *qs, FILE *out)
{
    llmm_cli_jw w;
    info in;
    read_info(qs->s, &in);
    if (llmm_cli_jw_open(&w) != 0)
        return LLMM_CLI_ENOMEM;
    llmm_cli_jw_map(&w);
    llmm_cli_jw_kv_str(&w, "file", qs->path);
    llmm_cli_jw_kv_u64(&w, "count", in.count);
    LLMM_CLI_JW_NUMS(&w, {"sum", in.sum}, {"min", in.min}, {"mean", in.mean}, {"max", in.max});
    llmm_cli_jw_kv_i64(&w, "scale", in.scale);
    llmm_cli_jw_kv(&w, "relative_error", in.rel);
    llmm_cli_jw_key_arr(&w, "range");
    llmm_cli_jw_num(&w, in.lo);
    llmm_cli_jw_num(&w, in.hi);
    llmm_cli_jw_arr_end(&w);
    llmm_cli_jw_kv_u64(&w, "zero", in.zero);
    llmm_cli_jw_kv_u64(&w, "below_range", in.under);
    llmm_cli_jw_kv_u64(&w, "above_range", in.over);
    llmm_cli_jw_key_arr(&w, "quantiles");
    for (size_t i = 0; i < qs->nq; i++) {
        LLMM_CLI_JW_NUM_MAP(&w, NULL, {"q", qs->q[i]}, {"value", qs->v[i]});
    }
    llmm_cli_jw_arr_end(&w);
    if (qs->buckets) {
        llmm_cli_jw_key_arr(&w, "buckets");
        for (int32_t i = in.first; in.has_buckets && i <= in.last; i++) {
            uint64_t c = llmm_sketch_bucket_count(qs->s, i);
            if (c == 0)
                continue;
            llmm_cli_jw_arr(&w);
            llmm_cli_jw_i64(&w, i);
            llmm_cli_jw_u64(&w, c);
            llmm_cli_jw_arr_end(&w);
            if (i == INT32_MAX)
                break;
        }
        llmm_cli_jw_arr_end(&w);
    }
    llmm_cli_jw_map_end(&w);
    return llmm_cli_jw_finish_line(&w, out);
}

static void buckets_text(const llmm_sketch *s, const info *in, FILE *out)
{
    fprintf(out, "\n  %-8s %-27s %s\n", "bucket", "(lower, upper]", "count");
    for (int32_t i = in->first; i <= in->last; i++) {
        double lo, hi;
        uint64_t c = llmm_sketch_bucket_count(s, i);
        if (c && llmm_sketch_bucket_bounds(in->scale, i, &lo, &hi) == LLMM_OK)
            fprintf(out, "  %-8d (%.6g, %.6g]%*s %llu\n", (int)i, lo, hi, 8, "",
                    (unsigned long long)c);
        if (i == INT32_MAX)
            break;
    }
}

void llmm_cli_quantiles_text(const llmm_cli_quantiles *qs, FILE *out)
{
    info in;
    read_info(qs->s, &in);
    fprintf(out, "%s: %llu values, scale %d (quantiles within %.3f %% relative error)\n",
            qs->path, (unsigned long long)in.count, (int)in.scale, 100 * in.rel);
    fprintf(out, "  range tracked %g ... %g; %llu zero, %llu below, %llu above the range\n",
            in.lo, in.hi, (unsigned long long)in.zero, (unsigned long long)in.under,
            (unsigned long long)in.over);
    if (in.count == 0) {
        fprintf(out, "  empty sketch: no quantiles\n");
        return;
    }
    fprintf(out, "  min %.6g  mean %.6g  max %.6g  sum %.6g\n\n", in.min, in.mean, in.max,
            in.sum);
    fprintf(out, "  %-10s %s\n", "quantile", "value");
    for (size_t i = 0; i < qs->nq; i++)
        fprintf(out, "  %-10g %.6g\n", qs->q[i], qs->v[i]);
    if (qs->buckets && in.has_buckets)
        buckets_text(qs->s, &in, out);
}
