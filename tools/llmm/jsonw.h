/* jsonw.h: a thin JSON writer over YAJL's generator (jsonw.c) for the subcommands' --json
 * outputs. Errors are sticky: the first failed call marks the writer bad and
 * llmm_cli_jw_finish() reports it. Non-finite numbers are written as null. */
#ifndef LLMM_CLI_JSONW_H
#define LLMM_CLI_JSONW_H

#include <stdint.h>
#include <stdio.h>

typedef struct llmm_cli_jw {
    void *g; /* yajl_gen */
    int bad;
} llmm_cli_jw;

int llmm_cli_jw_open(llmm_cli_jw *w); /* 0, or -1 out of memory */
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
/* key + number in one call */
void llmm_cli_jw_kv(llmm_cli_jw *w, const char *k, double v);
/* Write the document to out and free the writer; 0 or -1. */
int llmm_cli_jw_finish(llmm_cli_jw *w, FILE *out);
/* Free the writer without writing anything. */
void llmm_cli_jw_discard(llmm_cli_jw *w);

#endif /* LLMM_CLI_JSONW_H */
