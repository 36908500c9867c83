/* host.c: `llmm host`: sample the host's signals (llmm_host_sampler) at a fixed interval and
 * write a host-signal file (common/hostsig.h) for `llmm report --host-signals`. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include <llmmetrics/llmmetrics.h>

#include "cmd/command.h"
#include "common/hostsig.h"
#ifdef LLMM_CLI_HAVE_BPF
#include "collector.h"
#include "common/bpfsig.h"
#ifdef LLMM_CLI_HAVE_BPF_METRICS
#include "common/bpfmetrics.h"
#else
typedef struct llmm_cli_bpfmetrics llmm_cli_bpfmetrics;
#endif
#else
typedef struct llmm_bpf llmm_bpf;
#endif

#define SELF (&llmm_cli_command_host)
#define NS 1000000000.0

static void usage(FILE *f)
{
    fputs("usage: llmm host [--interval DUR] [--samples N] [--clock realtime|monotonic]\n"
          "                 [--root DIR] [-o FILE]\n"
          "                 [--bpf (--pid P | --cgroup DIR | --port N)... [--btf FILE]\n"
          "                  [--runq-above DUR] [--max-events N]\n"
          "                  [--metrics-port P [--metrics-address ADDR]]]\n"
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
          "\n"
          "Kernel events (eBPF; needs BTF, CAP_BPF and CAP_PERFMON; doc: bpf.md):\n"
          "  --bpf            also collect, for the targets below, TCP retransmits\n"
          "                   (net.tcp.retrans), major page faults (mem.major_fault) and\n"
          "                   run-queue waits (sched.jitter), each line holding those of its\n"
          "                   interval under the key \"bpf\"\n"
          "  --pid P[,P...]   processes (every thread), repeatable\n"
          "  --cgroup DIR     a cgroup v2 directory and everything under it\n"
          "  --port N[,N...]  TCP connections with port N at either end, repeatable\n"
          "  --btf FILE       the kernel's BTF (default /sys/kernel/btf/vmlinux)\n"
          "  --runq-above DUR a wait this long or longer is an event (default 1ms); every\n"
          "                   wait goes into the line's run-queue sketch\n"
          "  --max-events N   events listed per line (default 100000); more are counted\n"
          "  --metrics-port P serve the counts and the run-queue waits' histogram since the\n"
          "                   start on http://ADDR:P/metrics (Prometheus)\n"
          "  --metrics-address ADDR  the address it listens on (default 127.0.0.1)\n"
          "  -h, --help       this text\n"
          "\n"
          "Exit status: 0 done (also when interrupted), 1 the output cannot be written or\n"
          "the collector cannot run (a message names what is missing), 2 usage error.\n",
          f);
}

typedef struct host_args {
    double interval_s;
    uint64_t samples;
    clockid_t clock;
    const char *root, *out;
    /* --bpf */
    int bpf;
    uint32_t pids[256];
    uint16_t ports[64];
    size_t n_pids, n_ports;
    const char *cgroup, *btf;
    double runq_above_s;
    uint64_t max_events;
    int metrics_port; /* -1: none */
    const char *metrics_address;
} host_args;

enum {
    OPT_INTERVAL = LLMM_CLI_OPT,
    OPT_SAMPLES,
    OPT_CLOCK,
    OPT_ROOT,
    OPT_OUTPUT,
    OPT_BPF,
    OPT_PID,
    OPT_CGROUP,
    OPT_PORT,
    OPT_BTF,
    OPT_RUNQ_ABOVE,
    OPT_MAX_EVENTS,
    OPT_METRICS_PORT,
    OPT_METRICS_ADDRESS
};
#define SPEC "interval= samples= clock= root= output=/o bpf pid= cgroup= port= btf= runq-above= " \
             "max-events= metrics-port= metrics-address="

/* --pid and --port: a comma-separated list of whole numbers from 1 to max, appended. */
static int id_list(const char *name, const char *arg, uint64_t max, void *out, size_t width,
                   size_t *n, size_t cap)
{
    char item[32];
    for (const char *p = arg;;) {
        size_t len = strcspn(p, ",");
        uint64_t v;
        snprintf(item, sizeof item, "%.*s", (int)(len < 31 ? len : 31), p);
        if (len == 0 || len > 31 || !llmm_cli_u64_arg(item, max, &v) || v == 0)
            return llmm_cli_usage_error(SELF, "--%s '%s': whole numbers from 1 to %llu, "
                                        "separated by commas", name, arg,
                                        (unsigned long long)max);
        if (*n == cap)
            return llmm_cli_usage_error(SELF, "--%s: at most %zu", name, cap);
        if (width == 4)
            ((uint32_t *)out)[(*n)++] = (uint32_t)v;
        else
            ((uint16_t *)out)[(*n)++] = (uint16_t)v;
        if (p[len] == '\0')
            return -1;
        p += len + 1;
    }
}

static int bpf_option(host_args *a, int id, const char *name, const char *arg)
{
    if (id == OPT_BPF)
        a->bpf = 1;
    if (id == OPT_PID)
        return id_list(name, arg, 4194304, a->pids, 4, &a->n_pids, 256);
    if (id == OPT_PORT)
        return id_list(name, arg, 65535, a->ports, 2, &a->n_ports, 64);
    if (id == OPT_CGROUP)
        a->cgroup = arg;
    if (id == OPT_BTF)
        a->btf = arg;
    if (id == OPT_RUNQ_ABOVE &&
        (llmm_cli_parse_duration(arg, &a->runq_above_s) != LLMM_CLI_OK || a->runq_above_s > 60))
        return llmm_cli_usage_error(SELF, "--%s '%s': not a duration up to 60s", name, arg);
    if (id == OPT_MAX_EVENTS &&
        (!llmm_cli_u64_arg(arg, 10000000, &a->max_events) || a->max_events == 0))
        return llmm_cli_usage_error(SELF, "--%s '%s': a whole number from 1 to 10000000", name,
                                    arg);
    if (id == OPT_METRICS_PORT) {
        uint64_t v;
        if (!llmm_cli_u64_arg(arg, 65535, &v))
            return llmm_cli_usage_error(SELF, "--%s '%s': a port from 0 to 65535", name, arg);
        a->metrics_port = (int)v;
    }
    if (id == OPT_METRICS_ADDRESS)
        a->metrics_address = arg;
    return -1;
}

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
    return bpf_option(a, id, name, arg);
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

/* Move the monotonic time *next on by interval_ns and sleep until then, reading the kernel
 * events meanwhile when there is a collector; a tick already missed is not made up: the next
 * one is then an interval after now. */
static void wait_tick(struct timespec *next, uint64_t interval_ns, llmm_bpf *bpf)
{
    struct timespec now;
    uint64_t t = ns_of(next) + interval_ns;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (t < ns_of(&now) && interval_ns > 0)
        t = ns_of(&now) + interval_ns;
    next->tv_sec = (time_t)(t / 1000000000u);
    next->tv_nsec = (long)(t % 1000000000u);
#ifdef LLMM_CLI_HAVE_BPF
    while (bpf && !stop_requested) {
        int rc;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (ns_of(&now) >= t)
            return;
        rc = llmm_bpf_poll(bpf, (int)((t - ns_of(&now) + 999999) / 1000000));
        if (rc < 0 && rc != -EINTR)
            break; /* the ring cannot be waited on: sleep, and drain at the tick */
    }
#else
    (void)bpf;
#endif
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

/* The kernel events of a line: the collector and what it read. */
typedef struct host_bpf {
    llmm_bpf *c;
#ifdef LLMM_CLI_HAVE_BPF
    llmm_cli_bpfsig sig;
    llmm_cli_bpfmetrics *metrics; /* --metrics-port; NULL: none */
#endif
    uint64_t t_mono;
} host_bpf;

#ifdef LLMM_CLI_HAVE_BPF
#ifndef LLMM_CLI_HAVE_BPF_METRICS
static void llmm_cli_bpfmetrics_lock(llmm_cli_bpfmetrics *m)
{
    (void)m;
}
#define llmm_cli_bpfmetrics_unlock llmm_cli_bpfmetrics_lock
#define llmm_cli_bpfmetrics_stop llmm_cli_bpfmetrics_lock
#endif

static void write_bpf(llmm_cli_jw *w, void *ctx)
{
    host_bpf *hb = ctx;
    llmm_cli_bpfmetrics_lock(hb->metrics);
    llmm_cli_bpfsig_write(&hb->sig, w, hb->t_mono);
    llmm_cli_bpfmetrics_unlock(hb->metrics);
}
#endif

/* One line, at the monotonic time now; with a collector, its events up to now. */
static int one_line(llmm_host_sampler *s, const host_args *a, FILE *f, host_bpf *hb)
{
    struct timespec mono, stamp;
    void (*extra)(llmm_cli_jw *, void *) = NULL;
    clock_gettime(CLOCK_MONOTONIC, &mono);
    clock_gettime(a->clock, &stamp);
    if (llmm_host_sample(s, ns_of(&mono), NULL) != LLMM_OK)
        return llmm_cli_say(SELF, 1, "the sampler refused the clock"); /* not monotonic */
#ifdef LLMM_CLI_HAVE_BPF
    if (hb->c) {
        uint64_t st[LLMM_BPF_STAT_COUNT];
        llmm_bpf_drain(hb->c);
        llmm_bpf_stats(hb->c, st);
        hb->sig.lost = st[LLMM_BPF_STAT_LOST];
        hb->t_mono = ns_of(&mono);
        extra = write_bpf;
    }
#endif
    if (llmm_cli_hostsig_write_with(f, (double)stamp.tv_sec + (double)stamp.tv_nsec / NS, s,
                                    extra, hb) != LLMM_CLI_OK ||
        fflush(f) != 0)
        return llmm_cli_say(SELF, 1, "%s: cannot write: %s", a->out ? a->out : "(stdout)",
                            strerror(errno));
    return 0;
}

/* Sample until a.samples (0: until stopped), one line each; with a collector, a last line
 * when stopped, so that no event read is left out. */
static int record(llmm_host_sampler *s, const host_args *a, FILE *f, host_bpf *hb)
{
    uint64_t interval_ns = (uint64_t)(a->interval_s * NS + 0.5);
    struct timespec next;
    int status = 0;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (uint64_t k = 0; !stop_requested && (a->samples == 0 || k < a->samples); k++) {
        wait_tick(&next, k == 0 ? 0 : interval_ns, hb->c);
        if (stop_requested && hb->c)
            break;
        if ((status = one_line(s, a, f, hb)) != 0)
            return status;
    }
    if (stop_requested && hb->c)
        status = one_line(s, a, f, hb);
    return status;
}

/* Load the collector for the targets of a (--bpf): 0, or the exit status after a message. */
static int start_bpf(const host_args *a, host_bpf *hb)
{
#ifdef LLMM_CLI_HAVE_BPF
    llmm_bpf_target t = {a->pids, a->n_pids, a->cgroup, a->ports, a->n_ports, a->btf, 0};
    char err[512];
    int rc;
    if (llmm_cli_bpfsig_init(&hb->sig, (uint64_t)(a->runq_above_s * NS + 0.5),
                             (size_t)a->max_events) != LLMM_CLI_OK)
        return llmm_cli_say(SELF, 1, "out of memory");
    if (a->metrics_port >= 0) {
#ifdef LLMM_CLI_HAVE_BPF_METRICS
        llmm_cli_error e;
        rc = llmm_cli_bpfmetrics_start(a->metrics_address, a->metrics_port, &hb->sig,
                                       &hb->metrics, &e);
        if (rc != LLMM_CLI_OK) {
            llmm_cli_bpfsig_free(&hb->sig);
            return llmm_cli_say(SELF, rc == LLMM_CLI_EUSAGE ? 2 : 1, "%s", e.msg);
        }
#else
        llmm_cli_bpfsig_free(&hb->sig);
        return llmm_cli_say(SELF, 1, "--metrics-port: this llmm was built without "
                                     "libmicrohttpd (libmicrohttpd-dev)");
#endif
    }
    rc = llmm_bpf_open(&t, llmm_cli_bpfsig_add, &hb->sig, &hb->c, err, sizeof err);
    if (rc != 0) {
        llmm_cli_bpfmetrics_stop(hb->metrics);
        llmm_cli_bpfsig_free(&hb->sig);
        return llmm_cli_say(SELF, rc == -EINVAL || rc == -E2BIG ? 2 : 1, "--bpf: %s", err);
    }
    return 0;
#else
    (void)a;
    (void)hb;
    return llmm_cli_say(SELF, 1, "--bpf: this llmm was built without the kernel-event "
                                 "collector (meson feature bpf: libbpf, bpftool, clang and "
                                 "the build machine's BTF)");
#endif
}

static void stop_bpf(host_bpf *hb)
{
#ifdef LLMM_CLI_HAVE_BPF
    if (hb->c) {
        uint64_t st[LLMM_BPF_STAT_COUNT];
        llmm_bpf_stats(hb->c, st);
        if (st[LLMM_BPF_STAT_LOST] || st[LLMM_BPF_STAT_QUEUE_FULL])
            llmm_cli_say(SELF, 0, "--bpf: %llu events lost to a full ring buffer, %llu waits "
                         "to a full wait table",
                         (unsigned long long)st[LLMM_BPF_STAT_LOST],
                         (unsigned long long)st[LLMM_BPF_STAT_QUEUE_FULL]);
        if (st[LLMM_BPF_STAT_RETRANS_FAILED]) /* not retransmits by tcpi_total_retrans's rule */
            llmm_cli_say(SELF, 0, "--bpf: %llu retransmit attempts failed (not counted)",
                         (unsigned long long)st[LLMM_BPF_STAT_RETRANS_FAILED]);
        llmm_cli_bpfmetrics_stop(hb->metrics); /* before the state it serves */
        llmm_bpf_close(hb->c);
        llmm_cli_bpfsig_free(&hb->sig);
    }
#else
    (void)hb;
#endif
}

static int run(int argc, char **argv)
{
    host_args a;
    host_bpf hb;
    llmm_host_sampler *s = NULL;
    llmm_status st;
    FILE *f;
    int status;
    memset(&a, 0, sizeof a);
    memset(&hb, 0, sizeof hb);
    a.interval_s = 0.05;
    a.clock = CLOCK_REALTIME;
    a.runq_above_s = 1e-3;
    a.max_events = 100000;
    a.metrics_port = -1;
    a.metrics_address = "127.0.0.1";
    status = llmm_cli_parse_options(SELF, SPEC, argc, argv, option, &a);
    if (status >= 0)
        return status;
    if (optind < argc)
        return llmm_cli_usage_error(SELF, "unexpected argument '%s'", argv[optind]);
    if (!a.bpf && (a.n_pids || a.n_ports || a.cgroup || a.btf || a.metrics_port >= 0))
        return llmm_cli_usage_error(SELF,
                                    "--pid, --cgroup, --port, --btf and --metrics-port go with "
                                    "--bpf");
    if (a.bpf && !a.n_pids && !a.n_ports && !a.cgroup)
        return llmm_cli_usage_error(SELF, "--bpf needs a target: --pid, --cgroup or --port");
    st = llmm_host_sampler_new(NULL, a.root, &s);
    if (st != LLMM_OK) /* LLMM_E_INVALID: a root longer than the library takes */
        return llmm_cli_say(SELF, st == LLMM_E_INVALID ? 2 : 1, "cannot make a sampler%s%s: %s",
                            a.root ? " for the root " : "", a.root ? a.root : "",
                            llmm_strerror(st));
    if (a.bpf && (status = start_bpf(&a, &hb)) != 0) {
        llmm_host_sampler_free(s);
        return status;
    }
    f = a.out ? fopen(a.out, "w") : stdout;
    if (!f) {
        stop_bpf(&hb);
        llmm_host_sampler_free(s);
        return llmm_cli_say(SELF, 1, "%s: %s", a.out, strerror(errno));
    }
    say_if_empty(s, a.root);
    catch_stop();
    status = record(s, &a, f, &hb);
    if (a.out && fclose(f) != 0 && status == 0)
        status = llmm_cli_say(SELF, 1, "%s: cannot write: %s", a.out, strerror(errno));
    llmm_host_sampler_free(s);
    return status;
}

LLMM_CLI_DEFINE_COMMAND(host,
    "  host             sample the host's signals (Linux /proc, /sys) into a host-signal\n"
    "                   file for report --host-signals\n");
