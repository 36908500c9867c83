/* vllm.h: the reader of vLLM's and SGLang's benchmark result documents, shared by vllm.c (the
 * document: keys, per-request lists, the failure rule), vllm_figures.c (the tools' own
 * statistics), vllm_events.c (the llmm_events list) and vllm_driver.c (the reader calls and
 * the two dialects). */
#ifndef LLMM_CLI_VLLM_H
#define LLMM_CLI_VLLM_H

#include <stdint.h>

#include "input/jreader.h"

/* The keys of a document the reader acts on. */
enum vfield {
    VF_NONE = 0,
    /* per-request lists, in vLLM's order */
    VF_IN,
    VF_OUT,
    VF_TTFTS,
    VF_ITLS,
    VF_LAT,
    VF_START,
    VF_ERR,
    VF_EVENTS, /* llmm's extension */
    VF_LISTS,  /* (end of the lists) */
    /* scalars */
    VF_DURATION = VF_LISTS,
    VF_COMPLETED,
    VF_FAILED,
    VF_MAXCONC,
    VF_RATE,
    VF_BACKEND,
    VF_MODEL,  /* model_id */
    VF_FIGURE, /* a statistic or rate of the tool: vllm_figures.c */
    VF_MARK,   /* a key that only tells the layout */
    VF_COUNT
};

/* What the keys of a document told about its layout. */
enum {
    MARK_LEGACY = 1,  /* "request_goodput:" (benchmarks/benchmark_serving.py) */
    MARK_POOLING = 2, /* total_input_sequences, input_sequence_throughput, a pooling backend */
    MARK_SGLANG = 4,  /* dataset_name, total_output_tokens_retokenized, mean_e2e_latency_ms */
    MARK_NEW = 8      /* endpoint_type (vllm bench serve) */
};

extern const char *const llmm_cli_vllm_field_name[VF_LISTS];

/* The reader's labels of the containers it enters. */
enum { VT_DOC = 1, VT_LIST, VT_ROW, VT_EVENT };

/* The two tools that write this layout. */
typedef struct llmm_cli_vllm_dialect {
    const llmm_cli_tool *tool;
    int sglang;        /* SGLang: a request reported with 0 output tokens failed */
    const char *what;  /* "vLLM result", for messages */
} llmm_cli_vllm_dialect;

/* What the reader knows of one request of the current document. */
enum { SEEN_TTFT = 1, SEEN_OUT = 2, SEEN_ERR = 4 };
enum { ITL_NONE = 0, ITL_SENT, ITL_HELD }; /* ITLs delivered in the first pass, or held back */

typedef struct vreq {
    double ttft, lat, start, itl_sum;
    int64_t in_len, out_len;
    uint32_t itl_n;
    uint8_t err;  /* 0 none or "", 1 a non-empty error string */
    uint8_t nkind; /* the error string up to its first ':' (at most 23 bytes) */
    char kind[LLMM_CLI_FAILURE_KIND_MAX - 1];
    uint8_t seen;
    uint8_t itl;  /* ITL_* */
} vreq;

typedef struct llmm_cli_vllm {
    llmm_cli_jreader jr; /* first */
    const llmm_cli_vllm_dialect *d;
    /* the current document */
    vreq *req;
    size_t nreq, capreq;
    int seen_field[VF_LISTS];
    size_t col_len[VF_LISTS];
    int marks;
    llmm_cli_run run;
    int64_t stated_completed, stated_failed;
    char backend[48];
    char model[96];
    /* a statistic key waiting for its value (vllm_figures.c) */
    int fig_metric, fig_stat;
    double fig_q, fig_scale;
    const char *fig_unit;
    char fig_name[64];
    size_t fig_len;
    /* the whole input */
    uint8_t *failed; /* per request, for a second pass */
    size_t nfailed, capfailed;
    const uint8_t *replay;
    size_t replay_n, replay_base;
    int needs_replay;
    int layout_marks, docs_with_ttfts, docs_with_lat;
    /* the llmm_events entry being read */
    int ev_has_t;
    double ev_t, ev_value;
    char ev_type[64];
} llmm_cli_vllm;

/* The document's handler (vllm.c). */
extern const llmm_cli_json_handler llmm_cli_vllm_handler;

/* vllm_figures.c: a top-level key that is one of the tool's figures (or a layout mark):
 * VF_FIGURE / VF_MARK, else VF_NONE; the value follows in llmm_cli_vllm_figure_value. */
int llmm_cli_vllm_figure_key(llmm_cli_vllm *p, const char *k, size_t len);
int llmm_cli_vllm_figure_value(llmm_cli_vllm *p, const llmm_cli_json_value *v);

/* vllm_events.c: the llmm_events list; each returns a callback result. */
int llmm_cli_vllm_event_open(llmm_cli_vllm *p);
int llmm_cli_vllm_event_key(llmm_cli_vllm *p, const char *key, size_t len);
int llmm_cli_vllm_event_scalar(llmm_cli_vllm *p, llmm_cli_json_frame *f,
                               const llmm_cli_json_value *v);
int llmm_cli_vllm_event_close(llmm_cli_vllm *p, size_t idx);

#endif /* LLMM_CLI_VLLM_H */
