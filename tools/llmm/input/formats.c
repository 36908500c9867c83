/* formats.c: the list of readers, `--format` names and the detection of a format from an
 * input's content (input.h). A file's name never decides: SGLang writes JSON Lines named
 * .jsonl that are also plain JSON documents, and every tool's files end in .json. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "input/input.h"

/* Every reader, in the order `--format` lists them and detection breaks ties. */
static const llmm_cli_reader *const readers[] = {
    &llmm_cli_reader_vllm,
    &llmm_cli_reader_sglang,
    &llmm_cli_reader_genai_perf,
    &llmm_cli_reader_genai_perf_summary,
    &llmm_cli_reader_guidellm,
    &llmm_cli_reader_llmperf,
    &llmm_cli_reader_llmperf_summary,
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

const char *llmm_cli_format_names(char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "auto");
    for (size_t i = 0; i < NREADERS && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, ", %s", readers[i]->name);
    return buf;
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

/* Files the tools write that hold no per-request data and that no reader takes: what to give
 * instead. */
static const char *known_other(const llmm_cli_sniff *s)
{
    if (s->kind == '[' && llmm_cli_sniff_has(s, "[]/benchmark") &&
        llmm_cli_sniff_has(s, "[]/metric"))
        return "vLLM's PyTorch-benchmark side file (*.pytorch.json); give the result file "
               "it was written next to";
    return NULL;
}

/* What the sniffed start shows, for the message. */
static void seen(const llmm_cli_sniff *s, char *out, size_t cap)
{
    size_t n;
    if (s->kind == 't') {
        snprintf(out, cap, "text beginning \"%s\"", s->line);
        return;
    }
    if (s->ntop == 0) {
        snprintf(out, cap, "a JSON %s without keys", s->kind == '{' ? "object" : "list");
        return;
    }
    n = (size_t)snprintf(out, cap, "a JSON %s with keys", s->kind == '{' ? "object" : "list of objects");
    for (size_t i = 0; i < s->ntop && i < 8 && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s '%s'", i ? "," : "", s->top[i]);
    if (s->ntop > 8 && n < cap)
        snprintf(out + n, cap - n, " and %zu more", s->ntop - 8);
}

static int refuse(const char *name, const llmm_cli_sniff *s, llmm_cli_error *err)
{
    char what[512], tried[1400];
    const char *other = known_other(s);
    size_t n = 0;
    if (s->kind == 0)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: empty input", name);
    if (s->json_error) /* where the JSON breaks first: the likely fault */
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s:%s (no reader takes an input that is not "
                                                   "JSON there)",
                             name, s->msg);
    seen(s, what, sizeof what);
    if (other)
        return llmm_cli_fail(err, LLMM_CLI_EPARSE, "%s: this is %s (it holds %s)", name, other,
                             what);
    for (size_t i = 0; i < NREADERS && n < sizeof tried; i++)
        n += (size_t)snprintf(tried + n, sizeof tried - n, "%s%s (%s)", i ? "; " : "",
                              readers[i]->name, readers[i]->looks_for);
    return llmm_cli_fail(err, LLMM_CLI_EPARSE,
                         "%s: no reader takes this input: it holds %s. Formats tried: %s. "
                         "Name one with --format",
                         name, what, tried);
}

int llmm_cli_format_detect(const char *name, const char *head, size_t len, int whole,
                           llmm_cli_format *out, llmm_cli_error *err)
{
    llmm_cli_sniff s;
    int best = 0, rc = llmm_cli_sniff_head(head, len, whole, &s, err);
    if (rc != LLMM_CLI_OK)
        return rc;
    if (!known_other(&s)) {
        for (size_t i = 0; i < NREADERS; i++) {
            int score = readers[i]->detect(&s);
            if (score > best) {
                best = score;
                *out = readers[i]->fmt;
            }
        }
    }
    if (best == 0)
        rc = refuse(name, &s, err);
    llmm_cli_sniff_free(&s);
    return rc;
}
