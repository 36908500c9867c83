/* merge.c: `llmm merge A.llmm B.llmm ... -o OUT.llmm`: one sketch of every value recorded
 * on many hosts, exactly as if one sketch had seen them all (bucket counts add). */
#include <stdlib.h>

#include "cmd/command.h"
#include "input/sketch.h"
#include "render/sketch.h"

#define SELF (&llmm_cli_command_merge)

static void usage(FILE *f)
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
          "  -o, --output FILE   where to write the merged sketch (required; a new file\n"
          "                      beside FILE, renamed over it once complete; a device or\n"
          "                      FIFO is written in place, a directory refused)\n"
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

/* Merge the n files (path[i] names in[i]) into *dst. */
static int merge_all(llmm_sketch **in, char **path, size_t n, llmm_sketch **dst,
                     llmm_cli_error *err)
{
    int rc = make_target(in, n, dst, err);
    for (size_t i = 0; i < n && rc == LLMM_CLI_OK; i++) {
        llmm_status st = llmm_sketch_merge(*dst, in[i]);
        if (st != LLMM_OK)
            rc = llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: cannot merge: %s", path[i],
                               llmm_strerror(st));
    }
    return rc;
}

/* Load the files, merge them, write outpath. */
static int merge(char **files, size_t nfiles, const char *outpath, int quiet)
{
    llmm_sketch **in = calloc(nfiles, sizeof *in), *dst = NULL;
    llmm_cli_error err;
    size_t n = 0;
    int rc = LLMM_CLI_OK;
    if (!in)
        return llmm_cli_say(SELF, 1, "out of memory");
    for (size_t i = 0; i < nfiles && rc == LLMM_CLI_OK; i++)
        if ((rc = llmm_cli_sketch_load(files[i], &in[n], &err)) == LLMM_CLI_OK)
            n++;
    if (rc == LLMM_CLI_OK)
        rc = merge_all(in, files, n, &dst, &err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_sketch_save(outpath, dst, &err);
    if (rc == LLMM_CLI_OK && !quiet)
        printf("merged %zu sketch file%s: %llu values, scale %d -> %s\n", n, n == 1 ? "" : "s",
               (unsigned long long)llmm_sketch_count(dst), (int)llmm_sketch_scale(dst),
               outpath);
    if (rc != LLMM_CLI_OK)
        llmm_cli_say(SELF, 1, "%s", err.msg);
    for (size_t i = 0; i < n; i++)
        llmm_sketch_free(in[i]);
    free(in);
    llmm_sketch_free(dst);
    return rc == LLMM_CLI_OK ? 0 : 1;
}

typedef struct merge_args {
    const char *outpath;
    int quiet;
} merge_args;

static int option(void *ctx, int id, const char *name, const char *arg)
{
    merge_args *a = ctx;
    (void)name;
    if (id == 'o')
        a->outpath = arg;
    else
        a->quiet = 1;
    return -1;
}

static int run(int argc, char **argv)
{
    merge_args a = {NULL, 0};
    int status = llmm_cli_parse_options(SELF, "output=/o quiet/q", argc, argv, option, &a);
    if (status >= 0)
        return status;
    if (!a.outpath || optind >= argc)
        return llmm_cli_usage_error(SELF, "%s", !a.outpath ? "no -o OUT.llmm" : "no input file");
    return merge(argv + optind, (size_t)(argc - optind), a.outpath, a.quiet);
}

LLMM_CLI_DEFINE_COMMAND(merge,
    "  merge A.llmm ... -o OUT.llmm   merge binary sketch files exactly\n");
