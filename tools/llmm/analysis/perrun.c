/* perrun.c: the inputs read run by run (perrun.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/perrun.h"

typedef struct per_run {
    llmm_cli_trace t;
    llmm_cli_sink inner; /* the trace's own sink */
    const double *slo;
    llmm_cli_run_fn fn;
    void *user;
    llmm_cli_run_src src;
    llmm_cli_error err; /* an error of fn, reported instead of the reader's */
    int failed;
} per_run;

static int pr_record(void *user, const llmm_cli_record *r)
{
    per_run *p = user;
    return p->inner.record(p->inner.user, r);
}

static void pr_note(void *user, const char *msg)
{
    per_run *p = user;
    p->inner.note(p->inner.user, msg);
}

/* A run's own trace: its time line watches E2E, and it keeps every request's send time and
 * E2E (llmm knee's in-run series reads them). */
static int run_trace_init(llmm_cli_trace *t, const double slo[3])
{
    int rc = llmm_cli_trace_init(t, 0, slo, LLMM_CLI_M_E2E);
    t->keep_points = 1;
    return rc;
}

/* The run ended: summarise it, hand it on, start a fresh trace for the next one. */
static int pr_run_end(void *user, const llmm_cli_run *run)
{
    per_run *p = user;
    llmm_cli_summary s;
    int rc = p->inner.run_end(p->inner.user, run);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_trace_summarize(&p->t, NAN, &s, &p->err);
    if (rc == LLMM_CLI_OK)
        rc = p->fn(p->user, &p->src, run, &p->t, &s, &p->err);
    p->src.index++;
    llmm_cli_trace_free(&p->t);
    if (rc == LLMM_CLI_OK && run_trace_init(&p->t, p->slo) != LLMM_CLI_OK)
        rc = llmm_cli_fail(&p->err, LLMM_CLI_ENOMEM, "out of memory");
    if (rc != LLMM_CLI_OK)
        p->failed = 1;
    llmm_cli_trace_sink(&p->t, &p->inner);
    return rc;
}

int llmm_cli_per_run(char **files, size_t nfiles, llmm_cli_format fmt, const double slo[3],
                     llmm_cli_run_fn fn, void *user, const llmm_cli_tool **tools,
                     llmm_cli_error *err)
{
    per_run p;
    llmm_cli_sink sink = {&p, pr_record, NULL, NULL, pr_run_end, pr_note, NULL, NULL};
    int rc = LLMM_CLI_OK;
    memset(&p, 0, sizeof p);
    p.slo = slo;
    p.fn = fn;
    p.user = user;
    if (run_trace_init(&p.t, slo) != LLMM_CLI_OK) {
        llmm_cli_trace_free(&p.t);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    llmm_cli_trace_sink(&p.t, &p.inner);
    for (size_t i = 0; i < nfiles && rc == LLMM_CLI_OK; i++) {
        llmm_cli_input_info info;
        memset(&info, 0, sizeof info);
        p.src.path = files[i];
        p.src.fmt = fmt;
        p.src.index = 0;
        llmm_cli_trace_input_begin(&p.t, i);
        rc = llmm_cli_read_file(files[i], fmt, &sink, &info, &p.src.fmt, err);
        if (p.failed) /* fn's own message, not the reader's "cannot record" */
            rc = llmm_cli_fail(err, rc, "%s", p.err.msg);
        if (tools)
            tools[i] = info.tool;
    }
    llmm_cli_trace_free(&p.t);
    return rc;
}
