#include "RubricExport.h"

#include "util/Markup.h"

#include <QCoreApplication>

#include <cmath>
#include <functional>

namespace rubric {

namespace {

QString trc(const char *text)
{
    return QCoreApplication::translate("rubric::RubricExport", text);
}

/// One Markdown line: line breaks become spaces, and a leading `#` or `>` is escaped so that a
/// criterion's text cannot start a heading or a quote of its own.
QString inlineText(const QString &text)
{
    return markup::markdown(text.trimmed());
}

QString statsLine(const Criterion &c)
{
    QStringList parts;
    const auto number = [&c](const char *key, const QString &label, int decimals) {
        const QVariant v = c.stats.value(QString::fromLatin1(key));
        if (v.isValid() && !v.isNull() && !std::isnan(v.toDouble()))
            return label.arg(QString::number(v.toDouble(), 'f', decimals));
        return QString();
    };
    for (const QString &s : {number("train_pearson", trc("train Pearson %1"), 3), number("reward", trc("reward %1"), 3),
                             number("yes_rate", trc("yes-rate %1"), 2), number("importance", trc("importance %1"), 3)})
        if (!s.isEmpty())
            parts << s;
    const int rank = c.stats.value(QStringLiteral("selected_rank")).toInt();
    if (rank > 0)
        parts << trc("selected #%1").arg(rank);
    const QString source = c.origin.value(QStringLiteral("source")).toString();
    if (!source.isEmpty())
        parts << trc("from %1").arg(source);
    if (c.origin.contains(QStringLiteral("edited_by")))
        parts << trc("edited by %1").arg(c.origin.value(QStringLiteral("edited_by")).toString());
    return parts.join(QStringLiteral(" · "));
}

} // namespace

QVariantMap RubricExport::toJson(const Rubric &rubric, const QStringList &rootStats)
{
    QVariantList criteria;
    const std::function<void(const QString &)> walk = [&](const QString &parent) {
        for (const Criterion &c : rubric.children(parent)) {
            criteria.append(QVariantMap{{QStringLiteral("id"), c.key},
                                        {QStringLiteral("parent"), c.parentKey},
                                        {QStringLiteral("kind"), criterionKindName(c.kind)},
                                        {QStringLiteral("text"), c.text},
                                        {QStringLiteral("definition"), c.definition},
                                        {QStringLiteral("enabled"), c.enabled},
                                        {QStringLiteral("weight"), c.weight},
                                        {QStringLiteral("origin"), c.origin},
                                        {QStringLiteral("stats"), c.stats}});
            walk(c.key);
        }
    };
    walk(QString());
    QVariantMap out{{QStringLiteral("method"), rubric.method()},
                    {QStringLiteral("aspect"), rubric.aspect()},
                    {QStringLiteral("version"), rubric.version()},
                    {QStringLiteral("criteria"), criteria}};
    // HD-Eval: the fitted aggregator (kind, per aspect intercept and weights or the model's own
    // description, train / CV / test r) is kept in the stats of the aspect root; it is the
    // rubric's, so it is shown at the top.
    for (const Criterion &root : rubric.children(QString()))
        if (root.stats.contains(QStringLiteral("aggregator")))
            out.insert(QStringLiteral("aggregator"), root.stats.value(QStringLiteral("aggregator")));
    // What the method puts at the top from its root's stats (HPSS: the winning strategy, its search
    // or where a transferred one came from, the validation vs test Spearman with the overfitting
    // warning).
    if (const Criterion *root = rootStats.isEmpty() ? nullptr : rubric.find(QStringLiteral("aspect")))
        for (const QString &key : rootStats)
            if (root->stats.contains(key))
                out.insert(key, root->stats.value(key));
    return out;
}

QString RubricExport::toMarkdown(const Rubric &rubric)
{
    QString md;
    md += trc("# %1 rubric for %2 (version %3)")
                  .arg(markup::markdown(rubric.method()), markup::markdown(rubric.aspect()))
                  .arg(rubric.version())
          + QStringLiteral("\n\n");
    const std::function<void(const QString &, int)> walk = [&](const QString &parent, int depth) {
        for (const Criterion &c : rubric.children(parent)) {
            if (c.kind == CriterionKind::Aspect && depth == 0) {
                // The root names the aspect: a heading with its definition, the rest below it.
                md += QStringLiteral("## ") + inlineText(c.text) + QStringLiteral("\n\n");
                if (!c.definition.trimmed().isEmpty())
                    md += inlineText(c.definition) + QStringLiteral("\n\n");
                walk(c.key, 0);
                md += QLatin1Char('\n');
                continue;
            }
            const QString indent(depth * 2, QLatin1Char(' '));
            const QString text
                    = c.enabled ? inlineText(c.text) : QStringLiteral("~~") + inlineText(c.text) + QStringLiteral("~~");
            md += indent + QStringLiteral("- **") + markup::markdown(c.key) + QStringLiteral("** (")
                  + criterionKindName(c.kind) + (c.enabled ? QString() : QStringLiteral(", ") + trc("not used"))
                  + QStringLiteral("): ") + text + QLatin1Char('\n');
            const QString stats = statsLine(c);
            if (!stats.isEmpty())
                md += indent + QStringLiteral("  <br>*") + stats + QStringLiteral("*\n");
            walk(c.key, depth + 1);
        }
    };
    walk(QString(), 0);
    return md;
}

} // namespace rubric
