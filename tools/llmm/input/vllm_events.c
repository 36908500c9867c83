/* vllm_events.c: the "llmm_events" list of a vLLM result file, an llmm extension that vLLM's
 * tools ignore: [{"t": 5095.0, "type": "model.weight_switch", "value": 0}, ...], where t is on
 * the clock of the document's start_times. Other keys of an event are skipped. */
#include <math.h>
#include <string.h>

#include "common/events.h"
#include "input/vllm.h"

enum { EV_T = 1, EV_TYPE, EV_VALUE };

int llmm_cli_vllm_event_open(llmm_cli_vllm *p)
{
    p->ev_has_t = 0;
    p->ev_t = NAN;
    p->ev_value = 0;
    p->ev_type[0] = '\0';
    return VT_EVENT;
}

int llmm_cli_vllm_event_key(llmm_cli_vllm *p, const char *key, size_t len)
{
    static const char *const keys[] = {"t", "type", "value"};
    int k = llmm_cli_key_find(key, len, keys, 3) + 1;
    (void)p;
    return k == 0 ? LLMM_CLI_JSON_SKIP : k == EV_TYPE ? EV_TYPE | LLMM_CLI_JSON_TEXT : k;
}

int llmm_cli_vllm_event_scalar(llmm_cli_vllm *p, llmm_cli_json_frame *f,
                               const llmm_cli_json_value *v)
{
    size_t i = f[-1].idx;
    if (f->key == EV_VALUE && v->kind == K_NULL)
        return 1;
    if (f->key == EV_TYPE) {
        if (v->kind != K_STRING || v->len == 0 || v->len >= sizeof p->ev_type)
            return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE,
                                    "llmm_events[%zu].type must be a name of 1 to %zu bytes", i,
                                    sizeof p->ev_type - 1);
        if (memchr(v->text, '\0', v->len))
            return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE,
                                    "llmm_events[%zu].type holds a NUL", i);
        memcpy(p->ev_type, v->text, v->len);
        p->ev_type[v->len] = '\0';
        return 1;
    }
    if (v->kind != K_NUMBER)
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE, "llmm_events[%zu].%s is %s, expected a number",
                                i, f->key == EV_T ? "t" : "value", llmm_cli_json_kind_name(v->kind));
    if (!isfinite(v->num))
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE, "llmm_events[%zu].%s is %s", i,
                                f->key == EV_T ? "t" : "value", llmm_cli_nonfinite_name(v->num));
    if (f->key == EV_T) {
        p->ev_t = v->num;
        p->ev_has_t = 1;
    } else {
        p->ev_value = v->num;
    }
    return 1;
}

int llmm_cli_vllm_event_close(llmm_cli_vllm *p, size_t i)
{
    if (!p->ev_has_t || p->ev_type[0] == '\0')
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE, "llmm_events[%zu] needs \"t\" and \"type\"",
                                i);
    if (p->replay || !p->jr.sink.event)
        return 1;
    switch (p->jr.sink.event(p->jr.sink.user, p->ev_t, p->ev_type, p->ev_value)) {
    case LLMM_CLI_OK:
        return 1;
    case LLMM_CLI_ENOMEM:
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_ENOMEM, "out of memory");
    default:
        return llmm_cli_jr_fail(&p->jr, LLMM_CLI_EPARSE,
                                "llmm_events[%zu]: unknown event type '%s' (%s)", i, p->ev_type,
                                llmm_cli_event_names());
    }
}
