/* bounds.c: quantiles answered by a bound of the sketch's range (bounds.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/bounds.h"

uint64_t llmm_cli_rank(uint64_t n, double q)
{
    double r = q * (double)n, rr = nearbyint(r);
    if (fabs(r - rr) <= 1e-9)
        r = rr;
    r = ceil(r);
    if (r < 1.0)
        return 1;
    return r >= (double)n ? n : (uint64_t)r;
}

int llmm_cli_quantile_at_bound(const llmm_sketch *s, double q)
{
    uint64_t n = llmm_sketch_count(s), zero = 0, under = 0, over = 0, r;
    if (n == 0)
        return 0;
    r = llmm_cli_rank(n, q);
    if (r == 1 || r == n)
        return 0;
    llmm_sketch_special_counts(s, &zero, &under, &over);
    if (r > zero && r - zero <= under)
        return -1;
    return r > n - over ? 1 : 0;
}

size_t llmm_cli_warn_bounds(const char *prefix, const char *what, const char *unit,
                            const llmm_sketch *s, const double *q, const char *const *label,
                            size_t n)
{
    size_t total = 0;
    double lo = 0, hi = 0;
    uint64_t zero = 0, under = 0, over = 0;
    llmm_sketch_range(s, &lo, &hi);
    llmm_sketch_special_counts(s, &zero, &under, &over);
    for (int side = -1; side <= 1; side += 2) {
        char names[512] = "";
        size_t k = 0, used = 0;
        for (size_t i = 0; i < n; i++) {
            if (llmm_cli_quantile_at_bound(s, q[i]) != side)
                continue;
            if (used < sizeof names)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
                                         k ? ", " : "", label[i]);
            k++;
        }
        if (k == 0)
            continue;
        fprintf(stderr,
                "%s: warning: %s: %s %s %s the sketch's range (%g%s): reported as that "
                "bound (%llu value%s %s it)\n",
                prefix, what, names, k == 1 ? "lies" : "lie", side < 0 ? "below" : "above",
                side < 0 ? lo : hi, unit, (unsigned long long)(side < 0 ? under : over),
                (side < 0 ? under : over) == 1 ? "" : "s", side < 0 ? "below" : "above");
        total += k;
    }
    return total;
}
