/* formats.c: the list of readers, `--format` names and the format guess (input.h). */
#include <string.h>
#include <strings.h>

#include "input/input.h"

/* Every reader, in the order `--format` lists them. */
static const llmm_cli_reader *const readers[] = {
    &llmm_cli_reader_vllm,
    &llmm_cli_reader_csv,
    &llmm_cli_reader_jsonl,
};

#define NREADERS (sizeof readers / sizeof readers[0])

const llmm_cli_reader *llmm_cli_reader_for(llmm_cli_format f)
{
    for (size_t i = 0; i < NREADERS; i++)
        if (readers[i]->fmt == f)
            return readers[i];
    return NULL;
}

const char *llmm_cli_format_name(llmm_cli_format f)
{
    const llmm_cli_reader *r = llmm_cli_reader_for(f);
    return r ? r->name : "auto";
}

int llmm_cli_format_parse(const char *s, llmm_cli_format *out)
{
    if (strcasecmp(s, "auto") == 0) {
        *out = LLMM_CLI_FORMAT_AUTO;
        return LLMM_CLI_OK;
    }
    for (size_t i = 0; i < NREADERS; i++) {
        if (strcasecmp(s, readers[i]->name) == 0) {
            *out = readers[i]->fmt;
            return LLMM_CLI_OK;
        }
    }
    return LLMM_CLI_EUSAGE;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

/* A JSON object whose first line closes by itself and names a generic column is JSONL; any
 * other leading '{' is a vLLM document; anything else is CSV. */
static llmm_cli_format guess_content(const char *head, size_t len)
{
    size_t i = 0, line_end;
    if (len >= 3 && (unsigned char)head[0] == 0xEF && (unsigned char)head[1] == 0xBB &&
        (unsigned char)head[2] == 0xBF)
        i = 3;
    while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
        i++;
    if (i >= len || head[i] != '{')
        return LLMM_CLI_FORMAT_CSV;
    for (line_end = i; line_end < len && head[line_end] != '\n'; line_end++)
        ;
    for (size_t j = i; j + 8 <= line_end; j++) {
        if (memcmp(head + j, "\"ttft_s\"", 8) == 0)
            return LLMM_CLI_FORMAT_JSONL;
    }
    return LLMM_CLI_FORMAT_VLLM;
}

llmm_cli_format llmm_cli_format_guess(const char *name, const char *head, size_t len)
{
    for (size_t i = 0; name && i < NREADERS; i++)
        for (size_t k = 0; k < 3 && readers[i]->suffix[k]; k++)
            if (ends_with(name, readers[i]->suffix[k]))
                return readers[i]->fmt;
    return guess_content(head, len);
}
