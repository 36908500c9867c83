/* events.c: event names the report understands (the attribute names of detect.h's event
 * table), for the "llmm_events" list of vLLM files and --event. */
#include <string.h>

#include "cli.h"

static const char *const names[] = {
    NULL, "net.tcp.retrans", "mem.major_fault", "sched.jitter", "mem.numa_migration",
    "model.weight_switch", "runtime.gc_pause"};

int32_t llmm_cli_event_type(const char *name)
{
    for (int32_t t = 1; t < (int32_t)(sizeof names / sizeof names[0]); t++) {
        if (strcmp(names[t], name) == 0)
            return t;
    }
    return 0;
}

const char *llmm_cli_event_name(int32_t type)
{
    return type > 0 && type < (int32_t)(sizeof names / sizeof names[0]) ? names[type] : "?";
}

const char *llmm_cli_event_names(void)
{
    return "net.tcp.retrans, mem.major_fault, sched.jitter, mem.numa_migration, "
           "model.weight_switch, runtime.gc_pause";
}
