/* events.h: the event names the tool understands: the attribute names of the library's event
 * table (llmm_event_attr_name(), detect.h), for the "llmm_events" list of vLLM files and
 * `report --event`. */
#ifndef LLMM_CLI_EVENTS_H
#define LLMM_CLI_EVENTS_H

#include <stdint.h>

/* The llmm_event_type of an attribute name, or 0 for an unknown name. */
int32_t llmm_cli_event_type(const char *name);
/* The name of a type ("?" for an unknown one). */
const char *llmm_cli_event_name(int32_t type);
/* The known names, comma-separated, for messages. */
const char *llmm_cli_event_names(void);

#endif /* LLMM_CLI_EVENTS_H */
