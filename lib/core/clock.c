/* Monotonic clock convenience; the library itself never reads the clock. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "llmmetrics/core.h"

uint64_t llmm_now_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}
