/* An outside program: built only from what `meson install` put into the destdir, found through
 * `pkg-config llmmetrics`. It checks that the installed headers and library agree. */
#include <stdio.h>
#include <string.h>

#include <llmmetrics/llmmetrics.h>

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
    return 0;
}
