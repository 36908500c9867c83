#!/usr/bin/env bash
# run_fuzz.sh TARGET CORPUS_DIR SECONDS: run a libFuzzer target for a bounded time over a copy
# of its seed corpus; any crash, leak or sanitizer report fails (the reproducer is kept in
# the working directory and named in the output).
set -euo pipefail
target=$1 corpus=$2 seconds=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
cp -r "$corpus"/. "$work/corpus/" 2>/dev/null || true
# -rss_limit_mb keeps a runaway allocation from taking the machine. libFuzzer's own exit code
# for a crash, a leak or a timeout is 77, which meson reads as "skipped": make every finding a
# failure (exit 1).
exec "$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 "$work/corpus"
