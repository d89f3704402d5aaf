#include "LabelSuggester.h"

#include <QHash>

#include <algorithm>
#include <random>

namespace rubric {

LabelSuggester::Stratum LabelSuggester::stratumFromName(const QString &name)
{
    if (name == QLatin1String("group"))
        return Stratum::Group;
    if (name == QLatin1String("system"))
        return Stratum::System;
    return Stratum::None;
}

QString LabelSuggester::stratumName(Stratum stratum)
{
    switch (stratum) {
    case Stratum::Group: return QStringLiteral("group");
    case Stratum::System: return QStringLiteral("system");
    case Stratum::None: break;
    }
    return QStringLiteral("none");
}

QStringList LabelSuggester::suggest(const QVector<Candidate> &candidates, Stratum stratum, int count, quint32 seed)
{
    std::mt19937 rng(seed);
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
