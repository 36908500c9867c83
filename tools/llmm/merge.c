/* merge.c: `llmm merge A.llmm B.llmm ... -o OUT.llmm`: one sketch of every value recorded
 * on many hosts, exactly as if one sketch had seen them all (bucket counts add). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sketchfile.h"

void llmm_cli_merge_usage(FILE *f)
{
    fputs("usage: llmm merge [-q] A.llmm B.llmm ... -o OUT.llmm\n"
          "\n"
          "Merge sketch files (the library's binary format, as `llmm report --save-sketch`\n"
          "writes them, one latency series per file) into one. The merge is exact: bucket\n"
          "counts add, so the result equals one sketch of all the values, bucket for bucket\n"
          "(count, min and max exactly; the sum up to floating-point rounding). Files of\n"
          "different scales merge at the coarsest (an exact index shift); the result tracks\n"
          "the union of the inputs' value ranges.\n"
          "\n"
          "Options:\n"
          "  -o, --output FILE   where to write the merged sketch (required; written to\n"
          "                      FILE.tmp first, then renamed)\n"
          "  -q, --quiet         no summary line\n"
          "  -h, --help          this text\n"
          "\n"
          "Exit status: 0 merged, 1 unreadable or corrupt input, 2 usage error.\n",
          f);
}

/* An empty sketch with the coarsest scale and the union range of the inputs. */
static int make_target(llmm_sketch **in, size_t n, llmm_sketch **out, llmm_cli_error *err)
{
    int32_t scale = llmm_sketch_scale(in[0]);
    double lo, hi;
    llmm_sketch_range(in[0], &lo, &hi);
    for (size_t i = 1; i < n; i++) {
        double a, b;
        int32_t sc = llmm_sketch_scale(in[i]);
        llmm_sketch_range(in[i], &a, &b);
        if (sc < scale)
            scale = sc;
        if (a < lo)
            lo = a;
        if (b > hi)
            hi = b;
    }
    if (llmm_sketch_new(NULL, scale, out) != LLMM_OK)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    if (llmm_sketch_set_range(*out, lo, hi) != LLMM_OK) {
        llmm_sketch_free(*out);
        *out = NULL;
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "the inputs' ranges cannot be combined");
    }
    return LLMM_CLI_OK;
}

int llmm_cli_cmd_merge(int argc, char **argv)
{
    static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                             {"quiet", no_argument, NULL, 'q'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    const char *outpath = NULL;
    llmm_sketch **in = NULL, *dst = NULL;
    llmm_cli_error err;
    size_t n = 0;
    int opt, quiet = 0, rc = LLMM_CLI_OK;
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":ho:q", longopts, NULL)) != -1) {
        if (opt == 'h') {
            llmm_cli_merge_usage(stdout);
            return 0;
        } else if (opt == 'o') {
            outpath = optarg;
        } else if (opt == 'q') {
            quiet = 1;
        } else {
            fprintf(stderr, "llmm merge: %s option '%s'\nTry 'llmm merge --help'.\n",
                    opt == ':' ? "missing value for" : "unknown", argv[optind - 1]);
            return 2;
        }
    }
    if (!outpath || optind >= argc) {
        fprintf(stderr, "llmm merge: %s\nTry 'llmm merge --help'.\n",
                !outpath ? "no -o OUT.llmm" : "no input file");
        return 2;
    }
    in = calloc((size_t)(argc - optind), sizeof *in);
    if (!in) {
        fprintf(stderr, "llmm merge: out of memory\n");
        return 1;
    }
    for (int i = optind; i < argc && rc == LLMM_CLI_OK; i++)
        if ((rc = llmm_cli_sketch_load(argv[i], &in[n], &err)) == LLMM_CLI_OK)
            n++;
    if (rc == LLMM_CLI_OK)
        rc = make_target(in, n, &dst, &err);
    for (size_t i = 0; i < n && rc == LLMM_CLI_OK; i++) {
        llmm_status st = llmm_sketch_merge(dst, in[i]);
        if (st != LLMM_OK)
            rc = llmm_cli_fail(&err, LLMM_CLI_EPARSE, "%s: cannot merge: %s",
                               argv[optind + (int)i], llmm_strerror(st));
    }
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_sketch_save(outpath, dst, &err);
    if (rc == LLMM_CLI_OK && !quiet)
        printf("merged %zu sketch file%s: %llu values, scale %d -> %s\n", n, n == 1 ? "" : "s",
               (unsigned long long)llmm_sketch_count(dst), (int)llmm_sketch_scale(dst),
               outpath);
    if (rc != LLMM_CLI_OK)
        fprintf(stderr, "llmm merge: %s\n", err.msg);
    for (size_t i = 0; i < n; i++)
        llmm_sketch_free(in[i]);
    free(in);
    llmm_sketch_free(dst);
    return rc == LLMM_CLI_OK ? 0 : 1;
}
