/* sniff.c: what the start of an input shows, for the detection of its format (input.h).
 *
 * A JSON input's first value is tokenized as far as the head goes; every key path down to
 * four levels is kept once ("/benchmarks[]/metrics"), with the short string values
 * ("/benchmarks[]/type_=generative_benchmark"). Lists are looked into through their first
 * two elements only, so the work stays small whatever the head holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/input.h"
#include "input/json.h"
#include "input/lines.h"

#define LEVELS 4 /* containers looked into */

typedef struct sniffer {
    llmm_cli_json tok; /* first, large */
    llmm_cli_sniff *s;
    char path[LEVELS + 1][80];  /* the path of each open container (index: its depth) */
    char key[LEVELS + 1][40];   /* the current key of each open object */
    int done;                   /* the first value ended */
} sniffer;

static void add_path(llmm_cli_sniff *s, const char *p)
{
    for (size_t i = 0; i < s->npaths; i++)
        if (strcmp(s->paths[i], p) == 0)
            return;
    if (s->npaths < LLMM_CLI_SNIFF_PATHS)
        snprintf(s->paths[s->npaths++], sizeof s->paths[0], "%s", p);
}

/* Printable ASCII only, so that a message can show it. */
static void clean(char *t)
{
    for (; *t; t++)
        if ((unsigned char)*t < 0x20 || (unsigned char)*t >= 0x7f)
            *t = '?';
}

static int on_key(void *self, llmm_cli_json_frame *f, const char *k, size_t len)
{
    sniffer *z = self;
    int depth = f->type;
    char full[160];
    snprintf(z->key[depth], sizeof z->key[0], "%.*s", (int)(len > 39 ? 39 : len), k);
    clean(z->key[depth]);
    snprintf(full, sizeof full, "%s/%s", z->path[depth], z->key[depth]);
    add_path(z->s, full);
    if ((depth == 1 && z->s->kind == '{') || (depth == 2 && z->s->kind == '[')) {
        if (z->s->ntop < 8)
            snprintf(z->s->top[z->s->ntop], sizeof z->s->top[0], "%s", z->key[depth]);
        z->s->ntop++;
    }
    return depth | LLMM_CLI_JSON_TEXT;
}

static int on_open(void *self, llmm_cli_json_frame *parent, int map)
{
    sniffer *z = self;
    int depth = parent ? parent->type + 1 : 1;
    if (!parent) {
        if (z->done)
            return LLMM_CLI_JSON_STOP;
        z->s->kind = map ? '{' : '[';
        z->path[1][0] = '\0';
        return 1;
    }
    if (depth > LEVELS || (!parent->map && parent->idx >= 2))
        return LLMM_CLI_JSON_SKIP;
    {
        char p[sizeof z->path[0]];
        if (parent->map)
            snprintf(p, sizeof p, "%s/%s", z->path[depth - 1], z->key[depth - 1]);
        else
            snprintf(p, sizeof p, "%s[]", z->path[depth - 1]);
        memcpy(z->path[depth], p, sizeof p);
    }
    return depth;
}

static int on_scalar(void *self, llmm_cli_json_frame *f, const llmm_cli_json_value *v)
{
    sniffer *z = self;
    if (!f)
        return !z->done && (z->done = 1, 0); /* a lone scalar: nothing to sniff */
    if (f->map && v->kind == K_STRING && v->text && v->len < 40) {
        char full[200];
        snprintf(full, sizeof full, "%s/%s=%.*s", z->path[f->type], z->key[f->type],
                 (int)v->len, v->text);
        clean(full);
        add_path(z->s, full);
    }
    return 1;
}

static int on_close(void *self, llmm_cli_json_frame *f)
{
    sniffer *z = self;
    if (f->type == 1)
        z->done = 1;
    return 1;
}

static const llmm_cli_json_handler handler = {on_key, on_open, on_scalar, on_close};

/* The first line of a text that is neither blank nor a '#' comment. */
static void first_line(const char *h, size_t len, char *out, size_t cap)
{
    size_t n;
    const char *l = llmm_cli_first_line(h, len, &n);
    out[0] = '\0';
    if (l) {
        snprintf(out, cap, "%.*s", (int)(n > cap - 1 ? cap - 1 : n), l);
        clean(out);
    }
}

int llmm_cli_sniff_head(const char *head, size_t len, int whole, llmm_cli_sniff *s,
                        llmm_cli_error *err)
{
    size_t i = 0;
    memset(s, 0, sizeof *s);
    if (len >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
        i++;
    if (i == len)
        return LLMM_CLI_OK; /* empty */
    if (head[i] != '{' && head[i] != '[') {
        s->kind = 't';
        first_line(head + i, len - i, s->line, sizeof s->line);
        return LLMM_CLI_OK;
    }
    s->paths = calloc(LLMM_CLI_SNIFF_PATHS, sizeof *s->paths);
    {
        sniffer *z = calloc(1, sizeof *z);
        int st;
        if (!z || !s->paths) {
            free(z);
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
        }
        z->s = s;
        llmm_cli_json_init(&z->tok, &handler, z, 1);
        st = llmm_cli_json_feed(&z->tok, head, len);
        if (st == LLMM_CLI_JSON_OK && whole)
            st = llmm_cli_json_finish(&z->tok);
        if (st == LLMM_CLI_JSON_SYNTAX) {
            uint64_t line, col;
            llmm_cli_json_where(&z->tok, &line, &col);
            s->json_error = 1;
            snprintf(s->msg, sizeof s->msg, "%llu:%llu: %s", (unsigned long long)line,
                     (unsigned long long)col, z->tok.msg);
        }
        llmm_cli_json_free(&z->tok);
        free(z);
        if (st == LLMM_CLI_JSON_NOMEM)
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    return LLMM_CLI_OK;
}

void llmm_cli_sniff_free(llmm_cli_sniff *s)
{
    free(s->paths);
    s->paths = NULL;
}

int llmm_cli_sniff_has(const llmm_cli_sniff *s, const char *path)
{
    for (size_t i = 0; i < s->npaths; i++)
        if (strcmp(s->paths[i], path) == 0)
            return 1;
    return 0;
}
