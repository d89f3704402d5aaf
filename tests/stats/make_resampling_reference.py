#!/usr/bin/python3
"""Reference values for tests/stats/TestResampling: the bootstraps and the permutation test of
rubric::stats recomputed here with numpy and scipy, drawing the SAME resamples from an independent
implementation of the draws that core/stats/Resampling.h documents:

- replicate i of a seed has its own stream: SplitMix64 (Steele, Lea & Flood 2014) started at
  key = mix64(mix64(seed XOR purpose) + i), purpose 1 for bootstrap replicates and 2 for
  permutations, where mix64 is SplitMix64's output function;
- an index below m is Lemire's exact multiply-and-reject draw on 32-bit halves of the stream's
  words, low half first (high half of x*m, a draw rejected when its low half is below 2^32 mod m);
- a bootstrap replicate draws n indices below n (items at the dataset level, groups at the group
  level); a permutation takes ceil(n/64) words and swaps the two judges' z-scored values of item k
  where bit k%64 of word k//64 is set.

Everything else is scipy: pearsonr, spearmanr, kendalltau(variant="b") on the drawn items, numpy's
percentile (linear) of the replicates with NaNs dropped, and the permutation p-value
(1 + #{|d*| >= |d| - 1e-12}) / (1 + permutations).

Made with Debian 12's python3-scipy (scipy 1.10.1, numpy 1.24.2):
    /usr/bin/python3 tests/stats/make_resampling_reference.py > tests/stats/resampling_reference.json
"""
import json
import math
import sys
import warnings

import numpy as np
from scipy import stats

warnings.simplefilter("ignore")  # scipy warns on constant input; the NaN it returns is what we record

M64 = (1 << 64) - 1


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class SplitMix64:
    def __init__(self, state):
        self.state = state
        self.spare = None

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & M64
        return mix64(self.state)

    def next32(self):
        if self.spare is not None:
            word, self.spare = self.spare, None
            return word
        word = self.next()
        self.spare = word >> 32
        return word & 0xFFFFFFFF

    def below(self, m):
        r = self.next32() * m
        low = r & 0xFFFFFFFF
        if low < m:
            threshold = ((1 << 32) - m) % m
            while low < threshold:
                r = self.next32() * m
                low = r & 0xFFFFFFFF
        return r >> 32


def stream(seed, purpose, i):
    return SplitMix64(mix64((mix64(seed ^ purpose) + i) & M64))


BOOTSTRAP, PERMUTATION = 1, 2


def coefficient(name, x, y):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return float("nan")
    if name == "pearson":
        return float(stats.pearsonr(x, y)[0])
    if name == "spearman":
        return float(stats.spearmanr(x, y)[0])
    return float(stats.kendalltau(x, y, variant="b")[0])


NAMES = ("pearson", "spearman", "kendall")


def interval(values):
    v = np.array([x for x in values if not math.isnan(x)])
    if len(v) == 0:
        return [None, None]
    return [float(np.percentile(v, 2.5)), float(np.percentile(v, 97.5))]


def nullable(v):
    return None if math.isnan(v) else v


# The data: 48 items in 12 groups (documents) of 4, by 4 systems; human means on a half-point scale,
# judges on quarter points, so every coefficient meets ties. Group g3 has constant human scores.
rng = np.random.default_rng(20261129)
n = 48
truth = rng.normal(3.0, 1.0, n)
human = np.clip(np.round(2 * (truth + rng.normal(0, 0.4, n))) / 2, 1, 5)
human[12:16] = 3.0
a = np.clip(np.round(4 * (truth + rng.normal(0, 0.5, n))) / 4, 1, 5)
b = np.clip(np.round(4 * (truth + rng.normal(0, 1.2, n))) / 4, 1, 5)
group = [f"g{i // 4}" for i in range(n)]
system = [f"s{i % 4}" for i in range(n)]
seed = 20261129
resamples = 400
permutations = 400

out = {"human": human.tolist(), "a": a.tolist(), "b": b.tolist(), "group": group, "system": system, "seed": seed,
       "resamples": resamples, "permutations": permutations}

# Dataset level: items resampled.
reps = {k: [] for k in NAMES}
diff_reps = {k: [] for k in NAMES}
for i in range(resamples):
    g = stream(seed, BOOTSTRAP, i)
    idx = [g.below(n) for _ in range(n)]
    for k in NAMES:
        ra = coefficient(k, human[idx], a[idx])
        reps[k].append(ra)
        diff_reps[k].append(ra - coefficient(k, human[idx], b[idx]))
out["dataset_level"] = {k: {"point": coefficient(k, human, a), "ci": interval(reps[k]),
                      "difference_ci": interval(diff_reps[k])} for k in NAMES}

# Group level (constant groups skipped): each group's coefficient, averaged over the drawn groups.
groups = sorted(set(group), key=group.index)


def group_values(judge):
    values = {}
    for gname in groups:
        rows = [i for i in range(n) if group[i] == gname]
        values[gname] = {k: coefficient(k, human[rows], judge[rows]) for k in NAMES}
    return values


va, vb = group_values(a), group_values(b)


def mean_skipping_nan(values):
    v = [x for x in values if not math.isnan(x)]
    return sum(v) / len(v) if v else float("nan")


reps = {k: [] for k in NAMES}
diff_reps = {k: [] for k in NAMES}
for i in range(resamples):
    g = stream(seed, BOOTSTRAP, i)
    drawn = [groups[g.below(len(groups))] for _ in groups]
    for k in NAMES:
        ma = mean_skipping_nan([va[d][k] for d in drawn])
        reps[k].append(ma)
        diff_reps[k].append(ma - mean_skipping_nan([vb[d][k] for d in drawn]))
out["group_level"] = {k: {"point": mean_skipping_nan([va[gname][k] for gname in groups]), "ci": interval(reps[k]),
                    "difference_ci": interval(diff_reps[k])} for k in NAMES}


# Paired permutation test of the Pearson difference at the dataset level.
def z(v):
    return (v - v.mean()) / v.std()


za, zb = z(a), z(b)
d = coefficient("pearson", human, a) - coefficient("pearson", human, b)
hits = 0
for i in range(permutations):
    g = stream(seed, PERMUTATION, i)
    words = [g.next() for _ in range((n + 63) // 64)]
    swap = np.array([(words[k >> 6] >> (k & 63)) & 1 for k in range(n)], dtype=bool)
    pa = np.where(swap, zb, za)
    pb = np.where(swap, za, zb)
    dd = coefficient("pearson", human, pa) - coefficient("pearson", human, pb)
    hits += (not math.isnan(dd)) and abs(dd) >= abs(d) - 1e-12
out["permutation"] = {"difference": d, "p": (1 + hits) / (1 + permutations)}

# The first words of two streams, for the generator alone.
out["stream_words"] = [stream(seed, BOOTSTRAP, 0).next(), stream(0, PERMUTATION, 7).next()]
out["stream_words"] = [str(w) for w in out["stream_words"]]

json.dump(out, sys.stdout, indent=1, default=nullable)
print()
