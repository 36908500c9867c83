/* quantiles.c: `llmm quantiles X.llmm [Q...]`: what a sketch file holds. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "sketchfile.h"

#define QMAX 64

static const double default_q[] = {0.5, 0.9, 0.95, 0.99, 0.999, 0.9999};

void llmm_cli_quantiles_usage(FILE *f)
{
    fputs("usage: llmm quantiles [--json] [--buckets] X.llmm [Q...]\n"
          "\n"
          "Print the count, min, mean, max and quantiles of a sketch file (the library's\n"
          "binary format, from `llmm report --save-sketch` or `llmm merge`). Q is a quantile\n"
          "as 0.99, p99, p99.9 or 99% (default: P50 P90 P95 P99 P99.9 P99.99). Quantiles are\n"
          "nearest-rank, rank = max(1, ceil(q n)), within the sketch's relative error.\n"
          "\n"
          "Options:\n"
          "  --json       one JSON object instead of text\n"
          "  --buckets    also list every non-empty bucket: index, bounds and count\n"
          "  -h, --help   this text\n"
          "\n"
          "Exit status: 0 done, 1 unreadable or corrupt file, 2 usage error.\n",
          f);
}

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
    in->rel = llmm_cli_sketch_rel_error(in->scale);
    in->has_buckets = llmm_sketch_bucket_span(s, &in->first, &in->last) == LLMM_OK;
}

static int print_json(const char *path, const llmm_sketch *s, const info *in, const double *q,
                      const double *v, size_t nq, int buckets)
{
    llmm_cli_jw w;
    if (llmm_cli_jw_open(&w) != 0)
        return LLMM_CLI_ENOMEM;
    llmm_cli_jw_map(&w);
    llmm_cli_jw_key(&w, "file");
    llmm_cli_jw_str(&w, path);
    llmm_cli_jw_key(&w, "count");
    llmm_cli_jw_u64(&w, in->count);
    llmm_cli_jw_kv(&w, "sum", in->sum);
    llmm_cli_jw_kv(&w, "min", in->min);
    llmm_cli_jw_kv(&w, "mean", in->mean);
    llmm_cli_jw_kv(&w, "max", in->max);
    llmm_cli_jw_key(&w, "scale");
    llmm_cli_jw_i64(&w, in->scale);
    llmm_cli_jw_kv(&w, "relative_error", in->rel);
    llmm_cli_jw_key(&w, "range");
    llmm_cli_jw_arr(&w);
    llmm_cli_jw_num(&w, in->lo);
    llmm_cli_jw_num(&w, in->hi);
    llmm_cli_jw_arr_end(&w);
    llmm_cli_jw_key(&w, "zero");
    llmm_cli_jw_u64(&w, in->zero);
    llmm_cli_jw_key(&w, "below_range");
    llmm_cli_jw_u64(&w, in->under);
    llmm_cli_jw_key(&w, "above_range");
    llmm_cli_jw_u64(&w, in->over);
    llmm_cli_jw_key(&w, "quantiles");
    llmm_cli_jw_arr(&w);
    for (size_t i = 0; i < nq; i++) {
        llmm_cli_jw_map(&w);
        llmm_cli_jw_kv(&w, "q", q[i]);
        llmm_cli_jw_kv(&w, "value", v[i]);
        llmm_cli_jw_map_end(&w);
    }
    llmm_cli_jw_arr_end(&w);
    if (buckets) {
        llmm_cli_jw_key(&w, "buckets");
        llmm_cli_jw_arr(&w);
        for (int32_t i = in->first; in->has_buckets && i <= in->last; i++) {
            uint64_t c = llmm_sketch_bucket_count(s, i);
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
    if (llmm_cli_jw_finish(&w, stdout) != 0)
        return LLMM_CLI_EIO;
    putchar('\n');
    return LLMM_CLI_OK;
}

static void print_text(const char *path, const llmm_sketch *s, const info *in, const double *q,
                       const double *v, size_t nq, int buckets)
{
    printf("%s: %llu values, scale %d (quantiles within %.3f %% relative error)\n", path,
           (unsigned long long)in->count, (int)in->scale, 100 * in->rel);
    printf("  range tracked %g ... %g; %llu zero, %llu below, %llu above the range\n", in->lo,
           in->hi, (unsigned long long)in->zero, (unsigned long long)in->under,
           (unsigned long long)in->over);
    if (in->count == 0) {
        printf("  empty sketch: no quantiles\n");
        return;
    }
    printf("  min %.6g  mean %.6g  max %.6g  sum %.6g\n\n", in->min, in->mean, in->max,
           in->sum);
    printf("  %-10s %s\n", "quantile", "value");
    for (size_t i = 0; i < nq; i++)
        printf("  %-10g %.6g\n", q[i], v[i]);
    if (buckets && in->has_buckets) {
        printf("\n  %-8s %-27s %s\n", "bucket", "(lower, upper]", "count");
        for (int32_t i = in->first; i <= in->last; i++) {
            double lo, hi;
            uint64_t c = llmm_sketch_bucket_count(s, i);
            if (c && llmm_sketch_bucket_bounds(in->scale, i, &lo, &hi) == LLMM_OK)
                printf("  %-8d (%.6g, %.6g]%*s %llu\n", (int)i, lo, hi, 8, "",
                       (unsigned long long)c);
            if (i == INT32_MAX)
                break;
        }
    }
}

int llmm_cli_cmd_quantiles(int argc, char **argv)
{
    static const struct option longopts[] = {{"json", no_argument, NULL, 'j'},
                                             {"buckets", no_argument, NULL, 'b'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    double q[QMAX], v[QMAX];
    size_t nq = 0;
    int opt, json = 0, buckets = 0, rc;
    llmm_sketch *s;
    llmm_cli_error err;
    info in;
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == 'h') {
            llmm_cli_quantiles_usage(stdout);
            return 0;
        } else if (opt == 'j') {
            json = 1;
        } else if (opt == 'b') {
            buckets = 1;
        } else {
            fprintf(stderr, "llmm quantiles: %s option '%s'\nTry 'llmm quantiles --help'.\n",
                    opt == ':' ? "missing value for" : "unknown", argv[optind - 1]);
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "llmm quantiles: no X.llmm\nTry 'llmm quantiles --help'.\n");
        return 2;
    }
    for (int i = optind + 1; i < argc; i++) {
        if (nq == QMAX || llmm_cli_quantile_arg(argv[i], &q[nq]) != LLMM_CLI_OK) {
            fprintf(stderr, "llmm quantiles: '%s' is not a quantile (0.99, p99 or 99%%)%s\n",
                    argv[i], nq == QMAX ? " or too many" : "");
            return 2;
        }
        nq++;
    }
    if (nq == 0) {
        nq = sizeof default_q / sizeof default_q[0];
        memcpy(q, default_q, sizeof default_q);
    }
    if (llmm_cli_sketch_load(argv[optind], &s, &err) != LLMM_CLI_OK) {
        fprintf(stderr, "llmm quantiles: %s\n", err.msg);
        return 1;
    }
    read_info(s, &in);
    for (size_t i = 0; i < nq; i++)
        v[i] = NAN;
    if (in.count > 0 && llmm_sketch_quantiles(s, q, nq, v) != LLMM_OK) {
        fprintf(stderr, "llmm quantiles: %s: cannot compute the quantiles\n", argv[optind]);
        llmm_sketch_free(s);
        return 1;
    }
    rc = LLMM_CLI_OK;
    if (json)
        rc = print_json(argv[optind], s, &in, q, v, nq, buckets);
    else
        print_text(argv[optind], s, &in, q, v, nq, buckets);
    llmm_sketch_free(s);
    if (rc != LLMM_CLI_OK || fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "llmm quantiles: cannot write the output\n");
        return 1;
    }
    return 0;
}
