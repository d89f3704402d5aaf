#include "SyntheticJudge.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

namespace rubric::test {
namespace {

quint64 mix(const QString &text, quint64 salt)
{
    quint64 h = 1469598103934665603ull ^ salt; // FNV-1a, then splitmix64's finaliser
    for (const QChar c : text) {
        h ^= c.unicode();
        h *= 1099511628211ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

} // namespace

QString SyntheticJudge::oproProposal(const QString &prompt, qint64 seed)
{
    // The ranges: "- Part i: [0,1,2]".
    static const QRegularExpression rangeLine(QStringLiteral("^- Part (\\d): \\[([0-9,]*)\\]$"),
                                              QRegularExpression::MultilineOption);
    QVector<QVector<int>> ranges(8);
    for (auto it = rangeLine.globalMatch(prompt); it.hasNext();) {
        const auto m = it.next();
        for (const QString &v : m.captured(2).split(QLatin1Char(','), Qt::SkipEmptyParts))
            ranges[m.captured(1).toInt()].append(v.toInt());
    }
    // The history: "Prompt: {'Part 0': 1, …}\nScore: 0.5", ascending: the last is the best.
    static const QRegularExpression entry(QStringLiteral("Prompt: \\{([^}]*)\\}\\nScore: (\\S+)"));
    static const QRegularExpression part(QStringLiteral("'Part (\\d)': (\\d+)"));
    QVector<QVector<int>> shown;
    for (auto it = entry.globalMatch(prompt); it.hasNext();) {
        const auto m = it.next();
        QVector<int> values(8, 0);
        for (auto p = part.globalMatch(m.captured(1)); p.hasNext();) {
            const auto pm = p.next();
            values[pm.captured(1).toInt()] = pm.captured(2).toInt();
        }
        shown.append(values);
    }
    if (shown.isEmpty())
        return QStringLiteral("There is no history to improve on.");
    // One part of the best moved to another value of its range, not shown before.
    QVector<QVector<int>> candidates;
    for (int p = 0; p < 8; ++p)
        for (int v : std::as_const(ranges[p])) {
            QVector<int> c = shown.last();
            if (c[p] == v)
                continue;
            c[p] = v;
            if (!shown.contains(c))
                candidates.append(c);
        }
    if (candidates.isEmpty())
        candidates.append(shown.last()); // a repeat: the searcher spends the iteration
    const quint64 h = mix(prompt, quint64(seed));
    const QVector<int> &pick = candidates[qsizetype(h % quint64(candidates.size()))];
    QStringList parts;
    for (int p = 0; p < 8; ++p)
        parts << QStringLiteral("\"Part %1\" : %2").arg(p).arg(pick[p]);
    return QLatin1Char('{') + parts.join(QLatin1String(", ")) + QLatin1Char('}');
}

} // namespace rubric::test
