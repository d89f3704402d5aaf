#pragma once

#include "methods/hpss/HpssJudgeView.h"

#include <QWidget>

#include <array>
#include <optional>

class QComboBox;
class QLabel;
class QSplitter;
class QTextEdit;

namespace rubric {

/// Renders any strategy of an HPSS judge for any item, as the judge would send it, with every
/// factor's snippet on its own background colour (a legend names them; hovering a snippet shows
/// "factor:value"), and the line diff of the prompts of two strategies for the same item.
///
/// The strategy is picked from the evaluated ones or changed factor by factor; the comparison
/// strategy from the evaluated ones. Dataset text is inserted as plain text (never parsed as
/// HTML). A strategy whose auxiliary texts the judge has not made yet shows the reason instead.
/// GUI thread only.
class HpssPromptInspector : public QWidget
{
    Q_OBJECT
public:
    explicit HpssPromptInspector(QWidget *parent = nullptr);

    /// Shows `view` (nullptr: empty), keeping the chosen strategy, comparison and item where the
    /// new view still has them. A copy of the view is kept for rendering.
    void setView(const hpss::JudgeView *view);
    void setStrategy(const hpss::PromptStrategy &strategy);
    void setCompareStrategy(const hpss::PromptStrategy &strategy);
    /// Selects item `itemId`; false when the judge's project has no such item.
    bool setItem(const QString &itemId);

    std::optional<hpss::PromptStrategy> strategy() const;
    QString itemId() const;
    /// The rendered prompt as shown (empty when it could not be rendered).
    QString promptText() const;
    /// The diff as shown: one line per prompt line, prefixed "  ", "- " (only in the strategy) or
    /// "+ " (only in the comparison).
    QString diffText() const;
    /// Why the prompt or the diff could not be rendered ("" when both are shown).
    QString errorText() const;
    /// The tooltip ("factor:value") of the prompt character at `position`, "" outside snippets.
    QString toolTipAt(int position) const;
    /// The background of the prompt character at `position` (invalid outside snippets).
    QColor backgroundAt(int position) const;
    /// The spans of the prompt shown (empty when none).
    const QVector<hpss::PromptSpan> &spans() const { return m_spans; }
    /// The highlight colour of a factor.
    static QColor factorColor(hpss::Factor f);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fillStrategies();
    void syncFactorCombos();
    void onFactorChanged();
    void render();

    std::optional<hpss::JudgeView> m_view;
    QComboBox *m_evaluated;
    std::array<QComboBox *, hpss::kFactorCount> m_factors{};
    QComboBox *m_item;
    QComboBox *m_compare;
    QLabel *m_error;
    QSplitter *m_split;
    QTextEdit *m_prompt;
    QTextEdit *m_diff;
    QVector<hpss::PromptSpan> m_spans;
    bool m_syncing = false;
};

} // namespace rubric
