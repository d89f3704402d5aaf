#pragma once

// Internal to core/store: the items' texts stored once (schema 8). An item's source, output,
// reference and context are rows of `texts`, addressed by their content: outputs that share an
// article point at one copy of it, and the items table holds only ids, labels and positions, so
// lists and statistics read it without touching a byte of text.

#include "data/Item.h"
#include "util/Result.h"

#include <QByteArrayView>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

#include <array>

namespace rubric::itemtexts {

/// The 64-bit content address of a text: the first 8 bytes of the MD5 of its UTF-8 form, stable
/// across builds and platforms. Equal texts have equal addresses; equal addresses are checked by
/// comparing the texts.
qint64 address(const QString &body);
/// The same address of a text given as UTF-8.
qint64 address(QByteArrayView utf8);

/// The columns of `items` joined with their texts, in the order itemFromQuery() reads:
/// ext_id, position, group_id, system_id, source, output, reference, context. Add a WHERE or an
/// ORDER BY on the `i.` columns.
QString selectItems();
/// An item read from a query made of selectItems().
Item itemFromQuery(const QSqlQuery &q);

/// Writes texts once, on an open transaction of `db`: intern() returns the row of a text equal
/// to `body`, inserting it first when there is none. Recent texts are remembered by value, so the
/// article shared by consecutive outputs is neither hashed nor looked up again.
class Interner
{
public:
    explicit Interner(QSqlDatabase db);
    Result<qint64> intern(const QString &body);

private:
    struct Recent
    {
        QString body;
        qint64 row = -1;
    };
    QSqlQuery m_find, m_insert;
    bool m_prepared = false;
    QString m_error;
    std::array<Recent, 16> m_recent;
    size_t m_next = 0;
    bool m_postgres = false;
};

/// Schema 7 → 8 on an open transaction: every item's texts into `texts` (once each), the item's
/// columns pointing at them; the old text columns are dropped after this by the step's statements.
Result<void> moveTextsOutOfItems(QSqlDatabase &db);

} // namespace rubric::itemtexts
