#include "store/ItemPageStore.h"

#include "store/Project.h"
#include "store/SqlDialect.h"
#include "store/SqlUtil.h"

#include <QHash>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlQuery>

#include <limits>
#include <sqlite3.h>

namespace rubric {
namespace {

constexpr char kCollation[] = "rubric_natural";

bool isDigit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

unsigned char fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

int compareNatural(const unsigned char *a, int na, const unsigned char *b, int nb)
{
    int i = 0, j = 0;
    while (i < na && j < nb) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            // Digit runs compare by value: leading zeros skipped, then length, then digits.
            int si = i, sj = j;
            while (si + 1 < na && a[si] == '0' && isDigit(a[si + 1]))
                ++si;
            while (sj + 1 < nb && b[sj] == '0' && isDigit(b[sj + 1]))
                ++sj;
            int ei = si, ej = sj;
            while (ei < na && isDigit(a[ei]))
                ++ei;
            while (ej < nb && isDigit(b[ej]))
                ++ej;
            if (ei - si != ej - sj)
                return ei - si < ej - sj ? -1 : 1;
            for (int k = 0; k < ei - si; ++k)
                if (a[si + k] != b[sj + k])
                    return a[si + k] < b[sj + k] ? -1 : 1;
            i = ei;
            j = ej;
            continue;
        }
        const unsigned char ca = fold(a[i]), cb = fold(b[j]);
        if (ca != cb)
            return ca < cb ? -1 : 1;
        ++i;
        ++j;
    }
    if (i < na)
        return 1;
    if (j < nb)
        return -1;
    return 0;
}

int naturalCollation(void *, int na, const void *a, int nb, const void *b)
{
    return compareNatural(static_cast<const unsigned char *>(a), na, static_cast<const unsigned char *>(b), nb);
}

/// Registers the natural collation on `db`'s SQLite connection (again is harmless); false where
/// the connection is no SQLite one.
bool registerNatural(const QSqlDatabase &db)
{
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return false;
    auto *connection = *static_cast<sqlite3 *const *>(handle.constData());
    return connection
           && sqlite3_create_collation(connection, kCollation, SQLITE_UTF8, nullptr, &naturalCollation) == SQLITE_OK;
}

SplitRole roleOf(const QString &role)
{
    return role == QLatin1String("train")  ? SplitRole::Train
           : role == QLatin1String("test") ? SplitRole::Test
                                           : SplitRole::None;
}

QString likePattern(const QString &text)
{
    QString escaped = text;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
            .replace(QLatin1Char('%'), QStringLiteral("\\%"))
            .replace(QLatin1Char('_'), QStringLiteral("\\_"));
    return QLatin1Char('%') + escaped + QLatin1Char('%');
}

} // namespace

ItemPageStore::ItemPageStore(const Project *project)
    : m_project(project)
{
}

int ItemPageStore::naturalCompare(const QByteArray &a, const QByteArray &b)
{
    return compareNatural(reinterpret_cast<const unsigned char *>(a.constData()), int(a.size()),
                          reinterpret_cast<const unsigned char *>(b.constData()), int(b.size()));
}

Result<QVector<qint64>> ItemPageStore::order(const ItemView &view) const
{
    const QSqlDatabase db = m_project->database();
    const bool natural = registerNatural(db);
    const QString collate = natural ? QStringLiteral(" COLLATE %1").arg(QLatin1String(kCollation)) : QString();
    QStringList where;
    QVariantList values;
    QString joins = QStringLiteral(" LEFT JOIN splits s ON s.item_id = i.id");
    if (!view.group.isEmpty()) {
        where << QStringLiteral("i.group_id = ?");
        values << view.group;
    }
    if (!view.system.isEmpty()) {
        where << QStringLiteral("i.system_id = ?");
        values << view.system;
    }
    if (view.split == QLatin1String("none"))
        where << QStringLiteral("s.role IS NULL");
    else if (!view.split.isEmpty()) {
        where << QStringLiteral("s.role = ?");
        values << view.split;
    }
    if (!view.text.isEmpty()) {
        // PostgreSQL's LIKE minds the case; ILIKE is SQLite's LIKE there.
        const QString like = sql::isPostgres(db) ? QStringLiteral("ILIKE") : QStringLiteral("LIKE");
        where << QStringLiteral("(i.ext_id %1 ? ESCAPE '\\' OR i.group_id %1 ? ESCAPE '\\' OR i.system_id %1 ? "
                                "ESCAPE '\\' OR i.source_id IN (SELECT id FROM texts WHERE body %1 ? ESCAPE '\\') OR "
                                "i.output_id IN (SELECT id FROM texts WHERE body %1 ? ESCAPE '\\'))")
                         .arg(like);
        const QString pattern = likePattern(view.text);
        for (int k = 0; k < 5; ++k)
            values << pattern;
    }
    const QString direction = view.descending ? QStringLiteral(" DESC") : QString();
    QString key;
    QVariantList keyValues;
    switch (view.sort) {
    case ItemView::Sort::Position:
        break;
    case ItemView::Sort::Id:
        key = QStringLiteral("i.ext_id") + collate + direction;
        break;
    case ItemView::Sort::Group:
        key = QStringLiteral("i.group_id") + collate + direction;
        break;
    case ItemView::Sort::System:
        key = QStringLiteral("i.system_id") + collate + direction;
        break;
    case ItemView::Sort::Split:
        key = QStringLiteral("COALESCE(s.role, '')") + direction;
        break;
    case ItemView::Sort::Source:
    case ItemView::Sort::Output:
        // The beginning the table shows decides (a whole article is no sort key).
        joins += QStringLiteral(" LEFT JOIN texts t ON t.id = i.%1")
                         .arg(view.sort == ItemView::Sort::Source ? QStringLiteral("source_id")
                                                                  : QStringLiteral("output_id"));
        key = QStringLiteral("substr(COALESCE(t.body, ''), 1, 200)") + collate + direction;
        break;
    case ItemView::Sort::Human: {
        const QString mean = QStringLiteral("(SELECT AVG(n.score) FROM annotations n WHERE n.item_id = i.id AND "
                                            "n.aspect_id = (SELECT id FROM aspects WHERE name = ?))");
        key = QStringLiteral("CASE WHEN %1 IS NULL THEN 1 ELSE 0 END, %1%2").arg(mean, direction);
        keyValues << view.sortAspect << view.sortAspect;
        break;
    }
    }
    QString statement = QStringLiteral("SELECT i.id FROM items i") + joins;
    if (!where.isEmpty())
        statement += QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
    statement += QStringLiteral(" ORDER BY ") + (key.isEmpty() ? QString() : key + QStringLiteral(", "))
                 + QStringLiteral("i.position");
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.prepare(statement))
        return makeError(q.lastError().text());
    // Bound in the order they stand: the filter's, then the sort key's (ORDER BY comes last).
    for (const QVariant &v : std::as_const(values))
        q.addBindValue(v);
    for (const QVariant &v : std::as_const(keyValues))
        q.addBindValue(v);
    if (!q.exec())
        return makeError(q.lastError().text());
    QVector<qint64> out;
    while (q.next())
        out.append(q.value(0).toLongLong());
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    return out;
}

Result<QVector<ItemPageRow>> ItemPageStore::rows(const QVector<qint64> &keys, const QStringList &aspects,
                                                 int previewLength) const
{
    QVector<ItemPageRow> out;
    if (keys.isEmpty())
        return out;
    QString means;
    for (qsizetype a = 0; a < aspects.size(); ++a)
        means += QStringLiteral(", (SELECT AVG(n.score) FROM annotations n WHERE n.item_id = i.id AND n.aspect_id = "
                                "(SELECT id FROM aspects WHERE name = ?))");
    QString marks(keys.size() * 2 - 1, QLatin1Char(','));
    for (qsizetype k = 0; k < keys.size(); ++k)
        marks[k * 2] = QLatin1Char('?');
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    if (!q.prepare(QStringLiteral("SELECT i.id, i.ext_id, i.group_id, i.system_id, COALESCE(s.role, ''), "
                                  "substr(COALESCE(ts.body, ''), 1, %1), substr(COALESCE(tout.body, ''), 1, %1)%2 "
                                  "FROM items i LEFT JOIN splits s ON s.item_id = i.id LEFT JOIN texts ts ON ts.id = "
                                  "i.source_id LEFT JOIN texts tout ON tout.id = i.output_id WHERE i.id IN (%3)")
                           .arg(previewLength)
                           .arg(means, marks)))
        return makeError(q.lastError().text());
    for (const QString &a : aspects)
        q.addBindValue(a);
    for (const qint64 key : keys)
        q.addBindValue(key);
    if (!q.exec())
        return makeError(q.lastError().text());
    QHash<qint64, ItemPageRow> byKey;
    byKey.reserve(keys.size());
    const QVector<double> none(aspects.size(), std::numeric_limits<double>::quiet_NaN());
    while (q.next()) {
        ItemPageRow r;
        r.key = q.value(0).toLongLong();
        r.id = q.value(1).toString();
        r.group = q.value(2).toString();
        r.system = q.value(3).toString();
        r.split = roleOf(q.value(4).toString());
        r.source = q.value(5).toString();
        r.output = q.value(6).toString();
        r.human = none;
        for (qsizetype a = 0; a < aspects.size(); ++a)
            if (const QVariant v = q.value(7 + int(a)); !v.isNull())
                r.human[a] = v.toDouble();
        byKey.insert(r.key, std::move(r));
    }
    if (q.lastError().isValid())
        return makeError(q.lastError().text());
    out.reserve(keys.size());
    for (const qint64 key : keys)
        if (auto it = byKey.find(key); it != byKey.end())
            out.append(std::move(*it));
    return out;
}

Result<qint64> ItemPageStore::keyOf(const QString &id) const
{
    QSqlQuery q(m_project->database());
    const auto found = sql::firstRow(q, QStringLiteral("SELECT id FROM items WHERE ext_id = ?"), {id});
    if (!found.ok())
        return found.error();
    return *found ? q.value(0).toLongLong() : qint64(-1);
}

} // namespace rubric
