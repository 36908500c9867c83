/* bench.c: `llmm bench --url URL`: load an OpenAI-compatible streaming server and measure it
 * (bench/driver.h). Without libcurl at build time the command exists and says so. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/driver.h"
#include "cmd/command.h"

#define SELF (&llmm_cli_command_bench)

/* The options, in the order of their ids. */
#define OPTIONS                                                                                    \
    "url= chat model= api-key= header= cacert= insecure concurrency= rate= arrivals= "             \
    "max-concurrency= num-requests= duration= input-len= output-len= range-ratio= ignore-eos "     \
    "seed= warmup= timeout= grace= out=/o label= no-report quiet/q progress-every= dataset= "      \
    "metrics-port= host-signals= vocab-size= shared-prefix= text-prompts metrics-address= "       \
    "bpf server-pid= runq-above= traceparent= otlp= otlp-interval= otlp-json otlp-header="
enum {
    OPT_URL = LLMM_CLI_OPT,
    OPT_CHAT,
    OPT_MODEL,
    OPT_KEY,
    OPT_HEADER,
    OPT_CACERT,
    OPT_INSECURE,
    OPT_CONC,
    OPT_RATE,
    OPT_ARRIVALS,
    OPT_MAXCONC,
    OPT_NUM,
    OPT_DURATION,
    OPT_IN,
    OPT_OUT,
    OPT_RANGE,
    OPT_EOS,
    OPT_SEED,
    OPT_WARMUP,
    OPT_TIMEOUT,
    OPT_GRACE,
    OPT_DIR,
    OPT_LABEL,
    OPT_NOREPORT,
    OPT_QUIET,
    OPT_EVERY,
    OPT_DATASET,
    OPT_METRICS,
    OPT_HOST,
    OPT_VOCAB,
    OPT_SHARED,
    OPT_TEXT,
    OPT_METRICS_ADDR,
    OPT_BPF,
    OPT_SERVER_PID,
    OPT_RUNQ_ABOVE,
    OPT_TRACEPARENT,
    OPT_OTLP,
    OPT_OTLP_EVERY,
    OPT_OTLP_JSON,
    OPT_OTLP_HEADER
};

static void usage(FILE *f)
{
    fputs("usage: llmm bench --url URL [OPTIONS]\n"
          "\n"
          "Load an OpenAI-compatible streaming server (vLLM, SGLang, TGI, llama.cpp,\n"
          "TensorRT-LLM, Ollama, `llmm sim`) and measure TTFT, ITL and E2E from the client:\n"
          "one event loop on libcurl's multi-socket interface, connections reused, each\n"
          "timestamp (CLOCK_MONOTONIC) taken when the bytes are read, values recorded into\n"
          "llmm sketches. Requests stream (\"stream\": true, stream_options.include_usage).\n"
          "\n"
          "Target:\n"
          "  --url URL            the server as OpenAI clients take it: a path ending in\n"
          "                       /completions is the endpoint; one ending in /v1 gets\n"
          "                       /completions (/chat/completions with --chat); any other,\n"
          "                       none included, gets /v1/...; a query string is kept\n"
          "  --chat               /v1/chat/completions (text prompts) instead of\n"
          "                       /v1/completions (token-ID prompts: exact input lengths)\n"
          "  Before the run one real request (the first prompt, one output token) must\n"
          "  succeed, else llmm bench says why and does not start.\n"
          "  --model NAME         the \"model\" of every request (default: the first model of\n"
          "                       the server's /v1/models, else \"default\")\n"
          "  --api-key KEY        bearer token (default: $OPENAI_API_KEY); never printed\n"
          "  --header 'N: V'      an extra header (repeatable, up to 16)\n"
          "  --cacert FILE        CA certificates for HTTPS; --insecure: no verification\n"
          "\n"
          "Load (durations take s, ms or us; a bare number is seconds here):\n"
          "  --concurrency LIST   closed loop: N requests in flight; a list 1,2,4,...\n"
          "                       runs a sweep, one level after the other (default 1)\n"
          "  --rate R             open loop: R requests per second, latency counted also from\n"
          "                       each request's intended send time (coordinated omission)\n"
          "  --arrivals A         open loop: poisson (default) or constant\n"
          "  --max-concurrency N  open loop: the most requests in flight (default 1024)\n"
          "  --num-requests N     requests per level (default 100 unless --duration)\n"
          "  --duration DUR       send for DUR per level (with --num-requests: whichever\n"
          "                       comes first)\n"
          "  --warmup SHARE       share of a level's requests, the first sent, that is not\n"
          "                       measured (default 0.1); requests ending after the level\n"
          "                       stopped sending (the cool-down) are not measured either\n"
          "  --timeout DUR        per request (default 600s); --grace DUR: after Ctrl-C,\n"
          "                       how long requests in flight may finish (default 5s)\n"
          "\n",
          f);
    fputs("Prompts (synthetic and seeded, or from a file):\n"
          "  --input-len N, --output-len N   mean lengths in tokens (default 128, 64)\n"
          "  --range-ratio F      lengths uniform in mean*[1-F, 1+F] (default 0)\n"
          "  --ignore-eos         ask the server for exactly max_tokens (vLLM's ignore_eos)\n"
          "  --seed N             prompts, lengths, their order and arrivals (default 0)\n"
          "  --vocab-size V       token IDs drawn below V (default 32000: the smallest\n"
          "                       vocabulary of the common model families; a smaller model\n"
          "                       needs it)\n"
          "  --shared-prefix N    every prompt starts with the same N tokens (to measure a\n"
          "                       prefix cache on purpose; by default each prompt starts with\n"
          "                       a prefix unique to it)\n"
          "  --text-prompts       send words to /v1/completions too (default: token IDs)\n"
          "  --dataset FILE       prompts from a file instead: ShareGPT JSON (the first turn\n"
          "                       the prompt, the second's length in words max_tokens unless\n"
          "                       --output-len; vLLM's filters, lengths in words) or JSON Lines\n"
          "                       of {\"prompt\": ..., \"output_len\": N}; sent as text\n"
          "\n"
          "Output:\n"
          "  -o, --out DIR        where the files go (default llmm-bench-out): per level\n"
          "                       result-c8.json (vLLM's --save-result --save-detailed keys\n"
          "                       over the measured window, llmm's own under \"llmm\": `llmm\n"
          "                       report` and vLLM-reading tools take it), c8-ttft.llmm,\n"
          "                       c8-itl.llmm, c8-e2e.llmm (sketches of the measured window, for\n"
          "                       `llmm merge`; open loop adds r5-ttft-intended.llmm and\n"
          "                       r5-e2e-intended.llmm), series-c8.csv (every 50 ms: requests in\n"
          "                       flight, completions), and sweep.csv (concurrency,qps,p99_ms\n"
          "                       of the measured windows, for `llmm knee`)\n"
          "  --label TEXT         the result files' label\n"
          "  --metrics-port P     serve the running level's client-side sketches (TTFT, ITL,\n"
          "                       E2E summaries), request counts by outcome and requests in\n"
          "                       flight at http://127.0.0.1:P/metrics for a Prometheus (0:\n"
          "                       any free port, printed on stderr); GET and HEAD; 16\n"
          "                       connections waiting per address, 1024 in all (the one\n"
          "                       waiting longest gives way to a new one), 10 s for a whole\n"
          "                       request\n"
          "  --metrics-address ADDR\n"
          "                       the address --metrics-port listens on, IPv4 or IPv6\n"
          "                       (default 127.0.0.1, this host only; 0.0.0.0 or :: for every\n"
          "                       interface)\n"
          "  --host-signals FILE  sample the host's signals (Linux /proc, /sys: as `llmm host`)\n"
          "                       with every 50 ms sample into FILE, on the clock of the\n"
          "                       result files' start_times; the closing report attributes\n"
          "                       latency spikes to them\n"
          "\n",
          f);
    fputs("Kernel events:\n"
          "  --bpf                trace the kernel's events (eBPF; Linux, root: CAP_BPF and\n"
          "                       CAP_PERFMON, the kernel's BTF; doc: bpf.md): TCP\n"
          "                       retransmits of each request's own connection between its\n"
          "                       send and its last byte, and with --server-pid the server's\n"
          "                       major faults and run-queue waits (sched.jitter) in each\n"
          "                       request's largest gap; per request in the result file, and\n"
          "                       the share of P99 / P99.9 spikes with an event in the summary\n"
          "  --server-pid P       the server's process on this host (every thread)\n"
          "  --runq-above DUR     a server wait this long or longer is a sched.jitter event\n"
          "                       (default 1ms)\n"
          "\n"
          "Tracing:\n"
          "  --traceparent VALUE  send every request as a child of this W3C traceparent (its\n"
          "                       trace id, a fresh span id each); by default each request\n"
          "                       starts a trace of its own. The ids are in the result files\n"
          "                       and the slowest requests' are printed at the end\n"
          "  --otlp URL           push to an OTLP/HTTP collector (URL: its base, e.g.\n"
          "                       http://localhost:4318): the running level's TTFT, ITL and E2E\n"
          "                       as exponential histograms and the requests by outcome,\n"
          "                       cumulative, every --otlp-interval (default 10s) and at the end\n"
          "                       of each level, and one client span per request; a collector\n"
          "                       that fails is said on stderr, never in the exit status\n"
          "  --otlp-interval DUR  between pushes of a level (default 10s, at least 0.1s)\n"
          "  --otlp-json          OTLP/JSON instead of protobuf\n"
          "  --otlp-header 'Name: value'\n"
          "                       a header of every push (e.g. a collector's key; repeatable)\n"
          "\n"
          "Report and progress:\n"
          "  --no-report          no closing `llmm report` / `llmm knee`\n"
          "  -q, --quiet          no progress lines; --progress-every DUR: when stderr is not\n"
          "                       a terminal, a line every DUR (default 10s)\n"
          "  -h, --help           this text\n"
          "\n"
          "A request fails, and counts by reason with the server's words, on an HTTP status\n"
          "other than 200 (http), no connection (connect), a broken connection (reset), a\n"
          "stream ending without data: [DONE] (truncated), an event that is not a JSON object\n"
          "(malformed), an in-stream error: event: error, a data object {\"error\": ...} or an\n"
          "error: line (error-event), no output chunk (no-output), the --timeout (timeout),\n"
          "TLS (tls), the end of the grace period (cancelled). A request whose reused\n"
          "connection died before a byte of answer is sent again once, on a fresh one.\n"
          "\n"
          "Exit status: 0 done (failed requests are data), 1 the server cannot be reached\n"
          "before the run, --bpf cannot trace (a message names what is missing) or a file\n"
          "cannot be written, 2 usage error.\n",
          f);
}

/* A duration; a bare number is seconds. */
static int seconds_arg(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end != s && *end == '\0')
        *out = v;
    else if (llmm_cli_parse_duration(s, out) != 0)
        return -1;
    return isfinite(*out) && *out >= 0 ? 0 : -1;
}

static int number_arg(const char *s, double lo, double hi, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return end != s && *end == '\0' && *out >= lo && *out <= hi ? 0 : -1;
}

static int conc_list(llmm_bench_args *a, const char *s)
{
    a->nconc = 0;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        char tok[32];
        uint64_t v;
        if (len == 0 || len >= sizeof tok || a->nconc == LLMM_BENCH_LEVELS_MAX)
            return -1;
        memcpy(tok, s, len);
        tok[len] = '\0';
        if (!llmm_cli_u64_arg(tok, 1000000, &v) || v == 0)
            return -1;
        a->conc[a->nconc++] = (uint32_t)v;
        if (!comma)
            return 0;
        s = comma + 1;
    }
}

static int value_option(llmm_bench_args *a, int id, const char *arg)
{
    double d;
    uint64_t u;
    switch (id) {
    case OPT_CONC:
        a->conc_given = 1;
        return conc_list(a, arg);
    case OPT_RATE:
        a->lv.open = 1;
        return number_arg(arg, 1e-6, 1e9, &a->lv.rate);
    case OPT_ARRIVALS:
        a->lv.poisson = strcmp(arg, "poisson") == 0;
        return a->lv.poisson || strcmp(arg, "constant") == 0 ? 0 : -1;
    case OPT_MAXCONC:
        if (!llmm_cli_u64_arg(arg, 1000000, &u) || u == 0)
            return -1;
        a->lv.concurrency = (uint32_t)u;
        return 0;
    case OPT_NUM:
        return llmm_cli_u64_arg(arg, UINT64_MAX, &a->lv.num_requests) ? 0 : -1;
    case OPT_DURATION:
        return seconds_arg(arg, &a->lv.duration);
    case OPT_IN:
    case OPT_OUT:
        if (!llmm_cli_u64_arg(arg, 1000000, &u) || u == 0)
            return -1;
        a->out_given |= id == OPT_OUT;
        *(id == OPT_IN ? &a->synth.in_len : &a->synth.out_len) = (int64_t)u;
        return 0;
    case OPT_RANGE:
        return number_arg(arg, 0, 0.99, &a->synth.range);
    case OPT_VOCAB:
        return llmm_cli_u64_arg(arg, UINT32_MAX, &a->synth.vocab) && a->synth.vocab >= 16 ? 0 : -1;
    case OPT_SHARED:
        if (!llmm_cli_u64_arg(arg, 1000000, &u))
            return -1;
        a->synth.shared_prefix = (int64_t)u;
        return 0;
    case OPT_SEED:
        if (!llmm_cli_u64_arg(arg, UINT64_MAX, &a->synth.seed))
            return -1;
        a->lv.seed = a->synth.seed;
        return 0;
    case OPT_WARMUP:
        return number_arg(arg, 0, 0.9, &a->lv.warmup);
    case OPT_TIMEOUT:
        return seconds_arg(arg, &a->t.timeout);
    case OPT_GRACE:
        return seconds_arg(arg, &a->grace);
    case OPT_METRICS:
        if (!llmm_cli_u64_arg(arg, 65535, &u))
            return -1;
        a->metrics_port = (int)u;
        return 0;
    case OPT_SERVER_PID:
        if (!llmm_cli_u64_arg(arg, 4194304, &u) || u == 0)
            return -1;
        a->server_pid = (uint32_t)u;
        return 0;
    case OPT_RUNQ_ABOVE:
        return llmm_cli_parse_duration(arg, &a->runq_above) == 0 && a->runq_above <= 60 ? 0 : -1;
    case OPT_EVERY:
        return seconds_arg(arg, &d) == 0 && d > 0 ? (a->progress_every = d, 0) : -1;
    case OPT_OTLP_EVERY:
        return seconds_arg(arg, &d) == 0 && d >= 0.1 ? (a->otlp_every = d, 0) : -1;
    case OPT_TRACEPARENT:
        a->t.tp_given = 1;
        return llmm_traceparent_parse(arg, a->t.tp_trace, a->t.tp_span, &a->t.tp_flags) ==
                       LLMM_OK
                   ? 0
                   : -1;
    default:
        return -1;
    }
}

static int option(void *ctx, int id, const char *name, const char *arg)
{
    llmm_bench_args *a = ctx;
    switch (id) {
    case OPT_URL: a->base_url = arg; return -1;
    case OPT_CHAT: a->t.chat = 1; return -1;
    case OPT_MODEL:
        if (strpbrk(arg, "\"\\"))
            return llmm_cli_usage_error(SELF, "--model: no quote or backslash, please");
        a->t.model = arg;
        a->model_given = 1;
        return -1;
    case OPT_KEY: a->t.api_key = arg; return -1;
    case OPT_HEADER:
        if (a->t.nheaders == LLMM_BENCH_HEADERS_MAX || !strchr(arg, ':'))
            return llmm_cli_usage_error(SELF, "--header: 'Name: value', at most %d",
                                        LLMM_BENCH_HEADERS_MAX);
        a->headers[a->t.nheaders++] = arg;
        return -1;
    case OPT_CACERT: a->t.cacert = arg; return -1;
    case OPT_INSECURE: a->t.insecure = 1; return -1;
    case OPT_EOS: a->t.ignore_eos = 1; return -1;
    case OPT_TEXT:
        a->synth.text = 1;
        return -1;
    case 'o': a->out_dir = arg; return -1;
    case OPT_LABEL: a->label = arg; return -1;
    case OPT_DATASET: a->dataset = arg; return -1;
    case OPT_HOST: a->host_signals = arg; return -1;
    case OPT_METRICS_ADDR: a->metrics_address = arg; return -1;
    case OPT_NOREPORT: a->no_report = 1; return -1;
    case OPT_BPF: a->bpf = 1; return -1;
    case OPT_OTLP: a->otlp_url = arg; return -1;
    case OPT_OTLP_JSON: a->otlp_json = 1; return -1;
    case OPT_OTLP_HEADER:
        if (a->otlp_nheaders == LLMM_BENCH_HEADERS_MAX || !strchr(arg, ':'))
            return llmm_cli_usage_error(SELF, "--otlp-header: 'Name: value', at most %d",
                                        LLMM_BENCH_HEADERS_MAX);
        a->otlp_headers[a->otlp_nheaders++] = arg;
        return -1;
    case 'q': a->quiet = 1; return -1;
    default:
        if (value_option(a, id, arg) != 0)
            return llmm_cli_usage_error(SELF, "bad value for --%s: '%s'", name, arg);
        return -1;
    }
}

static void defaults(llmm_bench_args *a)
{
    memset(a, 0, sizeof *a);
    a->t.model = "default";
    a->t.api_key = getenv("OPENAI_API_KEY");
    a->t.headers = a->headers;
    a->t.timeout = 600;
    a->conc[0] = 1;
    a->nconc = 1;
    a->lv.poisson = 1;
    a->lv.warmup = 0.1;
    a->synth.in_len = 128;
    a->synth.out_len = 64;
    a->synth.vocab = LLMM_BENCH_VOCAB_DEFAULT;
    a->out_dir = "llmm-bench-out";
    a->grace = 5;
    a->progress_every = 10;
    a->metrics_port = -1;
    a->metrics_address = "127.0.0.1";
    a->runq_above = -1; /* not given: 1ms */
    a->otlp_every = 10;
}

static int run(int argc, char **argv)
{
    llmm_bench_args a;
    int status;
    defaults(&a);
    status = llmm_cli_parse_options(SELF, OPTIONS, argc, argv, option, &a);
    if (status >= 0)
        return status;
    if (optind < argc)
        return llmm_cli_usage_error(SELF, "unexpected operand '%s'", argv[optind]);
    if (!a.base_url)
        return llmm_cli_usage_error(SELF, "no --url");
    if (!a.bpf && (a.server_pid || a.runq_above >= 0))
        return llmm_cli_usage_error(SELF, "--server-pid and --runq-above go with --bpf");
    if (a.runq_above < 0)
        a.runq_above = 1e-3;
#if !defined(LLMM_CLI_HAVE_BPF) || !defined(LLMM_CLI_HAVE_CURL)
    if (a.bpf)
        return llmm_cli_say(SELF, 1, "--bpf: this llmm was built without the kernel-event "
                                     "collector (meson feature bpf: libbpf, bpftool, clang and "
                                     "the build machine's BTF)");
#endif
    if (a.lv.open && a.conc_given)
        return llmm_cli_usage_error(SELF, "--rate caps requests in flight with "
                                          "--max-concurrency, not --concurrency");
    if (!a.lv.num_requests && a.lv.duration <= 0)
        a.lv.num_requests = 100;
    if (a.lv.open && !a.lv.concurrency)
        a.lv.concurrency = 1024;
    /* one prompt per request of every level (used without replacement: a level does not
     * send the prompts of the one before), up to LLMM_BENCH_PROMPTS_MAX */
    {
        uint64_t levels = a.lv.open ? 1 : a.nconc, all = LLMM_BENCH_PROMPTS_MAX;
        if (a.lv.num_requests < LLMM_BENCH_PROMPTS_MAX / levels)
            all = a.lv.num_requests * levels;
        /* --duration alone: 1000 a level, said when they run out */
        a.synth.n = a.lv.num_requests ? (size_t)all : (size_t)(1000 * levels);
    }
#ifdef LLMM_CLI_HAVE_CURL
    return llmm_bench_main(&a);
#else
    return llmm_cli_say(SELF, 1, "unavailable: this llmm was built without libcurl "
                                 "(install libcurl4-openssl-dev and rebuild)");
#endif
}

LLMM_CLI_DEFINE_COMMAND(bench,
    "  bench --url URL  load a live OpenAI-compatible server and measure it (closed\n"
    "                   loop, a concurrency sweep or open loop; needs libcurl)\n");
