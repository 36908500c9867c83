#!/bin/sh
# Run the Go binding's tests or benchmarks for meson and report them as TAP.
#
# usage: go_test.sh test|bench PACKAGE_DIR
#
# meson sets the environment: PKG_CONFIG_PATH (the build tree's meson-uninstalled directory),
# LD_LIBRARY_PATH, GOCACHE, GOPATH, GOFLAGS=-mod=mod, GOPROXY=off, CGO_ENABLED=1.
# Without a go toolchain the test is skipped ("1..0 # SKIP"; meson 1.0 reports a TAP test
# that exits 77 as an error, so the skip exits 0).
set -u
mode=$1
dir=$2

if ! command -v go >/dev/null 2>&1; then
    echo "1..0 # SKIP go not installed (Debian package golang-go)"
    exit 0
fi
mkdir -p "$GOCACHE" "$GOPATH" || exit 1
cd "$dir" || exit 1
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT

# go test -v output to TAP: one line per test, subtest, example and benchmark; everything
# else becomes a diagnostic. $1 prefixes the names, $2 is go's exit status.
to_tap() {
    awk -v prefix="$1" -v rc="$2" -v start="$n" '
        function emit(ok, name, directive) {
            n++
            printf "%s %d - %s%s%s\n", ok ? "ok" : "not ok", n, prefix, name, directive
        }
        BEGIN { n = start; failed = 0 }
        /^ *--- PASS: / { sub(/^ *--- PASS: /, ""); emit(1, $0, ""); next }
        /^ *--- FAIL: / { sub(/^ *--- FAIL: /, ""); emit(0, $0, ""); failed++; next }
        /^ *--- SKIP: / { sub(/^ *--- SKIP: /, ""); emit(1, $0, " # SKIP"); next }
        /^Benchmark.*ns\/op/ { gsub(/[ \t]+/, " "); emit(1, $0, ""); next }
        { print "# " $0 }
        END {
            if (rc != 0 && failed == 0) emit(0, "go test exited with status " rc, "")
            print n > "/dev/stderr"
        }' "$out" 2>"$out.n"
    n=$(cat "$out.n")
    rm -f "$out.n"
}

n=0
status=0
case $mode in
test)
    # Formatting first: gofmt lists the files whose layout differs.
    unformatted=$(gofmt -l .)
    n=1
    if [ -z "$unformatted" ]; then
        echo "ok 1 - gofmt"
    else
        echo "not ok 1 - gofmt: $unformatted"
        status=1
    fi
    # go vet type-checks every package, commands without tests included (examples/gateway).
    n=2
    if go vet ./... >"$out" 2>&1; then
        echo "ok 2 - go vet ./..."
    else
        echo "not ok 2 - go vet ./..."
        sed 's/^/# /' "$out"
        status=1
    fi
    go test -count=1 -v ./... >"$out" 2>&1
    rc=$?
    to_tap "" "$rc"
    [ "$rc" -eq 0 ] || status=1
    # The concurrent and finalizer tests once more under the race detector.
    go test -count=1 -v -race -run 'Recorder|Finalizer|Context' ./... >"$out" 2>&1
    rc=$?
    to_tap "race: " "$rc"
    [ "$rc" -eq 0 ] || status=1
    ;;
bench)
    go test -count=1 -v -run '^$' -bench . -benchtime "${LLMM_GO_BENCHTIME:-200ms}" ./... >"$out" 2>&1
    rc=$?
    to_tap "" "$rc"
    [ "$rc" -eq 0 ] || status=1
    ;;
*)
    echo "usage: go_test.sh test|bench PACKAGE_DIR" >&2
    exit 2
    ;;
esac
echo "1..$n"
exit "$status"
