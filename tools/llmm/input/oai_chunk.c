/* oai_chunk.c: which containers of an OpenAI-compatible chunk are entered (oai_chunk.h). */
#include "input/oai_chunk.h"

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
