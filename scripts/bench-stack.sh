#!/bin/sh
# The stacked judge against the best single method on the synthetic judge (issue 36): for each seed a
# fresh copy of the example template, a seeded train split of 30 (coherence), the five methods run on
# every item against the loopback fake endpoint, the stacked judge over them, and `rubric compare`
# (Pearson, bootstrap interval, paired permutation and Williams tests) on the test split.
# Usage: scripts/bench-stack.sh OUTDIR PORT SEEDS...   (a fake-llm-server --synthetic-project on PORT)
set -eu
out=$1 port=$2
shift 2
bin=build/bin
mkdir -p "$out"
for seed in "$@"; do
    p="$out/s$seed.rubric"
    cp build/example/summeval.template.rubric "$p"
    "$bin/rubric" split --project "$p" --train 30 --seed "$seed" --aspect coherence >/dev/null
    run="$bin/rubric run --project $p --aspect coherence --base-url http://127.0.0.1:$port/v1 --model synthetic --concurrency 32 --items all"
    $run --method geval --judge geval >/dev/null
    $run --method hypoeval --judge hypoeval --set seed="$seed" >/dev/null
    $run --method checkeval --judge checkeval --checklist preset:summeval/coherence >/dev/null
    $run --method hdeval --judge hdeval --set seed="$seed" >/dev/null
    $run --method hpss --judge hpss --set seed="$seed" >/dev/null
    $run --method stack --judge stack --set judges=geval,hypoeval,checkeval,hdeval,hpss >/dev/null
    "$bin/rubric" compare --project "$p" --aspect coherence --judge stack --judge geval --judge hypoeval \
        --judge checkeval --judge hdeval --judge hpss --seed "$seed" --json >"$out/compare-s$seed.json"
    "$bin/rubric" show-rubric --project "$p" --judge stack --json >"$out/stack-s$seed.json"
    echo "seed $seed done"
done
