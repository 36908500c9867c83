#!/usr/bin/env bash
# `meson install --destdir` into a temporary directory, then build an outside program against
# the installed copy with `pkg-config llmmetrics` and run it. TAP output.
#
# usage: install_check.sh [--static] SOURCE_ROOT BUILD_ROOT VERSION SANITIZE CC [CC ARGS...]
#
# --static: the build installed a static library only (-Ddefault_library=static); the programs
# are linked with `pkg-config --static` and must not need any libllmmetrics.so; with cargo, the
# Rust crate's example is built with the feature `static` against the same install.
set -euo pipefail

link=shared pkgconfig=(pkg-config)
if [ "${1:-}" = --static ]; then
    link=static pkgconfig=(pkg-config --static)
    shift
fi
src=$1 bld=$2 version=$3 sanitize=$4
shift 4
cc=("$@")

if [ "$sanitize" != none ]; then
    echo "1..0 # SKIP sanitized build (b_sanitize=$sanitize): an outside program cannot link it"
    exit 0 # a TAP plan of 0 with SKIP: meson counts it as skipped (77 would be an error under TAP)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
    n=$((n + 1)); echo "not ok $n - $1"
    [ -f "$tmp/log" ] && sed 's/^/# /' "$tmp/log"
    exit 1
}

meson install -C "$bld" --no-rebuild --destdir "$dest" >"$tmp/log" 2>&1 ||
    fail "meson install --destdir"
ok "meson install --destdir"

pc=$(find "$dest" -name llmmetrics.pc -print -quit)
[ -n "$pc" ] || fail "llmmetrics.pc installed"
incdir=$(find "$dest" -type d -path '*/include/llmmetrics' -print -quit)
missing=()
for h in "$src"/include/llmmetrics/*.h "$bld"/include/llmmetrics/*.h; do
    [ -n "$incdir" ] && [ -f "$incdir/$(basename "$h")" ] || missing+=("$(basename "$h")")
done
[ ${#missing[@]} -eq 0 ] || { echo "not installed: ${missing[*]}" >"$tmp/log"; fail "every public header installed"; }
ok "llmmetrics.pc and every public header installed"

# Only the destdir's .pc file is visible; the sysroot prefix maps its paths into the destdir.
PKG_CONFIG_LIBDIR=$(dirname "$pc")
export PKG_CONFIG_LIBDIR PKG_CONFIG_PATH='' PKG_CONFIG_SYSROOT_DIR=$dest
cflags=$("${pkgconfig[@]}" --cflags llmmetrics 2>"$tmp/log") || fail "${pkgconfig[*]} --cflags llmmetrics"
libs=$("${pkgconfig[@]}" --libs llmmetrics 2>"$tmp/log") || fail "${pkgconfig[*]} --libs llmmetrics"
pcver=$(pkg-config --modversion llmmetrics)
case "$cflags $libs" in
    *"$dest"*) ;;
    *) echo "cflags '$cflags' libs '$libs' do not point into $dest" >"$tmp/log"; fail "pkg-config flags point into the destdir" ;;
esac
[ "$pcver" = "$version" ] || { echo "modversion $pcver, expected $version" >"$tmp/log"; fail "pkg-config modversion"; }
ok "${pkgconfig[*]} llmmetrics: $cflags $libs"

cp "$src/tests/install/consumer.c" "$tmp/consumer.c"
# shellcheck disable=SC2086 # pkg-config output is a list of words
(cd "$tmp" && "${cc[@]}" -std=c11 -Wall -Wextra -Werror consumer.c -o consumer $cflags $libs) \
    >"$tmp/log" 2>&1 || fail "compile an outside program with ${pkgconfig[*]} llmmetrics"
ok "compile an outside program with ${pkgconfig[*]} llmmetrics"

if [ "$link" = static ]; then
    libdir=$(dirname "$(find "$dest" -name 'libllmmetrics.a' -print -quit)")
    if [ -n "$(find "$dest" -name 'libllmmetrics.so*' -print -quit)" ] ||
        readelf -d "$tmp/consumer" | grep -q 'NEEDED.*libllmmetrics'; then
        readelf -d "$tmp/consumer" >"$tmp/log"
        fail "the program contains the library (static build installs no shared library)"
    fi
    ok "the program contains the library: no libllmmetrics.so installed or needed"
else
    libdir=$(dirname "$(find "$dest" -name 'libllmmetrics.so.1' -print -quit)")
    resolved=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/consumer" | awk '/libllmmetrics/ {print $3}')
    case "$resolved" in
        "$dest"/*) ;;
        *) echo "libllmmetrics resolves to '$resolved'" >"$tmp/log"; fail "the program loads the installed library" ;;
    esac
    ok "the program loads the installed library ($resolved)"
fi

LD_LIBRARY_PATH=$libdir "$tmp/consumer" >"$tmp/out" 2>"$tmp/log" || fail "run the outside program"
sed 's/^/# /' "$tmp/out"
if ! grep -qx "version $version" "$tmp/out" || ! grep -q '^LLMM_E_INVALID: .' "$tmp/out" ||
    ! grep -qx "slo satisfied 1 p95 0.1" "$tmp/out"; then
    cp "$tmp/out" "$tmp/log"
    fail "run the outside program"
fi
ok "run the outside program: version $version, a status message, an SLO check"

# The C++ example, compiled with g++ against the installed copy and run.
cp "$src/examples/cpp_example.cpp" "$tmp/cpp_example.cpp"
# shellcheck disable=SC2086 # pkg-config output is a list of words
(cd "$tmp" && g++ -std=c++17 -Wall -Wextra -Werror cpp_example.cpp -o cpp_example $cflags $libs \
    -pthread) >"$tmp/log" 2>&1 || fail "g++: examples/cpp_example.cpp against the installed library"
LD_LIBRARY_PATH=$libdir "$tmp/cpp_example" >"$tmp/out" 2>"$tmp/log" || fail "run cpp_example"
sed 's/^/# /' "$tmp/out"
ok "examples/cpp_example.cpp: built with g++ against the installed library, runs"

# The Rust example, linked statically through llmmetrics-sys's feature `static`.
if [ "$link" = static ]; then
    if ! command -v cargo >/dev/null 2>&1; then
        echo "ok $((n + 1)) - Rust example linked statically # SKIP cargo not installed"
        n=$((n + 1))
    else
        (LLMMETRICS_LIB_DIR='' RUSTFLAGS='-D warnings' cargo build --offline --quiet \
            --manifest-path "$src/bindings/rust/Cargo.toml" --target-dir "$tmp/rust-target" \
            --features llmmetrics/static --example serving_report) >"$tmp/log" 2>&1 ||
            fail "cargo build --features llmmetrics/static --example serving_report"
        exe=$tmp/rust-target/debug/examples/serving_report
        if readelf -d "$exe" | grep -q 'NEEDED.*libllmmetrics'; then
            readelf -d "$exe" >"$tmp/log"
            fail "the Rust example contains the library"
        fi
        "$exe" >"$tmp/out" 2>"$tmp/log" || fail "run the statically linked Rust example"
        ok "Rust example (feature static): needs no libllmmetrics.so, runs and checks its figures"
    fi
fi
echo "1..$n"
