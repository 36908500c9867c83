/* engine.c: the simulated continuous-batching engine (engine.h). */
#include <stdlib.h>

#include "sim/engine.h"

int llmm_sim_engine_init(llmm_sim_engine *e, const llmm_sim_params *p,
                         const llmm_sim_engine_cb *cb)
{
    *e = (llmm_sim_engine){.p = *p, .cb = *cb};
    e->run = calloc(p->max_batch ? p->max_batch : 1, sizeof *e->run);
    return e->run ? 0 : -1;
}

void llmm_sim_engine_free(llmm_sim_engine *e)
{
    free(e->run);
    e->run = NULL;
}

int llmm_sim_engine_fits(const llmm_sim_engine *e, uint64_t reserve)
{
    return reserve <= e->p.kv_tokens;
}

/* Remove run[i] (order kept: the batch is served in admission order). */
static void leave(llmm_sim_engine *e, uint32_t i, uint64_t t)
{
    llmm_sim_seq *s = e->run[i];
    e->kv_used -= s->reserve;
    for (uint32_t k = i + 1; k < e->nrun; k++)
        e->run[k - 1] = e->run[k];
    e->nrun--;
    e->cb.release(e->cb.ctx, s, t);
}

/* The end of the step at t: a token for each sequence in it, the finished ones leave. */
static void finish_step(llmm_sim_engine *e, uint64_t t)
{
    uint32_t i = 0;
    e->steps++;
    while (i < e->nrun) {
        llmm_sim_seq *s = e->run[i];
        int was_in = s->in_step, stop = 0;
        s->in_step = 0;
        if (s->cancelled) {
            leave(e, i, t);
            continue;
        }
        if (was_in) {
            s->emitted++;
            stop = e->cb.token(e->cb.ctx, s, t) != 0;
            if (!stop && s->plan.fault == LLMM_SIM_FAULT_STALL && s->emitted == s->plan.fault_at)
                s->resume_ns = t + (uint64_t)(e->p.stall_ms * 1e6);
        }
        if (stop || s->emitted >= s->plan.output_tokens)
            leave(e, i, t);
        else
            i++;
    }
}

/* Admit waiting requests in arrival order while the batch and the KV capacity allow; the
 * prompt tokens admitted. */
static uint64_t admit(llmm_sim_engine *e, uint64_t t)
{
    uint64_t prompt = 0;
    while (e->wait_head) {
        llmm_sim_seq *s = e->wait_head;
        if (!s->cancelled &&
            (e->nrun >= e->p.max_batch || e->kv_used + s->reserve > e->p.kv_tokens))
            break;
        e->wait_head = s->next;
        if (!e->wait_head)
            e->wait_tail = NULL;
        e->nwait--;
        s->next = NULL;
        if (s->cancelled) {
            e->cb.release(e->cb.ctx, s, t);
            continue;
        }
        e->kv_used += s->reserve;
        e->run[e->nrun++] = s;
        s->in_step = 1;
        prompt += s->prompt_tokens;
    }
    return prompt;
}

/* Start a step at t: admit, then the sequences not stalled make the batch. */
static void start_step(llmm_sim_engine *e, uint64_t t)
{
    uint64_t prompt = admit(e, t), wake = 0;
    uint32_t b = 0;
    for (uint32_t i = 0; i < e->nrun; i++) {
        llmm_sim_seq *s = e->run[i];
        if (s->resume_ns > t && !s->cancelled) {
            s->in_step = 0;
            wake = wake == 0 || s->resume_ns < wake ? s->resume_ns : wake;
            continue;
        }
        s->resume_ns = 0;
        s->in_step = 1;
        b++;
    }
    e->step_b = b;
    e->step_end_ns = b ? t + llmm_sim_step_ns(&e->p, b, prompt) : 0;
    e->wake_ns = b ? 0 : wake;
}

void llmm_sim_engine_submit(llmm_sim_engine *e, llmm_sim_seq *s, uint64_t now_ns)
{
    s->next = NULL;
    s->in_step = 0;
    if (e->wait_tail)
        e->wait_tail->next = s;
    else
        e->wait_head = s;
    e->wait_tail = s;
    e->nwait++;
    if (e->step_end_ns == 0) /* idle or all stalled: a step starts now */
        start_step(e, now_ns);
}

void llmm_sim_engine_advance(llmm_sim_engine *e, uint64_t now_ns)
{
    for (;;) {
        if (e->step_end_ns && e->step_end_ns <= now_ns) {
            uint64_t t = e->step_end_ns;
            finish_step(e, t);
            start_step(e, t);
        } else if (!e->step_end_ns && e->wake_ns && e->wake_ns <= now_ns) {
            start_step(e, e->wake_ns);
        } else {
            return;
        }
    }
}

uint64_t llmm_sim_engine_deadline(const llmm_sim_engine *e)
{
    return e->step_end_ns ? e->step_end_ns : e->wake_ns;
}
