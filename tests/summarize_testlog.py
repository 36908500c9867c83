#!/usr/bin/env python3
"""Count test results from meson's logs and print one line: `N passed, N failed[, N skipped]`.

For each build directory it reads meson-logs/testlog.json (one JSON object per test, written
by the last `meson test` run; BUILDDIR:LOGBASE reads meson-logs/LOGBASE.json instead, the log
of a run with `--logbase LOGBASE`) and `meson introspect --tests` for each test's protocol:

- a TAP test counts its subtests: `ok` passes, `not ok` fails, a `# SKIP` directive skips
  (`# TODO` is neither pass nor fail and is counted as skipped); if the process itself failed
  (crash, bad plan, timeout, non-zero exit) while no subtest failed, that is one more failure;
  a TAP test skipped as a whole (exit 77) counts as one skip;
- any other test counts as one: OK and EXPECTEDFAIL pass, SKIP skips, the rest fail.

A FILE.tap argument is the TAP output of a check that `./dev.sh test` runs outside meson (the
Windows target, tests/cross/windows_check.sh), counted like a TAP test's subtests; its exit
status follows the `=`.

With --whole-skips-fail a test skipped as a whole (meson result SKIP: exit 77, which is also
what libFuzzer returns on a finding) counts as a failure: `./dev.sh test` installs every
package the suites need, so such a skip means a suite did not run.

Used by `./dev.sh test`. Exit status 1 when anything failed.

usage: summarize_testlog.py [--extra-failures N] [--whole-skips-fail]
                            BUILDDIR[:LOGBASE][=MESON_TEST_EXIT_STATUS] | FILE.tap=STATUS ...
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

TAP_LINE = re.compile(r"^(not ok|ok)\b[^#]*(?:#\s*(\w+))?", re.I)
PASS_RESULTS = {"OK", "EXPECTEDFAIL"}


def protocols(builddir):
    """Map meson's testlog name ("project:suite+suite / name") -> protocol."""
    try:
        out = subprocess.run(["meson", "introspect", builddir, "--tests"], check=True,
                             stdout=subprocess.PIPE, universal_newlines=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {}
    result = {}
    for t in json.loads(out):
        suites = t.get("suite") or []
        project = suites[0].split(":", 1)[0] if suites and ":" in suites[0] else ""
        short = [s.split(":", 1)[1] if ":" in s else s for s in suites]
        result["%s:%s / %s" % (project, "+".join(short), t["name"])] = t.get("protocol")
    return result


def looks_like_tap(stdout):
    return bool(re.search(r"^(1\.\.\d+|ok\b|not ok\b)", stdout, re.M))


def count_test(entry, protocol):
    """Return (passed, failed, skipped) for one testlog entry."""
    result = entry.get("result", "ERROR")
    stdout = entry.get("stdout") or ""
    is_tap = protocol == "tap" if protocol else looks_like_tap(stdout)
    if not is_tap:
        if result in PASS_RESULTS:
            return 1, 0, 0
        if result == "SKIP":
            return 0, 0, 1
        return 0, 1, 0
    passed = failed = skipped = 0
    for line in stdout.splitlines():
        if line.startswith("Bail out!"):
            failed += 1
            continue
        m = TAP_LINE.match(line)
        if not m:
            continue
        directive = (m.group(2) or "").upper()
        if directive in ("SKIP", "TODO"):
            skipped += 1
        elif m.group(1).lower() == "ok":
            passed += 1
        else:
            failed += 1
    if result == "SKIP" and passed + failed + skipped == 0:
        skipped = 1
    elif result not in PASS_RESULTS and result != "SKIP" and failed == 0:
        failed = 1
    return passed, failed, skipped


def find_log(builddir, logbase):
    """meson-logs/LOGBASE.json, or, when `meson test --wrap=W` renamed it to
    LOGBASE-<W's name>.json, the newest such file."""
    logs = os.path.join(builddir, "meson-logs")
    exact = os.path.join(logs, logbase + ".json")
    if os.path.exists(exact):
        return exact
    wrapped = glob.glob(os.path.join(logs, glob.escape(logbase) + "-*.json"))
    return max(wrapped, key=os.path.getmtime) if wrapped else exact


def count_tap_file(path, rc):
    """Return (passed, failed, skipped) for a TAP file written by a check outside meson."""
    if not os.path.exists(path):
        print("FAILED: %s: no TAP output (the check did not run)" % path)
        return 0, 1, 0
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    entry = {"result": "OK" if rc in ("", "0") else "FAIL", "stdout": text}
    counts = count_test(entry, "tap")
    for line in text.splitlines():
        if line.startswith("not ok") or line.startswith("Bail out!"):
            print("FAILED: %s: %s" % (path, line))
    if not looks_like_tap(text):
        print("FAILED: %s: not TAP output" % path)
        counts = (counts[0], max(counts[1], 1), counts[2])
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--extra-failures", type=int, default=0,
                    help="failed steps outside meson test (configure, build, docs)")
    ap.add_argument("--whole-skips-fail", action="store_true",
                    help="a test skipped as a whole (exit 77) is a failure")
    ap.add_argument("builddirs", nargs="+")
    args = ap.parse_args()

    total = [0, 0, 0]
    for spec in args.builddirs:
        where, _, rc = spec.partition("=")
        if where.endswith(".tap"):
            counts = count_tap_file(where, rc)
            print("%s: %d passed, %d failed, %d skipped" % (where, *counts))
            total = [a + b for a, b in zip(total, counts)]
            continue
        builddir, _, logbase = where.partition(":")
        log = find_log(builddir, logbase or "testlog")
        counts = [0, 0, 0]
        if os.path.exists(log):
            protos = protocols(builddir)
            with open(log, encoding="utf-8") as f:
                for line in f:
                    if not line.strip():
                        continue
                    entry = json.loads(line)
                    p, fl, s = count_test(entry, protos.get(entry.get("name")))
                    if args.whole_skips_fail and entry.get("result") == "SKIP" and not p + fl:
                        fl, s = 1, 0
                        print("FAILED: %s: %s (skipped as a whole: the suite did not run)"
                              % (where, entry.get("name")))
                    elif fl:
                        print("FAILED: %s: %s (%s)" % (where, entry.get("name"),
                                                       entry.get("result")))
                    counts = [counts[0] + p, counts[1] + fl, counts[2] + s]
        elif rc:
            print("FAILED: %s: no test log (meson test did not run)" % where)
            counts[1] += 1
        if rc not in ("", "0") and counts[1] == 0:
            print("FAILED: %s: meson test exited with status %s" % (where, rc))
            counts[1] += 1
        print("%s: %d passed, %d failed, %d skipped" % (where, *counts))
        total = [a + b for a, b in zip(total, counts)]

    total[1] += args.extra_failures
    line = "%d passed, %d failed" % (total[0], total[1])
    if total[2]:
        line += ", %d skipped" % total[2]
    print(line)
    return 1 if total[1] else 0


if __name__ == "__main__":
    sys.exit(main())
