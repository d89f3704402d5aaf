#include "RubricVersionList.h"

#include "PlainText.h"
#include "models/CriterionDetail.h"
#include "store/RubricStore.h"

#include <QHeaderView>
#include <QLocale>
#include <QSignalBlocker>

#include <algorithm>

namespace rubric {

RubricVersionList::RubricVersionList(QWidget *parent)
    : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("rubricVersions"));
    setColumnCount(5);
    setHeaderLabels({tr("Version"), tr("Saved"), tr("Alignment (train)"), tr("Alignment (test)"), tr("Note")});
    // Every version is measured on the train split; the test figure only on request, so rubrics
    // are not tuned on the items that report the judge's quality.
    setColumnHidden(VersionTestAlignment, true);
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    header()->setStretchLastSection(true);
    setToolTip(tr("Saved versions of the rubric; select one to read it (the latest is edited), "
                  "select two (Ctrl+click or Shift+arrow) to compare them"));
    setMinimumHeight(90);
}

Result<int> RubricVersionList::fill(Project *project, const QString &judge)
{
    const QSignalBlocker block(this);
    clear();
    if (!project || judge.isEmpty())
        return 0;
    const auto versions = RubricStore(project).readVersions(judge);
    if (!versions)
        return versions.error();
    const QLocale locale;
    int latest = 0;
    for (const RubricVersionInfo &v : *versions) {
        auto *item = new QTreeWidgetItem(this);
        item->setData(VersionNumber, Qt::UserRole, v.version);
        item->setText(VersionNumber, tr("v%1").arg(v.version));
        item->setText(VersionDate, locale.toString(v.created.toLocalTime(), QLocale::ShortFormat));
        item->setText(VersionAlignment, v.alignment ? CriterionDetail::number(*v.alignment) : tr("—"));
        item->setTextAlignment(VersionAlignment, Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(
                VersionAlignment,
                v.alignment ? tr("Pearson with the human scores on the train split; the note says on how "
                                 "many items")
                            : tr("Not measured on the train split yet: the re-score of an edited version scores the "
                                 "annotated train items too; a first version is measured when its run "
                                 "scores them (Items: All items)"));
        item->setText(VersionTestAlignment, v.testAlignment ? CriterionDetail::number(*v.testAlignment) : tr("—"));
        item->setTextAlignment(VersionTestAlignment, Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(VersionTestAlignment, v.testAlignment ? v.testBasis : tr("Not measured on the test split"));
        item->setText(VersionNote, v.note);
        item->setToolTip(VersionNote, plain::toolTip(v.note)); // a note may quote rubric or dataset text
        latest = std::max(latest, v.version);
    }
    for (int c = 0; c < VersionNote; ++c)
        resizeColumnToContents(c);
    return latest;
}

int RubricVersionList::versionOf(const QTreeWidgetItem *item)
{
    return item ? item->data(VersionNumber, Qt::UserRole).toInt() : 0;
}

QList<int> RubricVersionList::selectedVersions() const
{
    QList<int> versions;
    for (const QTreeWidgetItem *item : selectedItems())
        versions.append(versionOf(item));
    std::sort(versions.begin(), versions.end());
    return versions;
}

bool RubricVersionList::selectVersion(int version)
{
    const QSignalBlocker block(this);
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (versionOf(topLevelItem(i)) == version) {
            if (currentItem() != topLevelItem(i))
                setCurrentItem(topLevelItem(i));
            return true;
        }
    return false;
}

void RubricVersionList::setTestShown(bool shown)
{
    setColumnHidden(VersionTestAlignment, !shown);
    if (shown)
        resizeColumnToContents(VersionTestAlignment);
}

} // namespace rubric
