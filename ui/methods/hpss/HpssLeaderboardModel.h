#pragma once

#include "methods/hpss/HpssJudgeView.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QVector>

#include <optional>

namespace rubric {

/// Every strategy an HPSS judge evaluated, one row each in evaluation order: the step, the eight
/// factor values, the validation Spearman, its difference to the origin's (the first evaluation),
/// the calls and cost the judge's ledger holds for its validation prompts, and how the search
/// reached it (init, explore, exploit, …). Sorting happens in a proxy on SortRole (numbers
/// for the numeric columns). A refresh that only appends evaluations (a running search) inserts
/// rows; anything else resets the model. GUI thread only.
class HpssLeaderboardModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        StepColumn,
        FirstFactorColumn, ///< the eight factors follow in Table 1 order
        SpearmanColumn = FirstFactorColumn + hpss::kFactorCount,
        DeltaColumn,
        CallsColumn,
        CostColumn,
        MoveColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, StrategyRole };

    struct Row
    {
        hpss::SearchRecord record;
        std::optional<hpss::StrategySpend> spend; ///< none when the prompts can no longer be rendered
    };

    explicit HpssLeaderboardModel(QObject *parent = nullptr);

    /// The judge's evaluations with their spend (`spend` keyed by PromptStrategy::format()).
    void setEvaluations(const QVector<hpss::SearchRecord> &records, const QHash<QString, hpss::StrategySpend> &spend);
    void clear();
    /// The level the validation Spearman is taken at (named in the column's header).
    void setLevel(hpss::CorrelationLevel level);
    /// The pairwise setting's validation pairs (0: the pointwise setting): the column is accuracy, not Spearman.
    void setPairwise(int pairs);
    /// "summary-level" / "dataset-level", and the tooltip's sentence for it.
    static QString levelText(hpss::CorrelationLevel level);
    static QString levelDescription(hpss::CorrelationLevel level);
    /// The strategy of a row ("scale:5,…" is StrategyRole's text).
    hpss::PromptStrategy strategy(int row) const { return m_rows.at(row).record.proposal.strategy; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVector<Row> m_rows;
    double m_origin = 0;
    hpss::CorrelationLevel m_level = hpss::CorrelationLevel::Dataset;
    int m_pairs = 0;
};

} // namespace rubric
