/* libFuzzer target: the result-file writer of `llmm bench` (tools/llmm/bench/results.h,
 * llmm_bench_write_vllm_to) on a level made of arbitrary bytes.
 *
 * Input: a label and a model (each a length byte, then that many bytes, NULs stopping it),
 * then records of 12 bytes each (at most 64): reason, HTTP status, phase, resends, times as
 * small integers (some of them NaN or infinite), token counts, a message length; the message
 * bytes follow. Checked:
 *   - the writer succeeds and its output is one JSON document that YAJL accepts with UTF-8
 *     validation on (every string escaped, no NaN or infinity);
 *   - an ASCII label, model and failure messages come back exactly;
 *   - the vLLM lists hold the window's records and llmm.requests' lists are aligned with
 *     them; the warm-up and cool-down hold theirs;
 *   - no leak on any path. */
#define _GNU_SOURCE /* open_memstream */
#include "fuzz_common.h"

#include <yajl/yajl_tree.h>

#include "bench/results.h"

/* A NUL-terminated string of at most len bytes from the input (new memory). */
static char *take(fz_input *in, size_t len)
{
    char *s = malloc(len + 1);
    size_t k = 0;
    CHECK(s);
    while (k < len && in->n) {
        uint8_t b = fz_u8(in);
        if (!b)
            break;
        s[k++] = (char)b;
    }
    s[k] = '\0';
    return s;
}

static int ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return 0;
    return 1;
}

/* A time from a byte: mostly finite, sometimes not. */
static double when(uint8_t b)
{
    return b == 255 ? NAN : b == 254 ? INFINITY : (double)b * 0.01;
}

static yajl_val get(yajl_val v, const char *a, const char *b, const char *c)
{
    const char *path[] = {a, b, c, NULL};
    return yajl_tree_get(v, path, yajl_t_any);
}

static size_t len_of(yajl_val v)
{
    CHECK(v && YAJL_IS_ARRAY(v));
    return v->u.array.len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_input in = {data, size};
    llmm_bench_result r;
    llmm_bench_meta m;
    char *label, *model, *buf = NULL, err[256];
    size_t nbuf = 0, nphase[LLMM_BENCH_NPHASES] = {0};
    FILE *f;
    yajl_val doc;
    memset(&r, 0, sizeof r);
    label = take(&in, fz_u8(&in));
    model = take(&in, fz_u8(&in));
    r.level.concurrency = 1 + fz_u8(&in) % 8;
    r.level.open = fz_u8(&in) & 1;
    r.level.rate = 1.5;
    r.rec = calloc(64, sizeof *r.rec);
    r.itl = calloc(64 * 4, sizeof *r.itl);
    CHECK(r.rec && r.itl);
    while (in.n >= 12 && r.n < 64) {
        llmm_bench_rec *x = &r.rec[r.n];
        uint8_t b[12];
        for (int i = 0; i < 12; i++)
            b[i] = fz_u8(&in);
        x->reason = b[0] % LLMM_BENCH_NREASONS;
        x->http_status = b[1] < 128 ? 0 : 300 + b[1];
        x->phase = b[2] % LLMM_BENCH_NPHASES;
        x->windowed = x->phase == LLMM_BENCH_WINDOW;
        x->resends = b[3] & 1;
        x->intended = when(b[4]);
        x->sent = x->first_sent = when(b[5]);
        x->first = x->sent + when(b[6]);
        x->last = x->first + when(b[7]);
        x->end = x->last;
        x->asked_in = x->in_tokens = b[8];
        x->served_in = b[9] < 128 ? -1 : b[9];
        x->asked_exact = b[9] & 1;
        x->out_tokens = b[10] % 5;
        x->chunks = (uint32_t)x->out_tokens;
        x->nitl = (uint32_t)(b[10] % 4);
        x->itl = r.nitl;
        for (uint32_t j = 0; j < x->nitl; j++)
            r.itl[r.nitl++] = when((uint8_t)(b[6] + j));
        x->msg = b[11] ? take(&in, b[11] % 220) : NULL;
        nphase[x->phase]++;
        r.n++;
    }
    r.w0 = 0.5;
    r.w1 = when(fz_u8(&in));
    m.backend = "openai";
    m.model = model;
    m.label = label[0] ? label : NULL;
    f = open_memstream(&buf, &nbuf);
    CHECK(f);
    CHECK(llmm_bench_write_vllm_to(f, &r, &m) == LLMM_CLI_OK);
    CHECK(fclose(f) == 0);
    doc = yajl_tree_parse(buf, err, sizeof err);
    if (!doc)
        fprintf(stderr, "%s\n%s\n", err, buf);
    CHECK(doc && YAJL_IS_OBJECT(doc));
    if (m.label && ascii(label))
        CHECK(strcmp(YAJL_GET_STRING(get(doc, "label", NULL, NULL)), label) == 0);
    if (ascii(model))
        CHECK(strcmp(YAJL_GET_STRING(get(doc, "model_id", NULL, NULL)), model) == 0);
    CHECK(len_of(get(doc, "errors", NULL, NULL)) == nphase[LLMM_BENCH_WINDOW]);
    CHECK(len_of(get(doc, "itls", NULL, NULL)) == nphase[LLMM_BENCH_WINDOW]);
    CHECK(len_of(get(doc, "llmm", "requests", "messages")) == nphase[LLMM_BENCH_WINDOW]);
    CHECK(len_of(get(doc, "llmm", "requests", "served_input_lens")) == nphase[LLMM_BENCH_WINDOW]);
    CHECK(len_of(get(doc, "llmm", "warmup", "errors")) == nphase[LLMM_BENCH_WARMUP]);
    CHECK(len_of(get(doc, "llmm", "cooldown", "reasons")) == nphase[LLMM_BENCH_COOLDOWN]);
    {
        yajl_val msgs = get(doc, "llmm", "requests", "messages");
        size_t k = 0;
        for (size_t i = 0; i < r.n; i++) {
            const llmm_bench_rec *x = &r.rec[i];
            yajl_val v;
            if (x->phase != LLMM_BENCH_WINDOW)
                continue;
            v = msgs->u.array.values[k++];
            if (!x->msg)
                CHECK(YAJL_IS_NULL(v));
            else if (ascii(x->msg))
                CHECK(YAJL_IS_STRING(v) && strcmp(YAJL_GET_STRING(v), x->msg) == 0);
        }
    }
    yajl_tree_free(doc);
    free(buf);
    llmm_bench_result_free(&r);
    free(label);
    free(model);
    return 0;
}
