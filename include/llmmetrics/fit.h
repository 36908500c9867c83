/**
 * @file fit.h
 * @brief Least squares, polynomials and roots, knee estimators, Universal Scalability Law.
 *
 * Everything here is a pure function of its arguments: no handle, no allocation, no global
 * state. Work space is bounded by #LLMM_POLY_MAX_DEGREE and lives on the stack (under 24 KiB).
 *
 * Polynomial coefficients are ordered highest power first, as in numpy (`coeffs[0]·x^d + … +
 * coeffs[d]`), so arrays move between this library and `numpy.polyfit` / `numpy.polyval`
 * unchanged.
 *
 * Thread safety: every call in this header is thread-safe (it reads only its arguments and
 * writes only its out-parameters).
 */
#ifndef LLMMETRICS_FIT_H
#define LLMMETRICS_FIT_H

#include <stddef.h>
#include <stdint.h>

#include "llmmetrics/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @defgroup fit_poly Least-squares polynomials and real roots
 * @{
 */

/**
 * @brief Highest degree that llmm_polyfit(), llmm_polyfit_weighted() and llmm_poly_roots()
 * accept. llmm_poly_eval() and llmm_poly_deriv() take any degree.
 * @since 1.0.0
 */
#define LLMM_POLY_MAX_DEGREE 16

/**
 * @brief Diagnostics of a least-squares polynomial fit.
 *
 * The figures come from the orthogonal factorisation of the centred and scaled problem, so they
 * describe the least-squares polynomial itself; evaluating the returned highest-power-first
 * coefficients in double precision far from the data's centre can add rounding of its own.
 * Weighted fits report weighted sums (Σ wᵢ rᵢ²).
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_fit_stats {
    uint32_t struct_size; /**< caller-sized: set by llmm_fit_stats_init() */
    /** Numerical rank of the centred, scaled, column-equilibrated Vandermonde matrix: the
     * number of columns whose distance from the span of the lower powers exceeds
     * `max(n, degree + 1) · DBL_EPSILON` of their norm. A successful fit always has
     * rank = degree + 1. */
    uint32_t rank;
    uint64_t n;          /**< points that entered the fit (weight > 0) */
    double r2;           /**< coefficient of determination 1 − rss/tss; 1 when tss = 0 */
    double rss;          /**< residual sum of squares Σ wᵢ (yᵢ − p(xᵢ))² */
    double tss;          /**< total sum of squares about the (weighted) mean of y */
    double residual_std; /**< sqrt(rss / (n − degree − 1)); 0 when n = degree + 1 */
    /** 1-norm condition number of the triangular factor of the column-equilibrated, centred
     * and scaled Vandermonde matrix (≥ 1; large values mean the coefficients are poorly
     * determined by the data). */
    double condition;
    double centre; /**< c of the abscissa map t = (x − c)/h, the midpoint of x */
    double scale;  /**< h of the abscissa map, a power of two ≥ half the range of x */
} llmm_fit_stats;

/**
 * @brief Initialise a ::llmm_fit_stats: every field 0.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] st the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `st` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_fit_stats_init(llmm_fit_stats *st);
/** @cond LLMM_INTERNAL */
#define llmm_fit_stats_init(st) LLMM_SIZED_INIT_(LLMM_STRUCT_FIT_STATS, llmm_fit_stats, st)
/** @endcond */

/**
 * @brief Least-squares polynomial fit, the equivalent of `numpy.polyfit(x, y, degree)`.
 *
 * Minimises Σ (yᵢ − p(xᵢ))². Method: the abscissa is centred and scaled, t = (x − c)/h with c
 * the midpoint of x and h a power of two (so the map is exact), the Vandermonde matrix in t is
 * factorised by Householder QR (blocked, streaming: nothing is allocated), and the coefficients
 * are converted back to powers of x in double-double arithmetic before being rounded once. The
 * normal equations are never formed. On well-posed data the coefficients agree with numpy to
 * about 1e-12 relative; on ill-conditioned data (x far from 0 relative to its spread, high
 * degree) they are markedly more accurate than numpy's.
 *
 * @param[in] x abscissae, `n` finite values, any order, repeats allowed
 * @param[in] y ordinates, `n` finite values
 * @param[in] n number of points, at least degree + 1
 * @param[in] degree polynomial degree, 0 … #LLMM_POLY_MAX_DEGREE
 * @param[out] coeffs degree + 1 coefficients, highest power first; written only on success
 * @param[in,out] st diagnostics (struct_size set by llmm_fit_stats_init()), or NULL; written
 *                only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a pointer is NULL; a value is NaN or infinite; n < degree + 1; or the
 *         data are degenerate (fewer than degree + 1 distinct abscissae: rank deficient)
 * @retval LLMM_E_EMPTY n is 0
 * @retval LLMM_E_RANGE degree > #LLMM_POLY_MAX_DEGREE, or a fitted coefficient is not
 *         representable as a finite double
 * @retval LLMM_E_ABI `st->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_polyfit(const double *x, const double *y, size_t n, uint32_t degree,
                                  double *coeffs, llmm_fit_stats *st);

/**
 * @brief Weighted least-squares polynomial fit: minimises Σ wᵢ (yᵢ − p(xᵢ))².
 *
 * A weight acts as a repeat count: integer weights give exactly the fit of the data with each
 * point repeated wᵢ times, and a zero weight removes a point. For inverse-variance weighting
 * pass wᵢ = 1/σᵢ². (numpy's `polyfit(x, y, d, w=v)` multiplies the unsquared residuals by v,
 * so it equals this call with wᵢ = vᵢ².) Method, accuracy and diagnostics as llmm_polyfit();
 * `st->n` counts the points with a positive weight and the sums in `st` are weighted.
 *
 * @param[in] x abscissae, `n` finite values
 * @param[in] y ordinates, `n` finite values
 * @param[in] w weights, `n` finite values ≥ 0
 * @param[in] n number of points
 * @param[in] degree polynomial degree, 0 … #LLMM_POLY_MAX_DEGREE
 * @param[out] coeffs degree + 1 coefficients, highest power first; written only on success
 * @param[in,out] st diagnostics, or NULL; written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a pointer is NULL; a value is NaN or infinite; a weight is negative;
 *         fewer than degree + 1 points have a positive weight; or the weighted data are rank
 *         deficient
 * @retval LLMM_E_EMPTY n is 0
 * @retval LLMM_E_RANGE degree > #LLMM_POLY_MAX_DEGREE, or a fitted coefficient is not
 *         representable as a finite double
 * @retval LLMM_E_ABI `st->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_polyfit_weighted(const double *x, const double *y, const double *w,
                                           size_t n, uint32_t degree, double *coeffs,
                                           llmm_fit_stats *st);

/**
 * @brief Evaluate a polynomial at one point by Horner's rule (as `numpy.polyval`).
 * @param[in] coeffs degree + 1 coefficients, highest power first, finite
 * @param[in] degree the degree (any value; coeffs must hold degree + 1 entries)
 * @param[in] x the point, finite
 * @param[out] y p(x); written only on success (it may be ±Inf if the value overflows)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a pointer is NULL, or x or a coefficient is NaN or infinite
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_poly_eval(const double *coeffs, uint32_t degree, double x, double *y);

/**
 * @brief Residuals of a polynomial against data, and their sum of squares.
 *
 * rᵢ = yᵢ − p(xᵢ), with p evaluated by compensated Horner (error-free transformations), which is
 * as accurate as Horner's rule in twice the working precision; so this is the reliable way to
 * judge coefficients fitted far from x = 0.
 * @param[in] coeffs degree + 1 coefficients, highest power first, finite
 * @param[in] degree the degree (any value)
 * @param[in] x abscissae, `n` finite values
 * @param[in] y ordinates, `n` finite values
 * @param[in] n number of points (0 gives rss = 0)
 * @param[out] residuals `n` residuals, or NULL if only the sum is wanted
 * @param[out] rss Σ rᵢ², or NULL if only the residuals are wanted
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID coeffs, x or y is NULL (when n > 0), both outputs are NULL, or a value
 *         is NaN or infinite; nothing is written then
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_poly_residuals(const double *coeffs, uint32_t degree, const double *x,
                                         const double *y, size_t n, double *residuals, double *rss);

/**
 * @brief Derivative of any order of a polynomial (as `numpy.polyder(p, order)`).
 *
 * The result has degree − order + 1 coefficients, highest power first; when order > degree the
 * derivative is the zero polynomial, reported as a single coefficient 0 of degree 0. Order 0
 * copies the polynomial. `out` may be the same array as `coeffs` (in-place).
 * @param[in] coeffs degree + 1 coefficients, highest power first, finite
 * @param[in] degree the degree (any value)
 * @param[in] order how many times to differentiate (any value)
 * @param[out] out max(degree − order, 0) + 1 coefficients, highest power first
 * @param[out] out_degree degree of the result, or NULL
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID coeffs or out is NULL, or a coefficient is NaN or infinite
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_poly_deriv(const double *coeffs, uint32_t degree, uint32_t order,
                                     double *out, uint32_t *out_degree);

/**
 * @brief All real roots of a polynomial, ascending, each as often as its multiplicity.
 *
 * Leading zero coefficients are dropped (as numpy does) and trailing zeros give exact roots at
 * 0. The remaining roots are the eigenvalues of the balanced companion matrix, computed by the
 * Francis double-shift QR iteration on its Hessenberg form; every real eigenvalue is then
 * polished by Newton's method on the original coefficients. A complex-conjugate pair whose
 * real part is a root to working precision (|p(re)| within a small multiple of the rounding
 * error of evaluating p there) is a double real root split by rounding and is reported twice;
 * any other complex root is left out.
 *
 * @param[in] coeffs degree + 1 coefficients, highest power first, finite
 * @param[in] degree the degree as given (leading zeros allowed)
 * @param[out] roots the real roots, ascending; may be NULL when cap is 0; written only on
 *             success
 * @param[in] cap capacity of `roots`
 * @param[out] nroots number of real roots (also on LLMM_E_BUFFER: the capacity needed)
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID coeffs or nroots is NULL, roots is NULL with cap > 0, a coefficient
 *         is NaN or infinite, or every coefficient is 0 (every x would be a root)
 * @retval LLMM_E_RANGE the degree after dropping leading zeros exceeds #LLMM_POLY_MAX_DEGREE
 * @retval LLMM_E_BUFFER cap is smaller than the number of real roots (needed in `*nroots`)
 * @retval LLMM_E_NOT_CONVERGED the QR iteration did not converge (not seen in practice)
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_poly_roots(const double *coeffs, uint32_t degree, double *roots,
                                     size_t cap, size_t *nroots);

/** @} */

/**
 * @defgroup fit_knee Knee of a QPS-vs-concurrency curve
 *
 * Input is a load sweep: pairs (concurrency N, throughput QPS). Each estimator answers a
 * different question and has its own definition (below); llmm_knee_report() runs them all,
 * with a Universal Scalability Law fit, so that they can be compared side by side. Each result
 * carries a ::llmm_knee_quality flag; a missing knee is a result (quality
 * ::LLMM_KNEE_NONE, value NaN), not an error.
 * @{
 */

/**
 * @brief How well an estimate is supported by the data.
 * @since 1.0.0
 */
typedef enum llmm_knee_quality {
    LLMM_KNEE_NONE = 0, /**< no estimate: the estimator found nothing in the data range */
    LLMM_KNEE_WEAK = 1, /**< an estimate, but weakly supported (see each estimator) */
    LLMM_KNEE_OK = 2,   /**< a well-supported estimate */
    LLMM_KNEE_QUALITY_FORCE_INT_ = 0x7fffffff /**< @private keeps the enum int-sized */
} llmm_knee_quality;

/**
 * @brief One knee estimate.
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_knee {
    uint32_t struct_size;      /**< caller-sized: set by llmm_knee_init() */
    llmm_knee_quality quality; /**< see each estimator */
    double knee;               /**< concurrency at the knee; NaN when quality is NONE */
    double qps;                /**< throughput at the knee (see each estimator); NaN when NONE */
    double strength;           /**< estimator-specific support figure, documented per call */
} llmm_knee;

/**
 * @brief Initialise a ::llmm_knee: quality NONE, NaN values.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] k the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `k` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_knee_init(llmm_knee *k);
/** @cond LLMM_INTERNAL */
#define llmm_knee_init(k) LLMM_SIZED_INIT_(LLMM_STRUCT_KNEE, llmm_knee, k)
/** @endcond */

/**
 * @brief Knee as the inflection point of a least-squares cubic (the reference method).
 *
 * Definition: drop the first and last ⌊trim·n⌋ samples in the order given (a sweep's time
 * order, so start-up and wind-down transients go), fit a cubic a·N³ + b·N² + c·N + d to the
 * rest with llmm_polyfit(), and take the root of its second derivative, N* = −b/(3a). Only a
 * root inside [min N, max N] of the retained samples counts. A cubic's inflection has no
 * queueing meaning; prefer the USL or Kneedle estimates for decisions.
 *
 * Quality: NONE if a = 0 or N* is outside the retained range; WEAK if the cubic explains the
 * data poorly (R² < 0.9) or N* lies in the outer 5 % of the retained range; OK otherwise.
 * `qps` is the cubic's value at N*, `strength` its R².
 * @param[in] conc concurrency values, finite, any order
 * @param[in] qps throughput values, finite
 * @param[in] n number of samples; at least 4 must remain after trimming
 * @param[in] trim share cut at each end, 0 … 0.45 (the reference uses 0.1)
 * @param[out] knee N*; written only on success
 * @retval LLMM_OK an inflection inside the range (quality OK or WEAK)
 * @retval LLMM_E_EMPTY no inflection inside the retained range (quality NONE), or n is 0
 * @retval LLMM_E_INVALID a pointer is NULL, a value is NaN or infinite, fewer than 4 samples
 *         remain after trimming, or they hold fewer than 4 distinct concurrencies
 * @retval LLMM_E_RANGE trim is NaN or outside 0 … 0.45, or the cubic's coefficients are not
 *         representable (concurrencies beyond about 1e100)
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_knee_inflection(const double *conc, const double *qps, size_t n,
                                          double trim, double *knee);

/**
 * @brief The cubic-inflection estimator of llmm_knee_inflection() with its quality flag.
 * @param[in] conc concurrency values, finite, any order
 * @param[in] qps throughput values, finite
 * @param[in] n number of samples; at least 4 must remain after trimming
 * @param[in] trim share cut at each end, 0 … 0.45
 * @param[in,out] out the estimate (struct_size set by llmm_knee_init()); quality NONE is a
 *                result, not an error; written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_EMPTY n is 0
 * @retval LLMM_E_INVALID as llmm_knee_inflection()
 * @retval LLMM_E_RANGE as llmm_knee_inflection()
 * @retval LLMM_E_ABI `out->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_knee_inflection_ex(const double *conc, const double *qps, size_t n,
                                             double trim, llmm_knee *out);

/**
 * @brief Knee where the smoothed marginal gain collapses ("QPS growth collapse").
 *
 * Definition: with concurrencies strictly increasing, the marginal gains
 * gᵢ = (QPSᵢ₊₁ − QPSᵢ)/(Nᵢ₊₁ − Nᵢ), i = 0 … n−2, belong to the midpoints mᵢ = (Nᵢ + Nᵢ₊₁)/2.
 * They are smoothed by a centred moving average of `smooth` = 2h + 1 gains, sⱼ =
 * mean(gⱼ₋ₕ … gⱼ₊ₕ), defined for h ≤ j ≤ n − 2 − h. The initial gain is G₀ = sₕ, the first
 * smoothed value. The knee is where s first falls below `fraction`·G₀, located by linear
 * interpolation of s between the two midpoints that bracket the crossing.
 *
 * Quality: NONE if G₀ ≤ 0 or s never falls below the threshold; WEAK if s later rises above
 * the threshold again (the collapse is not sustained); OK otherwise. `qps` is the throughput
 * at the knee interpolated linearly in the data; `strength` is 1 − (mean of s after the knee)/G₀,
 * the relative loss of growth (1 means growth stopped entirely).
 * @param[in] conc concurrency values, finite, strictly increasing
 * @param[in] qps throughput values, finite
 * @param[in] n number of samples; n − 1 ≥ smooth + 1
 * @param[in] fraction threshold as a share of the initial gain, in (0, 1); 0.5 is a good start
 * @param[in] smooth width of the moving average in gains, odd; 0 picks 2⌊(n−1)/40⌋ + 1
 *            (about 5 % of the sweep); 1 disables smoothing
 * @param[in,out] out the estimate (struct_size set by llmm_knee_init()); written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_EMPTY n is 0
 * @retval LLMM_E_INVALID a pointer is NULL, a value is NaN or infinite, the concurrencies are
 *         not strictly increasing, or n is too small for the smoothing width
 * @retval LLMM_E_RANGE fraction is outside (0, 1), or smooth is even
 * @retval LLMM_E_ABI `out->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_knee_collapse(const double *conc, const double *qps, size_t n,
                                        double fraction, uint32_t smooth, llmm_knee *out);

/**
 * @brief Kneedle knee (Satopää, Albrecht, Irwin, Raghavan, 2011) for a concave increasing curve.
 *
 * Definition: normalise both axes to [0, 1] by min–max, x̂ᵢ = (Nᵢ − N₀)/(Nₙ₋₁ − N₀), ŷᵢ =
 * (QPSᵢ − min QPS)/(max QPS − min QPS), and form the difference curve dᵢ = ŷᵢ − x̂ᵢ (its
 * maximum is the point farthest above the chord, which approximates the point of maximum
 * curvature). Scanning in order of N, each local maximum i of d sets the threshold
 * Tᵢ = dᵢ − S·mean(Δx̂) = dᵢ − S/(n − 1); the knee is the first local maximum after which d falls
 * below Tᵢ before reaching a higher value (the paper moves to any later local maximum; only a
 * higher one does here, so that a small ripple after the knee cannot displace it). Its
 * position is refined by the vertex of the parabola through the maximum and its two
 * neighbours (exact for a locally quadratic d).
 *
 * Quality: OK for a confirmed knee; WEAK when no local maximum is confirmed and the global
 * maximum of d (positive) is reported instead; NONE when d ≤ 0 everywhere (the curve is not
 * concave increasing) or QPS is constant. `qps` is the throughput at the knee interpolated
 * linearly in the data; `strength` is the maximum normalised difference d (0 … 1; larger means
 * a sharper knee). Noisy fine-grained sweeps should be averaged per concurrency first: raw noise
 * creates local maxima that a small S confirms.
 * @param[in] conc concurrency values, finite, strictly increasing
 * @param[in] qps throughput values, finite
 * @param[in] n number of samples, at least 3
 * @param[in] sensitivity S ≥ 0 (finite); the paper's default is 1, larger is more conservative
 * @param[in,out] out the estimate (struct_size set by llmm_knee_init()); written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_EMPTY n is 0
 * @retval LLMM_E_INVALID a pointer is NULL, a value is NaN or infinite, n < 3, or the
 *         concurrencies are not strictly increasing
 * @retval LLMM_E_RANGE sensitivity is negative, NaN or infinite
 * @retval LLMM_E_ABI `out->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_knee_kneedle(const double *conc, const double *qps, size_t n,
                                       double sensitivity, llmm_knee *out);

/** @} */

/**
 * @defgroup fit_usl Universal Scalability Law
 *
 * X(N) = λN / (1 + σ(N − 1) + κN(N − 1)): λ is the throughput of one unit of concurrency, σ
 * the contention (serial) share, κ the coherency (crosstalk) cost. σ may be slightly negative
 * when batching makes small concurrencies super-linear; κ ≥ 0. Throughput peaks at
 * N* = sqrt((1 − σ)/κ). Latency follows Little's law, R(N) = N / X(N) (in the reciprocal of
 * the throughput's time unit: seconds for QPS).
 * @{
 */

/**
 * @brief A fitted USL model.
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_usl {
    uint32_t struct_size; /**< caller-sized: set by llmm_usl_init() */
    /** OK: converged fit with R² ≥ 0.9 and N_max no farther than twice the largest measured
     * concurrency; WEAK: the fit is poor, there is no throughput peak (κ = 0), or N_max is an
     * extrapolation beyond that; NONE: no model (only in llmm_knee_report() when the fit
     * failed). */
    llmm_knee_quality quality;
    uint32_t iterations;    /**< Levenberg–Marquardt iterations used */
    int32_t kappa_at_bound; /**< 1 when κ was held at its bound 0 (no coherency cost) */
    double lambda;          /**< λ > 0, throughput at N = 1 before any contention */
    double sigma;           /**< σ, contention; may be slightly negative */
    double kappa;           /**< κ ≥ 0, coherency */
    /** floor(sqrt((1 − σ)/κ)), at least 1; +Inf when κ = 0 and σ < 1 (no peak) */
    double n_max;
    /** X(n_max); when κ = 0 the limit of X as N → ∞ (λ/σ, or +Inf when σ ≤ 0) */
    double x_max;
    double r2;  /**< R² of the fit on the throughput values */
    double rss; /**< residual sum of squares of the fit */
} llmm_usl;

/**
 * @brief Initialise a ::llmm_usl: NaN parameters, quality NONE.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] m the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `m` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_usl_init(llmm_usl *m);
/** @cond LLMM_INTERNAL */
#define llmm_usl_init(m) LLMM_SIZED_INIT_(LLMM_STRUCT_USL, llmm_usl, m)
/** @endcond */

/**
 * @brief Fit the Universal Scalability Law to (concurrency, throughput) pairs.
 *
 * Least squares on the throughput, Σ (X(Nᵢ) − QPSᵢ)², by Levenberg–Marquardt (each damped step
 * solved by orthogonal factorisation, never by normal equations). Start: the linearisation
 * N/X = (1 + σ(N − 1) + κN(N − 1))/λ, a quadratic in N fitted with llmm_polyfit(). Constraints:
 * λ > 0, κ ≥ 0 (held at 0 when the data want less: `kappa_at_bound`), and the denominator stays
 * positive at every measured N. Converged when a step changes no parameter by more than 1e-10
 * relative, or the sum of squares by less than 1e-15 relative, or when no step, however
 * damped, lowers it any more; at most 500 iterations.
 * @param[in] conc concurrency values, finite, > 0, any order; at least 3 distinct
 * @param[in] qps throughput values, finite, > 0
 * @param[in] n number of samples, at least 6
 * @param[in,out] model the fit (struct_size set by llmm_usl_init()); written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_EMPTY n is 0
 * @retval LLMM_E_INVALID a pointer is NULL, a value is NaN, infinite or ≤ 0, n < 6, or fewer
 *         than 3 distinct concurrencies
 * @retval LLMM_E_NOT_CONVERGED the iteration did not converge
 * @retval LLMM_E_ABI `model->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_usl_fit(const double *conc, const double *qps, size_t n, llmm_usl *model);

/**
 * @brief USL throughput X(N) of a model.
 * @param[in] model a model (from llmm_usl_fit() or filled by hand after llmm_usl_init())
 * @param[in] n concurrency, finite, > 0
 * @param[out] x X(n); written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a pointer is NULL, n is not finite and > 0, or the model is invalid
 *         (λ not finite and > 0, σ not finite, κ not finite and ≥ 0)
 * @retval LLMM_E_RANGE the model's denominator is ≤ 0 at n (outside its domain)
 * @retval LLMM_E_ABI `model->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_usl_throughput(const llmm_usl *model, double n, double *x);

/**
 * @brief USL latency R(N) = N / X(N) = (1 + σ(N − 1) + κN(N − 1)) / λ (Little's law).
 * @param[in] model a valid model
 * @param[in] n concurrency, finite, > 0
 * @param[out] latency R(n), in the reciprocal of the throughput's time unit; written only on
 *             success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID as llmm_usl_throughput()
 * @retval LLMM_E_RANGE the model's denominator is ≤ 0 at n
 * @retval LLMM_E_ABI `model->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_usl_latency(const llmm_usl *model, double n, double *latency);

/**
 * @brief Largest integer concurrency N ≥ 1 whose USL latency N / X(N) meets a latency SLO.
 *
 * Solves κN² + (σ − κ)N + (1 − σ) ≤ λ·max_latency for its upper root. The answer is 0 when
 * even N = 1 misses the SLO (1/λ > max_latency), and +Inf when latency never exceeds it
 * (κ = 0 and σ ≤ 0).
 * @param[in] model a valid model
 * @param[in] max_latency the SLO, finite and > 0, in the reciprocal of the throughput's unit
 * @param[out] n the concurrency; written only on success
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID a pointer is NULL, max_latency is not finite and > 0, or the model is
 *         invalid
 * @retval LLMM_E_ABI `model->struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_usl_slo_concurrency(const llmm_usl *model, double max_latency, double *n);

/** @} */

/**
 * @addtogroup fit_knee
 * @{
 */

/**
 * @brief Parameters of llmm_knee_report().
 *
 * Caller-sized: see llmm_struct_init().
 * @since 1.0.0
 */
typedef struct llmm_knee_options {
    uint32_t struct_size;       /**< caller-sized: set by llmm_knee_options_init() */
    uint32_t smooth;            /**< growth-collapse smoothing width, odd, 0 = auto (default 0) */
    double trim;                /**< inflection trim share, 0 … 0.45 (default 0.1) */
    double collapse_fraction;   /**< growth-collapse threshold share, (0, 1) (default 0.5) */
    double kneedle_sensitivity; /**< Kneedle S ≥ 0 (default 1) */
} llmm_knee_options;

/**
 * @brief Initialise a ::llmm_knee_options: `smooth` 0, `trim` 0.1, `collapse_fraction` 0.5, `kneedle_sensitivity` 1.
 *
 * Caller-sized: see llmm_struct_init().
 * @param[out] o the struct to fill
 * @retval LLMM_OK
 * @retval LLMM_E_INVALID `o` is NULL
 * @retval LLMM_E_ABI (the macro only) `sizeof` the caller's struct is not a released size
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_knee_options_init(llmm_knee_options *o);
/** @cond LLMM_INTERNAL */
#define llmm_knee_options_init(o) LLMM_SIZED_INIT_(LLMM_STRUCT_KNEE_OPTIONS, llmm_knee_options, o)
/** @endcond */

/**
 * @brief Run every knee estimator and the USL fit on one sweep, for a side-by-side report.
 *
 * Calls llmm_knee_inflection_ex(), llmm_knee_collapse(), llmm_knee_kneedle() and
 * llmm_usl_fit() with the options given. An estimator that finds nothing reports quality NONE;
 * a USL fit that fails (too few points or no convergence) leaves `usl` as llmm_usl_init()
 * makes it (quality NONE) — neither is an error of the report. Invalid input is: nothing is
 * written then.
 * @param[in] conc concurrency values, finite, > 0, strictly increasing
 * @param[in] qps throughput values, finite
 * @param[in] n number of samples (at least 4 after trimming and enough for the smoothing width)
 * @param[in] opt options (struct_size set by llmm_knee_options_init()), or NULL for defaults
 * @param[in,out] inflection cubic-inflection estimate, or NULL to skip
 * @param[in,out] collapse growth-collapse estimate, or NULL to skip
 * @param[in,out] kneedle Kneedle estimate, or NULL to skip
 * @param[in,out] usl USL model, or NULL to skip
 * @retval LLMM_OK
 * @retval LLMM_E_EMPTY n is 0
 * @retval LLMM_E_INVALID a pointer is NULL (conc, qps, or all four outputs), a value is NaN or
 *         infinite, a concurrency is ≤ 0 or not strictly increasing, or n is too small for the
 *         inflection, collapse or Kneedle estimator when it was asked for
 * @retval LLMM_E_RANGE an option is outside its bounds, or as llmm_knee_inflection()
 * @retval LLMM_E_ABI a `struct_size` is not a released size (see llmm_struct_init())
 * @since 1.0.0
 * @note Thread-safe.
 */
LLMM_API llmm_status llmm_knee_report(const double *conc, const double *qps, size_t n,
                                      const llmm_knee_options *opt, llmm_knee *inflection,
                                      llmm_knee *collapse, llmm_knee *kneedle, llmm_usl *usl);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LLMMETRICS_FIT_H */
