/* report.c: `llmm report FILE...`: options, reading the inputs, building the report. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_opts.h"

void llmm_cli_report_usage(FILE *f)
{
    fputs("usage: llmm report [OPTIONS] FILE...\n"
          "\n"
          "Turn LLM benchmark traces into a latency, throughput and SLO report. Several files\n"
          "make one merged report (runs laid end to end). FILE may be '-' for stdin.\n"
          "\n"
          "Inputs (the format is guessed from the name, then from the content):\n"
          "  vLLM   `vllm bench serve --save-result --save-detailed` JSON (also several\n"
          "         documents from --append-result): ttfts, itls, latencies, start_times,\n"
          "         input_lens, output_lens, errors, duration. A request failed when its\n"
          "         'errors' entry is a non-empty string.\n"
          "  CSV    a header line, then one request per line; columns start_s, ttft_s, e2e_s,\n"
          "         output_tokens, status (ttft_s and e2e_s required; input_tokens optional;\n"
          "         status ok|success|2xx = success, anything else = failed).\n"
          "  JSONL  one object per line with the same keys, plus optional \"itls\": [s, ...].\n"
          "\n"
          "Definitions (vLLM's): TTFT = time to first token; ITL = gaps between streamed\n"
          "chunks; E2E = the client-measured request latency ('latencies'), or TTFT + sum(ITL)\n"
          "when a vLLM file has no 'latencies'; TPOT = (E2E - TTFT) / (output tokens - 1) for\n"
          "requests with more than one output token. Failed requests count in the error rate\n"
          "and never in latency percentiles. Percentiles are nearest-rank, rank = max(1,\n"
          "ceil(q*n)), from llmm sketches with at most 0.542 % relative error.\n"
          "\n"
          "Options (durations take a unit, s, ms or us; a bare number is milliseconds, as\n"
          "in vLLM's --goodput):\n"
          "  --json                 one JSON object on stdout instead of text\n"
          "  --exact                also numpy-style 'linear' percentiles over all values\n"
          "                         (keeps every value in memory), labelled as such\n"
          "  --format F             auto (default), vllm, csv or jsonl for every FILE\n"
          "  --slo LIST             per-request SLOs for goodput, e.g. ttft=500ms,tpot=50ms,\n"
          "                         e2e=10s, and err=1% for the error-rate bound; gives\n"
          "                         goodput (vLLM's definition) and the SLO verdict: P95 of\n"
          "                         each metric <= its bound and error rate <= err (default\n"
          "                         1 %)\n"
          "  --slo-quantile Q       the quantile the SLO verdict checks (default 0.95)\n"
          "  --duration SECONDS     benchmark duration for throughput when the inputs carry\n"
          "                         neither 'duration' nor start times\n"
          "  --scenario NAME        four-layer score: customer-service, code-assistant or\n"
          "                         content-generation\n"
          "  --metric SPEC          a scorecard metric, LAYER:NAME=VALUE:TARGET:WORST[:lower]\n"
          "                         (LAYER capability|performance|engineering|business;\n"
          "                         VALUE '-' takes a number the report measured, see below)\n"
          "  --watch M              metric the time-ordered sections (spikes, collapses)\n"
          "                         watch: ttft (default), tpot or e2e\n"
          "  --spike-interval S     seconds per row of the spikes-over-time table (default:\n"
          "                         a round value giving at most 12 rows)\n"
          "  --spike-warmup N       samples the baselines need before classifying (default\n"
          "                         1000, the library's)\n"
          "  --event NAME@SECONDS   an event at SECONDS after the first request was sent, e.g.\n"
          "                         model.weight_switch@95 (vLLM files may list their own in\n"
          "                         \"llmm_events\"); names: net.tcp.retrans, mem.major_fault,\n"
          "                         sched.jitter, mem.numa_migration, model.weight_switch,\n"
          "                         runtime.gc_pause\n"
          "  --lookback DUR         spikes are attributed to the nearest event at most DUR\n"
          "                         before them (default 2s)\n"
          "  --collapse-window DUR  a latency is matched to a weight switch at most DUR after\n"
          "                         it (default 2s: a request trace sees a switch only as its\n"
          "                         requests complete; the library's default, 10 ms, is meant\n"
          "                         for per-batch latencies)\n",
          f);
    fputs("  --save-sketch DIR      write each latency series as a sketch file (the library's\n"
          "                         binary format): DIR/ttft.llmm, tpot.llmm, itl.llmm,\n"
          "                         e2e.llmm, for `llmm merge` and `llmm quantiles`\n"
          "  --svg DIR              write charts: DIR/latency_percentiles.svg (percentile\n"
          "                         curves with the --slo bounds) and DIR/p99_over_time.svg\n"
          "                         (P99 of the watched metric over time, spikes marked)\n"
          "  -h, --help             this text\n"
          "\n",
          f);
    llmm_cli_score_trace_names(f);
    fputs("\nExit status: 0 report printed, 1 unreadable or malformed input, 2 usage error.\n",
          f);
}

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
}

void llmm_cli_report_free(llmm_cli_report *r)
{
    llmm_cli_trace_free(&r->trace);
    llmm_cli_spikes_free(&r->spikes);
    llmm_cli_collapse_free(&r->collapse);
    free(r->inputs);
    r->inputs = NULL;
}

static int parse_slo(llmm_cli_report *r, const char *arg, llmm_cli_error *err)
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
            if (llmm_cli_parse_duration(eq + 1, &r->slo[idx]) != LLMM_CLI_OK)
                rc = llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                   "--slo: %s=%s is not a duration (e.g. 500ms, 0.5s)", tok,
                                   eq + 1);
        } else if (strcmp(tok, "err") == 0) {
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
                r->err_max = v;
        } else {
            rc = llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                               "--slo: unknown key '%s' (ttft, tpot, e2e or err)", tok);
        }
    }
    free(copy);
    r->slo_text = arg;
    return rc;
}

int llmm_cli_report_option(llmm_cli_report *r, int opt, const char *arg, llmm_cli_error *err)
{
    char *end;
    switch (opt) {
    case OPT_JSON:
        r->json = 1;
        return LLMM_CLI_OK;
    case OPT_EXACT:
        r->exact = 1;
        return LLMM_CLI_OK;
    case OPT_FORMAT:
        if (llmm_cli_format_parse(arg, &r->fmt) != LLMM_CLI_OK)
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                 "--format: '%s' is not auto, vllm, csv or jsonl", arg);
        return LLMM_CLI_OK;
    case OPT_SLO:
        return parse_slo(r, arg, err);
    case OPT_DURATION:
        r->duration_override = strtod(arg, &end);
        if (*end != '\0' || !(r->duration_override > 0) || !isfinite(r->duration_override))
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--duration: '%s' is not seconds > 0",
                                 arg);
        return LLMM_CLI_OK;
    case OPT_SCENARIO:
        return llmm_cli_score_scenario(&r->score, arg, err);
    case OPT_METRIC:
        return llmm_cli_score_metric_option(&r->score, arg, err);
    case OPT_SLO_QUANTILE:
        r->slo_quantile = strtod(arg, &end);
        if (*end != '\0' || !(r->slo_quantile >= 0 && r->slo_quantile <= 1))
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                 "--slo-quantile: '%s' is not a quantile in [0, 1]", arg);
        return LLMM_CLI_OK;
    case OPT_EVENT: {
        const char *at = strrchr(arg, '@');
        char name[64];
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
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--event '%s': '%s' is not seconds >= 0",
                                 arg, at + 1);
        r->ncli_events++;
        return LLMM_CLI_OK;
    }
    case OPT_SAVE_SKETCH:
        r->save_sketch_dir = arg;
        return LLMM_CLI_OK;
    case OPT_SVG:
        r->svg_dir = arg;
        return LLMM_CLI_OK;
    case OPT_WATCH:
        return llmm_cli_watch_option(&r->watch, arg, err);
    case OPT_LOOKBACK:
    case OPT_COLLAPSE_WINDOW: {
        double *v = opt == OPT_LOOKBACK ? &r->lookback : &r->collapse_window;
        if (llmm_cli_parse_duration(arg, v) != LLMM_CLI_OK)
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "--%s: '%s' is not a duration (e.g. 2s)",
                                 opt == OPT_LOOKBACK ? "lookback" : "collapse-window", arg);
        return LLMM_CLI_OK;
    }
    case OPT_SPIKE_INTERVAL:
        r->spikes.interval = strtod(arg, &end);
        if (*end != '\0' || !(r->spikes.interval > 0) || !isfinite(r->spikes.interval))
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                 "--spike-interval: '%s' is not seconds > 0", arg);
        return LLMM_CLI_OK;
    case OPT_SPIKE_WARMUP: {
        unsigned long long v = strtoull(arg, &end, 10);
        if (*end != '\0' || arg[0] == '-' || v < 1 || v > 4294967295ull)
            return llmm_cli_fail(err, LLMM_CLI_EUSAGE,
                                 "--spike-warmup: '%s' is not 1 ... 4294967295", arg);
        r->spikes.warmup = v;
        return LLMM_CLI_OK;
    }
    default:
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "unknown option");
    }
}

static int read_inputs(llmm_cli_report *r, char **files, size_t nfiles, llmm_cli_error *err)
{
    llmm_cli_sink sink;
    r->inputs = calloc(nfiles, sizeof *r->inputs);
    if (!r->inputs)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    llmm_cli_trace_sink(&r->trace, &sink);
    for (size_t i = 0; i < nfiles; i++) {
        llmm_cli_input *in = &r->inputs[i];
        int rc;
        in->path = files[i];
        llmm_cli_trace_input_begin(&r->trace);
        rc = llmm_cli_read_file(files[i], r->fmt, &sink, &in->info, &in->fmt, err);
        if (rc == LLMM_CLI_OK)
            rc = llmm_cli_trace_input_end(&r->trace);
        if (rc != LLMM_CLI_OK)
            return rc;
        r->ninputs++;
    }
    for (size_t i = 0; i < r->ncli_events; i++) {
        const llmm_cli_event *e = &r->cli_events[i];
        if (llmm_cli_trace_add_event(&r->trace, e->t, e->type, e->value) != LLMM_CLI_OK)
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    llmm_cli_trace_events_done(&r->trace);
    return LLMM_CLI_OK;
}

int llmm_cli_report_run(llmm_cli_report *r, char **files, size_t nfiles, FILE *out)
{
    llmm_cli_error err;
    int rc;
    err.msg[0] = '\0';
    if (llmm_cli_trace_init(&r->trace, r->exact, r->slo) != LLMM_CLI_OK) {
        fprintf(stderr, "llmm: out of memory\n");
        return 1;
    }
    rc = read_inputs(r, files, nfiles, &err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_trace_summarize(&r->trace, r->duration_override, &r->sum, &err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_slo_eval(r, &err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_spikes_eval(r, &err);
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_collapse_eval(r, &err);
    if (rc == LLMM_CLI_OK && r->score.enabled)
        rc = llmm_cli_score_eval(r, &err);
    if (rc != LLMM_CLI_OK) {
        fprintf(stderr, "llmm: %s\n", err.msg[0] ? err.msg : "failed");
        return 1;
    }
    if (r->json) {
        if (llmm_cli_render_json(r, out) != LLMM_CLI_OK) {
            fprintf(stderr, "llmm: cannot write the JSON report\n");
            return 1;
        }
    } else {
        llmm_cli_render_text(r, out);
    }
    if (fflush(out) != 0 || ferror(out)) {
        fprintf(stderr, "llmm: cannot write the report\n");
        return 1;
    }
    rc = LLMM_CLI_OK;
    if (r->save_sketch_dir)
        rc = llmm_cli_report_save_sketches(r, &err);
    if (rc == LLMM_CLI_OK && r->svg_dir)
        rc = llmm_cli_report_svg(r, &err);
    if (rc != LLMM_CLI_OK) {
        fprintf(stderr, "llmm: %s\n", err.msg[0] ? err.msg : "failed");
        return 1;
    }
    return 0;
}

int llmm_cli_cmd_report(int argc, char **argv)
{
    static const struct option longopts[] = {LLMM_CLI_REPORT_LONGOPTS,
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    llmm_cli_report r;
    llmm_cli_error err;
    int opt, status;
    llmm_cli_report_init(&r);
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == 'h') {
            llmm_cli_report_usage(stdout);
            return 0;
        }
        if (opt == '?' || opt == ':') {
            fprintf(stderr, "llmm report: %s option '%s'\n",
                    opt == ':' ? "missing value for" : "unknown", argv[optind - 1]);
            fprintf(stderr, "Try 'llmm report --help'.\n");
            return 2;
        }
        if (llmm_cli_report_option(&r, opt, optarg, &err) != LLMM_CLI_OK) {
            fprintf(stderr, "llmm report: %s\n", err.msg);
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "llmm report: no input FILE\nTry 'llmm report --help'.\n");
        return 2;
    }
    status = llmm_cli_report_run(&r, argv + optind, (size_t)(argc - optind), stdout);
    llmm_cli_report_free(&r);
    return status;
}
