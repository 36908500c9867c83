/* An outside program: built only from what `meson install` put into the destdir, found through
 * `pkg-config llmmetrics` (or `pkg-config --static` against the static library). It checks
 * that the installed headers and library agree, and runs a sketch through an SLO check with a
 * caller-sized result. */
#include <stdio.h>
#include <string.h>

#include <llmmetrics/llmmetrics.h>

/* 19 successes at 0.1 s and one error: p95 0.1 s, error rate 0.05, both within bounds. */
static int slo(void)
{
    llmm_sketch *s = NULL;
    llmm_slo_result r;
    int i, ok;
    if (llmm_sketch_new(NULL, LLMM_SCALE_DEFAULT, &s) != LLMM_OK)
        return 0;
    for (i = 0; i < 19; i++)
        llmm_sketch_add(s, 0.1);
    ok = llmm_slo_result_init(&r) == LLMM_OK && r.struct_size == sizeof r &&
         llmm_slo_check(s, 1, 0.2, 0.05, &r) == LLMM_OK;
    llmm_sketch_free(s);
    if (!ok)
        return 0;
    printf("slo satisfied %d p95 %.1f\n", (int)r.satisfied, r.latency);
    return r.satisfied == 1;
}

int main(void)
{
    const char *v = llmm_version_string();
    const char *msg = llmm_strerror(LLMM_E_INVALID);
    const char *name = llmm_status_name(LLMM_E_INVALID);

    if (v == NULL || strcmp(v, LLMM_VERSION_STRING) != 0 || llmm_version() != LLMM_VERSION_NUMBER) {
        fprintf(stderr, "header version %s does not match library version %s\n",
                LLMM_VERSION_STRING, v ? v : "(null)");
        return 1;
    }
    if (msg == NULL || msg[0] == '\0' || name == NULL || strcmp(name, "LLMM_E_INVALID") != 0) {
        fprintf(stderr, "llmm_strerror / llmm_status_name gave no text\n");
        return 1;
    }
    printf("version %s\n", v);
    printf("%s: %s\n", name, msg);
    return slo() ? 0 : 1;
}
