/* input.h: the benchmark-trace formats and how a file reaches its reader.
 *
 * Each format has one reader (an llmm_cli_reader: a streaming parser fed in chunks of any
 * size) in its own file(s) of this folder; formats.c lists them, and `--format`, the
 * detection by content and the report's input table follow that list. Adding a format: a
 * value below, its reader file, one entry in formats.c.
 */
#ifndef LLMM_CLI_INPUT_H
#define LLMM_CLI_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "input/record.h"

typedef enum llmm_cli_format {
    LLMM_CLI_FORMAT_AUTO = 0,
    LLMM_CLI_FORMAT_VLLM = 1,       /* vllm bench serve / benchmark_serving.py result JSON */
    LLMM_CLI_FORMAT_CSV = 2,        /* header line, then one request per line */
    LLMM_CLI_FORMAT_JSONL = 3,      /* one JSON object per line */
    LLMM_CLI_FORMAT_SGLANG = 4,     /* python -m sglang.bench_serving result JSON / JSONL */
    LLMM_CLI_FORMAT_GENAI_PERF = 5, /* perf_analyzer's profile_export.json */
    LLMM_CLI_FORMAT_GENAI_PERF_SUMMARY = 6, /* genai-perf's profile_export_genai_perf.json */
    LLMM_CLI_FORMAT_GUIDELLM = 7,           /* GuideLLM benchmarks.json */
    LLMM_CLI_FORMAT_LLMPERF = 8,            /* LLMPerf *_individual_responses.json */
    LLMM_CLI_FORMAT_LLMPERF_SUMMARY = 9     /* LLMPerf *_summary.json */
} llmm_cli_format;

/* What the start of an input shows (sniff.c), for the format guess: the key paths of its
 * first JSON value, a list's elements written "[]" ("/completed", "/experiments[]/requests",
 * "[]/ttft_s"), short string values as "/benchmarks[]/type_=generative_benchmark", or the
 * first line of a text. */
typedef struct llmm_cli_sniff {
    int kind;             /* '{' or '[' (a JSON object or list), 't' text, 0 empty */
    int json_error;       /* the start is not JSON: msg */
    char msg[192];
    size_t npaths;
    char (*paths)[80];    /* LLMM_CLI_SNIFF_PATHS of them */
    size_t ntop;          /* keys of the first object (or of the first object in a list) */
    char top[8][40];      /* the first 8 of them, for messages */
    char line[96];        /* text: its first line that is not a comment */
} llmm_cli_sniff;

#define LLMM_CLI_SNIFF_PATHS 512

/* Sniff len bytes of an input's start (head may end anywhere unless whole: the whole input). */
int llmm_cli_sniff_head(const char *head, size_t len, int whole, llmm_cli_sniff *s,
                        llmm_cli_error *err);
void llmm_cli_sniff_free(llmm_cli_sniff *s);
/* Does the sniffed start have this path ("/a[]/b", "/a=value")? */
int llmm_cli_sniff_has(const llmm_cli_sniff *s, const char *path);

/* The streaming parser of one format. A reader object reads one input: create it, feed it
 * the bytes in chunks, finish it, read its statistics, destroy it. */
typedef struct llmm_cli_reader {
    llmm_cli_format fmt;
    const char *name;      /* `--format` value and the report's "[vllm]" */
    const char *looks_for; /* what its content looks like, for the message when no reader
                              accepts an input */
    /* How well the sniffed start matches: 0 not at all, 1 it could be, 2 it is, 3 it is and
     * nothing else is (the highest wins; ties go to the first in formats.c's list). */
    int (*detect)(const llmm_cli_sniff *s);
    const void *detail;    /* what the calls need to know of the format (create gets rd) */
    /* replay: NULL for a first pass; for a second pass, the flags replay() returned after the
     * first (replay_n of them). `name` labels error messages and must outlive the object. */
    int (*create)(const struct llmm_cli_reader *rd, const char *name, const llmm_cli_sink *sink,
                  const uint8_t *replay, size_t replay_n, void **out, llmm_cli_error *err);
    int (*feed)(void *p, const char *buf, size_t len, llmm_cli_error *err);
    /* The end of the input; then *info (when not NULL) gets what was read. */
    int (*finish)(void *p, llmm_cli_input_info *info, llmm_cli_error *err);
    /* NULL for a format read in one pass. Else, after a finished first pass: NULL, or the
     * failure flag of every request of the input when the first pass delivered ITLs of a
     * request that turned out to have failed, or held back those of one that succeeded; then
     * the sink's itl_reset and a second pass (create with these flags) deliver the ITLs of the
     * successful requests and nothing else. */
    const uint8_t *(*replay)(const void *p, size_t *n);
    void (*destroy)(void *p); /* NULL is fine */
} llmm_cli_reader;

extern const llmm_cli_reader llmm_cli_reader_vllm;       /* vllm_driver.c */
extern const llmm_cli_reader llmm_cli_reader_sglang;     /* vllm_driver.c */
extern const llmm_cli_reader llmm_cli_reader_csv;        /* csv.c */
extern const llmm_cli_reader llmm_cli_reader_jsonl;      /* jsonl.c */
extern const llmm_cli_reader llmm_cli_reader_genai_perf; /* genai_perf.c */
extern const llmm_cli_reader llmm_cli_reader_genai_perf_summary; /* genai_perf_summary.c */
extern const llmm_cli_reader llmm_cli_reader_guidellm;   /* guidellm.c */
extern const llmm_cli_reader llmm_cli_reader_llmperf;    /* llmperf.c */
extern const llmm_cli_reader llmm_cli_reader_llmperf_summary; /* llmperf_summary.c */

/* The reader of a format (NULL for AUTO). */
const llmm_cli_reader *llmm_cli_reader_for(llmm_cli_format f);
const char *llmm_cli_format_name(llmm_cli_format f);
int llmm_cli_format_parse(const char *s, llmm_cli_format *out);
/* The format names `--format` takes, "auto, vllm, ...", into buf (returned). */
const char *llmm_cli_format_names(char *buf, size_t cap);
/* The format of an input from its first len bytes (never from its name; whole: they are all
 * of it): LLMM_CLI_OK and *out, or LLMM_CLI_EPARSE with a message naming what was seen and
 * every format tried. */
int llmm_cli_format_detect(const char *name, const char *head, size_t len, int whole,
                           llmm_cli_format *out, llmm_cli_error *err);

/* Where an input's bytes come from. */
typedef struct llmm_cli_source {
    void *user;
    /* The next *len bytes at *chunk; *len == 0 at the end. */
    int (*next)(void *user, const char **chunk, size_t *len, llmm_cli_error *err);
    /* Back to the first byte for a second pass: LLMM_CLI_OK, or another code when the input
     * cannot be read twice (a pipe). */
    int (*rewind)(void *user);
} llmm_cli_source;

/* One input through the reader of fmt (not AUTO), with the second pass when the reader asks
 * for one and the source can rewind (else a note to the sink). */
int llmm_cli_read_source(llmm_cli_format fmt, const char *name, const llmm_cli_source *src,
                         const llmm_cli_sink *sink, llmm_cli_input_info *info,
                         llmm_cli_error *err);
/* The same on a buffer (tests and fuzzers). */
int llmm_cli_parse_buffer(llmm_cli_format fmt, const char *buf, size_t len, const char *name,
                          const llmm_cli_sink *sink, llmm_cli_input_info *info,
                          llmm_cli_error *err);
/* A file (or "-" for stdin) read in chunks, its format detected from its content when fmt is
 * AUTO (the format read goes to *used), with a progress line on a terminal for large
 * inputs. */
int llmm_cli_read_file(const char *path, llmm_cli_format fmt, const llmm_cli_sink *sink,
                       llmm_cli_input_info *info, llmm_cli_format *used, llmm_cli_error *err);

#endif /* LLMM_CLI_INPUT_H */
