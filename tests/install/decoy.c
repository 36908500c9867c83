/* A stand-in for a system copy of libllmmetrics.so.1 of another version: same soname, its own
 * version string and (almost) nothing else. The wheel test puts it on the loader's path and
 * checks that the installed Python package still loads the library it bundles. */
#include <stdint.h>

uint32_t llmm_version(void);
const char *llmm_version_string(void);

uint32_t llmm_version(void)
{
    return 10000;
}

const char *llmm_version_string(void)
{
    return "1.0.0-decoy";
}
