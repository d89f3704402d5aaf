#include "Phases.h"

#include "methods/MethodRegistry.h"

#include <algorithm>

namespace rubric::phases {

QStringList inRunOrder(const QStringList &names)
{
    // Every method's phases in its run order, merged (a phase another method also has, like
    // "evaluate", stays after the phases each method puts before it).
    static const QStringList order = [] {
        QStringList merged;
        for (const MethodInfo &m : MethodRegistry::all()) {
            for (qsizetype i = 0; i < m.phases.size(); ++i) {
                if (merged.contains(m.phases[i]))
                    continue;
                qsizetype at = merged.size();
                for (qsizetype j = i + 1; j < m.phases.size() && at == merged.size(); ++j)
                    if (const auto k = merged.indexOf(m.phases[j]); k >= 0)
                        at = k;
                merged.insert(at, m.phases[i]);
            }
        }
        return merged;
    }();
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
