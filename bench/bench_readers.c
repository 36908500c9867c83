/* bench_readers: how fast `llmm report` reads each benchmark tool's result files, as a
 * same-run ratio against CPython's json.load of the same file (doc/spec.md §10's rule: a
 * figure is measured, on this machine, next to its reference).
 *
 * For each format a fixed file of about --mb MiB is generated (readers_gen.c: the tool's
 * layout, a fixed seed); then `llmm report --format F FILE` and
 * `/usr/bin/python3 -c 'json.load(open(FILE, "rb"))'` ($LLMM_PYTHON overrides) run --reps
 * times each, alternating, and the fastest of each counts. Time is the child's CPU time
 * (user + system, from getrusage of the children), which the other jobs of a shared machine disturb far less
 * than the wall clock; the wall time is printed too. json.load only builds Python objects
 * from the text, while llmm report reads, checks and summarises every request: the ratio
 * favours Python. Target (issue 25): llmm report at least 3x faster.
 *
 * Usage: bench_readers [--json] [--mb N] [--reps N] [--keep DIR] [--llmm PATH]
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "readers_gen.h"

#ifndef LLMM_CLI_EXE
#define LLMM_CLI_EXE "llmm"
#endif

typedef struct timing {
    double cpu, wall; /* seconds; the fastest run */
} timing;

static double cpu_of(const struct rusage *ru)
{
    return (double)ru->ru_utime.tv_sec + 1e-6 * (double)ru->ru_utime.tv_usec +
           (double)ru->ru_stime.tv_sec + 1e-6 * (double)ru->ru_stime.tv_usec;
}

/* Run argv with stdout and stderr to /dev/null: its CPU and wall time, or cpu < 0. */
static timing run(char *const argv[])
{
    timing t = {-1, -1};
    struct rusage before, after;
    int status;
    double t0 = bench_now();
    pid_t pid;
    getrusage(RUSAGE_CHILDREN, &before);
    pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return t;
    t.wall = bench_now() - t0;
    getrusage(RUSAGE_CHILDREN, &after); /* the children waited for so far: the difference */
    t.cpu = cpu_of(&after) - cpu_of(&before);
    return t;
}

static void keep_best(timing *best, timing t)
{
    if (t.cpu >= 0 && (best->cpu < 0 || t.cpu < best->cpu))
        best->cpu = t.cpu;
    if (t.wall >= 0 && (best->wall < 0 || t.wall < best->wall))
        best->wall = t.wall;
}

typedef struct result {
    const char *name;
    double mib;
    timing ours, python, python_more;
} result;

static int measure(const char *llmm, const char *py, const char *dir, const gen_format *g,
                   size_t bytes, int reps, result *res)
{
    char path[4096];
    struct stat sb;
    FILE *f;
    snprintf(path, sizeof path, "%s/bench.%s.json", dir, g->name);
    f = fopen(path, "wb");
    if (!f || g->write(f, bytes) != 0 || fclose(f) != 0) {
        fprintf(stderr, "bench_readers: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    stat(path, &sb);
    res->name = g->name;
    res->mib = (double)sb.st_size / 1048576.0;
    res->ours.cpu = res->ours.wall = res->python.cpu = res->python.wall = -1;
    res->python_more = res->python;
    for (int r = 0; r < reps; r++) {
        char *ours[] = {(char *)llmm, "report", "--format", (char *)g->name, path, NULL};
        char *pyv[] = {(char *)py, "-c", "import json, sys; json.load(open(sys.argv[1], 'rb'))",
                       path, NULL};
        char *pym[] = {(char *)py, "-c", (char *)g->python_more, path, NULL};
        keep_best(&res->ours, run(ours));
        if (py)
            keep_best(&res->python, run(pyv));
        if (py && g->python_more)
            keep_best(&res->python_more, run(pym));
    }
    if (res->ours.cpu < 0) {
        fprintf(stderr, "bench_readers: llmm report --format %s %s failed\n", g->name, path);
        return -1;
    }
    return 0;
}

static void rows(bench_out *o, const result *r, int has_py)
{
    char fig[96];
    snprintf(fig, sizeof fig, "reader_%s_file_size", r->name);
    bench_row(o, fig, r->mib, "MiB", "");
    snprintf(fig, sizeof fig, "reader_%s_llmm_report_cpu", r->name);
    bench_row(o, fig, r->mib / r->ours.cpu, "MiB/s", "");
    snprintf(fig, sizeof fig, "reader_%s_llmm_report_wall", r->name);
    bench_row(o, fig, r->mib / r->ours.wall, "MiB/s", "");
    if (!has_py || r->python.cpu < 0)
        return;
    snprintf(fig, sizeof fig, "reader_%s_python_json_load_cpu", r->name);
    bench_row(o, fig, r->mib / r->python.cpu, "MiB/s", "");
    snprintf(fig, sizeof fig, "reader_%s_ratio_cpu", r->name);
    bench_row(o, fig, r->python.cpu / r->ours.cpu, "x", ">= 3 (issue 25)");
    snprintf(fig, sizeof fig, "reader_%s_ratio_wall", r->name);
    bench_row(o, fig, r->python.wall / r->ours.wall, "x", "");
    if (r->python_more.cpu < 0)
        return;
    snprintf(fig, sizeof fig, "reader_%s_python_load_and_events_cpu", r->name);
    bench_row(o, fig, r->mib / r->python_more.cpu, "MiB/s", "");
    snprintf(fig, sizeof fig, "reader_%s_ratio_to_load_and_events_cpu", r->name);
    bench_row(o, fig, r->python_more.cpu / r->ours.cpu, "x", "");
}

int main(int argc, char **argv)
{
    const char *llmm = LLMM_CLI_EXE, *keep = NULL, *py = getenv("LLMM_PYTHON");
    char tmpl[] = "/tmp/llmm-bench-readers-XXXXXX";
    const char *dir;
    int reps = 3, has_py, json = 0;
    double mib = 64;
    bench_out o;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--mb") == 0 && i + 1 < argc)
            mib = atof(argv[++i]);
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--keep") == 0 && i + 1 < argc)
            keep = argv[++i];
        else if (strcmp(argv[i], "--llmm") == 0 && i + 1 < argc)
            llmm = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--json] [--mb N] [--reps N] [--keep DIR] [--llmm PATH]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!(mib > 0) || reps < 1)
        return 2;
    if (!py)
        py = "/usr/bin/python3";
    has_py = access(py, X_OK) == 0;
    dir = keep ? keep : mkdtemp(tmpl);
    if (!dir) {
        perror("bench_readers: mkdtemp");
        return 1;
    }
    {
        char *fake[] = {argv[0], json ? "--json" : "", NULL};
        bench_begin(&o, 2, fake, "readers");
    }
    for (size_t k = 0; k < gen_nformats; k++) {
        result r;
        if (measure(llmm, has_py ? py : NULL, dir, &gen_formats[k],
                    (size_t)(mib * 1048576.0), reps, &r) != 0)
            return 1;
        rows(&o, &r, has_py);
        if (!keep) {
            char path[4096];
            snprintf(path, sizeof path, "%s/bench.%s.json", dir, gen_formats[k].name);
            unlink(path);
        }
    }
    bench_end(&o);
    if (!keep)
        rmdir(dir);
    if (!has_py)
        fprintf(stderr, "bench_readers: no %s: ratios not measured\n", py);
    return 0;
}
