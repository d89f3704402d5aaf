#pragma once

#include <QString>
#include <QVariantMap>

namespace rubric {

/// One piece of generated text to be judged, with what it was generated from.
/// `id` is the user-facing identifier (from the dataset, or the 0-based position in the file).
struct Item
{
    QString id;
    QString group;  ///< document / prompt / dialogue the output belongs to
    QString system; ///< the system that produced `output`
    QString source;
    QString output;
    QString reference;
    QVariantMap context; ///< extra named fields (e.g. Topical-Chat's knowledge fact)
    int position = 0;    ///< order of import
};

/// An item without its texts: what lists, splits and statistics read (Project::readItemRows), a
/// few dozen bytes where an Item with its source article takes kilobytes.
struct ItemRow
{
    QString id;
    QString group;
    QString system;
    int position = 0;
};

} // namespace rubric
