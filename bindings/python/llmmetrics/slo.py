"""SLO checks, goodput, error-budget burn-rate alerts and the error-share trigger
(``llmmetrics/slo.h``).

Latency bounds are in the unit the latencies were recorded in. Time stamps follow the window
rules: every method takes ``now_ns`` (default: the library's monotonic clock) and a time stamp
earlier than one already accepted raises :class:`InvalidArgument`.
"""

from __future__ import annotations

import ctypes
import enum
from typing import Any, Dict, NamedTuple, Optional, Tuple, Union

from . import _lib
from ._args import int32, real, uint32, uint64
from ._html import record_html
from ._options import ObjectKind, OptionCalls, check_kwargs, option_property
from .context import Context, Handle
from .errors import check
from ._structs import new_struct
from .sketch import SCALE_DEFAULT, Sketch
from .window import (WINDOW_SLOT_NS_DEFAULT, WINDOW_SLOTS_DEFAULT, add_counts, read_at,
                     time_arg)

__all__ = ["SloResult", "slo_check", "slo_check_quantile", "SloWindow", "GoodputOption",
           "GoodputResult", "goodput_tpot", "Goodput", "BurnWindow", "BurnOption",
           "BurnWindowResult", "BurnResult", "burn_rate", "burn_budget_spent", "BurnAlerter",
           "ErrorTriggerOption", "ErrorTriggerReading", "ErrorTrigger",
           "BURN_SLOT_NS_DEFAULT", "BURN_WINDOWS", "ERROR_TRIGGER_WINDOW_NS_DEFAULT",
           "ERROR_TRIGGER_MAX_SHARE_DEFAULT", "ERROR_TRIGGER_SLOTS"]

BURN_SLOT_NS_DEFAULT: int = _lib.LLMM_BURN_SLOT_NS_DEFAULT
BURN_WINDOWS: int = _lib.LLMM_BURN_WINDOWS
ERROR_TRIGGER_WINDOW_NS_DEFAULT: int = _lib.LLMM_ERROR_TRIGGER_WINDOW_NS_DEFAULT
ERROR_TRIGGER_MAX_SHARE_DEFAULT: float = _lib.LLMM_ERROR_TRIGGER_MAX_SHARE_DEFAULT
ERROR_TRIGGER_SLOTS: int = _lib.LLMM_ERROR_TRIGGER_SLOTS


# -- SLO check ---------------------------------------------------------------------------

class SloResult(NamedTuple):
    """The verdict of an SLO check (``llmm_slo_result``)."""

    satisfied: bool
    latency_ok: bool
    errors_ok: bool
    successes: int
    errors: int
    quantile: float
    latency: float     #: the quantile of the successful latencies; +inf without a success
    error_rate: float  #: errors / (successes + errors); 0 without a request

    _repr_html_ = record_html


def _new_slo_result() -> Any:
    r = new_struct(_lib.llmm_slo_result)
    return r


def _slo_result(r: Any) -> SloResult:
    return SloResult(bool(r.satisfied), bool(r.latency_ok), bool(r.errors_ok), r.successes,
                     r.errors, r.quantile, r.latency, r.error_rate)


def slo_check(ok_latencies: Sketch, errors: int, p95_max: float, err_max: float) -> SloResult:
    """The online SLO check of doc/spec.md §2: ``p95 ≤ p95_max and error_rate ≤ err_max``.

    :param ok_latencies: the latencies of the successful requests
    :param errors: the number of failed requests
    """
    r = _new_slo_result()
    with ok_latencies._lock:
        st = _lib.llmm_slo_check(ok_latencies._live(), uint64(errors, "errors", "llmm_slo_check"),
                                 real(p95_max, "p95_max"), real(err_max, "err_max"),
                                 ctypes.byref(r))
    check(st, "llmm_slo_check", "p95_max=%r err_max=%r" % (p95_max, err_max))
    return _slo_result(r)


def slo_check_quantile(ok_latencies: Sketch, errors: int, q: float, latency_max: float,
                       err_max: float) -> SloResult:
    """The SLO check at any quantile level ``q``."""
    r = _new_slo_result()
    call = "llmm_slo_check_quantile"
    with ok_latencies._lock:
        st = _lib.llmm_slo_check_quantile(ok_latencies._live(), uint64(errors, "errors", call),
                                          real(q, "q"), real(latency_max, "latency_max"),
                                          real(err_max, "err_max"), ctypes.byref(r))
    check(st, call, "q=%r latency_max=%r err_max=%r" % (q, latency_max, err_max))
    return _slo_result(r)


class SloWindow(Handle):
    """Successful latencies and error counts over a time ring (``llmm_slo_window``).

    :param slot_ns: slot length (0: 1 s)
    :param slots: number of slots (0: 60)
    :param scale: sketch scale
    :param context: allocation context (None: libc)
    """

    _c_free = staticmethod(_lib.llmm_slo_window_free)

    def __init__(self, slot_ns: int = 0, slots: int = 0, scale: int = SCALE_DEFAULT, *,
                 context: Optional[Context] = None) -> None:
        call = "llmm_slo_window_new"
        a, b, c = uint64(slot_ns, "slot_ns", call), uint32(slots, "slots", call), int32(scale)
        self._init_new(context, _lib.llmm_slo_window, call,
                       lambda ctx, out: _lib.llmm_slo_window_new(ctx, a, b, c, out),
                       "slot_ns=%r slots=%r scale=%r" % (slot_ns, slots, scale))
        self.slot_ns = a or WINDOW_SLOT_NS_DEFAULT
        self.slots = b or WINDOW_SLOTS_DEFAULT

    def add(self, latency: float, now_ns: Optional[int] = None) -> None:
        """Record a successful request and its latency."""
        t = time_arg(now_ns, "llmm_slo_window_add")
        self._call(_lib.llmm_slo_window_add, t, real(latency, "latency"),
                   detail="latency=%r now_ns=%r" % (latency, t))

    def add_errors(self, errors: int = 1, now_ns: Optional[int] = None) -> None:
        """Record failed requests (0 only advances the clock)."""
        t = time_arg(now_ns, "llmm_slo_window_add_errors")
        n = uint64(errors, "errors", "llmm_slo_window_add_errors")
        self._call(_lib.llmm_slo_window_add_errors, t, n,
                   detail="errors=%r now_ns=%r" % (errors, t))

    def check(self, latency_max: float, err_max: float, q: float = 0.95,
              span_ns: Optional[int] = None, now_ns: Optional[int] = None) -> SloResult:
        """The SLO check over a span (default: the whole ring); an idle span is not
        satisfied."""
        call = "llmm_slo_window_check"
        t = time_arg(now_ns, call)
        span = self.slot_ns * self.slots if span_ns is None else uint64(span_ns, "span_ns", call)
        r = _new_slo_result()
        with self._lock:
            st = _lib.llmm_slo_window_check(self._live(), t, span, real(q, "q"),
                                            real(latency_max, "latency_max"),
                                            real(err_max, "err_max"), ctypes.byref(r))
        check(st, call, "span_ns=%r now_ns=%r" % (span, t))
        return _slo_result(r)

    def reset(self) -> None:
        """Forget every request and the clock."""
        self._call(_lib.llmm_slo_window_reset)


# -- goodput ---------------------------------------------------------------------------------

class GoodputOption(enum.IntEnum):
    """Per-request SLO bounds of a :class:`Goodput` (``llmm_goodput_option``); bounds and
    defaults: ``llmmetrics.options("goodput")``."""

    TTFT_MAX = 1  #: bound on the time to first token
    TPOT_MAX = 2  #: bound on the time per output token
    E2E_MAX = 3   #: bound on the end-to-end latency


_GOODPUT = OptionCalls(ObjectKind.GOODPUT, _lib.llmm_goodput_set_f64, _lib.llmm_goodput_get_f64)


class GoodputResult(NamedTuple):
    """Goodput of the requests counted (``llmm_goodput_result``)."""

    requests: int
    completed: int
    good: int
    fraction: float          #: good / requests
    rate_per_s: float        #: good requests per second (vLLM's request_goodput)
    throughput_per_s: float  #: completed requests per second (vLLM's request_throughput)

    _repr_html_ = record_html


def goodput_tpot(e2e: float, ttft: float, output_tokens: int) -> float:
    """vLLM's time per output token: ``(e2e − ttft) / (output_tokens − 1)``, 0 for fewer than
    two tokens."""
    out = ctypes.c_double()
    check(_lib.llmm_goodput_tpot(real(e2e, "e2e"), real(ttft, "ttft"),
                                 uint64(output_tokens, "output_tokens", "llmm_goodput_tpot"),
                                 ctypes.byref(out)), "llmm_goodput_tpot")
    return out.value


class Goodput(Handle):
    """vLLM-style goodput counter (``llmm_goodput``): a request is good when it completed and
    meets every per-request bound given.

    :param ttft_max: bound on the time to first token (None: not checked)
    :param tpot_max: bound on the time per output token (None: not checked)
    :param e2e_max: bound on the end-to-end latency (None: not checked)
    :param context: allocation context (None: libc)
    """

    _c_free = staticmethod(_lib.llmm_goodput_free)

    def __init__(self, *, ttft_max: Optional[float] = None, tpot_max: Optional[float] = None,
                 e2e_max: Optional[float] = None, context: Optional[Context] = None) -> None:
        self._init_new(context, _lib.llmm_goodput, "llmm_goodput_new",
                       lambda ctx, out: _lib.llmm_goodput_new(ctx, out))
        try:
            for opt, v in ((GoodputOption.TTFT_MAX, ttft_max), (GoodputOption.TPOT_MAX,
                                                                 tpot_max),
                           (GoodputOption.E2E_MAX, e2e_max)):
                if v is not None:
                    self.set(opt, v)
        except BaseException:
            self.close()
            raise

    def set(self, option: Union[GoodputOption, int], value: float) -> None:
        """Set a bound (+inf: not checked); only before any request is counted.

        :raises InvalidState: requests were already counted
        """
        _GOODPUT.set(self, option, value)

    def get(self, option: Union[GoodputOption, int]) -> float:
        """Read a bound (+inf when not checked)."""
        return float(_GOODPUT.get(self, option))

    ttft_max = option_property(GoodputOption.TTFT_MAX,
                               "Bound on the time to first token (+inf: not checked).", float)

    tpot_max = option_property(GoodputOption.TPOT_MAX,
                               "Bound on the time per output token (+inf: not checked).", float)

    e2e_max = option_property(GoodputOption.E2E_MAX,
                              "Bound on the end-to-end latency (+inf: not checked).", float)

    def observe(self, ttft: float, tpot: float, e2e: float) -> bool:
        """Count one completed request; True when it is good."""
        good = ctypes.c_int32()
        self._call(_lib.llmm_goodput_observe, real(ttft, "ttft"), real(tpot, "tpot"),
                   real(e2e, "e2e"), ctypes.byref(good),
                   detail="ttft=%r tpot=%r e2e=%r" % (ttft, tpot, e2e))
        return bool(good.value)

    def add_failures(self, n: int = 1) -> None:
        """Count failed requests (never good)."""
        k = uint64(n, "n", "llmm_goodput_add_failures")
        self._call(_lib.llmm_goodput_add_failures, k, detail="n=%r" % (n,))

    def read(self, duration_ns: int) -> GoodputResult:
        """Goodput as a fraction and as rates over ``duration_ns`` of serving.

        :raises Empty: no request counted
        """
        r = new_struct(_lib.llmm_goodput_result)
        d = uint64(duration_ns, "duration_ns", "llmm_goodput_read")
        self._call(_lib.llmm_goodput_read, d, ctypes.byref(r),
                   detail="duration_ns=%r" % (duration_ns,))
        return GoodputResult(r.requests, r.completed, r.good, r.fraction, r.rate_per_s,
                             r.throughput_per_s)

    def reset(self) -> None:
        """Forget the counts; the bounds stay."""
        self._call(_lib.llmm_goodput_reset)


# -- burn-rate alerts ----------------------------------------------------------------------

class BurnWindow(enum.IntEnum):
    """The four windows of a :class:`BurnAlerter` (``llmm_burn_window``)."""

    FAST_LONG = 0
    FAST_SHORT = 1
    SLOW_LONG = 2
    SLOW_SHORT = 3


class BurnOption(enum.IntEnum):
    """Options of a :class:`BurnAlerter` (``llmm_burn_option``); types, bounds and defaults:
    ``llmmetrics.options("burn")``."""

    SLO_TARGET = 1     #: the SLO target T (set at creation)
    FAST_FACTOR = 2    #: the fast alert's burn-rate factor
    SLOW_FACTOR = 3    #: the slow alert's burn-rate factor
    FAST_LONG_NS = 4   #: the fast alert's long window
    FAST_SHORT_NS = 5  #: the fast alert's short window
    SLOW_LONG_NS = 6   #: the slow alert's long window
    SLOW_SHORT_NS = 7  #: the slow alert's short window


_BURN = OptionCalls(ObjectKind.BURN, _lib.llmm_burn_set_f64, _lib.llmm_burn_get_f64,
                                     _lib.llmm_burn_set_u64, _lib.llmm_burn_get_u64)


class BurnWindowResult(NamedTuple):
    """One window of a :class:`BurnResult`."""

    window: BurnWindow
    requests: int
    errors: int
    error_rate: float
    burn_rate: float

    _repr_html_ = record_html


class BurnResult(NamedTuple):
    """Burn rates of the four windows and the two alerts (``llmm_burn_result``)."""

    fast_alert: bool
    slow_alert: bool
    windows: Tuple[BurnWindowResult, ...]

    _repr_html_ = record_html

    def window(self, which: Union[BurnWindow, int]) -> BurnWindowResult:
        """The entry of one window."""
        return self.windows[int(which)]


def burn_rate(error_rate: float, slo_target: float) -> float:
    """Burn rate ``error_rate / (1 − slo_target)``."""
    out = ctypes.c_double()
    check(_lib.llmm_burn_rate(real(error_rate, "error_rate"), real(slo_target, "slo_target"),
                              ctypes.byref(out)), "llmm_burn_rate")
    return out.value


def burn_budget_spent(rate: float, window_ns: int, period_ns: int) -> float:
    """Share of an SLO period's error budget that ``window_ns`` at burn rate ``rate`` spends."""
    out = ctypes.c_double()
    call = "llmm_burn_budget_spent"
    check(_lib.llmm_burn_budget_spent(real(rate, "rate"), uint64(window_ns, "window_ns", call),
                                      uint64(period_ns, "period_ns", call), ctypes.byref(out)),
          call)
    return out.value


class BurnAlerter(Handle):
    """Multi-window error-budget burn-rate alerts, SRE-workbook style (``llmm_burn``): fast
    alert when 1 h and 5 min both burn faster than 14.4, slow when 6 h and 30 min both burn
    faster than 6 (all options).

    :param slo_target: the SLO target T in (0, 1), e.g. 0.999
    :param slot_ns: slot length (0: 10 s)
    :param slots: ring length (0: enough for 6 h)
    :param context: allocation context (None: libc)
    :param options: any :class:`BurnOption` by lower-case name (``fast_factor=10``,
                    ``fast_short_ns=...``)
    """

    _c_free = staticmethod(_lib.llmm_burn_free)

    def __init__(self, slo_target: float, slot_ns: int = 0, slots: int = 0, *,
                 context: Optional[Context] = None, **options: Any) -> None:
        check_kwargs("BurnAlerter", BurnOption, options)
        call = "llmm_burn_new"
        t = real(slo_target, "slo_target")
        a, b = uint64(slot_ns, "slot_ns", call), uint32(slots, "slots", call)
        self._init_new(context, _lib.llmm_burn, call,
                       lambda ctx, out: _lib.llmm_burn_new(ctx, t, a, b, out),
                       "slo_target=%r slot_ns=%r slots=%r" % (slo_target, slot_ns, slots))
        try:
            given = {BurnOption[k.upper()]: v for k, v in options.items() if v is not None}
            for opt in (BurnOption.SLO_TARGET, BurnOption.FAST_FACTOR, BurnOption.SLOW_FACTOR):
                if opt in given:
                    self.set(opt, given[opt])
            for long_, short in ((BurnOption.FAST_LONG_NS, BurnOption.FAST_SHORT_NS),
                                 (BurnOption.SLOW_LONG_NS, BurnOption.SLOW_SHORT_NS)):
                self._set_pair(long_, short, given)
        except BaseException:
            self.close()
            raise

    def _set_pair(self, long_: BurnOption, short: BurnOption,
                  given: Dict[BurnOption, Any]) -> None:
        """Set a window pair so that short ≤ long holds after each step."""
        if short in given and given[short] <= self.get(long_):
            order = (short, long_)
        else:
            order = (long_, short)
        for opt in order:
            if opt in given:
                self.set(opt, given[opt])

    def set(self, option: Union[BurnOption, int], value: Union[float, int]) -> None:
        """Set an option (floats for the target and factors, ns for windows)."""
        _BURN.set(self, option, value)

    def get(self, option: Union[BurnOption, int]) -> Union[float, int]:
        """Read an option."""
        return _BURN.get(self, option)

    slo_target = option_property(BurnOption.SLO_TARGET, "The SLO target T.", float)

    def add(self, errors: int, requests: int, now_ns: Optional[int] = None) -> None:
        """Count ``errors`` failed requests out of ``requests``."""
        add_counts(self, _lib.llmm_burn_add, now_ns, errors=errors, requests=requests)

    def evaluate(self, now_ns: Optional[int] = None) -> BurnResult:
        """Burn rates of the four windows and the two alerts at ``now_ns``."""
        r = read_at(self, _lib.llmm_burn_evaluate, _lib.llmm_burn_result, now_ns)
        windows = tuple(BurnWindowResult(BurnWindow(i), r.requests[i], r.errors[i],
                                         r.error_rate[i], r.burn_rate[i])
                        for i in range(BURN_WINDOWS))
        return BurnResult(bool(r.fast_alert), bool(r.slow_alert), windows)

    def reset(self) -> None:
        """Forget every count and the clock; the options stay."""
        self._call(_lib.llmm_burn_reset)


# -- error-share trigger ---------------------------------------------------------------------

class ErrorTriggerOption(enum.IntEnum):
    """Options of an :class:`ErrorTrigger` (``llmm_error_trigger_option``); types, bounds and
    defaults: ``llmmetrics.options("error_trigger")``."""

    MAX_SHARE = 1     #: fire when the failed share exceeds this
    MIN_REQUESTS = 2  #: fire only with at least this many requests in the window


_TRIGGER = OptionCalls(ObjectKind.ERROR_TRIGGER, _lib.llmm_error_trigger_set_f64,
                                                 _lib.llmm_error_trigger_get_f64,
                                                 _lib.llmm_error_trigger_set_u64,
                                                 _lib.llmm_error_trigger_get_u64)


class ErrorTriggerReading(NamedTuple):
    """What an :class:`ErrorTrigger` reads (``llmm_error_trigger_reading``)."""

    fired: bool
    errors: int
    requests: int
    share: float

    _repr_html_ = record_html


class ErrorTrigger(Handle):
    """Fires when the failed share over the last window exceeds a threshold: by default
    "5xx share over the last 5 min > 5 %" (``llmm_error_trigger``).

    :param window_ns: the window (0: 5 min)
    :param max_share: the threshold (None: the library's default); fires strictly above it
    :param min_requests: fire only with at least this many requests (None: the default)
    :param context: allocation context (None: libc)
    """

    _c_free = staticmethod(_lib.llmm_error_trigger_free)

    def __init__(self, window_ns: int = 0, *, max_share: Optional[float] = None,
                 min_requests: Optional[int] = None,
                 context: Optional[Context] = None) -> None:
        w = uint64(window_ns, "window_ns", "llmm_error_trigger_new")
        self._init_new(context, _lib.llmm_error_trigger, "llmm_error_trigger_new",
                       lambda ctx, out: _lib.llmm_error_trigger_new(ctx, w, out),
                       "window_ns=%r" % (window_ns,))
        try:
            if max_share is not None:
                self.set(ErrorTriggerOption.MAX_SHARE, max_share)
            if min_requests is not None:
                self.set(ErrorTriggerOption.MIN_REQUESTS, min_requests)
        except BaseException:
            self.close()
            raise

    def set(self, option: Union[ErrorTriggerOption, int], value: Union[float, int]) -> None:
        """Set an option."""
        _TRIGGER.set(self, option, value)

    def get(self, option: Union[ErrorTriggerOption, int]) -> Union[float, int]:
        """Read an option."""
        return _TRIGGER.get(self, option)

    max_share = option_property(ErrorTriggerOption.MAX_SHARE, "The threshold on the failed share.",
                                float)

    min_requests = option_property(ErrorTriggerOption.MIN_REQUESTS,
                                   "The fewest requests in the window for the trigger to fire.",
                                   int)

    def add(self, errors: int, requests: int, now_ns: Optional[int] = None) -> None:
        """Count ``errors`` failed requests out of ``requests``."""
        add_counts(self, _lib.llmm_error_trigger_add, now_ns, errors=errors, requests=requests)

    def check(self, now_ns: Optional[int] = None) -> ErrorTriggerReading:
        """The failed share over the window and whether it fires.

        :raises Empty: no request in the window
        """
        r = read_at(self, _lib.llmm_error_trigger_check, _lib.llmm_error_trigger_reading, now_ns)
        return ErrorTriggerReading(bool(r.fired), r.errors, r.requests, r.share)

    def reset(self) -> None:
        """Forget every count and the clock; the options stay."""
        self._call(_lib.llmm_error_trigger_reset)
