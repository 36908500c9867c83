/* Version of the library that is actually loaded (may differ from the headers used). */
#include "llmmetrics/core.h"

uint32_t llmm_version(void)
{
    return (uint32_t)LLMM_VERSION_NUMBER;
}

const char *llmm_version_string(void)
{
    return LLMM_VERSION_STRING;
}
