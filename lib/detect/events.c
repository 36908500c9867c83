/* Event log: typed, time-stamped annotations in a bounded ring, and the look-back that lists
 * the candidate causes of a spike, nearest first. The ring is in time order (adds never go
 * back in time), so both queries are binary searches. */
#include <string.h>

#include "core/abi.h"
#include "core/internal.h"
#include "detect_internal.h"

typedef struct event_rec {
    uint64_t t;
    double value;
    int32_t type;
} event_rec;

struct llmm_event_log {
    llmm_ctx *ctx;
    event_rec *ring;
    uint32_t cap;
    uint32_t start;   /* index of the oldest event */
    uint32_t held;    /* events in the ring, <= cap */
    uint64_t last_ns; /* latest time stamp accepted */
    uint64_t total;
    uint64_t dropped;
    uint8_t (*ids)[24]; /* per ring slot: trace id, span id; NULL until a traced add */
};

/* The stable names, indexed by type; doc/spec.md §6 names the first two, the host sampler
 * (lib/host) logs 7 … 12. */
static const char *const attr_names[] = {
    NULL,
    LLMM_EVENT_ATTR_TCP_RETRANSMIT,
    LLMM_EVENT_ATTR_MAJOR_FAULT,
    LLMM_EVENT_ATTR_SCHED_JITTER,
    LLMM_EVENT_ATTR_NUMA_MIGRATION,
    LLMM_EVENT_ATTR_WEIGHT_SWITCH,
    LLMM_EVENT_ATTR_GC_PAUSE,
    LLMM_EVENT_ATTR_CPU_PRESSURE,
    LLMM_EVENT_ATTR_MEMORY_PRESSURE,
    LLMM_EVENT_ATTR_IO_PRESSURE,
    LLMM_EVENT_ATTR_CPU_FREQ_DROP,
    LLMM_EVENT_ATTR_CTX_SWITCHES,
    LLMM_EVENT_ATTR_CPU_THROTTLE,
};
#define KNOWN_TYPES ((int32_t)(sizeof attr_names / sizeof attr_names[0]))

const char *llmm_event_attr_name(int32_t type)
{
    return type > 0 && type < KNOWN_TYPES ? attr_names[type] : NULL;
}

static int type_ok(int32_t type)
{
    return (type > 0 && type < KNOWN_TYPES) || type >= LLMM_EVENT_USER;
}

llmm_status llmm_event_log_new(llmm_ctx *ctx, uint32_t capacity, llmm_event_log **out)
{
    llmm_event_log *log;

    if (!out)
        return LLMM_E_INVALID;
    *out = NULL;
    if (capacity == 0)
        capacity = LLMM_EVENT_LOG_CAPACITY_DEFAULT;
    if (capacity > LLMM_EVENT_LOG_CAPACITY_MAX)
        return LLMM_E_RANGE;
    log = llmm__calloc(ctx, 1, sizeof *log);
    if (!log)
        return LLMM_E_NOMEM;
    log->ring = llmm__calloc(ctx, capacity, sizeof *log->ring);
    if (!log->ring) {
        llmm__free(ctx, log, sizeof *log);
        return LLMM_E_NOMEM;
    }
    log->ctx = ctx;
    log->cap = capacity;
    *out = log;
    return LLMM_OK;
}

void llmm_event_log_free(llmm_event_log *log)
{
    if (!log)
        return;
    llmm__free(log->ctx, log->ring, (size_t)log->cap * sizeof *log->ring);
    if (log->ids)
        llmm__free(log->ctx, log->ids, (size_t)log->cap * sizeof *log->ids);
    llmm__free(log->ctx, log, sizeof *log);
}

/* Ring index of the i-th oldest event (i <= held, i < cap). */
static uint32_t slot_of(const llmm_event_log *log, uint32_t i)
{
    uint32_t j = log->start + i;
    return j >= log->cap ? j - log->cap : j;
}

static const event_rec *rec_at(const llmm_event_log *log, uint32_t i)
{
    return &log->ring[slot_of(log, i)];
}

/* Add an event (checked) with its ids (NULL: none) into the slot of the newest. */
static void add_checked(llmm_event_log *log, uint64_t now_ns, int32_t type, double value,
                        const uint8_t *trace_id, const uint8_t *span_id);

llmm_status llmm_event_log_add(llmm_event_log *log, uint64_t now_ns, int32_t type, double value)
{
    return llmm_event_log_add_traced(log, now_ns, type, value, NULL, NULL);
}

llmm_status llmm_event_log_add_traced(llmm_event_log *log, uint64_t now_ns, int32_t type,
                                      double value, const uint8_t *trace_id, const uint8_t *span_id)
{
    if (!log || now_ns < log->last_ns || !type_ok(type) || !llmm__is_finite(value))
        return LLMM_E_INVALID;
    if ((trace_id || span_id) && !log->ids) {
        log->ids = llmm__calloc(log->ctx, log->cap, sizeof *log->ids);
        if (!log->ids)
            return LLMM_E_NOMEM;
    }
    add_checked(log, now_ns, type, value, trace_id, span_id);
    return LLMM_OK;
}

static void add_checked(llmm_event_log *log, uint64_t now_ns, int32_t type, double value,
                        const uint8_t *trace_id, const uint8_t *span_id)
{
    event_rec *r;

    if (log->held == log->cap) {
        r = &log->ring[log->start];
        if (++log->start == log->cap)
            log->start = 0;
        log->dropped++;
    } else {
        r = &log->ring[slot_of(log, log->held)];
        log->held++;
    }
    r->t = now_ns;
    r->value = value;
    r->type = type;
    if (log->ids) {
        uint8_t *id = log->ids[r - log->ring];
        memset(id, 0, sizeof *log->ids);
        if (trace_id)
            memcpy(id, trace_id, 16);
        if (span_id)
            memcpy(id + 16, span_id, 8);
    }
    log->total++;
    log->last_ns = now_ns;
}

/* First index whose time stamp is >= t (strict = 0) or > t (strict = 1); held if none. */
static uint32_t search(const llmm_event_log *log, uint64_t t, int strict)
{
    uint32_t lo = 0, hi = log->held;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint64_t v = rec_at(log, mid)->t;
        if (v < t || (strict && v == t))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t llmm__event_log_last_ns(const llmm_event_log *log)
{
    return log->last_ns;
}

/* The events of [at_ns − lookback_ns, at_ns]: *end is one past the newest, *len how many. */
static void lookback_range(const llmm_event_log *log, uint64_t at_ns, uint64_t lookback_ns,
                           uint32_t *end, size_t *len)
{
    uint64_t from = at_ns >= lookback_ns ? at_ns - lookback_ns : 0;
    uint32_t first = search(log, from, 0);
    *end = search(log, at_ns, 1);
    *len = *end > first ? (size_t)(*end - first) : 0;
}

llmm_status llmm_event_log_lookback(const llmm_event_log *log, uint64_t at_ns, uint64_t lookback_ns,
                                    llmm_event *out, size_t cap, size_t *len)
{
    uint32_t end, i;
    size_t n;

    if (!log || !len || (!out && cap > 0))
        return LLMM_E_INVALID;
    lookback_range(log, at_ns, lookback_ns, &end, &n);
    *len = n;
    if (n > cap)
        return LLMM_E_BUFFER;
    for (i = 0; i < n; i++) {
        const event_rec *r = rec_at(log, end - 1 - i);
        out[i].time_ns = r->t;
        out[i].before_ns = at_ns - r->t;
        out[i].value = r->value;
        out[i].type = r->type;
        out[i].reserved = 0;
    }
    return LLMM_OK;
}

llmm_status llmm_event_log_lookback_traced(const llmm_event_log *log, uint64_t at_ns,
                                           uint64_t lookback_ns, llmm_traced_event *out, size_t cap,
                                           size_t *len)
{
    uint32_t end, stride = 0;
    size_t i, n;
    llmm_status st;

    if (!log || !len || (!out && cap > 0))
        return LLMM_E_INVALID;
    if (cap > 0) { /* every record checked before anything is written */
        if ((st = LLMM__SIZED_CHECK(llmm_traced_event, out)) != LLMM_OK)
            return st;
        stride = out->struct_size;
        for (i = 1; i < cap; i++) {
            uint32_t size;
            memcpy(&size, (const uint8_t *)out + i * stride, sizeof size);
            if (size != stride)
                return LLMM_E_INVALID;
        }
    }
    lookback_range(log, at_ns, lookback_ns, &end, &n);
    *len = n;
    if (n > cap)
        return LLMM_E_BUFFER;
    for (i = 0; i < n; i++) {
        uint32_t slot = slot_of(log, end - 1 - (uint32_t)i);
        const event_rec *r = &log->ring[slot];
        llmm_traced_event o;
        memset(&o, 0, sizeof o);
        o.struct_size = (uint32_t)sizeof o;
        o.type = r->type;
        o.time_ns = r->t;
        o.before_ns = at_ns - r->t;
        o.value = r->value;
        if (log->ids) {
            memcpy(o.trace_id, log->ids[slot], 16);
            memcpy(o.span_id, log->ids[slot] + 16, 8);
        }
        LLMM__SIZED_PUT(llmm_traced_event, (llmm_traced_event *)((uint8_t *)out + i * stride), &o);
    }
    return LLMM_OK;
}

llmm_status llmm_event_log_count(const llmm_event_log *log, int32_t type, uint64_t from_ns,
                                 uint64_t to_ns, uint64_t *count)
{
    uint32_t first, end, i;
    uint64_t n = 0;

    if (!log || !count || type < 0 || to_ns < from_ns)
        return LLMM_E_INVALID;
    first = search(log, from_ns, 0);
    end = search(log, to_ns, 1);
    if (type == 0) {
        n = end > first ? end - first : 0;
    } else {
        for (i = first; i < end; i++)
            n += rec_at(log, i)->type == type;
    }
    *count = n;
    return LLMM_OK;
}

llmm_status llmm_event_log_counts(const llmm_event_log *log, uint64_t *held, uint64_t *total,
                                  uint64_t *dropped)
{
    if (!log)
        return LLMM_E_INVALID;
    if (held)
        *held = log->held;
    if (total)
        *total = log->total;
    if (dropped)
        *dropped = log->dropped;
    return LLMM_OK;
}

llmm_status llmm_event_log_reset(llmm_event_log *log)
{
    if (!log)
        return LLMM_E_INVALID;
    log->start = 0;
    log->held = 0;
    log->last_ns = 0;
    log->total = 0;
    log->dropped = 0;
    return LLMM_OK;
}
