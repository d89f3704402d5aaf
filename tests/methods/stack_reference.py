#!/usr/bin/python3
"""Independent recomputation of the stacked judge's fit (TestStackMethod) with scikit-learn.

Reads a CSV (id, split, fold, human, then one column per stacked criterion; empty = no score),
fits sklearn's Ridge(alpha) on the train rows (missing values imputed with the train column mean,
as the aggregator does), cross-validates it with the given folds (PredefinedSplit) and prints
{"intercept", "weights": {criterion: w}, "train_r", "cv_r", "predictions": {id: score}}.
Usage: stack_reference.py FILE.csv ALPHA
"""
import csv
import json
import sys

import numpy as np
from scipy.stats import pearsonr
from sklearn.impute import SimpleImputer
from sklearn.linear_model import Ridge
from sklearn.model_selection import PredefinedSplit, cross_val_predict
from sklearn.pipeline import make_pipeline


def main(path, alpha):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    names = list(rows[0].keys())[4:]

    def matrix(rs):
        return np.array([[float(r[n]) if r[n] != "" else np.nan for n in names] for r in rs])

    train = [r for r in rows if r["split"] == "train"]
    x, y = matrix(train), np.array([float(r["human"]) for r in train])
    model = make_pipeline(SimpleImputer(strategy="mean"), Ridge(alpha=alpha))
    model.fit(x, y)
    ridge = model[-1]
    oof = cross_val_predict(make_pipeline(SimpleImputer(strategy="mean"), Ridge(alpha=alpha)), x, y,
                            cv=PredefinedSplit([int(r["fold"]) for r in train]))
    out = {"intercept": float(ridge.intercept_),
           "weights": {n: float(w) for n, w in zip(names, ridge.coef_)},
           "train_r": float(pearsonr(model.predict(x), y)[0]),
           "cv_r": float(pearsonr(oof, y)[0]),
           "predictions": {r["id"]: float(p) for r, p in zip(rows, model.predict(matrix(rows)))}}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))
