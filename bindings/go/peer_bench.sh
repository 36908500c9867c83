#!/bin/sh
# Run bindings/go/peerbench (the Go binding's Buffer against hdrhistogram and tdigest) and
# report it as TAP. The peers come from Debian (golang-github-codahale-hdrhistogram-dev,
# golang-github-influxdata-tdigest-dev), which ship no go.mod: the benchmark is built in
# GOPATH mode from a GOPATH made in the build tree, whose src/ links the binding and the
# benchmark next to Debian's tree. Without go or the packages it skips.
#
# usage: peer_bench.sh SOURCE_DIR (bindings/go), with the environment of go_test.sh
set -u
src=$1
gocode=${LLMM_GOCODE:-/usr/share/gocode}
if ! command -v go >/dev/null 2>&1; then
    echo "1..0 # SKIP go not installed (Debian package golang-go)"
    exit 0
fi
for p in github.com/codahale/hdrhistogram github.com/influxdata/tdigest; do
    if [ ! -d "$gocode/src/$p" ]; then
        echo "1..0 # SKIP $p not in $gocode (Debian's golang-*-dev package)"
        exit 0
    fi
done
gp=$GOPATH/peer
mkdir -p "$gp/src" "$GOCACHE" || exit 1
ln -sfn "$src/llmmetrics" "$gp/src/llmmetrics"
ln -sfn "$src/peerbench" "$gp/src/peerbench"
cd "$gp/src/peerbench" || exit 1
out=$(GO111MODULE=off GOFLAGS= GOPATH="$gp:$gocode" \
    go test -count=1 -run '^$' -bench . -benchtime "${LLMM_GO_BENCHTIME:-2000000x}" . 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
if [ "$rc" -eq 0 ]; then
    echo "ok 1 - $(echo "$out" | grep '^BenchmarkPerValue' | tr -s ' \t' ' ')"
else
    echo "not ok 1 - go test exited with status $rc"
fi
echo "1..1"
exit "$rc"
