#include "methods/hpss/HpssLeaderboardModel.h"

#include <QLocale>

namespace rubric {

using namespace hpss;

HpssLeaderboardModel::HpssLeaderboardModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void HpssLeaderboardModel::clear()
{
    if (m_rows.isEmpty())
        return;
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void HpssLeaderboardModel::setEvaluations(const QVector<SearchRecord> &records,
                                          const QHash<QString, StrategySpend> &spend)
{
    QVector<Row> rows;
    rows.reserve(records.size());
    for (const SearchRecord &r : records) {
        Row row{r, std::nullopt};
        const QString key = r.proposal.strategy.format();
        if (spend.contains(key))
            row.spend = spend.value(key);
        rows.append(row);
    }
    bool appendOnly = rows.size() >= m_rows.size();
    for (int i = 0; appendOnly && i < m_rows.size(); ++i)
        appendOnly = m_rows[i].record.proposal.strategy == rows[i].record.proposal.strategy
                     && m_rows[i].record.spearman == rows[i].record.spearman;
    if (!appendOnly) {
        beginResetModel();
        m_rows = rows;
        m_origin = m_rows.isEmpty() ? 0 : m_rows.first().record.spearman;
        endResetModel();
        return;
    }
    const int old = int(m_rows.size());
    for (int i = 0; i < old; ++i)
        m_rows[i].spend = rows[i].spend;
    if (old > 0)
        emit dataChanged(index(0, CallsColumn), index(old - 1, CostColumn));
    if (rows.size() > old) {
        beginInsertRows({}, old, int(rows.size()) - 1);
        for (int i = old; i < rows.size(); ++i)
            m_rows.append(rows[i]);
        m_origin = m_rows.first().record.spearman;
        endInsertRows();
    }
}

int HpssLeaderboardModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int HpssLeaderboardModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HpssLeaderboardModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row &row = m_rows.at(index.row());
    const SearchRecord &r = row.record;
    const int c = index.column();
    if (role == StrategyRole)
        return r.proposal.strategy.format();
    if (role == Qt::TextAlignmentRole)
        return c >= SpearmanColumn && c <= CostColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    if (role == Qt::ToolTipRole) {
        if (c >= FirstFactorColumn && c < SpearmanColumn) {
            const Factor f = factorAt(c - FirstFactorColumn);
            return QStringLiteral("%1:%2").arg(factorName(f), r.proposal.strategy.valueName(f));
        }
        if (c == StepColumn || c == MoveColumn) {
            QString tip = r.proposal.strategy.format();
            if (r.proposal.parent)
                tip += QLatin1Char('\n') + tr("parent: %1").arg(r.proposal.parent->format());
            return tip;
        }
        if ((c == CallsColumn || c == CostColumn) && !row.spend)
            return tr("The prompts of this strategy cannot be rendered from the judge's current auxiliary texts.");
        return {};
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sort = role == SortRole;
    const QLocale locale;
    switch (c) {
    case StepColumn:
        return r.proposal.step;
    case SpearmanColumn:
        return sort ? QVariant(r.spearman) : QVariant(locale.toString(r.spearman, 'f', 3));
    case DeltaColumn: {
        const double d = r.spearman - m_origin;
        return sort ? QVariant(d) : QVariant((d > 0 ? QStringLiteral("+") : QString()) + locale.toString(d, 'f', 3));
    }
    case CallsColumn:
        if (!row.spend)
            return sort ? QVariant(-1) : QVariant(QStringLiteral("–"));
        return row.spend->calls;
    case CostColumn:
        if (!row.spend)
            return sort ? QVariant(-1.0) : QVariant(QStringLiteral("–"));
        return sort ? QVariant(row.spend->cost) : QVariant(locale.toString(row.spend->cost, 'f', 4));
    case MoveColumn:
        return searchMoveName(r.proposal.move);
    default:
        break;
    }
    if (c >= FirstFactorColumn && c < SpearmanColumn) {
        const Factor f = factorAt(c - FirstFactorColumn);
        return sort ? QVariant(r.proposal.strategy.index(f)) : QVariant(r.proposal.strategy.valueName(f));
    }
    return {};
}

QVariant HpssLeaderboardModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case SpearmanColumn:
            if (m_pairs > 0)
                return tr("Accuracy of the strategy's verdicts against the human preferences on the validation "
                          "pairs (n = %1; pairwise setting, paper Eq. 10)")
                        .arg(m_pairs);
            return tr("Spearman correlation of the strategy's scores with the human scores on the validation split, "
                      "%1")
                    .arg(levelDescription(m_level));
        case DeltaColumn:
            if (m_pairs > 0)
                return tr("Validation accuracy minus the origin's (the first evaluated strategy)");
            return tr("Validation Spearman minus the origin's (the first evaluated strategy)");
        case CallsColumn:
            return tr("Calls this judge sent for the strategy's validation prompts (answers from the cache are free)");
        case CostColumn:
            return tr("Cost of those calls, from the judge's ledger");
        case MoveColumn:
            return tr("How the search reached the strategy: init, explore, exploit, …");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    if (section >= FirstFactorColumn && section < SpearmanColumn)
        return factorName(factorAt(section - FirstFactorColumn));
    switch (section) {
    case StepColumn:
        return tr("Step");
    case SpearmanColumn:
        if (m_pairs > 0)
            return tr("Validation accuracy (n = %1 pairs)").arg(m_pairs);
        return tr("Validation Spearman ρ (%1)").arg(levelText(m_level));
    case DeltaColumn:
        return tr("Δ origin");
    case CallsColumn:
        return tr("Calls");
    case CostColumn:
        return tr("Cost");
    case MoveColumn:
        return tr("Move");
    default:
        return {};
    }
}

void HpssLeaderboardModel::setLevel(CorrelationLevel level)
{
    if (level == m_level)
        return;
    m_level = level;
    emit headerDataChanged(Qt::Horizontal, SpearmanColumn, SpearmanColumn);
}

void HpssLeaderboardModel::setPairwise(int pairs)
{
    if (pairs == m_pairs)
        return;
    m_pairs = pairs;
    emit headerDataChanged(Qt::Horizontal, SpearmanColumn, DeltaColumn);
}

QString HpssLeaderboardModel::levelText(CorrelationLevel level)
{
    return level == CorrelationLevel::Summary ? tr("summary-level") : tr("dataset-level");
}

QString HpssLeaderboardModel::levelDescription(CorrelationLevel level)
{
    return level == CorrelationLevel::Summary
                   ? tr("summary-level: per source (an article's summaries), then averaged over the sources "
                        "(paper Eq. 8)")
                   : tr("dataset-level: over all validation items at once");
}

} // namespace rubric
