#pragma once

#include "rubric/Rubric.h"

#include <QString>
#include <QVector>

namespace rubric {

/// What changed between two versions of a rubric, criterion by criterion (criteria are matched by
/// their key, which stays stable across versions): added, removed, text or definition reworded,
/// enabled or disabled, moved (another parent or position among its siblings).
class RubricDiff
{
public:
    enum class Change { Added, Removed, Reworded, Enabled, Disabled, Moved };

    struct Entry
    {
        Change change;
        QString key;
        QString before; ///< text in the old version (empty for Added)
        QString after;  ///< text in the new version (empty for Removed)
    };

    /// Entries in the new version's order, removed criteria last; one criterion may have several
    /// (e.g. reworded and disabled).
    static QVector<Entry> compare(const Rubric &before, const Rubric &after);
    static QString changeName(Change change);
    /// One line per entry, e.g. "~ h3 reworded: “old” → “new”"; "no changes" when equal.
    static QString toText(const QVector<Entry> &entries);
};

} // namespace rubric
