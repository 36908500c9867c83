/* error.c: error messages (error.h). */
#include <stdio.h>

#include "common/error.h"

int llmm_cli_fail(llmm_cli_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    if (!err)
        return code;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

int llmm_cli_cb_vfail(llmm_cli_cb_error *e, int code, const char *fmt, va_list ap)
{
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    e->code = code;
    return 0;
}
