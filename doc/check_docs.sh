#!/usr/bin/env bash
# Suite 'docs': run Doxygen with the project's Doxyfile into a scratch directory; any warning
# fails (the Doxyfile sets WARN_AS_ERROR = FAIL_ON_WARNINGS). TAP output.
#
# usage: check_docs.sh DOXYGEN DOXYFILE      (DOXYGEN empty: skip, Doxygen is not installed)
set -euo pipefail

doxygen=$1 doxyfile=$2
if [ -z "$doxygen" ]; then
    echo "1..0 # SKIP doxygen not installed (Debian package doxygen)"
    exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..1"
# Later settings win: the scratch output directory replaces the build tree's.
if { cat "$doxyfile"; echo "OUTPUT_DIRECTORY = $tmp"; } | "$doxygen" - >"$tmp/log" 2>&1 &&
   [ -f "$tmp/html/index.html" ] && ! grep -qi 'warning\|error' "$tmp/log"; then
    echo "ok 1 - doxygen builds the API documentation without warnings"
else
    echo "not ok 1 - doxygen builds the API documentation without warnings"
    sed 's/^/# /' "$tmp/log"
    exit 1
fi
