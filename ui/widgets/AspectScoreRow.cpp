#include "AspectScoreRow.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace rubric {

AspectScoreRow::AspectScoreRow(const Aspect &aspect, QWidget *parent)
    : QFrame(parent)
    , m_aspect(aspect)
    , m_buttons(new QButtonGroup(this))
    , m_judges(new QLabel(this))
    , m_name(new QLabel(this))
{
    setObjectName(QStringLiteral("aspect_") + aspect.name);
    setFrameShape(QFrame::StyledPanel);
    setFocusPolicy(Qt::NoFocus);

    QFont bold = m_name->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    m_name->setFont(bold);
    m_name->setTextFormat(Qt::PlainText); // aspect names come from the dataset
    m_name->setText(tr("%1  (%2–%3)").arg(aspect.name).arg(aspect.min).arg(aspect.max));

    auto *definition = new QLabel(aspect.definition.isEmpty() ? tr("No definition yet.") : aspect.definition, this);
    definition->setObjectName(QStringLiteral("definition"));
    definition->setTextFormat(Qt::PlainText); // the aspect definition comes from the dataset or a preset
    definition->setWordWrap(true);
    definition->setForegroundRole(QPalette::PlaceholderText);

    const int lo = int(std::ceil(aspect.min));
    const int hi = int(std::floor(aspect.max));
    if (hi - lo >= 1 && hi - lo <= 10)
        for (int v = lo; v <= hi; ++v)
            m_steps.append(v);

    auto *buttons = new QHBoxLayout;
    buttons->setSpacing(4);
    m_buttons->setExclusive(false);
    for (int v : std::as_const(m_steps)) {
        auto *b = new QPushButton(QString::number(v), this);
        b->setObjectName(QStringLiteral("score_%1").arg(v));
        b->setCheckable(true);
        b->setFocusPolicy(Qt::NoFocus);
        b->setMinimumWidth(36);
        m_buttons->addButton(b, v);
        buttons->addWidget(b);
    }
    buttons->addStretch(1);
    m_judges->setObjectName(QStringLiteral("judgeScores"));
    m_judges->setTextFormat(Qt::PlainText);
    buttons->addWidget(m_judges);
    connect(m_buttons, &QButtonGroup::idClicked, this, [this](int id) { emit scoreClicked(double(id)); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(4);
    layout->addWidget(m_name);
    layout->addWidget(definition);
    layout->addLayout(buttons);
    setActive(false);
    setScore(std::nullopt);
}

std::optional<double> AspectScoreRow::scoreForDigit(int digit) const
{
    double v = digit;
    if (digit == 0 && m_aspect.min >= 1 && m_aspect.max >= 10)
        v = 10;
    if (v >= m_aspect.min && v <= m_aspect.max)
        return v;
    return std::nullopt;
}

void AspectScoreRow::setScore(std::optional<double> score)
{
    m_score = score;
    for (QAbstractButton *b : m_buttons->buttons())
        b->setChecked(score && std::abs(*score - m_buttons->id(b)) < 1e-9);
}

void AspectScoreRow::setActive(bool active)
{
    setProperty("active", active);
    // A chosen score must be visible at a glance, not just a slightly darker button.
    const QString checked
            = QStringLiteral("QPushButton:checked { background: palette(highlight); color: palette(highlighted-text); "
                             "font-weight: bold; border: 1px solid palette(dark); border-radius: 3px; padding: 3px; }");
    setStyleSheet(
            (active ? QStringLiteral(
                     "rubric--AspectScoreRow { border: 2px solid palette(highlight); border-radius: 6px; "
                     "background: palette(alternate-base); }")
                    : QStringLiteral("rubric--AspectScoreRow { border: 1px solid palette(mid); border-radius: 6px; }"))
            + checked);
}

void AspectScoreRow::setJudgeText(const QString &text)
{
    m_judges->setText(text);
    m_judges->setVisible(!text.isEmpty());
}

} // namespace rubric
