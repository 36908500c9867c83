/* vllm_events.c: the "llmm_events" list of a vLLM result file, an llmm extension that vLLM's
 * tools ignore: [{"t": 5095.0, "type": "model.weight_switch", "value": 0}, ...], where t is on
 * the clock of the document's start_times. Other keys of an event are skipped. */
#include <math.h>
#include <string.h>

#include "common/events.h"
#include "input/vllm.h"

int llmm_cli_vllm_event_start(llmm_cli_vllm *p)
{
    p->depth = 3;
    p->ev_key = 0;
    p->ev_has_t = 0;
    p->ev_t = NAN;
    p->ev_value = 0;
    p->ev_type[0] = '\0';
    return 1;
}

int llmm_cli_vllm_event_key(llmm_cli_vllm *p, const unsigned char *key, size_t len)
{
    static const char *const keys[] = {"t", "type", "value"};
    p->ev_key = 0;
    for (int k = 0; k < 3; k++) {
        if (strlen(keys[k]) == len && memcmp(keys[k], key, len) == 0)
            p->ev_key = k + 1;
    }
    return 1;
}

int llmm_cli_vllm_event_scalar(llmm_cli_vllm *p, int kind, double v, const unsigned char *s,
                               size_t len)
{
    int key = p->ev_key;
    p->ev_key = 0;
    if (key == 0 || (key == 3 && kind == K_NULL))
        return 1;
    if (key == 2) {
        if (kind != K_STRING || len == 0 || len >= sizeof p->ev_type)
            return llmm_cli_vllm_fail(p, LLMM_CLI_EPARSE,
                                      "llmm_events[%zu].type must be a name of 1 to %zu bytes",
                                      p->idx, sizeof p->ev_type - 1);
        memcpy(p->ev_type, s, len);
        p->ev_type[len] = '\0';
        if (memchr(p->ev_type, '\0', len))
            return llmm_cli_vllm_fail(p, LLMM_CLI_EPARSE, "llmm_events[%zu].type holds a NUL",
                                      p->idx);
        return 1;
    }
    if (kind != K_NUMBER)
        return llmm_cli_vllm_fail(p, LLMM_CLI_EPARSE, "llmm_events[%zu].%s is %s, expected a number",
                                  p->idx, key == 1 ? "t" : "value", llmm_cli_json_kind_name(kind));
    if (key == 1) {
        p->ev_t = v;
        p->ev_has_t = 1;
    } else {
        p->ev_value = v;
    }
    return 1;
}

int llmm_cli_vllm_event_end(llmm_cli_vllm *p)
{
    size_t i = p->idx;
    p->depth = 2;
    p->idx++;
    if (!p->ev_has_t || p->ev_type[0] == '\0')
        return llmm_cli_vllm_fail(p, LLMM_CLI_EPARSE, "llmm_events[%zu] needs \"t\" and \"type\"",
                                  i);
    if (p->replay || !p->sink.event)
        return 1;
    switch (p->sink.event(p->sink.user, p->ev_t, p->ev_type, p->ev_value)) {
    case LLMM_CLI_OK:
        return 1;
    case LLMM_CLI_ENOMEM:
        return llmm_cli_vllm_fail(p, LLMM_CLI_ENOMEM, "out of memory");
    default:
        return llmm_cli_vllm_fail(p, LLMM_CLI_EPARSE,
                                  "llmm_events[%zu]: unknown event type '%s' (%s)", i, p->ev_type,
                                  llmm_cli_event_names());
    }
}
