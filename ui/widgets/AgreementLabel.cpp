#include "AgreementLabel.h"

#include "stats/Agreement.h"
#include "stats/ProjectData.h"
#include "store/Project.h"
#include "store/ScoreGridStore.h"

#include <cmath>

namespace rubric {

AgreementLabel::AgreementLabel(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("agreementLabel"));
    setTextFormat(Qt::RichText);
    setAlignment(Qt::AlignTop | Qt::AlignLeft);
    setWordWrap(true);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void AgreementLabel::showComputing()
{
    if (text().isEmpty())
        setText(QStringLiteral("<b>%1</b> <small>%2</small>").arg(tr("Agreement"), tr("computing…")));
}

QString AgreementLabel::compute(const Project *project, const QVector<Aspect> &aspects, bool trainOnly, bool blind)
{
    if (!project || aspects.isEmpty())
        return {};
    const SplitFilter filter = trainOnly ? SplitFilter::Train : SplitFilter::All;
    // Alpha over a single item says nothing (it is 0 by construction): shown only from two items.
    const auto fmt = [](const stats::AlphaResult &r) -> QString {
        const QString items
                = r.units == 1 ? tr("<small>(1 item)</small>") : tr("<small>(%1 items)</small>").arg(r.units);
        const QString value
                = (std::isnan(r.alpha) || r.units < 2) ? QStringLiteral("—") : QString::number(r.alpha, 'f', 2);
        return value + QLatin1Char(' ') + items;
    };
    QVector<JudgeInfo> judges;
    if (!blind) {
        auto read = ScoreGridStore(project).judges();
        if (!read)
            return tr("Cannot read the project: %1").arg(read.errorString().toHtmlEscaped());
        judges = std::move(read).value();
    }
    QString html
            = QStringLiteral(
                      "<b>%1</b> <small>%2</small><table cellspacing='0' cellpadding='2'><tr><th align='left'>%3</th>"
                      "<th align='left'>%4</th>")
                      .arg(tr("Agreement"),
                           tr("(Krippendorff's α, interval, %1)").arg(trainOnly ? tr("train split") : tr("all items")),
                           tr("Aspect"), tr("Between people"));
    for (const JudgeInfo &j : judges)
        html += QStringLiteral("<th align='left'>%1</th>").arg(tr("%1 vs people").arg(j.name.toHtmlEscaped()));
    html += QStringLiteral("</tr>");
    for (const Aspect &a : aspects) {
        const auto humans = stats::gatherCoders(*project, a.name, filter);
        QString between = QStringLiteral("—");
        if (humans && humans->coders.size() >= 2)
            between = fmt(stats::krippendorffAlpha(humans->data, stats::AlphaLevel::Interval)) + QStringLiteral(" ")
                      + tr("<small>%1 annotators</small>").arg(humans->coders.size());
        else if (humans)
            between = tr("needs a second annotator");
        else
            between = tr("cannot read: %1").arg(humans.errorString().toHtmlEscaped());
        html += QStringLiteral("<tr><td>%1&nbsp;&nbsp;</td><td>%2&nbsp;&nbsp;</td>")
                        .arg(a.name.toHtmlEscaped(), between);
        for (const JudgeInfo &j : judges) {
            QString cell = QStringLiteral("—");
            if (j.aspects.contains(a.name)) {
                // The judge against the people's mean: one coder each.
                const auto m = stats::gatherCoders(*project, a.name, filter, {j.name});
                if (m && m->coders.size() >= 2) {
                    stats::ReliabilityData pair;
                    for (const auto &row : m->data) {
                        double sum = 0;
                        int n = 0;
                        for (size_t c = 0; c + 1 < row.size(); ++c)
                            if (!std::isnan(row[c])) {
                                sum += row[c];
                                ++n;
                            }
                        pair.push_back({n > 0 ? sum / n : std::nan(""), row.back()});
                    }
                    cell = fmt(stats::krippendorffAlpha(pair, stats::AlphaLevel::Interval));
                } else if (!m) {
                    cell = tr("cannot read: %1").arg(m.errorString().toHtmlEscaped());
                }
            }
            html += QStringLiteral("<td>%1&nbsp;&nbsp;</td>").arg(cell);
        }
        html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
    if (blind)
        html += QStringLiteral("<small>") + tr("Judge agreement is hidden in blind mode.") + QStringLiteral("</small>");
    return html;
}

} // namespace rubric
