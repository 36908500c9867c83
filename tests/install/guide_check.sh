#!/usr/bin/env bash
# doc/getting-started.md and doc/bindings.md's cffi section, run as written. TAP.
#
# In a copy of the source tree, with HOME in a temporary directory (the guide installs under
# $HOME/opt/llmmetrics), each tested block runs in `bash -e`, in the order of the guide; the
# environment a block exports carries over to the next. A tested block is the first fenced
# block after `<!-- test: NAME -->` (the system install's: after the paragraph starting
# "By hand"). Checks:
#   - the by-hand build, staged with DESTDIR: library, headers and pkg-config file; ldconfig
#     (a private cache, -C) registers the library under its soname;
#   - the custom prefix: installed there, the program fails with the error the guide shows,
#     runs with LD_LIBRARY_PATH and with an rpath, ldconfig registers the directory, llmm runs;
#   - static linking: a static-only build in a prefix of its own, a program linked with
#     pkg-config --static that needs no libllmmetrics.so;
#   - cffi from the installed headers (cpp -P), the Rust crate, the Go module (replace + go get)
#     and the Go package in GOPATH mode against the custom prefix.
# A block whose tool is missing (llmm without YAJL, cffi, cargo, go) is reported as skipped.
#
# usage: guide_check.sh SOURCE_ROOT
set -euo pipefail

src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
guide=$src/doc/getting-started.md
work=$tmp/src
state=$tmp/state.sh
prefix=$tmp/home/opt/llmmetrics
n=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
fail() {
    n=$((n + 1))
    echo "not ok $n - $1"
    [ -f "$tmp/log" ] && sed 's/^/# /' "$tmp/log" | tail -40
    [ -f "$tmp/out" ] && ! cmp -s "$tmp/out" "$tmp/log" && sed 's/^/# /' "$tmp/out" | tail -40
    echo "1..$n"
    exit 1
}

# block FILE NAME: the text of a tested block, without the fence's own indentation.
block() {
    awk -v name="$2" '
        !found && ((name == "by-hand" && /^By hand/) || index($0, "<!-- test: " name " -->")) {
            found = 1; next
        }
        found && /^ *~~~/ {
            if (inside) exit
            inside = 1; indent = match($0, /~~~/) - 1; next
        }
        inside { print (substr($0, 1, indent) ~ /^ *$/) ? substr($0, indent + 1) : $0 }
    ' "$1"
}

# user CMD...: CMD in the copy of the tree with the environment the blocks exported and
# nothing else.
user() {
    (cd "$work" && env -i bash -c '. "$0" && exec "$@"' "$state" "$@")
}

# run NAME [FILE [VAR=VALUE...]]: the block in bash -e (with VAR=VALUE added), after the
# blocks before it; what it exports is kept for the next ones. Its output in $tmp/out.
run() {
    local name=$1 file=${2:-$guide} text
    shift $(($# < 2 ? $# : 2))
    text=$(block "$file" "$name")
    [ -n "$text" ] || { : >"$tmp/log"; fail "$name: ${file#"$src"/} has a block marked 'test: $name'"; }
    printf '%s\n' "$text" | sed "s/^/# $name: /"
    user env "$@" bash -e -c "$text
export -p > '$state.next'" >"$tmp/out" 2>&1 && mv "$state.next" "$state" &&
        cp "$tmp/out" "$tmp/log"
}

# registered CACHE_DIR LIBDIR: ldconfig, with a private cache listing LIBDIR, maps the soname
# libllmmetrics.so.1 to LIBDIR's file.
registered() {
    printf '%s\n' "$2" >"$tmp/ld.so.conf"
    ldconfig -X -C "$1/ld.so.cache" -f "$tmp/ld.so.conf" >"$tmp/log" 2>&1 &&
        ldconfig -C "$1/ld.so.cache" -p >"$tmp/log" 2>&1 &&
        grep -q "libllmmetrics.so.1 (.*) => $2/libllmmetrics.so.1\$" "$tmp/log"
}

mkdir -p "$work" "$tmp/home"
tar -C "$src" --exclude='./build*' --exclude='./.git' --exclude='target' --exclude='__pycache__' \
    --exclude='.mesonpy*' -cf - . | tar -C "$work" -xf -
# A user's environment: nothing of the build tree's, HOME here; rustup's toolchains and Go's
# build cache stay where they are (LLMM_GOCACHE: the bindings suite's), caches of their own.
rustup_home=${RUSTUP_HOME:-$HOME/.rustup}
(
    export HOME=$tmp/home RUSTUP_HOME=$rustup_home CARGO_HOME=$tmp/cargo
    export GOCACHE=${LLMM_GOCACHE:-$tmp/gocache} GOPATH=$tmp/gopath GOPROXY=off
    unset PKG_CONFIG_PATH PKG_CONFIG_LIBDIR LD_LIBRARY_PATH LLMMETRICS_LIBRARY LLMMETRICS_LIB_DIR GOFLAGS
    unset RUSTFLAGS RUSTDOCFLAGS
    export -p
) >"$state"

# -- system install (by hand, staged) -----------------------------------------------------------
stage=$tmp/stage
run by-hand "$guide" DESTDIR="$stage" || { cp "$tmp/out" "$tmp/log"; fail "the by-hand build runs as written (DESTDIR staged)"; }
sed -i '/^declare -x DESTDIR=/d' "$state"
lib=$(find "$stage" -name 'libllmmetrics.so.1' | head -1)
pc=$(find "$stage" -name 'llmmetrics.pc' | head -1)
hdr=$(find "$stage" -path '*/include/llmmetrics/llmmetrics.h' | head -1)
[ -n "$lib" ] && [ -n "$pc" ] && [ -n "$hdr" ] || { find "$stage" >"$tmp/log"; fail "the staged install has the library, llmmetrics.pc and the headers"; }
ok "by hand: staged ${lib#"$stage"}, ${pc#"$stage"}, ${hdr#"$stage"}"
registered "$tmp" "$(dirname "$lib")" || fail "ldconfig registers the staged library"
ok "ldconfig (private cache) maps libllmmetrics.so.1 to the installed file"

# -- custom prefix --------------------------------------------------------------------------------
run prefix-install || fail "custom prefix: configure, install, compile as written"
[ -f "$prefix/lib/libllmmetrics.so.1" ] && [ -f "$prefix/lib/pkgconfig/llmmetrics.pc" ] ||
    fail "custom prefix: library and pkg-config file under \$HOME/opt/llmmetrics/lib"
ok "custom prefix: installed under \$HOME/opt/llmmetrics, quickstart compiled"

expected=$(block "$guide" prefix-error)
cmd=$(head -1 <<<"$expected")
want=$(tail -n +2 <<<"$expected")
if user bash -c "${cmd#\$ }" >"$tmp/out" 2>&1; then
    cp "$tmp/out" "$tmp/log"
    fail "custom prefix: ${cmd#\$ } fails to start"
fi
got=$(cat "$tmp/out")
[ "$got" = "$want" ] || { printf 'got:  %s\nwant: %s\n' "$got" "$want" >"$tmp/log"; fail "custom prefix: the error is the one the guide shows"; }
ok "custom prefix: ${cmd#\$ } stops with: $want"

run prefix-ld-library-path || fail "custom prefix: fix 1, LD_LIBRARY_PATH"
ok "custom prefix: runs with LD_LIBRARY_PATH"
run prefix-rpath || fail "custom prefix: fix 2, -Wl,-rpath"
readelf -d "$work/quickstart" | grep -q "R.*PATH.*$prefix/lib" || { readelf -d "$work/quickstart" >"$tmp/log"; fail "custom prefix: the program carries the run path"; }
ok "custom prefix: runs with a run path, no environment"
mkdir -p "$tmp/prefix-cache"
registered "$tmp/prefix-cache" "$prefix/lib" || fail "custom prefix: fix 3, ldconfig registers \$HOME/opt/llmmetrics/lib"
ok "custom prefix: ldconfig (private cache) maps libllmmetrics.so.1 into \$HOME/opt/llmmetrics/lib"
if [ -x "$prefix/bin/llmm" ]; then
    run prefix-llmm || fail "custom prefix: llmm runs without LD_LIBRARY_PATH"
    grep -q "libllmmetrics .* loaded" "$tmp/out" || fail "custom prefix: llmm version names the loaded library"
    ok "custom prefix: $(head -1 "$tmp/out")"
else
    skip "custom prefix: llmm runs without LD_LIBRARY_PATH" "llmm not built (no YAJL)"
fi

# -- static linking ------------------------------------------------------------------------------
static_prefix=$tmp/home/opt/llmmetrics-static
run static || fail "static: a static-only build installed, a program linked with pkg-config --static, run"
[ -f "$static_prefix/lib/libllmmetrics.a" ] && ! ls "$static_prefix"/lib/libllmmetrics.so* >/dev/null 2>&1 ||
    { find "$static_prefix" >"$tmp/log"; fail "static: \$HOME/opt/llmmetrics-static has libllmmetrics.a and no shared library"; }
readelf -d "$work/quickstart-static" >"$tmp/log" 2>&1 && ! grep -q 'NEEDED.*libllmmetrics' "$tmp/log" ||
    fail "static: the program needs no libllmmetrics.so"
ok "static: libllmmetrics.a alone installed; the program contains the library and runs"

# -- bindings against the custom prefix ----------------------------------------------------------
if /usr/bin/python3 -c 'import cffi' 2>/dev/null; then
    run cffi-cpp "$src/doc/bindings.md" || fail "cffi: cpp -P of the installed headers"
    text=$(block "$src/doc/bindings.md" cffi-python)
    user env LD_LIBRARY_PATH="$prefix/lib" /usr/bin/python3 -c "$text" >"$tmp/log" 2>&1 ||
        fail "cffi: the declarations from cpp -P load the library and work"
    ok "cffi without the package: $(tail -1 "$tmp/log")"
else
    skip "cffi from the installed headers" "no cffi for /usr/bin/python3 (python3-cffi)"
fi
if command -v cargo >/dev/null 2>&1; then
    run rust || fail "Rust: a new crate with the path dependency, against the custom prefix"
    ok "Rust: $(grep -c '^p[0-9]' "$tmp/out") percentiles checked by the example, linked through pkg-config"
else
    skip "Rust: a new crate against the custom prefix" "cargo not installed"
fi
if command -v go >/dev/null 2>&1; then
    run go || fail "Go: replace + go get, against the custom prefix"
    ok "Go: replace + go get: $(tail -1 "$tmp/out")"
    run go-gopath || fail "Go: GOPATH mode, the package under \$GOPATH/src"
    ok "Go: GOPATH mode: $(tail -1 "$tmp/out")"
else
    skip "Go: replace + go get, GOPATH mode, against the custom prefix" "go not installed"
fi
echo "1..$n"
