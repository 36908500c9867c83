/* host.c: `llmm host`: sample the host's signals (llmm_host_sampler) at a fixed interval and
 * write a host-signal file (common/hostsig.h) for `llmm report --host-signals`. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include <llmmetrics/llmmetrics.h>

#include "cmd/command.h"
#include "common/hostsig.h"

#define SELF (&llmm_cli_command_host)
#define NS 1000000000.0

static void usage(FILE *f)
{
    fputs("usage: llmm host [--interval DUR] [--samples N] [--clock realtime|monotonic]\n"
          "                 [--root DIR] [-o FILE]\n"
          "\n"
          "Sample the host's signals (the library's llmm_host_sampler: TCP retransmits, major\n"
          "faults, context switches, run delay, page migrations, CPU / memory / I/O pressure,\n"
          "CPU frequency, cgroup throttling; Linux /proc and /sys) every DUR and write one\n"
          "JSON line per sample: a host-signal file for `llmm report --host-signals` (doc:\n"
          "cli.md). Run it on the benchmark's host while the benchmark runs. The first line\n"
          "has no rates (a rate needs two samples); a signal the host does not expose is left\n"
          "out. Each line is flushed when written.\n"
          "\n"
          "Options:\n"
          "  --interval DUR   time between samples: 50ms (default), 0.1s, 200 (milliseconds);\n"
          "                   at least 1ms\n"
          "  --samples N      stop after N samples (default 0: until SIGINT or SIGTERM)\n"
          "  --clock NAME     the clock of each line's \"t\", which must be the clock of the\n"
          "                   trace's start times: realtime (default: seconds since the Unix\n"
          "                   epoch) or monotonic (CLOCK_MONOTONIC, what Python's\n"
          "                   time.perf_counter() and time.monotonic() read on Linux)\n"
          "  --root DIR       the directory that stands for / (default /): a container's view\n"
          "                   of the host, or a captured tree\n"
          "  -o, --output FILE  write to FILE (default, or -: standard output)\n"
          "  -h, --help       this text\n"
          "\n"
          "Exit status: 0 done (also when interrupted), 1 the output cannot be written,\n"
          "2 usage error.\n",
          f);
}

typedef struct host_args {
    double interval_s;
    uint64_t samples;
    clockid_t clock;
    const char *root, *out;
} host_args;

enum { OPT_INTERVAL = LLMM_CLI_OPT, OPT_SAMPLES, OPT_CLOCK, OPT_ROOT };

static int option(void *ctx, int id, const char *name, const char *arg)
{
    host_args *a = ctx;
    if (id == OPT_INTERVAL &&
        (llmm_cli_parse_duration(arg, &a->interval_s) != LLMM_CLI_OK || !(a->interval_s >= 1e-3) ||
         a->interval_s > 86400))
        return llmm_cli_usage_error(SELF, "--%s '%s': not a duration from 1ms to 1 day", name,
                                    arg);
    if (id == OPT_SAMPLES && !llmm_cli_u64_arg(arg, UINT64_MAX, &a->samples))
        return llmm_cli_usage_error(SELF, "--%s '%s': not a whole number", name, arg);
    if (id == OPT_CLOCK) {
        if (strcmp(arg, "realtime") != 0 && strcmp(arg, "monotonic") != 0)
            return llmm_cli_usage_error(SELF, "--%s '%s': realtime or monotonic", name, arg);
        a->clock = arg[0] == 'r' ? CLOCK_REALTIME : CLOCK_MONOTONIC;
    }
    if (id == OPT_ROOT)
        a->root = arg;
    if (id == 'o')
        a->out = strcmp(arg, "-") == 0 ? NULL : arg;
    return -1;
}

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* SIGINT and SIGTERM end the run after the line being written; without SA_RESTART they also
 * end the sleep. */
static void catch_stop(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static uint64_t ns_of(const struct timespec *ts)
{
    return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

/* Move the monotonic time *next on by interval_ns and sleep until then; a tick already
 * missed is not made up: the next one is then an interval after now. */
static void wait_tick(struct timespec *next, uint64_t interval_ns)
{
    struct timespec now;
    uint64_t t = ns_of(next) + interval_ns;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (t < ns_of(&now) && interval_ns > 0)
        t = ns_of(&now) + interval_ns;
    next->tv_sec = (time_t)(t / 1000000000u);
    next->tv_nsec = (long)(t % 1000000000u);
    while (!stop_requested &&
           clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
        ;
}

/* A note on stderr when the host exposes none of the signals (another system, a wrong root):
 * the lines will hold only "t". */
static void say_if_empty(const llmm_host_sampler *s, const char *root)
{
    double v;
    for (int sig = 1; llmm_host_signal_name((llmm_host_signal)sig); sig++)
        if (llmm_host_signal_rate(s, (llmm_host_signal)sig, &v) != LLMM_E_STATE)
            return;
    llmm_cli_say(SELF, 0, "no signal is exposed under %s: the lines hold only \"t\"",
                 root ? root : "/");
}

/* Sample until a.samples (0: until stopped), one line each. */
static int record(llmm_host_sampler *s, const host_args *a, FILE *f)
{
    uint64_t interval_ns = (uint64_t)(a->interval_s * NS + 0.5);
    struct timespec next, mono, stamp;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (uint64_t k = 0; !stop_requested && (a->samples == 0 || k < a->samples); k++) {
        wait_tick(&next, k == 0 ? 0 : interval_ns);
        clock_gettime(CLOCK_MONOTONIC, &mono);
        clock_gettime(a->clock, &stamp);
        if (llmm_host_sample(s, ns_of(&mono), NULL) != LLMM_OK)
            return llmm_cli_say(SELF, 1, "the sampler refused the clock"); /* not monotonic */
        if (llmm_cli_hostsig_write(f, (double)stamp.tv_sec + (double)stamp.tv_nsec / NS, s) !=
                LLMM_CLI_OK ||
            fflush(f) != 0)
            return llmm_cli_say(SELF, 1, "%s: cannot write: %s", a->out ? a->out : "(stdout)",
                                strerror(errno));
    }
    return 0;
}

static int run(int argc, char **argv)
{
    host_args a = {0.05, 0, CLOCK_REALTIME, NULL, NULL};
    llmm_host_sampler *s = NULL;
    llmm_status st;
    FILE *f;
    int status = llmm_cli_parse_options(SELF, "interval= samples= clock= root= output=/o", argc,
                                        argv, option, &a);
    if (status >= 0)
        return status;
    if (optind < argc)
        return llmm_cli_usage_error(SELF, "unexpected argument '%s'", argv[optind]);
    st = llmm_host_sampler_new(NULL, a.root, &s);
    if (st != LLMM_OK) /* LLMM_E_INVALID: a root longer than the library takes */
        return llmm_cli_say(SELF, st == LLMM_E_INVALID ? 2 : 1, "cannot make a sampler%s%s: %s",
                            a.root ? " for the root " : "", a.root ? a.root : "",
                            llmm_strerror(st));
    f = a.out ? fopen(a.out, "w") : stdout;
    if (!f) {
        llmm_host_sampler_free(s);
        return llmm_cli_say(SELF, 1, "%s: %s", a.out, strerror(errno));
    }
    say_if_empty(s, a.root);
    catch_stop();
    status = record(s, &a, f);
    if (a.out && fclose(f) != 0 && status == 0)
        status = llmm_cli_say(SELF, 1, "%s: cannot write: %s", a.out, strerror(errno));
    llmm_host_sampler_free(s);
    return status;
}

LLMM_CLI_DEFINE_COMMAND(host,
    "  host             sample the host's signals (Linux /proc, /sys) into a host-signal\n"
    "                   file for report --host-signals\n");
