/* sse.h: an incremental Server-Sent Events parser (sse.c), for the streams `llmm bench` reads.
 *
 * Bytes are fed as they arrive, cut anywhere (inside a line, between CR and LF). Lines end at
 * CRLF, LF or CR; a line starting with ':' is a comment; `field: value` loses one space after
 * the colon; `data` lines of one event join with '\n'; `event` names the event; an `error`
 * field (llama.cpp's in-stream error, outside the WHATWG grammar) is dispatched at once as an
 * event of type "error" whose data is its value; other fields (id, retry, unknown ones) are
 * ignored; a blank line dispatches an event that has data. An
 * event still open when the stream ends is not dispatched (llmm_bench_sse_pending() tells).
 * Memory: one buffer for the line being read and one for the event's data, grown as needed up
 * to `max` bytes each. */
#ifndef LLMM_BENCH_SSE_H
#define LLMM_BENCH_SSE_H

#include <stddef.h>

/* One dispatched event: its type (the last `event:` value, "" when none) and its data
 * (not NUL-terminated). Returns 0 to go on, anything else to stop the feed with that value. */
typedef int (*llmm_bench_sse_fn)(void *ctx, const char *type, const char *data, size_t len);

typedef struct llmm_bench_sse {
    char *line;         /* the line being read */
    size_t nline, capline;
    char *data;         /* the event's data lines, each followed by '\n' */
    size_t ndata, capdata;
    char type[32];      /* the event's type, truncated */
    int has_data;       /* a data line was seen in this event */
    int after_cr;       /* the last byte was CR: an LF right after belongs to the same end */
    size_t max;         /* longest line and event data accepted */
} llmm_bench_sse;

/* feed's return values besides a callback's */
enum { LLMM_BENCH_SSE_OK = 0, LLMM_BENCH_SSE_NOMEM = -1, LLMM_BENCH_SSE_TOOLONG = -2 };

/* Start a stream; max = 0 means 16 MiB. */
void llmm_bench_sse_init(llmm_bench_sse *p, size_t max);
/* Forget the stream being read (keeps the buffers for the next). */
void llmm_bench_sse_reset(llmm_bench_sse *p);
void llmm_bench_sse_free(llmm_bench_sse *p);
/* The next bytes: fn is called once per event completed in them. Returns OK, NOMEM, TOOLONG
 * (a line or an event's data beyond max) or the first non-zero answer of fn; after an error
 * the stream is unusable until reset. */
int llmm_bench_sse_feed(llmm_bench_sse *p, const char *buf, size_t len, llmm_bench_sse_fn fn,
                        void *ctx);
/* Is an event or a line begun but not finished (the stream was cut)? */
int llmm_bench_sse_pending(const llmm_bench_sse *p);

#endif /* LLMM_BENCH_SSE_H */
