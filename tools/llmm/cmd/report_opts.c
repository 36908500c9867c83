/* report_opts.c: the options of `llmm report`, which `llmm demo` takes too (report_opts.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/command.h"
#include "cmd/report_opts.h"
#include "common/events.h"

static int watch_option(int *metric, const char *arg, llmm_cli_error *err)
{
    if (strcmp(arg, "ttft") == 0)
        *metric = LLMM_CLI_M_TTFT;
    else if (strcmp(arg, "tpot") == 0)
        *metric = LLMM_CLI_M_TPOT;
    else if (strcmp(arg, "e2e") == 0)
        *metric = LLMM_CLI_M_E2E;
    else
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--watch: '%s' is not ttft, tpot or e2e", arg);
    return LLMM_CLI_OK;
}

static int parse_slo(llmm_cli_report *r, const char *arg, llmm_cli_error *err)
{
    r->slo_text = arg;
    return llmm_cli_slo_arg(arg, r->slo, &r->err_max, err);
}

/* --event NAME@SECONDS */
static int event_option(llmm_cli_report *r, const char *arg, llmm_cli_error *err)
{
    const char *at = strrchr(arg, '@');
    char name[64], *end;
    llmm_cli_event *e = &r->cli_events[r->ncli_events];
    if (r->ncli_events == sizeof r->cli_events / sizeof r->cli_events[0])
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--event: at most %zu events",
                             sizeof r->cli_events / sizeof r->cli_events[0]);
    if (!at || at == arg || (size_t)(at - arg) >= sizeof name)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--event '%s': expected NAME@SECONDS", arg);
    memcpy(name, arg, (size_t)(at - arg));
    name[at - arg] = '\0';
    e->type = llmm_cli_event_type(name);
    if (e->type == 0)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--event: unknown event '%s' (%s)", name,
                             llmm_cli_event_names());
    e->t = strtod(at + 1, &end);
    e->value = 0;
    if (end == at + 1 || *end != '\0' || !isfinite(e->t) || e->t < 0)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--event '%s': '%s' is not seconds >= 0", arg,
                             at + 1);
    r->ncli_events++;
    return LLMM_CLI_OK;
}

/* --slo-quantile: a number in [0, 1]. */
static int quantile_option(const char *arg, double *q, llmm_cli_error *err)
{
    char *end;
    *q = strtod(arg, &end);
    if (*end != '\0' || !(*q >= 0 && *q <= 1))
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                             "--slo-quantile: '%s' is not a quantile in [0, 1]", arg);
    return LLMM_CLI_OK;
}

/* --duration and --spike-interval: seconds > 0. */
static int seconds_option(const char *name, const char *arg, double *v, llmm_cli_error *err)
{
    char *end;
    *v = strtod(arg, &end);
    if (*end != '\0' || !(*v > 0) || !isfinite(*v))
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--%s: '%s' is not seconds > 0", name, arg);
    return LLMM_CLI_OK;
}

int llmm_cli_report_option(llmm_cli_report *r, int opt, const char *arg, llmm_cli_error *err)
{
    switch (opt) {
    case OPT_JSON:
    case OPT_EXACT:
        *(opt == OPT_JSON ? &r->json : &r->exact) = 1;
        return LLMM_CLI_OK;
    case OPT_SAVE_SKETCH:
    case OPT_SVG:
        *(opt == OPT_SVG ? &r->svg_dir : &r->save_sketch_dir) = arg;
        return LLMM_CLI_OK;
    case OPT_HOST_SIGNALS:
        r->host.path = arg;
        return LLMM_CLI_OK;
    case OPT_HOST_THRESHOLD:
        return llmm_cli_host_threshold_option(&r->host, arg, err);
    case OPT_FORMAT:
        if (llmm_cli_format_parse(arg, &r->fmt) != LLMM_CLI_OK) {
            char names[256];
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--format: '%s' is not one of %s", arg,
                                 llmm_cli_format_names(names, sizeof names));
        }
        return LLMM_CLI_OK;
    case OPT_SLO:
        return parse_slo(r, arg, err);
    case OPT_DURATION:
        return seconds_option("duration", arg, &r->duration_override, err);
    case OPT_SCENARIO:
        return llmm_cli_score_scenario(&r->score, arg, err);
    case OPT_METRIC:
        return llmm_cli_score_metric_option(&r->score, arg, err);
    case OPT_SLO_QUANTILE:
        return quantile_option(arg, &r->slo_quantile, err);
    case OPT_EVENT:
        return event_option(r, arg, err);
    case OPT_WATCH:
        return watch_option(&r->watch, arg, err);
    case OPT_LOOKBACK:
    case OPT_COLLAPSE_WINDOW: {
        double *v = opt == OPT_LOOKBACK ? &r->lookback : &r->collapse_window;
        if (llmm_cli_parse_duration(arg, v) != LLMM_CLI_OK)
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--%s: '%s' is not a duration (e.g. 2s)",
                                 opt == OPT_LOOKBACK ? "lookback" : "collapse-window", arg);
        return LLMM_CLI_OK;
    }
    case OPT_SPIKE_INTERVAL:
        return seconds_option("spike-interval", arg, &r->spikes.interval, err);
    case OPT_SPIKE_WARMUP:
        if (!llmm_cli_u64_arg(arg, 4294967295u, &r->spikes.warmup) || r->spikes.warmup < 1)
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                 "--spike-warmup: '%s' is not 1 ... 4294967295", arg);
        return LLMM_CLI_OK;
    default:
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "unknown option");
    }
}
