/* events.c: the event names the tool understands (events.h). */
#include <stdio.h>
#include <string.h>

#include <llmmetrics/llmmetrics.h>

#include "common/events.h"

/* Known types are 1 … LLMM_EVENT_USER − 1; a later library may name more of them. */
#define TYPE_SCAN_MAX 256

int32_t llmm_cli_event_type(const char *name)
{
    for (int32_t t = 1; t < TYPE_SCAN_MAX; t++) {
        const char *n = llmm_event_attr_name(t);
        if (n && strcmp(n, name) == 0)
            return t;
    }
    return 0;
}

const char *llmm_cli_event_name(int32_t type)
{
    const char *n = llmm_event_attr_name(type);
    return n ? n : "?";
}

const char *llmm_cli_event_names(void)
{
    static char buf[1024]; /* the tool is single-threaded */
    size_t len = 0;
    buf[0] = '\0';
    for (int32_t t = 1; t < TYPE_SCAN_MAX; t++) {
        const char *n = llmm_event_attr_name(t);
        int w;
        if (!n)
            continue;
        w = snprintf(buf + len, sizeof buf - len, "%s%s", len ? ", " : "", n);
        if (w < 0 || (size_t)w >= sizeof buf - len)
            break;
        len += (size_t)w;
    }
    return buf;
}
