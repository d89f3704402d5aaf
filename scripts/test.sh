#!/usr/bin/env bash
# Installs the dependencies, builds everything (warnings as errors) and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then bash scripts/install-deps.sh; else bash scripts/install-deps.sh || true; fi
build=${RUBRIC_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRUBRIC_WARNINGS_AS_ERRORS=ON
cmake --build "$build" --parallel "$(nproc)"
cd "$build"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$(nproc)"
