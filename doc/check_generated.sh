#!/usr/bin/env bash
# Suite 'docs': a committed page that a program generates must be exactly what the program
# writes now. TAP output; the difference is shown on failure.
#
# usage: check_generated.sh PROGRAM PAGE
set -euo pipefail

prog=$1 page=$2
echo "1..1"
if out=$("$prog") && diff -u "$page" - <<<"$out" >/dev/null; then
    echo "ok 1 - $(basename "$page") is what $(basename "$prog") writes"
else
    echo "not ok 1 - $(basename "$page") is what $(basename "$prog") writes"
    echo "# regenerate: $prog > $page"
    "$prog" | diff -u "$page" - | sed 's/^/# /' || true
    exit 1
fi
