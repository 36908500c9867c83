/* report.c: `llmm report FILE...`: the report of benchmark traces (analysis/report.h), written
 * as text or JSON with its files (render/report.h). */
#include <stdlib.h>

#include "cmd/command.h"
#include "cmd/report_opts.h"
#include "common/bounds.h"
#include "common/output.h"
#include "render/report.h"

#define SELF (&llmm_cli_command_report)

static void usage(FILE *f)
{
    fputs("usage: llmm report [OPTIONS] FILE...\n"
          "\n"
          "Turn LLM benchmark traces into a latency, throughput and SLO report. Several files\n"
          "make one merged report (runs laid end to end). FILE may be '-' for stdin.\n"
          "\n"
          "Inputs, recognised from their content (never their name; --format overrides):\n"
          "  vllm     vllm bench serve results (--save-detailed or not, several documents\n"
          "           from --append-result, pooling runs) and benchmark_serving.py's\n"
          "  sglang   sglang.bench_serving result lines (per request with --output-details)\n"
          "  genai-perf  perf_analyzer's profile_export.json (per-request response times)\n"
          "  genai-perf-summary  profile_export_genai_perf.json (statistics only)\n"
          "  guidellm GuideLLM's benchmarks.json (every benchmark is a run)\n"
          "  llmperf  LLMPerf's *_individual_responses.json\n"
          "  llmperf-summary  LLMPerf's *_summary.json (statistics only; its throughput)\n"
          "  csv      a header line, then one request per line; columns start_s, ttft_s,\n"
          "           e2e_s, output_tokens, input_tokens, status (ttft_s and e2e_s\n"
          "           required; status ok|success|2xx = success, anything else = failed)\n"
          "  jsonl    one object per line with the same keys, plus optional \"itls\"\n"
          "JSON may hold Python's NaN, Infinity and -Infinity where a number may stand; a\n"
          "latency that is not finite is refused. A request failed when the tool marks it\n"
          "so (vLLM: a non-empty error, or no first token or latency). The report prints\n"
          "each tool's own figures next to ours, and how its definitions differ.\n"
          "\n",
          f);
    fputs(
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
          "  --format F             read every FILE as format F (default auto: detected)\n"
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
          "                         runtime.gc_pause, cpu.pressure, mem.pressure,\n"
          "                         io.pressure, cpu.freq_drop, sched.ctx_switches,\n"
          "                         cpu.throttle\n"
          "  --lookback DUR         spikes are attributed to the nearest event at most DUR\n"
          "                         before them (default 2s)\n"
          "  --collapse-window DUR  a latency is matched to a weight switch at most DUR after\n"
          "                         it (default 2s: a request trace sees a switch only as its\n"
          "                         requests complete; the library's default, 10 ms, is meant\n"
          "                         for per-batch latencies)\n",
          f);
    fputs("  --host-signals FILE    host signals recorded beside the trace (JSONL, one sample\n"
          "                         per line: {\"t\": SECONDS, \"psi_cpu\": RATE, ...}, t on the\n"
          "                         clock of the first input's start times): each rate above\n"
          "                         its threshold becomes an event at the start of its\n"
          "                         interval (net.tcp.retrans, cpu.pressure, ...), to which\n"
          "                         spikes are attributed like any other event\n"
          "  --host-threshold NAME=VALUE\n"
          "                         a threshold other than the library's default, e.g.\n"
          "                         ctx_switches_above=50000 or cpu_freq_drop=0.1 (the\n"
          "                         names and defaults are listed below)\n"
          "  --save-sketch DIR      write each latency series as a sketch file (the library's\n"
          "                         binary format): DIR/ttft.llmm, tpot.llmm, itl.llmm,\n"
          "                         e2e.llmm, for `llmm merge` and `llmm quantiles`\n"
          "  --svg DIR              write charts: DIR/latency_percentiles.svg (percentile\n"
          "                         curves with the --slo bounds) and DIR/p99_over_time.svg\n"
          "                         (P99 of the watched metric over time, spikes marked)\n"
          "  -h, --help             this text\n"
          "\n",
          f);
    llmm_cli_score_trace_names(f);
    llmm_cli_host_threshold_help(f);
    fputs("\nExit status: 0 report printed, 1 unreadable or malformed input, 2 usage error.\n",
          f);
}

/* "llmm: message" (the report's errors do not name the command: `llmm demo` runs it too). */
static int failed(const llmm_cli_error *err)
{
    fprintf(stderr, "llmm: %s\n", err->msg[0] ? err->msg : "failed");
    return 1;
}

static int write_files(const llmm_cli_report *r, llmm_cli_error *err)
{
    int rc = LLMM_CLI_OK;
    if (r->save_sketch_dir)
        rc = llmm_cli_report_save_sketches(r, err);
    if (rc == LLMM_CLI_OK && r->svg_dir)
        rc = llmm_cli_report_svg(r, err);
    return rc;
}

/* A percentile in the table that only a range bound answers is no measurement: say so. */
static void warn_bounds(const llmm_cli_report *r)
{
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++)
        llmm_cli_warn_bounds("llmm", llmm_cli_metric_label[m], " s", r->trace.sk[m], llmm_cli_q,
                             llmm_cli_q_label, LLMM_CLI_NQ);
}

int llmm_cli_report_run(llmm_cli_report *r, char **files, size_t nfiles, FILE *out)
{
    llmm_cli_error err;
    err.msg[0] = '\0';
    if (llmm_cli_report_build(r, files, nfiles, &err) != LLMM_CLI_OK)
        return failed(&err);
    warn_bounds(r);
    if (r->json) {
        if (llmm_cli_report_json(r, out) != LLMM_CLI_OK) {
            fprintf(stderr, "llmm: cannot write the JSON report\n");
            return 1;
        }
    } else {
        llmm_cli_report_text(r, out);
    }
    if (out == stdout ? llmm_cli_stdout_flush() != LLMM_CLI_OK : fflush(out) != 0 || ferror(out))
        return 1; /* no files after a report that was lost */
    return write_files(r, &err) == LLMM_CLI_OK ? 0 : failed(&err);
}

static int option(void *ctx, int id, const char *name, const char *arg)
{
    llmm_cli_error err;
    (void)name;
    if (llmm_cli_report_option(ctx, id, arg, &err) != LLMM_CLI_OK)
        return llmm_cli_say(SELF, 2, "%s", err.msg);
    return -1;
}

static int run(int argc, char **argv)
{
    llmm_cli_report r;
    int status;
    llmm_cli_report_init(&r);
    status = llmm_cli_parse_options(SELF, LLMM_CLI_REPORT_OPTIONS, argc, argv, option, &r);
    if (status < 0 && optind >= argc)
        status = llmm_cli_usage_error(SELF, "no input FILE");
    if (status < 0)
        status = llmm_cli_report_run(&r, argv + optind, (size_t)(argc - optind), stdout);
    llmm_cli_report_free(&r);
    return status;
}

LLMM_CLI_DEFINE_COMMAND(report,
    "  report FILE...   latency, throughput, goodput and score report of benchmark results\n"
    "                   (vLLM, SGLang, genai-perf, GuideLLM, LLMPerf, CSV, JSONL)\n");
