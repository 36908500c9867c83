/* request.c: the JSON body of a completions or chat request (request.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "sim/request.h"

uint64_t llmm_sim_count_words(const char *s)
{
    uint64_t n = 0;
    int in = 0;
    for (; *s; s++) {
        int space = isspace((unsigned char)*s) != 0;
        n += !space && !in;
        in = !space;
    }
    return n;
}

int llmm_sim_json_escape(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char tmp[8];
        size_t m;
        if (c == '"' || c == '\\')
            m = (size_t)snprintf(tmp, sizeof tmp, "\\%c", c);
        else if (c < 0x20)
            m = (size_t)snprintf(tmp, sizeof tmp, "\\u%04x", c);
        else
            tmp[0] = (char)c, m = 1;
        if (k + m >= cap)
            return -1;
        memcpy(out + k, tmp, m);
        k += m;
    }
    if (k >= cap)
        return -1;
    out[k] = '\0';
    return 0;
}

static yajl_val field(yajl_val obj, const char *key)
{
    const char *path[] = {key, NULL};
    return yajl_tree_get(obj, path, yajl_t_any);
}

/* A boolean field: 1, 0 (false or absent); -1 when it is not a boolean. */
static int flag(yajl_val obj, const char *key)
{
    yajl_val v = field(obj, key);
    if (!v || YAJL_IS_NULL(v))
        return 0;
    return YAJL_IS_TRUE(v) ? 1 : YAJL_IS_FALSE(v) ? 0 : -1;
}

/* Words of a chat message's content: a string, or a list of parts with "text". */
static int content_words(yajl_val c, uint64_t *n)
{
    if (YAJL_IS_STRING(c)) {
        *n += llmm_sim_count_words(YAJL_GET_STRING(c));
        return 0;
    }
    if (!YAJL_IS_ARRAY(c))
        return YAJL_IS_NULL(c) ? 0 : -1;
    for (size_t i = 0; i < c->u.array.len; i++) {
        yajl_val t = field(c->u.array.values[i], "text");
        if (t && YAJL_IS_STRING(t))
            *n += llmm_sim_count_words(YAJL_GET_STRING(t));
    }
    return 0;
}

static int chat_prompt(yajl_val root, uint64_t *n, const char **why)
{
    yajl_val m = field(root, "messages");
    if (!m || !YAJL_IS_ARRAY(m) || m->u.array.len == 0)
        return *why = "\"messages\" must be a non-empty list", -1;
    for (size_t i = 0; i < m->u.array.len; i++) {
        yajl_val c = field(m->u.array.values[i], "content");
        if (c && content_words(c, n) != 0)
            return *why = "a message's \"content\" must be a string or a list of parts", -1;
    }
    return 0;
}

/* "prompt": a string, a list of token IDs, or a list of one string or one ID list. */
static int completion_prompt(yajl_val root, uint64_t *n, int64_t *max_id, const char **why)
{
    yajl_val p = field(root, "prompt");
    *why = "\"prompt\" must be a string or a list of token IDs (one prompt per request)";
    if (p && YAJL_IS_ARRAY(p) && p->u.array.len == 1 && !YAJL_IS_INTEGER(p->u.array.values[0]))
        p = p->u.array.values[0];
    if (p && YAJL_IS_STRING(p)) {
        *n = llmm_sim_count_words(YAJL_GET_STRING(p));
        return 0;
    }
    if (!p || !YAJL_IS_ARRAY(p))
        return -1;
    for (size_t i = 0; i < p->u.array.len; i++) {
        if (!YAJL_IS_INTEGER(p->u.array.values[i]))
            return -1;
        if (YAJL_GET_INTEGER(p->u.array.values[i]) > *max_id)
            *max_id = YAJL_GET_INTEGER(p->u.array.values[i]);
    }
    *n = p->u.array.len;
    return 0;
}

/* max_tokens (or, for chat, max_completion_tokens first): 0 when absent or null. */
static int max_tokens(yajl_val root, llmm_sim_endpoint ep, uint32_t *out)
{
    yajl_val v = ep == LLMM_SIM_CHAT ? field(root, "max_completion_tokens") : NULL;
    if (!v || YAJL_IS_NULL(v))
        v = field(root, "max_tokens");
    *out = 0;
    if (!v || YAJL_IS_NULL(v))
        return 0;
    if (!YAJL_IS_INTEGER(v) || YAJL_GET_INTEGER(v) < 1 ||
        YAJL_GET_INTEGER(v) > (long long)LLMM_SIM_MAX_TOKENS_LIMIT)
        return -1;
    *out = (uint32_t)YAJL_GET_INTEGER(v);
    return 0;
}

static int body_fields(yajl_val root, llmm_sim_endpoint ep, const char *model_default,
                       llmm_sim_body *b, const char **why)
{
    yajl_val model = field(root, "model"), so = field(root, "stream_options");
    const char *m = model && YAJL_IS_STRING(model) ? YAJL_GET_STRING(model) : model_default;
    if (model && !YAJL_IS_STRING(model) && !YAJL_IS_NULL(model))
        return *why = "\"model\" must be a string", -1;
    if (llmm_sim_json_escape(m, b->model, sizeof b->model) != 0)
        return *why = "\"model\" is too long", -1;
    if ((ep == LLMM_SIM_CHAT
             ? chat_prompt(root, &b->prompt_tokens, why)
             : completion_prompt(root, &b->prompt_tokens, &b->max_token_id, why)) != 0)
        return -1;
    if (b->prompt_tokens == 0)
        b->prompt_tokens = 1;
    if (max_tokens(root, ep, &b->max_tokens) != 0)
        return *why = "\"max_tokens\" must be a whole number in [1, 1000000]", -1;
    b->stream = flag(root, "stream");
    b->ignore_eos = flag(root, "ignore_eos");
    b->include_usage = so && YAJL_IS_OBJECT(so) ? flag(so, "include_usage") : 0;
    if (b->stream < 0 || b->ignore_eos < 0 || b->include_usage < 0)
        return *why = "\"stream\", \"ignore_eos\" and \"include_usage\" must be booleans", -1;
    return 0;
}

int llmm_sim_body_parse(const char *json, llmm_sim_endpoint ep, const char *model_default,
                        llmm_sim_body *b, char *err, size_t errcap)
{
    char yerr[256] = "";
    const char *why = NULL;
    yajl_val root = yajl_tree_parse(json, yerr, sizeof yerr);
    int rc;
    memset(b, 0, sizeof *b);
    b->max_token_id = -1;
    if (!root || !YAJL_IS_OBJECT(root)) {
        snprintf(err, errcap, "the body is not a JSON object");
        yajl_tree_free(root);
        return -1;
    }
    rc = body_fields(root, ep, model_default, b, &why);
    if (rc != 0)
        snprintf(err, errcap, "%s", why);
    yajl_tree_free(root);
    return rc;
}
