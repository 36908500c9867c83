/* jreader.h: what the JSON readers share (jreader.c): the tokenizer, the input's name, the
 * sink, an error raised inside a callback and reported with its position, the tool's figures
 * of the run being read, and the reader calls' common steps. Each JSON reader's state begins
 * with an llmm_cli_jreader. */
#ifndef LLMM_CLI_JREADER_H
#define LLMM_CLI_JREADER_H

#include "input/input.h"
#include "input/json.h"

/* The tool's figures of one run. */
typedef struct llmm_cli_figs {
    llmm_cli_figure *v;
    size_t n, cap;
    uint64_t dropped; /* beyond LLMM_CLI_FIGS_MAX */
} llmm_cli_figs;

#define LLMM_CLI_FIGS_MAX 1024

typedef struct llmm_cli_jreader {
    llmm_cli_json tok;        /* first, large */
    const struct llmm_cli_jformat *format; /* the one-pass formats' calls (NULL: vLLM's own) */
    const char *name;         /* labels messages */
    const char *what;         /* "a vLLM result", for "empty input: no ..." */
    llmm_cli_sink sink;
    llmm_cli_cb_error cb;     /* an error raised in a callback */
    llmm_cli_input_info info;
    llmm_cli_figs figs;
} llmm_cli_jreader;

/* The reader calls (input.h) of a JSON format read in one pass: its llmm_cli_reader's detail
 * is one of these, its state is `size` bytes beginning with an llmm_cli_jreader. */
typedef struct llmm_cli_jformat {
    const llmm_cli_json_handler *handler;
    size_t size;
    const char *what;          /* "GuideLLM report": the message of an empty input names it */
    const llmm_cli_tool *tool; /* its definitions */
    int multi;                 /* several top-level values */
    void (*init)(llmm_cli_jreader *r); /* NULL: nothing beyond zeroed memory */
    /* The input ended well: check what was read, write info.layout (LLMM_CLI_OK or an error
     * code with err filled). */
    int (*end)(llmm_cli_jreader *r, llmm_cli_error *err);
    void (*free)(llmm_cli_jreader *r); /* its own allocations; NULL: none */
} llmm_cli_jformat;

int llmm_cli_jformat_create(const llmm_cli_reader *rd, const char *name,
                            const llmm_cli_sink *sink, const uint8_t *replay, size_t replay_n,
                            void **out, llmm_cli_error *err);
int llmm_cli_jformat_feed(void *p, const char *buf, size_t len, llmm_cli_error *err);
int llmm_cli_jformat_finish(void *p, llmm_cli_input_info *info, llmm_cli_error *err);
void llmm_cli_jformat_destroy(void *p);
/* The calls of an llmm_cli_reader of such a format, in the struct's order. */
#define LLMM_CLI_JFORMAT_CALLS                                                                 \
    llmm_cli_jformat_create, llmm_cli_jformat_feed, llmm_cli_jformat_finish, NULL,             \
        llmm_cli_jformat_destroy
/* Defines the reader llmm_cli_reader_<id> of such a format: its llmm_cli_format `fmt`, name,
 * what its content looks like, detect function and llmm_cli_jformat. */
#define LLMM_CLI_JFORMAT_READER(id, fmt, name, looks_for, detect, format)                      \
    const llmm_cli_reader llmm_cli_reader_##id = {fmt, name, looks_for, detect, format,           \
                                                  LLMM_CLI_JFORMAT_CALLS}

/* Set up r (calloc'ed by the caller) for the input `name`; multi: several top-level values
 * may follow each other. */
void llmm_cli_jr_init(llmm_cli_jreader *r, const llmm_cli_json_handler *h, const char *name,
                      const char *what, const llmm_cli_sink *sink, int multi);
void llmm_cli_jr_free(llmm_cli_jreader *r);
/* Feed bytes; an error becomes "name:line:col: message". */
int llmm_cli_jr_feed(llmm_cli_jreader *r, const char *buf, size_t len, llmm_cli_error *err);
/* The end of the input (a truncated document, an empty input are errors). */
int llmm_cli_jr_finish(llmm_cli_jreader *r, llmm_cli_error *err);

/* Record an error inside a callback: 0 (scalar and close's "stop"). */
int llmm_cli_jr_fail(llmm_cli_jreader *r, int code, const char *fmt, ...) LLMM_CLI_PRINTF(3, 4);
/* The same for key and open callbacks: LLMM_CLI_JSON_STOP. */
int llmm_cli_jr_stop(llmm_cli_jreader *r, int code, const char *fmt, ...) LLMM_CLI_PRINTF(3, 4);
/* A sink's return code as a callback result: 1, or 0 after recording the error. */
int llmm_cli_jr_sink(llmm_cli_jreader *r, int rc);
/* A note to the sink, formatted, prefixed with the input's name. */
void llmm_cli_jr_note(llmm_cli_jreader *r, const char *fmt, ...) LLMM_CLI_PRINTF(2, 3);
/* Deliver one record / one ITL (1 to go on, 0 after an error). */
int llmm_cli_jr_record(llmm_cli_jreader *r, const llmm_cli_record *rec);
int llmm_cli_jr_itl(llmm_cli_jreader *r, double v);
/* The run ended: hand *run (with the figures collected) to the sink and forget the figures. */
int llmm_cli_jr_run_end(llmm_cli_jreader *r, llmm_cli_run *run);

/* A figure of the run being read. Returns 1, or 0 after an out-of-memory error. */
int llmm_cli_jr_figure(llmm_cli_jreader *r, const char *name, size_t nlen, int metric, int stat,
                       double q, double value, const char *unit, double si);

/* JSON Lines (one document per line, each tokenized on its own so that an error names its line
 * and column): line `lineno`'s document, past a UTF-8 byte-order mark on line 1 and leading
 * blanks, through tok, initialised here with handler h and state self. *blank = 1 for a blank
 * line (nothing parsed), else 0. LLMM_CLI_OK, or the error as "name:lineno:col: message" (a
 * callback's from cb). */
int llmm_cli_jline_parse(llmm_cli_json *tok, const llmm_cli_json_handler *h, void *self,
                         const llmm_cli_cb_error *cb, const char *name, const char *line,
                         size_t len, uint64_t lineno, int *blank, llmm_cli_error *err);

/* A non-finite number's literal ("NaN", "Infinity", "-Infinity"). */
const char *llmm_cli_nonfinite_name(double v);

/* Does the key k (len bytes, any byte, NUL included) equal the NUL-terminated s? Inline:
 * the readers ask it of every key they meet, and most keys differ at their first byte. s is
 * read no further than its NUL. */
static inline int llmm_cli_key_is(const char *k, size_t len, const char *s)
{
    size_t i;
    for (i = 0; i < len; i++)
        if (s[i] != k[i] || s[i] == '\0')
            return 0;
    return s[i] == '\0';
}
/* The index of k in names[0..n), or -1. */
int llmm_cli_key_find(const char *k, size_t len, const char *const *names, int n);
/* A key callback's answer: ids[i] for k = names[i], LLMM_CLI_JSON_SKIP for a key not named. */
int llmm_cli_key_id(const char *k, size_t len, const char *const *names, const int *ids, int n);

/* A latency statistic key in vLLM's or SGLang's spelling ("p99.9_ttft_ms", "mean_e2el_ms",
 * "median_e2e_latency_ms"): its statistic, quantile and metric (LLMM_CLI_FM_*); 0 if it is not
 * one. */
int llmm_cli_stat_key(const char *k, size_t len, int *stat, double *q, int *metric);

#endif /* LLMM_CLI_JREADER_H */
