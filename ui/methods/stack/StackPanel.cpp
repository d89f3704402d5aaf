#include "methods/stack/StackPanel.h"

#include "models/RubricTreeModel.h"
#include "store/Project.h"

#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace rubric {
namespace {

QString figure(const QVariant &v)
{
    bool ok = false;
    const double x = v.toDouble(&ok);
    return v.isNull() || !ok || !std::isfinite(x) ? QStringLiteral("—") : QString::number(x, 'f', 3);
}

} // namespace

StackPanel::StackPanel(RubricTreeModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_figures(new QLabel(this))
{
    setObjectName(QStringLiteral("stackPanel"));
    m_figures->setObjectName(QStringLiteral("stackFigures"));
    m_figures->setWordWrap(true);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_figures);
}

QString StackPanel::text() const
{
    return m_figures->text();
}

void StackPanel::refresh(const QString &judge)
{
    Q_UNUSED(judge)
    QVariantMap agg;
    for (const Criterion &c : m_model->rubric().criteria())
        if (c.parentKey.isEmpty())
            agg = c.stats.value(QStringLiteral("aggregator")).toMap();
    if (agg.isEmpty()) {
        m_figures->setText(tr("Not fitted yet: run the stacked judge (it sends no call)."));
        return;
    }
    QString text = tr("%1 aggregator over %2 criteria of %3 judges, fitted on %4 train items; train r %5, "
                      "cross-validated r %6 (%7)")
                           .arg(agg.value(QStringLiteral("kind")).toString())
                           .arg(agg.value(QStringLiteral("features")).toStringList().size())
                           .arg(agg.value(QStringLiteral("source_judges")).toStringList().size())
                           .arg(agg.value(QStringLiteral("n_train")).toInt())
                           .arg(figure(agg.value(QStringLiteral("train_r"))), figure(agg.value(QStringLiteral("cv_r"))),
                                agg.value(QStringLiteral("cv")).toString());
    if (agg.value(QStringLiteral("cv_warning")).toBool())
        text += QStringLiteral("<br/><b>") + tr("Overfitting: the cross-validated r is far below the train r.")
                + QStringLiteral("</b>");
    text += QStringLiteral("<br/>")
            + tr("Test r %1 on %2 items; the best single criterion chosen on the train split, %3, has test r %4.")
                      .arg(figure(agg.value(QStringLiteral("test_r"))))
                      .arg(agg.value(QStringLiteral("n_test")).toInt())
                      .arg(agg.value(QStringLiteral("best_criterion")).toString().toHtmlEscaped(),
                           figure(agg.value(QStringLiteral("best_criterion_test_r"))));
    const QStringList leftOut = agg.value(QStringLiteral("left_out")).toStringList();
    if (!leftOut.isEmpty())
        text += QStringLiteral("<br/>")
                + tr("Left out (fitted on the train labels): %1")
                          .arg(leftOut.join(QStringLiteral(", ")).toHtmlEscaped());
    m_figures->setText(text);
}

} // namespace rubric
