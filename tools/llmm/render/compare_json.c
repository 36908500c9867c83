/* compare_json.c: `llmm compare --json` (compare.h). Times in seconds; a figure not measured
 * is null; "from_tool" names the figures that are a run's tool's own. */
#include <math.h>
#include <stdint.h>

#include "common/jsonw.h"
#include "render/compare.h"
#include "render/report.h"

static void latencies(llmm_cli_jw *w, const llmm_cli_cmp_run *r)
{
    for (int m = 0; m < LLMM_CLI_CMP_NM; m++) {
        llmm_cli_jw_key_map(w, llmm_cli_metric_key[llmm_cli_cmp_metric[m]]);
        for (int q = 0; q < LLMM_CLI_CMP_NQ; q++)
            llmm_cli_jw_kv(w, llmm_cli_cmp_q_key[q], r->lat[m][q]);
        llmm_cli_jw_key_arr(w, "from_tool");
        for (int q = 0; q < LLMM_CLI_CMP_NQ; q++)
            if (r->from_tool[m][q])
                llmm_cli_jw_str(w, llmm_cli_cmp_q_key[q]);
        llmm_cli_jw_arr_end(w);
        llmm_cli_jw_map_end(w);
    }
}

static void run_json(llmm_cli_jw *w, const llmm_cli_cmp_run *r)
{
    const llmm_cli_summary *s = &r->sum;
    char name[128];
    llmm_cli_cmp_run_name(r, name, sizeof name);
    llmm_cli_jw_map(w);
    llmm_cli_jw_kv_str(w, "name", name);
    llmm_cli_jw_kv_str(w, "path", r->path);
    llmm_cli_jw_kv_u64(w, "index", r->index);
    llmm_cli_jw_kv_str(w, "format", llmm_cli_format_name(r->fmt));
    llmm_cli_jw_kv_str(w, "tool", r->tool ? r->tool->name : "");
    llmm_cli_jw_kv_str(w, "label", r->label);
    llmm_cli_jw_kv_str(w, "model", r->model);
    llmm_cli_jw_kv_bool(w, "statistics_only", r->stats_only);
    LLMM_CLI_JW_NUM_MAP(w, "stated", {"concurrency", r->concurrency},
                        {"request_rate", r->request_rate});
    llmm_cli_counts_json(w, s);
    LLMM_CLI_JW_NUM_MAP(w, "throughput", {"req_per_s", s->req_per_s},
                        {"tok_per_s", s->tok_per_s}, {"total_tok_per_s", s->total_tok_per_s},
                        {"duration_s", s->duration_s});
    llmm_cli_jw_kv_bool(w, "throughput_from_tool", r->rates_from_tool);
    latencies(w, r);
    LLMM_CLI_JW_NUMS(w, {"goodput_req_per_s", s->has_goodput ? s->good_per_s : NAN},
                     {"goodput_fraction", s->has_goodput ? s->good_fraction : NAN},
                     {"mean_input_tokens", r->in_mean}, {"mean_output_tokens", r->out_mean},
                     {"seqlen_decay", r->decay});
    if (r->baseline != SIZE_MAX)
        llmm_cli_jw_kv_u64(w, "seqlen_decay_baseline", r->baseline);
    else
        (llmm_cli_jw_key(w, "seqlen_decay_baseline"), llmm_cli_jw_null(w));
    llmm_cli_jw_kv_str(w, "seqlen_decay_none", r->decay_why ? r->decay_why : "");
    llmm_cli_jw_map_end(w);
}

int llmm_cli_compare_json(const llmm_cli_compare *c, FILE *out)
{
    llmm_cli_jw w;
    if (llmm_cli_jw_open(&w) != 0)
        return LLMM_CLI_ENOMEM;
    llmm_cli_jw_map(&w);
    llmm_cli_jw_kv_str(&w, "runs_are", llmm_cli_cmp_def_runs);
    llmm_cli_jw_key_arr(&w, "runs");
    for (size_t i = 0; i < c->n; i++)
        run_json(&w, &c->runs[i]);
    llmm_cli_jw_arr_end(&w);
    llmm_cli_jw_key_map(&w, "seqlen_decay");
    llmm_cli_jw_kv_str(&w, "definition", llmm_cli_cmp_def_decay);
    llmm_cli_jw_map_end(&w);
    llmm_cli_jw_key_map(&w, "slo");
    for (int i = 0; i < 3; i++)
        llmm_cli_jw_kv(&w, i == 0 ? "ttft_s" : i == 1 ? "tpot_s" : "e2e_s", c->slo[i]);
    llmm_cli_jw_map_end(&w);
    llmm_cli_jw_map_end(&w);
    return llmm_cli_jw_finish_line(&w, out);
}
