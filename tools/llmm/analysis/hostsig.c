/* hostsig.c: host-signal files to events on the report's time line (hostsig.h).
 *
 * The rule is the library's (host.h, "Events"): a rate above its signal's threshold makes one
 * event of the signal's type (llmm_host_signal_event()) valued the rate; the CPU frequency
 * makes one when its level falls below (1 − threshold) times the previous line's. The
 * thresholds are the sampler's defaults, read from llmm_option_describe(), unless
 * --host-threshold sets them. Where the library stamps an event with its sample's time (the
 * end of the interval, so that a running server's log stays in time order), the report
 * places it at the start of its interval, the previous line's t: a spike anywhere in the
 * interval then finds it in its look-back. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/hostsig.h"
#include "input/hostsig.h"

void llmm_cli_host_init(llmm_cli_host *h)
{
    memset(h, 0, sizeof *h);
    for (int i = 0; i < LLMM_CLI_HOST_MAX; i++)
        h->above[i] = NAN;
}

/* Option i of the host sampler's listing; 0 past the last. */
static int option_at(uint32_t i, llmm_option_info *d)
{
    llmm_option_info_init(d);
    return llmm_option_describe(LLMM_KIND_HOST_SAMPLER, i, d) == LLMM_OK;
}

static const char *option_names(void)
{
    static char buf[512]; /* the tool is single-threaded */
    llmm_option_info d;
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; option_at(i, &d) && len < sizeof buf; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "", d.name);
    return buf;
}

int llmm_cli_host_threshold_option(llmm_cli_host *h, const char *arg, llmm_cli_error *err)
{
    const char *eq = strchr(arg, '=');
    llmm_option_info d;
    if (!eq)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--host-threshold '%s': expected NAME=VALUE",
                             arg);
    for (uint32_t i = 0; option_at(i, &d); i++) {
        char *end;
        double v;
        if (strlen(d.name) != (size_t)(eq - arg) || memcmp(d.name, arg, (size_t)(eq - arg)))
            continue;
        v = strtod(eq + 1, &end);
        if (end == eq + 1 || *end != '\0' || !(v >= d.min_f64 && v <= d.max_f64))
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                 "--host-threshold %s: '%s' is not a number in [%g, %g]",
                                 d.name, eq + 1, d.min_f64, d.max_f64);
        h->above[d.key - 1] = v;
        return LLMM_CLI_OK;
    }
    return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--host-threshold: unknown threshold '%.*s' (%s)",
                         (int)(eq - arg), arg, option_names());
}

void llmm_cli_host_threshold_help(FILE *f)
{
    llmm_option_info d;
    fputs("\nHost-signal thresholds (--host-threshold NAME=VALUE; the library's defaults): an\n"
          "event when the rate is above NAME_above; cpu_freq_drop is the share the frequency\n"
          "must fall by since the previous sample:\n",
          f);
    for (uint32_t i = 0; option_at(i, &d); i++)
        fprintf(f, "  %-24s %g\n", d.name, d.default_f64);
}

/* The threshold of every signal: the option keyed by the signal's value. */
static void thresholds(llmm_cli_host *h)
{
    llmm_option_info d;
    for (uint32_t i = 0; option_at(i, &d); i++) {
        if (d.key < 1 || d.key > LLMM_CLI_HOST_MAX)
            continue;
        h->threshold[d.key - 1] = isnan(h->above[d.key - 1]) ? d.default_f64
                                                               : h->above[d.key - 1];
    }
}

/* Whether line k's value of sig makes an event. */
static int fires(const llmm_cli_host *h, const llmm_cli_hostsig *f, size_t k, int sig)
{
    double v = f->s[k].v[sig - 1], thr = h->threshold[sig - 1];
    if (sig != LLMM_HOST_CPU_FREQ_MHZ)
        return v > thr;
    return k > 0 && v < (1.0 - thr) * f->s[k - 1].v[sig - 1]; /* false for a NaN before */
}

/* 0, 1, 2 for the kernel's event types; -1 for another. */
static int kernel_event(int32_t type)
{
    return type == LLMM_EVENT_TCP_RETRANSMIT ? 0
           : type == LLMM_EVENT_MAJOR_FAULT  ? 1
           : type == LLMM_EVENT_SCHED_JITTER ? 2
                                             : -1;
}

static int add_events(llmm_cli_host *h, const llmm_cli_hostsig *f, llmm_cli_trace *t)
{
    for (size_t k = 0; k < f->nkev; k++) {
        if (llmm_cli_trace_add_event(t, f->kev[k].t - t->first_start, f->kev[k].type,
                                     f->kev[k].value) != LLMM_CLI_OK)
            return LLMM_CLI_ENOMEM;
        h->kevents[kernel_event(f->kev[k].type)]++;
    }
    for (size_t k = 0; k < f->n; k++) {
        double at = (k > 0 ? f->s[k - 1].t : f->s[k].t) - t->first_start;
        for (int sig = 1; sig <= LLMM_CLI_HOST_MAX; sig++) {
            double v = f->s[k].v[sig - 1];
            if (isnan(v) || !fires(h, f, k, sig))
                continue;
            if (f->bpf_lines > 0 &&
                kernel_event(llmm_host_signal_event((llmm_host_signal)sig)) >= 0)
                continue; /* the kernel's events stand for this rate */
            if (llmm_cli_trace_add_event(t, at, llmm_host_signal_event((llmm_host_signal)sig),
                                         v) != LLMM_CLI_OK)
                return LLMM_CLI_ENOMEM;
            h->events[sig - 1]++;
        }
    }
    return LLMM_CLI_OK;
}

int llmm_cli_host_events(llmm_cli_host *h, llmm_cli_trace *t, llmm_cli_error *err)
{
    llmm_cli_hostsig f;
    int rc;
    if (!h->path)
        return LLMM_CLI_OK;
    memset(&f, 0, sizeof f);
    rc = llmm_cli_hostsig_load(h->path, &f, err);
    if (rc == LLMM_CLI_OK && f.n > 0 && isnan(t->first_start))
        rc = llmm_cli_fail(err, LLMM_CLI_EPARSE,
                           "%s: the first input has no start times to place host samples "
                           "against",
                           h->path);
    if (rc == LLMM_CLI_OK) {
        thresholds(h);
        h->samples = f.n;
        h->bpf_lines = f.bpf_lines;
        h->bpf_lost = f.bpf_lost;
        h->unknown = f.unknown;
        memcpy(h->first_unknown, f.first_unknown, sizeof h->first_unknown);
        if (add_events(h, &f, t) != LLMM_CLI_OK)
            rc = llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    llmm_cli_hostsig_free(&f);
    return rc;
}
