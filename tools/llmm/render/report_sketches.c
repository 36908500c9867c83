/* report_sketches.c: `llmm report --save-sketch DIR`: one sketch file per latency series. */
#include "common/file.h"
#include "render/report.h"
#include "render/sketch.h"

static const char *const file_name[LLMM_CLI_M_COUNT] = {"ttft.llmm", "tpot.llmm", "itl.llmm",
                                                        "e2e.llmm"};

int llmm_cli_report_save_sketches(const llmm_cli_report *r, llmm_cli_error *err)
{
    FILE *names = r->files_out ? r->files_out : stderr;
    const char *dir = r->save_sketch_dir;
    char path[4200];
    llmm_cli_error e;
    for (int m = 0; m < LLMM_CLI_M_COUNT; m++) {
        int rc = llmm_cli_path_in(dir, file_name[m], path, sizeof path, &e);
        if (rc != LLMM_CLI_OK)
            return llmm_cli_fail(err, rc, "--save-sketch: %s", e.msg);
        rc = llmm_cli_sketch_save(path, r->trace.sk[m], err);
        if (rc != LLMM_CLI_OK)
            return rc;
        fprintf(names, "llmm: wrote %s (%s, %llu values, seconds)\n", path,
                llmm_cli_metric_label[m], (unsigned long long)llmm_sketch_count(r->trace.sk[m]));
    }
    return LLMM_CLI_OK;
}
