/* hostsig.c: the writer of host-signal files (hostsig.h). */
#include <math.h>

#include "common/error.h"
#include "common/hostsig.h"
#include "common/jsonw.h"

int llmm_cli_hostsig_write(FILE *f, double t_s, const llmm_host_sampler *s)
{
    return llmm_cli_hostsig_write_with(f, t_s, s, NULL, NULL);
}

int llmm_cli_hostsig_write_with(FILE *f, double t_s, const llmm_host_sampler *s,
                                void (*extra)(llmm_cli_jw *w, void *ctx), void *ctx)
{
    llmm_cli_jw w;
    if (llmm_cli_jw_open_line(&w) != 0)
        return LLMM_CLI_ENOMEM;
    llmm_cli_jw_map(&w);
    llmm_cli_jw_kv(&w, "t", t_s);
    for (int sig = 1; sig <= LLMM_CLI_HOST_MAX; sig++) {
        const char *name = llmm_host_signal_name((llmm_host_signal)sig);
        double v;
        llmm_status st;
        if (!name)
            break;
        st = llmm_host_signal_rate(s, (llmm_host_signal)sig, &v);
        if (st == LLMM_E_STATE)
            continue; /* not exposed by this host: left out */
        if (st == LLMM_OK)
            llmm_cli_jw_kv(&w, name, v);
        else
            llmm_cli_jw_kv(&w, name, NAN); /* written as null */
    }
    if (extra)
        extra(&w, ctx);
    llmm_cli_jw_map_end(&w);
    return llmm_cli_jw_finish_line(&w, f);
}
