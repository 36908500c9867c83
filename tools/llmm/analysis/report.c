/* report.c: building the report: the inputs into the trace, the summary, then every section
 * (report.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"

/* Every section, in the order they run (each reads the summary and the trace; a section that
 * does not apply to the inputs or options records why and returns LLMM_CLI_OK). */
static int (*const sections[])(llmm_cli_report *r, llmm_cli_error *err) = {
    llmm_cli_slo_eval,
    llmm_cli_spikes_eval,
    llmm_cli_collapse_eval,
    llmm_cli_score_eval,
};

void llmm_cli_report_init(llmm_cli_report *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < 3; i++)
        r->slo[i] = NAN;
    r->err_max = NAN;
    r->slo_quantile = NAN;
    r->duration_override = NAN;
    r->lookback = NAN;
    r->collapse_window = NAN;
    llmm_cli_host_init(&r->host);
}

void llmm_cli_report_free(llmm_cli_report *r)
{
    llmm_cli_trace_free(&r->trace);
    llmm_cli_spikes_free(&r->spikes);
    llmm_cli_collapse_free(&r->collapse);
    free(r->inputs);
    r->inputs = NULL;
}

static int read_inputs(llmm_cli_report *r, char **files, size_t nfiles, llmm_cli_error *err)
{
    llmm_cli_sink sink;
    int rc;
    r->inputs = calloc(nfiles, sizeof *r->inputs);
    if (!r->inputs)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    llmm_cli_trace_sink(&r->trace, &sink);
    for (size_t i = 0; i < nfiles; i++) {
        llmm_cli_input *in = &r->inputs[i];
        in->path = files[i];
        llmm_cli_trace_input_begin(&r->trace, i);
        rc = llmm_cli_read_file(files[i], r->fmt, &sink, &in->info, &in->fmt, err);
        if (rc == LLMM_CLI_OK)
            rc = llmm_cli_trace_input_end(&r->trace);
        if (rc != LLMM_CLI_OK && r->trace.err.msg[0]) /* the trace knows better than "memory" */
            return llmm_cli_fail(err, rc, "%s: %s", files[i], r->trace.err.msg);
        if (rc != LLMM_CLI_OK)
            return rc;
        r->ninputs++;
    }
    for (size_t i = 0; i < r->ncli_events; i++) {
        const llmm_cli_event *e = &r->cli_events[i];
        if (llmm_cli_trace_add_event(&r->trace, e->t, e->type, e->value) != LLMM_CLI_OK)
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    if ((rc = llmm_cli_host_events(&r->host, &r->trace, err)) != LLMM_CLI_OK)
        return rc;
    return llmm_cli_trace_done(&r->trace, err);
}

int llmm_cli_report_build(llmm_cli_report *r, char **files, size_t nfiles, llmm_cli_error *err)
{
    int rc;
    if (llmm_cli_trace_init(&r->trace, r->exact, r->slo, r->watch) != LLMM_CLI_OK)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    rc = read_inputs(r, files, nfiles, err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_trace_summarize(&r->trace, r->duration_override, &r->sum, err);
    for (size_t i = 0; rc == LLMM_CLI_OK && i < sizeof sections / sizeof sections[0]; i++)
        rc = sections[i](r, err);
    return rc;
}
