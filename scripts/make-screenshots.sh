#!/usr/bin/env bash
# Screenshots of every pane of the studio on the example project, with a HypoEval and a G-Eval run
# made against the loopback fake endpoint (tests/support: the synthetic judge that knows the human
# scores; nothing leaves the machine). Needs a build (scripts/test.sh) and xvfb-run.
#
#   scripts/make-screenshots.sh [OUT_DIR]      (default docs/screenshots)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
out=${1:-$here/docs/screenshots}
size=${SIZE:-1400x900}
mkdir -p "$out"

work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
# Keep the studio's settings (annotator, window layout) out of the user's own.
export XDG_CONFIG_HOME=$work/config

project=$work/example.rubric
cp "$build/example/summeval.rubric" "$project"
"$build/bin/fake-llm-server" --port 0 --synthetic-project "$project" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do grep -q "listening on" "$work/server.log" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/server.log")
[ -n "$url" ] || { echo "the fake server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }

run() { "$build/bin/rubric" run --project "$project" --aspect coherence --base-url "$url" --model synthetic --concurrency 16 "$@" >/dev/null 2>>"$work/run.log" || { cat "$work/run.log" >&2; exit 1; }; }
run --method hypoeval --judge hypoeval
run --method geval --judge geval --logprobs

shot() { # pane file [extra studio options]
    local pane=$1 file=$2
    shift 2
    xvfb-run -a -s "-screen 0 ${size}x24" "$build/bin/rubric-studio" "$project" --judge hypoeval --annotator "Ana" \
        --pane "$pane" --size "$size" --screenshot "$out/$file" "$@" 2>>"$work/studio.log" \
        && echo "$out/$file" || { echo "no screenshot of $pane:" >&2; tail -3 "$work/studio.log" >&2; }
}
for pane in dataset annotate run rubric heatmap correlation issues; do
    shot "$pane" "$pane.png"
done
LANGUAGE=de LC_ALL=C.UTF-8 LANG=de_DE.UTF-8 shot dataset dataset-de.png
xvfb-run -a -s "-screen 0 ${size}x24" "$build/bin/rubric-studio" "$project" --judge hypoeval --pane correlation \
    --size "$size" --export-chart "$work/correlation-chart.svg" 2>/dev/null && echo "chart export: $(wc -c <"$work/correlation-chart.svg") bytes of SVG"
"$build/bin/rubric" correlate --project "$project" --aspect coherence --judge hypoeval
