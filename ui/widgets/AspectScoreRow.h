#pragma once

#include "data/Aspect.h"

#include <QFrame>
#include <QVector>

#include <optional>

class QButtonGroup;
class QLabel;
class QPushButton;

namespace rubric {

/// One aspect in the annotate pane: name, definition, a button per score on its scale and,
/// when not blind, the judges' scores. Shows whether it has the keyboard's attention; never
/// takes focus itself (the pane owns the keys).
class AspectScoreRow : public QFrame
{
    Q_OBJECT
public:
    AspectScoreRow(const Aspect &aspect, QWidget *parent = nullptr);

    const Aspect &aspect() const { return m_aspect; }
    /// The whole-number scores of the scale (1–5 → 1..5); empty for scales too wide for buttons.
    QVector<int> steps() const { return m_steps; }
    /// The score a digit key means on this scale, if any ('0' is 10 on a 1–10 scale).
    std::optional<double> scoreForDigit(int digit) const;

    void setScore(std::optional<double> score);
    std::optional<double> score() const { return m_score; }
    void setActive(bool active);
    void setJudgeText(const QString &text);

signals:
    void scoreClicked(double score);

private:
    Aspect m_aspect;
    QVector<int> m_steps;
    std::optional<double> m_score;
    QButtonGroup *m_buttons;
    QLabel *m_judges;
    QLabel *m_name;
};

} // namespace rubric
