/* quickstart: the smallest program using libllmmetrics.
 *
 * Checks that the library that was loaded matches the headers it was compiled against, then
 * lists every status code with its name and message. Build it against an installed copy with
 *
 *     cc quickstart.c $(pkg-config --cflags --libs llmmetrics) -o quickstart
 */
#include <stdio.h>

#include <llmmetrics/llmmetrics.h>

int main(void)
{
    /* The loaded library can be newer than the headers, never older in its major version. */
    if (llmm_version() / 10000 != LLMM_VERSION_MAJOR) {
        fprintf(stderr, "libllmmetrics %s loaded, but compiled against %s\n",
                llmm_version_string(), LLMM_VERSION_STRING);
        return 1;
    }
    printf("libllmmetrics %s (headers %s)\n", llmm_version_string(), LLMM_VERSION_STRING);

    printf("status codes:\n");
#define QUICKSTART_PRINT_STATUS(name, value, text)                                  \
    printf("  %4d  %-22s %s\n", (int)(name), llmm_status_name(name), llmm_strerror(name));
    LLMM_STATUS_LIST(QUICKSTART_PRINT_STATUS)
#undef QUICKSTART_PRINT_STATUS
    return 0;
}
