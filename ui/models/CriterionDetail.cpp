#include "CriterionDetail.h"

#include "models/RubricTreeModel.h"
#include "runs/Phases.h"

#include <QDateTime>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace rubric {
namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

} // namespace

QString CriterionDetail::number(const QVariant &v)
{
    bool ok = false;
    const double d = v.toDouble(&ok);
    return ok && !v.isNull() && !std::isnan(d) ? QString::number(d, 'f', 3) : QString();
}

QString CriterionDetail::html(const Criterion &c)
{
    QString html = QStringLiteral("<p><b>%1</b> · %2 · %3</p>")
                           .arg(esc(c.key), esc(criterionKindName(c.kind)), c.enabled ? tr("enabled") : tr("disabled"));
    if (!c.definition.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(esc(c.definition));
    html += QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("Origin:"), esc(RubricTreeModel::originLabel(c)));
    const QVariantMap &o = c.origin;
    if (o.contains(QStringLiteral("edited_from"))) {
        const QString by = o.value(QStringLiteral("edited_by")).toString();
        const QDateTime at = QDateTime::fromString(o.value(QStringLiteral("edited_at")).toString(), Qt::ISODate);
        const QString who = by.isEmpty() ? tr("Edited") : tr("Edited by %1").arg(by);
        const QString when = at.isValid() ? tr(" on %1").arg(QLocale().toString(at.toLocalTime(), QLocale::ShortFormat))
                                          : QString();
        html += QStringLiteral("<p>%1<br><i>%2</i></p>")
                        .arg(esc(tr("%1%2; the method's text was:").arg(who, when)),
                             esc(o.value(QStringLiteral("edited_from")).toString()));
    }
    if (o.contains(QStringLiteral("event")))
        html += QStringLiteral("<p>%1</p>")
                        .arg(tr("Proposed after wrong-prediction event %1 (t = %2) and refined %3 time(s).")
                                     .arg(o.value(QStringLiteral("event")).toInt())
                                     .arg(o.value(QStringLiteral("t")).toInt())
                                     .arg(std::max(0, int(o.value(QStringLiteral("chain")).toList().size()) - 1)));
    const QVariantMap &s = c.stats;
    QStringList facts;
    if (const QString r = number(s.value(QStringLiteral("train_pearson"))); !r.isEmpty())
        facts << tr("train Pearson %1").arg(r);
    if (const QString r = number(s.value(QStringLiteral("train_spearman"))); !r.isEmpty())
        facts << tr("train Spearman %1").arg(r);
    if (const QString r = number(s.value(QStringLiteral("reward"))); !r.isEmpty())
        facts << tr("reward %1").arg(r);
    if (s.value(QStringLiteral("selected_rank")).toInt() > 0)
        facts << tr("selected rank %1").arg(s.value(QStringLiteral("selected_rank")).toInt());
    if (s.contains(QStringLiteral("samples_seen")))
        facts << tr("%1 samples seen").arg(s.value(QStringLiteral("samples_seen")).toInt());
    if (!facts.isEmpty() && o.contains(QStringLiteral("edited_from")))
        facts << tr("measured with the method's text");
    if (!facts.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(esc(facts.join(QStringLiteral(" · "))));
    if (const QString why = s.value(QStringLiteral("dropped_because")).toString(); !why.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(esc(tr("Not selected: %1").arg(why)));
    const QVariantList history = s.value(QStringLiteral("reward_history")).toList();
    if (!history.isEmpty()) {
        // every update as "t: reward", oldest first, in one wrapped paragraph
        QStringList steps;
        for (const QVariant &h : history) {
            const QVariantMap m = h.toMap();
            steps << tr("%1: %2")
                             .arg(m.value(QStringLiteral("t")).toInt())
                             .arg(number(m.value(QStringLiteral("reward"))));
        }
        html += QStringLiteral("<p><b>%1</b> <small>(%2)</small><br>%3</p>")
                        .arg(tr("Reward history"), tr("update: reward"), esc(steps.join(QStringLiteral(" · "))));
    }

    // The method's root: what the run that built this rubric did.
    const QVariantMap calls = s.value(QStringLiteral("calls")).toMap();
    if (!calls.isEmpty()) {
        QStringList parts;
        for (const QString &phase : phases::inRunOrder(calls.keys())) {
            const QVariantMap m = calls.value(phase).toMap();
            const int asked = m.value(QStringLiteral("calls")).toInt();
            const int sent = m.value(QStringLiteral("sent")).toInt();
            parts << (sent == asked ? QStringLiteral("%1 %2").arg(phase).arg(asked)
                                    : tr("%1 %2 (%3 sent, the rest from the cache)").arg(phase).arg(asked).arg(sent));
        }
        html += QStringLiteral("<p><b>%1</b><br>%2</p>")
                        .arg(tr("Judge calls of the preparation"), esc(parts.join(QStringLiteral(" · "))));
    }
    const QVariantList literature = s.value(QStringLiteral("literature")).toList();
    if (!literature.isEmpty()) {
        html += QStringLiteral("<p><b>%1</b></p>").arg(tr("Literature (%n paper(s))", nullptr, int(literature.size())));
        for (const QVariant &v : literature) {
            const QVariantMap p = v.toMap();
            const bool byUser = p.value(QStringLiteral("written_by")).toString() == QLatin1String("user");
            html += QStringLiteral("<p><b>%1</b> <small>(%2)</small><br>%3</p>")
                            .arg(esc(p.value(QStringLiteral("title")).toString()),
                                 byUser ? tr("your summary, %1").arg(esc(p.value(QStringLiteral("file")).toString()))
                                        : tr("summarised by the generator from %1")
                                                  .arg(esc(p.value(QStringLiteral("file")).toString())),
                                 esc(p.value(QStringLiteral("summary")).toString()));
        }
    }
    const QVariantMap params = s.value(QStringLiteral("params")).toMap();
    if (!params.isEmpty()) {
        QStringList parts;
        for (auto it = params.begin(); it != params.end(); ++it)
            parts << QStringLiteral("%1 = %2").arg(it.key(), it.value().toString());
        html += QStringLiteral("<p><b>%1</b> <small>%2</small></p>")
                        .arg(tr("Parameters"), esc(parts.join(QStringLiteral(" · "))));
    }
    return html;
}

QString CriterionDetail::runHtml(const QVariantMap &runConfig)
{
    const auto esc = [](const QString &t) { return t.toHtmlEscaped(); };
    const QVariantMap result = runConfig.value(QStringLiteral("result")).toMap();
    QString html;
    if (const QString scoring = result.value(QStringLiteral("scoring")).toString(); !scoring.isEmpty())
        html += QStringLiteral("<p><b>%1</b> %2<br><small>%3</small></p>")
                        .arg(tr("Scoring:"), esc(scoring),
                             esc(result.value(QStringLiteral("scoring_reason")).toString()));
    const QVariantMap refused = runConfig.value(QStringLiteral("failed_items")).toMap();
    if (!refused.isEmpty()) {
        QStringList lines;
        for (auto it = refused.begin(); it != refused.end(); ++it)
            lines << QStringLiteral("%1: %2").arg(esc(it.key()), esc(it.value().toString()));
        html += QStringLiteral("<p><b>%1</b><br>%2<br><small>%3</small></p>")
                        .arg(tr("Refused by the endpoint (%n item(s)):", nullptr, int(refused.size())),
                             lines.join(QStringLiteral("<br>")),
                             esc(tr("Skipped when the judge runs again; 'rubric run … --retry-failed' asks them "
                                    "again (e.g. with --set max_source_tokens=N).")));
    }
    return html;
}

} // namespace rubric
