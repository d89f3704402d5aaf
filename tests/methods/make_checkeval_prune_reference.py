#!/usr/bin/python3
"""Reference values for tests/ui/TestPruneQuestions (CheckEval: prune by discrimination), computed
independently of rubric's C++ code from tests/methods/checkeval_reference.json.

    /usr/bin/python3 tests/methods/make_checkeval_prune_reference.py > tests/methods/checkeval_prune_reference.json

Judge J1 of the fixture. The k questions pruned: constant ones first, then ascending point-biserial
r (the reference's "analytics"), ties in question order. The alignment: Pearson r (scipy.stats.pearsonr)
between the human score and the share of "yes" (1) answers among the questions kept, per item of
the test split (items 12-19, as the tests split them) with at least one answer.
"""
import json
import os

from scipy import stats

here = os.path.dirname(os.path.abspath(__file__))
ref = json.load(open(os.path.join(here, "checkeval_reference.json")))
items = ref["items"]
test = items[12:20]
questions = ref["questions"]
answers = ref["answers"]["J1"]
human = ref["human"]
analytics = ref["analytics"]


def order_key(i_q):
    i, q = i_q
    a = analytics[q]
    if a["constant"]:
        return (0, 0.0, i)
    return (1, a["point_biserial"], i)


ranked = [q for _, q in sorted(enumerate(questions), key=order_key)]


def alignment(kept):
    xs, ys = [], []
    for it in test:
        vals = [answers[q][it] for q in kept if answers[q][it] is not None]
        if not vals:
            continue
        xs.append(sum(vals) / len(vals))
        ys.append(human[it])
    return float(stats.pearsonr(xs, ys)[0]), len(xs)


out = {"test_items": test, "judge": "J1", "prune": {}}
before, n = alignment(questions)
for k in (1, 2, 3):
    pruned = ranked[:k]
    after, n_after = alignment([q for q in questions if q not in pruned])
    out["prune"][str(k)] = {"pruned": pruned, "before": before, "after": after, "items": min(n, n_after)}
print(json.dumps(out, indent=1, sort_keys=True))
