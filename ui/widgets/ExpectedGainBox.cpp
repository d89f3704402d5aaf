#include "ExpectedGainBox.h"

#include "methods/LabelNext.h"
#include "store/Project.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace rubric {
namespace {

QString figure(double r)
{
    return std::isfinite(r) ? QString::number(r, 'f', 3) : QStringLiteral("—");
}

} // namespace

ExpectedGainBox::ExpectedGainBox(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_reason(new QLabel(this))
    , m_moved(new QLabel(this))
    , m_go(new QPushButton(tr("Go to it"), this))
{
    setObjectName(QStringLiteral("expectedGainBox"));
    m_title->setObjectName(QStringLiteral("expectedGainTitle"));
    m_reason->setObjectName(QStringLiteral("expectedGainReason"));
    m_moved->setObjectName(QStringLiteral("expectedGainMoved"));
    m_go->setObjectName(QStringLiteral("expectedGainGo"));
    m_go->setFocusPolicy(Qt::NoFocus);
    m_title->setWordWrap(true);
    m_reason->setWordWrap(true);
    // Beside the other suggestions in the Annotate pane's footer: it takes the room there is and
    // never widens the window (its texts wrap).
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_moved->setWordWrap(true);
    QFont small = m_reason->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_reason->setFont(small);
    m_moved->setFont(small);
    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_title, 1);
    top->addWidget(m_go);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_reason);
    layout->addWidget(m_moved);
    connect(m_go, &QPushButton::clicked, this, [this] {
        if (!m_item.isEmpty())
            emit itemChosen(m_item);
    });
    m_go->setEnabled(false);
}

QString ExpectedGainBox::reasonText() const
{
    return m_reason->text();
}

QString ExpectedGainBox::movedText() const
{
    return m_moved->text();
}

void ExpectedGainBox::showComputing(Project *project, const QString &aspect)
{
    m_item.clear();
    m_go->setEnabled(false);
    if (!project || aspect.isEmpty()) {
        m_title->clear();
        m_reason->clear();
        return;
    }
    m_title->setText(tr("Next by expected gain: computing…"));
    m_reason->setText(tr("Fitting the judges' scores on the labelled items of '%1'; the pane can be used meanwhile.")
                              .arg(aspect));
}

void ExpectedGainBox::showState(Project *project, const QString &aspect, const Result<LabelNextState> &state)
{
    if (project != m_project || aspect != m_aspect) { // another project or aspect: no "before"
        m_labelled = -1;
        m_cvR = std::numeric_limits<double>::quiet_NaN();
        m_moved->clear();
    }
    m_project = project;
    m_aspect = aspect;
    m_item.clear();
    m_go->setEnabled(false);
    if (!project || aspect.isEmpty()) {
        m_title->clear();
        m_reason->clear();
        return;
    }
    if (!state) {
        m_title->setText(tr("Next by expected gain: none"));
        m_reason->setText(state.error().message);
        return;
    }
    m_item = state->next.item;
    m_go->setEnabled(!m_item.isEmpty());
    m_title->setText(m_item.isEmpty() ? tr("Next by expected gain: every item outside the test split has a human score")
                                      : tr("Next by expected gain: <b>%1</b>").arg(m_item.toHtmlEscaped()));
    m_reason->setText(m_item.isEmpty() ? QString() : state->next.reason);
    if (m_labelled >= 0 && state->labelled != m_labelled)
        m_moved->setText(tr("Cross-validated alignment of the judges' fit (%1): %2 → %3 (Δ %4), %5 → %6 labelled items")
                                 .arg(state->cv, figure(m_cvR), figure(state->cvR),
                                      std::isfinite(m_cvR) && std::isfinite(state->cvR)
                                              ? QString::asprintf("%+.3f", state->cvR - m_cvR)
                                              : QStringLiteral("—"))
                                 .arg(m_labelled)
                                 .arg(state->labelled));
    else if (m_labelled < 0)
        m_moved->setText(tr("Cross-validated alignment of the judges' fit (%1) on %2 labelled items: %3")
                                 .arg(state->cv)
                                 .arg(state->labelled)
                                 .arg(figure(state->cvR)));
    m_labelled = state->labelled;
    m_cvR = state->cvR;
}

} // namespace rubric
