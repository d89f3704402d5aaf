#!/usr/bin/env python3
"""Issue 32, the pairwise setting's data (paper App. I, E.2), recomputed independently.

Pairs from pointwise data: two outputs of the same source (SummEval: the same doc_id) whose human
scores for the aspect differ; the higher-scored one is the human preference; ties dropped. Which
pairs and which goes first are drawn with splitmix64 as PairwiseData.h describes it (written here
from that description, not from the C++). Verdicts are MT-Bench's "[[A]]" / "[[B]]" / "[[C]]"
(the last one standing counts; reasoning blocks removed first); accuracy is Eq. 10 with the
unparsed policies. Compares with `hpss-prompt-dump --pairs`.

usage: pairwise_pairs.py HPSS_PROMPT_DUMP [SHARED_DATA]
"""
import ast
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MASK = (1 << 64) - 1


class SplitMix:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def pairs_of(items, seed, per_group):
    groups = {}
    for it in items:
        if it['human'] is None or not math.isfinite(it['human']):
            continue
        groups.setdefault(it['group'], []).append(it)
    rng = SplitMix(seed)
    out = []
    for name in sorted(groups):
        g = sorted(groups[name], key=lambda it: it['id'])
        cands = [(i, j) for i in range(len(g)) for j in range(i + 1, len(g)) if g[i]['human'] != g[j]['human']]
        cap = len(cands) if per_group == 0 else len(g) if per_group == -1 else per_group
        if cap < len(cands):
            n = len(cands)
            for t in range(cap):
                r = t + rng.next() % (n - t)
                cands[t], cands[r] = cands[r], cands[t]
            cands = sorted(cands[:cap])
        for i, j in cands:
            a, b = (g[j], g[i]) if rng.next() & 1 else (g[i], g[j])
            out.append({'group': name, 'a': a['id'], 'b': b['id'], 'prefers_a': a['human'] > b['human']})
    return out


def verdict_of(text):
    text = re.sub(r'<think>.*?</think>', '', text, flags=re.S)
    best, verdict = -1, '?'
    for form, v in (('[[A]]', 'A'), ('[[B]]', 'B'), ('[[C]]', 'C')):
        at = text.rfind(form)
        if at > best:
            best, verdict = at, v
    return verdict


def accuracy_of(verdicts, pairs, policy):
    n = right = 0
    for v, p in zip(verdicts, pairs):
        if v == '?' and policy == 'drop':
            continue
        n += 1
        right += (v == 'A' and p['prefers_a']) or (v == 'B' and not p['prefers_a'])
    return (right / n if n else None), n


ANSWERS = [
    'Assistant A is more coherent.\n\n[[A]]',
    'B reads better. Final verdict: [[B]]',
    'Both are equally good: [[C]]',
    'I cannot decide between them.',
    '<think>Maybe [[A]]</think>On reflection the second is better: [[B]]',
    'At first [[B]] seemed right, but the final verdict is [[A]]',
    '[[A]]',
    'Verdict: [[B]]',
    'I would say [[A]]; no, on second thought the second is clearer: [[B]]',
]


def main():
    dump = sys.argv[1]
    shared = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, '..', '..', '..', '..', 'shared', 'data')
    path = os.path.join(shared, 'summeval', 'summeval_bartscore_data.json')
    if not os.path.exists(path):  # the datasets live beside the project (../shared/data), not in it
        print(f'SKIP: {path} not found')
        return 77
    data = json.load(open(path, encoding='utf-8'))
    items = []
    for row in data[:400]:  # 25 articles x 16 systems
        scores = ast.literal_eval(row['scores']) if isinstance(row['scores'], str) else row['scores']
        items.append({'id': row['doc_id'] + '#' + row['system_id'], 'group': row['doc_id'],
                      'human': scores['coherence']})
    # Unscored items never pair; the input order must not matter.
    items[3]['human'] = None
    items[40]['human'] = None
    items.reverse()
    failures = 0
    checked = 0
    for seed in (1, 7, 2**63 + 5):
        for per_group in (-1, 0, 5, 1000):
            for policy in ('fallback', 'drop', 'reask'):
                expected = pairs_of(items, seed, per_group)
                answers = [ANSWERS[k % len(ANSWERS)] for k in range(len(expected))]
                verdicts = [verdict_of(a) for a in answers]
                acc, counted = accuracy_of(verdicts, expected, policy)
                case = {'seed': seed, 'per_group': per_group, 'items': items, 'answers': answers, 'policy': policy}
                got = json.loads(subprocess.run([dump, '--pairs'], input=json.dumps(case), capture_output=True,
                                                text=True, check=True).stdout)
                label = f'seed {seed} per_group {per_group} policy {policy}'
                if got['pairs'] != expected:
                    failures += 1
                    print(f'FAIL pairs ({label}): {len(got["pairs"])} vs {len(expected)} expected')
                if got['verdicts'] != verdicts:
                    failures += 1
                    print(f'FAIL verdicts ({label})')
                if got['counted'] != counted or (acc is None) != (got['accuracy'] is None) or (
                        acc is not None and abs(got['accuracy'] - acc) > 1e-12):
                    failures += 1
                    print(f'FAIL accuracy ({label}): {got["accuracy"]}/{got["counted"]} vs {acc}/{counted}')
                # The setting's own properties, independent of the draw.
                human = {it['id']: it['human'] for it in items}
                for p in expected:
                    assert p['a'].split('#')[0] == p['b'].split('#')[0] == p['group']
                    assert human[p['a']] != human[p['b']] and None not in (human[p['a']], human[p['b']])
                share_a = sum(p['prefers_a'] for p in expected) / len(expected)
                if not 0.35 < share_a < 0.65:
                    failures += 1
                    print(f'FAIL ({label}): the human winner is A in {share_a:.2f} of the pairs')
                checked += 1
                print(f'{label}: {len(expected)} pairs, accuracy {acc} over {counted}')
    if failures:
        print(f'{failures} failures')
        return 1
    print(f'OK: {checked} cases')
    return 0


if __name__ == '__main__':
    sys.exit(main())
