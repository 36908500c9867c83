#!/usr/bin/env python3
"""Peak memory of `llmm report` on a large CSV trace with start times (issue 24, item 4).

usage: report_memory.py LLMM [--before OLD_LLMM] [--requests N] [--svg] [--keep FILE]

Writes a CSV of N requests (default 31 000 000, about 1.07 GB) with start_s, ttft_s, e2e_s,
output_tokens, input_tokens and status (a fixed seed; a TTFT spike every 100 000 requests),
runs `llmm report` on it under /usr/bin/time -v with each tool given (LLMM, and OLD_LLMM to
compare) and prints each one's peak RSS, its bytes per request and whether the reports are
identical; with two tools, the ratio of the peaks of the same run. Not a test: it takes
minutes and a gigabyte of disk (in $TMPDIR).
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile


def write_trace(path, n):
    rnd = random.Random(24)
    t = 0.0
    with open(path, "w", encoding="ascii") as f:
        f.write("start_s,ttft_s,e2e_s,output_tokens,input_tokens,status\n")
        rows = []
        for i in range(n):
            t += 0.0002 * rnd.random()
            ttft = 0.05 + 0.2 * rnd.random() + (2.0 if i % 100000 < 500 else 0.0)
            rows.append("%.4f,%.4f,%.4f,%d,%d,ok\n" % (t, ttft, ttft + 1 + 3 * rnd.random(),
                                                       50 + rnd.randrange(200),
                                                       100 + rnd.randrange(900)))
            if len(rows) == 100000:
                f.writelines(rows)
                rows = []
        f.writelines(rows)


def peak_kib(llmm, trace, out, svg_dir):
    cmd = ["/usr/bin/time", "-v", llmm, "report", trace]
    if svg_dir:
        os.mkdir(svg_dir)
        cmd[3:3] = ["--svg", svg_dir]
    with open(out, "wb") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE, text=True, check=False)
    if r.returncode != 0:
        sys.exit("%s failed (%d): %s" % (llmm, r.returncode, r.stderr[-2000:]))
    return int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("llmm")
    ap.add_argument("--before")
    ap.add_argument("--requests", type=int, default=31000000)
    ap.add_argument("--svg", action="store_true")
    ap.add_argument("--keep", help="write the trace here (and keep it) instead of $TMPDIR")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trace = a.keep or os.path.join(tmp, "trace.csv")
        if not os.path.exists(trace):
            write_trace(trace, a.requests)
        print("trace: %d requests, %.2f GB" % (a.requests, os.path.getsize(trace) / 1e9))
        tools = [("before", a.before)] if a.before else []
        tools.append(("now", a.llmm))
        peaks, outs = {}, {}
        for name, llmm in tools:
            outs[name] = os.path.join(tmp, name + ".txt")
            peaks[name] = peak_kib(llmm, trace, outs[name],
                                   os.path.join(tmp, name + "_svg") if a.svg else None)
            print("%-6s peak RSS %8.1f MB  %6.1f bytes/request" %
                  (name, peaks[name] * 1024 / 1e6, peaks[name] * 1024 / a.requests))
        if a.before:
            with open(outs["before"], "rb") as f1, open(outs["now"], "rb") as f2:
                same = f1.read() == f2.read()
            print("reports identical: %s; peak before / now: %.1f" %
                  ("yes" if same else "NO", peaks["before"] / peaks["now"]))


if __name__ == "__main__":
    main()
