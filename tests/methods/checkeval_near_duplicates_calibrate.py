#!/usr/bin/python3
"""Calibration of CheckEval's near-duplicate flag (issue 30) on hand-labelled pairs.

    /usr/bin/python3 tests/methods/checkeval_near_duplicates_calibrate.py

Reads the published checklists (../shared/data/checkeval-checklists/checkeval_questions.json: per
aspect the union of the seed, diversification and elaboration files, a question counted once
after lower-casing and replacing what is not a letter or digit by a space) and the hand labels
(tests/methods/checkeval_near_duplicates.tsv: a pair not listed there is not a near duplicate),
and prints, for every within-aspect pair, the best threshold (highest F1) of each surface measure
with its precision and recall, then the counts of the measure the studio uses at its threshold
(QuestionSimilarity: mean of character 4-gram cosine and TF-IDF cosine of content-word stems,
idf over the aspect's questions; written independently of the C++ code here).
"""
import collections
import itertools
import json
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', '..', '..', 'shared', 'data', 'checkeval-checklists', 'checkeval_questions.json')
THRESHOLD = 0.39

STOP = set(("a an the is are was were be been being do does did of in on at to for from by with and or but if then "
            "than that this these those it its as any all each every there their they them what which who whom how "
            "whether not no yes into over under about between such so very more most much many can could should "
            "would will may might must has have had he she his her we our you your i me my up out also only other "
            "own same too just while during through within without").split())
SUFFIXES = ("ingly", "edly", "ness", "ment", "ations", "ation", "ities", "ity", "ies", "ing", "ed", "es", "ly", "s")


def norm(q):
    return ' '.join(re.sub(r'[^a-z0-9]', ' ', q.lower()).split())


def stem(w):
    for s in SUFFIXES:
        if w.endswith(s) and len(w) - len(s) >= 3:
            return w[:-len(s)]
    return w


def content(n):
    return [stem(w) for w in n.split() if w not in STOP]


def cos(a, b):
    dot = sum(v * b.get(k, 0) for k, v in a.items())
    den = math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))
    return dot / den if den else 0.0


def grams(n, k=4):
    s = ' ' + n + ' '
    return collections.Counter(s[i:i + k] for i in range(len(s) - k + 1))


def jac(a, b):
    a, b = set(a), set(b)
    return len(a & b) / len(a | b) if a | b else 0.0


def load():
    d = json.load(open(DATA))
    aspects = collections.OrderedDict()
    for path, v in d.items():
        ds = 'summeval' if 'summeval' in path else 'topical_chat'
        key = ds + '/' + path.split('/')[-1].rsplit('_', 1)[0]
        lst = aspects.setdefault(key, [])
        for qs in v['sub_aspect_questions'].values():
            for q in qs:
                q = q.strip()
                if q and norm(q) not in [norm(x) for x in lst]:
                    lst.append(q if q.endswith('?') else q + '?')
    return aspects


def labels():
    out = {}
    for line in open(os.path.join(HERE, 'checkeval_near_duplicates.tsv'), encoding='utf-8'):
        if line.startswith('#') or not line.strip():
            continue
        aspect, label, a, b = line.rstrip('\n').split('\t')
        out[(aspect, frozenset((norm(a), norm(b))))] = int(label)
    return out


def main():
    aspects = load()
    lab = labels()
    pairs = []
    for asp, qs in aspects.items():
        ns = [norm(q) for q in qs]
        df = collections.Counter(w for n in ns for w in set(content(n)))
        big_n = len(ns)

        def tfidf(n):
            c = collections.Counter(content(n))
            return {w: v * math.log((1 + big_n) / (1 + df[w])) for w, v in c.items()}

        for a, b in itertools.combinations(ns, 2):
            l = lab.get((asp, frozenset((a, b))), 0)
            m = {'token Jaccard': jac(a.split(), b.split()),
                 'content-word Jaccard': jac(content(a), content(b)),
                 'char 4-gram cosine': cos(grams(a), grams(b)),
                 'TF-IDF cosine': cos(tfidf(a), tfidf(b))}
            m['mean(char 4-gram, TF-IDF)'] = (m['char 4-gram cosine'] + m['TF-IDF cosine']) / 2
            pairs.append((asp, a, b, l, m))
    positives = sum(p[3] for p in pairs)
    print('%d questions, %d within-aspect pairs, %d labelled near duplicates'
          % (sum(len(v) for v in aspects.values()), len(pairs), positives))
    for name in pairs[0][4]:
        best = None
        for t in sorted({round(p[4][name], 3) for p in pairs}):
            tp = sum(1 for p in pairs if p[4][name] >= t and p[3])
            fp = sum(1 for p in pairs if p[4][name] >= t and not p[3])
            if tp == 0:
                continue
            pr, rc = tp / (tp + fp), tp / positives
            f1 = 2 * pr * rc / (pr + rc)
            if best is None or f1 > best[0]:
                best = (f1, t, pr, rc)
        print('  %-26s best F1 %.3f at >= %.3f: precision %.3f, recall %.3f' % ((name,) + best))
    name = 'mean(char 4-gram, TF-IDF)'
    tp = sum(1 for p in pairs if p[4][name] >= THRESHOLD and p[3])
    fp = sum(1 for p in pairs if p[4][name] >= THRESHOLD and not p[3])
    fn = positives - tp
    print('studio measure at >= %.2f: tp %d fp %d fn %d, precision %.3f, recall %.3f'
          % (THRESHOLD, tp, fp, fn, tp / (tp + fp), tp / positives))
    old = sum(1 for p in pairs if p[4]['token Jaccard'] >= 0.6)
    print('former flag (token Jaccard >= 0.6): %d pairs flagged' % old)


if __name__ == '__main__':
    main()
