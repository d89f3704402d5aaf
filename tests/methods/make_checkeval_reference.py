#!/usr/bin/python3
"""Reference values for tests/methods/TestQuestionAnalytics (CheckEval question analytics and
agreement between judges on one checklist), computed independently of rubric's C++ code.

Made with Debian 12's python3-scipy (scipy 1.10.1, numpy 1.24.2):
    /usr/bin/python3 tests/methods/make_checkeval_reference.py > tests/methods/checkeval_reference.json

Fixture: 3 judges x 24 items x 6 questions (q1-q3 in sub-aspect s1 "Flow", q4-q6 in s2 "Facts"),
answers 1 (yes) / 0 (no) / null (missing), drawn with a fixed seed; q6 of judge J1 is always "yes"
(a constant question). Human scores: one number per item.

- "analytics": judge J1's questions: answered, yes_rate, point-biserial r with the human score
  (scipy.stats.pointbiserialr over the items with an answer; null when undefined), constant.
- "agreement": units = (item, question) pairs, coders = judges, values = the 0/1 answers.
  Krippendorff's alpha (nominal) via the coincidence matrix, missing values allowed, units with
  fewer than two values left out; Fleiss' kappa over the units every judge answered. Both
  written out below by hand (not from a library). Per sub-aspect the same on its questions' units.
  "disagreements": per question, the share of items (with at least two answers) on which the
  judges' answers are not all equal.
"""
import json
import math
import warnings

import numpy as np
import scipy
from scipy import stats

warnings.simplefilter("ignore")

rng = np.random.default_rng(20261125)
judges = ["J1", "J2", "J3"]
items = ["i%02d" % i for i in range(24)]
questions = ["q1", "q2", "q3", "q4", "q5", "q6"]
sub_of = {"q1": "Flow", "q2": "Flow", "q3": "Flow", "q4": "Facts", "q5": "Facts", "q6": "Facts"}
human = {it: float(rng.integers(1, 6)) for it in items}
# Per question how often a judge copies a shared "truth" (high = agreement) and how often it is missing.
copy = {"q1": 0.9, "q2": 0.6, "q3": 0.8, "q4": 0.5, "q5": 0.95, "q6": 0.7}
answers = {j: {q: {} for q in questions} for j in judges}
for q in questions:
    for it in items:
        # The truth leans on the human score so the point-biserial r is not noise only.
        truth = 1 if human[it] + rng.normal(0, 1.2) >= 3 else 0
        for j in judges:
            if rng.random() < 0.12:
                answers[j][q][it] = None
                continue
            if j == "J1" and q == "q6":
                answers[j][q][it] = 1
                continue
            answers[j][q][it] = truth if rng.random() < copy[q] else int(rng.integers(0, 2))


def nan_to_none(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


analytics = {}
for q in questions:
    a = [(answers["J1"][q][it], human[it]) for it in items if answers["J1"][q][it] is not None]
    xs = [x for x, _ in a]
    ys = [y for _, y in a]
    constant = None
    if xs and all(x == xs[0] for x in xs):
        constant = "yes" if xs[0] == 1 else "no"
    r = float("nan") if len(xs) < 2 or constant else stats.pointbiserialr(xs, ys)[0]
    analytics[q] = {"answered": len(xs), "yes_rate": sum(xs) / len(xs) if xs else None,
                    "point_biserial": nan_to_none(r), "constant": constant}


def alpha_nominal(units):
    """units: list of lists of values (None = missing)."""
    cats = sorted({v for u in units for v in u if v is not None})
    o = {(c, k): 0.0 for c in cats for k in cats}
    for u in units:
        vals = [v for v in u if v is not None]
        m = len(vals)
        if m < 2:
            continue
        for i in range(m):
            for j in range(m):
                if i != j:
                    o[(vals[i], vals[j])] += 1.0 / (m - 1)
    n_c = {c: sum(o[(c, k)] for k in cats) for c in cats}
    n = sum(n_c.values())
    d_o = sum(o[(c, k)] for c in cats for k in cats if c != k)
    d_e = sum(n_c[c] * n_k for c in cats for k, n_k in n_c.items() if c != k)
    if d_e == 0:
        return float("nan"), sum(1 for u in units if sum(v is not None for v in u) >= 2)
    return 1.0 - (n - 1) * d_o / d_e, sum(1 for u in units if sum(v is not None for v in u) >= 2)


def fleiss(units):
    rows = [u for u in units if all(v is not None for v in u)]
    if not rows:
        return float("nan"), 0
    cats = sorted({v for u in rows for v in u})
    n = len(rows[0])
    big_n = len(rows)
    counts = [[sum(1 for v in u if v == c) for c in cats] for u in rows]
    p_i = [(sum(x * x for x in row) - n) / (n * (n - 1)) for row in counts]
    p_bar = sum(p_i) / big_n
    p_j = [sum(row[j] for row in counts) / (big_n * n) for j in range(len(cats))]
    p_e = sum(p * p for p in p_j)
    if p_e == 1:
        return float("nan"), big_n
    return (p_bar - p_e) / (1 - p_e), big_n


def figures(qs):
    units = [[answers[j][q][it] for j in judges] for q in qs for it in items]
    a, pairs = alpha_nominal(units)
    k, kunits = fleiss(units)
    return {"alpha": nan_to_none(a), "kappa": nan_to_none(k), "pairs": pairs, "kappa_units": kunits}


agreement = figures(questions)
agreement["per_sub_aspect"] = {s: figures([q for q in questions if sub_of[q] == s]) for s in ["Flow", "Facts"]}
shares = {}
for q in questions:
    n = d = 0
    for it in items:
        vals = [answers[j][q][it] for j in judges if answers[j][q][it] is not None]
        if len(vals) < 2:
            continue
        n += 1
        d += len(set(vals)) > 1
    shares[q] = {"share": d / n, "items": n}
agreement["disagreements"] = shares

print(json.dumps({
    "made_with": "scipy %s, numpy %s" % (scipy.__version__, np.__version__),
    "judges": judges, "items": items, "questions": questions, "sub_aspect": sub_of,
    "human": human, "answers": answers,
    "analytics_judge": "J1", "analytics": analytics,
    "agreement": agreement,
}, indent=1, sort_keys=True))
