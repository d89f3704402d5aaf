#include "judge/AnswerParser.h"

#include "util/Json.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <cmath>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::AnswerParser", text);
}

const QString number = QStringLiteral("([-+]?\\d+(?:\\.\\d+)?)");

// The last match: a judge's reasoning often quotes the scale ("Final score: 1 to 5") before it
// gives its own verdict (specs/hypoeval.md P5; AnswerText::reasoningBeforeScore cuts there too).
std::optional<double> lastMatch(const QString &text, const QRegularExpression &re)
{
    std::optional<double> last;
    auto it = re.globalMatch(text);
    while (it.hasNext()) {
        bool ok = false;
        const double v = it.next().captured(1).toDouble(&ok);
        if (ok)
            last = v;
    }
    return last;
}

// Reasoning blocks open models print before their answer (DeepSeek-R1, Qwen3, QwQ: <think>; some
// fine-tunes <thinking> or <reasoning>). Case-insensitive; the tag may carry attributes.
const QRegularExpression &thinkOpen()
{
    static const QRegularExpression re(QStringLiteral("<(think|thinking|reasoning)(?:\\s[^>]*)?>"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}

struct Split
{
    QString answer;
    QString thoughts;
};

// Cuts every think block out of `text`. A block that never closes leaves no answer after it (the
// budget ran out while the model was thinking). Some servers strip the opening tag and send only
// the thinking and "</think>": everything before a lone closing tag is reasoning too.
Split splitReasoning(const QString &text)
{
    Split out;
    QString rest = text;
    static const QRegularExpression loneClose(QStringLiteral("</(think|thinking|reasoning)>"),
                                              QRegularExpression::CaseInsensitiveOption);
    {
        const auto open = thinkOpen().match(rest);
        const auto close = loneClose.match(rest);
        if (close.hasMatch() && (!open.hasMatch() || close.capturedStart() < open.capturedStart())) {
            out.thoughts += rest.left(close.capturedStart()).trimmed();
            rest = rest.mid(close.capturedEnd());
        }
    }
    for (;;) {
        const auto open = thinkOpen().match(rest);
        if (!open.hasMatch())
            break;
        const QString closeTag = QStringLiteral("</") + open.captured(1) + QLatin1Char('>');
        const qsizetype end = rest.indexOf(closeTag, open.capturedEnd(), Qt::CaseInsensitive);
        const QString before = rest.left(open.capturedStart());
        if (end < 0) { // cut off inside the block
            if (!out.thoughts.isEmpty())
                out.thoughts += QLatin1Char('\n');
            out.thoughts += rest.mid(open.capturedEnd()).trimmed();
            rest = before;
            break;
        }
        if (!out.thoughts.isEmpty())
            out.thoughts += QLatin1Char('\n');
        out.thoughts += rest.mid(open.capturedEnd(), end - open.capturedEnd()).trimmed();
        rest = before + rest.mid(end + closeTag.size());
    }
    out.answer = rest.trimmed();
    return out;
}

} // namespace

QString AnswerParser::withoutReasoning(const QString &text)
{
    return splitReasoning(text).answer;
}

QString JudgeChoice::answer() const
{
    return splitReasoning(text).answer;
}

QString JudgeChoice::thoughts() const
{
    const QString inline_ = splitReasoning(text).thoughts;
    if (reasoning.isEmpty())
        return inline_;
    return inline_.isEmpty() ? reasoning : reasoning + QLatin1Char('\n') + inline_;
}

ParsedAnswer AnswerParser::parseScore(const QString &text)
{
    static const QRegularExpression rating(QStringLiteral("\\[\\[\\s*") + number + QStringLiteral("\\s*\\]\\]"));
    static const QRegularExpression finalScore(QStringLiteral("final\\s+(?:score|rating|answer)\\s*[:=]?\\s*\\**\\s*")
                                                       + number,
                                               QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression labelled(QStringLiteral("(?:score|rating)\\s*[:=]\\s*\\**\\s*") + number,
                                             QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression lone(QStringLiteral("^\\s*") + number
                                         + QStringLiteral("\\s*(?:/\\s*\\d+)?\\s*\\.?\\s*$"));
    ParsedAnswer p;
    p.raw = text;
    struct Rule
    {
        const QRegularExpression &re;
        ParsedAnswer::Method method;
    };
    const Rule rules[] = {{rating, ParsedAnswer::Method::Rating},
                          {finalScore, ParsedAnswer::Method::FinalScore},
                          {labelled, ParsedAnswer::Method::Number},
                          {lone, ParsedAnswer::Method::Number}};
    for (const Rule &r : rules) {
        if (auto v = lastMatch(text, r.re)) {
            p.ok = true;
            p.score = *v;
            p.method = r.method;
            return p;
        }
    }
    p.error = tr("no score found in the answer");
    return p;
}

ParsedAnswer AnswerParser::parseYesNo(const QString &text)
{
    static const QRegularExpression line(
            QStringLiteral(
                    "^\\s*[-*]?\\s*(?:\\*\\*)?(Q?\\s*\\d+)(?:\\*\\*)?\\s*[:.)\\-]\\s*(?:\\*\\*)?\\s*(yes|no)\\b"),
            QRegularExpression::CaseInsensitiveOption | QRegularExpression::MultilineOption);
    ParsedAnswer p;
    p.raw = text;
    auto it = line.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        QString id = m.captured(1).toUpper().remove(QLatin1Char(' '));
        if (!id.startsWith(QLatin1Char('Q')))
            id.prepend(QLatin1Char('Q'));
        p.answers.insert(id, m.captured(2).compare(QLatin1String("yes"), Qt::CaseInsensitive) == 0);
    }
    p.ok = !p.answers.isEmpty();
    if (p.ok) {
        p.method = ParsedAnswer::Method::YesNo;
        int yes = 0;
        for (bool b : std::as_const(p.answers))
            yes += b ? 1 : 0;
        p.score = double(yes) / double(p.answers.size());
    } else {
        p.error = tr("no yes/no answers found");
    }
    return p;
}

ParsedAnswer AnswerParser::parseJson(const QString &text, const QString &scoreField)
{
    ParsedAnswer p;
    p.raw = text;
    // Take the span from the first '{' to its matching '}' (strings and escapes respected).
    const qsizetype start = text.indexOf(QLatin1Char('{'));
    qsizetype end = -1;
    if (start >= 0) {
        int depth = 0;
        bool inString = false, escape = false;
        for (qsizetype i = start; i < text.size(); ++i) {
            const QChar c = text.at(i);
            if (inString) {
                if (escape)
                    escape = false;
                else if (c == QLatin1Char('\\'))
                    escape = true;
                else if (c == QLatin1Char('"'))
                    inString = false;
                continue;
            }
            if (c == QLatin1Char('"'))
                inString = true;
            else if (c == QLatin1Char('{'))
                ++depth;
            else if (c == QLatin1Char('}') && --depth == 0) {
                end = i;
                break;
            }
        }
    }
    if (start < 0 || end < 0) {
        p.error = tr("no JSON object found in the answer");
        return p;
    }
    QString err;
    const QVariant v = json::parse(text.mid(start, end - start + 1), &err);
    if (v.typeId() != QMetaType::QVariantMap) {
        p.error = tr("the JSON in the answer does not parse: %1").arg(err);
        return p;
    }
    p.ok = true;
    p.method = ParsedAnswer::Method::Json;
    p.json = v.toMap();
    if (!scoreField.isEmpty() && p.json.contains(scoreField)) {
        bool ok = false;
        const double s = p.json.value(scoreField).toDouble(&ok);
        if (ok)
            p.score = s;
    }
    return p;
}

ParsedAnswer AnswerParser::weightedScore(const JudgeChoice &choice, int min, int max)
{
    ParsedAnswer p;
    p.raw = choice.text;
    for (const auto &alternatives : choice.topLogprobs) {
        QMap<int, double> mass;
        for (const TokenLogprob &t : alternatives) {
            bool ok = false;
            const int v = t.token.trimmed().toInt(&ok);
            if (ok && v >= min && v <= max)
                mass[v] += std::exp(t.logprob); // " 3" and "3" are the same score
        }
        if (mass.isEmpty())
            continue;
        double total = 0;
        for (double m : std::as_const(mass))
            total += m;
        if (total <= 0)
            continue;
        double expected = 0;
        for (auto it = mass.cbegin(); it != mass.cend(); ++it) {
            p.distribution.insert(it.key(), it.value() / total);
            expected += it.key() * it.value() / total;
        }
        p.ok = true;
        p.method = ParsedAnswer::Method::Logprobs;
        p.score = expected;
        return p;
    }
    p.error = tr("no token of the scale %1–%2 among the returned logprobs").arg(min).arg(max);
    return p;
}

ParsedAnswer AnswerParser::scoreOf(const JudgeResponse &response, int min, int max)
{
    if (!response.choices.isEmpty() && !response.choices.first().topLogprobs.isEmpty()) {
        ParsedAnswer w = weightedScore(response.choices.first(), min, max);
        if (w.ok)
            return w;
    }
    ParsedAnswer p;
    p.raw = response.text();
    double sum = 0;
    int used = 0;
    for (const JudgeChoice &c : response.choices) {
        const ParsedAnswer s = parseScore(c.text);
        if (s.ok && s.score >= min && s.score <= max) {
            sum += s.score;
            ++used;
        }
    }
    if (used == 0) {
        p.error = response.choices.isEmpty() ? tr("the response has no answer")
                                             : tr("no score in %1–%2 found in the answer").arg(min).arg(max);
        return p;
    }
    p.ok = true;
    p.samplesUsed = used;
    p.score = sum / used;
    p.method = response.choices.size() > 1 ? ParsedAnswer::Method::SampleMean : parseScore(response.text()).method;
    if (p.method == ParsedAnswer::Method::None)
        p.method = ParsedAnswer::Method::SampleMean;
    return p;
}

bool AnswerParser::shouldReask(const ParsedAnswer &parsed, int attemptsSoFar, int maxAttempts)
{
    return !parsed.ok && attemptsSoFar < maxAttempts;
}

QString AnswerParser::methodName(ParsedAnswer::Method method)
{
    switch (method) {
    case ParsedAnswer::Method::None:
        return QStringLiteral("none");
    case ParsedAnswer::Method::Number:
        return QStringLiteral("number");
    case ParsedAnswer::Method::Rating:
        return QStringLiteral("rating");
    case ParsedAnswer::Method::FinalScore:
        return QStringLiteral("final-score");
    case ParsedAnswer::Method::YesNo:
        return QStringLiteral("yes-no");
    case ParsedAnswer::Method::Json:
        return QStringLiteral("json");
    case ParsedAnswer::Method::Logprobs:
        return QStringLiteral("logprobs");
    case ParsedAnswer::Method::SampleMean:
        return QStringLiteral("sample-mean");
    }
    return {};
}

} // namespace rubric
