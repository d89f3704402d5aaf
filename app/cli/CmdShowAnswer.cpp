#include "CliUtil.h"
#include "judge/AnswerParser.h"
#include "store/CallStore.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QRegularExpression>

#include <cmath>

namespace rubric::cli {
namespace {

/// What the shared reader takes from an answer: yes/no answers when it has any, else a score.
QVariantMap readingOf(const QString &raw)
{
    QVariantMap out;
    static const QRegularExpression questionLine(QStringLiteral("^\\W*(?:q|question)\\s*\\d+\\W"),
                                                 QRegularExpression::CaseInsensitiveOption
                                                         | QRegularExpression::MultilineOption);
    if (questionLine.match(AnswerParser::withoutReasoning(raw)).hasMatch()) {
        const ParsedAnswer yn = AnswerParser::parseYesNo(raw);
        if (yn.ok) {
            QVariantMap answers;
            for (auto it = yn.answers.cbegin(); it != yn.answers.cend(); ++it)
                answers.insert(it.key(), it.value() ? QStringLiteral("yes") : QStringLiteral("no"));
            out.insert(QStringLiteral("answers"), answers);
            return out;
        }
    }
    const ParsedAnswer p = AnswerParser::parseScore(raw);
    if (p.ok) {
        out.insert(QStringLiteral("score"), p.score);
        out.insert(QStringLiteral("rule"), p.rule);
    } else {
        out.insert(QStringLiteral("unparsed"), p.error);
    }
    return out;
}

QString readingText(const QVariantMap &r)
{
    if (r.contains(QStringLiteral("answers"))) {
        QStringList parts;
        const QVariantMap a = r.value(QStringLiteral("answers")).toMap();
        for (auto it = a.cbegin(); it != a.cend(); ++it)
            parts << it.key() + QLatin1Char('=') + it.value().toString();
        return parts.join(QLatin1Char(' '));
    }
    if (r.contains(QStringLiteral("score")))
        return QStringLiteral("%1 (%2)")
                .arg(r.value(QStringLiteral("score")).toDouble())
                .arg(r.value(QStringLiteral("rule")).toString());
    return QStringLiteral("unparsed: ") + r.value(QStringLiteral("unparsed")).toString();
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Show a judge's answers for one item as the endpoint sent them: the raw text, the reasoning "
            "(a <think> block or a reasoning field), what the answer reader read and what the run stored."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("judge"), QStringLiteral("Judge name."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("item"), QStringLiteral("Item id."), QStringLiteral("ID")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("One JSON object: the item's calls.")});
    if (auto rc = parse(parser, QStringLiteral("show-answer"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("judge"), io) || !require(parser, QStringLiteral("item"), io))
        return 2;
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const QString judge = parser.value(QStringLiteral("judge"));
    const QString itemId = parser.value(QStringLiteral("item"));
    const auto info = project->readJudge(judge);
    if (!info) {
        io.err << "rubric: " << info.errorString() << '\n';
        return 1;
    }
    if (!*info) {
        io.err << "rubric: no judge '" << judge << "' in " << project->path() << '\n';
        return 1;
    }
    RubricStore store(project.get());
    const auto rubric = store.load(judge);
    QHash<QString, QString> criterionText;
    if (rubric)
        for (const Criterion &c : rubric->criteria())
            criterionText.insert(c.key, c.text);
    // The item's stored rows, grouped by the call that produced them.
    QStringList callOrder;
    QHash<QString, QVector<CriterionScore>> byCall;
    for (const CriterionScore &row : store.sampleScores(judge)) {
        if (row.itemId != itemId)
            continue;
        const QString key = row.callKey.isEmpty() ? QStringLiteral("(no call)") : row.callKey;
        if (!byCall.contains(key))
            callOrder << key;
        byCall[key].append(row);
    }
    if (callOrder.isEmpty()) {
        io.err << "rubric: judge '" << judge << "' stored nothing for item '" << itemId << "'\n";
        return 1;
    }
    CallStore calls(project.get());
    QVariantList out;
    for (const QString &key : std::as_const(callOrder)) {
        QVariantMap call;
        call.insert(QStringLiteral("call"), key);
        QVariantList stored;
        for (const CriterionScore &row : byCall.value(key)) {
            QVariantMap s;
            s.insert(QStringLiteral("criterion"), row.criterionKey);
            s.insert(QStringLiteral("text"), criterionText.value(row.criterionKey));
            s.insert(QStringLiteral("sample"), row.sample);
            s.insert(QStringLiteral("status"), row.parseStatus);
            s.insert(QStringLiteral("score"), jsonNumber(row.score));
            stored << s;
        }
        call.insert(QStringLiteral("stored"), stored);
        const auto cached = calls.lookup(key);
        if (!cached) {
            io.err << "rubric: " << cached.errorString() << '\n';
            return 1;
        }
        QVariantList choices;
        if (*cached) {
            for (const JudgeChoice &c : (*cached)->choices) {
                QVariantMap choice;
                choice.insert(QStringLiteral("raw"), c.text);
                choice.insert(QStringLiteral("reasoning"), c.thoughts());
                choice.insert(QStringLiteral("finish_reason"), c.finishReason);
                choice.insert(QStringLiteral("read"), readingOf(c.text));
                choices << choice;
            }
            call.insert(QStringLiteral("reasoning_tokens"), (*cached)->tokensReasoning);
        } else {
            // Not in the cache: the stored row's own text (a failure's message, an import).
            const CriterionScore &first = byCall.value(key).first();
            QVariantMap choice;
            choice.insert(QStringLiteral("raw"), first.raw);
            choice.insert(QStringLiteral("reasoning"), first.reasoning);
            choice.insert(QStringLiteral("read"), readingOf(first.raw));
            choices << choice;
        }
        call.insert(QStringLiteral("choices"), choices);
        out << call;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(io, QVariantMap{{QStringLiteral("judge"), judge},
                                  {QStringLiteral("item"), itemId},
                                  {QStringLiteral("calls"), out}});
        return 0;
    }
    for (const QVariant &v : std::as_const(out)) {
        const QVariantMap call = v.toMap();
        io.out << "=== call " << call.value(QStringLiteral("call")).toString().left(16) << " ===\n";
        for (const QVariant &s : call.value(QStringLiteral("stored")).toList()) {
            const QVariantMap m = s.toMap();
            io.out << "stored: " << m.value(QStringLiteral("criterion")).toString();
            if (m.value(QStringLiteral("sample")).toInt() > 0)
                io.out << " #" << m.value(QStringLiteral("sample")).toInt();
            io.out << " = "
                   << (m.value(QStringLiteral("score")).isNull()
                               ? QStringLiteral("—")
                               : QString::number(m.value(QStringLiteral("score")).toDouble()))
                   << " (" << m.value(QStringLiteral("status")).toString() << ")\n";
        }
        int i = 0;
        for (const QVariant &c : call.value(QStringLiteral("choices")).toList()) {
            const QVariantMap m = c.toMap();
            if (call.value(QStringLiteral("choices")).toList().size() > 1)
                io.out << "--- choice " << ++i << '\n';
            const QString reasoning = m.value(QStringLiteral("reasoning")).toString();
            if (!reasoning.isEmpty())
                io.out << "reasoning:\n" << reasoning << '\n';
            io.out << "raw answer:\n" << m.value(QStringLiteral("raw")).toString() << '\n';
            io.out << "read: " << readingText(m.value(QStringLiteral("read")).toMap()) << '\n';
        }
    }
    return 0;
}

const Registration reg({QStringLiteral("show-answer"),
                        QStringLiteral("Show a judge's raw answers for one item, their reasoning and what was read."),
                        &run});

} // namespace
} // namespace rubric::cli
