#include "store/SplitStore.h"

#include "store/Project.h"
#include "store/ScoreColumns.h"
#include "store/SqlUtil.h"

#include <QCoreApplication>

#include <algorithm>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::Project", text);
}

} // namespace

SplitStore::SplitStore(Project *project)
    : m_project(project)
{
}

Result<SplitCandidates> SplitStore::candidates(const QString &aspect, bool withIds) const
{
    // The items in one scan of their table; the annotated ones from one pass over the annotations'
    // key (an annotation always names an aspect of the project, so "a human score for any aspect"
    // is "an annotation").
    const auto items = ScoreColumnStore(m_project).items(withIds ? ScoreColumnStore::Ids::All
                                                                 : ScoreColumnStore::Ids::WithoutGroup);
    if (!items)
        return items.error();
    qint64 top = 0;
    for (qint64 r : items->rows)
        top = std::max(top, r);
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    const QString text = aspect.isEmpty() ? QStringLiteral("SELECT DISTINCT item_id FROM annotations")
                                          : QStringLiteral("SELECT DISTINCT item_id FROM annotations WHERE aspect_id = "
                                                           "(SELECT id FROM aspects WHERE name = ?)");
    const Result<void> r = aspect.isEmpty() ? sql::exec(q, text) : sql::exec(q, text, {aspect});
    if (!r)
        return m_project->readError(tr("the human scores"), r);
    std::vector<char> scored(size_t(top) + 1, 0); // item row ids are dense: a table, not a hash
    while (q.next()) {
        const qint64 row = q.value(0).toLongLong();
        if (row >= 0 && row <= top)
            scored[size_t(row)] = 1;
    }
    if (q.lastError().isValid())
        return makeError(tr("cannot read %1 from the project: %2").arg(tr("the human scores"), q.lastError().text()),
                         m_project->path());
    SplitCandidates out;
    out.groups = items->groups;
    out.systems = items->systems;
    for (size_t i = 0; i < items->size(); ++i) {
        if (!scored[size_t(items->rows[i])])
            continue;
        out.rows.push_back(items->rows[i]);
        out.group.push_back(items->group[i]);
        out.system.push_back(items->system[i]);
        out.ids.append(items->ids.at(qsizetype(i)));
    }
    return out;
}

Result<void> SplitStore::write(const std::vector<qint64> &train, const std::vector<qint64> &test)
{
    auto r = m_project->transact([&](QSqlDatabase &db) -> Result<void> {
        QSqlQuery q(db);
        if (auto d = sql::exec(q, QStringLiteral("DELETE FROM splits")); !d)
            return d;
        if (auto p = sql::prepare(q, QStringLiteral("INSERT INTO splits(item_id, role) VALUES(?, ?)")); !p)
            return p;
        const QVariant trainRole = QStringLiteral("train"), testRole = QStringLiteral("test");
        for (const auto &[rows, role] : {std::pair{&train, &trainRole}, std::pair{&test, &testRole}})
            for (qint64 row : *rows)
                if (auto w = sql::rebind(q, {row, *role}); !w)
                    return w;
        return {};
    });
    if (r)
        emit m_project->splitChanged();
    return r;
}

} // namespace rubric
