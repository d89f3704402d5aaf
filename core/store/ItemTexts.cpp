#include "ItemTexts.h"

#include "SqlDialect.h"
#include "SqlUtil.h"
#include "util/Json.h"

#include <QCryptographicHash>
#include <QSqlError>
#include <QtEndian>

namespace rubric::itemtexts {

qint64 address(const QString &body)
{
    return address(QByteArrayView(body.toUtf8()));
}

qint64 address(QByteArrayView utf8)
{
    const QByteArray digest = QCryptographicHash::hash(utf8, QCryptographicHash::Md5);
    return qFromBigEndian<qint64>(digest.constData());
}

QString selectItems()
{
    return QStringLiteral("SELECT i.ext_id, i.position, i.group_id, i.system_id, COALESCE(ts.body, ''), "
                          "COALESCE(tout.body, ''), COALESCE(tr.body, ''), COALESCE(tc.body, '{}') FROM items i "
                          "LEFT JOIN texts ts ON ts.id = i.source_id LEFT JOIN texts tout ON tout.id = i.output_id "
                          "LEFT JOIN texts tr ON tr.id = i.reference_id LEFT JOIN texts tc ON tc.id = i.context_id");
}

Item itemFromQuery(const QSqlQuery &q)
{
    Item it;
    it.id = q.value(0).toString();
    it.position = q.value(1).toInt();
    it.group = q.value(2).toString();
    it.system = q.value(3).toString();
    it.source = q.value(4).toString();
    it.output = q.value(5).toString();
    it.reference = q.value(6).toString();
    const QString ctx = q.value(7).toString();
    if (ctx.size() > 2)
        it.context = json::parse(ctx).toMap();
    return it;
}

Interner::Interner(QSqlDatabase db)
    : m_find(db)
    , m_insert(db)
{
    m_postgres = sql::isPostgres(db);
    m_find.setForwardOnly(true);
    m_prepared = m_find.prepare(QStringLiteral("SELECT id, body FROM texts WHERE hash = ?"))
                 && m_insert.prepare(sql::withReturningId(db, QStringLiteral("INSERT INTO texts(hash, body) "
                                                                             "VALUES(?, ?)")));
    if (!m_prepared)
        m_error = m_find.lastError().isValid() ? m_find.lastError().text() : m_insert.lastError().text();
}

Result<qint64> Interner::intern(const QString &body)
{
    if (!m_prepared)
        return makeError(m_error);
    for (const Recent &r : m_recent)
        if (r.row >= 0 && r.body.size() == body.size() && r.body == body)
            return r.row;
    const qint64 hash = address(body);
    qint64 row = -1;
    m_find.bindValue(0, hash);
    if (!m_find.exec())
        return makeError(m_find.lastError().text());
    while (row < 0 && m_find.next())
        if (m_find.value(1).toString() == body)
            row = m_find.value(0).toLongLong();
    m_find.finish();
    if (row < 0) {
        m_insert.bindValue(0, hash);
        m_insert.bindValue(1, body.isNull() ? QStringLiteral("") : body);
        if (!m_insert.exec())
            return makeError(m_insert.lastError().text());
        row = sql::insertedId(m_insert);
        m_insert.finish();
    }
    m_recent[m_next] = {body, row};
    m_next = (m_next + 1) % m_recent.size();
    return row;
}

namespace {

/// On PostgreSQL the server moves the texts itself, in two statements: nothing passes through
/// the client (whose driver would read a whole result into memory), whatever the database's size.
/// The address is the same as address(): the first 8 bytes of the MD5 of the UTF-8, big-endian.
Result<void> moveTextsOnServer(QSqlDatabase &db)
{
    QSqlQuery q(db);
    const QString hash = QStringLiteral("('x' || substr(md5(convert_to(%1, 'UTF8')), 1, 16))::bit(64)::bigint");
    for (const QString &statement :
         {QStringLiteral("INSERT INTO texts(hash, body) SELECT %1, b FROM (SELECT source AS b FROM items UNION "
                         "SELECT output FROM items UNION SELECT reference FROM items UNION SELECT context FROM "
                         "items) AS t")
                  .arg(hash.arg(QStringLiteral("b"))),
          QStringLiteral("UPDATE items SET source_id = ts.id, output_id = tout.id, reference_id = tr.id, context_id "
                         "= tc.id FROM texts ts, texts tout, texts tr, texts tc WHERE ts.body = items.source AND "
                         "tout.body = items.output AND tr.body = items.reference AND tc.body = items.context")})
        if (!q.exec(statement))
            return makeError(q.lastError().text());
    return {};
}

} // namespace

Result<void> moveTextsOutOfItems(QSqlDatabase &db)
{
    if (sql::isPostgres(db))
        return moveTextsOnServer(db);
    QSqlQuery read(db), write(db);
    // SQLite steps through the items while updating them.
    read.setForwardOnly(true);
    if (auto r
        = sql::exec(read, QStringLiteral("SELECT id, source, output, reference, context FROM items ORDER BY id"));
        !r)
        return r;
    if (auto r = sql::prepare(write, QStringLiteral("UPDATE items SET source_id = ?, output_id = ?, reference_id = ?, "
                                                    "context_id = ? WHERE id = ?"));
        !r)
        return r;
    Interner texts(db);
    while (read.next()) {
        std::array<qint64, 4> rows{};
        for (int c = 0; c < 4; ++c) {
            auto row = texts.intern(read.value(1 + c).toString());
            if (!row)
                return row.error();
            rows[size_t(c)] = *row;
        }
        if (auto r = sql::rebind(write, {rows[0], rows[1], rows[2], rows[3], read.value(0)}); !r)
            return r;
    }
    if (read.lastError().isValid())
        return makeError(read.lastError().text());
    return {};
}

} // namespace rubric::itemtexts
