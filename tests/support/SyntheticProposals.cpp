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

const QVector<std::pair<QString, double>> &SyntheticJudge::apeSentences()
{
    static const QVector<std::pair<QString, double>> s = {
            {QStringLiteral("Read the whole text before you rate it."), -0.15},
            {QStringLiteral("Check each statement against the source."), -0.2},
            {QStringLiteral("Rate it as a careful human annotator would."), -0.25},
            {QStringLiteral("Consider how the ideas follow one another."), -0.1},
            {QStringLiteral("Keep the explanation to one sentence."), 0.1},
            {QStringLiteral("Trust your first impression."), 0.3},
    };
    return s;
}

QString SyntheticJudge::apeVariation(const QString &prompt, qint64 seed)
{
    const qsizetype in = prompt.indexOf(QLatin1String("\nInput: "));
    const qsizetype out = prompt.lastIndexOf(QLatin1String("\nOutput: "));
    if (in < 0 || out <= in)
        return QStringLiteral("A variation of nothing.");
    QString text = prompt.mid(in + 8, out - in - 8);
    const quint64 h = mix(text + QLatin1Char('|') + QString::number(seed), 41u);
    const auto insert = [&text](const QString &sentence) {
        const qsizetype at = text.indexOf(QLatin1String("Begin your evaluation"));
        if (at >= 0)
            text.insert(at, sentence + QLatin1Char(' '));
        else
            text.insert(std::max<qsizetype>(0, text.indexOf(QLatin1String("\n\n"))), QLatin1Char(' ') + sentence);
    };
    if (h % 16 == 0) { // now and then a variation with a placeholder of its own: unusable
        insert(QStringLiteral("Also weigh its {style}."));
        return text;
    }
    QStringList present, missing;
    for (const auto &[sentence, effect] : apeSentences())
        (text.contains(sentence) ? present : missing).append(sentence);
    const bool remove = !present.isEmpty() && (missing.isEmpty() || h % 16 <= 4);
    if (remove) {
        const QString sentence = present[int((h >> 8) % quint64(present.size()))];
        text.remove(sentence + QLatin1Char(' '));
        text.remove(QLatin1Char(' ') + sentence);
    } else {
        insert(missing[int((h >> 8) % quint64(missing.size()))]);
    }
    return text;
}

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
