#include "stats/LabelSuggester.h"

#include <QHash>

#include <algorithm>
#include <cmath>
#include <random>

namespace rubric {

LabelSuggester::Stratum LabelSuggester::stratumFromName(const QString &name)
{
    if (name == QLatin1String("group"))
        return Stratum::Group;
    if (name == QLatin1String("system"))
        return Stratum::System;
    if (name == QLatin1String("disagreement"))
        return Stratum::Disagreement;
    return Stratum::None;
}

QString LabelSuggester::stratumName(Stratum stratum)
{
    switch (stratum) {
    case Stratum::Group:
        return QStringLiteral("group");
    case Stratum::System:
        return QStringLiteral("system");
    case Stratum::Disagreement:
        return QStringLiteral("disagreement");
    case Stratum::None:
        break;
    }
    return QStringLiteral("none");
}

QHash<QString, double> LabelSuggester::disagreement(const QVector<JudgeScore> &scores)
{
    // Mean and spread of each (judge, aspect) column.
    struct Moments
    {
        double sum = 0, sumSq = 0;
        int n = 0;
    };
    QHash<QString, Moments> columns;
    const auto column = [](const JudgeScore &s) -> QString { return s.judge + QChar(0x1f) + s.aspect; };
    for (const JudgeScore &s : scores) {
        if (std::isnan(s.score))
            continue;
        Moments &m = columns[column(s)];
        m.sum += s.score;
        m.sumSq += s.score * s.score;
        ++m.n;
    }
    // Per (item, aspect): the standardised scores of the judges.
    QHash<QString, QHash<QString, QVector<double>>> perItem;
    for (const JudgeScore &s : scores) {
        if (std::isnan(s.score))
            continue;
        const Moments &m = columns[column(s)];
        const double mean = m.sum / m.n;
        const double var = m.sumSq / m.n - mean * mean;
        if (m.n < 2 || var <= 1e-12)
            continue; // a constant judge says nothing about which item is hard
        perItem[s.item][s.aspect].append((s.score - mean) / std::sqrt(var));
    }
    QHash<QString, double> out;
    for (auto it = perItem.cbegin(); it != perItem.cend(); ++it) {
        double sum = 0;
        int aspects = 0;
        for (const QVector<double> &z : it.value()) {
            if (z.size() < 2)
                continue;
            double mean = 0;
            for (double v : z)
                mean += v;
            mean /= z.size();
            double ss = 0;
            for (double v : z)
                ss += (v - mean) * (v - mean);
            sum += std::sqrt(ss / (z.size() - 1));
            ++aspects;
        }
        if (aspects > 0)
            out.insert(it.key(), sum / aspects);
    }
    return out;
}

QStringList LabelSuggester::suggest(const QVector<Candidate> &candidates, Stratum stratum, int count, quint32 seed)
{
    std::mt19937 rng(seed);
    if (stratum == Stratum::Disagreement) {
        QVector<Candidate> order = candidates;
        std::shuffle(order.begin(), order.end(), rng);
        std::stable_sort(order.begin(), order.end(), [](const Candidate &a, const Candidate &b) {
            const bool an = std::isnan(a.disagreement), bn = std::isnan(b.disagreement);
            if (an != bn)
                return bn; // items with a figure first
            return !an && a.disagreement > b.disagreement;
        });
        QStringList out;
        for (int i = 0; i < order.size() && out.size() < count; ++i)
            out.append(order[i].id);
        return out;
    }
    QStringList keys;
    QHash<QString, QStringList> buckets;
    for (const Candidate &c : candidates) {
        const QString key = stratum == Stratum::Group ? c.group : stratum == Stratum::System ? c.system : QString();
        if (!buckets.contains(key))
            keys.append(key); // first-seen order keeps the result independent of hashing
        buckets[key].append(c.id);
    }
    std::shuffle(keys.begin(), keys.end(), rng);
    QVector<QStringList> order;
    for (const QString &k : std::as_const(keys)) {
        QStringList ids = buckets.value(k);
        std::shuffle(ids.begin(), ids.end(), rng);
        order.append(ids);
    }
    QStringList out;
    for (int round = 0; out.size() < count; ++round) {
        bool any = false;
        for (const QStringList &ids : std::as_const(order)) {
            if (round < ids.size()) {
                any = true;
                out.append(ids[round]);
                if (out.size() == count)
                    break;
            }
        }
        if (!any)
            break;
    }
    return out;
}

} // namespace rubric
