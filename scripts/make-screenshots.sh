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
servers=()
cleanup() { for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT
# Keep the studio's settings (annotator, window layout) and data out of the user's own.
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data

# start_server PROJECT LOG [fake-llm-server options]: prints the server's base URL.
start_server() {
    local project=$1 log=$2
    shift 2
    "$build/bin/fake-llm-server" --port 0 --synthetic-project "$project" "$@" >"$log" 2>&1 &
    servers+=($!)
    for _ in $(seq 50); do grep -q "listening on" "$log" && break; sleep 0.1; done
    local url
    url=$(sed -n 's/^listening on //p' "$log")
    [ -n "$url" ] || { echo "the fake server did not start:" >&2; cat "$log" >&2; exit 1; }
    echo "$url"
}

project=$work/example.rubric
cp "$build/example/summeval.template.rubric" "$project"
start_server "$project" "$work/server.log" >"$work/url"
url=$(cat "$work/url")

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
for pane in dataset annotate run rubric heatmap issues; do
    shot "$pane" "$pane.png"
done
# The correlation pane once its bootstrap intervals are in (a few seconds on 2 cores).
shot correlation correlation.png --delay 10000
LANGUAGE=de LC_ALL=C.UTF-8 LANG=de_DE.UTF-8 shot dataset dataset-de.png
# The Judge & Run pane during a G-Eval run (a third of the estimated calls answered), on a fresh
# copy of the example against a fake endpoint that answers after 40 ms.
running=$work/running.rubric
cp "$build/example/summeval.template.rubric" "$running"
start_server "$running" "$work/slow-server.log" --latency-ms 40 >"$work/slow-url"
xvfb-run -a -s "-screen 0 ${size}x24" "$build/bin/run-pane-shot" "$running" "$(cat "$work/slow-url")" \
    "$out/run-running.png" --at running --size "$size" 2>>"$work/studio.log" \
    && echo "$out/run-running.png" || { echo "no screenshot of a running run:" >&2; tail -3 "$work/studio.log" >&2; }
# The pane before a cold HypoEval run: the estimate is a range, phase by phase.
cp "$build/example/summeval.template.rubric" "$work/estimate.rubric"
xvfb-run -a -s "-screen 0 ${size}x24" "$build/bin/run-pane-shot" "$work/estimate.rubric" "$(cat "$work/slow-url")" \
    "$out/run-hypoeval.png" --method hypoeval --judge hypoeval-local --at idle --size "$size" 2>>"$work/studio.log" \
    && echo "$out/run-hypoeval.png" || { echo "no screenshot of a HypoEval estimate:" >&2; tail -3 "$work/studio.log" >&2; }
xvfb-run -a -s "-screen 0 ${size}x24" "$build/bin/rubric-studio" "$project" --judge hypoeval --pane correlation \
    --size "$size" --export-chart "$work/correlation-chart.svg" 2>/dev/null && echo "chart export: $(wc -c <"$work/correlation-chart.svg") bytes of SVG"
"$build/bin/rubric" correlate --project "$project" --aspect coherence --judge hypoeval
# A CheckEval checklist (the SummEval coherence preset under two judges, synthetic answers):
# the Rubric pane with its figures and stage counts, and one item's answer grid.
xvfb-run -a -s "-screen 0 ${size}x24" "$build/bin/checklist-shot" "$out" 2>>"$work/studio.log" \
    && echo "$out/checklist.png $out/answer-grid.png" || { echo "no checklist screenshots:" >&2; tail -3 "$work/studio.log" >&2; }
