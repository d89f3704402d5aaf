#include "store/ColumnStore.h"

#include "store/Project.h"
#include "store/SqlUtil.h"

#include <QCoreApplication>
#include <QHash>
#include <QSqlError>
#include <QSqlQuery>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::Project", text);
}

} // namespace

ColumnStore::ColumnStore(const Project *project)
    : m_project(project)
{
}

Result<QVector<ScoreRow>> ColumnStore::scoredRows(const QString &aspect, const QStringList &judges,
                                                  SplitFilter filter) const
{
    Q_ASSERT(!judges.isEmpty() && judges.size() <= 2);
    // The human mean per item through the annotations' (item, aspect, annotator) index; each judge's
    // score through its (run, item, aspect) key. Missing judge scores (NULL) leave the item out.
    QString judgeColumns, joins;
    for (int j = 0; j < judges.size(); ++j) {
        judgeColumns += QStringLiteral(", j%1.score AS judge%1").arg(j);
        joins += QStringLiteral(" JOIN judge_scores j%1 ON j%1.item_id = i.id AND j%1.run_id = (SELECT id FROM runs "
                                "WHERE name = ?) AND j%1.aspect_id = (SELECT id FROM aspects WHERE name = ?) AND "
                                "j%1.score IS NOT NULL")
                         .arg(j);
    }
    if (filter != SplitFilter::All)
        joins += QStringLiteral(" JOIN splits s ON s.item_id = i.id AND s.role = ?");
    const QString text
            = QStringLiteral("SELECT * FROM (SELECT i.ext_id AS ext_id, i.group_id AS group_id, i.system_id "
                             "AS system_id, i.position AS position, (SELECT AVG(n.score) FROM annotations n "
                             "WHERE n.item_id = i.id AND n.aspect_id = (SELECT id FROM aspects WHERE name = "
                             "?)) AS human%1 FROM items i%2) x WHERE x.human IS NOT NULL ORDER BY x.position")
                      .arg(judgeColumns, joins);
    QSqlQuery q(m_project->database());
    q.setForwardOnly(true);
    const auto failed = [&q, this] {
        return makeError(tr("cannot read %1 from the project: %2").arg(tr("the scores"), q.lastError().text()),
                         m_project->path());
    };
    if (!q.prepare(text))
        return failed();
    q.addBindValue(aspect);
    for (const QString &judge : judges) {
        q.addBindValue(judge);
        q.addBindValue(aspect);
    }
    if (filter != SplitFilter::All)
        q.addBindValue(filter == SplitFilter::Train ? QStringLiteral("train") : QStringLiteral("test"));
    if (!q.exec())
        return failed();
    QVector<ScoreRow> out;
    QHash<QString, QString> shared; // equal groups and systems share one string
    const auto intern = [&shared](QString s) {
        const auto it = shared.constFind(s);
        if (it != shared.constEnd())
            return *it;
        shared.insert(s, s);
        return s;
    };
    while (q.next()) {
        ScoreRow r;
        r.id = q.value(0).toString();
        r.group = intern(q.value(1).toString());
        r.system = intern(q.value(2).toString());
        r.human = q.value(4).toDouble();
        for (int j = 0; j < judges.size(); ++j)
            r.judge[j] = q.value(5 + j).toDouble();
        out.append(std::move(r));
    }
    if (q.lastError().isValid())
        return failed();
    return out;
}

} // namespace rubric
