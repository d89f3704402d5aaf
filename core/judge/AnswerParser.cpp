#include "judge/AnswerParser.h"

#include "util/Json.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <optional>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::AnswerParser", text);
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

namespace {

// --- The careful reader's helpers -------------------------------------------------------------

const QString numberWords = QStringLiteral("zero|one|two|three|four|five|six|seven|eight|nine|ten");

double wordValue(const QString &w)
{
    static const QStringList words = numberWords.split(QLatin1Char('|'));
    return double(words.indexOf(w.toLower()));
}

// Markdown out, plain words in: emphasis, code ticks, headers and table bars go; a number word that
// stands as a score ("a score of one.", "scoring a four out of five") becomes its digit. A number
// word in running prose ("one of the") stays a word.
QString plainText(const QString &answer)
{
    QString t = answer;
    static const QRegularExpression fence(QStringLiteral("```[a-zA-Z]*"));
    t.replace(fence, QString());
    static const QRegularExpression emphasis(QStringLiteral("\\*\\*|__|(?<![\\w*])\\*(?=\\S)|(?<=\\S)\\*(?![\\w*])|`"));
    t.replace(emphasis, QString());
    static const QRegularExpression header(QStringLiteral("^\\s*#{1,6}\\s*"), QRegularExpression::MultilineOption);
    t.replace(header, QString());
    t.replace(QChar(0xFF1A), QLatin1Char(':')); // full-width colon
    t.replace(QChar(0x2013), QLatin1Char('-'));
    t.replace(QChar(0x2014), QLatin1Char('-'));
    t.replace(QChar(0x2044), QLatin1Char('/'));
    static const QRegularExpression word(
            QStringLiteral("\\b(") + numberWords
                    + QStringLiteral(
                            ")\\b(?=\\s*(?:[.,;:!?)\\]]|$|out\\s+of\\b|/|for\\b|points?\\b|stars?\\b|and\\b))"),
            QRegularExpression::CaseInsensitiveOption | QRegularExpression::MultilineOption);
    QString out;
    qsizetype at = 0;
    for (auto it = word.globalMatch(t); it.hasNext();) {
        const auto m = it.next();
        out += t.mid(at, m.capturedStart() - at) + QString::number(int(wordValue(m.captured(1))));
        at = m.capturedEnd();
    }
    out += t.mid(at);
    return out;
}

struct Candidate
{
    double value = 0;
    double outOf = 0;       ///< the "M" of "N out of M" / "N/M" (0 = none stated)
    int strength = 0;       ///< higher wins: 4 [[n]], 3 labelled or a verdict verb, 2 "N out of M", 1 a lone number
    qsizetype at = 0;       ///< where its number stands (the last of the strongest kind is the verdict)
    bool ambiguous = false; ///< "3 or 4", "3-4": two scores at once
    ParsedAnswer::Method method = ParsedAnswer::Method::Number;
    const char *rule = "";
};

const QString num = QStringLiteral("(\\d+(?:\\.\\d+)?)");
// What may follow a score for it to be one: the end, punctuation, "out of", "/", a unit, "for …".
const QString scoreEnd = QStringLiteral(
        "(?=\\s*(?:$|[.,;:!?)\\]]|out\\s+of\\b|/|for\\b|on\\b|in\\b|points?\\b|stars?\\b|overall\\b|as\\b|\\(|-|"
        "or\\b|to\\b|and\\b|because\\b|since\\b|as\\b|due\\b|with\\b|but\\b|which\\b))");
const QString outOfTail = QStringLiteral("(?:\\s*(?:/|out\\s+of)\\s*(\\d+)(?![\\d/]))?");

void collect(QVector<Candidate> &out, const QString &text, const QRegularExpression &re, int strength,
             ParsedAnswer::Method method, const char *rule, int numberGroup = 1, int outOfGroup = 2)
{
    static const QRegularExpression alternative(QStringLiteral("^\\s*(?:-|or|to)\\s*(?:a\\s+)?\\d"),
                                                QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression rangeTo(QStringLiteral("^\\s*to\\s*\\d"),
                                            QRegularExpression::CaseInsensitiveOption);
    for (auto it = re.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        bool ok = false;
        Candidate c;
        c.value = m.captured(numberGroup).toDouble(&ok);
        if (!ok)
            continue;
        c.outOf = outOfGroup > 0 ? m.captured(outOfGroup).toDouble() : 0;
        c.strength = strength;
        // One number, one reading: the rule collected first ("Final score: 4" before "score: 4") names it.
        c.at = m.capturedStart(numberGroup);
        if (std::any_of(out.cbegin(), out.cend(), [&c](const Candidate &o) { return o.at == c.at; }))
            continue;
        c.method = method;
        c.rule = rule;
        const QString after = text.mid(m.capturedEnd(numberGroup), 12);
        if (c.outOf == 0 && rangeTo.match(after).hasMatch() && strength < 3)
            continue; // "a scale of 1 to 5" states the scale, not a score
        c.ambiguous = c.outOf == 0 && alternative.match(after).hasMatch();
        out.append(c);
    }
}

// The JSON object of an answer (fenced or bare) and a numeric score member in it.
std::optional<double> jsonScore(const QString &answer)
{
    const ParsedAnswer j = AnswerParser::parseJson(answer, QString());
    if (!j.ok)
        return std::nullopt;
    static const QStringList names{QStringLiteral("score"),         QStringLiteral("rating"),
                                   QStringLiteral("final_score"),   QStringLiteral("finalscore"),
                                   QStringLiteral("overall_score"), QStringLiteral("overall"),
                                   QStringLiteral("grade"),         QStringLiteral("final_rating")};
    for (auto it = j.json.cbegin(); it != j.json.cend(); ++it) {
        if (!names.contains(it.key().toLower().remove(QLatin1Char(' '))))
            continue;
        bool ok = false;
        const double v = it.value().toString().trimmed().toDouble(&ok);
        if (ok)
            return v;
        if (it.value().typeId() == QMetaType::Double || it.value().typeId() == QMetaType::Int
            || it.value().typeId() == QMetaType::LongLong)
            return it.value().toDouble();
    }
    return std::nullopt;
}

bool cutOffInThought(const QString &text)
{
    const auto open = thinkOpen().match(text);
    if (!open.hasMatch())
        return false;
    return text.indexOf(QStringLiteral("</") + open.captured(1) + QLatin1Char('>'), open.capturedEnd(),
                        Qt::CaseInsensitive)
           < 0;
}

} // namespace

ParsedAnswer AnswerParser::parseScore(const QString &text)
{
    return readScore(text, ScoreRules{});
}

ParsedAnswer AnswerParser::readScore(const QString &text, const ScoreRules &rules)
{
    ParsedAnswer p;
    p.raw = text;
    const QString answer = withoutReasoning(text);
    if (answer.isEmpty()) {
        p.error = cutOffInThought(text) ? tr("the answer was cut off while the model was reasoning")
                                        : tr("the answer is empty");
        return p;
    }
    const auto inScale = [&rules](double v) {
        return (std::isnan(rules.min) || v >= rules.min) && (std::isnan(rules.max) || v <= rules.max);
    };
    const auto accept = [&](double value, ParsedAnswer::Method method, const char *rule, double outOf) {
        if (!inScale(value)) {
            p.error = tr("the answer's score %1 lies outside the scale %2–%3").arg(value).arg(rules.min).arg(rules.max);
            return p;
        }
        p.ok = true;
        p.score = value;
        p.method = method;
        p.rule = QString::fromLatin1(rule);
        p.outOf = outOf;
        return p;
    };

    if (const auto j = jsonScore(answer))
        return accept(*j, ParsedAnswer::Method::Json, "json", 0);

    const QString t = plainText(answer);
    QVector<Candidate> found;
    static const QRegularExpression rating(QStringLiteral("\\[\\[\\s*") + num + QStringLiteral("\\s*\\]\\]"));
    collect(found, t, rating, 4, ParsedAnswer::Method::Rating, "[[n]]", 1, 0);
    if (rules.singleBrackets) {
        static const QRegularExpression single(QStringLiteral("(?<!\\[)\\[\\s*") + num
                                               + QStringLiteral("\\s*\\](?!\\])"));
        collect(found, t, single, 4, ParsedAnswer::Method::Rating, "[n]", 1, 0);
    }
    static const QRegularExpression finalLabel(
            QStringLiteral(
                    "\\bfinal\\s+(?:score|rating|grade|answer|verdict|evaluation)s?\\b(?:\\s*\\([^)\\n]{0,40}\\))?"
                    "(?:\\s+(?:for|on)\\s+[\\w -]{1,30}?)?\\s*(?:[:=]|\\bis\\b|\\bof\\b|would\\s+be|\\bas\\b)?\\s*"
                    "[{(\\[]?\\s*(?:a|an)?\\s*")
                    + num + outOfTail,
            QRegularExpression::CaseInsensitiveOption);
    collect(found, t, finalLabel, 3, ParsedAnswer::Method::FinalScore, "final score");
    static const QRegularExpression labelled(
            QStringLiteral("\\b(?:overall\\s+|total\\s+|my\\s+)?(?:score|rating|grade|evaluation|verdict|mark)s?\\b"
                           "(?:\\s*\\([^)\\n]{0,40}\\))?(?:\\s+(?:for|on)\\s+[\\w -]{1,30}?)?"
                           "\\s*(?:[:=]|\\bis\\b|\\bof\\b|would\\s+be|should\\s+be|\\bas\\b|-)\\s*"
                           "[{(\\[]?\\s*(?:a|an|about|around|roughly|approximately)?\\s*")
                    + num + outOfTail,
            QRegularExpression::CaseInsensitiveOption);
    collect(found, t, labelled, 3, ParsedAnswer::Method::Number, "labelled");
    static const QRegularExpression verb(
            QStringLiteral("\\b(?:rate|rated|rating|give|gave|giving|assign|assigned|assigning|award|awarded|awarding|"
                           "scor(?:e|es|ed|ing)|earn(?:s|ed|ing)?|deserv(?:e|es|ed|ing)|gets?|getting|"
                           "receiv(?:e|es|ed|ing)|merits?|warrants?)\\b"
                           "(?:\\s+(?:it|this|that|them|the\\s+\\w+|this\\s+\\w+|the\\s+\\w+\\s+\\w+))?"
                           "(?:\\s+(?:a|an|at|only|just|solid|strong|low|high))*\\s+")
                    + num + outOfTail + scoreEnd,
            QRegularExpression::CaseInsensitiveOption);
    collect(found, t, verb, 3, ParsedAnswer::Method::Number, "verdict verb");
    static const QRegularExpression outOf(QStringLiteral("(?<![\\d./])") + num
                                                  + QStringLiteral("\\s*(?:/|out\\s+of)\\s*(\\d+)(?![\\d/])"),
                                          QRegularExpression::CaseInsensitiveOption);
    collect(found, t, outOf, 2, ParsedAnswer::Method::Number, "n out of m");
    // A number standing alone: a line of its own, or the answer's last sentence ("… details. 4.").
    static const QRegularExpression loneLine(QStringLiteral("^[\\s>\\-]*[{(\\[]?\\s*") + num
                                                     + QStringLiteral("\\s*[})\\]]?\\s*(?:/\\s*(\\d+))?\\s*[.!]?\\s*$"),
                                             QRegularExpression::MultilineOption);
    collect(found, t, loneLine, 1, ParsedAnswer::Method::Number, "lone number");
    static const QRegularExpression lastSentence(QStringLiteral("[.!?:]\\s+") + num
                                                 + QStringLiteral("\\s*(?:/\\s*(\\d+))?\\s*\\.?\\s*$"));
    collect(found, t, lastSentence, 1, ParsedAnswer::Method::Number, "lone number");

    if (found.isEmpty()) {
        p.error = tr("no score found in the answer");
        return p;
    }
    int strongest = 0;
    for (const Candidate &c : std::as_const(found))
        strongest = std::max(strongest, c.strength);
    const Candidate *last = nullptr;
    if (rules.firstLone && strongest <= 2) {
        // A prompt that ends "Score (1-5):" and asks for the score first: a number alone on the
        // answer's first line is that score; a count in the reasons that follow ("2 out of 5 key
        // points", "1/5 of the events") is not. A labelled score or a verdict still comes first.
        const qsizetype start = t.indexOf(QRegularExpression(QStringLiteral("\\S")));
        const qsizetype lineEnd = start < 0 ? -1 : t.indexOf(QLatin1Char('\n'), start);
        for (const Candidate &c : std::as_const(found))
            if (c.strength == 1 && c.at >= start && (lineEnd < 0 || c.at < lineEnd) && (!last || c.at < last->at))
                last = &c;
    }
    const bool opening = last != nullptr; // the opening line's number (above) is the score
    for (const Candidate &c : std::as_const(found)) {
        if (opening || c.strength != strongest)
            continue;
        const bool first = rules.firstLone && strongest == 1;
        if (!last || (first ? c.at < last->at : c.at >= last->at))
            last = &c;
    }
    if (last->ambiguous) {
        p.error = tr("the answer gives two scores at once");
        return p;
    }
    // A stated denominator that is not the scale's ("8/10" on 1–5) is another scale: not a score here.
    if (last->outOf > 0 && !std::isnan(rules.max) && last->outOf != rules.max && last->value > rules.max) {
        p.error = tr("the answer scores %1 out of %2, not on the scale %3–%4")
                          .arg(last->value)
                          .arg(last->outOf)
                          .arg(rules.min)
                          .arg(rules.max);
        return p;
    }
    return accept(last->value, last->method, last->rule, last->outOf);
}

ParsedAnswer AnswerParser::parseYesNo(const QString &text)
{
    ParsedAnswer p;
    p.raw = text;
    const QString answer = withoutReasoning(text);
    // A JSON object of answers: {"Q1": "Yes", "Q2": false}
    if (const ParsedAnswer j = parseJson(answer, QString()); j.ok) {
        static const QRegularExpression key(QStringLiteral("^\\s*(?:q|question)?\\s*(\\d+)\\s*$"),
                                            QRegularExpression::CaseInsensitiveOption);
        for (auto it = j.json.cbegin(); it != j.json.cend(); ++it) {
            const auto m = key.match(it.key());
            if (!m.hasMatch())
                continue;
            const QString v = it.value().toString().trimmed().toLower();
            if (v == QLatin1String("yes") || v == QLatin1String("true"))
                p.answers.insert(QStringLiteral("Q") + m.captured(1), true);
            else if (v == QLatin1String("no") || v == QLatin1String("false"))
                p.answers.insert(QStringLiteral("Q") + m.captured(1), false);
        }
    }
    if (p.answers.isEmpty()) {
        static const QRegularExpression strip(QStringLiteral("\\*\\*|__|`|\\[|\\]"));
        static const QRegularExpression line(
                QStringLiteral("^[\\s>]*(?:[-*+]\\s+)?(?:#{1,6}\\s*)?(?:(?:q|question)\\s*(\\d+)|(\\d+))\\s*"
                               "(?:[:.)\\-]|\\s(?=\\s*(?:yes|no)\\b))\\s*(.*)$"),
                QRegularExpression::CaseInsensitiveOption | QRegularExpression::MultilineOption);
        static const QRegularExpression leading(QStringLiteral("^[\\s\"'*_(]*(yes|no)\\b\\s*(?:$|[.,;:!)\\-\"'(])"),
                                                QRegularExpression::CaseInsensitiveOption);
        static const QRegularExpression verdict(QStringLiteral("\\b(yes|no)\\b(?=\\s*(?:$|[.,;:!)\"']))"),
                                                QRegularExpression::CaseInsensitiveOption);
        QString plain = answer;
        plain.replace(strip, QString());
        for (auto it = line.globalMatch(plain); it.hasNext();) {
            const auto m = it.next();
            const QString id = QStringLiteral("Q") + (m.captured(1).isEmpty() ? m.captured(2) : m.captured(1));
            const QString rest = m.captured(3);
            std::optional<bool> said;
            if (const auto l = leading.match(rest); l.hasMatch()) {
                said = l.captured(1).compare(QLatin1String("yes"), Qt::CaseInsensitive) == 0;
            } else {
                // "No obvious errors, so Yes": the verdict is the last yes/no that ends a clause.
                for (auto v = verdict.globalMatch(rest); v.hasNext();)
                    said = v.next().captured(1).compare(QLatin1String("yes"), Qt::CaseInsensitive) == 0;
            }
            if (said && !p.answers.contains(id))
                p.answers.insert(id, *said);
        }
    }
    p.ok = !p.answers.isEmpty();
    if (p.ok) {
        p.method = ParsedAnswer::Method::YesNo;
        int yes = 0;
        for (bool b : std::as_const(p.answers))
            yes += b ? 1 : 0;
        p.score = double(yes) / double(p.answers.size());
    } else {
        p.error = answer.isEmpty() && cutOffInThought(text) ? tr("the answer was cut off while the model was reasoning")
                                                            : tr("no yes/no answers found");
    }
    return p;
}

QStringList AnswerParser::parseList(const QString &text)
{
    const QString answer = withoutReasoning(text);
    static const QRegularExpression item(
            QStringLiteral("^[\\s>]*(?:[-*+•]\\s+|(?:#{1,6}\\s*)?(?:\\*\\*)?\\(?\\d+[.):]\\)?(?:\\*\\*)?\\s+)(.+)$"));
    static const QRegularExpression emphasis(QStringLiteral("\\*\\*|__|`"));
    QStringList out;
    bool open = false; // the last line belonged to an item: a line that follows it continues it
    for (const QString &line : answer.split(QLatin1Char('\n'))) {
        if (const auto m = item.match(line); m.hasMatch()) {
            out.append(m.captured(1));
            open = true;
        } else if (line.trimmed().isEmpty()) {
            open = false;
        } else if (open) {
            out.last() += QLatin1Char(' ') + line;
        }
    }
    for (QString &s : out)
        s = s.replace(emphasis, QString()).simplified();
    out.removeAll(QString());
    return out;
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
    // A model that thinks in the text (<think>…</think>) returns logprobs for its thinking too: the
    // score is the first scale token after the thinking, never a digit inside it.
    qsizetype skip = 0;
    if (thinkOpen().match(choice.text).hasMatch() && splitReasoning(choice.text).answer != choice.text.trimmed()) {
        QString said;
        static const QRegularExpression closing(QStringLiteral("</(think|thinking|reasoning)>"),
                                                QRegularExpression::CaseInsensitiveOption);
        while (skip < choice.topLogprobs.size()) {
            const auto &alternatives = choice.topLogprobs.at(skip++);
            if (!alternatives.isEmpty())
                said += alternatives.first().token;
            if (closing.match(said).hasMatch())
                break;
        }
        if (!closing.match(said).hasMatch()) {
            p.error = tr("the answer was cut off while the model was reasoning");
            return p;
        }
    }
    for (const auto &alternatives : choice.topLogprobs.mid(skip)) {
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
    p.raw = response.rawText();
    double sum = 0;
    int used = 0;
    for (const JudgeChoice &c : response.choices) {
        const ParsedAnswer s = readScore(c.text, ScoreRules{double(min), double(max)});
        if (s.ok) {
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

QVector<OutlineEntry> AnswerParser::parseOutline(const QString &text)
{
    // A line: optional markdown header marks or a bullet, then an optional number (bold or not,
    // with an optional "Key component" / "Component" / "Sub-aspect" word before it), then the text.
    static const QRegularExpression header(QStringLiteral("^#{1,6}\\s*(.*)$"));
    static const QRegularExpression bullet(QStringLiteral("^[-*+•]\\s+(.*)$"));
    static const QRegularExpression numbered(QStringLiteral("^(?:(?:key\\s+)?(?:component|sub-?aspect|section|part)\\s+"
                                                            ")?\\(?(\\d+(?:[-.]\\d+)*)[.):]?\\s+(.*)$"),
                                             QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression emphasis(QStringLiteral("\\*\\*|__|`"));
    QVector<OutlineEntry> out;
    const QStringList lines = withoutReasoning(text).split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        QString s = lines.at(i).trimmed();
        while (s.startsWith(QLatin1Char('>')))
            s = s.mid(1).trimmed();
        if (s.isEmpty())
            continue;
        OutlineEntry e;
        e.line = i + 1;
        bool marked = false; // a header mark, a bullet or a number: an outline line, not prose
        if (const auto h = header.match(s); h.hasMatch()) {
            e.heading = true;
            marked = true;
            s = h.captured(1);
        }
        // Bold around the whole line (before a bullet is taken off: "**2. Flow:**").
        const bool wholeBold = s.startsWith(QLatin1String("**"))
                               && (s.endsWith(QLatin1String("**")) || s.endsWith(QLatin1String("**:")));
        if (const auto b = bullet.match(s); b.hasMatch() && !s.startsWith(QLatin1String("**"))) {
            marked = true;
            s = b.captured(1);
        }
        s.replace(emphasis, QString());
        s = s.trimmed();
        if (const auto n = numbered.match(s); n.hasMatch()) {
            marked = true;
            e.label = n.captured(1);
            e.label.replace(QLatin1Char('.'), QLatin1Char('-'));
            s = n.captured(2);
        }
        s = s.trimmed();
        // Single-star or underscore emphasis and quotes around the text.
        while (s.size() >= 2
               && ((s.startsWith(QLatin1Char('*')) && s.endsWith(QLatin1Char('*')))
                   || (s.startsWith(QLatin1Char('_')) && s.endsWith(QLatin1Char('_')))
                   || (s.startsWith(QLatin1Char('"')) && s.endsWith(QLatin1Char('"')))))
            s = s.mid(1, s.size() - 2).trimmed();
        const bool asks = s.contains(QLatin1Char('?'));
        const bool colon = s.endsWith(QLatin1Char(':'));
        if (colon)
            s.chop(1);
        e.text = s.simplified();
        if (e.text.isEmpty())
            continue;
        if (!asks && (colon || wholeBold))
            e.heading = true;
        if (!marked && !e.heading)
            continue; // prose
        out.append(e);
    }
    return out;
}

} // namespace rubric
