#!/bin/sh
# The HPSS baselines table of issue 32 on the synthetic judge (graded template lines): HPSS, HPSS†
# (the winner's mean of 20 answers at temperature 1), CloserLook† and CloserLook + ICL(†) (a fixed
# prompt, no search), greedy, stepwise greedy, random, APE-style (free-text prompts the synthetic judge
# varies: baseline/ape.py's loop, the base prompt + 70 evaluations that cost) and OPRO-style search (the
# synthetic judge proposes the strategies) on the same budget and judge, three seeds each,
# scored on the test split and compared by `rubric compare`.
# Usage (from the repository root, after building rubric and fake-llm-server):
#   sh tests/methods/hpss/baselines.sh [PORT] [WORKDIR]
# Prints the per-judge table of `rubric compare` (summary level = SummEval's: per article, then
# averaged; and dataset level) and the mean ± sd over the seeds per search.
set -eu
PORT=${1:-18603}
WORK=${2:-/tmp/hpss-baselines}
BIN=build/bin
rm -rf "$WORK"
mkdir -p "$WORK"
P="$WORK/p.rubric"
cp build/example/summeval.template.rubric "$P"
# Whole articles on each side (summary-level Spearman needs an article's 16 summaries together).
$BIN/rubric split --project "$P" --train 64 --by-group --seed 7 >/dev/null
$BIN/fake-llm-server --port "$PORT" --synthetic-project "$P" >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
sleep 1
URL="http://127.0.0.1:$PORT/v1"
run() { # judge, then --set pairs
    judge=$1
    shift
    $BIN/rubric run --project "$P" --method hpss --aspect coherence --judge "$judge" --base-url "$URL" \
        --model synthetic --concurrency 16 --set task=summeval --set budget=71 "$@" >"$WORK/$judge.log" 2>&1
}
for seed in 1 2 3; do
    run "hpss-s$seed" --set search=hpss --set seed=$seed
    # HPSS†: the same search (its answers come from the cache), the winner sampled 20 times.
    run "hpss-dagger-s$seed" --set search=hpss --set seed=$seed --set samples=20
    run "greedy-s$seed" --set search=greedy --set seed=$seed
    run "random-s$seed" --set search=random --set seed=$seed
    run "opro-style-s$seed" --set search=opro --set seed=$seed
    run "ape-style-s$seed" --set search=ape --set seed=$seed
done
# The search's origin (MT-Bench's prompt), no search: where every search starts.
run "origin" --set strategy=scale:5,examples:0,criteria:human,reference:none,cot:prefix,autocot:off,metrics:off,order:TEI
# Stepwise greedy is deterministic (1 + sum(m_i - 1) = 21 evaluations, as in the paper).
run "stepwise" --set search=stepwise --set budget=21
# CloserLook (Chiang and Lee's analyze-rate prompt, no search): † = 20 answers at temperature 1
# averaged (the paper's default for it); + ICL = five human evaluation examples from the train split.
run "closerlook-dagger" --set prompt=closerlook --set samples=20
run "closerlook-icl" --set prompt=closerlook-icl
run "closerlook-icl-dagger" --set prompt=closerlook-icl --set samples=20
for level in group dataset; do
    echo "== rubric compare --level $level --coefficient spearman (test split) =="
    $BIN/rubric compare --project "$P" --aspect coherence --level $level --coefficient spearman --bootstrap 200 \
        --permutations 10 $(for j in origin hpss-s1 hpss-s2 hpss-s3 hpss-dagger-s1 hpss-dagger-s2 hpss-dagger-s3 \
            greedy-s1 greedy-s2 greedy-s3 stepwise random-s1 random-s2 random-s3 opro-style-s1 opro-style-s2 \
            opro-style-s3 ape-style-s1 ape-style-s2 ape-style-s3 closerlook-dagger closerlook-icl closerlook-icl-dagger; do echo --judge $j; done) \
        --json >"$WORK/compare-$level.json"
    python3 - "$WORK/compare-$level.json" <<'EOF'
import json, re, statistics, sys
c = json.load(open(sys.argv[1]))
rows = {j['judge']: j for j in c['judges']}
print('%-22s %9s %6s' % ('judge', 'spearman', 'n'))
for name, j in rows.items():
    print('%-22s %9.4f %6d' % (name, j['spearman'], j['n']))
print()
print('%-22s %s' % ('search', 'Spearman mean ± sd over seeds'))
for search in ('origin', 'closerlook-dagger', 'closerlook-icl', 'closerlook-icl-dagger', 'hpss', 'hpss-dagger',
               'greedy', 'stepwise', 'random', 'ape-style', 'opro-style'):
    vals = [j['spearman'] for n, j in rows.items() if n == search or re.fullmatch(re.escape(search) + r'-s\d+', n)]
    if not vals:
        print('%-22s not implemented' % search)
    elif len(vals) == 1:
        print('%-22s %.4f (deterministic)' % (search, vals[0]))
    else:
        print('%-22s %.4f ± %.4f (%d seeds)' % (search, statistics.mean(vals), statistics.stdev(vals), len(vals)))
EOF
done
