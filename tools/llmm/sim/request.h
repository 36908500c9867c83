/* request.h: the JSON body of a completions or chat request, read with YAJL's tree
 * (request.c): what the simulator uses of it. */
#ifndef LLMM_CLI_SIM_REQUEST_H
#define LLMM_CLI_SIM_REQUEST_H

#include <stddef.h>
#include <stdint.h>

typedef enum llmm_sim_endpoint {
    LLMM_SIM_COMPLETIONS, /* POST /v1/completions */
    LLMM_SIM_CHAT,        /* POST /v1/chat/completions */
} llmm_sim_endpoint;

#define LLMM_SIM_MAX_TOKENS_LIMIT 1000000u

typedef struct llmm_sim_body {
    char model[512];        /* JSON-escaped, ready to print between quotes */
    uint64_t prompt_tokens; /* token IDs given, else whitespace-separated words (at least 1) */
    uint32_t max_tokens;    /* 0: not given */
    int64_t max_token_id;   /* the largest token ID of the prompt, -1 for text */
    int ignore_eos, stream, include_usage;
} llmm_sim_body;

/* Read the NUL-terminated JSON body json (YAJL may not change it, but it must end in NUL).
 * model_default (plain text) stands for a missing "model". 0, or -1 with a message in err. */
int llmm_sim_body_parse(const char *json, llmm_sim_endpoint ep, const char *model_default,
                        llmm_sim_body *b, char *err, size_t errcap);

/* The number of maximal runs of non-whitespace bytes in s. */
uint64_t llmm_sim_count_words(const char *s);

/* s escaped as the inside of a JSON string into out[0, cap); -1 when it does not fit. */
int llmm_sim_json_escape(const char *s, char *out, size_t cap);

#endif /* LLMM_CLI_SIM_REQUEST_H */
