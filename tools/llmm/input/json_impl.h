/* json_impl.h: what the two halves of the JSON tokenizer (json.h) share: json.c (values,
 * containers, numbers, the main loop) and json_string.c (strings). Not for readers. */
#ifndef LLMM_CLI_JSON_IMPL_H
#define LLMM_CLI_JSON_IMPL_H

#include "input/json.h"

/* What may come next (llmm_cli_json.state). */
enum {
    ST_TOP = 0,        /* a top-level value (or, after one, the end or, with multi, another) */
    ST_VALUE,          /* a value: after ':' or ',' in a list */
    ST_VALUE_OR_CLOSE, /* after '[' */
    ST_KEY,            /* a key: after ',' in an object */
    ST_KEY_OR_CLOSE,   /* after '{' */
    ST_COLON,          /* after a key */
    ST_AFTER           /* after a value inside a container: ',' or its closer */
};

/* The absolute offset of p in the chunk being fed. */
static inline uint64_t llmm_cli_json__offset(const llmm_cli_json *j, const unsigned char *p)
{
    return j->base + (uint64_t)(p - (const unsigned char *)j->chunk);
}

/* A syntax error: fmt with c shown ('x' or 0xNN; c < 0: fmt alone) in j->msg; returns
 * LLMM_CLI_JSON_SYNTAX. */
int llmm_cli_json__syntax(llmm_cli_json *j, const char *fmt, int c);
/* A string ended: a key (its callback) or a value (the scalar callback). */
int llmm_cli_json__string_done(llmm_cli_json *j, int is_key, const char *s, size_t n);
/* A string starting at *pp (its opening quote): read to its end, or kept as the partial token
 * when the chunk ends first. */
int llmm_cli_json__string_start(llmm_cli_json *j, const unsigned char **pp,
                                const unsigned char *end, int is_key);
/* Go on with a string from *pp to its closing quote: *done 1 and *pp after it, or *done 0 at
 * the chunk's end; another code on an error. */
int llmm_cli_json__scan_string(llmm_cli_json *j, const unsigned char **pp,
                               const unsigned char *end, int *done);

#endif /* LLMM_CLI_JSON_IMPL_H */
