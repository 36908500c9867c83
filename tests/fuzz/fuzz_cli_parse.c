/* libFuzzer target: the llmm tool's trace readers (tools/llmm/input) on arbitrary bytes. Built
 * once per reader (FUZZ_CLI_FORMAT: fuzz_cli_vllm, fuzz_cli_sglang, fuzz_cli_genai_perf,
 * fuzz_cli_genai_perf_summary, fuzz_cli_guidellm, fuzz_cli_llmperf, fuzz_cli_llmperf_summary)
 * and once over vLLM, CSV and JSONL (fuzz_cli_parse).
 *
 * Input: byte 0 picks the format (low two bits, fuzz_cli_parse only) and whether the sink fails
 * (bit 2: the k-th callback returns "out of memory", k from byte 1); byte 1 also seeds the
 * chunk sizes; the rest is the file, in an exactly sized heap buffer without a terminating NUL
 * (any overread is a sanitizer report). Checked:
 *   - the whole-buffer entry point and the readers' calls fed in random chunks (with the
 *     vLLM second pass when the first asks for it) agree on the return code, on every
 *     callback and its arguments, on the input statistics and on the error message: a parser
 *     must not depend on where reads split the file;
 *   - an error names the input (`name:...`) and a failing sink's code comes back;
 *   - delivered records follow the record contract (input/record.h): a failed request has NaN
 *     latencies, a successful one a finite E2E and a TTFT that is NaN or finite and at most
 *     E2E; ITLs are finite; the statistics count the delivered records;
 *   - a run's statement is sane: a label and figure names printable, figure statistics known;
 *   - the detection of a format from the same bytes ends in a format or a message;
 *   - no leak (LeakSanitizer) on any path. */
#include "fuzz_common.h"

#include "input/input.h"

/* Every callback, appended as bytes. */
typedef struct trace {
    uint8_t *p;
    size_t n, cap;
    uint64_t records, calls, fail_at;
    int failing;
} trace;

static void put(trace *t, const void *d, size_t n)
{
    if (t->n + n > t->cap) {
        size_t c = t->cap ? t->cap * 2 : 1024;
        while (c < t->n + n)
            c *= 2;
        t->p = realloc(t->p, c);
        CHECK(t->p != NULL);
        t->cap = c;
    }
    memcpy(t->p + t->n, d, n);
    t->n += n;
}

static int step(trace *t, char tag)
{
    put(t, &tag, 1);
    t->calls++;
    return t->failing && t->calls == t->fail_at ? LLMM_CLI_ENOMEM : LLMM_CLI_OK;
}

static int on_record(void *user, const llmm_cli_record *r)
{
    trace *t = user;
    CHECK(r->failed == 0 || r->failed == 1);
    if (r->failed) {
        CHECK(isnan(r->ttft_s) && isnan(r->e2e_s));
    } else {
        /* a TTFT only where the input has per-token times (record.h) */
        CHECK(isfinite(r->e2e_s) && r->e2e_s >= 0);
        CHECK(isnan(r->ttft_s) || (isfinite(r->ttft_s) && r->ttft_s <= r->e2e_s));
    }
    CHECK(isnan(r->start_s) || isfinite(r->start_s));
    CHECK(r->input_tokens >= -1 && r->output_tokens >= -1);
    put(t, &r->start_s, sizeof r->start_s); /* field by field: the struct has padding */
    put(t, &r->ttft_s, sizeof r->ttft_s);
    put(t, &r->e2e_s, sizeof r->e2e_s);
    put(t, &r->input_tokens, sizeof r->input_tokens);
    put(t, &r->output_tokens, sizeof r->output_tokens);
    put(t, &r->failed, sizeof r->failed);
    t->records++;
    return step(t, 'r');
}

static int on_itl(void *user, double v)
{
    trace *t = user;
    CHECK(isfinite(v));
    put(t, &v, sizeof v);
    return step(t, 'i');
}

static int on_itl_reset(void *user)
{
    return step(user, 'x');
}

static void printable(const char *s)
{
    for (; *s; s++)
        CHECK((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f);
}

static int on_run_end(void *user, const llmm_cli_run *run)
{
    trace *t = user;
    double d = run->duration_s;
    CHECK(isnan(d) || isfinite(d));
    CHECK(run->nfig == 0 || run->fig != NULL);
    put(t, &d, sizeof d);
    put(t, &run->nfig, sizeof run->nfig);
    if (run->label) {
        put(t, run->label, strlen(run->label) + 1);
        CHECK(strlen(run->label) < 200);
        printable(run->label);
    }
    for (size_t i = 0; i < run->nfig; i++) {
        const llmm_cli_figure *f = &run->fig[i];
        printable(f->name);
        printable(f->unit);
        CHECK(f->metric >= 0 && f->metric < LLMM_CLI_FM_COUNT);
        CHECK(f->stat >= LLMM_CLI_ST_VALUE && f->stat <= LLMM_CLI_ST_COUNT_OF);
        CHECK(f->stat != LLMM_CLI_ST_QUANTILE || (f->q >= 0 && f->q <= 1));
        put(t, f->name, strlen(f->name) + 1);
        put(t, &f->value, sizeof f->value);
    }
    return step(t, 'e');
}

static void on_note(void *user, const char *msg)
{
    trace *t = user;
    put(t, msg, strlen(msg) + 1);
    (void)step(t, 'n');
}

static int on_event(void *user, double ts, const char *type, double value)
{
    trace *t = user;
    CHECK(type != NULL && type[0] != '\0');
    put(t, &ts, sizeof ts);
    put(t, type, strlen(type) + 1);
    put(t, &value, sizeof value);
    return step(t, 'v');
}

static llmm_cli_sink sink_for(trace *t)
{
    llmm_cli_sink s;
    memset(&s, 0, sizeof s);
    s.user = t;
    s.record = on_record;
    s.itl = on_itl;
    s.itl_reset = on_itl_reset;
    s.run_end = on_run_end;
    s.note = on_note;
    s.event = on_event;
    return s;
}

typedef struct chunker {
    uint64_t x;
} chunker;

static size_t next_chunk(chunker *c, size_t left)
{
    size_t k;
    c->x ^= c->x << 13;
    c->x ^= c->x >> 7;
    c->x ^= c->x << 17;
    switch (c->x & 3) {
    case 0: k = 1; break;
    case 1: k = 1 + (c->x >> 8) % 7; break;
    case 2: k = 1 + (c->x >> 8) % 200; break;
    default: k = left; break;
    }
    return k < left ? k : left;
}

static const char *name_of(int fmt)
{
    return fmt == LLMM_CLI_FORMAT_CSV ? "in.csv" : fmt == LLMM_CLI_FORMAT_JSONL ? "in.jsonl"
                                                                                : "in.json";
}

/* One streamed pass of a reader; *out is the reader object (destroyed by the caller). */
static int pass(const llmm_cli_reader *rd, const char *buf, size_t len, const llmm_cli_sink *s,
                const uint8_t *flags, size_t nflags, uint64_t seed, void **out,
                llmm_cli_input_info *info, llmm_cli_error *err)
{
    chunker c = {seed | 1};
    size_t at = 0;
    int rc = rd->create(rd, name_of(rd->fmt), s, flags, nflags, out, err);
    while (rc == LLMM_CLI_OK && at < len) {
        size_t k = next_chunk(&c, len - at);
        rc = rd->feed(*out, buf + at, k, err);
        at += k;
    }
    if (rc == LLMM_CLI_OK)
        rc = rd->finish(*out, info, err);
    return rc;
}

/* The reader's calls driven here, in random chunks, with the second pass when it asks. */
static int streamed(int fmt, const char *buf, size_t len, const llmm_cli_sink *s,
                    uint64_t seed, llmm_cli_input_info *info, llmm_cli_error *err)
{
    const llmm_cli_reader *rd = llmm_cli_reader_for((llmm_cli_format)fmt);
    const uint8_t *flags = NULL;
    void *p = NULL, *q = NULL;
    size_t n = 0;
    int rc = pass(rd, buf, len, s, NULL, 0, seed, &p, info, err);
    if (rc == LLMM_CLI_OK && rd->replay)
        flags = rd->replay(p, &n);
    if (flags) {
        rc = s->itl_reset(s->user);
        if (rc != LLMM_CLI_OK) /* as the tool's reader driver (input/read.c) reports it */
            rc = llmm_cli_fail(err, rc, "%s: out of memory", name_of(fmt));
        if (rc == LLMM_CLI_OK)
            rc = pass(rd, buf, len, s, flags, n, seed * 3, &q, NULL, err);
    }
    if (rc == LLMM_CLI_OK && q)
        info->replayed = 1;
    rd->destroy(q);
    rd->destroy(p);
    return rc;
}

static int whole(int fmt, const char *buf, size_t len, const llmm_cli_sink *s,
                 llmm_cli_input_info *info, llmm_cli_error *err)
{
    return llmm_cli_parse_buffer((llmm_cli_format)fmt, buf, len, name_of(fmt), s, info, err);
}

/* The message after "in.json:LINE:COLUMN: ". An error in a token that spans two chunks is
 * reported at the token's first byte, which may differ from where a whole-buffer read reports
 * a problem inside it, so line and column may differ between chunkings (the text may not).
 * Other messages whole. */
static const char *skip_position(const char *m)
{
    unsigned long long l, c;
    int n = 0;
    if (sscanf(m, "in.json:%llu:%llu: %n", &l, &c, &n) == 2 && n > 0)
        return m + n;
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef FUZZ_CLI_FORMAT
    static const int formats[4] = {FUZZ_CLI_FORMAT, FUZZ_CLI_FORMAT, FUZZ_CLI_FORMAT,
                                   FUZZ_CLI_FORMAT};
#else
    static const int formats[4] = {LLMM_CLI_FORMAT_VLLM, LLMM_CLI_FORMAT_CSV,
                                   LLMM_CLI_FORMAT_JSONL, LLMM_CLI_FORMAT_VLLM};
#endif
    llmm_cli_format detected;
    trace ta, tb;
    llmm_cli_sink sa, sb;
    llmm_cli_input_info ia, ib;
    llmm_cli_error ea, eb;
    int fmt, ra, rb;
    char *buf;
    size_t len;
    if (size < 2)
        return 0;
    fmt = formats[data[0] & 3];
    memset(&ta, 0, sizeof ta);
    memset(&tb, 0, sizeof tb);
    ta.failing = tb.failing = (data[0] & 4) != 0;
    ta.fail_at = tb.fail_at = 1 + data[1] % 64;
    len = size - 2;
    buf = malloc(len ? len : 1);
    CHECK(buf != NULL);
    memcpy(buf, data + 2, len);
    memset(&ia, 0, sizeof ia);
    memset(&ib, 0, sizeof ib);
    ea.msg[0] = eb.msg[0] = '\0';
    sa = sink_for(&ta);
    sb = sink_for(&tb);

    ra = whole(fmt, buf, len, &sa, &ia, &ea);
    rb = streamed(fmt, buf, len, &sb, (uint64_t)data[1] * 0x9E3779B97F4A7C15ull + size, &ib,
                  &eb);
    CHECK(ra == rb);
    CHECK(ta.n == tb.n && (ta.n == 0 || memcmp(ta.p, tb.p, ta.n) == 0));
    if (ra == LLMM_CLI_OK) {
        CHECK(ia.requests == ib.requests && ia.runs == ib.runs &&
              ia.e2e_from_latencies == ib.e2e_from_latencies &&
              ia.e2e_from_itls == ib.e2e_from_itls && ia.has_start_times == ib.has_start_times &&
              ia.has_itls == ib.has_itls && ia.replayed == ib.replayed);
        CHECK(ia.requests == ta.records);
    } else {
        const char *name = name_of(fmt);
        CHECK(ra == LLMM_CLI_EPARSE || ra == LLMM_CLI_ENOMEM);
        CHECK(strncmp(ea.msg, name, strlen(name)) == 0);
        CHECK(strcmp(skip_position(ea.msg), skip_position(eb.msg)) == 0);
        if (ra == LLMM_CLI_ENOMEM)
            CHECK(ta.failing && ta.calls >= ta.fail_at);
    }
    ra = llmm_cli_format_detect("in", buf, len, 1, &detected, &ea);
    CHECK(ra == LLMM_CLI_OK || ra == LLMM_CLI_EPARSE || ra == LLMM_CLI_ENOMEM);
    CHECK(ra != LLMM_CLI_OK || llmm_cli_reader_for(detected) != NULL);
    CHECK(ra == LLMM_CLI_OK || strncmp(ea.msg, "in", 2) == 0);
    free(ta.p);
    free(tb.p);
    free(buf);
    return 0;
}
