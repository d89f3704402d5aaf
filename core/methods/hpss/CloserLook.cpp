#include "CloserLook.h"

#include <QFile>
#include <QHash>

namespace rubric::hpss {
namespace {

QString aspectFile(const QString &aspect)
{
    static const QHash<QString, QString> abbreviation{{QStringLiteral("coherence"), QStringLiteral("coh")},
                                                      {QStringLiteral("consistency"), QStringLiteral("con")},
                                                      {QStringLiteral("fluency"), QStringLiteral("flu")},
                                                      {QStringLiteral("relevance"), QStringLiteral("rel")},
                                                      {QStringLiteral("engagingness"), QStringLiteral("eng")},
                                                      {QStringLiteral("groundedness"), QStringLiteral("gro")},
                                                      {QStringLiteral("naturalness"), QStringLiteral("nat")}};
    return abbreviation.value(aspect.toLower());
}

QString fill(QString text, const QString &source, const QString &output, const QString &fact)
{
    return text.replace(QLatin1String("{{Document}}"), source)
            .replace(QLatin1String("{{Summary}}"), output)
            .replace(QLatin1String("{{Response}}"), output)
            .replace(QLatin1String("{{Fact}}"), fact);
}

} // namespace

Result<CloserLookPrompt> closerLookPrompt(const QString &name, const QString &task, const QString &aspect)
{
    CloserLookPrompt p;
    p.name = name;
    if (name == QLatin1String("closerlook-icl"))
        p.examples = 5; // one per rating of a 1-5 aspect, as HPSS's example set of five
    else if (name != QLatin1String("closerlook"))
        return makeError(
                QStringLiteral("bad value '%1' for HPSS parameter 'prompt' (closerlook or closerlook-icl)").arg(name),
                {}, 0, QStringLiteral("prompt"));
    if (task != QLatin1String("summeval") && task != QLatin1String("topical_chat"))
        return makeError(
                QStringLiteral("CloserLook's analyze-rate prompts exist for SummEval and Topical-Chat only (the "
                               "authors' files); task '%1' has none")
                        .arg(task),
                {}, 0, QStringLiteral("prompt"));
    const QString abbreviation = aspectFile(aspect);
    p.file = QStringLiteral("hpss_closerlook/%1_%2.txt").arg(task, abbreviation);
    QFile f(QStringLiteral(":/prompts/") + p.file);
    if (abbreviation.isEmpty() || !f.open(QIODevice::ReadOnly))
        return makeError(
                QStringLiteral("CloserLook has no analyze-rate prompt for aspect '%1' of task '%2'").arg(aspect, task),
                {}, 0, QStringLiteral("prompt"));
    p.text = QString::fromUtf8(f.readAll());
    return p;
}

QString renderCloserLook(const QString &templ, const QString &source, const QString &output, const QString &fact,
                         const QVector<ExampleItem> &examples)
{
    if (examples.isEmpty())
        return fill(templ, source, output, fact);
    // The template's input section: after its "Example:" line, up to the evaluation form.
    static const QString exampleLine = QStringLiteral("\nExample:\n");
    const qsizetype at = templ.indexOf(exampleLine);
    const qsizetype form = templ.indexOf(QLatin1String("Evaluation Form"), at);
    if (at < 0 || form < 0)
        return fill(templ, source, output, fact);
    const QString section = templ.mid(at + exampleLine.size(), form - at - exampleLine.size()).trimmed();
    QString block = QStringLiteral("Human evaluation examples:\n\n");
    for (const ExampleItem &e : examples)
        block += fill(section, e.source, e.output, e.fact) + QStringLiteral("\n\nRating: ") + formatRating(e.humanScore)
                 + QStringLiteral("\n\n\n");
    return fill(templ.left(at + 1) + block + templ.mid(at + 1), source, output, fact);
}

} // namespace rubric::hpss
