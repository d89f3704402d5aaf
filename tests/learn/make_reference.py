#!/usr/bin/python3
"""Reference fits for tests/learn/TestAggregators.cpp, computed outside the code under test.

  /usr/bin/python3 tests/learn/make_reference.py --fixtures   # (re)writes the CSV fixtures (numpy, seed 7)
  /usr/bin/python3 tests/learn/make_reference.py               # writes linear_reference.json from the CSVs

Fixtures: linear_30x12.csv (30 items, nodes x1..x12 on a 1-5 scale, aspects y1, y2 with a few
missing human scores) and linear_20x30.csv (20 items x 30 nodes: more nodes than items, so the
least-squares solution is the minimum-norm one). The reference uses scikit-learn's
LinearRegression and Ridge (fit_intercept=True, alpha = lambda), one fit per aspect on the rows
whose human score is present, the same convention as the code under test.
"""
import csv
import json
import os
import sys

import numpy as np
from sklearn.linear_model import LinearRegression, Ridge

HERE = os.path.dirname(os.path.abspath(__file__))


def write_fixtures():
    rng = np.random.default_rng(7)
    for name, n, p in (("linear_30x12.csv", 30, 12), ("linear_20x30.csv", 20, 30)):
        x = rng.integers(1, 6, size=(n, p)).astype(float)
        w = rng.normal(0, 0.5, size=p)
        y1 = 2.0 + x @ w + rng.normal(0, 0.3, size=n)
        y2 = 1.0 + 0.8 * x[:, 0] - 0.5 * x[:, 1] + rng.normal(0, 0.5, size=n)
        y1, y2 = np.round(y1, 4), np.round(y2, 4)
        y2_missing = rng.choice(n, size=3, replace=False)
        with open(os.path.join(HERE, name), "w", newline="") as f:
            out = csv.writer(f, lineterminator="\n")
            out.writerow([f"x{j + 1}" for j in range(p)] + ["y1", "y2"])
            for i in range(n):
                row = [f"{v:g}" for v in x[i]] + [f"{y1[i]:.4f}"]
                row.append("" if i in y2_missing else f"{y2[i]:.4f}")
                out.writerow(row)


def read(name):
    with open(os.path.join(HERE, name), newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    p = len([h for h in header if h.startswith("x")])
    x = np.array([[float(v) for v in r[:p]] for r in body])
    y = np.array([[float(v) if v != "" else np.nan for v in r[p:]] for r in body])
    return header[:p], x, y


def fits(name):
    features, x, y = read(name)
    out = {}
    for label, make in (("linear", lambda: LinearRegression()),
                        ("ridge_1", lambda: Ridge(alpha=1.0)),
                        ("ridge_10", lambda: Ridge(alpha=10.0))):
        aspects = []
        for a in range(y.shape[1]):
            keep = ~np.isnan(y[:, a])
            model = make().fit(x[keep], y[keep, a])
            aspects.append({"intercept": float(model.intercept_),
                            "weights": [float(w) for w in model.coef_],
                            "predictions": [float(v) for v in model.predict(x)]})
        out[label] = aspects
    return out


def main():
    if "--fixtures" in sys.argv:
        write_fixtures()
    ref = {name: fits(name) for name in ("linear_30x12.csv", "linear_20x30.csv")}
    with open(os.path.join(HERE, "linear_reference.json"), "w") as f:
        json.dump(ref, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
