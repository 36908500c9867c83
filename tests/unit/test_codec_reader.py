#!/usr/bin/env python3
"""An independent reader of the sketch binary format, written from doc/format.md alone
(standard library only), checked against the C library.

Usage: test_codec_reader.py PATH/TO/codec_sample (run through $MESON_EXE_WRAPPER when set)

For every sample the C helper knows, the helper writes the encoding to a file and prints what
the C library reads in it (fields, every bucket, quantiles); this reader decodes the file on
its own and must find the same. It also reads the golden files of tests/data/golden (directory
from $LLMM_TEST_DATA) against their sidecar files, and rejects damaged encodings.
"""
import math
import os
import shlex
import struct
import subprocess
import sys
import tempfile
import unittest

# ---- the reader (doc/format.md) ------------------------------------------------------------


class CorruptError(ValueError):
    """The data is not an intact encoding."""


class VersionError(ValueError):
    """An intact encoding of a format version this reader does not know."""


MAGIC = b"LLMS"
KNOWN_VERSION = 1
U64 = (1 << 64) - 1
DBL_MAX_BITS = 0x7FEFFFFFFFFFFFFF


def _crc_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
        table.append(c)
    return table


_CRC_TABLE = _crc_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _CRC_TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def read_varint(buf, pos, end):
    """Unsigned LEB128, shortest form, at most 64 bits: returns (value, new position)."""
    value = 0
    for i in range(10):
        if pos >= end:
            raise CorruptError("varint runs past the end")
        b = buf[pos]
        pos += 1
        if i == 9 and b > 1:
            raise CorruptError("varint wider than 64 bits")
        value |= (b & 0x7F) << (7 * i)
        if not b & 0x80:
            if b == 0 and i > 0:
                raise CorruptError("varint not in its shortest form")
            return value, pos
    raise CorruptError("varint longer than 10 bytes")


def unzigzag(z):
    return (z >> 1) ^ -(z & 1)


def bucket_index(scale, v):
    """index_s(v) = ceil(2^s log2 v) - 1, exactly (doc/format.md 3.3)."""
    p, q = v.as_integer_ratio()
    k = q.bit_length() - 1
    n = 1 << scale
    return (p ** n - 1).bit_length() - k * n - 1


def bits(d):
    return struct.unpack("<Q", struct.pack("<d", d))[0]


class Sketch:
    def __init__(self):
        self.scale = 0
        self.range_lo = self.range_hi = 0.0
        self.min = self.max = self.sum = 0.0
        self.count = self.zero = self.under = self.over = 0
        self.buckets = {}  # index -> count, non-empty buckets only


def decode(data):
    data = bytes(data)
    n = len(data)
    if n < 9 or data[:4] != MAGIC:
        raise CorruptError("too short or bad magic")
    (stored,) = struct.unpack_from("<I", data, n - 4)
    if crc32c(data[: n - 4]) != stored:
        raise CorruptError("checksum mismatch")
    if data[4] != KNOWN_VERSION:
        raise VersionError("format version %d" % data[4])
    if n < 46 + 5 + 4:
        raise CorruptError("shorter than the fixed part")
    sk = Sketch()
    sk.scale = data[5]
    if sk.scale > 10:
        raise CorruptError("scale")
    sk.range_lo, sk.range_hi, sk.min, sk.max, sk.sum = struct.unpack_from("<5d", data, 6)
    if not (sk.range_lo >= 1e-300 and sk.range_hi <= 1e300 and sk.range_hi > sk.range_lo):
        raise CorruptError("range")
    idx_lo = bucket_index(sk.scale, sk.range_lo)
    idx_hi = bucket_index(sk.scale, sk.range_hi)
    end = n - 4
    pos = 46
    sk.count, pos = read_varint(data, pos, end)
    sk.zero, pos = read_varint(data, pos, end)
    sk.under, pos = read_varint(data, pos, end)
    sk.over, pos = read_varint(data, pos, end)
    nruns, pos = read_varint(data, pos, end)
    total = 0
    last = None
    for k in range(nruns):
        v, pos = read_varint(data, pos, end)
        if k == 0:
            start = unzigzag(v)
        else:
            if v < 1:
                raise CorruptError("gap of 0 between runs")
            start = last + 1 + v
        if not idx_lo <= start <= idx_hi:
            raise CorruptError("bucket outside the range")
        length, pos = read_varint(data, pos, end)
        if length < 1 or start + length - 1 > idx_hi:
            raise CorruptError("run length")
        c = 0
        for j in range(length):
            z, pos = read_varint(data, pos, end)
            c = (c + unzigzag(z)) & U64
            if c == 0 and j in (0, length - 1):
                raise CorruptError("run starts or ends on an empty bucket")
            if c:
                sk.buckets[start + j] = c
            total += c
        last = start + length - 1
    if pos != end:
        raise CorruptError("bytes after the last run")
    if total + sk.zero + sk.under + sk.over > U64:
        raise CorruptError("counts overflow")
    if total + sk.zero + sk.under + sk.over != sk.count:
        raise CorruptError("count disagrees")
    bmin, bmax = bits(sk.min), bits(sk.max)
    if sk.count == 0:
        if bmin or bmax:
            raise CorruptError("min / max of an empty sketch")
        if sk.sum != 0.0:  # +0.0 or -0.0 (NaN is not 0)
            raise CorruptError("sum of an empty sketch")
        return sk
    if not bmin <= bmax <= DBL_MAX_BITS:
        raise CorruptError("min / max")
    if sk.count > sk.zero and bmax == 0:
        raise CorruptError("max of a sketch with non-zero values")
    if sk.sum < 0:  # NaN compares false: allowed
        raise CorruptError("negative sum")
    if sk.zero and sk.min != 0.0:
        raise CorruptError("a zero counted, min above it")
    if sk.buckets:
        if bucket_index(sk.scale, sk.max) < max(sk.buckets):
            raise CorruptError("max below the highest bucket")
        if sk.min > 0 and bucket_index(sk.scale, sk.min) > min(sk.buckets):
            raise CorruptError("min above the lowest bucket")
    return sk


def rank_of(q, n):
    qn = q * float(n)
    r = round(qn)  # nearest, ties to even
    if abs(qn - r) > 1e-9:
        r = math.ceil(qn)
    return min(max(1, int(r)), n)


def representative(scale, i):
    n = 1 << scale
    base = 2.0 ** (2.0 ** -scale)
    j = i + 1
    upper = math.ldexp(2.0 ** ((j % n) / n), j // n)
    return upper * (2.0 / (1.0 + base))


def quantile(sk, q):
    r = rank_of(q, sk.count)
    if r == 1:
        return sk.min
    if r == sk.count:
        return sk.max
    classes = [(sk.zero, 0.0), (sk.under, sk.range_lo)]
    classes += [(sk.buckets[i], representative(sk.scale, i)) for i in sorted(sk.buckets)]
    classes.append((sk.over, sk.range_hi))
    running = 0
    for size, value in classes:
        running += size
        if r <= running:
            return min(max(value, sk.min), sk.max)
    raise AssertionError("rank beyond the counts")


# ---- the C side's description (format in tests/codec/codec_sample.c) -------------------------


def parse_description(text):
    d = {"bucket": {}, "quantile": [], "exact": []}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        f = rest.split()
        if key == "name":
            d[key] = rest
        elif key in ("format", "scale", "count", "zero", "under", "over"):
            d[key] = int(f[0])
        elif key == "range":
            d[key] = (float.fromhex(f[0]), float.fromhex(f[1]))
        elif key in ("min", "max", "sum"):
            d[key] = float.fromhex(f[0])
        elif key == "bucket":
            d[key][int(f[0])] = int(f[1])
        elif key in ("quantile", "exact"):
            d[key].append((float.fromhex(f[0]), float.fromhex(f[1])))
        else:
            raise ValueError("unknown key " + key)
    return d


def rel_bound(scale):
    base = 2.0 ** (2.0 ** -scale)
    return (base - 1.0) / (base + 1.0) * (1.0 + 1e-12)


# ---- tests ---------------------------------------------------------------------------------

HELPER = None


def same_double(a, b):
    return bits(a) == bits(b)


class ReaderAgreesWithC(unittest.TestCase):
    def check(self, sk, d, label):
        self.assertEqual(d["format"], KNOWN_VERSION, label)
        self.assertEqual(sk.scale, d["scale"], label)
        self.assertTrue(same_double(sk.range_lo, d["range"][0]), label)
        self.assertTrue(same_double(sk.range_hi, d["range"][1]), label)
        for key in ("count", "zero", "under", "over"):
            self.assertEqual(getattr(sk, key), d[key], label + " " + key)
        for key in ("min", "max", "sum"):
            if key in d:
                self.assertTrue(same_double(getattr(sk, key), d[key]),
                                "%s %s: %r != %r" % (label, key, getattr(sk, key), d[key]))
        self.assertEqual(sk.buckets, d["bucket"], label + " buckets")
        if sk.count and sk.count <= 1 << 62:
            self.assertTrue(d["quantile"], label)
        for q, v in d["quantile"]:
            got = quantile(sk, q)
            self.assertTrue(math.isclose(got, v, rel_tol=1e-12, abs_tol=0.0),
                            "%s q=%r: reader %r, C %r" % (label, q, got, v))
        for q, v in d["exact"]:
            got = quantile(sk, q)
            self.assertTrue(math.isclose(got, v, rel_tol=rel_bound(sk.scale), abs_tol=0.0),
                            "%s q=%r: %r not within the bound of exact %r" % (label, q, got, v))

    def test_reference_values(self):
        self.assertEqual(crc32c(b"123456789"), 0xE3069283)
        self.assertEqual(unzigzag(1), -1)
        self.assertEqual(unzigzag(4), 2)
        self.assertEqual(read_varint(b"\xac\x02", 0, 2), (300, 2))
        # bucket boundaries: powers of two go to the lower bucket
        self.assertEqual(bucket_index(0, 1.0), -1)
        self.assertEqual(bucket_index(0, 1.5), 0)
        self.assertEqual(bucket_index(2, 1.5), 2)
        self.assertEqual(bucket_index(2, 100.0), 26)
        self.assertEqual(bucket_index(6, 2.0), 63)
        self.assertEqual(bucket_index(10, 5e-324), -1074 * 1024 - 1)

    def test_document_example(self):
        example = bytes.fromhex("".join([  # doc/format.md section 4, line by line
            "4c 4c 4d 53", "01", "02",
            "95 d6 26 e8 0b 2e 11 3e", "00 00 34 26 f5 6b 0c 43",
            "00 00 00 00 00 00 00 00", "00 00 00 00 00 00 59 40", "66 66 66 66 66 86 5a 40",
            "06", "01", "00", "00", "02", "04 01 08", "17 01 02", "f1 09 e9 05"]))
        self.assertEqual(len(example), 61)
        sk = decode(example)
        self.assertEqual((sk.scale, sk.count, sk.zero, sk.under, sk.over), (2, 6, 1, 0, 0))
        self.assertEqual(sk.buckets, {2: 4, 26: 1})
        self.assertEqual((sk.range_lo, sk.range_hi, sk.min, sk.max), (1e-9, 1e15, 0.0, 100.0))

    def test_samples_from_the_c_library(self):
        names = subprocess.run([*HELPER, "--list"], check=True, capture_output=True,
                               text=True).stdout.split()
        self.assertGreaterEqual(len(names), 10)
        with tempfile.TemporaryDirectory() as tmp:
            for name in names:
                path = os.path.join(tmp, name + ".llmms")
                out = subprocess.run([*HELPER, name, path], check=True, capture_output=True,
                                     text=True).stdout
                with open(path, "rb") as f:
                    data = f.read()
                d = parse_description(out)
                self.assertEqual(d["name"], name)
                self.check(decode(data), d, name)

    def test_golden_files(self):
        gold = os.path.join(os.environ.get("LLMM_TEST_DATA", "tests/data"), "golden")
        names = sorted(f[:-6] for f in os.listdir(gold) if f.endswith(".llmms"))
        self.assertGreaterEqual(len(names), 7)
        for name in names:
            with open(os.path.join(gold, name + ".llmms"), "rb") as f:
                data = f.read()
            with open(os.path.join(gold, name + ".txt"), encoding="ascii") as f:
                d = parse_description(f.read())
            self.check(decode(data), d, name)

    def test_fields_that_disagree(self):
        """min, max and sum set to values around every limit of doc/format.md 3.4 in every
        sample: this reader and the C library give the same verdict on each message."""
        names = subprocess.run([*HELPER, "--list"], check=True, capture_output=True,
                               text=True).stdout.split()
        with tempfile.TemporaryDirectory() as tmp:
            msgs, want = [], []
            for name in names:
                path = os.path.join(tmp, name)
                subprocess.run([*HELPER, name, path], check=True, capture_output=True)
                with open(path, "rb") as f:
                    data = f.read()
                sk = decode(data)
                for off, value in self.field_values(sk):
                    bad = bytearray(data[:-4])
                    struct.pack_into("<d", bad, off, value)
                    bad += struct.pack("<I", crc32c(bad))
                    msgs.append(bytes(bad))
            for k, m in enumerate(msgs):
                with open(os.path.join(tmp, "m%d" % k), "wb") as f:
                    f.write(m)
                try:
                    decode(m)
                    want.append("ok")
                except CorruptError:
                    want.append("corrupt")
            got = subprocess.run([*HELPER, "--check"] +
                                 [os.path.join(tmp, "m%d" % k) for k in range(len(msgs))],
                                 check=True, capture_output=True, text=True).stdout.split()
        self.assertEqual(len(got), len(want))
        for k, (g, w) in enumerate(zip(got, want)):
            self.assertEqual(g, w, "message %d" % k)
        self.assertGreater(want.count("ok"), 20)
        self.assertGreater(want.count("corrupt"), 100)

    @staticmethod
    def field_values(sk):
        """(offset, value) pairs: min at 22, max at 30, sum at 38, each set to a value near a
        limit: 0, -0, NaN, the extremes, the edges of the lowest and highest buckets."""
        edges = [0.0, -0.0, math.nan, -1.0, 1e-300, sk.range_lo, sk.range_hi, 1.7976931348623157e308,
                 math.inf, sk.min, sk.max]
        for i in (min(sk.buckets), max(sk.buckets)) if sk.buckets else ():
            lo = 2.0 ** (i / 2 ** sk.scale)
            hi = 2.0 ** ((i + 1) / 2 ** sk.scale)
            edges += [lo * (1 - 1e-9), lo * (1 + 1e-9), hi * (1 - 1e-9), hi * (1 + 1e-9)]
        for off in (22, 30, 38):
            for v in edges:
                yield off, v

    def test_damage_is_rejected(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "s.llmms")
            subprocess.run([*HELPER, "sparse", path], check=True, capture_output=True)
            with open(path, "rb") as f:
                data = f.read()
        decode(data)
        for pos in range(len(data)):
            for x in (0x01, 0x80, 0xFF):
                bad = bytearray(data)
                bad[pos] ^= x
                with self.assertRaises(CorruptError, msg="byte %d ^ %#x" % (pos, x)):
                    decode(bad)
        for cut in range(len(data)):
            with self.assertRaises(CorruptError):
                decode(data[:cut])
        with self.assertRaises(CorruptError):
            decode(data + b"\0")
        # an intact message of another version
        other = bytearray(data[:-4])
        other[4] = 2
        other += struct.pack("<I", crc32c(other))
        with self.assertRaises(VersionError):
            decode(other)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_codec_reader.py PATH/TO/codec_sample")
    # In a cross build meson names the emulator that runs the host's programs (qemu-user).
    HELPER = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "")) + [sys.argv.pop(1)]
    unittest.main(verbosity=2)
