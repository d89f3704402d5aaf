#include "Rouge.h"

#include <QHash>

#include <algorithm>
#include <vector>

namespace rubric::rouge {
namespace {

Score fromCounts(double overlap, double candidateCount, double referenceCount)
{
    Score s;
    if (candidateCount <= 0 || referenceCount <= 0)
        return s;
    s.precision = overlap / candidateCount;
    s.recall = overlap / referenceCount;
    s.f1 = (s.precision + s.recall) > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0;
    return s;
}

QHash<QString, int> ngrams(const QStringList &tokens, int n)
{
    QHash<QString, int> out;
    for (qsizetype i = 0; i + n <= tokens.size(); ++i)
        ++out[tokens.mid(i, n).join(QLatin1Char(' '))];
    return out;
}

} // namespace

QStringList tokenize(const QString &text)
{
    QStringList out;
    QString current;
    for (const QChar c : text) {
        if (c.isLetterOrNumber()) {
            current += c.toLower();
        } else if (!current.isEmpty()) {
            out.append(current);
            current.clear();
        }
    }
    if (!current.isEmpty())
        out.append(current);
    return out;
}

Score rougeN(const QStringList &candidate, const QStringList &reference, int n)
{
    const auto cand = ngrams(candidate, n);
    const auto ref = ngrams(reference, n);
    int overlap = 0;
    for (auto it = cand.begin(); it != cand.end(); ++it)
        overlap += std::min(it.value(), ref.value(it.key(), 0));
    const int candidateCount = std::max<int>(0, int(candidate.size()) - n + 1);
    const int referenceCount = std::max<int>(0, int(reference.size()) - n + 1);
    return fromCounts(overlap, candidateCount, referenceCount);
}

Score rougeL(const QStringList &candidate, const QStringList &reference)
{
    const qsizetype m = candidate.size(), n = reference.size();
    std::vector<int> prev(size_t(n + 1), 0), cur(size_t(n + 1), 0);
    for (qsizetype i = 1; i <= m; ++i) {
        for (qsizetype j = 1; j <= n; ++j)
            cur[size_t(j)] = candidate[i - 1] == reference[j - 1] ? prev[size_t(j - 1)] + 1
                                                                  : std::max(prev[size_t(j)], cur[size_t(j - 1)]);
        std::swap(prev, cur);
    }
    return fromCounts(prev[size_t(n)], double(m), double(n));
}

} // namespace rubric::rouge
