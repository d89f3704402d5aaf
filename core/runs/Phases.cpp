#include "Phases.h"

#include <algorithm>

namespace rubric::phases {

QStringList inRunOrder(const QStringList &names)
{
    static const QStringList order{QStringLiteral("literature-summary"),
                                   QStringLiteral("steps"),
                                   QStringLiteral("init"),
                                   QStringLiteral("init-score"),
                                   QStringLiteral("update"),
                                   QStringLiteral("wrong-generate"),
                                   QStringLiteral("refine"),
                                   QStringLiteral("wrong-score"),
                                   QStringLiteral("literature-only"),
                                   QStringLiteral("redundancy"),
                                   QStringLiteral("selection"),
                                   QStringLiteral("evaluate")};
    QStringList known, other;
    for (const QString &name : order)
        if (names.contains(name))
            known.append(name);
    for (const QString &name : names)
        if (!order.contains(name) && !other.contains(name))
            other.append(name);
    std::sort(other.begin(), other.end());
    return known + other;
}

QString estimateLine(const QVariantMap &perPhase, const QString &dash, const QString &separator, const QLocale &locale)
{
    QStringList parts;
    for (const QString &name : inRunOrder(perPhase.keys())) {
        const QVariant v = perPhase.value(name);
        const QVariantMap range = v.toMap();
        QString calls = locale.toString(v.toInt());
        if (!range.isEmpty()) {
            const QString lo = locale.toString(range.value(QStringLiteral("min")).toInt());
            const QString hi = locale.toString(range.value(QStringLiteral("max")).toInt());
            calls = lo == hi ? hi : lo + dash + hi;
        }
        parts.append(name + QLatin1Char(' ') + calls);
    }
    return parts.join(separator);
}

} // namespace rubric::phases
