#!/usr/bin/python3
"""Reference values for the group level's constant-group rules (rubric correlate --constant-groups),
from an independent implementation (scipy), on the real SummEval file.

Made with Debian 12's python3-scipy (scipy 1.10.1, numpy 1.24.2):
    /usr/bin/python3 tests/stats/make_constant_groups.py > tests/stats/constant_groups.json

SummEval (../shared/data/summeval/summeval_bartscore_data.json, 100 docs x 16 systems), the expert
consistency mean as "human" (4 documents have all-equal consistency) and the expert fluency mean
standing in for a judge (2 further documents have all-equal fluency). Per doc_id:
  "skip" (G-Eval, UniEval): a doc whose human or judge scores are constant is left out;
  "one"  (PairS, HypoEval): a doc whose human scores are constant counts as 1 for every coefficient;
         a doc with varying human but constant judge scores gives NaN in scipy and is left out
         (np.nanmean, as HPSS skips NaN groups).
The coefficients are averaged over the docs that remain.
"""
import json
import math
import os
import sys
import warnings

import numpy as np
import scipy
from scipy import stats

warnings.simplefilter("ignore")  # scipy warns on constant input; the NaN it returns is the point


def coefficients(xs, ys):
    return {"pearson": float(stats.pearsonr(xs, ys)[0]), "spearman": float(stats.spearmanr(xs, ys)[0]),
            "kendall": float(stats.kendalltau(xs, ys, variant="b")[0])}


def group_level(docs, rule):
    per = {"pearson": [], "spearman": [], "kendall": []}
    used = n = human_constant = judge_constant = 0
    for pairs in docs.values():
        xs = [a for a, _ in pairs]
        ys = [b for _, b in pairs]
        if len(set(xs)) < 2:
            human_constant += 1
            if rule == "one":
                for k in per:
                    per[k].append(1.0)
                used += 1
                n += len(xs)
            continue
        c = coefficients(xs, ys)
        if any(math.isnan(v) for v in c.values()):
            judge_constant += 1
            continue
        for k, v in c.items():
            per[k].append(v)
        used += 1
        n += len(xs)
    out = {k: float(np.nanmean(v)) for k, v in per.items()}
    out.update(groups_used=used, n=n, groups_human_constant=human_constant, groups_judge_constant=judge_constant,
               groups_skipped=len(docs) - used)
    return out


path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data", "summeval",
                    "summeval_bartscore_data.json")
data = json.load(open(path))
docs = {}
for d in data:
    docs.setdefault(d["doc_id"], []).append((d["scores"]["consistency"], d["scores"]["fluency"]))
json.dump({"generator": "/usr/bin/python3 tests/stats/make_constant_groups.py > tests/stats/constant_groups.json",
           "scipy": scipy.__version__, "numpy": np.__version__,
           "file": "summeval/summeval_bartscore_data.json", "human": "consistency", "judge": "fluency",
           "skip": group_level(docs, "skip"), "one": group_level(docs, "one")},
          sys.stdout, indent=1)
sys.stdout.write("\n")
