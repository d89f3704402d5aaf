#!/usr/bin/python3
"""Reference values for tests/stats/TestComparison (rubric::stats::compareJudges over a project),
computed here with scipy, independently of rubric's code.

Made with Debian 12's python3-scipy (scipy 1.10.1, numpy 1.24.2):
    /usr/bin/python3 tests/stats/make_compare_reference.py > tests/stats/compare_reference.json

The data: 16 items in 4 groups and 4 systems, two annotators, and three judges: "good" (close to
people), "weak" (noisier) and "twin" (a copy of "good"). Expected, on the dataset level:
- each judge's Pearson, Spearman and Kendall tau-b with the mean human score;
- for the pair good/weak on Pearson: the difference, the EXACT two-sided paired permutation
  p-value (all 2^16 swaps of the two judges' z-scored values per item, scipy.stats.permutation_test
  with permutation_type="samples"), and Williams' (1959) t-test p from scipy.stats.t;
- Krippendorff's alpha (interval metric) of the two annotators from its textbook definition
  (observed over expected disagreement of all pairable values).
"""
import json
import math

import numpy as np
from scipy import stats

rng = np.random.default_rng(20261125)
n = 16
truth = rng.normal(3.0, 1.0, n)
a1 = np.clip(np.round(truth + rng.normal(0, 0.5, n)), 1, 5)
a2 = np.clip(np.round(truth + rng.normal(0, 0.5, n)), 1, 5)
human = (a1 + a2) / 2.0
good = np.round(truth + rng.normal(0, 0.4, n), 3)
weak = np.round(truth + rng.normal(0, 1.6, n), 3)
items = [{"id": f"i{i:02d}", "group": f"g{i % 4}", "system": f"s{i // 4}"} for i in range(n)]


def coefficients(x):
    return {"pearson": stats.pearsonr(human, x)[0],
            "spearman": stats.spearmanr(human, x)[0],
            "kendall": stats.kendalltau(human, x, variant="b")[0]}


def z(v):
    return (v - v.mean()) / v.std()


def statistic(x, y):
    return stats.pearsonr(human, x)[0] - stats.pearsonr(human, y)[0]


perm = stats.permutation_test((z(good), z(weak)), statistic, permutation_type="samples",
                              n_resamples=np.inf, alternative="two-sided")

r12 = stats.pearsonr(human, good)[0]
r13 = stats.pearsonr(human, weak)[0]
r23 = stats.pearsonr(good, weak)[0]
k = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / math.sqrt(
    2 * k * (n - 1) / (n - 3) + (r12 + r13) ** 2 / 4 * (1 - r23) ** 3)
williams_p = 2 * stats.t.sf(abs(t), n - 3)

# Krippendorff's alpha, interval: 1 - D_o / D_e over the pairable values (every unit has two here).
values = np.concatenate([a1, a2])
d_o = np.mean((a1 - a2) ** 2)  # within-unit disagreement (m_u = 2: each pair counted both ways / (m_u - 1))
N = len(values)
d_e = sum((x - y) ** 2 for x in values for y in values) / (N * (N - 1))
alpha = 1 - d_o / d_e

json.dump({
    "items": items,
    "a1": a1.tolist(), "a2": a2.tolist(), "good": good.tolist(), "weak": weak.tolist(),
    "judges": {"good": coefficients(good), "weak": coefficients(weak)},
    "pair": {"difference": r12 - r13, "permutation_p": perm.pvalue, "williams_p": williams_p},
    "alpha": alpha,
}, __import__("sys").stdout, indent=1)
print()
