/* input.h: the benchmark-trace formats and how a file reaches its reader.
 *
 * Each format has one reader (an llmm_cli_reader: a streaming parser fed in chunks of any
 * size) in its own file(s) of this folder; formats.c lists them, and `--format`, the guess
 * from a file name and the report's input table follow that list. Adding a format: a value
 * below, its reader file, one entry in formats.c.
 */
#ifndef LLMM_CLI_INPUT_H
#define LLMM_CLI_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "input/record.h"

typedef enum llmm_cli_format {
    LLMM_CLI_FORMAT_AUTO = 0,
    LLMM_CLI_FORMAT_VLLM = 1, /* vllm bench serve --save-result --save-detailed JSON */
    LLMM_CLI_FORMAT_CSV = 2,  /* header line, then one request per line */
    LLMM_CLI_FORMAT_JSONL = 3 /* one JSON object per line */
} llmm_cli_format;

/* The streaming parser of one format. A reader object reads one input: create it, feed it
 * the bytes in chunks, finish it, read its statistics, destroy it. */
typedef struct llmm_cli_reader {
    llmm_cli_format fmt;
    const char *name;      /* `--format` value and the report's "[vllm]" */
    const char *suffix[3]; /* file-name endings (any case) that select the format */
    const void *detail;    /* what the calls need to know of the format (create gets rd) */
    /* replay: NULL for a first pass; for a second pass, the flags replay() returned after the
     * first (replay_n of them). `name` labels error messages and must outlive the object. */
    int (*create)(const struct llmm_cli_reader *rd, const char *name, const llmm_cli_sink *sink,
                  const uint8_t *replay, size_t replay_n, void **out, llmm_cli_error *err);
    int (*feed)(void *p, const char *buf, size_t len, llmm_cli_error *err);
    /* The end of the input; then *info (when not NULL) gets what was read. */
    int (*finish)(void *p, llmm_cli_input_info *info, llmm_cli_error *err);
    /* NULL for a format read in one pass. Else, after a finished first pass: NULL, or the
     * failure flag of every request of the input when some request's ITLs went to the sink
     * before its failure was known; then the sink's itl_reset and a second pass (create with
     * these flags) deliver the ITLs of the successful requests and nothing else. */
    const uint8_t *(*replay)(const void *p, size_t *n);
    void (*destroy)(void *p); /* NULL is fine */
} llmm_cli_reader;

extern const llmm_cli_reader llmm_cli_reader_vllm;  /* vllm_driver.c */
extern const llmm_cli_reader llmm_cli_reader_csv;   /* csv.c */
extern const llmm_cli_reader llmm_cli_reader_jsonl; /* jsonl.c */

/* The reader of a format (NULL for AUTO). */
const llmm_cli_reader *llmm_cli_reader_for(llmm_cli_format f);
const char *llmm_cli_format_name(llmm_cli_format f);
int llmm_cli_format_parse(const char *s, llmm_cli_format *out);
/* Guess the format from the file name (the readers' suffixes) and, failing that, from the
 * first bytes of the content. */
llmm_cli_format llmm_cli_format_guess(const char *name, const char *head, size_t len);

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
/* A file (or "-" for stdin) read in chunks, its format guessed when fmt is AUTO (the format
 * read goes to *used), with a progress line on a terminal for large inputs. */
int llmm_cli_read_file(const char *path, llmm_cli_format fmt, const llmm_cli_sink *sink,
                       llmm_cli_input_info *info, llmm_cli_format *used, llmm_cli_error *err);

#endif /* LLMM_CLI_INPUT_H */
