"""Recorder: many writer threads, snapshots equal to a sketch of the same values."""

from __future__ import annotations

import threading
import unittest

from llmmetrics import Context, InvalidArgument, InvalidState, Recorder, Sketch

from support import CountingAllocator, lognormal


class RecorderTests(unittest.TestCase):
    def test_threads_then_snapshot_equals_sketch_of_all_values(self) -> None:
        chunks = [lognormal(3000, 0.2, 1.5, seed=40 + i) for i in range(4)]
        with Recorder() as rec, Sketch() as ref:
            def writer(values):
                with rec.shard() as sh:
                    for i in range(0, len(values), 500):
                        sh.add_many(values[i:i + 500])

            threads = [threading.Thread(target=writer, args=(c,)) for c in chunks]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for c in chunks:
                ref.add_many(c)
            with rec.snapshot() as snap:
                self.assertEqual(snap.count, ref.count)
                self.assertEqual(list(snap.buckets()), list(ref.buckets()))
                self.assertEqual((snap.min, snap.max), (ref.min, ref.max))
                self.assertAlmostEqual(snap.sum, ref.sum, delta=1e-9 * ref.sum)

    def test_add_uses_a_shard_per_thread(self) -> None:
        with Recorder() as rec:
            def writer(k):
                for i in range(500):
                    rec.add(0.001 * (k + 1))
                rec.add_many([1.0] * 100)

            threads = [threading.Thread(target=writer, args=(k,)) for k in range(3)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            rec.add(5.0)
            snap = rec.snapshot()
            self.assertEqual(snap.count, 3 * 600 + 1)
            self.assertEqual(snap.max, 5.0)
            self.assertEqual(snap.min, 0.001)
            self.assertIn("count=1801", repr(rec))
            snap.close()

    def test_snapshot_while_writing_is_consistent(self) -> None:
        stop = threading.Event()
        with Recorder() as rec:
            def writer():
                sh = rec.shard()
                while not stop.is_set():
                    sh.add_many([0.5] * 1000)
                sh.release()

            t = threading.Thread(target=writer)
            t.start()
            counts = []
            with Sketch() as snap:
                for _ in range(20):
                    rec.snapshot(into=snap)
                    self.assertEqual(snap.count, sum(b.count for b in snap.buckets()))
                    counts.append(snap.count)
            stop.set()
            t.join()
            self.assertEqual(counts, sorted(counts))

    def test_interval_from_two_snapshots(self) -> None:
        with Recorder() as rec:
            rec.add_many([1.0, 2.0, 3.0])
            first = rec.snapshot()
            rec.add_many([10.0, 20.0])
            second = rec.snapshot()
            interval = second - first
            self.assertEqual(interval.count, 2)
            self.assertEqual(interval.sum, 30.0)
            for s in (first, second, interval):
                s.close()

    def test_range_and_errors(self) -> None:
        with Recorder(value_range=(1.0, 10.0)) as rec:
            rec.add_many([0.5, 5.0, 50.0])
            with rec.snapshot() as s:
                self.assertEqual(s.range, (1.0, 10.0))
                self.assertEqual(tuple(s.special_counts), (0, 1, 1))
            with self.assertRaises(InvalidState):
                rec.set_range(2.0, 3.0)  # a shard was handed out
            with self.assertRaises(InvalidArgument):
                rec.add(float("nan"))
            with self.assertRaises(InvalidArgument):
                rec.add_many([1.0, -1.0])
            with rec.snapshot() as s:
                self.assertEqual(s.count, 3)
        with self.assertRaises(InvalidArgument):
            Recorder(scale=11)
        with self.assertRaises(InvalidArgument):
            Recorder(value_range=(3.0, 1.0))

    def test_close_and_released_shards(self) -> None:
        rec = Recorder()
        sh = rec.shard()
        sh.add(1.0)
        sh.release()
        sh.release()
        self.assertTrue(sh.released)
        with self.assertRaises(ValueError):
            sh.add(1.0)
        other = rec.shard()
        rec.close()
        rec.close()
        self.assertTrue(rec.closed)
        for call in (lambda: rec.add(1.0), lambda: rec.snapshot(), lambda: other.add(1.0),
                     lambda: rec.shard()):
            with self.assertRaises(ValueError):
                call()
        other.release()  # after the recorder is gone: a no-op
        self.assertEqual(repr(rec), "<llmmetrics.Recorder closed>")

    def test_context_memory_is_returned(self) -> None:
        alloc = CountingAllocator()
        ctx = Context(alloc.alloc, alloc.realloc, alloc.free)
        rec = Recorder(context=ctx)
        rec.add_many(lognormal(1000, seed=44, sigma=2.0))
        snap = rec.snapshot()
        self.assertIs(snap.context, ctx)
        rec.close()
        snap.close()
        ctx.close()
        self.assertEqual(alloc.live_bytes, 0)
        self.assertEqual(alloc.errors, [])


if __name__ == "__main__":
    unittest.main()
