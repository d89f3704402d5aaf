#pragma once

#include "util/Result.h"

#include <QTreeWidget>

namespace rubric {

class Project;

/// The saved versions of one judge's rubric (number, date, train and test alignment, note), as
/// the Rubric pane lists them. The test-split column is hidden until asked for, so rubrics are not
/// tuned on the items that report the judge's quality. Reads through RubricStore; owns nothing else.
class RubricVersionList : public QTreeWidget
{
    Q_OBJECT
public:
    enum Column { VersionNumber, VersionDate, VersionAlignment, VersionTestAlignment, VersionNote };

    explicit RubricVersionList(QWidget *parent = nullptr);

    /// Lists `judge`'s versions from `project` (empty for none); returns the latest version number
    /// (0 for none) or the store's error (the list then stays empty). Emits no selection signals.
    Result<int> fill(Project *project, const QString &judge);
    /// The version an item stands for.
    static int versionOf(const QTreeWidgetItem *item);
    /// The versions selected (ascending; two of them can be compared).
    QList<int> selectedVersions() const;
    /// Makes `version` the current item without emitting signals; false if it is not listed.
    bool selectVersion(int version);
    /// Shows or hides the test-split alignment column.
    void setTestShown(bool shown);
};

} // namespace rubric
