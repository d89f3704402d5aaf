#!/usr/bin/env bash
# Builds the project with sanitizers and runs the test suite under them (benchmarks excluded).
#   scripts/sanitize.sh address,undefined [CTEST-ARGS...]   → build-asan/
#   scripts/sanitize.sh thread [CTEST-ARGS...]              → build-tsan/
# RUBRIC_SAN_TARGETS="a b" builds only those targets (and runs ctest on what was built with -R).
# RUBRIC_TSAN_QT=DIR (thread only) runs the tests against the TSan-built Qt of scripts/build-tsan-qt.sh DIR.
# Suppressions (libraries we do not build only) are in tests/sanitizers/.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:?usage: scripts/sanitize.sh address,undefined|thread [CTEST-ARGS...]}
shift
case "$kind" in
  address,undefined|address|undefined) build=${RUBRIC_SAN_BUILD_DIR:-build-asan} ;;
  thread) build=${RUBRIC_SAN_BUILD_DIR:-build-tsan} ;;
  *) echo "sanitize.sh: unknown sanitizer set '$kind' (address,undefined or thread)" >&2; exit 2 ;;
esac
supp="$PWD/tests/sanitizers"
# -O1 with line tables: the usual sanitizer trade (readable stacks, a build about a third quicker
# than RelWithDebInfo on two cores). Warnings stay warnings: the instrumented -O1 build is not the one
# the warning policy is kept for.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" -DRUBRIC_SANITIZE="$kind" \
  -DRUBRIC_WARNINGS_AS_ERRORS=OFF >/dev/null
if [ -n "${RUBRIC_SAN_TARGETS:-}" ]; then
  # shellcheck disable=SC2086
  cmake --build "$build" --parallel "$(nproc)" --target $RUBRIC_SAN_TARGETS
  # Only their tests (and their PostgreSQL runs): a test is named after its executable.
  set -- -R "^($(echo $RUBRIC_SAN_TARGETS | tr ' ' '|'))(_postgresql)?\$" "$@"
else
  cmake --build "$build" --parallel "$(nproc)"
fi
export QT_QPA_PLATFORM=offscreen
# QtTest's per-function watchdog (5 minutes) is sized for the normal build; an instrumented one runs
# 5 to 15 times slower (the heatmap's paint benchmark takes about 4 minutes under TSan).
export QTEST_FUNCTION_TIMEOUT=${QTEST_FUNCTION_TIMEOUT:-1200000}
export ASAN_OPTIONS="detect_leaks=1:strict_init_order=1:detect_stack_use_after_return=1:abort_on_error=0"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
# die_after_fork=0: QProcess forks from a process with threads and the child execs at once.
export TSAN_OPTIONS="suppressions=$supp/tsan.supp:halt_on_error=1:second_deadlock_stack=1:die_after_fork=0"
if [ "$kind" = thread ] && [ -n "${RUBRIC_TSAN_QT:-}" ]; then
    qt_lib="$RUBRIC_TSAN_QT/build/lib"
    if [ ! -e "$qt_lib/libQt6Core.so.6" ]; then
        echo "sanitize.sh: no TSan-built Qt in $qt_lib (run scripts/build-tsan-qt.sh $RUBRIC_TSAN_QT)" >&2
        exit 2
    fi
    # The instrumented QtCore, QtNetwork, QtSql, QtConcurrent and QtTest come first; the SQL drivers
    # from the same build, the platform plugins (offscreen) from the system.
    system_plugins=$(qtpaths6 --query QT_INSTALL_PLUGINS)
    export QT_PLUGIN_PATH="$RUBRIC_TSAN_QT/build/plugins:$system_plugins"
    export LD_LIBRARY_PATH="$qt_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    # translations_complete runs Debian's lupdate, an uninstrumented program that cannot load a TSan
    # QtCore (no TSan runtime in it); it starts no thread of ours and runs in every other build.
    set -- -E '^translations_complete$' "$@"
fi
cd "$build"
start=$(date +%s)
status=0
ctest --output-on-failure -LE 'bench|fuzz' --timeout 1800 "$@" || status=$?
echo "sanitize.sh: $kind, ctest exit $status, $(( $(date +%s) - start ))s"
exit $status
