/* sim.c: `llmm sim`: an OpenAI-compatible streaming server that simulates a continuous-
 * batching engine (sim/), with fault injection: what `llmm bench` is tested against. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/command.h"
#include "common/numbers.h"
#include "sim/http.h"
#include "sim/model.h"
#ifdef LLMM_SIM_SERVER
#include "sim/server.h"
#include "sim/tls.h"
#endif

#define SELF (&llmm_cli_command_sim)

static void usage(FILE *f)
{
    llmm_sim_params d;
    llmm_sim_params_default(&d);
    fprintf(f,
            "usage: llmm sim [--port P] [--host ADDR] [OPTIONS]\n"
            "\n"
            "Serve POST /v1/completions and /v1/chat/completions (streamed as Server-Sent\n"
            "Events when \"stream\" is true), GET /v1/models and GET /health, answering like a\n"
            "continuous-batching engine (doc/sim.md): each step of b sequences takes\n"
            "step-base + step-per-seq * b + prefill * (prompt tokens admitted) and gives every\n"
            "sequence in it one token; at most --max-batch sequences run, each reserving\n"
            "prompt + max_tokens of --kv-tokens; the others queue. Prints\n"
            "\"llmm sim: listening on http://HOST:PORT\" once ready; SIGINT/SIGTERM stop it.\n"
            "\n"
            "Options:\n"
            "  --port P             TCP port (default 8000; 0: any free port)\n"
            "  --host ADDR          address to listen on (default 127.0.0.1)\n"
            "  --model NAME         the served model's name (default llmm-sim)\n"
            "  --seed N             seed of the output lengths and faults (default %llu)\n"
            "  --tls-cert FILE      serve HTTPS with this PEM certificate (chain) ...\n"
            "  --tls-key FILE       ... and this PEM private key\n"
            "  --log FILE           JSON Lines: one line per request (ids, tokens, status,\n"
            "                       CLOCK_MONOTONIC ns of its arrival, first and last chunk)\n"
            "Connection limits (past one, the connection waiting longest for its request\n"
            "gives way to the new one; a complete request is always answered):\n"
            "  --max-connections N  open at once in all (default %u)\n"
            "  --max-connections-per-address N  waiting for a request at once from one\n"
            "                       client address (default %u)\n"
            "  --request-deadline S a request (TLS handshake, head and body) must arrive\n"
            "                       complete within S seconds of the connection's accept or\n"
            "                       of the end of its previous response, or the connection\n"
            "                       is closed (default %g)\n"
            "Engine model:\n"
            "  --step-base-ms X     fixed time of a step (default %g)\n"
            "  --step-per-seq-ms X  added per sequence in the step (default %g)\n"
            "  --prefill-ms-per-token X  added per prompt token admitted (default %g)\n"
            "  --max-batch N        sequences in one step (default %u)\n"
            "  --kv-tokens N        KV capacity in tokens (default %llu)\n"
            "  --default-max-tokens N  output limit when a request gives none (default %u)\n"
            "  --mean-output X      mean output length without ignore_eos: exponential,\n"
            "                       rounded up, capped at max_tokens (default %g)\n"
            "Faults (probability per request, default 0):\n"
            "  --error-rate P       answer HTTP 500 or 429 (even odds) with a JSON error\n"
            "  --stall-rate P       pause the stream once for --stall-ms (default %g)\n"
            "  --drop-rate P        close the connection mid-stream\n"
            "  --malformed-rate P   send one chunk whose JSON is cut in half\n"
            "  --error-status S     the status of --error-rate's errors (400 ... 599)\n"
            "  --stream-error-rate P  end the stream with an in-stream error (status 200) ...\n"
            "  --stream-error D     ... written as D: event (`event: error` and a data\n"
            "                       object), object (a data object {\"error\": ...}) or field\n"
            "                       (llama.cpp's line `error: {...}`; default event) ...\n"
            "  --stream-error-after N  ... after N output tokens (default 0: before any)\n"
            "  --close-after-stream close each connection once its response is sent, while\n"
            "                       the response said keep-alive (as llama-server does)\n"
            "  --idle-close-rate P  after a response, close the connection when the next\n"
            "                       request arrives on it, unanswered (an idle close that the\n"
            "                       request crossed)\n"
            "  --vocab-size V       refuse (400) prompts with a token ID >= V\n"
            "  --max-prompt-tokens N  truncate longer prompts to N tokens (usage says N)\n"
            "  --empty-finish-chunk end each stream with a chunk of its own holding the\n"
            "                       finish_reason and an empty text (as llama.cpp does)\n"
            "  -h, --help           this text\n",
            (unsigned long long)d.seed, LLMM_SIM_MAX_CONNECTIONS, LLMM_SIM_PER_ADDRESS,
            LLMM_SIM_REQUEST_S, d.step_base_ms, d.step_per_seq_ms, d.prefill_ms_per_token,
            d.max_batch, (unsigned long long)d.kv_tokens, d.default_max_tokens, d.mean_output,
            d.stall_ms);
}

/* The options taking text, then the numeric ones in the order of `numeric`. */
#define TEXT_OPTIONS                                                                               \
    "port= host= model= seed= tls-cert= tls-key= log= close-after-stream stream-error= "           \
    "empty-finish-chunk "
enum {
    OPT_PORT = LLMM_CLI_OPT,
    OPT_HOST,
    OPT_MODEL,
    OPT_SEED,
    OPT_CERT,
    OPT_KEY,
    OPT_LOG,
    OPT_CLOSE,
    OPT_DIALECT,
    OPT_EMPTY,
    OPT_NUMERIC
};
#define NUMERIC_OPTIONS                                                                            \
    "step-base-ms= step-per-seq-ms= prefill-ms-per-token= max-batch= kv-tokens= "                  \
    "default-max-tokens= mean-output= error-rate= stall-rate= stall-ms= drop-rate= "               \
    "malformed-rate= max-connections= max-connections-per-address= request-deadline= "             \
    "idle-close-rate= stream-error-rate= stream-error-after= error-status= vocab-size= "           \
    "max-prompt-tokens="

/* A numeric option: where it goes (the engine's parameters, or the limits when `limit`), its
 * kind and bounds. */
typedef struct numeric_opt {
    int limit;
    size_t off;
    char kind; /* 'd' double, 'u' uint32_t, 'U' uint64_t */
    double lo, hi;
} numeric_opt;

#define P_OFF(f) 0, offsetof(llmm_sim_params, f)
#define L_OFF(f) 1, offsetof(llmm_sim_limits, f)
static const numeric_opt numeric[] = {
    {P_OFF(step_base_ms), 'd', 0, 1e6},
    {P_OFF(step_per_seq_ms), 'd', 0, 1e6},
    {P_OFF(prefill_ms_per_token), 'd', 0, 1e6},
    {P_OFF(max_batch), 'u', 1, 1e6},
    {P_OFF(kv_tokens), 'U', 1, 1e15},
    {P_OFF(default_max_tokens), 'u', 1, 1e6},
    {P_OFF(mean_output), 'd', 1, 1e6},
    {P_OFF(error_rate), 'd', 0, 1},
    {P_OFF(stall_rate), 'd', 0, 1},
    {P_OFF(stall_ms), 'd', 0, 3.6e6},
    {P_OFF(drop_rate), 'd', 0, 1},
    {P_OFF(malformed_rate), 'd', 0, 1},
    {L_OFF(max_connections), 'u', 1, 1e6},
    {L_OFF(per_address), 'u', 1, 1e6},
    {L_OFF(request_s), 'd', 0.001, 86400},
    {P_OFF(idle_close_rate), 'd', 0, 1},
    {P_OFF(stream_error_rate), 'd', 0, 1},
    {P_OFF(stream_error_after), 'u', 0, 1e6},
    {P_OFF(error_status), 'u', 400, 599},
    {P_OFF(vocab_size), 'U', 1, 1e12},
    {P_OFF(max_prompt_tokens), 'U', 1, 1e12},
};

typedef struct sim_args {
    llmm_sim_params p;
    llmm_sim_limits limits;
    const char *host, *model, *cert, *key, *log;
    unsigned port;
} sim_args;

static int set_numeric(sim_args *a, const numeric_opt *o, const char *name, const char *arg)
{
    double v;
    char *base = (o->limit ? (char *)&a->limits : (char *)&a->p) + o->off;
    if (llmm_cli_number(arg, strlen(arg), &v) != LLMM_CLI_OK || v < o->lo || v > o->hi ||
        (o->kind != 'd' && v != floor(v)))
        return llmm_cli_usage_error(SELF, "--%s: '%s' is not %s in [%g, %g]", name, arg,
                                    o->kind == 'd' ? "a number" : "a whole number", o->lo,
                                    o->hi);
    if (o->kind == 'd')
        memcpy(base, &v, sizeof v);
    else if (o->kind == 'u')
        *(uint32_t *)(void *)base = (uint32_t)v;
    else
        *(uint64_t *)(void *)base = (uint64_t)v;
    return -1;
}

static int option(void *ctx, int id, const char *name, const char *arg)
{
    sim_args *a = ctx;
    uint64_t v;
    if (id == OPT_PORT) {
        if (!llmm_cli_u64_arg(arg, 65535, &v))
            return llmm_cli_usage_error(SELF, "--port: '%s' is not 0 ... 65535", arg);
        a->port = (unsigned)v;
    } else if (id == OPT_SEED) {
        if (!llmm_cli_u64_arg(arg, UINT64_MAX, &a->p.seed))
            return llmm_cli_usage_error(SELF, "--seed: '%s' is not a number", arg);
    } else if (id == OPT_CLOSE) {
        a->p.close_after_stream = 1;
    } else if (id == OPT_EMPTY) {
        a->p.empty_finish_chunk = 1;
    } else if (id == OPT_DIALECT) {
        static const char *const names[] = {"event", "object", "field"};
        int i = 2;
        while (i >= 0 && strcmp(arg, names[i]) != 0)
            i--;
        if (i < 0)
            return llmm_cli_usage_error(SELF,
                                        "--stream-error: '%s' is not event, object or "
                                        "field",
                                        arg);
        a->p.stream_error_dialect = i;
    } else if (id >= OPT_NUMERIC) {
        return set_numeric(a, &numeric[id - OPT_NUMERIC], name, arg);
    } else {
        const char **slot[] = {&a->host, &a->model, NULL, &a->cert, &a->key, &a->log};
        *slot[id - OPT_HOST] = arg;
    }
    return -1;
}

static int run(int argc, char **argv)
{
    sim_args a = {.host = "127.0.0.1", .model = "llmm-sim", .port = 8000,
                  .limits = {LLMM_SIM_MAX_CONNECTIONS, LLMM_SIM_PER_ADDRESS, LLMM_SIM_REQUEST_S}};
    int status;
    llmm_sim_params_default(&a.p);
    status = llmm_cli_parse_options(SELF, TEXT_OPTIONS NUMERIC_OPTIONS, argc, argv, option, &a);
    if (status >= 0)
        return status;
    if (optind < argc)
        return llmm_cli_usage_error(SELF, "unexpected operand '%s'", argv[optind]);
    if (!a.cert != !a.key)
        return llmm_cli_usage_error(SELF, "%s", "--tls-cert and --tls-key go together");
#ifdef LLMM_SIM_SERVER
    if (a.cert && !llmm_sim_tls_available())
        return llmm_cli_say(SELF, 1, "%s", "this llmm was built without TLS (libssl-dev)");
    {
        llmm_sim_config cfg = {.p = a.p, .host = a.host, .port = a.port, .model = a.model,
                               .tls_cert = a.cert, .tls_key = a.key, .log_path = a.log,
                               .limits = a.limits};
        return llmm_sim_serve(&cfg, stdout, stderr);
    }
#else
    return llmm_cli_say(SELF, 1, "%s", "not available on this platform (it needs Linux epoll)");
#endif
}

LLMM_CLI_DEFINE_COMMAND(sim,
    "  sim              an OpenAI-compatible streaming server simulating a continuous-\n"
    "                   batching engine, with fault injection (for tests and demos)\n");
