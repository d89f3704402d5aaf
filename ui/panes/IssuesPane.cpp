#include "IssuesPane.h"

#include "models/IssuesModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace rubric {

IssuesPane::IssuesPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new IssuesModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_goTo(new QPushButton(tr("Go to item"), this))
    , m_clear(new QPushButton(tr("Clear all"), this))
{
    setObjectName(QStringLiteral("issuesPane"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(IssuesModel::SortRole);
    m_view->setObjectName(QStringLiteral("issuesView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(IssuesModel::TimeColumn, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnWidth(IssuesModel::TimeColumn, 160);
    m_view->setColumnWidth(IssuesModel::KindColumn, 120);
    m_view->setColumnWidth(IssuesModel::RunColumn, 140);
    m_view->setColumnWidth(IssuesModel::ItemColumn, 80);
    m_summary->setObjectName(QStringLiteral("issuesSummary"));
    m_goTo->setObjectName(QStringLiteral("goToItemButton"));
    m_clear->setObjectName(QStringLiteral("clearIssuesButton"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_goTo);
    bar->addWidget(m_clear);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    const auto goTo = [this] {
        const QString id = selectedItemId();
        if (!id.isEmpty())
            emit goToItemRequested(id);
    };
    connect(m_goTo, &QPushButton::clicked, this, goTo);
    connect(m_view, &QTableView::activated, this, goTo);
    connect(m_clear, &QPushButton::clicked, m_model, &IssuesModel::clearIssues);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &IssuesPane::updateState);
    connect(m_model, &QAbstractItemModel::modelReset, this, &IssuesPane::updateState);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &IssuesPane::updateState);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &IssuesPane::updateState);
    updateState();
}

void IssuesPane::setProject(Project *project)
{
    m_model->setProject(project);
    updateState();
}

QString IssuesPane::selectedItemId() const
{
    return m_view->currentIndex().data(IssuesModel::ItemIdRole).toString();
}

void IssuesPane::updateState()
{
    const int n = m_model->rowCount();
    m_summary->setText(n == 0 ? tr("No issues: nothing has gone wrong in this project.")
                       : n == 1
                               ? tr("1 issue. Double-click it to open its item.")
                               : tr("%1 issues, newest first. Double-click one that names an item to open it.").arg(n));
    m_goTo->setEnabled(!selectedItemId().isEmpty());
    m_clear->setEnabled(n > 0);
}

} // namespace rubric
