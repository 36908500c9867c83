"""Sketch binary form: round trips, pickling, every single-byte damage rejected, unknown
versions, and the header read back independently from doc/format.md."""

from __future__ import annotations

import copy
import pickle
import struct
import unittest

from llmmetrics import Corrupt, InvalidArgument, Sketch, UnsupportedVersion

from support import lognormal


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


if __name__ == "__main__":
    unittest.main()
