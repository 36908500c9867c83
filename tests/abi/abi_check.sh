#!/usr/bin/env bash
# ABI check: dump the ABI of the built library with abidw and compare it with the committed
# baseline tests/abi/libllmmetrics.abi using abidiff. Any abidiff finding fails.
#
# usage: abi_check.sh LIBRARY SOURCE_ROOT BUILD_ROOT           compare with the baseline
#        abi_check.sh LIBRARY SOURCE_ROOT BUILD_ROOT --update  rewrite the baseline
#
# The baseline must come from the configuration `./dev.sh test` uses (gcc, debugoptimized, so
# with DWARF); `./dev.sh abi-baseline` regenerates it that way. Exit 77 (skip) only when
# libabigail's tools are not installed.
set -euo pipefail

lib=$1 src=$2 bld=$3 mode=${4:-check}
baseline=$src/tests/abi/libllmmetrics.abi
suppressions=$src/tests/abi/libllmmetrics.abignore

if ! command -v abidw >/dev/null || ! command -v abidiff >/dev/null; then
    echo "1..0 # SKIP abidw/abidiff not installed (Debian package abigail-tools)"
    exit 0 # TAP plan 0 + SKIP is a skip; 77 under TAP is an error in meson 1.0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --headers-dir restricts the dump to types reachable from the public headers: the generated
# version.h lives in the build tree, the rest in the source tree. --exported-interfaces-only:
# without it abidw 2.2 writes each function once, in the first translation unit (by path)
# that mentions it, and when that unit only calls it (llmm_polyfit from fit/knee.c) the
# function-decl carries no symbol id and abidiff never compares its signature.
abidw --no-corpus-path --no-comp-dir-path --no-show-locs --type-id-style hash \
      --drop-private-types --exported-interfaces-only \
      --headers-dir "$bld/include/llmmetrics" --headers-dir "$src/include/llmmetrics" \
      --out-file "$tmp/current.abi" "$lib"

# Without DWARF abidw still writes the symbol list and abidiff then passes on type changes
# it cannot see: insist on type information.
no_debug="ABI dump of $lib has no function-decl: no debug info (build with -g, e.g. debugoptimized)"

if [ "$mode" = --update ]; then
    if ! grep -q '<function-decl' "$tmp/current.abi"; then
        echo "$no_debug" >&2
        exit 1
    fi
    cp "$tmp/current.abi" "$baseline"
    echo "wrote $baseline ($(grep -c '<function-decl' "$baseline") function-decl)"
    exit 0
fi

echo "1..3"
if ! grep -q '<function-decl' "$tmp/current.abi"; then
    echo "not ok 1 - ABI dump has type information"
    printf '# %s\n' "$no_debug"
    echo "not ok 2 - abidiff not run"
    echo "not ok 3 - abidiff not run"
    exit 1
fi
if [ ! -f "$baseline" ] || ! grep -q '<function-decl' "$baseline"; then
    echo "not ok 1 - baseline $baseline is missing or has no type information"
    echo "# regenerate it with ./dev.sh abi-baseline"
    echo "not ok 2 - abidiff not run"
    echo "not ok 3 - abidiff not run"
    exit 1
fi
echo "ok 1 - ABI dump and baseline have type information ($(grep -c '<function-decl' "$tmp/current.abi") function-decl)"

# abidiff compares the signature of a function only through a function-decl that carries the
# function's symbol id: every exported function must have one, in the dump and the baseline.
unbound=$(python3 - "$baseline" "$tmp/current.abi" <<'PY'
import re, sys
for path in sys.argv[1:]:
    text = open(path, encoding="utf-8").read()
    funcs = set(re.findall(r"<elf-symbol name='([^']+)'[^>]*type='func-type'", text))
    bound = set(re.findall(r"<function-decl [^>]*elf-symbol-id='([^'@]+)@", text))
    for name in sorted(funcs - bound):
        print("%s: %s has no function-decl with its symbol id" % (path.split("/")[-1], name))
PY
)
if [ -n "$unbound" ]; then
    echo "not ok 2 - every exported function has a declaration abidiff compares"
    sed 's/^/# /' <<<"$unbound"
else
    echo "ok 2 - every exported function has a declaration abidiff compares"
fi

set +e
abidiff --no-added-syms --suppressions "$suppressions" "$baseline" "$tmp/current.abi" \
    >"$tmp/abidiff.txt" 2>&1
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
    echo "not ok 3 - abidiff against tests/abi/libllmmetrics.abi (exit status $rc)"
    sed 's/^/# /' "$tmp/abidiff.txt"
    echo "# If the change is an intended addition to the open release, refresh the"
    echo "# baseline in the same commit: ./dev.sh abi-baseline (see doc/abi.md)."
    exit 1
fi
echo "ok 3 - abidiff against tests/abi/libllmmetrics.abi reports no change"
[ -z "$unbound" ]
