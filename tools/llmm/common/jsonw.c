/* jsonw.c: the JSON writer of jsonw.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_gen.h>

#include "common/error.h"
#include "common/jsonw.h"

static void check(llmm_cli_jw *w, yajl_gen_status st)
{
    if (st != yajl_gen_status_ok)
        w->bad = 1;
}

static int open_gen(llmm_cli_jw *w, int beautify)
{
    yajl_gen g = yajl_gen_alloc(NULL);
    w->g = g;
    w->bad = 0;
    if (!g)
        return -1;
    yajl_gen_config(g, yajl_gen_beautify, beautify);
    if (beautify)
        yajl_gen_config(g, yajl_gen_indent_string, "  ");
    yajl_gen_config(g, yajl_gen_validate_utf8, 1);
    return 0;
}

int llmm_cli_jw_open(llmm_cli_jw *w)
{
    return open_gen(w, 1);
}

int llmm_cli_jw_open_line(llmm_cli_jw *w)
{
    return open_gen(w, 0);
}

void llmm_cli_jw_str(llmm_cli_jw *w, const char *s)
{
    size_t n = strlen(s);
    yajl_gen_status st = yajl_gen_string(w->g, (const unsigned char *)s, n);
    if (st == yajl_gen_invalid_string) { /* not UTF-8 (a file name): write it as ASCII */
        char *a = malloc(n + 1);
        if (!a) {
            w->bad = 1;
            return;
        }
        for (size_t i = 0; i < n; i++)
            a[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
        a[n] = '\0';
        st = yajl_gen_string(w->g, (const unsigned char *)a, n);
        free(a);
    }
    check(w, st);
}

void llmm_cli_jw_key(llmm_cli_jw *w, const char *k)
{
    llmm_cli_jw_str(w, k);
}

/* The shortest of %.15g … %.17g that reads back as the same double. */
void llmm_cli_jw_num(llmm_cli_jw *w, double v)
{
    char buf[40];
    if (!isfinite(v)) {
        check(w, yajl_gen_null(w->g));
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    check(w, yajl_gen_number(w->g, buf, strlen(buf)));
}

void llmm_cli_jw_i64(llmm_cli_jw *w, int64_t v)
{
    check(w, yajl_gen_integer(w->g, (long long)v));
}

void llmm_cli_jw_u64(llmm_cli_jw *w, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    check(w, yajl_gen_number(w->g, buf, strlen(buf)));
}

void llmm_cli_jw_bool(llmm_cli_jw *w, int v)
{
    check(w, yajl_gen_bool(w->g, v != 0));
}

void llmm_cli_jw_null(llmm_cli_jw *w)
{
    check(w, yajl_gen_null(w->g));
}

void llmm_cli_jw_map(llmm_cli_jw *w)
{
    check(w, yajl_gen_map_open(w->g));
}

void llmm_cli_jw_map_end(llmm_cli_jw *w)
{
    check(w, yajl_gen_map_close(w->g));
}

void llmm_cli_jw_arr(llmm_cli_jw *w)
{
    check(w, yajl_gen_array_open(w->g));
}

void llmm_cli_jw_arr_end(llmm_cli_jw *w)
{
    check(w, yajl_gen_array_close(w->g));
}

void llmm_cli_jw_kv(llmm_cli_jw *w, const char *k, double v)
{
    llmm_cli_jw_key(w, k);
    llmm_cli_jw_num(w, v);
}

void llmm_cli_jw_nums(llmm_cli_jw *w, const llmm_cli_jw_pair *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        llmm_cli_jw_kv(w, p[i].key, p[i].v);
}

void llmm_cli_jw_num_map(llmm_cli_jw *w, const char *key, const llmm_cli_jw_pair *p, size_t n)
{
    if (key)
        llmm_cli_jw_key(w, key);
    llmm_cli_jw_map(w);
    llmm_cli_jw_nums(w, p, n);
    llmm_cli_jw_map_end(w);
}

void llmm_cli_jw_kv_u64(llmm_cli_jw *w, const char *k, uint64_t v)
{
    llmm_cli_jw_key(w, k);
    llmm_cli_jw_u64(w, v);
}

void llmm_cli_jw_kv_i64(llmm_cli_jw *w, const char *k, int64_t v)
{
    llmm_cli_jw_key(w, k);
    llmm_cli_jw_i64(w, v);
}

void llmm_cli_jw_kv_str(llmm_cli_jw *w, const char *k, const char *v)
{
    llmm_cli_jw_key(w, k);
    llmm_cli_jw_str(w, v);
}

void llmm_cli_jw_kv_bool(llmm_cli_jw *w, const char *k, int v)
{
    llmm_cli_jw_key(w, k);
    llmm_cli_jw_bool(w, v);
}

void llmm_cli_jw_key_map(llmm_cli_jw *w, const char *k)
{
    llmm_cli_jw_key(w, k);
    llmm_cli_jw_map(w);
}

void llmm_cli_jw_key_arr(llmm_cli_jw *w, const char *k)
{
    llmm_cli_jw_key(w, k);
    llmm_cli_jw_arr(w);
}

int llmm_cli_jw_finish(llmm_cli_jw *w, FILE *out)
{
    const unsigned char *buf;
    size_t len;
    int bad = w->bad;
    if (!w->g)
        return -1;
    if (!bad && yajl_gen_get_buf(w->g, &buf, &len) == yajl_gen_status_ok) {
        if (fwrite(buf, 1, len, out) != len)
            bad = 1;
    } else {
        bad = 1;
    }
    yajl_gen_free(w->g);
    w->g = NULL;
    return bad ? -1 : 0;
}

int llmm_cli_jw_finish_line(llmm_cli_jw *w, FILE *out)
{
    if (llmm_cli_jw_finish(w, out) != 0)
        return LLMM_CLI_EIO;
    fputc('\n', out);
    return LLMM_CLI_OK;
}

void llmm_cli_jw_discard(llmm_cli_jw *w)
{
    if (w->g)
        yajl_gen_free(w->g);
    w->g = NULL;
}
