/* driver.c: a whole `llmm bench` run (driver.h). */
#include "bench/driver.h"

#include <curl/curl.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench/bpf.h"
#include "bench/dataset.h"
#include "bench/metrics.h"
#include "bench/results.h"
#include "bench/trace.h"
#ifdef LLMM_CLI_HAVE_OTLP
#include "bench/otlp.h"
#endif
#include "bench/url.h"
#include "cmd/command.h"
#include "common/file.h"

#define SELF (&llmm_cli_command_bench)

/* File descriptors kept for other uses than connections. */
#define FD_SPARE 32

static void on_sigint(int sig)
{
    (void)sig;
    llmm_bench_interrupted = 1;
}

/* Raise the open-files limit as far as allowed; the most connections it leaves. */
static uint32_t raise_nofile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 1024 - FD_SPARE;
    if (rl.rlim_cur < rl.rlim_max) {
        rlim_t want = rl.rlim_max;
        rl.rlim_cur = want;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
            getrlimit(RLIMIT_NOFILE, &rl);
    }
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (rlim_t)UINT32_MAX)
        return UINT32_MAX;
    return rl.rlim_cur > FD_SPARE ? (uint32_t)(rl.rlim_cur - FD_SPARE) : 1;
}

/* The concurrencies that cannot be had are said and lowered to what can. */
static void check_limits(llmm_bench_args *a)
{
    uint32_t most = raise_nofile();
    if (a->lv.open && a->lv.concurrency > most) {
        llmm_cli_say(SELF, 0,
                     "--max-concurrency %u cannot be reached: the open-files limit allows %u "
                     "connections (raise `ulimit -n`); running %u",
                     a->lv.concurrency, most, most);
        a->lv.concurrency = most;
    }
    for (size_t i = 0; i < a->nconc; i++)
        if (a->conc[i] > most) {
            llmm_cli_say(SELF, 0,
                         "concurrency %u cannot be reached: the open-files limit allows %u "
                         "connections (raise `ulimit -n`); running %u",
                         a->conc[i], most, most);
            a->conc[i] = most;
        }
}

static int build_url(llmm_bench_args *a, char *buf, size_t cap)
{
    if (llmm_bench_endpoint(a->base_url, a->t.chat, buf, cap, &a->t.chat) != 0)
        return -1;
    a->t.url = buf;
    return 0;
}

/* One row of DIR/sweep.csv. */
static int sweep_row(const char *dir, const llmm_bench_result *r, int first, llmm_cli_error *err)
{
    char path[4096];
    llmm_sketch *s = llmm_bench_result_sketch(r, LLMM_BENCH_E2E);
    double p99 = NAN, qps = llmm_bench_window_qps(r);
    char b[32];
    FILE *f;
    if (s && llmm_sketch_count(s) > 0)
        llmm_sketch_quantile(s, 0.99, &p99);
    llmm_sketch_free(s);
    if (llmm_cli_path_in(dir, "sweep.csv", path, sizeof path, err) != LLMM_CLI_OK)
        return LLMM_CLI_EIO;
    f = fopen(path, first ? "w" : "a");
    if (!f)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: cannot write", path);
    if (first)
        fputs("concurrency,qps,p99_ms\n", f);
    /* a figure that does not exist is an empty field, never nan */
    fprintf(f, "%u,%s,", r->level.concurrency,
            isfinite(qps) ? (snprintf(b, sizeof b, "%.6g", qps), b) : "");
    fprintf(f, "%s\n", isfinite(p99) ? (snprintf(b, sizeof b, "%.6g", p99 * 1e3), b) : "");
    return fclose(f) == 0 ? LLMM_CLI_OK : llmm_cli_fail(err, LLMM_CLI_EIO, "%s: write", path);
}

/* Write a level's files; path receives its result file. */
static int write_level(const llmm_bench_args *a, const llmm_bench_result *r, size_t i,
                       char *path, size_t cap, llmm_cli_error *err)
{
    llmm_bench_meta m = {a->t.chat ? "openai-chat" : "openai", a->t.model, a->label};
    int rc = llmm_bench_write_vllm(a->out_dir, r, &m, path, cap, err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_bench_write_sketches(a->out_dir, r, err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_bench_write_series(a->out_dir, r, err);
    if (rc == LLMM_CLI_OK && !r->level.open)
        rc = sweep_row(a->out_dir, r, i == 0, err);
    return rc;
}

/* --host-signals: the sampler and its file, for the whole run. */
typedef struct host_rec {
    llmm_host_sampler *s;
    FILE *f;
    int failed;
} host_rec;

static int host_open(const char *path, host_rec *h, llmm_cli_error *err)
{
    llmm_status st;
    memset(h, 0, sizeof *h);
    if (!path)
        return LLMM_CLI_OK;
    st = llmm_host_sampler_new(NULL, NULL, &h->s);
    if (st != LLMM_OK)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "--host-signals: cannot make a sampler: %s",
                             llmm_strerror(st));
    h->f = fopen(path, "w");
    if (!h->f) {
        llmm_host_sampler_free(h->s);
        h->s = NULL;
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: %s", path, strerror(errno));
    }
    return LLMM_CLI_OK;
}

/* Close the host-signal file: LLMM_CLI_OK, or EIO when a line or the close failed. */
static int host_close(const char *path, host_rec *h, int rc, llmm_cli_error *err)
{
    if (!h->f)
        return rc;
    if ((fclose(h->f) != 0 || h->failed) && rc == LLMM_CLI_OK)
        rc = llmm_cli_fail(err, LLMM_CLI_EIO, "%s: cannot write the host signals", path);
    llmm_host_sampler_free(h->s);
    memset(h, 0, sizeof *h);
    return rc;
}

/* --bpf: the collector, and each level's attributed events for the closing report. */
typedef struct bpf_run {
    llmm_bench_bpf *c;
    struct llmm_bench_kevents *kev[LLMM_BENCH_LEVELS_MAX];
    char name[LLMM_BENCH_LEVELS_MAX][64];
} bpf_run;

/* Attribute level i's events (r), and keep them for the closing report. */
static int bpf_level(bpf_run *b, size_t i, const char *name, llmm_bench_result *r,
                     llmm_cli_error *err)
{
#ifdef LLMM_BENCH_HAVE_BPF
    int rc;
    if (!b->c)
        return LLMM_CLI_OK;
    rc = llmm_bench_bpf_level(b->c, r, err);
    b->kev[i] = r->kev;
    snprintf(b->name[i], sizeof b->name[i], "%s", name);
    return rc;
#else
    (void)b, (void)i, (void)name, (void)r, (void)err;
    return LLMM_CLI_OK;
#endif
}


/* What a run keeps beside its levels' files: the slowest requests, the OTLP pusher. */
typedef struct run_extra {
    llmm_bench_slowest slow;
    struct llmm_bench_otlp *otlp; /* --otlp, or NULL */
} run_extra;

/* Run the levels; files[i] receives level i's result file. */
static int levels(llmm_bench_args *a, const llmm_bench_prompts *p, llmm_bench_metrics *m,
                  host_rec *h, bpf_run *bpf, run_extra *x, char (*files)[4096],
                  size_t *nfiles,
                  llmm_cli_error *err)
{
    size_t n = a->lv.open ? 1 : a->nconc;
    uint64_t next = 0; /* the prompts go on from level to level */
    int rc = LLMM_CLI_OK, warned = 0;
    for (size_t i = 0; i < n && rc == LLMM_CLI_OK && !llmm_bench_interrupted; i++) {
        llmm_bench_level lv = a->lv;
        llmm_bench_result r;
        llmm_bench_progress pr = {isatty(2), a->progress_every, NULL, a->quiet, m,
                                  h->s, h->f, &h->failed, bpf->c, x->otlp};
        char name[64];
        if (!lv.open)
            lv.concurrency = a->conc[i];
        lv.first_prompt = next;
        llmm_bench_level_name(&lv, name, sizeof name);
        pr.label = name;
#ifdef LLMM_CLI_HAVE_OTLP
        if (x->otlp)
            llmm_bench_otlp_level_start(x->otlp, name, &r);
#endif
        rc = llmm_bench_run(&a->t, p, &lv, a->grace, &pr, &r, err);
        if (rc == LLMM_CLI_OK)
            rc = bpf_level(bpf, i, name, &r, err);
#ifdef LLMM_CLI_HAVE_OTLP
        if (x->otlp)
            llmm_bench_otlp_level_end(x->otlp, rc == LLMM_CLI_OK);
#endif
        next += r.n;
        if (rc == LLMM_CLI_OK && next > p->n && !warned) {
            llmm_cli_say(SELF, 0,
                         "level %s: %llu requests so far, %zu prompts: prompts were used "
                         "again (a server's prefix cache may answer the repeats)",
                         name, (unsigned long long)next, p->n);
            warned = 1;
        }
        if (rc == LLMM_CLI_OK) {
            llmm_bench_slowest_add(&x->slow, &r);
            llmm_bench_print_level(stdout, &r);
            rc = write_level(a, &r, i, files[i], sizeof files[i], err);
            *nfiles += rc == LLMM_CLI_OK;
        }
        r.kev = NULL; /* kept in bpf for the closing report */
        llmm_bench_result_free(&r);
        fflush(stdout);
    }
    return rc;
}

/* --bpf: the closing report's share of each level's spikes with a kernel event. */
static void bpf_report(const bpf_run *b)
{
#ifdef LLMM_BENCH_HAVE_BPF
    char lead[80];
    if (!b->c)
        return;
    printf("\n== kernel events (--bpf): latency spikes with an event ==\n");
    for (size_t i = 0; i < LLMM_BENCH_LEVELS_MAX; i++)
        if (b->kev[i]) {
            snprintf(lead, sizeof lead, "%s: ", b->name[i]);
            llmm_bench_kev_print_spikes(stdout, lead, b->kev[i]);
        }
    fflush(stdout);
#else
    (void)b;
#endif
}

/* The closing `llmm report` of the result files, and `llmm knee` of a sweep. */
static void final_report(const llmm_bench_args *a, const bpf_run *bpf, char (*files)[4096],
                         size_t nfiles)
{
    char *argv[LLMM_BENCH_LEVELS_MAX + 4];
    char sweep[4096];
    llmm_cli_error err;
    int argc = 0;
    argv[argc++] = (char *)"report";
    if (a->host_signals) { /* spikes attributed to the host's signals, as `llmm report` does */
        argv[argc++] = (char *)"--host-signals";
        argv[argc++] = (char *)a->host_signals;
    }
    for (size_t i = 0; i < nfiles; i++)
        argv[argc++] = files[i];
    argv[argc] = NULL;
    printf("\n== llmm report %s ==\n", nfiles == 1 ? files[0] : "(every level)");
    fflush(stdout);
    optind = 0;
    llmm_cli_command_report.run(argc, argv);
    bpf_report(bpf);
    if (a->lv.open || nfiles < 3 ||
        llmm_cli_path_in(a->out_dir, "sweep.csv", sweep, sizeof sweep, &err) != LLMM_CLI_OK)
        return;
    printf("\n== llmm knee %s ==\n", sweep);
    fflush(stdout);
    argv[0] = (char *)"knee";
    argv[1] = sweep;
    argv[2] = NULL;
    optind = 0;
    llmm_cli_command_knee.run(2, argv);
}

int llmm_bench_main(llmm_bench_args *a)
{
    llmm_bench_prompts p = {NULL, 0}, requests;
    llmm_cli_error err;
    char url[4096], model[512], (*files)[4096] = NULL;
    size_t nfiles = 0;
    struct sigaction sa, old;
    llmm_bench_metrics metrics, *m = NULL;
    host_rec host = {NULL, NULL, 0};
    bpf_run bpf;
    run_extra extra;
    int rc;
    memset(&extra, 0, sizeof extra);
    if (build_url(a, url, sizeof url) != 0)
        return llmm_cli_say(SELF, 2, "--url too long");
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return llmm_cli_say(SELF, 1, "libcurl cannot start");
    check_limits(a);
    rc = LLMM_CLI_OK;
    memset(&bpf, 0, sizeof bpf);
#ifdef LLMM_BENCH_HAVE_BPF
    if (a->bpf) /* before any request: the preflight's connection is traced too */
        rc = llmm_bench_bpf_open(a->t.url, a->server_pid, a->runq_above, &bpf.c, &err);
    if (rc != LLMM_CLI_OK) {
        curl_global_cleanup();
        return llmm_cli_say(SELF, rc == LLMM_CLI_EUSAGE ? 2 : 1, "%s", err.msg);
    }
#endif
    if (a->dataset) {
        rc = llmm_bench_dataset_read(a->dataset, a->out_given ? a->synth.out_len : 0, &p, &err);
    } else { /* and one more, the preflight's own: no request's prompt is sent before it */
        a->synth.text = a->t.chat || a->synth.text;
        a->synth.n++;
        rc = llmm_bench_prompts_synth(&a->synth, &p, &err);
    }
    if (rc == LLMM_CLI_OK && p.n < 1 + !a->dataset)
        rc = llmm_cli_fail(&err, LLMM_CLI_EIO, "no prompts");
    requests = p;
    requests.n -= !a->dataset && p.n > 0;
    if (rc == LLMM_CLI_OK && !a->model_given &&
        llmm_bench_first_model(&a->t, model, sizeof model) == 0) {
        a->t.model = model;
        if (!a->quiet)
            fprintf(stderr, "llmm bench: model %s (the first the server lists)\n", model);
    }
    if (rc == LLMM_CLI_OK)
        rc = llmm_bench_preflight(&a->t, &p.v[a->dataset ? 0 : p.n - 1], &err);
    files = calloc(LLMM_BENCH_LEVELS_MAX, sizeof *files);
    if (rc == LLMM_CLI_OK && !files)
        rc = llmm_cli_fail(&err, LLMM_CLI_ENOMEM, "out of memory");
    if (rc == LLMM_CLI_OK && a->metrics_port >= 0) {
        rc = llmm_bench_metrics_open(&metrics, a->metrics_address, a->metrics_port, &err);
        if (rc == LLMM_CLI_OK) {
            int v6 = strchr(a->metrics_address, ':') != NULL;
            m = &metrics;
            fprintf(stderr, "llmm bench: metrics on http://%s%s%s:%d/metrics\n", v6 ? "[" : "",
                    a->metrics_address, v6 ? "]" : "", m->port);
        }
    }
    if (rc == LLMM_CLI_OK)
        rc = host_open(a->host_signals, &host, &err);
    if (rc == LLMM_CLI_OK && a->otlp_url) {
#ifdef LLMM_CLI_HAVE_OTLP
        llmm_bench_otlp_options oo = {a->otlp_url, a->otlp_every, a->otlp_json,
                                      a->otlp_headers, a->otlp_nheaders,
                                      a->t.tp_given ? a->t.tp_span : NULL, a->bpf};
        if (!(extra.otlp = llmm_bench_otlp_open(&oo)))
            rc = llmm_cli_fail(&err, LLMM_CLI_ENOMEM, "--otlp: cannot start its thread");
#else
        rc = llmm_cli_fail(&err, LLMM_CLI_EIO, "--otlp: this llmm was built without zlib "
                                               "(install zlib1g-dev and rebuild)");
#endif
    }
    if (rc == LLMM_CLI_OK) {
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sigaction(SIGINT, &sa, &old);
        llmm_bench_interrupted = 0;
        rc = levels(a, &requests, m, &host, &bpf, &extra, files, &nfiles, &err);
        sigaction(SIGINT, &old, NULL);
    }
    rc = host_close(a->host_signals, &host, rc, &err);
#ifdef LLMM_CLI_HAVE_OTLP
    llmm_bench_otlp_close(extra.otlp); /* what is left is pushed before the report */
#endif
    if (rc != LLMM_CLI_OK)
        llmm_cli_say(SELF, 1, "%s", err.msg);
    if (nfiles > 0 && !a->no_report) {
        final_report(a, &bpf, files, nfiles);
        llmm_bench_slowest_print(stdout, &extra.slow);
    }
    llmm_bench_slowest_free(&extra.slow);
    if (m)
        llmm_bench_metrics_close(m);
#ifdef LLMM_BENCH_HAVE_BPF
    llmm_bench_bpf_close(bpf.c);
    for (size_t i = 0; i < LLMM_BENCH_LEVELS_MAX; i++)
        llmm_bench_kevents_free(bpf.kev[i]);
#endif
    llmm_bench_prompts_free(&p);
    free(files);
    curl_global_cleanup();
    return rc == LLMM_CLI_OK ? 0 : 1;
}
