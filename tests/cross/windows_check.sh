#!/usr/bin/env bash
# The Windows target of `./dev.sh test`, after a mingw-w64 build of the library and the examples
# (tests/cross/x86_64-w64-mingw32.ini, -Ddefault_library=both): the programs run under wine64.
# TAP output. Debian has no mingw build of cmocka, so the unit suite cannot run here; instead:
#
#  - the DLL exports exactly the functions of lib/libllmmetrics.map (LLMM_API = dllexport);
#  - every example prints under wine what the same example of the native Linux build prints
#    (their clocks are synthetic and their random streams seeded: the output is deterministic);
#  - an outside program (tests/install/consumer.c) links the DLL through its import library
#    (LLMM_API = dllimport) and runs; with -DLLMM_STATIC it links the static archive, needs no
#    DLL of ours, and runs; without LLMM_STATIC the archive does not link, so the switch is
#    what makes static use work;
#  - the host sampler (lib/host reads Linux's /proc and /sys) is made and samples, and every
#    signal is unavailable (tests/cross/host_unavailable.c).
#
# usage: windows_check.sh SOURCE_ROOT MINGW_BUILD NATIVE_BUILD
# Environment: WINE (default /usr/lib/wine/wine64), MINGW_CC (default x86_64-w64-mingw32-gcc),
# MINGW_OBJDUMP (default x86_64-w64-mingw32-objdump); WINEPREFIX as wine uses it.
set -uo pipefail

src=$1 bld=$2 native=$3
wine=${WINE:-/usr/lib/wine/wine64}
mcc=${MINGW_CC:-x86_64-w64-mingw32-gcc}
objdump=${MINGW_OBJDUMP:-x86_64-w64-mingw32-objdump}
export WINEDEBUG=${WINEDEBUG:--all}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
    n=$((n + 1)) failed=$((failed + 1))
    echo "not ok $n - $1"
    [ -s "$tmp/log" ] && sed 's/^/# /' "$tmp/log" | head -40
}
check() { # check DESCRIPTION COMMAND...: ok when the command succeeds (its output in the log)
    local what=$1
    shift
    if "$@" >"$tmp/log" 2>&1; then ok "$what"; else not_ok "$what"; fi
}

dll=$(find "$bld/lib" -maxdepth 1 -name 'libllmmetrics*.dll' -print -quit)
# The DLL's directory and mingw-w64's runtime (libwinpthread-1.dll) for the Windows loader.
runtime=$(dirname "$("$mcc" -print-file-name=libwinpthread-1.dll)")
export WINEPATH="Z:${bld}/lib;Z:${runtime}"
examples=()
for e in "$bld"/examples/*.exe; do [ -f "$e" ] && examples+=("$(basename "$e" .exe)"); done

echo "1..$((5 + ${#examples[@]}))"

exports_match_map() {
    [ -n "$dll" ] || { echo "no libllmmetrics*.dll in $bld/lib"; return 1; }
    sed -n 's/^[[:space:]]*\(llmm_[a-z0-9_]*\);.*/\1/p' "$src/lib/libllmmetrics.map" | sort >"$tmp/map"
    "$objdump" -p "$dll" |
        sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/s/.*\] \(llmm_[a-z0-9_]*\)$/\1/p' |
        sort >"$tmp/exports"
    diff "$tmp/map" "$tmp/exports" && echo "$(wc -l <"$tmp/map") functions"
}
check "the DLL exports exactly the functions of lib/libllmmetrics.map" exports_match_map

same_output() { # same_output NAME: the example under wine prints what the native one prints
    [ -x "$native/examples/$1" ] || { echo "no native $native/examples/$1 to compare with"; return 1; }
    "$native/examples/$1" >"$tmp/native.out" || { echo "native $1 failed"; return 1; }
    "$wine" "$bld/examples/$1.exe" >"$tmp/wine.raw" || { echo "$1.exe exited with $?"; return 1; }
    tr -d '\r' <"$tmp/wine.raw" | diff "$tmp/native.out" -
}
for e in "${examples[@]}"; do
    check "examples/$e.exe under wine64 prints what the Linux build prints" same_output "$e"
done

program() { # program SOURCE OUT.exe CFLAGS... -- LIBS...: compile SOURCE (under the source root)
    local c=$1 out=$2 cflags=()
    shift 2
    while [ "$1" != -- ]; do cflags+=("$1"); shift; done
    shift
    "$mcc" -std=c11 -Wall -Wextra -Werror "${cflags[@]}" -I"$src/include" -I"$bld/include" \
        "$src/$c" -o "$tmp/$out" "$@"
}
consumer() { program tests/install/consumer.c "$@"; }
imports_ours() { "$objdump" -p "$tmp/$1" | grep 'DLL Name: libllmmetrics' >/dev/null; } # (not -q: pipefail)
run_in_wine() { "$wine" "$tmp/$1" | tr -d '\r'; }

dll_program() {
    consumer dll.exe -- -L"$bld/lib" -lllmmetrics && imports_ours dll.exe && run_in_wine dll.exe
}
check "an outside program links the DLL (dllimport) and runs under wine64" dll_program

static_program() {
    consumer static.exe -DLLMM_STATIC -- "$bld/lib/libllmmetrics.a" -lpthread &&
        ! imports_ours static.exe && run_in_wine static.exe
}
check "with -DLLMM_STATIC it links the static archive, needs no DLL of ours and runs" \
    static_program

if consumer nostatic.exe -- "$bld/lib/libllmmetrics.a" -lpthread >"$tmp/log" 2>&1; then
    echo "linked the archive although every call is declared dllimport" >"$tmp/log"
    not_ok "without LLMM_STATIC the static archive does not link (the calls are dllimport)"
elif grep -q '__imp_llmm_' "$tmp/log"; then
    ok "without LLMM_STATIC the static archive does not link (the calls are dllimport)"
else
    not_ok "without LLMM_STATIC the link fails for the expected reason (__imp_llmm_*)"
fi

host_program() {
    program tests/cross/host_unavailable.c host.exe -- -L"$bld/lib" -lllmmetrics &&
        run_in_wine host.exe
}
check "the host sampler works off Linux with every signal unavailable (LLMM_E_STATE)" \
    host_program

[ "$failed" -eq 0 ]
