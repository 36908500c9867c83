/* options.c: the option loop and the option values every command shares (command.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/command.h"

/* The getopt_long tables of a spec. */
typedef struct option_table {
    struct option lo[LLMM_CLI_OPTIONS_MAX + 2];
    char name[LLMM_CLI_OPTIONS_MAX][32];
    char shortopts[3 * LLMM_CLI_OPTIONS_MAX + 3];
} option_table;

static void build_table(const char *spec, option_table *t)
{
    size_t n = 0, ns = 0;
    t->shortopts[ns++] = ':';
    t->shortopts[ns++] = 'h';
    const char *p = spec;
    for (; *p && n < LLMM_CLI_OPTIONS_MAX;) {
        size_t len = strcspn(p, " =/");
        int has_arg = p[len] == '=', letter = 0;
        if (len == 0 || len >= sizeof t->name[0]) { /* a blank, or a spec out of bounds */
            p += len + (p[len] != '\0');
            continue;
        }
        memcpy(t->name[n], p, len);
        t->name[n][len] = '\0';
        p += len + has_arg;
        if (*p == '/' && p[1]) {
            letter = (unsigned char)p[1];
            t->shortopts[ns++] = (char)letter;
            if (has_arg)
                t->shortopts[ns++] = ':';
            p += 2;
        }
        t->lo[n].name = t->name[n];
        t->lo[n].has_arg = has_arg ? required_argument : no_argument;
        t->lo[n].flag = NULL;
        t->lo[n].val = letter ? letter : LLMM_CLI_OPT + (int)n;
        n++;
    }
    /* A spec longer than the table is the program's own error, never the user's: it would
     * drop the last options silently (the 33rd of `llmm bench` once), so it stops here. */
    if (p[strspn(p, " ")] != '\0') {
        fprintf(stderr, "llmm: internal error: more than %d options in a command\n",
                LLMM_CLI_OPTIONS_MAX);
        abort();
    }
    t->shortopts[ns] = '\0';
    t->lo[n] = (struct option){"help", no_argument, NULL, 'h'};
    t->lo[n + 1] = (struct option){NULL, 0, NULL, 0};
}

static const char *name_of(const option_table *t, int id)
{
    for (const struct option *o = t->lo; o->name; o++)
        if (o->val == id)
            return o->name;
    return "";
}

int llmm_cli_parse_options(const llmm_cli_command *c, const char *spec, int argc, char **argv,
                           llmm_cli_option_fn fn, void *ctx)
{
    option_table t;
    int opt, status = -1;
    build_table(spec, &t);
    opterr = 0;
    optind = 1;
    while (status < 0 && (opt = getopt_long(argc, argv, t.shortopts, t.lo, NULL)) != -1) {
        if (opt == 'h') {
            c->usage(stdout);
            status = 0;
        } else if (opt == '?' || opt == ':') {
            status = llmm_cli_usage_error(c, "%s option '%s'",
                                          opt == ':' ? "missing value for" : "unknown",
                                          argv[optind - 1]);
        } else {
            status = fn(ctx, opt, name_of(&t, opt), optarg);
        }
    }
    return status;
}

static void vsay(const llmm_cli_command *c, const char *fmt, va_list ap)
{
    fprintf(stderr, "llmm %s: ", c->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int llmm_cli_say(const llmm_cli_command *c, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(c, fmt, ap);
    va_end(ap);
    return status;
}

int llmm_cli_usage_error(const llmm_cli_command *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(c, fmt, ap);
    va_end(ap);
    fprintf(stderr, "Try 'llmm %s --help'.\n", c->name);
    return 2;
}

int llmm_cli_parse_duration(const char *s, double *seconds)
{
    char *end;
    double v, scale = 1e-3;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v) || v < 0)
        return LLMM_CLI_EUSAGE;
    if (*end == '\0' || strcmp(end, "ms") == 0)
        scale = 1e-3;
    else if (strcmp(end, "s") == 0)
        scale = 1.0;
    else if (strcmp(end, "us") == 0)
        scale = 1e-6;
    else
        return LLMM_CLI_EUSAGE;
    *seconds = v * scale;
    return LLMM_CLI_OK;
}

int llmm_cli_quantile_arg(const char *s, double *q)
{
    char *end;
    double v;
    int pct = 0;
    if (s[0] == 'p' || s[0] == 'P') {
        s++;
        pct = 1;
    }
    v = strtod(s, &end);
    if (end == s)
        return LLMM_CLI_EUSAGE;
    if (*end == '%' && !pct) {
        pct = 1;
        end++;
    }
    if (*end != '\0')
        return LLMM_CLI_EUSAGE;
    if (pct)
        v /= 100.0;
    if (!(v >= 0 && v <= 1))
        return LLMM_CLI_EUSAGE;
    *q = v;
    return LLMM_CLI_OK;
}

int llmm_cli_u64_arg(const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long v;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (end == s || *end != '\0' || errno || v > max || s[0] == '-')
        return 0;
    *out = v;
    return 1;
}

int llmm_cli_slo_arg(const char *arg, double slo[3], double *err_max, llmm_cli_error *err)
{
    char *copy = strdup(arg), *save = NULL, *tok;
    int rc = LLMM_CLI_OK;
    if (!copy)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    for (tok = strtok_r(copy, ",", &save); tok && rc == LLMM_CLI_OK;
         tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        int idx = -1;
        if (!eq) {
            rc = llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--slo: '%s' is not KEY=VALUE", tok);
            break;
        }
        *eq = '\0';
        if (strcmp(tok, "ttft") == 0)
            idx = 0;
        else if (strcmp(tok, "tpot") == 0)
            idx = 1;
        else if (strcmp(tok, "e2e") == 0 || strcmp(tok, "e2el") == 0)
            idx = 2;
        if (idx >= 0) {
            if (llmm_cli_parse_duration(eq + 1, &slo[idx]) != LLMM_CLI_OK)
                rc = llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                   "--slo: %s=%s is not a duration (e.g. 500ms, 0.5s)", tok,
                                   eq + 1);
        } else if (strcmp(tok, "err") == 0 && err_max) {
            char *end;
            double v = strtod(eq + 1, &end);
            if (*end == '%' && end[1] == '\0')
                v /= 100.0;
            else if (*end != '\0')
                v = NAN;
            if (!(v >= 0 && v <= 1))
                rc = llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                   "--slo: err=%s is not a rate in [0, 1] or a percentage",
                                   eq + 1);
            else
                *err_max = v;
        } else {
            rc = llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--slo: unknown key '%s' (ttft, tpot, e2e%s)",
                               tok, err_max ? " or err" : "");
        }
    }
    free(copy);
    return rc;
}
