// Project: what one annotator changes at a time (a score, a note), written so that it changes
// only that: two annotators (or one in two windows) never write each other's values back stale.
#include "Project.h"
#include "SqlUtil.h"

#include <QDateTime>
#include <QSqlQuery>

namespace rubric {

Result<void> Project::setAnnotationScore(const QString &itemId, const QString &aspect, const QString &annotator,
                                         double score, const std::optional<QString> &note)
{
    if (annotator.trimmed().isEmpty())
        return makeError(tr("an annotation needs an annotator name"), {}, 0, QStringLiteral("annotator"));
    const auto asp = readAspect(aspect);
    if (!asp)
        return asp.error();
    if (!*asp)
        return makeError(tr("no aspect named '%1' in the project").arg(aspect), {}, 0, QStringLiteral("aspect"));
    if (!(score >= (*asp)->min && score <= (*asp)->max))
        return makeError(tr("score %1 for '%2' is outside its scale %3–%4")
                                 .arg(score)
                                 .arg(aspect)
                                 .arg((*asp)->min)
                                 .arg((*asp)->max),
                         {}, 0, QStringLiteral("score"));
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    auto r = transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        const Result<bool> found = sql::firstRow(q, QStringLiteral("SELECT id FROM items WHERE ext_id = ?"), {itemId});
        if (!found.ok())
            return found.error();
        if (!*found)
            return makeError(tr("no item with id '%1' in the project").arg(itemId), {}, 0, QStringLiteral("item_id"));
        const qint64 item = q.value(0).toLongLong();
        const auto aspectRow = aspectRowId(db, aspect);
        if (!aspectRow)
            return aspectRow.error();
        if (note) // the note typed with this score: stored with it
            return sql::exec(q,
                             QStringLiteral("INSERT INTO annotations(item_id, aspect_id, annotator, score, note, "
                                            "created_at) VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT(item_id, aspect_id, "
                                            "annotator) DO UPDATE SET score = excluded.score, note = excluded.note, "
                                            "created_at = excluded.created_at"),
                             {item, *aspectRow, annotator, score, sql::text(*note), now});
        // No note given: a score already stored keeps its note; a new one takes the note this
        // annotator wrote on the item's other aspects (the note travels with the item's scores).
        return sql::exec(
                q,
                QStringLiteral("INSERT INTO annotations(item_id, aspect_id, annotator, score, note, created_at) "
                               "VALUES(?, ?, ?, ?, COALESCE((SELECT note FROM annotations WHERE item_id = ? "
                               "AND annotator = ? AND note <> '' LIMIT 1), ''), ?) ON CONFLICT(item_id, aspect_id, "
                               "annotator) DO "
                               "UPDATE SET score = excluded.score, created_at = excluded.created_at"),
                {item, *aspectRow, annotator, score, item, annotator, now});
    });
    if (r) {
        emit annotationChanged(itemId, aspect);
        announceChange({QStringLiteral("annotation"), itemId, aspect});
    }
    return r;
}

Result<int> Project::setAnnotationNote(const QString &itemId, const QString &annotator, const QString &note)
{
    QStringList aspects;
    auto r = transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        // The aspects touched, for the signals; the scores are not written.
        if (auto e = sql::exec(q,
                               QStringLiteral("SELECT s.name FROM annotations a JOIN aspects s ON s.id = a.aspect_id "
                                              "JOIN items i ON i.id = a.item_id WHERE i.ext_id = ? AND a.annotator = ? "
                                              "ORDER BY s.name"),
                               {itemId, annotator});
            !e)
            return e;
        while (q.next())
            aspects << q.value(0).toString();
        return sql::exec(q,
                         QStringLiteral("UPDATE annotations SET note = ? WHERE annotator = ? AND item_id = (SELECT id "
                                        "FROM items WHERE ext_id = ?)"),
                         {sql::text(note), annotator, itemId});
    });
    if (!r)
        return r.error();
    for (const QString &aspect : std::as_const(aspects)) {
        emit annotationChanged(itemId, aspect);
        announceChange({QStringLiteral("annotation"), itemId, aspect});
    }
    return int(aspects.size());
}

} // namespace rubric
