#!/usr/bin/env bash
# The by-hand build of doc/getting-started.md, run as written: the first shell block after the
# paragraph that starts with "By hand" is executed line by line (bash -e) in a copy of the
# source tree, with DESTDIR pointing into a temporary directory (meson install honours it),
# and the staged install must hold the library, its headers and its pkg-config file. TAP.
#
# usage: by_hand.sh SOURCE_ROOT
set -euo pipefail

src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..2"

block=$(awk '/^By hand/ {found = 1} found && /^~~~/ {if (inside) exit; inside = 1; next}
             inside {print}' "$src/doc/getting-started.md")
if [ -z "$block" ]; then
    echo "not ok 1 - doc/getting-started.md has a by-hand shell block"
    exit 1
fi
mkdir "$tmp/src"
tar -C "$src" --exclude='./build*' --exclude='./.git' --exclude='target' --exclude='__pycache__' \
    -cf - . | tar -C "$tmp/src" -xf -
printf '%s\n' "$block" | sed 's/^/# /'
if (cd "$tmp/src" && DESTDIR="$tmp/stage" bash -e -x <<<"$block") >"$tmp/log" 2>&1; then
    echo "ok 1 - the by-hand build runs as written"
else
    echo "not ok 1 - the by-hand build runs as written"
    sed 's/^/# /' "$tmp/log" | tail -40
    exit 1
fi

lib=$(find "$tmp/stage" -name 'libllmmetrics.so.1' | head -1)
pc=$(find "$tmp/stage" -name 'llmmetrics.pc' | head -1)
hdr=$(find "$tmp/stage" -path '*/include/llmmetrics/llmmetrics.h' | head -1)
if [ -n "$lib" ] && [ -n "$pc" ] && [ -n "$hdr" ]; then
    echo "ok 2 - staged: ${lib#"$tmp/stage"}, ${pc#"$tmp/stage"}, ${hdr#"$tmp/stage"}"
else
    echo "not ok 2 - the staged install has the library, llmmetrics.pc and the headers"
    find "$tmp/stage" | sed 's/^/# /'
    exit 1
fi
