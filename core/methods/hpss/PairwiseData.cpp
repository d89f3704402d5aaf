#include "methods/hpss/PairwiseData.h"

#include "judge/AnswerParser.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace rubric::hpss {

namespace {

/// splitmix64 (Steele, Lea and Flood 2014): a small generator a test can re-implement exactly.
class SplitMix
{
public:
    explicit SplitMix(quint64 seed)
        : m_state(seed)
    {
    }
    quint64 next()
    {
        m_state += 0x9E3779B97F4A7C15ULL;
        quint64 z = m_state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

private:
    quint64 m_state;
};

} // namespace

QVector<PreferencePair> buildPairs(const QVector<PairSourceItem> &items, const PairOptions &options)
{
    QMap<QString, QVector<PairSourceItem>> groups; // ascending group name
    for (const PairSourceItem &item : items)
        if (std::isfinite(item.human))
            groups[item.group].append(item);
    SplitMix rng(options.seed);
    QVector<PreferencePair> out;
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        QVector<PairSourceItem> &g = it.value();
        std::sort(g.begin(), g.end(), [](const PairSourceItem &x, const PairSourceItem &y) { return x.id < y.id; });
        QVector<std::pair<int, int>> candidates;
        for (int i = 0; i < g.size(); ++i)
            for (int j = i + 1; j < g.size(); ++j)
                if (g[i].human != g[j].human)
                    candidates.append({i, j});
        const qsizetype cap = options.perGroup == PairOptions::kAllPairs    ? candidates.size()
                              : options.perGroup == PairOptions::kGroupSize ? g.size()
                                                                            : qsizetype(options.perGroup);
        if (cap < candidates.size()) {
            const quint64 n = quint64(candidates.size());
            for (quint64 t = 0; t < quint64(cap); ++t)
                std::swap(candidates[qsizetype(t)], candidates[qsizetype(t + rng.next() % (n - t))]);
            candidates.resize(cap);
            std::sort(candidates.begin(), candidates.end());
        }
        for (const auto &[i, j] : std::as_const(candidates)) {
            const bool swapped = (rng.next() & 1) != 0;
            const PairSourceItem &a = swapped ? g[j] : g[i];
            const PairSourceItem &b = swapped ? g[i] : g[j];
            out.append(PreferencePair{it.key(), a.id, b.id, a.human > b.human});
        }
    }
    return out;
}

QVector<int> examplePairsFor(const QVector<PreferencePair> &pool, int n, const QString &a, const QString &b,
                             quint64 seed)
{
    QVector<int> order(pool.size());
    for (int k = 0; k < order.size(); ++k)
        order[k] = k;
    SplitMix rng(seed);
    for (qsizetype t = order.size() - 1; t > 0; --t)
        std::swap(order[t], order[qsizetype(rng.next() % quint64(t + 1))]);
    QVector<int> out;
    for (int k : std::as_const(order)) {
        if (out.size() >= n)
            break;
        const PreferencePair &p = pool[k];
        if (p.a != a && p.a != b && p.b != a && p.b != b)
            out.append(k);
    }
    return out;
}

Verdict readVerdict(const QString &answer)
{
    const QString text = AnswerParser::withoutReasoning(answer);
    const std::pair<QString, Verdict> forms[] = {{QStringLiteral("[[A]]"), Verdict::A},
                                                 {QStringLiteral("[[B]]"), Verdict::B},
                                                 {QStringLiteral("[[C]]"), Verdict::Tie}};
    qsizetype last = -1;
    Verdict verdict = Verdict::Unparsed;
    for (const auto &[form, v] : forms) {
        const qsizetype at = text.lastIndexOf(form);
        if (at > last) {
            last = at;
            verdict = v;
        }
    }
    return verdict;
}

double pairAccuracy(const QVector<Verdict> &verdicts, const QVector<PreferencePair> &pairs, UnparsedPolicy policy,
                    int *counted)
{
    int n = 0, right = 0;
    for (qsizetype k = 0; k < std::min(verdicts.size(), pairs.size()); ++k) {
        const Verdict v = verdicts[k];
        if (v == Verdict::Unparsed && policy == UnparsedPolicy::Drop)
            continue;
        ++n;
        if ((v == Verdict::A && pairs[k].humanPrefersA) || (v == Verdict::B && !pairs[k].humanPrefersA))
            ++right;
    }
    if (counted)
        *counted = n;
    return n == 0 ? std::numeric_limits<double>::quiet_NaN() : double(right) / n;
}

} // namespace rubric::hpss
