#!/usr/bin/env python3
"""Suite 'cli': the tool's hardening of issue 24 (each test fails on the tool before it).

- output files (`merge -o`, `report --save-sketch`, `--svg`, the demo's files) are written
  through a temporary file beside the target and renamed over a regular or missing file only;
  devices and FIFOs are written in place, directories and dangling links refused, write errors
  reported (common/output.h);
- every command exits 1 when its standard output cannot be written;
- numbers that underflow to 0, an ITL sum that overflows, quantiles answered by a range bound
  and the line limit of CSV and JSONL;
- the memory of `llmm report` with start times: bounded once the time line spills.

usage: cli_harden_test.py PATH/TO/llmm [PATH/TO/count_alloc.so]
"""
import json
import os
import resource
import signal
import stat
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402
from cli_common import run  # noqa: E402

TRACE = "start_s,ttft_s,e2e_s,output_tokens,status\n" + "".join(
    "%g,%g,%g,%d,ok\n" % (i * 0.05, 0.1 + 0.001 * (i % 37), 1.0 + 0.01 * (i % 53), 20 + i % 9)
    for i in range(400))


class OutputFiles(cli_common.Base):
    def setUp(self):
        super().setUp()
        self.sk = os.path.join(self.dir, "sk")
        p = run("report", "--save-sketch", self.sk, self.write("t.csv", TRACE))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.src = os.path.join(self.sk, "ttft.llmm")
        with open(self.src, "rb") as f:
            self.want = f.read()  # merging one file gives back the same sketch

    def merge_to(self, out, **kw):
        return run("merge", "-q", self.src, "-o", out, **kw)

    def test_fifo_is_written_in_place(self):
        fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(fifo)
        got = []
        reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
        reader.start()
        p = self.merge_to(fifo)
        reader.join(30)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced")
        self.assertEqual(got, [self.want])

    def test_links_to_devices_are_followed_and_devices_kept(self):
        null = os.path.join(self.dir, "null")
        os.symlink("/dev/null", null)
        p = self.merge_to(null)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(os.readlink(null), "/dev/null")
        self.assertTrue(stat.S_ISCHR(os.stat("/dev/null").st_mode))
        full = os.path.join(self.dir, "full")
        os.symlink("/dev/full", full)
        p = self.merge_to(full)
        self.assertEqual(p.returncode, 1)
        self.assertIn("full: cannot write: No space left on device", p.stderr)
        self.assertEqual(os.readlink(full), "/dev/full")

    def test_device_node_stays_a_device(self):
        dev = os.path.join(self.dir, "devnull")
        try:
            os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except OSError as e:
            self.skipTest("cannot make a device node here: %s" % e)
        p = self.merge_to(dev)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(stat.S_ISCHR(os.lstat(dev).st_mode), "the device node was replaced")

    def test_a_planted_link_is_never_followed(self):
        out = os.path.join(self.dir, "out.llmm")
        victim = self.write("victim", "precious\n")
        for name in ("out.llmm.tmp", ".out.llmm.tmp"):
            os.symlink(victim, os.path.join(self.dir, name))
        p = self.merge_to(out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(victim) as f:
            self.assertEqual(f.read(), "precious\n")
        with open(out, "rb") as f:
            self.assertEqual(f.read(), self.want)
        self.assertFalse(os.path.islink(out))

    def test_directory_and_dangling_link_refused(self):
        d = os.path.join(self.dir, "d")
        os.mkdir(d)
        p = self.merge_to(d)
        self.assertEqual(p.returncode, 1)
        self.assertIn("d: is a directory", p.stderr)
        self.assertEqual(os.listdir(d), [])
        dangling = os.path.join(self.dir, "dangling")
        os.symlink(os.path.join(self.dir, "nowhere"), dangling)
        p = self.merge_to(dangling)
        self.assertEqual(p.returncode, 1)
        self.assertIn("a symbolic link to a missing file", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "nowhere")))

    def test_modes_and_symlinked_regular_files(self):
        out = self.write("old.llmm", "old")
        os.chmod(out, 0o640)
        p = self.merge_to(out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(stat.S_IMODE(os.stat(out).st_mode), 0o640)
        new = os.path.join(self.dir, "new.llmm")
        self.assertEqual(run_umask(0o027, "merge", "-q", self.src, "-o", new).returncode, 0)
        self.assertEqual(stat.S_IMODE(os.stat(new).st_mode), 0o640)
        link = os.path.join(self.dir, "link.llmm")
        os.symlink("old.llmm", link)
        self.assertEqual(self.merge_to(link).returncode, 0)
        self.assertEqual(os.readlink(link), "old.llmm")
        with open(out, "rb") as f:
            self.assertEqual(f.read(), self.want)

    def test_write_error_keeps_the_old_file_and_leaves_nothing(self):
        out = self.write("keep.llmm", "the old content\n")
        p = run_limited(64, "merge", "-q", self.src, "-o", out)  # at most 64 bytes a file
        self.assertEqual(p.returncode, 1)
        self.assertIn("keep.llmm: cannot write: File too large", p.stderr)
        with open(out) as f:
            self.assertEqual(f.read(), "the old content\n")
        self.assertEqual(sorted(os.listdir(self.dir)), ["keep.llmm", "sk", "t.csv"])

    def test_every_writer_goes_through_it(self):
        trace = self.write("t2.csv", TRACE)
        sweep = self.write("sweep.csv", "1,10\n2,20\n4,38\n8,60\n16,70\n32,72\n")
        # each writer finds a link to /dev/full (or a directory) where one of its files goes
        cases = [(["report", "--svg", "{d}", trace], "latency_percentiles.svg", "/dev/full"),
                 (["report", "--save-sketch", "{d}", trace], "tpot.llmm", None),
                 (["demo", "--dir", "{d}", "--requests", "200"], "llmm-demo-sweep.csv",
                  "/dev/full"),
                 (["knee", "--svg", "{d}", sweep], "qps_vs_concurrency.svg", "/dev/full")]
        for k, (args, name, link) in enumerate(cases):
            d = os.path.join(self.dir, "w%d" % k)
            os.mkdir(d)
            if link:
                os.symlink(link, os.path.join(d, name))
            else:
                os.mkdir(os.path.join(d, name))
            p = run(*[a.format(d=d) for a in args])
            self.assertEqual(p.returncode, 1, args)
            self.assertIn("%s: %s" % (name, "cannot write: No space left" if link
                                      else "is a directory"), p.stderr)


def run_with(args, **popen):
    """llmm with extra subprocess.run arguments (umask, preexec_fn, stdout)."""
    popen.setdefault("stdout", cli_common.subprocess.PIPE)
    return cli_common.subprocess.run([cli_common.LLMM, *args], stderr=cli_common.subprocess.PIPE,
                                     text=True, timeout=120, **popen)


def run_umask(mask, *args):
    return run_with(args, umask=mask)


def run_limited(max_bytes, *args):
    """llmm with RLIMIT_FSIZE: a write past max_bytes fails with EFBIG (SIGXFSZ ignored)."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, max_bytes))
    return run_with(args, preexec_fn=limit)


def run_to_full(*args):
    with open("/dev/full", "w") as full:
        return run_with(args, stdout=full)


class StandardOutput(cli_common.Base):
    def test_every_command_fails_on_a_full_stdout(self):
        trace = self.write("t.csv", TRACE)
        sk = os.path.join(self.dir, "sk")
        self.assertEqual(run("report", "--save-sketch", sk, trace).returncode, 0)
        sweep = self.write("sweep.csv", "1,10\n2,20\n4,38\n8,60\n16,70\n32,72\n")
        cases = [["version"], ["help"], ["help", "merge"], ["merge", "--help"],
                 ["merge", os.path.join(sk, "ttft.llmm"), "-o", os.path.join(self.dir, "m")],
                 ["knee", sweep], ["knee", "--json", sweep],
                 ["capacity", "--actual", "80", "--peak", "100"],
                 ["capacity", "--json", "--actual", "80", "--peak", "100"],
                 ["quantiles", os.path.join(sk, "e2e.llmm")], ["report", trace],
                 ["report", "--json", trace],
                 ["demo", "--dir", os.path.join(self.dir, "demo"), "--requests", "200"]]
        for args in cases:
            p = run_to_full(*args)
            self.assertEqual(p.returncode, 1, args)
            # the reason, when the failing write is the last one (else "write error")
            self.assertRegex(p.stderr, "^llmm: cannot write standard output: "
                             "(No space left on device|write error)\n$", args)
        # a usage error keeps its status; a closed stdout that is never written is fine
        p = run_to_full("merge")
        self.assertEqual(p.returncode, 2)
        p = cli_common.subprocess.run([cli_common.LLMM, "merge", "-q",
                                       os.path.join(sk, "ttft.llmm"), "-o",
                                       os.path.join(self.dir, "m2")],
                                      stdout=cli_common.subprocess.DEVNULL, timeout=60)
        self.assertEqual(p.returncode, 0)


class Inputs(cli_common.Base):
    def test_numbers_that_round_to_zero_are_refused(self):
        cases = [("u.csv", "ttft_s,e2e_s\n1e-400,0.2\n",
                  "u.csv:2: ttft_s is too small (it would round to 0): '1e-400'"),
                 ("u.jsonl", '{"ttft_s": 0.1, "e2e_s": 0.5e-330}\n',
                  "number 0.5e-330 is out of range (too small: it would round to 0)"),
                 ("u.json", '{"ttfts": [0.1], "latencies": [0.000001e-399]}',
                  "number 0.000001e-399 is out of range (too small: it would round to 0)")]
        for name, text, msg in cases:
            p = run("report", self.write(name, text))
            self.assertEqual(p.returncode, 1, name)
            self.assertIn(msg, p.stderr)
        # zero itself, in any spelling, and subnormals are numbers
        rep = json.loads(run("report", "--json", self.write(
            "z.csv", "ttft_s,e2e_s\n0e-400,0.2\n0.000,1e-310\n")).stdout)
        self.assertEqual(rep["requests"]["completed"], 2)

    def test_an_itl_sum_that_overflows_names_its_request(self):
        path = self.write("ov.json", '{"ttfts": [0.1, 0.2], "itls": [[0.1], [1e308, 1e308]]}')
        p = run("report", "--format", "vllm", path)
        self.assertEqual(p.returncode, 1)
        self.assertIn("request 1: the end-to-end latency rebuilt from its TTFT (ttfts[1] = "
                      "0.2 s) and its 2 ITLs (itls[1], sum inf s) overflows to infinity",
                      p.stderr)

    def test_one_line_limit_for_csv_and_jsonl(self):
        limit = 64 << 20
        pad = "x" * (limit + 1000)
        for name, text in (("long.jsonl", '{"ttft_s": 0.1, "e2e_s": 0.2, "note": "%s"}\n' % pad),
                           ("long.csv", "ttft_s,e2e_s,note\n0.1,0.2,%s\n" % pad),
                           ("first.csv", "ttft_s,e2e_s,%s\n0.1,0.2,x\n" % pad)):
            p = run("report", self.write(name, text))
            os.unlink(os.path.join(self.dir, name))
            self.assertEqual(p.returncode, 1, name)
            self.assertIn("line longer than %d bytes" % limit, p.stderr, name)
        ok = '{"ttft_s": 0.1, "e2e_s": 0.2, "note": "%s"}\n' % ("x" * (limit - 100))
        self.assertEqual(run("report", self.write("ok.jsonl", ok)).returncode, 0)


def start_trace(path, n):
    """n requests with start times, 2.5 ms apart (a CSV as `llmm report` reads it)."""
    with open(path, "w") as f:
        f.write("start_s,ttft_s,e2e_s,output_tokens,status\n")
        f.writelines("%.4f,%.4f,%.4f,%d,ok\n" % (i * 0.0025, 0.05 + (i % 997) * 2e-4,
                                                   0.6 + (i % 89) * 0.01, 16 + i % 200)
                     for i in range(n))
    return path


class Memory(cli_common.Base):
    """The report's heap with start times, counted by count_alloc.so (LD_PRELOAD): the peak,
    deterministic for a given input (never a wall-clock figure)."""

    def peak(self, trace, **env):
        out = os.path.join(self.dir, "alloc.txt")
        e = dict(os.environ, LD_PRELOAD=COUNT_ALLOC, COUNT_ALLOC_OUT=out, **env)
        p = cli_common.subprocess.run([cli_common.LLMM, "report", "--json", trace], env=e,
                                      capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            fields = dict(line.split() for line in f)
        return int(fields["peak"]), json.loads(p.stdout)

    def test_time_line_memory(self):
        if not COUNT_ALLOC:
            self.skipTest("no count_alloc.so given")
        small, big = 200000, 800000
        a = start_trace(os.path.join(self.dir, "a.csv"), small)
        b = start_trace(os.path.join(self.dir, "b.csv"), big)
        # past a bound (4 MiB here) the time line spills: the peak no longer grows
        sa, _ = self.peak(a, LLMM_TIMELINE_KIB="4096")
        sb, spilled = self.peak(b, LLMM_TIMELINE_KIB="4096")
        # below it, 24 bytes a request (the array doubles as it fills)
        ma, _ = self.peak(a)
        mb, whole = self.peak(b)
        per_spilled = (sb - sa) / (big - small)
        per_memory = (mb - ma) / (big - small)
        print("\n  peak heap: %d requests %.1f MiB, %d requests %.1f MiB spilled "
              "(%.2f B/request); in memory %.1f and %.1f MiB (%.1f B/request)"
              % (small, sa / 2**20, big, sb / 2**20, per_spilled, ma / 2**20, mb / 2**20,
                 per_memory), file=sys.stderr)
        self.assertLess(per_spilled, 1.0)
        self.assertLess(per_memory, 40.0)
        self.assertEqual(spilled, whole)  # the same report either way
        self.assertTrue(whole["spikes"]["available"])


class RangeBounds(cli_common.Base):
    def test_quantiles_answered_by_a_bound_are_flagged(self):
        # 3 TTFTs below the sketch range (1e-9 s) of 5: P50 is the bound, not a measurement
        trace = self.write("b.csv", "ttft_s,e2e_s\n1e-12,0.2\n2e-12,0.3\n1e-12,0.2\n"
                                    "0.1,0.3\n0.2,0.2\n")
        sk = os.path.join(self.dir, "sk")
        p = run("report", "--json", "--save-sketch", sk, trace)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("llmm: warning: TTFT: P50 lies below the sketch's range (1e-09 s): "
                      "reported as that bound (3 values below it)", p.stderr)
        self.assertEqual(json.loads(p.stdout)["ttft_s"]["p50"], 1e-9)
        self.assertNotIn("warning: E2E", p.stderr)
        p = run("quantiles", os.path.join(sk, "ttft.llmm"), "0.2", "0.5", "0.6", "0.8", "1")
        self.assertEqual(p.returncode, 0)
        self.assertIn("warning: %s: 0.5, 0.6 lie below the sketch's range (1e-09): reported "
                      "as that bound (3 values below it)" % os.path.join(sk, "ttft.llmm"),
                      p.stderr)
        self.assertEqual(p.stderr.count("warning"), 1)  # 0.2 is the exact min, 0.8 a bucket
        p = run("quantiles", os.path.join(sk, "e2e.llmm"))
        self.assertEqual(p.stderr, "")


COUNT_ALLOC = None  # count_alloc.so (second argument)

if __name__ == "__main__":
    if len(sys.argv) > 2:
        COUNT_ALLOC = os.path.abspath(sys.argv.pop(2))
    cli_common.main()
