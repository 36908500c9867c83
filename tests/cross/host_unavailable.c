/* The host sampler off Linux (built by windows_check.sh with mingw-w64, run under wine64): the
 * sampler is made, samples and validates its arguments as on Linux, but every signal is
 * unavailable (LLMM_E_STATE) and no sample logs an event, even with every threshold at 0.
 * Prints one line per signal; exits 0 only when all of that holds. */
#include <stdio.h>

#include <llmmetrics/llmmetrics.h>

#define SIGNALS 10 /* LLMM_HOST_TCP_RETRANS (1) ... LLMM_HOST_CPU_THROTTLE (10) */

static int sampled_nothing(llmm_host_sampler *s, llmm_event_log *log)
{
    uint64_t held = 1;
    int sig, bad = 0;

    for (sig = 1; sig <= SIGNALS; sig++) /* every event on: any rate would be logged */
        if (llmm_host_sampler_set_f64(s, (llmm_host_option)sig, 0.0) != LLMM_OK)
            bad++;
    if (llmm_host_sample(s, 1000000000u, log) != LLMM_OK ||
        llmm_host_sample(s, 1050000000u, log) != LLMM_OK ||
        llmm_host_sample(s, 1050000000u, log) != LLMM_E_INVALID) /* the clock must advance */
        bad++;
    for (sig = 1; sig <= SIGNALS; sig++) {
        double rate = -1.0;
        llmm_status st = llmm_host_signal_rate(s, (llmm_host_signal)sig, &rate);
        printf("%s %s\n", llmm_host_signal_name((llmm_host_signal)sig), llmm_status_name(st));
        if (st != LLMM_E_STATE || rate != -1.0)
            bad++;
    }
    if (llmm_event_log_counts(log, &held, NULL, NULL) != LLMM_OK || held != 0)
        bad++;
    return bad;
}

int main(void)
{
    const char *roots[] = {NULL, "C:/"};
    llmm_event_log *log = NULL;
    int i, bad = 0;

    if (llmm_event_log_new(NULL, 64, &log) != LLMM_OK)
        return 1;
    for (i = 0; i < 2; i++) {
        llmm_host_sampler *s = NULL;
        if (llmm_host_sampler_new(NULL, roots[i], &s) != LLMM_OK || s == NULL) {
            bad++;
            continue;
        }
        bad += sampled_nothing(s, log);
        llmm_host_sampler_free(s);
    }
    llmm_event_log_free(log);
    printf("%s\n", bad == 0 ? "every signal unavailable" : "FAILED");
    return bad == 0 ? 0 : 1;
}
