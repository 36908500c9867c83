/* json.h: what the JSON readers (vLLM, JSONL) share on top of YAJL. */
#ifndef LLMM_CLI_JSON_H
#define LLMM_CLI_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <yajl/yajl_parse.h>

#include "common/error.h"

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

/* Where the document of a JSONL line starts: past a UTF-8 byte-order mark on line 1 and
 * leading blanks; len when the line is blank. */
size_t llmm_cli_json_line_start(const char *line, size_t len, uint64_t lineno);

/* Parse line[i .. len) as one JSON document, with the reader state self (whose first member
 * points to its events) and cb, where its callbacks record their errors: LLMM_CLI_OK, or the
 * error as "name:lineno:column: message". */
int llmm_cli_json_parse_line(void *self, const llmm_cli_cb_error *cb, const char *name,
                             const char *line, size_t i, size_t len, uint64_t lineno,
                             llmm_cli_error *err);

#endif /* LLMM_CLI_JSON_H */
