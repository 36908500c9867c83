/**
 * @file capacity.h
 * @brief Throughput decay, roofline, scaling and communication overhead, Little's-law capacity.
 *
 * Closed-form capacity figures. Every call is a pure function of its arguments: it checks them,
 * writes its out-parameter only on success and touches nothing else. Units are whatever the
 * caller uses, as long as the arguments of one call agree (the roofline takes FLOP/s and
 * bytes/s; Little's law takes milliseconds, as named).
 *
 * Thread safety: every call in this header is thread-safe.
 */
#ifndef LLMMETRICS_CAPACITY_H
#define LLMMETRICS_CAPACITY_H

#include "llmmetrics/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup capacity Capacity formulas
 * @{
 */

/**
 * @brief Safety factor used by llmm_littles_law_tps() when 0 is passed.
 * @since 1.0.0
 */
#define LLMM_LITTLES_LAW_SAFETY_DEFAULT 0.85

/**
 * @brief Throughput decay rate η = 1 − T_actual / T_peak.
 *
 * 0 means the peak is reached, 0.9 means 90 % of it is lost. An actual throughput above the
 * peak gives a negative η (the "peak" was not one); it is reported, not refused.
 * @param[in] actual measured throughput, finite, ≥ 0
 * @param[in] peak peak throughput, finite, > 0
 * @param[out] eta the decay rate; written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `eta` is NULL, a value is NaN or infinite, actual < 0 or peak ≤ 0
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_decay_rate(double actual, double peak, double *eta);

/**
 * @brief Roofline bound T_attainable = min(T_peak, B · I).
 *
 * Reference: an A100 (B = 2039 GB/s, 312 TFLOP/s FP16) running a kernel of intensity 16
 * FLOPs/byte attains 32.624 TFLOP/s, so its decay against the peak is 0.89544.
 * @param[in] peak_flops peak compute throughput, FLOP/s, finite, > 0
 * @param[in] bandwidth_bytes memory bandwidth, bytes/s, finite, > 0
 * @param[in] intensity arithmetic intensity, FLOPs per byte, finite, ≥ 0
 * @param[out] attainable the attainable FLOP/s; written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `attainable` is NULL, a value is NaN or infinite, or out of range
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_roofline(double peak_flops, double bandwidth_bytes, double intensity,
                                   double *attainable);

/**
 * @brief Critical (ridge-point) intensity I_crit = T_peak / B: kernels below it are
 * memory-bound, above it compute-bound.
 *
 * Reference: A100 (2039 GB/s, 312 TFLOP/s) ≈ 153.0 FLOPs/byte; H100 (4000 GB/s, 756 TFLOP/s)
 * = 189.0.
 * @param[in] peak_flops peak compute throughput, FLOP/s, finite, > 0
 * @param[in] bandwidth_bytes memory bandwidth, bytes/s, finite, > 0
 * @param[out] intensity I_crit in FLOPs per byte; written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `intensity` is NULL, a value is NaN, infinite or ≤ 0
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_roofline_critical_intensity(double peak_flops, double bandwidth_bytes,
                                                      double *intensity);

/**
 * @brief Arithmetic intensity I = FLOPs / bytes moved (e.g. 2048 FLOPs over 128 bytes = 16).
 * @param[in] flops floating-point operations, finite, ≥ 0
 * @param[in] bytes bytes read and written, finite, > 0
 * @param[out] intensity FLOPs per byte; written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `intensity` is NULL, a value is NaN or infinite, flops < 0 or
 *         bytes ≤ 0
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_arithmetic_intensity(double flops, double bytes, double *intensity);

/**
 * @brief Multi-GPU scaling decay against linear scaling: 1 − measured / ideal.
 *
 * Reference: ideal 184 / measured 172 tok/s → 0.0652; 368/329 → 0.1060; 736/612 → 0.1685.
 * @param[in] ideal linear-scaling throughput (single-device throughput × devices), finite, > 0
 * @param[in] measured measured throughput, finite, ≥ 0
 * @param[out] decay the decay; written only on success (negative for super-linear scaling)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `decay` is NULL, a value is NaN or infinite, or out of range
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_scaling_decay(double ideal, double measured, double *decay);

/**
 * @brief Scaling decay from a single-device throughput and a device count:
 * 1 − measured / (single · devices).
 *
 * Reference: 92 tok/s on one GPU, 172 tok/s on 2 → 0.0652.
 * @param[in] single throughput of one device, finite, > 0
 * @param[in] devices number of devices, ≥ 1
 * @param[in] measured measured throughput on all devices, finite, ≥ 0
 * @param[out] decay the decay; written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `decay` is NULL, devices is 0, a value is NaN or infinite, or out of
 *         range
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_scaling_decay_devices(double single, uint32_t devices, double measured,
                                                double *decay);

/**
 * @brief Communication share of a step: comm_time / step_time (e.g. AllReduce 0.82 ms of a
 * 3.5 ms step → 0.2343).
 * @param[in] comm_time time spent communicating, finite, 0 ≤ comm_time ≤ step_time
 * @param[in] step_time the whole step, same unit, finite, > 0
 * @param[out] share the share in [0, 1]; written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `share` is NULL, a value is NaN or infinite, or out of range
 *         (including comm_time > step_time)
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_comm_share(double comm_time, double step_time, double *share);

/**
 * @brief Sequence-length decay between two measured throughputs: 1 − tps_long / tps_short.
 *
 * Reference: 1127 → 693 tok/s = 0.3851; 1210 → 1056 = 0.1273; 612 → 341 = 0.4428.
 * @param[in] tps_short throughput at the shorter sequence length, finite, > 0
 * @param[in] tps_long throughput at the longer sequence length, finite, ≥ 0
 * @param[out] decay the decay; written only on success (negative if the longer sequences ran
 *             faster)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `decay` is NULL, a value is NaN or infinite, or out of range
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_seqlen_decay(double tps_short, double tps_long, double *decay);

/**
 * @brief SLO-driven capacity from Little's law (L = λW): tps = max(1, L / W · safety).
 *
 * W is the P99.9 latency in seconds (the argument is in milliseconds), L the mean number of
 * requests in flight. Reference: L = 45 and P99.9 = 150 / 200 / 250 ms with safety 0.85 →
 * 255.0 / 191.25 / 153.0 requests per second. The floor of 1 keeps a capacity plan from
 * ever admitting nothing.
 * @param[in] p999_ms P99.9 latency in milliseconds, finite, > 0
 * @param[in] concurrency mean in-flight requests L, finite, ≥ 0
 * @param[in] safety safety factor in (0, 1], or 0 for #LLMM_LITTLES_LAW_SAFETY_DEFAULT
 * @param[out] tps requests per second; written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `tps` is NULL, a value is NaN or infinite, p999_ms ≤ 0 or
 *         concurrency < 0
 * @retval LLMM_E_RANGE safety is negative or above 1
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_littles_law_tps(double p999_ms, double concurrency, double safety,
                                          double *tps);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_CAPACITY_H */
