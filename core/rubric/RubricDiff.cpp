#include "RubricDiff.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>

namespace rubric {

namespace {

QString trc(const char *text)
{
    return QCoreApplication::translate("rubric::RubricDiff", text);
}

/// Index of each criterion among its siblings (position order), for "moved".
QHash<QString, int> siblingIndex(const Rubric &r)
{
    QHash<QString, int> out;
    QHash<QString, int> next;
    QVector<Criterion> sorted = r.criteria();
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Criterion &a, const Criterion &b) { return a.position < b.position; });
    for (const Criterion &c : sorted)
        out.insert(c.key, next[c.parentKey]++);
    return out;
}

QString quoted(const QString &text)
{
    const QString t = text.simplified();
    return QStringLiteral("“") + (t.size() > 120 ? t.left(117) + QStringLiteral("…") : t) + QStringLiteral("”");
}

} // namespace

QVector<RubricDiff::Entry> RubricDiff::compare(const Rubric &before, const Rubric &after)
{
    QVector<Entry> out;
    const QHash<QString, int> oldIndex = siblingIndex(before);
    const QHash<QString, int> newIndex = siblingIndex(after);
    for (const Criterion &c : after.criteria()) {
        const Criterion *old = before.find(c.key);
        if (!old) {
            out.append({Change::Added, c.key, {}, c.text});
            continue;
        }
        if (old->text != c.text || old->definition != c.definition)
            out.append({Change::Reworded, c.key, old->text, c.text});
        if (old->enabled != c.enabled)
            out.append({c.enabled ? Change::Enabled : Change::Disabled, c.key, old->text, c.text});
        if (old->parentKey != c.parentKey || oldIndex.value(c.key) != newIndex.value(c.key))
            out.append({Change::Moved, c.key, old->text, c.text});
    }
    for (const Criterion &c : before.criteria())
        if (!after.find(c.key))
            out.append({Change::Removed, c.key, c.text, {}});
    return out;
}

QString RubricDiff::changeName(Change change)
{
    switch (change) {
    case Change::Added:
        return trc("added");
    case Change::Removed:
        return trc("removed");
    case Change::Reworded:
        return trc("reworded");
    case Change::Enabled:
        return trc("enabled");
    case Change::Disabled:
        return trc("disabled");
    case Change::Moved:
        return trc("moved");
    }
    return {};
}

QString RubricDiff::toText(const QVector<Entry> &entries)
{
    if (entries.isEmpty())
        return trc("no changes") + QLatin1Char('\n');
    QString out;
    for (const Entry &e : entries) {
        QChar mark = QLatin1Char('~');
        QString detail;
        switch (e.change) {
        case Change::Added:
            mark = QLatin1Char('+');
            detail = quoted(e.after);
            break;
        case Change::Removed:
            mark = QLatin1Char('-');
            detail = quoted(e.before);
            break;
        case Change::Reworded:
            detail = quoted(e.before) + QStringLiteral(" → ") + quoted(e.after);
            break;
        case Change::Enabled:
        case Change::Disabled:
        case Change::Moved:
            detail = quoted(e.after);
            break;
        }
        out += mark + QLatin1Char(' ') + e.key + QLatin1Char(' ') + changeName(e.change) + QStringLiteral(": ") + detail
               + QLatin1Char('\n');
    }
    return out;
}

} // namespace rubric
