#!/usr/bin/python3
"""Reference values for tests/stats/TestCorrelation, from an independent implementation (scipy).

Made with Debian 12's python3-scipy (scipy 1.10.1, numpy 1.24.2):
    /usr/bin/python3 tests/stats/make_reference.py > tests/stats/reference.json

"summeval_levels": the G-Eval/UniEval level procedure on the real SummEval file
(../shared/data/summeval/summeval_bartscore_data.json, 100 docs x 16 systems), with the expert
coherence mean as "human" and the expert relevance mean standing in for a judge: dataset; group =
per doc_id, skipping docs where either side is constant, averaged; system = per system_id means,
then correlated. Computed here with scipy, independently of rubric's code.

Missing values are null in "x"/"y"; the expected values are computed on the pairs where both
are present (the pairing rule of rubric::stats). An undefined coefficient (constant side) is null.
"""
import json
import math
import sys
import warnings

import numpy as np
import scipy
from scipy import stats

warnings.simplefilter("ignore")  # scipy warns on constant input; the NaN it returns is what we record


def coefficients(x, y):
    px = [a for a, b in zip(x, y) if a is not None and b is not None]
    py = [b for a, b in zip(x, y) if a is not None and b is not None]
    out = {}
    for name, fn in (("pearson", stats.pearsonr), ("spearman", stats.spearmanr), ("kendall", stats.kendalltau)):
        if len(px) < 2:
            v = float("nan")
        elif name == "kendall":
            v = fn(px, py, variant="b")[0]
        else:
            v = fn(px, py)[0]
        v = float(v)
        out[name] = None if math.isnan(v) else v
    return out


def case(name, x, y):
    c = {"name": name, "x": x, "y": y}
    c.update(coefficients(x, y))
    return c


rng = np.random.default_rng(20261123)
cases = []
cases.append(case("heavy_ties_likert", [1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5, 5, 1, 1, 2],
                  [2, 2, 2, 3, 4, 3, 4, 5, 5, 4, 5, 5, 1, 2, 1]))
cases.append(case("heavy_ties_binary", [0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0],
                  [1, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0, 0]))
x = rng.integers(1, 4, 200).tolist()
y = [int(min(3, max(1, v + rng.integers(-1, 2)))) for v in x]
cases.append(case("heavy_ties_n200_three_levels", x, y))
cases.append(case("constant_x", [3, 3, 3, 3, 3], [1, 2, 3, 4, 5]))
cases.append(case("constant_y", [1, 2, 3, 4, 5], [2.5, 2.5, 2.5, 2.5, 2.5]))
cases.append(case("constant_both", [1, 1, 1], [7, 7, 7]))
cases.append(case("n2_increasing", [1.0, 2.0], [3.0, 10.0]))
cases.append(case("n2_decreasing", [1.0, 2.0], [10.0, 3.0]))
cases.append(case("n1", [1.0], [2.0]))
cases.append(case("empty", [], []))
cases.append(case("missing_values", [1, None, 3, 4, 5, 2, None, 4, 3, 1],
                  [2, 3, None, 4, 4, 1, 5, 5, 2, None]))
cases.append(case("missing_leaves_constant", [1, 2, None, 4], [5, 5, 6, 5]))
x = rng.normal(0, 1, 50)
y = 0.6 * x + rng.normal(0, 1, 50)
cases.append(case("random_n50", x.tolist(), y.tolist()))
x = rng.normal(3, 1, 1000)
y = -0.3 * x + rng.normal(0, 1, 1000)
cases.append(case("random_n1000", x.tolist(), y.tolist()))
x = rng.integers(1, 6, 1000)
y = np.clip(x + rng.integers(-2, 3, 1000), 1, 5)
cases.append(case("random_n1000_likert_ties", x.astype(float).tolist(), y.astype(float).tolist()))
x = rng.normal(1e6, 1, 100)
y = x + rng.normal(0, 0.5, 100)
cases.append(case("large_offset_n100", x.tolist(), y.tolist()))



def summeval_levels():
    import os
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data", "summeval",
                        "summeval_bartscore_data.json")
    data = json.load(open(path))
    h = [d["scores"]["coherence"] for d in data]
    j = [d["scores"]["relevance"] for d in data]
    out = {"file": "summeval/summeval_bartscore_data.json", "human": "coherence", "judge": "relevance"}
    out["dataset"] = dict(coefficients(h, j), n=len(h), groups_used=0)
    docs = {}
    for d in data:
        docs.setdefault(d["doc_id"], []).append((d["scores"]["coherence"], d["scores"]["relevance"]))
    per = {"pearson": [], "spearman": [], "kendall": []}
    used = 0
    for pairs in docs.values():
        xs = [a for a, _ in pairs]
        ys = [b for _, b in pairs]
        if len(set(xs)) < 2 or len(set(ys)) < 2:
            continue
        used += 1
        for k, v in coefficients(xs, ys).items():
            per[k].append(v)
    out["group"] = {k: float(np.mean(v)) for k, v in per.items()}
    out["group"].update(groups_used=used, n=sum(len(p) for p in docs.values() if len(set(a for a, _ in p)) > 1 and len(set(b for _, b in p)) > 1))
    systems = {}
    for d in data:
        systems.setdefault(d["system_id"], []).append((d["scores"]["coherence"], d["scores"]["relevance"]))
    hs = [float(np.mean([a for a, _ in v])) for v in systems.values()]
    js = [float(np.mean([b for _, b in v])) for v in systems.values()]
    out["system"] = dict(coefficients(hs, js), n=len(h), groups_used=len(systems))
    return out


json.dump({"generator": "/usr/bin/python3 tests/stats/make_reference.py > tests/stats/reference.json",
           "scipy": scipy.__version__, "numpy": np.__version__, "cases": cases,
           "summeval_levels": summeval_levels()},
          sys.stdout, indent=1)
sys.stdout.write("\n")
