"""Sketch binary form: round trips, pickling, every single-byte damage rejected, unknown
versions, and the header read back independently from doc/format.md."""

from __future__ import annotations

import copy
import pickle
import struct
import unittest

import os

from llmmetrics import Corrupt, DecodeInfo, InvalidArgument, Sketch, UnsupportedVersion

from support import REL_ERR_S6, SOURCE_ROOT, lognormal


def crc32c(data: bytes) -> int:
    """CRC-32C as doc/format.md specifies it (bitwise)."""
    c = 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
    return c ^ 0xFFFFFFFF


def sketches():
    """A variety of sketches (the caller closes them)."""
    out = [Sketch()]
    s = Sketch()
    s.add_many([0.0, 0.0])
    out.append(s)
    for scale in (0, 6, 10):
        s = Sketch(scale)
        s.add_many(lognormal(500, 0.2, 2.0, seed=100 + scale))
        out.append(s)
    s = Sketch(value_range=(1e-3, 1e3))
    s.add_many([1e-5, 0.5, 5.0, 1e6, 0.0])
    out.append(s)
    return out


class Codec(unittest.TestCase):
    def test_round_trip_keeps_everything(self) -> None:
        for s in sketches():
            with s:
                data = s.to_bytes()
                self.assertEqual(bytes(s), data)
                for form in (data, bytearray(data), memoryview(data)):
                    with Sketch.from_bytes(form) as back:
                        self.assertEqual(back, s)
                        self.assertEqual(back.to_bytes(), data)

    def test_header_read_independently(self) -> None:
        self.assertEqual(crc32c(b"123456789"), 0xE3069283)
        with Sketch(5, value_range=(1e-6, 1e6)) as s:
            s.add_many([0.25, 3.5, 1000.0])
            data = s.to_bytes()
        self.assertEqual(data[:4], b"LLMS")
        self.assertEqual(data[4], 1)
        self.assertEqual(data[5], 5)
        lo, hi, mn, mx, total = struct.unpack_from("<5d", data, 6)
        self.assertEqual((lo, hi, mn, mx, total), (1e-6, 1e6, 0.25, 1000.0, 1003.75))
        self.assertEqual(data[46], 3)  # count, a one-byte varint
        self.assertEqual(struct.unpack_from("<I", data, len(data) - 4)[0], crc32c(data[:-4]))

    def test_pickle_and_copy(self) -> None:
        for s in sketches():
            with s:
                for proto in range(pickle.HIGHEST_PROTOCOL + 1):
                    with pickle.loads(pickle.dumps(s, protocol=proto)) as back:
                        self.assertEqual(back, s)
                with copy.deepcopy(s) as c:
                    self.assertEqual(c, s)

    def test_every_single_byte_damage_is_rejected(self) -> None:
        with Sketch() as s:
            s.add_many(lognormal(50, seed=110))
            data = s.to_bytes()
        for i in range(len(data)):
            for mask in (0x01, 0x80, 0xFF):
                bad = bytearray(data)
                bad[i] ^= mask
                with self.assertRaises(Corrupt, msg="byte %d mask %#x" % (i, mask)):
                    Sketch.from_bytes(bytes(bad))
        for cut in range(len(data)):
            with self.assertRaises(Corrupt, msg="truncated to %d" % cut):
                Sketch.from_bytes(data[:cut])
        with self.assertRaises(Corrupt):
            Sketch.from_bytes(data + b"\0")

    def test_unknown_version_with_a_valid_checksum(self) -> None:
        with Sketch() as s:
            s.add(1.0)
            data = bytearray(s.to_bytes())
        data[4] = 2
        data[-4:] = struct.pack("<I", crc32c(bytes(data[:-4])))
        with self.assertRaises(UnsupportedVersion) as cm:
            Sketch.from_bytes(bytes(data))
        self.assertEqual(cm.exception.name, "LLMM_E_VERSION")

    def test_bad_inputs(self) -> None:
        with self.assertRaises(TypeError):
            Sketch.from_bytes("LLMS")  # type: ignore[arg-type]
        with self.assertRaises(Corrupt):
            Sketch.from_bytes(b"")
        self.assertTrue(issubclass(Corrupt, ValueError))
        self.assertFalse(issubclass(Corrupt, InvalidArgument))


class Decode(unittest.TestCase):
    """Sketch.decode (llmm_sketch_deserialize_ex) on the two snapshots the real 1.0 recorder
    wrote with its extreme bug (tests/data/v1_0) and on breaches of other rules."""

    def read(self, name: str) -> bytes:
        with open(os.path.join(SOURCE_ROOT, "tests", "data", "v1_0", name), "rb") as f:
            return f.read()

    def test_files_of_1_0_are_repaired(self) -> None:
        for name, fixed, want, kept, message in (
                ("v1_0_max_below_buckets.llmm", "max", 0.75, ("min", 1e-6), 1e-6),
                ("v1_0_min_above_buckets.llmm", "min", 0.25, ("max", 1e6), 1e6)):
            data = self.read(name)
            with self.assertRaises(Corrupt):
                Sketch.from_bytes(data)  # the 1.1 answer is kept
            s, info = Sketch.decode(data)
            with s:
                self.assertEqual(info, DecodeInfo(True, 1, 6, True, message, message))
                self.assertEqual(s.count, 101)
                got = getattr(s, fixed)
                self.assertLessEqual(abs(got - want), want * REL_ERR_S6, name)
                self.assertEqual(getattr(s, kept[0]), kept[1])
                self.assertLessEqual(abs(s.quantile(0.5) - 0.5), 0.5 * REL_ERR_S6)
                # the repaired sketch encodes to a message the strict reader accepts
                with Sketch.from_bytes(s.to_bytes()) as again:
                    self.assertEqual(again.max, s.max)

    def test_other_rules_named(self) -> None:
        data = bytearray(self.read("v1_0_max_below_buckets.llmm"))
        data[38:46] = struct.pack("<d", -1.0)  # the sum: rule 7 (checked before rule 6)
        data[-4:] = struct.pack("<I", crc32c(bytes(data[:-4])))
        with self.assertRaises(Corrupt) as cm:
            Sketch.decode(bytes(data))
        self.assertEqual(cm.exception.decode_info.rule, 7)  # type: ignore[attr-defined]
        self.assertTrue(cm.exception.decode_info.intact)  # type: ignore[attr-defined]
        self.assertIn("rule 7", str(cm.exception))
        data[20] ^= 1  # behind the checksum now
        with self.assertRaises(Corrupt) as cm:
            Sketch.decode(bytearray(data))
        self.assertEqual(cm.exception.decode_info, DecodeInfo(  # type: ignore[attr-defined]
            False, 0, 0, False, 0.0, 0.0))

    def test_intact_sketch(self) -> None:
        with Sketch() as s:
            s.add_many([0.5, 2.0])
            s2, info = Sketch.decode(memoryview(s.to_bytes()))
        with s2:
            self.assertEqual(info, DecodeInfo(True, 1, 0, False, 0.5, 2.0))
            self.assertEqual((s2.count, s2.min, s2.max), (2, 0.5, 2.0))


if __name__ == "__main__":
    unittest.main()
