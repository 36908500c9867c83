"""Sketch: results against exact references (sorted data, exact rational bucket bounds) and
against the C library called directly through the low-level layer on the same data."""

from __future__ import annotations

import array
import copy
import ctypes
import math
import threading
import unittest
from collections import Counter
from fractions import Fraction

import llmmetrics
from llmmetrics import _lib
from llmmetrics import (Context, Corrupt, Empty, InvalidArgument, InvalidState, LlmmError,
                        OutOfMemory, OutOfRange, Sketch)

from support import (CountingAllocator, REL_ERR_S6, assert_rel, exact_quantile, lognormal,
                     rel_bound)

QS = [0.0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1.0]


def sketch_of(values, scale: int = 6) -> Sketch:
    s = Sketch(scale)
    s.add_many(values)
    return s


def exact_bucket(scale: int, v: float) -> int:
    """Index i with 2^(i/2^scale) < v ≤ 2^((i+1)/2^scale), by exact rational arithmetic:
    raise both sides to the power 2^scale (v is a dyadic rational, so v^(2^scale) is exact)."""
    p = Fraction(v) ** (2 ** scale)
    i = math.floor(math.log2(v) * 2 ** scale)  # a guess within ±2, then made exact
    while Fraction(2) ** i >= p:
        i -= 1
    while Fraction(2) ** (i + 1) < p:
        i += 1
    return i


def arrival_sum(values) -> float:
    """The sketch's documented summation: one double, the values added in arrival order."""
    total = 0.0
    for v in values:
        total += v
    return total


class QuantileAccuracy(unittest.TestCase):
    def check_against_sorted(self, values, scale: int) -> None:
        ref = sorted(values)
        with sketch_of(values, scale) as s:
            bound = rel_bound(scale)
            got = s.quantiles(QS)
            for q, g in zip(QS, got):
                assert_rel(self, g, exact_quantile(ref, q), bound, "q=%r scale %d" % (q, scale))
                self.assertEqual(g, s.quantile(q))
            self.assertEqual(s.quantile(0.0), ref[0])  # rank 1 is the exact minimum
            self.assertEqual(s.quantile(1.0), ref[-1])  # rank n is the exact maximum

    def test_lognormal_sigma1_scale6_within_0_542_percent(self) -> None:
        self.assertLess(rel_bound(6), REL_ERR_S6)
        self.check_against_sorted(lognormal(20000, 0.2, 1.0, seed=11), 6)

    def test_heavy_tail_sigma2(self) -> None:
        self.check_against_sorted(lognormal(20000, 0.2, 2.0, seed=12), 6)

    def test_other_scales(self) -> None:
        data = lognormal(5000, 200.0, 1.5, seed=13)
        for scale in (0, 1, 3, 8, 10):
            self.check_against_sorted(data, scale)

    def test_every_rank_of_small_set(self) -> None:
        data = [0.001 * (i * i + 1) for i in range(1, 101)]
        ref = sorted(data)
        with sketch_of(data) as s:
            for k in range(0, 101):
                q = k / 100.0
                assert_rel(self, s.quantile(q), exact_quantile(ref, q), rel_bound(6), "q=%r" % q)

    def test_quantiles_any_order_and_inputs(self) -> None:
        with sketch_of(lognormal(1000, seed=2)) as s:
            qs = [0.99, 0.5, 0.1, 0.999]
            want = [s.quantile(q) for q in qs]
            self.assertEqual(s.quantiles(qs), want)
            self.assertEqual(s.quantiles(tuple(qs)), want)
            self.assertEqual(s.quantiles(array.array("d", qs)), want)
            self.assertEqual(s.quantiles(iter(qs)), want)
            self.assertEqual(s.quantiles([]), [])


class AgainstCLibrary(unittest.TestCase):
    """The Pythonic layer returns what the C library returns for the same data."""

    def test_same_as_direct_c_calls(self) -> None:
        data = lognormal(3000, 0.05, 1.2, seed=21) + [0.0, 0.0]
        buf = (ctypes.c_double * len(data))(*data)
        h = ctypes.POINTER(_lib.llmm_sketch)()
        self.assertEqual(_lib.llmm_sketch_new(None, 6, ctypes.byref(h)), 0)
        try:
            self.assertEqual(_lib.llmm_sketch_add_many(h, buf, len(data)), 0)
            with sketch_of(data) as s:
                self.assertEqual(s.count, _lib.llmm_sketch_count(h))
                for q in QS:
                    out = ctypes.c_double()
                    self.assertEqual(_lib.llmm_sketch_quantile(h, q, ctypes.byref(out)), 0)
                    self.assertEqual(s.quantile(q), out.value)
                for fn, prop in ((_lib.llmm_sketch_sum, "sum"), (_lib.llmm_sketch_min, "min"),
                                 (_lib.llmm_sketch_max, "max"), (_lib.llmm_sketch_mean, "mean")):
                    out = ctypes.c_double()
                    self.assertEqual(fn(h, ctypes.byref(out)), 0)
                    self.assertEqual(getattr(s, prop), out.value, prop)
                first, last = ctypes.c_int32(), ctypes.c_int32()
                self.assertEqual(_lib.llmm_sketch_bucket_span(h, ctypes.byref(first),
                                                              ctypes.byref(last)), 0)
                self.assertEqual(s.bucket_span(), (first.value, last.value))
                for b in s.buckets(include_empty=True):
                    self.assertEqual(b.count, _lib.llmm_sketch_bucket_count(h, b.index))
                # a Sketch passes straight to the low-level functions
                self.assertEqual(_lib.llmm_sketch_count(s), _lib.llmm_sketch_count(h))
        finally:
            _lib.llmm_sketch_free(h)


class ExactStatistics(unittest.TestCase):
    def test_count_sum_min_max_mean(self) -> None:
        data = lognormal(4000, seed=3)
        with sketch_of(data) as s:
            self.assertEqual(s.count, len(data))
            self.assertEqual(len(s), len(data))
            self.assertEqual(s.sum, arrival_sum(data))
            self.assertEqual(s.min, min(data))
            self.assertEqual(s.max, max(data))
            self.assertEqual(s.mean, arrival_sum(data) / len(data))

    def test_add_one_by_one_equals_add_many(self) -> None:
        data = lognormal(2000, seed=4)
        with Sketch() as a, sketch_of(data) as b:
            for v in data:
                a.add(v)
            self.assertEqual(a, b)

    def test_add_with_count(self) -> None:
        with Sketch() as a, Sketch() as b:
            a.add(0.25, 1000)
            for _ in range(1000):
                b.add(0.25)
            self.assertEqual(a.count, 1000)
            self.assertEqual(a.quantile(0.5), 0.25)
            self.assertEqual(a.buckets().__next__(), b.buckets().__next__())
            a.add(3.0, 0)  # a no-op that still validates
            self.assertEqual(a.count, 1000)
            with self.assertRaises(InvalidArgument):
                a.add(float("nan"), 0)

    def test_numbers_of_other_types(self) -> None:
        with Sketch() as s:
            s.add(1)
            s.add(Fraction(1, 2))
            s.add(True)
            s.add_many(range(1, 4))
            self.assertEqual(s.count, 6)
            self.assertEqual(s.sum, 1 + 0.5 + 1 + 6)

    def test_zero_and_empty(self) -> None:
        with Sketch() as s:
            self.assertEqual(len(s), 0)
            self.assertFalse(s)
            self.assertEqual(s.sum, 0.0)
            for name in ("min", "max", "mean"):
                with self.assertRaises(Empty):
                    getattr(s, name)
            with self.assertRaises(Empty):
                s.quantile(0.5)
            with self.assertRaises(Empty):
                s.quantiles([0.5])
            with self.assertRaises(Empty):
                s.rank(1.0)
            self.assertIsNone(s.bucket_span())
            self.assertEqual(list(s.buckets()), [])
            s.add(0.0)
            s.add(0.0)
            self.assertTrue(s)
            self.assertEqual(s.special_counts, (2, 0, 0))
            self.assertEqual(s.quantile(0.5), 0.0)
            self.assertIsNone(s.bucket_span())

    def test_rank_against_exact_fraction(self) -> None:
        data = lognormal(3000, seed=5)
        ref = sorted(data)
        n = len(ref)

        def frac_le(x: float) -> float:
            return sum(1 for v in ref if v <= x) / n

        with sketch_of(data) as s:
            self.assertEqual(s.rank(ref[0] / 2), 0.0)
            self.assertEqual(s.rank(ref[-1]), 1.0)
            self.assertEqual(s.rank(ref[-1] * 2), 1.0)
            for v in ref[::97]:
                _, upper = llmmetrics.bucket_bounds(6, s.index_of(v))
                r = s.rank(v)
                self.assertLessEqual(frac_le(v), r + 1e-12)
                self.assertLessEqual(r, frac_le(upper) + 1e-12)
            with self.assertRaises(InvalidArgument):
                s.rank(float("nan"))


class Buckets(unittest.TestCase):
    def test_index_against_exact_rational_bounds(self) -> None:
        values = lognormal(60, 1.0, 8.0, seed=6) + [1.0, 2.0, 0.5, 1024.0, 3.0, 1e-300, 5e-324]
        for scale in (0, 1, 4, 6, 10):
            for v in values:
                if scale == 10 and v < 1e-200:
                    continue  # v^(2^10) has too many digits to be worth it here
                self.assertEqual(llmmetrics.bucket_index(scale, v), exact_bucket(scale, v),
                                 "scale %d v %r" % (scale, v))

    def test_powers_of_two_belong_to_lower_bucket(self) -> None:
        for k in range(-20, 21):
            self.assertEqual(llmmetrics.bucket_index(0, 2.0 ** k), k - 1)
            self.assertEqual(llmmetrics.bucket_index(6, 2.0 ** k), 64 * k - 1)
            self.assertEqual(llmmetrics.bucket_index(0, 1.5 * 2.0 ** k), k)

    def test_bounds_contain_their_values(self) -> None:
        for v in lognormal(200, seed=7):
            i = llmmetrics.bucket_index(6, v)
            lower, upper = llmmetrics.bucket_bounds(6, i)
            self.assertLess(lower, v)
            self.assertLessEqual(v, upper)
        self.assertEqual(llmmetrics.bucket_bounds(0, 0), (1.0, 2.0))
        lower, upper = llmmetrics.bucket_bounds(6, -1)
        self.assertEqual(upper, 1.0)
        assert_rel(self, lower, 2.0 ** (-1.0 / 64), 2.3e-16, "lower bound of bucket -1")
        self.assertEqual(llmmetrics.bucket_bounds(6, -64)[0], 0.5)
        with self.assertRaises(InvalidArgument):
            llmmetrics.bucket_bounds(11, 0)
        with self.assertRaises(OutOfRange):
            llmmetrics.bucket_bounds(0, 5000)
        for bad in (0.0, -1.0, float("inf"), float("nan")):
            with self.assertRaises(InvalidArgument):
                llmmetrics.bucket_index(6, bad)

    def test_bucket_counts_match_python_histogram(self) -> None:
        data = lognormal(5000, seed=8)
        want = Counter(llmmetrics.bucket_index(6, v) for v in data)
        with sketch_of(data) as s:
            got = {b.index: b.count for b in s.buckets()}
            self.assertEqual(got, dict(want))
            self.assertEqual(sum(b.count for b in s.buckets()), len(data))
            first, last = s.bucket_span()
            self.assertEqual((first, last), (min(want), max(want)))
            dense = list(s.buckets(include_empty=True))
            self.assertEqual([b.index for b in dense], list(range(first, last + 1)))
            self.assertEqual(s.bucket_count(first - 1), 0)
            for b in dense[:50]:
                self.assertEqual(b.count, want.get(b.index, 0))
                self.assertEqual((b.lower, b.upper), llmmetrics.bucket_bounds(6, b.index))

    def test_relative_error_closed_form(self) -> None:
        self.assertAlmostEqual(llmmetrics.relative_error(6), 0.0054152, places=7)
        self.assertAlmostEqual(llmmetrics.relative_error(0), 1.0 / 3.0, places=15)
        with Sketch(3) as s:
            self.assertEqual(s.relative_error, llmmetrics.relative_error(3))


class Combining(unittest.TestCase):
    def setUp(self) -> None:
        self.data = lognormal(4000, 0.3, 1.3, seed=9)
        self.a_data, self.b_data = self.data[:1500], self.data[1500:]

    def assert_same_but_sum(self, x: Sketch, y: Sketch) -> None:
        self.assertEqual(x.scale, y.scale)
        self.assertEqual(x.count, y.count)
        self.assertEqual(x.special_counts, y.special_counts)
        self.assertEqual(list(x.buckets()), list(y.buckets()))
        self.assertEqual((x.min, x.max), (y.min, y.max))
        self.assertEqual(x.quantiles(QS), y.quantiles(QS))
        assert_rel(self, x.sum, y.sum, 1e-12, "sum")

    def test_merge_is_exact(self) -> None:
        with sketch_of(self.a_data) as a, sketch_of(self.b_data) as b, \
                sketch_of(self.data) as whole:
            a.merge(b)
            self.assert_same_but_sum(a, whole)
            self.assertEqual(b.count, len(self.b_data))  # src unchanged

    def test_merge_different_scales_takes_coarser(self) -> None:
        with sketch_of(self.a_data, 6) as a, sketch_of(self.b_data, 4) as b, \
                sketch_of(self.data, 4) as whole:
            a.merge(b)
            self.assertEqual(a.scale, 4)
            self.assert_same_but_sum(a, whole)

    def test_plus_sum_and_iadd(self) -> None:
        with sketch_of(self.a_data) as a, sketch_of(self.b_data) as b, \
                sketch_of(self.data) as whole:
            c = a + b
            self.assertIsNot(c, a)
            self.assertEqual(a.count, len(self.a_data))
            self.assert_same_but_sum(c, whole)
            parts = [sketch_of(self.data[i:i + 1000]) for i in range(0, 4000, 1000)]
            total = sum(parts)
            self.assert_same_but_sum(total, whole)
            a += b
            self.assert_same_but_sum(a, whole)
            for p in parts + [c, total]:
                p.close()
            with self.assertRaises(TypeError):
                a + 1  # noqa: B018
            with self.assertRaises(TypeError):
                a.merge([1.0])  # type: ignore[arg-type]

    def test_merge_self_doubles(self) -> None:
        with sketch_of(self.a_data) as a, sketch_of(self.a_data + self.a_data) as twice:
            a.merge(a)
            self.assert_same_but_sum(a, twice)

    def test_subtract_gives_interval(self) -> None:
        with sketch_of(self.a_data) as earlier, sketch_of(self.data) as later, \
                sketch_of(self.b_data) as interval:
            d = later - earlier
            self.assertEqual(d.count, len(self.b_data))
            self.assertEqual(list(d.buckets()), list(interval.buckets()))
            assert_rel(self, d.sum, arrival_sum(self.b_data), 1e-9, "sum")
            later -= earlier
            self.assertEqual(later.count, len(self.b_data))
            d.close()
            with self.assertRaises(InvalidState):
                earlier.subtract(interval)  # interval not contained in earlier
            with self.assertRaises(InvalidArgument):
                earlier.subtract(Sketch(5))

    def test_copy_is_deep_and_independent(self) -> None:
        with sketch_of(self.a_data) as a:
            for c in (a.copy(), copy.copy(a), copy.deepcopy(a)):
                self.assertEqual(c, a)
                c.add(1000.0)
                self.assertNotEqual(c, a)
                self.assertEqual(a.count, len(self.a_data))
                c.close()
            with Sketch(2) as target:
                target.copy_from(a)
                self.assertEqual(target, a)
                self.assertEqual(target.scale, 6)

    def test_downscale_equals_sketch_built_coarser(self) -> None:
        with sketch_of(self.data, 6) as fine, sketch_of(self.data, 3) as coarse:
            fine.downscale(3)
            self.assertEqual(fine, coarse)  # same arrival order: even the sum is identical
            fine.downscale(3)  # equal scale is a no-op
            with self.assertRaises(InvalidArgument):
                fine.downscale(4)
            with self.assertRaises(InvalidArgument):
                fine.downscale(-1)

    def test_reset(self) -> None:
        with sketch_of(self.data, 5) as s:
            s.reset()
            self.assertEqual(len(s), 0)
            self.assertEqual(s.scale, 5)
            s.add(1.0)
            s.clear()
            self.assertEqual(len(s), 0)


class Ranges(unittest.TestCase):
    def test_out_of_range_values_are_counted(self) -> None:
        with Sketch(value_range=(1.0, 100.0)) as s:
            self.assertEqual(s.range, (1.0, 100.0))
            s.add_many([0.5, 0.25, 50.0, 1000.0, 0.0])
            self.assertEqual(s.count, 5)
            self.assertEqual(s.special_counts, llmmetrics.SpecialCounts(1, 2, 1))
            self.assertEqual(sum(b.count for b in s.buckets()), 1)
            self.assertEqual(s.quantile(1.0), 1000.0)
            self.assertEqual(s.min, 0.0)
        with Sketch() as d:
            self.assertEqual(d.range, (llmmetrics.sketch.RANGE_MIN_DEFAULT,
                                       llmmetrics.sketch.RANGE_MAX_DEFAULT))

    def test_set_range_rules(self) -> None:
        with Sketch() as s:
            for lo, hi in ((1.0, 1.0), (2.0, 1.0), (0.0, 1.0), (1e-301, 1.0), (1.0, 1e301),
                           (float("nan"), 1.0), (1.0, float("inf"))):
                with self.assertRaises(InvalidArgument, msg="%r %r" % (lo, hi)):
                    s.set_range(lo, hi)
            self.assertEqual(s.range, (1e-9, 1e15))
            s.set_range(1e-300, 1e300)
            s.add(1.0)
            with self.assertRaises(InvalidState):
                s.set_range(1.0, 2.0)
        with self.assertRaises(InvalidArgument):
            Sketch(value_range=(5.0, 1.0))


class Errors(unittest.TestCase):
    def test_invalid_values_change_nothing(self) -> None:
        with Sketch() as s:
            s.add_many([1.0, 2.0])
            before = s.copy()
            for bad in (float("nan"), float("inf"), -float("inf"), -1.0, -1e-300):
                with self.assertRaises(InvalidArgument) as cm:
                    s.add(bad)
                self.assertEqual(cm.exception.status, -1)
                self.assertEqual(cm.exception.name, "LLMM_E_INVALID")
                self.assertEqual(cm.exception.call, "llmm_sketch_add")
                self.assertIsInstance(cm.exception, ValueError)
                with self.assertRaises(InvalidArgument):
                    s.add_many([3.0, 4.0, bad, 5.0])  # all or nothing
            self.assertEqual(s, before)
            before.close()

    def test_bad_probabilities(self) -> None:
        with sketch_of([1.0, 2.0]) as s:
            for q in (-0.1, 1.1, float("nan")):
                with self.assertRaises(InvalidArgument):
                    s.quantile(q)
                with self.assertRaises(InvalidArgument):
                    s.quantiles([0.5, q])

    def test_bad_scales_and_integers(self) -> None:
        for scale in (-1, 11, 2 ** 32 + 6, -2 ** 40):
            with self.assertRaises(InvalidArgument, msg=repr(scale)):
                Sketch(scale)
        with self.assertRaises(TypeError):
            Sketch(6.5)  # type: ignore[arg-type]
        with self.assertRaises(TypeError):
            Sketch("6")  # type: ignore[arg-type]
        with Sketch() as s:
            with self.assertRaises(InvalidArgument):
                s.add(1.0, -1)
            with self.assertRaises(OutOfRange):
                s.add(1.0, 2 ** 64)
            s.add(1.0, 2 ** 64 - 1)
            with self.assertRaises(OutOfRange):
                s.add(1.0)  # the C library refuses the count overflow
            self.assertEqual(s.count, 2 ** 64 - 1)

    def test_type_errors(self) -> None:
        with Sketch() as s:
            for bad in ("1.0", b"1", None, [1.0]):
                with self.assertRaises(TypeError, msg=repr(bad)):
                    s.add(bad)  # type: ignore[arg-type]
            for bad in ("12", b"12345678", bytearray(8), [1.0, "x"], [[1.0]], 3.0, None):
                with self.assertRaises(TypeError, msg=repr(bad)):
                    s.add_many(bad)  # type: ignore[arg-type]
            self.assertEqual(len(s), 0)

    def test_closed_sketch(self) -> None:
        s = Sketch()
        s.add(1.0)
        with s:
            self.assertFalse(s.closed)
        self.assertTrue(s.closed)
        s.close()  # idempotent
        for call in (lambda: s.add(1.0), lambda: s.add_many([1.0]), lambda: s.quantile(0.5),
                     lambda: s.count, lambda: len(s), lambda: s.copy(), lambda: s.sum,
                     lambda: Sketch().merge(s), lambda: s.buckets()):
            with self.assertRaises(ValueError):
                call()
        self.assertEqual(repr(s), "<llmmetrics.Sketch closed>")
        with self.assertRaises(ctypes.ArgumentError):
            _lib.llmm_sketch_count(s)  # via _as_parameter_, which raises ValueError
        self.assertIsInstance(Corrupt(-5), LlmmError)


class Display(unittest.TestCase):
    def test_repr(self) -> None:
        with Sketch() as s:
            self.assertEqual(repr(s), "<llmmetrics.Sketch scale=6 empty>")
            s.add_many([1.0, 2.0, 4.0])
            r = repr(s)
            self.assertTrue(r.startswith("<llmmetrics.Sketch scale=6 count=3 min=1 "), r)
            self.assertIn("max=4>", r)

    def test_html_has_table_and_svg(self) -> None:
        with Sketch() as s:
            self.assertNotIn("<svg", s._repr_html_())
            s.add_many(lognormal(10000, seed=10, sigma=2.0))
            s.add(0.0)
            h = s._repr_html_()
            self.assertIn("<svg", h)
            self.assertIn("<td>10001</td>", h)
            self.assertIn("p99.9", h)
            self.assertIn("zeros 1", h)
            nbars = h.count("<rect")
            self.assertGreater(nbars, 10)
            self.assertLessEqual(nbars, llmmetrics._html.MAX_BARS)
            total = sum(int(t.split(": ")[1].split("<")[0]) for t in h.split("<title>")[1:])
            self.assertEqual(total, 10000)
        s.close()
        self.assertIn("closed", s._repr_html_())

    def test_summary(self) -> None:
        with sketch_of([1.0, 2.0, 3.0, 4.0]) as s:
            d = s.summary((0.5, 0.999))
            self.assertEqual(list(d), ["count", "sum", "mean", "min", "p50", "p99.9", "max"])
            self.assertEqual(d["count"], 4)
            self.assertEqual(d["mean"], 2.5)
            assert_rel(self, d["p50"], 2.0, rel_bound(6), "p50")


class Allocation(unittest.TestCase):
    def test_context_accounts_every_byte(self) -> None:
        alloc = CountingAllocator()
        ctx = Context(alloc.alloc, alloc.realloc, alloc.free)
        s = Sketch(context=ctx)
        s.add_many(lognormal(2000, seed=14, sigma=3.0))
        c = s.copy()
        self.assertIs(c.context, ctx)
        self.assertGreater(alloc.live_bytes, 0)
        ctx.close()  # deferred: two sketches still use it
        self.assertTrue(ctx.closed)
        with self.assertRaises(ValueError):
            Sketch(context=ctx)
        s.close()
        self.assertGreater(alloc.live_bytes, 0)
        c.close()
        self.assertEqual(alloc.live_bytes, 0)
        self.assertEqual(alloc.errors, [])

    def test_every_allocation_failure_raises_and_leaks_nothing(self) -> None:
        data = lognormal(500, seed=15, sigma=3.0)
        k = 1
        while True:
            alloc = CountingAllocator(fail_at=k)
            ctx = None
            made = []
            try:
                ctx = Context(alloc.alloc, alloc.realloc, alloc.free)
                a = Sketch(context=ctx)
                made.append(a)
                a.add_many(data[:250])
                for v in data[250:300]:
                    a.add(v * 1e3)
                b = a.copy()
                made.append(b)
                b.add_many([x * 1e-4 for x in data])
                a.merge(b)
                failed = False
            except OutOfMemory as e:
                self.assertEqual(e.status, -2)
                self.assertIsInstance(e, MemoryError)
                failed = True
            for m in made:
                m.close()
            if ctx is not None:
                ctx.close()
            self.assertEqual(alloc.live_bytes, 0, "leak with failure at allocation %d" % k)
            self.assertEqual(alloc.errors, [])
            if not failed:
                break
            k += 1
        self.assertGreater(k, 3)

    def test_context_hooks_must_come_together(self) -> None:
        alloc = CountingAllocator()
        with self.assertRaises(ValueError):
            Context(alloc.alloc)
        with Context() as ctx:
            with Sketch(context=ctx) as s:
                s.add(1.0)
            self.assertIn("libc", repr(ctx))


class Threads(unittest.TestCase):
    def test_shared_sketch_is_serialised(self) -> None:
        chunks = [lognormal(2000, seed=100 + i) for i in range(4)]
        with Sketch() as s, Sketch() as ref:
            for c in chunks:
                ref.add_many(c)

            def work(c):
                for i in range(0, len(c), 100):
                    s.add_many(c[i:i + 100])
                for v in c[:200]:
                    s.add(v)

            threads = [threading.Thread(target=work, args=(c,)) for c in chunks]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            self.assertEqual(s.count, ref.count + 800)

    def test_close_while_other_threads_record(self) -> None:
        s = Sketch()
        started = threading.Barrier(4)
        outcomes = []

        def writer():
            started.wait()
            try:
                while True:
                    s.add_many([0.5] * 256)
                    s.add(1.0)
            except ValueError as e:  # "closed": the only way out
                outcomes.append(str(e))

        threads = [threading.Thread(target=writer) for _ in range(3)]
        for t in threads:
            t.start()
        started.wait()
        s.close()  # waits for a call in flight, then frees: never a use after free
        for t in threads:
            t.join(30)
        self.assertEqual(outcomes, ["llmmetrics.Sketch is closed"] * 3)

    def test_merge_in_both_directions_does_not_deadlock(self) -> None:
        errors = []
        with sketch_of([1.0]) as a, sketch_of([2.0]) as b:
            # 40 merges each way: counts grow at most like Fibonacci numbers, far below 2^64
            def ab():
                try:
                    for _ in range(40):
                        a.merge(b)
                except Exception as e:  # reported below: a thread cannot fail the test
                    errors.append(e)

            def ba():
                try:
                    for _ in range(40):
                        b.merge(a)
                except Exception as e:
                    errors.append(e)

            t1, t2 = threading.Thread(target=ab), threading.Thread(target=ba)
            t1.start()
            t2.start()
            t1.join(30)
            t2.join(30)
            self.assertFalse(t1.is_alive() or t2.is_alive())
            self.assertEqual(errors, [])


if __name__ == "__main__":
    unittest.main()
