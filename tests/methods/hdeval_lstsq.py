#!/usr/bin/python3
"""Independent least-squares reference for HD-Eval's linear aggregator (TestHdEvalAcceptance).

Reads the CSV of `rubric export --criteria` (id, split, human.<aspect>..., one column per node),
fits every human.<aspect> column on the train rows with numpy's lstsq (an intercept column plus
all node columns) and prints {aspect: {"intercept": b0, "weights": {node: w}, "rank": r, "n": n}}.
Usage: hdeval_lstsq.py FILE.csv
"""
import csv
import json
import sys

import numpy as np


def main(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0].keys())
    aspects = [h[len("human."):] for h in header if h.startswith("human.")]
    nodes = [h for h in header[2:] if not h.startswith("human.")]
    out = {}
    for a in aspects:
        train = [r for r in rows if r["split"] == "train" and r["human." + a] != ""
                 and all(r[n] != "" for n in nodes)]
        x = np.array([[1.0] + [float(r[n]) for n in nodes] for r in train])
        y = np.array([float(r["human." + a]) for r in train])
        beta, _, rank, _ = np.linalg.lstsq(x, y, rcond=None)
        out[a] = {"intercept": float(beta[0]),
                  "weights": {n: float(w) for n, w in zip(nodes, beta[1:])},
                  "rank": int(rank), "columns": int(x.shape[1]), "n": len(train)}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
