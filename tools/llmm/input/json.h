/* json.h: what the JSON readers (vLLM, JSONL) share on top of YAJL. */
#ifndef LLMM_CLI_JSON_H
#define LLMM_CLI_JSON_H

#include <stddef.h>

#include <yajl/yajl_parse.h>

/* kinds of scalar a YAJL callback delivers */
enum { K_NULL, K_BOOL, K_NUMBER, K_STRING };

/* "null", "a boolean", "a number", "a string", for messages. */
const char *llmm_cli_json_kind_name(int kind);

/* What a JSON reader handles. Its state begins with a pointer to these, and it hands YAJL
 * llmm_cli_json_callbacks with the state as context: YAJL's eleven events become three. Each
 * returns 1 to go on, or 0 to stop YAJL (after recording the error). */
typedef struct llmm_cli_json_events {
    /* A scalar of kind K_*: a number's text (text, len), a boolean's value (b), a string's
     * bytes (text, len). */
    int (*scalar)(void *self, int kind, int b, const char *text, size_t len);
    /* An object's key. */
    int (*key)(void *self, const char *k, size_t len);
    /* An object (map) or a list opens (open 1) or closes (open 0). */
    int (*container)(void *self, int open, int map);
} llmm_cli_json_events;

extern const yajl_callbacks llmm_cli_json_callbacks;

/* The first line of YAJL's message for the parse error of h into msg ("invalid JSON" when
 * YAJL has none). */
void llmm_cli_json_error(yajl_handle h, char *msg, size_t cap);

#endif /* LLMM_CLI_JSON_H */
