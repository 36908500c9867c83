/* jsonw.h: the tool's one JSON writer, over YAJL's generator (jsonw.c), for every --json
 * output: two-space indentation, numbers in the shortest form that reads back as the same
 * double, non-finite numbers as null, a string that is not UTF-8 (a file name) with '?' for
 * its non-ASCII bytes. Errors are sticky: the first failed call marks the writer bad and
 * llmm_cli_jw_finish() reports it. */
#ifndef LLMM_CLI_JSONW_H
#define LLMM_CLI_JSONW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct llmm_cli_jw {
    void *g; /* yajl_gen */
    int bad;
} llmm_cli_jw;

int llmm_cli_jw_open(llmm_cli_jw *w); /* 0, or -1 out of memory */
/* The same for a document on one line, without indentation (a JSONL line). */
int llmm_cli_jw_open_line(llmm_cli_jw *w);
void llmm_cli_jw_key(llmm_cli_jw *w, const char *k);
void llmm_cli_jw_str(llmm_cli_jw *w, const char *s);
void llmm_cli_jw_num(llmm_cli_jw *w, double v);
void llmm_cli_jw_i64(llmm_cli_jw *w, int64_t v);
void llmm_cli_jw_u64(llmm_cli_jw *w, uint64_t v);
void llmm_cli_jw_bool(llmm_cli_jw *w, int v);
void llmm_cli_jw_null(llmm_cli_jw *w);
void llmm_cli_jw_map(llmm_cli_jw *w);      /* { */
void llmm_cli_jw_map_end(llmm_cli_jw *w);  /* } */
void llmm_cli_jw_arr(llmm_cli_jw *w);      /* [ */
void llmm_cli_jw_arr_end(llmm_cli_jw *w);  /* ] */
/* "key": value in one call */
void llmm_cli_jw_kv(llmm_cli_jw *w, const char *k, double v);
void llmm_cli_jw_kv_u64(llmm_cli_jw *w, const char *k, uint64_t v);
void llmm_cli_jw_kv_i64(llmm_cli_jw *w, const char *k, int64_t v);
void llmm_cli_jw_kv_str(llmm_cli_jw *w, const char *k, const char *v);
void llmm_cli_jw_kv_bool(llmm_cli_jw *w, const char *k, int v);
/* "key": value for each of n named numbers, in order (LLMM_CLI_JW_NUMS counts them). */
typedef struct llmm_cli_jw_pair {
    const char *key;
    double v;
} llmm_cli_jw_pair;
void llmm_cli_jw_nums(llmm_cli_jw *w, const llmm_cli_jw_pair *p, size_t n);
/* "key": {those numbers}; without key (NULL), {those numbers} as a list element. */
void llmm_cli_jw_num_map(llmm_cli_jw *w, const char *key, const llmm_cli_jw_pair *p, size_t n);

#define LLMM_CLI_JW_PAIRS(...) (const llmm_cli_jw_pair[]){__VA_ARGS__}
#define LLMM_CLI_JW_NPAIRS(...) (sizeof LLMM_CLI_JW_PAIRS(__VA_ARGS__) / sizeof(llmm_cli_jw_pair))
#define LLMM_CLI_JW_NUMS(w, ...)                                                               \
    llmm_cli_jw_nums((w), LLMM_CLI_JW_PAIRS(__VA_ARGS__), LLMM_CLI_JW_NPAIRS(__VA_ARGS__))
#define LLMM_CLI_JW_NUM_MAP(w, key, ...)                                                       \
    llmm_cli_jw_num_map((w), (key), LLMM_CLI_JW_PAIRS(__VA_ARGS__),                            \
                        LLMM_CLI_JW_NPAIRS(__VA_ARGS__))
/* "key": { and "key": [ */
void llmm_cli_jw_key_map(llmm_cli_jw *w, const char *k);
void llmm_cli_jw_key_arr(llmm_cli_jw *w, const char *k);
/* Write the document to out and free the writer; 0 or -1. */
int llmm_cli_jw_finish(llmm_cli_jw *w, FILE *out);
/* The same followed by a newline: LLMM_CLI_OK, or LLMM_CLI_EIO. */
int llmm_cli_jw_finish_line(llmm_cli_jw *w, FILE *out);
/* Free the writer without writing anything. */
void llmm_cli_jw_discard(llmm_cli_jw *w);

#endif /* LLMM_CLI_JSONW_H */
