/* quantiles.c: `llmm quantiles X.llmm [Q...]`: what a sketch file holds (render/sketch.h). */
#include <math.h>
#include <string.h>

#include "cmd/command.h"
#include "common/bounds.h"
#include "input/sketch.h"
#include "render/sketch.h"

#define SELF (&llmm_cli_command_quantiles)

#define QMAX 64

static const double default_q[] = {0.5, 0.9, 0.95, 0.99, 0.999, 0.9999};

static void usage(FILE *f)
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

/* Quantiles only a bound of the sketch's range answers: a warning on stderr. */
static void warn_bounds(const llmm_cli_quantiles *qs)
{
    char text[QMAX][24];
    const char *label[QMAX];
    for (size_t i = 0; i < qs->nq; i++) {
        snprintf(text[i], sizeof text[i], "%g", qs->q[i]);
        label[i] = text[i];
    }
    llmm_cli_warn_bounds("llmm quantiles", qs->path, "", qs->s, qs->q, label, qs->nq);
}

/* The quantiles of the file at qs->path, written as text or JSON. */
static int quantiles(llmm_cli_quantiles *qs, double *v, int json)
{
    llmm_sketch *s;
    llmm_cli_error err;
    int rc = LLMM_CLI_OK;
    if (llmm_cli_sketch_load(qs->path, &s, &err) != LLMM_CLI_OK)
        return llmm_cli_say(SELF, 1, "%s", err.msg);
    for (size_t i = 0; i < qs->nq; i++)
        v[i] = NAN;
    if (llmm_sketch_count(s) > 0 && llmm_sketch_quantiles(s, qs->q, qs->nq, v) != LLMM_OK) {
        llmm_sketch_free(s);
        return llmm_cli_say(SELF, 1, "%s: cannot compute the quantiles", qs->path);
    }
    qs->s = s;
    qs->v = v;
    warn_bounds(qs);
    if (json)
        rc = llmm_cli_quantiles_json(qs, stdout);
    else
        llmm_cli_quantiles_text(qs, stdout);
    llmm_sketch_free(s);
    if (rc == LLMM_CLI_ENOMEM)
        return llmm_cli_say(SELF, 1, "out of memory");
    return rc == LLMM_CLI_OK ? 0 : 1; /* a failed standard output: main() says so */
}

enum { OPT_JSON = LLMM_CLI_OPT, OPT_BUCKETS };

typedef struct quantiles_args {
    int json, buckets;
} quantiles_args;

static int option(void *ctx, int id, const char *name, const char *arg)
{
    quantiles_args *a = ctx;
    (void)name;
    (void)arg;
    *(id == OPT_JSON ? &a->json : &a->buckets) = 1;
    return -1;
}

static int run(int argc, char **argv)
{
    quantiles_args a = {0, 0};
    llmm_cli_quantiles qs;
    double q[QMAX], v[QMAX];
    int status = llmm_cli_parse_options(SELF, "json buckets", argc, argv, option, &a);
    if (status >= 0)
        return status;
    if (optind >= argc)
        return llmm_cli_usage_error(SELF, "no X.llmm");
    memset(&qs, 0, sizeof qs);
    for (int i = optind + 1; i < argc; i++, qs.nq++)
        if (qs.nq == QMAX || llmm_cli_quantile_arg(argv[i], &q[qs.nq]) != LLMM_CLI_OK)
            return llmm_cli_say(SELF, 2, "'%s' is not a quantile (0.99, p99 or 99%%)%s", argv[i],
                                qs.nq == QMAX ? " or too many" : "");
    if (qs.nq == 0) {
        qs.nq = sizeof default_q / sizeof default_q[0];
        memcpy(q, default_q, sizeof default_q);
    }
    qs.path = argv[optind];
    qs.q = q;
    qs.buckets = a.buckets;
    return quantiles(&qs, v, a.json);
}

LLMM_CLI_DEFINE_COMMAND(quantiles,
    "  quantiles X.llmm [Q...]        quantiles and counts of a sketch file\n");
