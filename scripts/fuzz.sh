#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, build-fuzz/) and runs each for SECONDS
# (default 60). Seeds come from tests/fuzz/corpus/<target> (read only); new inputs go to
# build-fuzz/fuzz-corpus/<target>, crashes, leaks and hangs to build-fuzz/fuzz-artifacts/.
# Exits non-zero when any target found something; the artifact path is printed.
# Inputs may be up to RUBRIC_FUZZ_MAX_LEN bytes (default 4 MiB, not libFuzzer's 4 KB): a hostile
# endpoint's answer is megabytes deep or long (issue 33.1), and the corpus holds such seeds.
# A found input is fixed at its root and then copied into tests/fuzz/corpus/<target> as a
# regression case (with a unit test of its own).
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
build=${RUBRIC_FUZZ_BUILD_DIR:-build-fuzz}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_answer fuzz_response fuzz_checklist fuzz_import fuzz_project)
cxx=${RUBRIC_FUZZ_CXX:-clang++-14}
max_len=${RUBRIC_FUZZ_MAX_LEN:-4194304}

# -O1 and line tables: the usual fuzzing trade of speed against compile time and readable stacks.
# Tests are configured so that `ctest -L fuzz` and `ctest -L sanitize` work in the same folder.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" \
  -DCMAKE_CXX_COMPILER="$cxx" -DRUBRIC_FUZZ=ON -DRUBRIC_BUILD_UI=OFF -DRUBRIC_BUILD_TESTS=ON >/dev/null || exit 1
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}" || exit 1

failed=()
for t in "${targets[@]}"; do
  dict=$(grep -o "$t=[a-z]*\.dict" tests/fuzz/CMakeLists.txt | cut -d= -f2)
  mkdir -p "$build/fuzz-corpus/$t" "$build/fuzz-artifacts"
  echo "== $t: ${seconds}s"
  if ! QT_QPA_PLATFORM=offscreen "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -max_len="$max_len" \
      -rss_limit_mb=4096 -print_final_stats=1 -dict="tests/fuzz/$dict" \
      -artifact_prefix="$build/fuzz-artifacts/$t-" "$build/fuzz-corpus/$t" "tests/fuzz/corpus/$t" \
      >"$build/fuzz-artifacts/$t.log" 2>&1; then
    failed+=("$t")
    grep -E "ERROR|SUMMARY|Test unit written" "$build/fuzz-artifacts/$t.log" | head -5
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/fuzz-artifacts/$t.log" | tr '\n' ' '
  echo
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: findings in ${failed[*]} (logs and inputs in $build/fuzz-artifacts/)"
  exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets, ${seconds}s each, no crash, leak or hang"
