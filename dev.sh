#!/usr/bin/env bash
# dev.sh: build, test, benchmark and demonstrate libllmmetrics on Debian 12.
# Run `./dev.sh --help` for the commands.
set -euo pipefail

# The program `./dev.sh demo` builds and runs (path relative to the repository root; the first
# word must be a target of the `build` directory).
MAIN_JOB=(build/tools/llmm/llmm demo)

# Debian packages needed to configure and build the library, the examples and the demo (the
# demo's live sweep needs libcurl for `llmm bench`; without it that part is skipped).
BUILD_PACKAGES=(meson ninja-build pkg-config gcc libc6-dev python3 libcmocka-dev libyajl-dev
    libcurl4-openssl-dev zlib1g-dev)

# Debian packages any test suite needs: with all of them installed no suite is skipped.
TEST_PACKAGES=(meson ninja-build pkg-config gcc g++ clang libcmocka-dev doxygen abigail-tools
    python3 python3-numpy python3-cffi golang-go cargo libyajl-dev libmicrohttpd-dev libcurl4-openssl-dev
    libssl-dev openssl python3-aiohttp zlib1g-dev nodejs golang-github-codahale-hdrhistogram-dev
    golang-github-influxdata-tdigest-dev python3-prometheus-client
    prometheus valgrind libclang-rt-14-dev castxml clang-format
    python3-venv python3-mesonpy patchelf python3-build python3-pandas python3-nbclient python3-ipykernel
    libbpf-dev bpftool nftables)
# The other commands' packages (`deps COMMAND` installs them; each command calls it).
COVERAGE_PACKAGES=(meson ninja-build pkg-config gcc libc6-dev python3 libcmocka-dev gcovr)
FUZZ_PACKAGES=(meson ninja-build pkg-config clang libclang-rt-14-dev python3 libyajl-dev)
ABI_PACKAGES=("${BUILD_PACKAGES[@]}" abigail-tools castxml clang)
# npm packages the test suites need, by name@version, installed into NPM_DIR (the OTLP
# decoding test, tests/otlp, reads OpenTelemetry's generated protobuf root from there).
NPM_PACKAGES=(@opentelemetry/otlp-transformer@0.57.2)
NPM_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/llmmetrics/npm

# The test configuration. The committed ABI baseline (tests/abi/libllmmetrics.abi) is made
# from exactly this configuration, so `test` and `abi-baseline` share it.
MAIN_BUILD=build
MAIN_SETUP=(env CC=gcc meson setup --buildtype debugoptimized -Dwerror=true)
# The sanitizer build runs the unit and integration suites (the integration suite needs the
# examples). Every program links the one shared ASan runtime (-shared-libasan), which each
# test process preloads (ASAN_WRAP), so that the Python tests can load the sanitized library
# through ctypes, and programs they start (metrics_server) share that runtime.
ASAN_BUILD=build-asan
# shellcheck disable=SC2054,SC2034 # the comma belongs to the option; used through suite_step
ASAN_SETUP=(env CC=clang meson setup --buildtype debugoptimized -Dwerror=true
    -Db_sanitize=address,undefined -Db_lundef=false -Dc_link_args=-shared-libasan
    -Dbench=false -Dtools=false -Dbindings=false -Ddocs=disabled)
# Valgrind memcheck over the unit suite of the main build: any error, or a definite or
# indirect leak, fails the test.
VALGRIND_WRAP='valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect'
# Coverage (./dev.sh coverage): gcc, no optimisation, -Db_coverage=true, the unit suite.
COVERAGE_BUILD=build-coverage
COVERAGE_SETUP=(env CC=gcc meson setup --buildtype debug -Db_coverage=true
    -Dexamples=false -Dbench=false -Dtools=false -Dbindings=false -Ddocs=disabled)
COVERAGE_MIN_LINES=90
# The ThreadSanitizer build runs the concurrency tests (suite 'tsan': recorder writers with
# snapshots, concurrent readers filling a sketch's cumulative view).
TSAN_BUILD=build-tsan
# shellcheck disable=SC2034 # used through suite_step
TSAN_SETUP=(env CC=clang meson setup --buildtype debugoptimized -Dwerror=true
    -Db_sanitize=thread -Db_lundef=false
    -Dexamples=false -Dbench=false -Dtools=false -Dbindings=false -Ddocs=disabled)
# The libFuzzer build (clang, ASan+UBSan): suite 'fuzz' runs each target for a short bounded
# time in `test`; `fuzz SECONDS` runs them for longer. The tool is built: its trace parsers
# are a target.
FUZZ_BUILD=build-fuzz
# shellcheck disable=SC2054,SC2034 # the comma belongs to the option; used through suite_step
FUZZ_SETUP=(env CC=clang meson setup --buildtype debugoptimized -Dfuzz=true
    -Db_sanitize=address,undefined -Db_lundef=false
    -Dexamples=false -Dbench=false -Dbindings=false -Ddocs=disabled)
# The static library (-Ddefault_library=static) as an embedder builds it: no suites (they test
# the shared library); installed into a scratch destdir, an outside program is linked with
# `pkg-config --static` and run (tests/install/install_check.sh --static).
STATIC_BUILD=build-static
# shellcheck disable=SC2034 # used through static_step
STATIC_SETUP=(env CC=gcc meson setup --buildtype debugoptimized -Dwerror=true
    -Ddefault_library=static -Dtests=false -Dexamples=false -Dbench=false -Dtools=false
    -Dbindings=false -Ddocs=disabled)
# The platform targets of `test` (doc/platforms.md): each is a fresh build of its own, one
# step with its own time; one whose packages could not be installed fails the run with the
# reason. The cross builds (tests/cross/*.ini) use Debian's cross compilers with the foreign
# architectures' multiarch packages (cmocka) and run the unit suite under qemu-user (aarch64,
# s390x: big-endian) or natively (i386); Windows is built by mingw-w64 and its programs run
# under wine64 (tests/cross/windows_check.sh: no cmocka for mingw in Debian); clang builds
# everything with gcc's warnings (tests/cross/same_warnings.py) and runs the unit suite.
CROSS_ARCHS=(arm64 s390x i386)
CROSS_OPTIONS=(--buildtype debugoptimized -Dwerror=true -Dbindings=false -Ddocs=disabled)
CLANG_BUILD=build-clang
# shellcheck disable=SC2034 # used through suite_step
CLANG_SETUP=(env CC=clang meson setup --buildtype debugoptimized -Dwerror=true -Ddocs=disabled)
AARCH64_BUILD=build-aarch64
# shellcheck disable=SC2034 # used through cross_step
AARCH64_PACKAGES=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross libcmocka-dev:arm64 qemu-user)
# shellcheck disable=SC2034 # used through cross_step
AARCH64_SETUP=(meson setup --cross-file tests/cross/aarch64-linux-gnu.ini "${CROSS_OPTIONS[@]}")
S390X_BUILD=build-s390x
# shellcheck disable=SC2034 # used through cross_step
S390X_PACKAGES=(gcc-s390x-linux-gnu libc6-dev-s390x-cross libcmocka-dev:s390x qemu-user)
# shellcheck disable=SC2034 # used through cross_step
S390X_SETUP=(meson setup --cross-file tests/cross/s390x-linux-gnu.ini "${CROSS_OPTIONS[@]}")
I686_BUILD=build-i686
# shellcheck disable=SC2034 # used through cross_step
I686_PACKAGES=(gcc-i686-linux-gnu libc6-dev-i386-cross libcmocka-dev:i386)
# shellcheck disable=SC2034 # used through cross_step
I686_SETUP=(meson setup --cross-file tests/cross/i686-linux-gnu.ini "${CROSS_OPTIONS[@]}")
# Windows: the DLL and the static archive from one set of objects; no cmocka, so no suites.
MINGW_BUILD=build-mingw
MINGW_PACKAGES=(gcc-mingw-w64-x86-64-win32 wine64)
MINGW_SETUP=(meson setup --cross-file tests/cross/x86_64-w64-mingw32.ini "${CROSS_OPTIONS[@]}"
    -Ddefault_library=both -Dtests=false -Dbench=false -Dtools=false)
# wine's configuration directory, made on the first run (about 700 MB, 10-20 s) and kept.
WINE_PREFIX=${XDG_CACHE_HOME:-$HOME/.cache}/llmmetrics/wine64
BENCH_BUILD=build-bench
BENCH_SETUP=(meson setup -Doptimization=2 -Ddebug=false -Db_ndebug=true
    -Dtests=false -Dexamples=false -Dbindings=false -Ddocs=disabled)

cd "$(dirname "${BASH_SOURCE[0]}")"
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

usage() {
    cat <<'EOF'
usage: ./dev.sh COMMAND [ARGS]

  demo           install what is missing (apt-get), build, run the main job
  deps [COMMAND] install (apt-get) the Debian packages COMMAND needs (demo, test,
                 coverage, bench, fuzz, abi-baseline; default test: every package any
                 suite or platform target needs, and the npm packages of NPM_PACKAGES
                 into NPM_DIR); each command runs this first
  test           install every package the test suites need, then from fresh build
                 directories: gcc debugoptimized build with -Werror, every meson suite,
                 the Doxygen docs, the unit suite again under valgrind memcheck; a static
                 library build (-Ddefault_library=static -Dtests=false) installed and
                 linked into an outside program with pkg-config --static; a clang
                 ASan+UBSan build running the unit and integration suites; a TSan build
                 running suite tsan; a libFuzzer build running each fuzz target briefly;
                 the platform targets (doc/platforms.md): clang building everything with
                 gcc's warnings and running the unit suite, the unit suite of cross builds
                 for i386 (native), aarch64 and s390x (qemu-user), a mingw-w64 build for
                 Windows whose programs run under wine64; prints each step's time and ends
                 with one line "N passed, N failed" and exits non-zero on any failure
                 (a test skipped as a whole, or a target that cannot run, is a failure)
  coverage       install gcovr, build build-coverage (gcc, -O0, gcov), run the unit suite
                 and report line and branch coverage of lib/ (text summary, per-file
                 missing lines in build-coverage/coverage.txt, HTML in
                 build-coverage/coverage/); fails below 90 % of lines; rewrites
                 doc/coverage.md from the run (tools/dev/coverage_page.py: reasons from
                 doc/coverage-reasons.txt, fuzzing figures from the last `fuzz` run)
  bench [--json] build build-bench (-O2, NDEBUG) and run every benchmark defined
                 under bench/; the arguments are passed to each benchmark
  fuzz SECONDS   build build-fuzz (clang, libFuzzer, ASan+UBSan) and run every fuzz
                 target for SECONDS each over its seed corpus (tests/fuzz/corpus/NAME),
                 logging each to build-fuzz/fuzz-NAME.log
  abi-baseline   rebuild `build` in the test configuration and rewrite the committed
                 ABI baseline tests/abi/libllmmetrics.abi, API snapshot
                 tests/abi/libllmmetrics.api and generated binding declarations
                 (tools/bindings/generate.py; only for intended additions, doc/abi.md)
  --help         this text

Environment: JOBS (parallel build jobs, default: number of CPUs).
EOF
}

log() { printf '==> %s\n' "$*" >&2; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# The Debian packages among "$@" that are not installed, one a line: NAME:ARCH for that
# architecture, NAME for the machine's own (or an architecture-independent package; other
# architectures' copies of a multiarch package do not count).
missing_packages() {
    local p want native
    native=$(dpkg --print-architecture)
    for p in "$@"; do
        case "$p" in *:*) want="${p#*:}" ;; *) want="($native|all)" ;; esac
        dpkg-query -W -f='${Architecture} ${Status}\n' "$p" 2>/dev/null |
            grep -Ex "$want install ok installed" >/dev/null || echo "$p"
    done
}

# Install the Debian packages among "$@" that are not installed yet.
APT_UPDATED=
ensure_packages() {
    local missing=()
    mapfile -t missing < <(missing_packages "$@")
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null; then
        log "missing packages ${missing[*]} and no apt-get: install them by hand"
        return 0
    fi
    log "installing ${missing[*]}"
    if [ -z "$APT_UPDATED" ]; then
        as_root apt-get update
        APT_UPDATED=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y --no-install-recommends "${missing[@]}"
}

# The platform targets' packages: the foreign architectures of the multiarch packages first
# (dpkg --add-architecture, then new package lists), then each target's packages on their
# own, so that one that cannot be installed leaves the others (its step fails, with the reason).
ensure_platform_packages() {
    local a list
    for a in "${CROSS_ARCHS[@]}"; do
        dpkg --print-foreign-architectures | grep -x "$a" >/dev/null && continue
        log "dpkg --add-architecture $a"
        as_root dpkg --add-architecture "$a" && APT_UPDATED=
    done
    for list in AARCH64_PACKAGES S390X_PACKAGES I686_PACKAGES MINGW_PACKAGES; do
        local -n packages=$list
        ensure_packages "${packages[@]}" || log "could not install ${packages[*]}"
    done
}

# Whether platform target "$1" can be built and run: every package "${@:2}" installed. If not,
# logs why and counts a failed step.
target_ready() {
    local name=$1 missing=()
    shift
    mapfile -t missing < <(missing_packages "$@")
    [ ${#missing[@]} -eq 0 ] && return 0
    log "FAILED: $name cannot run: not installed: ${missing[*]} (see apt-get above)"
    FAILED_STEPS=$((FAILED_STEPS + 1))
    return 1
}

# Install NPM_PACKAGES into NPM_DIR unless each is there at its version (npm itself comes with
# nodejs from NodeSource, or from Debian's package `npm`).
ensure_npm_packages() {
    local p name want have missing=()
    for p in "${NPM_PACKAGES[@]}"; do
        name=${p%@*}
        want=${p##*@}
        have=$(node -p "require('$NPM_DIR/node_modules/$name/package.json').version" 2>/dev/null) || have=
        [ "$have" = "$want" ] || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v npm >/dev/null || ensure_packages npm
    log "npm install ${missing[*]} into $NPM_DIR"
    mkdir -p "$NPM_DIR"
    npm install --no-audit --no-fund --prefix "$NPM_DIR" "${missing[@]}" ||
        log "could not install ${missing[*]} from npm"
}

# `deps COMMAND`: install what COMMAND needs (test: every suite and platform target).
cmd_deps() {
    case "${1:-test}" in
        demo | bench) ensure_packages "${BUILD_PACKAGES[@]}" ;;
        test) ensure_packages "${TEST_PACKAGES[@]}" && ensure_npm_packages &&
            ensure_platform_packages ;;
        coverage) ensure_packages "${COVERAGE_PACKAGES[@]}" ;;
        fuzz) ensure_packages "${FUZZ_PACKAGES[@]}" ;;
        abi-baseline) ensure_packages "${ABI_PACKAGES[@]}" ;;
        *) echo "usage: ./dev.sh deps [demo|test|coverage|bench|fuzz|abi-baseline]" >&2; exit 2 ;;
    esac
}

# A fresh build directory: "$1" is the directory, the rest the setup command.
fresh_setup() {
    local dir=$1
    shift
    rm -rf "$dir"
    "$@" "$dir"
}

cmd_demo() {
    cmd_deps demo
    if [ ! -f "$MAIN_BUILD/build.ninja" ]; then
        meson setup --buildtype debugoptimized "$MAIN_BUILD"
    fi
    ninja -C "$MAIN_BUILD" -j "$JOBS" "${MAIN_JOB[0]#"$MAIN_BUILD"/}"
    "${MAIN_JOB[@]}"
    demo_live
}

# The demo's live part: `llmm sim` on a free loopback port and a short `llmm bench` sweep
# against it (7 levels of 2 s), its report and knee table; files in $MAIN_BUILD/demo-bench.
demo_live() {
    local llmm=$MAIN_BUILD/tools/llmm/llmm out=$MAIN_BUILD/demo-bench sim_pid url rc=0
    mkdir -p "$out"
    "$llmm" sim --port 0 >"$out/sim.out" &
    sim_pid=$!
    for _ in $(seq 100); do
        grep -q listening "$out/sim.out" 2>/dev/null && break
        sleep 0.1
    done
    url=$(sed -n 's/^llmm sim: listening on //p' "$out/sim.out")
    if [ -z "$url" ]; then
        kill "$sim_pid" 2>/dev/null || true
        log "demo: llmm sim did not start; no live sweep"
        return 0
    fi
    log "demo: a live sweep of llmm bench against llmm sim at $url (files in $out)"
    "$llmm" bench --url "$url" --concurrency 1,2,4,8,16,32,64 --duration 2 --ignore-eos \
        --input-len 128 --output-len 16 -o "$out" --progress-every 1 || rc=$?
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
    return "$rc"
}

# Each step's time, for the closing list: "NAME N s".
STEP_TIMES=()
step_time() {
    log "$1: $((SECONDS - $2)) s"
    STEP_TIMES+=("$1 $((SECONDS - $2)) s")
}

# One sanitizer-style step of `test`: fresh build dir "$1" from setup array named "$2", then
# `meson test --suite S` for each word S of "$3" with "$4" parallel processes, under
# setarch -R, with the environment assignments that follow; an argument `--wrap=CMD` among
# them is passed to meson test instead (a prefix for every test command). Appends "DIR=rc"
# to LOGS or counts a failed step.
LOGS=()
FAILED_STEPS=0
suite_step() {
    local dir=$1 setup_name=$2 suites=$3 procs=$4 rc=0 start=$SECONDS s
    shift 4
    local -n setup_ref=$setup_name
    local envs=() extra=()
    for s in "$@"; do
        case "$s" in --wrap=*) extra+=("$s") ;; *) envs+=("$s") ;; esac
    done
    for s in $suites; do extra+=(--suite "$s"); done
    log "configure and build $dir (${setup_ref[*]:0:2})"
    if fresh_setup "$dir" "${setup_ref[@]}" && ninja -C "$dir" -j "$JOBS"; then
        log "meson test -C $dir ${extra[*]} (under setarch -R)"
        env "${envs[@]}" setarch "$(uname -m)" -R \
            meson test -C "$dir" "${extra[@]}" --print-errorlogs --num-processes "$procs" ||
            rc=$?
        LOGS+=("$dir=$rc")
    else
        log "FAILED: configure/build $dir"
        FAILED_STEPS=$((FAILED_STEPS + 1))
    fi
    step_time "$dir" "$start"
}

# Valgrind memcheck over the unit suite of an existing build "$1" (its own test log,
# testlog-valgrind). Appends "DIR:testlog-valgrind=rc" to LOGS.
valgrind_step() {
    local dir=$1 rc=0 start=$SECONDS
    log "meson test -C $dir --suite unit under valgrind memcheck"
    meson test -C "$dir" --suite unit --wrap="$VALGRIND_WRAP" --logbase testlog-valgrind \
        --timeout-multiplier 10 --print-errorlogs --num-processes 2 || rc=$?
    LOGS+=("$dir:testlog-valgrind=$rc")
    step_time "$dir under valgrind" "$start"
}

# The static step of `test`: a fresh static-only build, installed into a scratch destdir, an
# outside program linked with pkg-config --static and run. Counts a failed step.
static_step() {
    local start=$SECONDS
    log "configure and build $STATIC_BUILD (static library, -Dtests=false)"
    if fresh_setup "$STATIC_BUILD" "${STATIC_SETUP[@]}" && ninja -C "$STATIC_BUILD" -j "$JOBS" &&
        tests/install/install_check.sh --static "$PWD" "$PWD/$STATIC_BUILD" \
            "$(tools/dev/meson_info.py version "$STATIC_BUILD")" none gcc; then
        log "$STATIC_BUILD: static library linked into an outside program and run"
    else
        log "FAILED: $STATIC_BUILD (static library build or outside program)"
        FAILED_STEPS=$((FAILED_STEPS + 1))
    fi
    step_time "$STATIC_BUILD" "$start"
}

# A cross step: target "$1" (its packages in the array named "$2") built in "$3" from the
# setup array named "$4", its unit suite run under the cross file's exe_wrapper.
cross_step() {
    local -n packages_ref=$2
    if target_ready "$1" "${packages_ref[@]}"; then
        suite_step "$3" "$4" unit 2
    fi
}

# The clang step: everything built, the unit suite run, and the warnings compared with the
# main (gcc) build's, as a TAP file counted in the summary.
clang_step() {
    local rc=0
    suite_step "$CLANG_BUILD" CLANG_SETUP unit 2
    [ -f "$CLANG_BUILD/compile_commands.json" ] || return 0
    python3 tests/cross/same_warnings.py "$MAIN_BUILD" "$CLANG_BUILD" \
        >"$CLANG_BUILD/same-warnings.tap" || rc=$?
    cat "$CLANG_BUILD/same-warnings.tap"
    LOGS+=("$CLANG_BUILD/same-warnings.tap=$rc")
}

# The Windows step: a mingw-w64 build, then tests/cross/windows_check.sh runs its programs
# under wine64 (and compares the examples' output with the main build's).
windows_step() {
    local start=$SECONDS rc=0 tap=$MINGW_BUILD/windows-check.tap
    target_ready windows "${MINGW_PACKAGES[@]}" || return 0
    log "configure and build $MINGW_BUILD (mingw-w64, default_library=both)"
    if fresh_setup "$MINGW_BUILD" "${MINGW_SETUP[@]}" && ninja -C "$MINGW_BUILD" -j "$JOBS"; then
        mkdir -p "$(dirname "$WINE_PREFIX")"
        log "tests/cross/windows_check.sh (wine64, WINEPREFIX=$WINE_PREFIX)"
        WINEPREFIX=$WINE_PREFIX tests/cross/windows_check.sh "$PWD" "$PWD/$MINGW_BUILD" \
            "$PWD/$MAIN_BUILD" >"$tap" || rc=$?
        cat "$tap"
        LOGS+=("$tap=$rc")
        # wine's server stays a few seconds after its last program: leave nothing running
        WINEPREFIX=$WINE_PREFIX /usr/lib/wine/wineserver -w || true
    else
        log "FAILED: configure/build $MINGW_BUILD"
        FAILED_STEPS=$((FAILED_STEPS + 1))
    fi
    step_time "$MINGW_BUILD" "$start"
}

cmd_test() {
    local main_rc=0 start=$SECONDS step_start asan_rt times
    cmd_deps test
    step_time packages "$start"

    step_start=$SECONDS
    log "configure and build $MAIN_BUILD (gcc, debugoptimized, -Werror)"
    if fresh_setup "$MAIN_BUILD" "${MAIN_SETUP[@]}" && ninja -C "$MAIN_BUILD" -j "$JOBS"; then
        log "meson test -C $MAIN_BUILD (every suite)"
        meson test -C "$MAIN_BUILD" --print-errorlogs --num-processes 2 || main_rc=$?
        LOGS+=("$MAIN_BUILD=$main_rc")
        log "ninja -C $MAIN_BUILD docs"
        if ! ninja -C "$MAIN_BUILD" docs; then
            log "FAILED: docs"
            FAILED_STEPS=$((FAILED_STEPS + 1))
        fi
        step_time "$MAIN_BUILD" "$step_start"
        valgrind_step "$MAIN_BUILD"
    else
        log "FAILED: configure/build $MAIN_BUILD"
        FAILED_STEPS=$((FAILED_STEPS + 1))
    fi
    static_step
    # The Python interpreter's own allocations at exit are not ours (tests/lsan.supp).
    asan_rt=$(clang -print-file-name=libclang_rt.asan-x86_64.so)
    suite_step "$ASAN_BUILD" ASAN_SETUP "unit integration" 2 \
        ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 --wrap="env LD_PRELOAD=$asan_rt"
    suite_step "$TSAN_BUILD" TSAN_SETUP tsan 1 \
        TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
    suite_step "$FUZZ_BUILD" FUZZ_SETUP fuzz 1 \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    clang_step
    cross_step i386 I686_PACKAGES "$I686_BUILD" I686_SETUP
    cross_step aarch64 AARCH64_PACKAGES "$AARCH64_BUILD" AARCH64_SETUP
    cross_step s390x S390X_PACKAGES "$S390X_BUILD" S390X_SETUP
    windows_step
    times=$(IFS=,; echo "${STEP_TIMES[*]}")
    log "step times: ${times//,/, }"
    log "test: $((SECONDS - start)) s in all"
    python3 tests/summarize_testlog.py --whole-skips-fail --extra-failures "$FAILED_STEPS" "${LOGS[@]}"
}

cmd_coverage() {
    cmd_deps coverage
    local rc=0
    fresh_setup "$COVERAGE_BUILD" "${COVERAGE_SETUP[@]}"
    ninja -C "$COVERAGE_BUILD" -j "$JOBS"
    log "meson test -C $COVERAGE_BUILD --suite unit"
    meson test -C "$COVERAGE_BUILD" --suite unit --print-errorlogs --num-processes 2 || rc=$?
    # Branches the compiler adds for its own bookkeeping are no decisions of ours.
    local gcovr=(gcovr --root . --filter 'lib/' --exclude-unreachable-branches
        --exclude-throw-branches "$COVERAGE_BUILD")
    # (gcovr test-creates and then deletes every output file it is given: never name a device)
    mkdir -p "$COVERAGE_BUILD/coverage"
    "${gcovr[@]}" --branches --txt "$COVERAGE_BUILD/coverage-branches.txt"
    "${gcovr[@]}" --txt "$COVERAGE_BUILD/coverage.txt" \
        --html-details "$COVERAGE_BUILD/coverage/index.html" \
        --print-summary --fail-under-line "$COVERAGE_MIN_LINES" || rc=$?
    cat "$COVERAGE_BUILD/coverage.txt"
    # The coverage page, written from this run (and the last `fuzz` run's logs, if any).
    "${gcovr[@]}" --json "$COVERAGE_BUILD/coverage.json"
    local fuzz_logs=()
    mapfile -t fuzz_logs < <(ls "$FUZZ_BUILD"/fuzz-*.log 2>/dev/null || true)
    tools/dev/coverage_page.py "$COVERAGE_BUILD/coverage.json" doc/coverage-reasons.txt \
        "${fuzz_logs[@]}" >doc/coverage.md || rc=$?
    log "wrote doc/coverage.md"
    return "$rc"
}

cmd_bench() {
    cmd_deps bench
    if [ ! -f "$BENCH_BUILD/build.ninja" ]; then
        "${BENCH_SETUP[@]}" "$BENCH_BUILD"
    fi
    ninja -C "$BENCH_BUILD" -j "$JOBS"
    # Every executable defined under bench/, found from meson's own target list.
    local benches=()
    mapfile -t benches < <(tools/dev/meson_info.py benches "$BENCH_BUILD")
    if [ ${#benches[@]} -eq 0 ]; then
        echo "dev.sh: no benchmarks under bench/ yet"
        return 0
    fi
    local b
    for b in "${benches[@]}"; do
        log "$b $*"
        "$b" "$@"
    done
}

cmd_fuzz() {
    local seconds=${1:-60}
    case "$seconds" in '' | *[!0-9]*) echo "usage: ./dev.sh fuzz SECONDS" >&2; exit 2 ;; esac
    cmd_deps fuzz
    if [ ! -f "$FUZZ_BUILD/build.ninja" ]; then
        fresh_setup "$FUZZ_BUILD" "${FUZZ_SETUP[@]}"
    fi
    ninja -C "$FUZZ_BUILD" -j "$JOBS"
    local t name
    for t in "$FUZZ_BUILD"/tests/fuzz/fuzz_*; do
        [ -f "$t" ] && [ -x "$t" ] || continue # not the meson .p directories
        name=${t##*/fuzz_}
        log "$t for $seconds s"
        # the log's final stats make the fuzzing table of doc/coverage.md (`coverage`)
        setarch "$(uname -m)" -R tests/fuzz/run_fuzz.sh "$t" "tests/fuzz/corpus/$name" \
            "$seconds" 2>&1 | tee "$FUZZ_BUILD/fuzz-$name.log"
    done
}

cmd_abi_baseline() {
    cmd_deps abi-baseline
    fresh_setup "$MAIN_BUILD" "${MAIN_SETUP[@]}"
    ninja -C "$MAIN_BUILD" -j "$JOBS"
    local lib
    lib=$(tools/dev/meson_info.py library "$MAIN_BUILD")
    tests/abi/abi_check.sh "$lib" "$PWD" "$PWD/$MAIN_BUILD" --update
    python3 tools/abi/api_snapshot.py -I include -I "$MAIN_BUILD/include" \
        --write tests/abi/libllmmetrics.api
    python3 tools/bindings/generate.py -I include -I "$MAIN_BUILD/include" --write
    echo "dev.sh: commit tests/abi/libllmmetrics.abi and .api and the generated binding" \
        "declarations together with the API change"
}

case "${1:-}" in
    demo) shift; cmd_demo "$@" ;;
    deps) shift; cmd_deps "$@" ;;
    test) shift; cmd_test "$@" ;;
    bench) shift; cmd_bench "$@" ;;
    abi-baseline) shift; cmd_abi_baseline "$@" ;;
    fuzz) shift; cmd_fuzz "$@" ;;
    coverage) shift; cmd_coverage "$@" ;;
    -h | --help | help) usage ;;
    *) usage >&2; exit 2 ;;
esac
