#include "panes/RunList.h"

#include "models/ReadPool.h"

#include <QHeaderView>
#include <QLocale>
#include <QSignalBlocker>
#include <QtConcurrent>

namespace rubric {

namespace {
const char *const kGeneration = "generation";
}

RunList::RunList(QWidget *parent)
    : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("runList"));
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setHeaderLabels({tr("Judge"), tr("Method"), tr("Aspect"), tr("Status"), tr("Items")});
    header()->setSectionResizeMode(JudgeColumn, QHeaderView::Stretch);
    connect(&m_count, &QFutureWatcherBase::finished, this, &RunList::onCounted);
}

RunList::~RunList()
{
    m_count.disconnect(this);
    waitForCount();
}

void RunList::waitForCount()
{
    // The count reads through the project on a pool thread: it must end before the project goes.
    if (m_count.isRunning())
        m_count.waitForFinished();
}

void RunList::setProject(Project *project)
{
    if (project == m_project)
        return;
    waitForCount();
    ++m_generation; // a count of the old project finishing now is not shown
    m_countAgain = false;
    m_project = project;
    clear();
}

QString RunList::selectedRun() const
{
    const QTreeWidgetItem *item = currentItem();
    return item ? item->data(JudgeColumn, Qt::UserRole).toString() : QString();
}

bool RunList::counting() const
{
    return m_count.isRunning();
}

Result<void> RunList::refill()
{
    const QString selected = selectedRun();
    const QSignalBlocker block(this);
    clear();
    if (!m_project)
        return {};
    const auto judges = m_project->readJudges(Project::JudgeCounts::Skip);
    if (!judges)
        return judges.error();
    for (const JudgeInfo &j : *judges) {
        auto *item = new QTreeWidgetItem(
                this, {j.name, j.method, j.aspects.join(QStringLiteral(", ")), j.status, QStringLiteral("…")});
        item->setData(JudgeColumn, Qt::UserRole, j.name);
        item->setTextAlignment(ItemsColumn, Qt::AlignRight | Qt::AlignVCenter);
        if (j.name == selected)
            setCurrentItem(item);
    }
    startCount();
    return {};
}

void RunList::startCount()
{
    if (!m_project)
        return;
    if (m_count.isRunning()) {
        m_countAgain = true; // once this one is done: the rows may have changed meanwhile
        return;
    }
    m_countAgain = false;
    const Project *project = m_project;
    m_count.setProperty(kGeneration, m_generation);
    // The pool thread reads on its own connection of the project (Project: any thread may read).
    m_count.setFuture(QtConcurrent::run(readPool(), [project]() -> Result<QVector<JudgeInfo>> {
        return project->readJudges(Project::JudgeCounts::Items);
    }));
}

void RunList::onCounted()
{
    if (m_count.property(kGeneration).toULongLong() != m_generation)
        return; // of a project no longer shown (none is counting now: start afresh on refill)
    if (m_countAgain) {
        startCount();
        return;
    }
    const Result<QVector<JudgeInfo>> counted = m_count.result();
    if (!counted) {
        emit countFailed(counted.errorString());
        return;
    }
    QHash<QString, int> items;
    for (const JudgeInfo &j : *counted)
        items.insert(j.name, j.items);
    const QLocale locale;
    for (int i = 0; i < topLevelItemCount(); ++i) {
        QTreeWidgetItem *row = topLevelItem(i);
        const auto it = items.constFind(row->data(JudgeColumn, Qt::UserRole).toString());
        // A judge made after the count started is counted by the refill that listed it.
        if (it != items.constEnd())
            row->setText(ItemsColumn, locale.toString(*it));
    }
    emit countsShown();
}

} // namespace rubric
