#pragma once

#include "methods/hpss/PromptStrategy.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace rubric {

class HpssLeaderboardModel;

/// The leaderboard of an HPSS judge: every evaluated strategy (HpssLeaderboardModel) in a
/// sortable table (best validation ρ first by default), with "Send to test split", which asks
/// for a run scoring the selected strategy on the test split, and "Show prompt", which opens it
/// in the prompt inspector. GUI thread only.
class HpssLeaderboard : public QWidget
{
    Q_OBJECT
public:
    explicit HpssLeaderboard(QWidget *parent = nullptr);

    HpssLeaderboardModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    /// The strategy of the selected row, if any.
    std::optional<hpss::PromptStrategy> selectedStrategy() const;
    /// Selects the row of `strategy`; false when it is not listed.
    bool selectStrategy(const hpss::PromptStrategy &strategy);
    /// Enables "Send to test split" (off while a run is going).
    void setSendEnabled(bool enabled);

signals:
    void sendToTestRequested(const hpss::PromptStrategy &strategy);
    void inspectRequested(const hpss::PromptStrategy &strategy);

private:
    void updateButtons();

    HpssLeaderboardModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QPushButton *m_send;
    QPushButton *m_inspect;
    bool m_sendEnabled = true;
};

} // namespace rubric
