#include "methods/hpss/HpssLeaderboard.h"

#include "methods/hpss/HpssLeaderboardModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace rubric {

using namespace hpss;

HpssLeaderboard::HpssLeaderboard(QWidget *parent)
    : QWidget(parent)
    , m_model(new HpssLeaderboardModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_send(new QPushButton(tr("Send to test split"), this))
    , m_inspect(new QPushButton(tr("Show prompt"), this))
{
    setObjectName(QStringLiteral("hpssLeaderboard"));
    m_table->setObjectName(QStringLiteral("hpssLeaderboardTable"));
    m_send->setObjectName(QStringLiteral("hpssSendToTest"));
    m_inspect->setObjectName(QStringLiteral("hpssShowPrompt"));
    m_send->setToolTip(tr("Start a run that scores the selected strategy once on the test split (a new judge; "
                          "its validation answers come from the cache)"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(HpssLeaderboardModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(HpssLeaderboardModel::SpearmanColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_send);
    buttons->addWidget(m_inspect);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HpssLeaderboard::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &HpssLeaderboard::updateButtons);
    connect(m_send, &QPushButton::clicked, this, [this] {
        if (const auto s = selectedStrategy())
            emit sendToTestRequested(*s);
    });
    connect(m_inspect, &QPushButton::clicked, this, [this] {
        if (const auto s = selectedStrategy())
            emit inspectRequested(*s);
    });
    connect(m_table, &QTableView::doubleClicked, this, [this] {
        if (const auto s = selectedStrategy())
            emit inspectRequested(*s);
    });
    updateButtons();
}

std::optional<PromptStrategy> HpssLeaderboard::selectedStrategy() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return std::nullopt;
    return m_model->strategy(m_proxy->mapToSource(rows.first()).row());
}

bool HpssLeaderboard::selectStrategy(const PromptStrategy &strategy)
{
    for (int row = 0; row < m_model->rowCount(); ++row)
        if (m_model->strategy(row) == strategy) {
            const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
            m_table->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_table->scrollTo(index);
            return true;
        }
    return false;
}

void HpssLeaderboard::setSendEnabled(bool enabled)
{
    m_sendEnabled = enabled;
    updateButtons();
}

void HpssLeaderboard::updateButtons()
{
    const bool selected = selectedStrategy().has_value();
    m_send->setEnabled(selected && m_sendEnabled);
    m_inspect->setEnabled(selected);
}

} // namespace rubric
