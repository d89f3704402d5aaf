#include "SqliteItemSink.h"

#include <QSqlDriver>
#include <QVariant>

#include <sqlite3.h>

namespace rubric::sqlitesink {
namespace {

/// A prepared statement, finalized when it goes.
class Statement
{
public:
    Statement() = default;
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;
    ~Statement() { sqlite3_finalize(m_stmt); }

    Result<void> prepare(sqlite3 *db, const char *sql)
    {
        if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr) != SQLITE_OK)
            return makeError(QString::fromUtf8(sqlite3_errmsg(db)));
        return {};
    }
    sqlite3_stmt *get() const { return m_stmt; }

private:
    sqlite3_stmt *m_stmt = nullptr;
};

/// Binds UTF-8 text that stays put until the statement is reset (SQLITE_STATIC: not copied).
int bindText(sqlite3_stmt *s, int column, const QByteArray &utf8)
{
    return sqlite3_bind_text(s, column, utf8.constData(), int(utf8.size()), SQLITE_STATIC);
}

class Sink : public ItemSink
{
public:
    Sink(sqlite3 *db, QVector<qint64> aspectRows, int firstPosition, QByteArray now)
        : m_db(db)
        , m_aspectRows(std::move(aspectRows))
        , m_first(firstPosition)
        , m_position(firstPosition)
        , m_now(std::move(now))
    {
    }

    Result<void> prepare()
    {
        // ON CONFLICT DO NOTHING: a repeated id writes no row, so the importer can still ask where
        // it was first.
        for (auto [statement, sql] :
             {std::pair{&m_item, "INSERT INTO items(ext_id, position, group_id, system_id, source_id, output_id, "
                                 "reference_id, context_id) VALUES(?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(ext_id) DO "
                                 "NOTHING"},
              std::pair{&m_lookup, "SELECT position FROM items WHERE ext_id = ?"},
              std::pair{&m_findText, "SELECT id, body FROM texts WHERE hash = ?"},
              std::pair{&m_insertText, "INSERT INTO texts(hash, body) VALUES(?, ?)"},
              std::pair{&m_score, "INSERT INTO annotations(item_id, aspect_id, annotator, score, note, created_at) "
                                  "VALUES(?, ?, ?, ?, '', ?)"}})
            if (auto r = statement->prepare(m_db, sql); !r)
                return r;
        return {};
    }

    Result<Added> addItem(const ImportedItem &it) override
    {
        sqlite3_stmt *s = m_item.get();
        std::array<qint64, 4> textRows{};
        for (size_t t = 0; t < textRows.size(); ++t) {
            auto row = intern(it.texts[t], it.addresses[t]);
            if (!row)
                return row.error();
            textRows[t] = *row;
        }
        bindText(s, 1, it.id);
        sqlite3_bind_int64(s, 2, m_position);
        bindText(s, 3, it.group);
        bindText(s, 4, it.system);
        for (size_t t = 0; t < textRows.size(); ++t)
            sqlite3_bind_int64(s, int(5 + t), textRows[t]);
        const int rc = sqlite3_step(s);
        sqlite3_reset(s);
        if (rc != SQLITE_DONE)
            return failed();
        Added added;
        if (sqlite3_changes(m_db) == 0) {
            sqlite3_stmt *l = m_lookup.get();
            bindText(l, 1, it.id);
            const int position = sqlite3_step(l) == SQLITE_ROW ? sqlite3_column_int(l, 0) : -1;
            sqlite3_reset(l);
            added.clashIndex = position >= m_first ? position - m_first : -1;
            return added;
        }
        added.row = sqlite3_last_insert_rowid(m_db);
        ++m_position;
        return added;
    }

    Result<void> addScore(qint64 itemRow, int aspect, const QString &annotator, double score) override
    {
        if (annotator != m_annotator) {
            m_annotator = annotator;
            m_annotatorUtf8 = annotator.toUtf8();
        }
        sqlite3_stmt *s = m_score.get();
        sqlite3_bind_int64(s, 1, itemRow);
        sqlite3_bind_int64(s, 2, m_aspectRows.at(aspect));
        bindText(s, 3, m_annotatorUtf8);
        sqlite3_bind_double(s, 4, score);
        bindText(s, 5, m_now);
        const int rc = sqlite3_step(s);
        sqlite3_reset(s);
        if (rc != SQLITE_DONE)
            return failed().error();
        return {};
    }

private:
    struct Recent
    {
        QByteArray body;
        qint64 address = 0;
        qint64 row = -1;
    };

    Result<Added> failed() const { return makeError(QString::fromUtf8(sqlite3_errmsg(m_db))); }

    /// The row of a text equal to `body`, written first when there is none. The last few texts
    /// are remembered: the article shared by consecutive outputs is found without a lookup, and
    /// without comparing its bytes when the reader handed over the same copy.
    Result<qint64> intern(const QByteArray &body, qint64 address)
    {
        for (const Recent &r : m_recent)
            if (r.row >= 0 && r.address == address && r.body.size() == body.size()
                && (r.body.constData() == body.constData() || r.body == body))
                return r.row;
        qint64 row = -1;
        sqlite3_stmt *f = m_findText.get();
        sqlite3_bind_int64(f, 1, address);
        int rc;
        while (row < 0 && (rc = sqlite3_step(f)) == SQLITE_ROW) {
            const auto *text = static_cast<const char *>(sqlite3_column_blob(f, 1));
            const int bytes = sqlite3_column_bytes(f, 1);
            if (bytes == body.size() && (bytes == 0 || memcmp(text, body.constData(), size_t(bytes)) == 0))
                row = sqlite3_column_int64(f, 0);
        }
        sqlite3_reset(f);
        if (row < 0) {
            sqlite3_stmt *i = m_insertText.get();
            sqlite3_bind_int64(i, 1, address);
            bindText(i, 2, body);
            rc = sqlite3_step(i);
            sqlite3_reset(i);
            if (rc != SQLITE_DONE)
                return makeError(QString::fromUtf8(sqlite3_errmsg(m_db)));
            row = sqlite3_last_insert_rowid(m_db);
        }
        m_recent[m_next] = {body, address, row};
        m_next = (m_next + 1) % m_recent.size();
        return row;
    }

    sqlite3 *m_db;
    Statement m_item, m_lookup, m_findText, m_insertText, m_score;
    QVector<qint64> m_aspectRows;
    int m_first = 0, m_position = 0;
    QByteArray m_now;
    QString m_annotator;
    QByteArray m_annotatorUtf8;
    std::array<Recent, 16> m_recent;
    size_t m_next = 0;
};

} // namespace

Result<std::unique_ptr<ItemSink>> open(QSqlDatabase &db, QVector<qint64> aspectRows, int firstPosition,
                                       const QString &now)
{
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    auto *raw = handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0
                        ? *static_cast<sqlite3 *const *>(handle.constData())
                        : nullptr;
    if (!raw)
        return makeError(QStringLiteral("no SQLite connection to write to"));
    auto sink = std::make_unique<Sink>(raw, std::move(aspectRows), firstPosition, now.toUtf8());
    if (auto r = sink->prepare(); !r)
        return r.error();
    return std::unique_ptr<ItemSink>(std::move(sink));
}

} // namespace rubric::sqlitesink
