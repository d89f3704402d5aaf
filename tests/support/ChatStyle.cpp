#include "ChatStyle.h"

#include "judge/AnswerParser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace rubric::test {
namespace {

quint64 styleHash(const QJsonObject &body)
{
    quint64 h = 1469598103934665603ull;
    for (const auto &m : body.value(QStringLiteral("messages")).toArray())
        for (const QChar c : m.toObject().value(QStringLiteral("content")).toString()) {
            h ^= c.unicode();
            h *= 1099511628211ull;
        }
    return h;
}

const QString preamble = QStringLiteral("I read it twice. There are 2 or 3 small slips in 1 paragraph, and the 4 main "
                                        "events are all there.\n\n");

QString styledScore(const QString &n, quint64 h, bool scaleOfFive)
{
    switch (h % (scaleOfFive ? 6 : 4)) {
    case 0:
        return QStringLiteral("**Score:** %1").arg(n);
    case 1:
        return preamble + QStringLiteral("**Final score: %1**").arg(n);
    case 2:
        return QStringLiteral("```json\n{\"reasoning\": \"2 slips, 1 repetition\", \"score\": %1}\n```").arg(n);
    case 3:
        return preamble + QStringLiteral("I'd give it a **%1**.").arg(n);
    case 4:
        return QStringLiteral("Score (1-5): %1").arg(n);
    default:
        return preamble + QStringLiteral("I would rate this a **%1** out of 5.").arg(n);
    }
}

} // namespace

FakeAnswer chatStyled(FakeAnswer answer, const QJsonObject &requestBody)
{
    if (answer.httpStatus != 200)
        return answer;
    const quint64 h = styleHash(requestBody);
    QString prompt;
    for (const auto &m : requestBody.value(QStringLiteral("messages")).toArray())
        prompt += m.toObject().value(QStringLiteral("content")).toString();
    QString &t = answer.text;
    static const QRegularExpression rating(QStringLiteral("Rating: \\[\\[(\\d+(?:\\.\\d+)?)\\]\\]"));
    static const QRegularExpression finalScore(QStringLiteral("\\{Final score: (-?\\d+(?:\\.\\d+)?)\\}"));
    static const QRegularExpression finalAnswer(QStringLiteral("Final answer: (yes|no)"));
    static const QRegularExpression yesNoLine(QStringLiteral("^Q(\\d+): (Yes|No)$"),
                                              QRegularExpression::MultilineOption);
    static const QRegularExpression leadingNumber(QStringLiteral("^(\\d+(?:\\.\\d+)?)(\\n|$)"));
    static const QRegularExpression generated(QStringLiteral("hypothesis\\d+\\."));
    if (generated.match(t).hasMatch())
        return answer; // a generated list, not a verdict
    if (const auto m = rating.match(t); m.hasMatch()) {
        // HPSS asks for "[[rating]]": a chat model keeps the brackets, but not the line.
        const QString n = m.captured(1);
        t = h % 2 ? preamble + QStringLiteral("My rating: **[[%1]]**").arg(n)
                  : QStringLiteral("**Rating:** [[%1]]\n\nThe text reads well on the whole.").arg(n);
    } else if (const auto f = finalScore.match(t); f.hasMatch()) {
        t = QStringLiteral("Step 1: the trait. Step 2: looked at it.\n\n") + styledScore(f.captured(1), h, false);
    } else if (const auto a = finalAnswer.match(t); a.hasMatch()) {
        t = t.left(a.capturedStart()) + QStringLiteral("**Final answer:** ") + a.captured(1);
    } else if (yesNoLine.match(t).hasMatch()) {
        QString out = QStringLiteral("Here are my answers (2 of them needed a second look):\n\n");
        int i = 0;
        for (auto it = yesNoLine.globalMatch(t); it.hasNext(); ++i) {
            const auto m = it.next();
            const QString q = m.captured(1), v = m.captured(2);
            switch ((h + quint64(i)) % 5) {
            case 0:
                out += QStringLiteral("Q%1: [%2]\n").arg(q, v);
                break;
            case 1:
                out += QStringLiteral("**Q%1:** %2\n").arg(q, v);
                break;
            case 2:
                out += QStringLiteral("- Q%1: **%2**\n").arg(q, v);
                break;
            case 3:
                out += QStringLiteral("Q%1. %2\n").arg(q, v);
                break;
            default:
                out += v == QLatin1String("Yes") ? QStringLiteral("Q%1: No obvious problem, so Yes\n").arg(q)
                                                 : QStringLiteral("Q%1: No, not quite.\n").arg(q);
            }
        }
        t = out;
    } else if (const auto n = leadingNumber.match(t); n.hasMatch()) {
        // A number-only verdict: G-Eval's form and HD-Eval's node score (score first, then reasons).
        const QString rest = t.mid(n.capturedEnd()).trimmed();
        if (prompt.contains(QLatin1String("Score (1-5):")))
            t = QStringLiteral("Score (1-5): %1\n\n%2").arg(n.captured(1), rest);
        else
            t = styledScore(n.captured(1), h, true) + (rest.isEmpty() ? QString() : QStringLiteral("\n\n") + rest);
        answer.topLogprobs.clear(); // a chat model's text answer: the score is in the words
    }
    return answer;
}

QJsonObject sentSchema(const QJsonObject &body)
{
    if (body.contains(QStringLiteral("response_format")))
        return body.value(QStringLiteral("response_format"))
                .toObject()
                .value(QStringLiteral("json_schema"))
                .toObject()
                .value(QStringLiteral("schema"))
                .toObject();
    for (const char *field : {"guided_json", "json_schema"})
        if (body.value(QLatin1String(field)).isObject())
            return body.value(QLatin1String(field)).toObject();
    return {};
}

namespace {

/// `text` as the schema's JSON, or as it is when it holds no verdict of the schema's kind.
QString asSchema(const QString &text, const QJsonObject &schema)
{
    const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
    QJsonObject out;
    if (properties.contains(QStringLiteral("score"))) {
        const ParsedAnswer p = AnswerParser::parseScore(text);
        if (!p.ok)
            return text;
        out.insert(QStringLiteral("reasoning"), text);
        out.insert(QStringLiteral("score"), p.score);
    } else if (properties.contains(QStringLiteral("Q1"))) {
        const ParsedAnswer p = AnswerParser::parseYesNo(text);
        if (!p.ok)
            return text;
        for (const QJsonValue &q : schema.value(QStringLiteral("required")).toArray())
            out.insert(q.toString(), p.answers.value(q.toString()) ? QStringLiteral("Yes") : QStringLiteral("No"));
    } else {
        return text;
    }
    return QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Compact));
}

} // namespace

FakeAnswer schemaStyled(FakeAnswer answer, const QJsonObject &requestBody)
{
    const QJsonObject schema = sentSchema(requestBody);
    if (schema.isEmpty())
        return answer;
    answer.text = asSchema(answer.text, schema);
    for (QString &more : answer.moreChoices)
        more = asSchema(more, schema);
    return answer;
}

} // namespace rubric::test
