#!/usr/bin/python3
"""Times scipy on the same workload as `rubric bench stats --n N` (N pairs, y = 0.5·x + noise,
best of 3), to quote the ratio. Usage: /usr/bin/python3 tests/stats/bench_scipy.py [N]
Prints one JSON line with wall and CPU milliseconds per coefficient."""
import json
import sys
import time

import numpy as np
import scipy
from scipy import stats

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
rng = np.random.default_rng(1)
x = rng.normal(size=n)
y = 0.5 * x + rng.normal(size=n)
out = {"n": n, "scipy": scipy.__version__}
for name, fn in (("pearson", lambda: stats.pearsonr(x, y)[0]),
                 ("spearman", lambda: stats.spearmanr(x, y)[0]),
                 ("kendall", lambda: stats.kendalltau(x, y)[0])):
    wall = cpu = float("inf")
    for _ in range(3):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - w)
        cpu = min(cpu, time.process_time() - c)
    out[name + "_ms"] = round(wall * 1000, 2)
    out[name + "_cpu_ms"] = round(cpu * 1000, 2)
print(json.dumps(out))
