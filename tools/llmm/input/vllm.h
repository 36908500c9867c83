/* vllm.h: the state of the vLLM result reader, shared by vllm.c (the per-request lists),
 * vllm_events.c (the llmm_events list) and vllm_driver.c (YAJL, positions, the reader
 * calls). */
#ifndef LLMM_CLI_VLLM_H
#define LLMM_CLI_VLLM_H

#include <stdint.h>

#include "input/input.h"
#include "input/json.h"

enum field {
    F_NONE = 0,
    F_SKIP,
    F_TTFTS,
    F_ITLS,
    F_LAT,
    F_START,
    F_IN,
    F_OUT,
    F_ERR,
    F_DURATION,
    F_FAILED,
    F_EVENTS,
    F_COUNT
};

extern const char *const llmm_cli_vllm_field_name[F_COUNT];

enum { SEEN_TTFT = 1, SEEN_LAT = 2, SEEN_START = 4, SEEN_ERR = 8, SEEN_ITL = 16 };

typedef struct vreq {
    double ttft, lat, start, itl_sum;
    int64_t in_len, out_len;
    uint32_t itl_n;
    uint8_t failed;
    uint8_t tentative; /* ITLs delivered before the error entry was known */
    uint8_t seen;
} vreq;

typedef struct llmm_cli_vllm {
    const llmm_cli_json_events *events; /* first: the YAJL callbacks' context (json.h) */
    const char *name;
    llmm_cli_sink sink;
    yajl_handle h;
    llmm_cli_cb_error cb; /* reported with its position after yajl returns */
    /* position of the chunk being parsed */
    const char *chunk;
    uint64_t chunk_offset; /* bytes before the chunk */
    uint64_t line;         /* 1-based line at the start of the chunk */
    uint64_t line_start;   /* absolute offset where that line starts */
    /* structure */
    size_t depth, skip;
    enum field field;
    size_t idx;
    int seen_field[F_COUNT];
    size_t col_len[F_COUNT];
    /* the current document */
    vreq *req;
    size_t nreq, capreq;
    double duration, file_failed;
    /* the whole input */
    uint8_t *failed;
    size_t nfailed, capfailed;
    const uint8_t *replay;
    size_t replay_n, replay_base;
    int needs_replay;
    int saw_value; /* any JSON token at all */
    /* the llmm_events entry being read */
    int ev_key; /* 0 none / skip, 1 t, 2 type, 3 value */
    int ev_has_t;
    double ev_t, ev_value;
    char ev_type[64];
    llmm_cli_input_info info;
} llmm_cli_vllm;

/* Record an error raised inside a YAJL callback (returns 0, which stops YAJL). */
int llmm_cli_vllm_fail(llmm_cli_vllm *p, int code, const char *fmt, ...) LLMM_CLI_PRINTF(3, 4);

/* The llmm_events list (vllm_events.c): each returns a YAJL callback result. */
int llmm_cli_vllm_event_start(llmm_cli_vllm *p);
int llmm_cli_vllm_event_key(llmm_cli_vllm *p, const unsigned char *key, size_t len);
int llmm_cli_vllm_event_scalar(llmm_cli_vllm *p, int kind, double v, const unsigned char *s,
                               size_t len);
int llmm_cli_vllm_event_end(llmm_cli_vllm *p);

extern const llmm_cli_json_events llmm_cli_vllm_events; /* vllm.c */

#endif /* LLMM_CLI_VLLM_H */
