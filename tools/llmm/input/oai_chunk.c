/* oai_chunk.c: which containers of an OpenAI-compatible chunk are entered, and its usage
 * object's token counts (oai_chunk.h). */
#include "input/oai_chunk.h"

#include <string.h>

#include "input/jreader.h"

int llmm_cli_oai_open(const llmm_cli_json_frame *parent, int map)
{
    if (!parent)
        return map ? LLMM_CLI_OAI_ROOT : LLMM_CLI_JSON_SKIP;
    if (parent->type == LLMM_CLI_OAI_ROOT && parent->key == LLMM_CLI_OAI_K_CHOICES && !map)
        return LLMM_CLI_OAI_CHOICES;
    if (parent->type == LLMM_CLI_OAI_ROOT && parent->key == LLMM_CLI_OAI_K_USAGE && map)
        return LLMM_CLI_OAI_USAGE;
    if (parent->type == LLMM_CLI_OAI_CHOICES && map && parent->idx == 0)
        return LLMM_CLI_OAI_CHOICE;
    if (parent->type == LLMM_CLI_OAI_CHOICE && parent->key == LLMM_CLI_OAI_K_DELTA && map)
        return LLMM_CLI_OAI_DELTA;
    return LLMM_CLI_JSON_SKIP;
}

int llmm_cli_oai_delta_text(const char *k, size_t len)
{
    /* length first: this runs for every key of every chunk of `llmm bench` */
    switch (len) {
    case 7:
        return memcmp(k, "content", 7) == 0;
    case 9:
        return memcmp(k, "reasoning", 9) == 0;
    case 17:
        return memcmp(k, "reasoning_content", 17) == 0;
    default:
        return 0;
    }
}

int llmm_cli_oai_usage_key(const char *k, size_t len)
{
    static const char *const usage[] = {"completion_tokens", "prompt_tokens"};
    static const int usage_id[] = {LLMM_CLI_OAI_K_OUT_TOK, LLMM_CLI_OAI_K_IN_TOK};
    return llmm_cli_key_id(k, len, usage, usage_id, 2);
}

void llmm_cli_oai_usage_scalar(const llmm_cli_json_frame *f, const llmm_cli_json_value *v,
                               int64_t *out, int64_t *in)
{
    int64_t n;
    if (!llmm_cli_json_int(v, &n))
        return;
    if (f->key == LLMM_CLI_OAI_K_OUT_TOK)
        *out = n;
    else if (f->key == LLMM_CLI_OAI_K_IN_TOK)
        *in = n;
}
