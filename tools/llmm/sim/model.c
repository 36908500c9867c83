/* model.c: the simulated engine's cost model and per-request draws (model.h). */
#include <math.h>

#include "sim/model.h"

void llmm_sim_params_default(llmm_sim_params *p)
{
    *p = (llmm_sim_params){
        .step_base_ms = 10.0,
        .step_per_seq_ms = 0.05,
        .prefill_ms_per_token = 0.01,
        .max_batch = 32,
        .kv_tokens = 262144,
        .default_max_tokens = 16,
        .mean_output = 64.0,
        .stall_ms = 500.0,
        .seed = 42,
    };
}

uint64_t llmm_sim_step_ns(const llmm_sim_params *p, uint32_t b, uint64_t prompt_tokens)
{
    double ms = p->step_base_ms + p->step_per_seq_ms * (double)b +
                p->prefill_ms_per_token * (double)prompt_tokens;
    return (uint64_t)llround(ms * 1e6);
}

/* The token (1-based) in [1, n - 1] after which a mid-stream fault strikes; 1 when n <= 2. */
static uint32_t mid_stream(llmm_cli_rng *rng, uint32_t n)
{
    double u = llmm_cli_rng_uniform(rng);
    if (n <= 2)
        return 1;
    return 1 + (uint32_t)(u * (double)(n - 1));
}

void llmm_sim_plan_request(const llmm_sim_params *p, llmm_cli_rng *rng, uint32_t max_tokens,
                           int ignore_eos, llmm_sim_plan *plan)
{
    uint32_t max = max_tokens ? max_tokens : p->default_max_tokens;
    double u_err = llmm_cli_rng_uniform(rng), u_kind = llmm_cli_rng_uniform(rng);
    double len = ceil(llmm_cli_rng_exp(rng, p->mean_output));
    double u_stall = llmm_cli_rng_uniform(rng), u_drop = llmm_cli_rng_uniform(rng);
    double u_bad = llmm_cli_rng_uniform(rng);
    uint32_t at = 0;
    plan->output_tokens = ignore_eos || len >= (double)max ? max : (uint32_t)fmax(len, 1.0);
    at = mid_stream(rng, plan->output_tokens);
    plan->fault = LLMM_SIM_FAULT_NONE;
    plan->fault_at = 0;
    if (u_err < p->error_rate)
        plan->fault = u_kind < 0.5 ? LLMM_SIM_FAULT_ERROR_500 : LLMM_SIM_FAULT_ERROR_429;
    else if (u_stall < p->stall_rate)
        plan->fault = LLMM_SIM_FAULT_STALL;
    else if (u_drop < p->drop_rate)
        plan->fault = LLMM_SIM_FAULT_DROP;
    else if (u_bad < p->malformed_rate)
        plan->fault = LLMM_SIM_FAULT_MALFORMED;
    /* a stall or a drop needs a token after it: a one-token stream has none */
    if ((plan->fault == LLMM_SIM_FAULT_STALL || plan->fault == LLMM_SIM_FAULT_DROP) &&
        plan->output_tokens < 2)
        plan->fault = LLMM_SIM_FAULT_NONE;
    if (plan->fault >= LLMM_SIM_FAULT_STALL)
        plan->fault_at = at;
}

double llmm_sim_batch_limit(const llmm_sim_params *p, double prompt_tokens,
                            double output_tokens)
{
    double kv = floor((double)p->kv_tokens / (prompt_tokens + output_tokens));
    return fmin((double)p->max_batch, kv);
}

double llmm_sim_closed_loop_qps(const llmm_sim_params *p, double c, double prompt_tokens,
                                double output_tokens, double wait_steps)
{
    double n = output_tokens, per_req = n * p->step_per_seq_ms + prompt_tokens *
                                                                      p->prefill_ms_per_token;
    double knee = llmm_sim_knee_concurrency(p, prompt_tokens, output_tokens, wait_steps);
    double b = llmm_sim_batch_limit(p, prompt_tokens, output_tokens);
    if (c <= knee) /* every client's cycle: wait_steps + n steps of a batch of c n/(n + w) */
        return 1000.0 * c / ((n + wait_steps) * p->step_base_ms + c * per_req);
    /* saturated: b slots, each holding a request for n steps back to back */
    return 1000.0 * b / (n * p->step_base_ms + b * per_req);
}

double llmm_sim_knee_concurrency(const llmm_sim_params *p, double prompt_tokens,
                                 double output_tokens, double wait_steps)
{
    return llmm_sim_batch_limit(p, prompt_tokens, output_tokens) *
           (output_tokens + wait_steps) / output_tokens;
}
