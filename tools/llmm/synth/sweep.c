/* sweep.c: the demo's synthetic load sweep (synth.h). */
#include <stdio.h>

#include "common/error.h"
#include "synth/rng.h"
#include "synth/synth.h"

int llmm_cli_sweep_generate(FILE *out, uint64_t seed)
{
    const double lambda = 9.0, sigma = 0.02, kappa = 0.0001;
    llmm_cli_rng rng;
    llmm_cli_rng_seed(&rng, seed ^ 0x5357454550ull);
    fputs("# SYNTHETIC load sweep written by `llmm demo` (not a measurement): a USL-shaped\n"
          "# server, lambda 9 QPS, sigma 0.02, kappa 0.0001, three noisy repeats per step\n"
          "concurrency,qps,p99_ms\n",
          out);
    for (int n = 4; n <= 160; n += 4) {
        double nn = n, x = lambda * nn / (1 + sigma * (nn - 1) + kappa * nn * (nn - 1));
        for (int rep = 0; rep < 3; rep++) {
            double q = x * (1 + 0.015 * llmm_cli_rng_normal(&rng));
            double p99 = 1000.0 * nn / x * (2.4 + 0.1 * llmm_cli_rng_normal(&rng));
            fprintf(out, "%d,%.3f,%.1f\n", n, q, p99);
        }
    }
    return ferror(out) ? LLMM_CLI_EIO : LLMM_CLI_OK;
}
