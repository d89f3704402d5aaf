#!/usr/bin/python3
"""Reference values for tests/ui/TestAgreementGroups (CheckEval's inter-evaluator agreement by
group, as the paper's Tables 2, 23 and 4 report it), computed independently of rubric's C++ code.

Made with Debian 12's python3-scipy (scipy 1.10.1, numpy 1.24.2):
    /usr/bin/python3 tests/methods/make_checkeval_groups_reference.py > tests/methods/checkeval_groups_reference.json

Fixture: 10 evaluator models (the paper's names where it has them) and 2 people answer the same
checklist on 2 dimensions (coherence, fluency; 4 questions each) for 30 items; answers 1/0/null
drawn with a fixed seed, each model copying a shared truth with its own probability. Human
(Likert) scores: one per item and dimension. A judge's item score is the share of met answers
among those given (CheckEval's uniform score).

- Size and family from the model name by the rule the README states (re-implemented here).
- Groups: all, large, medium, small, each family, Top-3 (the three models with the highest mean
  over the dimensions of scipy's Spearman rho between the judge's item scores and the human
  score), people. With people: each group plus the people; "people" alone.
- alpha (nominal, coincidence matrix, missing allowed) and Fleiss' kappa (units every judge
  answered), written out by hand; average = mean over the dimensions with a figure.
- "override": the same with gemma-2-27b's size set to "large" by hand.
"""
import json
import math
import re
import warnings

import numpy as np
import scipy
from scipy import stats

warnings.simplefilter("ignore")
rng = np.random.default_rng(20261129)

models = {
    "meta-llama/Llama-3.1-70B-Instruct": 0.85,
    "mistralai/Mistral-Large-Instruct-2411": 0.9,
    "Qwen/Qwen2.5-72B-Instruct": 0.8,
    "mistralai/Mistral-Small-Instruct-2409": 0.7,
    "google/gemma-2-27b-it": 0.75,
    "Qwen/Qwen2.5-32B-Instruct": 0.65,
    "meta-llama/Llama-3.1-8B-Instruct": 0.4,
    "google/gemma-2-9b-it": 0.5,
    "gpt-4o": 0.88,
    "gpt-4o-mini": 0.6,
}
people = {"annotator-A": 0.8, "annotator-B": 0.75}
dims = ["coherence", "fluency"]
questions = ["q1", "q2", "q3", "q4"]
items = ["i%02d" % i for i in range(30)]


def short(model):
    return model.split("/")[-1].lower()


def judge_name(who, dim):
    return "%s@%s" % (short(who) if who in models else who, dim)


human = {d: {it: float(rng.integers(1, 6)) for it in items} for d in dims}
answers = {}  # judge -> question -> item -> 0/1/None
for d in dims:
    for q in questions:
        for it in items:
            truth = 1 if human[d][it] + rng.normal(0, 1.0) >= 3 else 0
            for who, p in list(models.items()) + list(people.items()):
                j = judge_name(who, d)
                answers.setdefault(j, {}).setdefault(q, {})
                if rng.random() < 0.1:
                    answers[j][q][it] = None
                else:
                    answers[j][q][it] = truth if rng.random() < p else int(rng.integers(0, 2))


def item_score(j, it):
    vals = [answers[j][q][it] for q in questions if answers[j][q][it] is not None]
    return sum(vals) / len(vals) if vals else None


def infer(model):
    name = model.strip().lower().split("/")[-1]
    m = re.search(r"(?<![a-z0-9.])(\d+)x(\d+(?:\.\d+)?)b(?![a-z])", name)
    billions = None
    if m:
        billions = float(m.group(1)) * float(m.group(2))
    else:
        counts = [float(c) for c in re.findall(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)b(?![a-z])", name)]
        billions = max(counts) if counts else None
    if billions is None and "mistral-large" in name:
        billions = 123
    if billions is None and "mistral-small" in name:
        billions = 22
    size = "" if billions is None else "large" if billions >= 60 else "medium" if billions >= 15 else "small"
    words = [w for w in re.findall(r"[a-z]+", name) if w != "meta"]
    first = words[0] if words else ""
    if first == "o" and not re.match(r"^o\d", name):
        first = ""
    fam = {"llama": "Llama", "mistral": "Mistral", "mixtral": "Mistral", "qwen": "Qwen", "gemma": "Gemma",
           "gpt": "GPT", "o": "GPT", "claude": "Claude", "gemini": "Gemini", "deepseek": "DeepSeek", "phi": "Phi"}
    family = fam.get(first, first[:1].upper() + first[1:] if first else "")
    return size, family


def alpha_nominal(units):
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
    pairs = sum(1 for u in units if sum(v is not None for v in u) >= 2)
    if d_e == 0:
        return float("nan"), pairs
    return 1.0 - (n - 1) * d_o / d_e, pairs


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


def none_if_nan(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else v


def rho_of(model):
    rs = []
    for d in dims:
        j = judge_name(model, d)
        pairs = [(item_score(j, it), human[d][it]) for it in items if item_score(j, it) is not None]
        if len(pairs) >= 3:
            r = stats.spearmanr([a for a, _ in pairs], [b for _, b in pairs])[0]
            if not math.isnan(r):
                rs.append(r)
    return sum(rs) / len(rs) if rs else float("nan")


def table(sizes, families, with_people):
    rho = {m: rho_of(m) for m in models}
    top3 = sorted([m for m in models if not math.isnan(rho[m])], key=lambda m: -rho[m])[:3]
    groups = [("all", list(models))]
    for s in ["large", "medium", "small"]:
        groups.append((s, [m for m in models if sizes[m] == s]))
    for f in sorted({families[m] for m in models if families[m]}, key=str.lower):
        groups.append(("family:" + f, [m for m in models if families[m] == f]))
    groups.append(("top3", top3))
    rows = {}
    for gid, members in groups:
        if not members:
            continue
        rows[gid] = figures_of([judge_name(m, "{d}") for m in members], with_people)
    if with_people:
        rows["people"] = figures_of([], True)
    return {"rho": rho, "top3": top3, "rows": rows}


def figures_of(templates, with_people):
    out = {"dims": {}}
    alphas, kappas = [], []
    for d in dims:
        js = [t.format(d=d) for t in templates]
        if with_people:
            js += [judge_name(p, d) for p in people]
        if len(js) < 2:
            out["dims"][d] = None
            continue
        units = [[answers[j][q][it] for j in js] for q in questions for it in items]
        units = [u for u in units if any(v is not None for v in u)]
        a, pairs = alpha_nominal(units)
        k, kunits = fleiss(units)
        out["dims"][d] = {"alpha": none_if_nan(a), "kappa": none_if_nan(k), "pairs": pairs, "kappa_units": kunits,
                          "judges": js}
        if not math.isnan(a):
            alphas.append(a)
        if not math.isnan(k):
            kappas.append(k)
    out["alpha"] = sum(alphas) / len(alphas) if alphas else None
    out["kappa"] = sum(kappas) / len(kappas) if kappas else None
    return out


sizes = {m: infer(m)[0] for m in models}
families = {m: infer(m)[1] for m in models}
override_sizes = dict(sizes)
override_sizes["google/gemma-2-27b-it"] = "large"

judge_scores = {}
for who in list(models) + list(people):
    for d in dims:
        j = judge_name(who, d)
        judge_scores[j] = {it: item_score(j, it) for it in items if item_score(j, it) is not None}

print(json.dumps({
    "made_with": "scipy %s, numpy %s" % (scipy.__version__, np.__version__),
    "models": list(models), "people": list(people), "dims": dims, "questions": questions, "items": items,
    "judges": {judge_name(w, d): {"who": w, "dim": d, "person": w in people}
               for w in list(models) + list(people) for d in dims},
    "human": human, "answers": answers, "judge_scores": judge_scores,
    "inferred": {m: {"size": sizes[m], "family": families[m]} for m in models},
    "llm_only": table(sizes, families, False),
    "with_people": table(sizes, families, True),
    "override": table(override_sizes, families, False),
}, indent=1, sort_keys=True))
