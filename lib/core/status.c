/* Status names and messages, generated from the one list in core.h. */
#include "llmmetrics/core.h"

const char *llmm_status_name(llmm_status s)
{
    switch ((int)s) {
#define LLMM__NAME_CASE(name, value, text)                                                         \
    case (value):                                                                                  \
        return #name;
        LLMM_STATUS_LIST(LLMM__NAME_CASE)
#undef LLMM__NAME_CASE
    default:
        return "LLMM_E_UNKNOWN_STATUS";
    }
}

const char *llmm_strerror(llmm_status s)
{
    switch ((int)s) {
#define LLMM__TEXT_CASE(name, value, text)                                                         \
    case (value):                                                                                  \
        return text;
        LLMM_STATUS_LIST(LLMM__TEXT_CASE)
#undef LLMM__TEXT_CASE
    default:
        return "unknown status";
    }
}
