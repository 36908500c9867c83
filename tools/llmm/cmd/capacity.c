/* capacity.c: `llmm capacity`: the closed-form capacity figures of doc/spec.md §3
 * (render/capacity.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/command.h"
#include "render/capacity.h"

#define SELF (&llmm_cli_command_capacity)

#define given llmm_cli_capacity_given

static void usage(FILE *f)
{
    fputs("usage: llmm capacity [--json] FIGURE OPTIONS...\n"
          "\n"
          "Closed-form capacity figures (doc/spec.md, section 3). Give the options of one or\n"
          "more figures; each prints with its formula. Numbers take SI suffixes k, M, G, T, P (2039G =\n"
          "2.039e12); options marked LIST take comma-separated values.\n"
          "\n"
          "Little's-law capacity, tps = max(1, L / W * safety), W = P99.9 in seconds:\n"
          "  --p999-ms LIST       P99.9 latency in milliseconds\n"
          "  --concurrency L      mean requests in flight\n"
          "  --safety S           safety factor in (0, 1] (default 0.85)\n"
          "Throughput decay, eta = 1 - actual / peak:\n"
          "  --actual T --peak T\n"
          "Roofline, T = min(peak, B * I), and critical intensity I_crit = peak / B:\n"
          "  --peak-flops F       peak compute, FLOP/s (e.g. 312T)\n"
          "  --bandwidth B        memory bandwidth, bytes/s (e.g. 2039G)\n"
          "  --intensity I        arithmetic intensity, FLOPs/byte, or --flops F --bytes B\n"
          "Multi-GPU scaling decay, 1 - measured / ideal:\n"
          "  --ideal LIST --measured LIST, or --single T --devices N --measured LIST\n"
          "Communication share of a step, comm / step:\n"
          "  --comm-ms C --step-ms S\n"
          "Sequence-length decay, 1 - long / short:\n"
          "  --tps-short T --tps-long T\n"
          "\n"
          "  --json               one JSON object instead of text\n"
          "  -h, --help           this text\n"
          "\n"
          "Exit status: 0 done, 1 a figure's inputs are out of its domain, 2 usage error.\n",
          f);
}

static int si_number(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end), m = 1;
    if (end == s)
        return 0;
    switch (*end) {
    case 'k':
    case 'K':
        m = 1e3;
        end++;
        break;
    case 'M':
        m = 1e6;
        end++;
        break;
    case 'G':
        m = 1e9;
        end++;
        break;
    case 'T':
        m = 1e12;
        end++;
        break;
    case 'P':
        m = 1e15;
        end++;
        break;
    default:
        break;
    }
    if (*end != '\0' || !isfinite(v))
        return 0;
    *out = v * m;
    return 1;
}

static int parse_list(const char *name, const char *arg, double *v, size_t *n)
{
    char buf[1024], *save = NULL, *tok;
    if (strlen(arg) >= sizeof buf)
        goto bad;
    strcpy(buf, arg);
    *n = 0;
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == LLMM_CLI_CAPACITY_LIST_MAX || !si_number(tok, &v[*n]))
            goto bad;
        (*n)++;
    }
    if (*n > 0)
        return 1;
bad:
    llmm_cli_say(SELF, 2, "--%s: '%s' is not a number%s", name, arg,
                 strchr(arg, ',') ? " list" : "");
    return 0;
}

typedef struct capacity_args {
    llmm_cli_capacity o;
    int json;
} capacity_args;

/* One option (command.h's llmm_cli_option_fn). */
static int option(void *ctx, int id, const char *name, const char *arg)
{
    capacity_args *a = ctx;
    llmm_cli_capacity *o = &a->o;
    int k = id - LLMM_CLI_OPT, ok = 1;
    if (k == O_JSON)
        a->json = 1;
    else if (k == O_P999)
        ok = parse_list(name, arg, o->p999, &o->np999);
    else if (k == O_IDEAL)
        ok = parse_list(name, arg, o->ideal, &o->nideal);
    else if (k == O_MEASURED)
        ok = parse_list(name, arg, o->measured, &o->nmeasured);
    else if (!si_number(arg, &o->v[k]))
        return llmm_cli_say(SELF, 2, "--%s: '%s' is not a number", name, arg);
    return ok ? -1 : 2;
}

/* Options that go together: each needs the other. */
static const struct {
    int a, b;
    const char *an, *bn;
} pairs[] = {
    {O_ACTUAL, O_PEAK, "actual", "peak"},          {O_PEAK_FLOPS, O_BW, "peak-flops", "bandwidth"},
    {O_COMM, O_STEP, "comm-ms", "step-ms"},        {O_SHORT, O_LONG, "tps-short", "tps-long"},
    {O_SINGLE, O_DEVICES, "single", "devices"},    {O_FLOPS, O_BYTES, "flops", "bytes"},
};

/* The options fit together: 1, else a message. */
static int consistent(const llmm_cli_capacity *o)
{
    if ((o->np999 > 0) != given(o, O_CONC))
        return llmm_cli_say(SELF, 0, "Little's law needs both --p999-ms and --concurrency");
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        int a = given(o, pairs[i].a);
        if (a != given(o, pairs[i].b))
            return llmm_cli_say(SELF, 0, "--%s needs --%s", a ? pairs[i].an : pairs[i].bn,
                                a ? pairs[i].bn : pairs[i].an);
    }
    if ((given(o, O_INTENSITY) || given(o, O_FLOPS)) && !given(o, O_PEAK_FLOPS))
        return llmm_cli_say(SELF, 0, "an intensity needs --peak-flops and --bandwidth");
    if ((o->nmeasured > 0) != (o->nideal > 0 || given(o, O_SINGLE)))
        return llmm_cli_say(SELF, 0, "scaling decay needs --measured with --ideal or --single "
                                     "and --devices");
    return 1;
}

static int run(int argc, char **argv)
{
    capacity_args a;
    int status;
    memset(&a, 0, sizeof a);
    for (int i = 0; i < O_COUNT; i++)
        a.o.v[i] = NAN;
    status = llmm_cli_parse_options(SELF, LLMM_CLI_CAPACITY_OPTIONS, argc, argv, option, &a);
    if (status >= 0)
        return status;
    if (optind < argc)
        return llmm_cli_say(SELF, 2, "unexpected argument '%s'", argv[optind]);
    if (!consistent(&a.o))
        return 2;
    if (!llmm_cli_capacity_wanted(&a.o))
        return llmm_cli_usage_error(SELF, "nothing to compute");
    return llmm_cli_capacity_write(&a.o, a.json);
}

LLMM_CLI_DEFINE_COMMAND(capacity,
    "  capacity         Little's-law, roofline, decay and scaling figures\n");
