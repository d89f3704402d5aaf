#include "AnswerText.h"

#include "judge/AnswerParser.h"

#include <QRegularExpression>

namespace rubric::answer {
namespace {

QString clean(QString s)
{
    s = s.simplified();
    while (s.startsWith(QLatin1Char('[')) && s.endsWith(QLatin1Char(']')) && s.size() > 2)
        s = s.mid(1, s.size() - 2).trimmed();
    if (s.endsWith(QLatin1Char(',')))
        s.chop(1);
    return s.trimmed();
}

QStringList splitAt(const QString &text, const QRegularExpression &marker)
{
    QStringList out;
    auto it = marker.globalMatch(text);
    qsizetype start = -1;
    while (it.hasNext()) {
        const auto m = it.next();
        if (start >= 0) {
            const QString part = clean(text.mid(start, m.capturedStart() - start));
            if (!part.isEmpty())
                out.append(part);
        }
        start = m.capturedEnd();
    }
    if (start >= 0) {
        const QString part = clean(text.mid(start));
        if (!part.isEmpty())
            out.append(part);
    }
    return out;
}

} // namespace

QStringList hypotheses(const QString &text)
{
    static const QRegularExpression tagged(QStringLiteral("\\bhypothesis\\s*\\d+\\s*[.:)]"),
                                           QRegularExpression::CaseInsensitiveOption);
    QStringList out = splitAt(text, tagged);
    if (!out.isEmpty())
        return out;
    static const QRegularExpression numbered(QStringLiteral("^\\s*\\d+\\s*[.)]\\s+"),
                                             QRegularExpression::MultilineOption);
    return splitAt(text, numbered);
}

QStringList steps(const QString &text)
{
    QStringList out = AnswerParser::parseList(text);
    if (!out.isEmpty())
        return out;
    for (const QString &line : AnswerParser::withoutReasoning(text).split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            out.append(line.trimmed());
    return out;
}

std::optional<bool> finalYesNo(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("final\\s+answer\\s*:?\\s*\\[?\\s*\\**\\s*(yes|no)\\b"),
                                       QRegularExpression::CaseInsensitiveOption);
    std::optional<bool> last;
    auto it = re.globalMatch(text);
    while (it.hasNext())
        last = it.next().captured(1).compare(QLatin1String("yes"), Qt::CaseInsensitive) == 0;
    return last;
}

QString reasoningBeforeScore(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("\\{?\\s*final\\s+score\\s*:"),
                                       QRegularExpression::CaseInsensitiveOption);
    qsizetype cut = -1;
    auto it = re.globalMatch(text);
    while (it.hasNext())
        cut = it.next().capturedStart();
    return (cut >= 0 ? text.left(cut) : text).trimmed();
}

} // namespace rubric::answer
