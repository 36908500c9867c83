/**
 * @file host.h
 * @brief Host signals: the kernel's own counters of the usual causes of latency spikes (TCP
 * retransmits, major faults, scheduler delay, NUMA migrations, pressure stalls, CPU frequency
 * and throttling), read from `/proc` and `/sys` without a probe or a privilege, turned into
 * rates, into events for the event log and into series for llmm_correlation().
 */
#ifndef LLMMETRICS_HOST_H
#define LLMMETRICS_HOST_H

#include "llmmetrics/detect.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup host Host signals: Linux counters sampled from the caller's timer
 *
 * A ::llmm_host_sampler opens the files below once, at creation, and re-reads them (`pread`)
 * each time the caller calls llmm_host_sample() — typically from its own 50 ms timer. There is
 * no thread, no global state and no allocation after creation; each sample turns the counters'
 * growth over the interval since the previous sample into a rate per second.
 *
 * | signal | file (under `root`) | unit of the rate | event type |
 * |---|---|---|---|
 * | #LLMM_HOST_TCP_RETRANS | `proc/net/snmp`, `Tcp:` RetransSegs | segments/s | #LLMM_EVENT_TCP_RETRANSMIT |
 * | #LLMM_HOST_MAJOR_FAULTS | `proc/vmstat` pgmajfault | faults/s | #LLMM_EVENT_MAJOR_FAULT |
 * | #LLMM_HOST_CTX_SWITCHES | `proc/stat` ctxt | switches/s | #LLMM_EVENT_CTX_SWITCHES |
 * | #LLMM_HOST_RUN_DELAY | `proc/self/schedstat`, 2nd field (ns waiting on a run queue) | s/s | #LLMM_EVENT_SCHED_JITTER |
 * | #LLMM_HOST_NUMA_MIGRATIONS | `proc/vmstat` numa_pages_migrated, else pgmigrate_success | pages/s | #LLMM_EVENT_NUMA_MIGRATION |
 * | #LLMM_HOST_PSI_CPU | `proc/pressure/cpu`, `some` total (µs) | stall s/s | #LLMM_EVENT_CPU_PRESSURE |
 * | #LLMM_HOST_PSI_MEMORY | `proc/pressure/memory`, `some` total | stall s/s | #LLMM_EVENT_MEMORY_PRESSURE |
 * | #LLMM_HOST_PSI_IO | `proc/pressure/io`, `some` total | stall s/s | #LLMM_EVENT_IO_PRESSURE |
 * | #LLMM_HOST_CPU_FREQ_MHZ | `sys/devices/system/cpu/cpuN/cpufreq/scaling_cur_freq` (kHz) of each CPU of `sys/devices/system/cpu/present` that has it (the first 1024) | MHz (a level) | #LLMM_EVENT_CPU_FREQ_DROP |
 * | #LLMM_HOST_CPU_THROTTLE | `cpu.stat` of this process's cgroup: v2 throttled_usec, else v1 throttled_time (ns) | throttled s/s | #LLMM_EVENT_CPU_THROTTLE |
 *
 * What each counts. TCP retransmits, major faults, context switches and page migrations are
 * host-wide (TCP: the process's network namespace when the sampler was made). The run delay is
 * the time the process's main thread (the kernel reports `/proc/self/schedstat` for the thread
 * group leader only) spent runnable but waiting for a CPU: seconds per second, 0.05 = it
 * waited 5 % of the interval. A pressure rate is the share of the interval in which at least
 * one task stalled on that resource (PSI "some"; Linux ≥ 4.20 with PSI enabled). The CPU
 * frequency is a level, not a rate: the mean of the CPUs' current frequencies at the sample.
 * The throttle rate is the time the CPU controller held this process's cgroup back because it
 * had used its quota (summed over CPUs, so it may exceed 1). The cgroup is found through
 * `proc/self/cgroup`: the v2 entry under `sys/fs/cgroup` or `sys/fs/cgroup/unified`, else the
 * v1 `cpu` hierarchy under `sys/fs/cgroup/cpu` (or `cpu,cpuacct`, `cpuacct,cpu`).
 *
 * Availability. A signal whose file is missing, unreadable, not a regular file, or does not
 * hold the value in the expected form when the sampler is created is *unavailable*: its rate
 * is #LLMM_E_STATE for the sampler's whole life. Nothing else about it fails: the sampler
 * works with whatever the host exposes, and on systems other than Linux every signal is
 * unavailable. Files are kept open (one descriptor per file, one per CPU for the frequency,
 * close-on-exec) until llmm_host_sampler_free().
 *
 * Strict reading. A value is taken only from a complete line in the expected layout (keys and
 * columns are found by name, so layouts of other kernel versions read the same); a number is
 * 1 to 20 decimal digits within 64 bits. Anything else in a later sample — garbage, a
 * truncated file, a read error, a counter that went backwards — *refuses* that signal's
 * reading for that sample (llmm_host_signal_rate() then returns #LLMM_E_CORRUPT), never a
 * wrong number. After garbage or a read error the next interval has no rate either
 * (#LLMM_E_EMPTY: its start is not known) and the rate comes back one sample later; a counter
 * that went backwards (it restarted) counts on from its new value.
 *
 * Rates. The rate of a counter is its growth between the two latest samples divided by the
 * time between them (`now_ns` of the two calls: the caller's clock). The frequency's value is
 * the level at the latest sample.
 *
 * Events. When a log is given, each sample adds, at `now_ns`, one event per signal whose rate
 * over the interval is above the signal's threshold (llmm_host_sampler_set_f64()), typed as
 * the table says, with the rate (per second) as its value. For the frequency, the event is a
 * drop: the level fell below `(1 − threshold)` times the previous sample's level; its value is
 * the new level in MHz. Defaults (@ref options_reference, #LLMM_KIND_HOST_SAMPLER): any TCP
 * retransmit, major fault, NUMA migration or throttled time (threshold 0); run delay above
 * 0.05 s/s; CPU pressure above 0.2, memory pressure above 0.05 and I/O pressure above 0.1
 * stall s/s; a frequency drop of more than 20 %; no event for context switches (+Inf: their
 * normal rate depends on the host's size and load by orders of magnitude; set a threshold to
 * enable them). An event stands for the interval that ends at its time stamp: to attribute a
 * spike at `t` to host signals, look back from `t` plus one sampling interval
 * (llmm_event_log_lookback()), so that the interval holding the spike is included.
 *
 * Correlation. The rates are series like any other: sample at the end of each interval, take
 * the same interval's latency quantile from a ::llmm_window (llmm_window_quantile() with the
 * interval as the span), and hand the two series to llmm_correlation():
 *
 * ~~~{.c}
 * for (k = 0; k < n; k++) {                     // once per interval, from the caller's timer
 *     uint64_t now = llmm_now_ns();
 *     llmm_host_sample(s, now, log);
 *     if (llmm_host_signal_rate(s, LLMM_HOST_PSI_CPU, &psi[m]) == LLMM_OK &&
 *         llmm_window_quantile(w, now, interval_ns, 0.99, &p99[m]) == LLMM_OK)
 *         m++;
 * }
 * llmm_correlation(NULL, psi, p99, m, LLMM_CORRELATION_SPEARMAN, &rho);
 * ~~~
 *
 * Cost. One sample reads at most eight files plus one per CPU with frequency scaling; most of
 * its time is the kernel formatting /proc/vmstat, /proc/net/snmp and /proc/stat, which grow
 * with the CPU count. `bench_host` (bench/) measures it: on the test machine (2 CPUs, Linux
 * 6.18, nine signals) about 80 µs of CPU time, 0.17 % of a 50 ms interval on one core.
 *
 * Thread safety: a sampler is used by one thread at a time and may move between threads;
 * llmm_host_signal_rate() and the getter are safe concurrently with other readers.
 * @{
 */

/**
 * @brief The host signals (values pinned). Each is also the key of its event threshold
 * (::llmm_host_option).
 * @since 1.1.0
 */
typedef enum llmm_host_signal {
    LLMM_HOST_TCP_RETRANS = 1,     /**< TCP segments retransmitted per second */
    LLMM_HOST_MAJOR_FAULTS = 2,    /**< major page faults per second */
    LLMM_HOST_CTX_SWITCHES = 3,    /**< context switches per second, all CPUs */
    LLMM_HOST_RUN_DELAY = 4,       /**< seconds per second the main thread waited for a CPU */
    LLMM_HOST_NUMA_MIGRATIONS = 5, /**< pages migrated per second */
    LLMM_HOST_PSI_CPU = 6,         /**< CPU pressure: stall seconds per second ("some") */
    LLMM_HOST_PSI_MEMORY = 7,      /**< memory pressure: stall seconds per second ("some") */
    LLMM_HOST_PSI_IO = 8,          /**< I/O pressure: stall seconds per second ("some") */
    LLMM_HOST_CPU_FREQ_MHZ = 9,    /**< mean current CPU frequency in MHz (a level) */
    LLMM_HOST_CPU_THROTTLE = 10,   /**< seconds per second the cgroup was throttled */
    LLMM_HOST_SIGNAL_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_host_signal;

/**
 * @brief Option keys of the sampler: the event threshold of each signal, keyed by the
 * signal's own value; all f64. Types, bounds and defaults: @ref options_reference
 * (llmm_option_describe() with #LLMM_KIND_HOST_SAMPLER). A threshold may change at any time
 * and applies from the next sample; +Inf turns a signal's events off.
 * @since 1.1.0
 */
typedef enum llmm_host_option {
    /** An event when the retransmit rate is above this (segments/s). */
    LLMM_HOST_TCP_RETRANS_ABOVE = 1,
    /** An event when the major-fault rate is above this (faults/s). */
    LLMM_HOST_MAJOR_FAULTS_ABOVE = 2,
    /** An event when the context-switch rate is above this (switches/s). */
    LLMM_HOST_CTX_SWITCHES_ABOVE = 3,
    /** An event when the run delay is above this (s/s). */
    LLMM_HOST_RUN_DELAY_ABOVE = 4,
    /** An event when the page-migration rate is above this (pages/s). */
    LLMM_HOST_NUMA_MIGRATIONS_ABOVE = 5,
    /** An event when the CPU pressure is above this (stall s/s). */
    LLMM_HOST_PSI_CPU_ABOVE = 6,
    /** An event when the memory pressure is above this (stall s/s). */
    LLMM_HOST_PSI_MEMORY_ABOVE = 7,
    /** An event when the I/O pressure is above this (stall s/s). */
    LLMM_HOST_PSI_IO_ABOVE = 8,
    /** An event when the frequency fell by more than this share since the previous sample. */
    LLMM_HOST_CPU_FREQ_DROP = 9,
    /** An event when the throttled time is above this (s/s). */
    LLMM_HOST_CPU_THROTTLE_ABOVE = 10,
    LLMM_HOST_OPTION_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_host_option;

/**
 * @brief A sampler of host signals (opaque).
 * @since 1.1.0
 */
typedef struct llmm_host_sampler llmm_host_sampler;

/**
 * @brief The stable name of a signal, for files, labels and reports: `tcp_retrans`,
 * `major_faults`, `ctx_switches`, `run_delay`, `numa_migrations`, `psi_cpu`, `psi_memory`,
 * `psi_io`, `cpu_freq_mhz`, `cpu_throttle`.
 * @param[in] sig a signal
 * @return a static string, or NULL for a value that names no signal
 * @since 1.1.0
 * @note Thread-safe.
 */
LLMM_API const char *llmm_host_signal_name(llmm_host_signal sig);

/**
 * @brief The event type a signal's threshold crossings are logged as (the table above).
 * @param[in] sig a signal
 * @return an ::llmm_event_type, or 0 for a value that names no signal
 * @since 1.1.0
 * @note Thread-safe.
 */
LLMM_API int32_t llmm_host_signal_event(llmm_host_signal sig);

/**
 * @brief Create a sampler: open the files of every signal the host exposes under `root`.
 *
 * A signal the host does not expose is unavailable (#LLMM_E_STATE from
 * llmm_host_signal_rate()); that is not an error here. Reads each file once, to size its
 * buffer (at most 4 MiB per file) and to check its layout.
 * @param[in] ctx allocation context, or NULL for libc
 * @param[in] root the directory that stands for `/` (the sampler reads `<root>/proc/…` and
 *            `<root>/sys/…`: a container's view of the host, or a captured tree), at most
 *            2048 bytes; NULL means `/`
 * @param[out] out the new sampler, or NULL on failure
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `out` is NULL, or `root` is longer than 2048 bytes
 * @retval LLMM_E_NOMEM (every descriptor opened so far is closed again)
 * @since 1.1.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_host_sampler_new(llmm_ctx *ctx, const char *root,
                                           llmm_host_sampler **out);

/**
 * @brief Free a sampler and close its files. NULL is a no-op.
 * @param[in] s the sampler
 * @since 1.1.0
 * @note Not thread-safe: no other call on `s` may run concurrently.
 */
LLMM_API void llmm_host_sampler_free(llmm_host_sampler *s);

/**
 * @brief Set an event threshold (bounds: @ref options_reference).
 * @param[in,out] s the sampler
 * @param[in] key a threshold (::llmm_host_option)
 * @param[in] value the new threshold
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `s` is NULL or `value` is NaN
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not an option of the sampler
 * @retval LLMM_E_RANGE `value` outside the option's bounds (nothing changed)
 * @since 1.1.0
 * @note Not thread-safe.
 */
LLMM_API llmm_status llmm_host_sampler_set_f64(llmm_host_sampler *s, llmm_host_option key,
                                               double value);

/**
 * @brief Read an event threshold.
 * @param[in] s the sampler
 * @param[in] key a threshold (::llmm_host_option)
 * @param[out] value its current value
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument
 * @retval LLMM_E_UNKNOWN_OPTION `key` is not an option of the sampler
 * @since 1.1.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_host_sampler_get_f64(const llmm_host_sampler *s, llmm_host_option key,
                                               double *value);

/**
 * @brief Take one sample: re-read every available signal, compute the rates over the interval
 * since the previous sample and, when `log` is given, log one event per signal above its
 * threshold at `now_ns`.
 *
 * A signal whose reading is refused (see the group documentation) changes nothing else. On
 * an error nothing changes: no rate, no event, the clock stays.
 * @param[in,out] s the sampler
 * @param[in] now_ns the time of the sample on the caller's clock, later than the previous
 *            sample's
 * @param[in,out] log where events go (nullable); its latest event must not be later than
 *                `now_ns`
 * @retval LLMM_OK (also when some or all signals are unavailable or refused)
 * @retval LLMM_E_INVALID `s` is NULL, `now_ns` is not later than the previous sample's, or
 *         `log` holds an event later than `now_ns`
 * @since 1.1.0
 * @note Not thread-safe: single writer (also of `log`).
 */
LLMM_API llmm_status llmm_host_sample(llmm_host_sampler *s, uint64_t now_ns, llmm_event_log *log);

/**
 * @brief A signal's rate over the last interval (the interval between the two latest samples),
 * per second; for #LLMM_HOST_CPU_FREQ_MHZ the level at the latest sample, in MHz.
 * @param[in] s the sampler
 * @param[in] sig the signal
 * @param[out] per_second the rate (or level); written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a NULL argument, or `sig` names no signal
 * @retval LLMM_E_STATE the host does not expose this signal (see "Availability")
 * @retval LLMM_E_EMPTY no rate yet: fewer than two samples (for the frequency: none), or the
 *         reading before the latest one was refused
 * @retval LLMM_E_CORRUPT the latest reading was refused (garbage, read error, counter went
 *         backwards)
 * @since 1.1.0
 * @note Safe to call concurrently with other readers.
 */
LLMM_API llmm_status llmm_host_signal_rate(const llmm_host_sampler *s, llmm_host_signal sig,
                                           double *per_second);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_HOST_H */
