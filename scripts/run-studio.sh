#!/usr/bin/env bash
# Installs the dependencies, builds Rubric Studio and opens it on the bundled SummEval example project.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then bash scripts/install-deps.sh; else bash scripts/install-deps.sh || true; fi
build=${RUBRIC_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" --parallel "$(nproc)" --target rubric-studio example_project
# Opens your own copy of the example (made once from the template the build refreshes; never replaced).
exec "$build/bin/rubric-studio" --example "$@"
