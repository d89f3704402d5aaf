#include "CriterionScoreModel.h"

#include "store/Project.h"
#include "store/SqlUtil.h"

#include <QSqlQuery>

namespace rubric {

CriterionScoreModel::CriterionScoreModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CriterionScoreModel::setProject(Project *project)
{
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    m_project = project;
    if (m_project) {
        connect(m_project, &Project::judgesChanged, this, [this](const QString &judge) {
            if (judge.isEmpty() || judge == m_judge)
                reload();
        });
    }
    setCell({}, {}, {});
}

void CriterionScoreModel::setCell(const QString &judge, const QString &itemId, const QString &criterionKey)
{
    m_judge = judge;
    m_itemId = itemId;
    m_criterion = criterionKey;
    reload();
}

void CriterionScoreModel::reload()
{
    QVector<Answer> answers;
    if (m_project && !m_judge.isEmpty() && !m_itemId.isEmpty()) {
        QSqlQuery q(m_project->database());
        const bool ok = sql::exec(q,
                                  QStringLiteral("SELECT cs.criterion_key, cs.sample, cs.score, cs.parse_status, cs.raw, cs.reasoning"
                                                 " FROM criterion_scores cs JOIN runs r ON r.id = cs.run_id"
                                                 " JOIN items i ON i.id = cs.item_id"
                                                 " WHERE r.name = ? AND i.ext_id = ? AND (? = '' OR cs.criterion_key = ?)"
                                                 " ORDER BY cs.criterion_key, cs.sample"),
                                  {m_judge, m_itemId, QVariant(m_criterion.isEmpty() ? QStringLiteral("") : m_criterion),
                                   m_criterion}).ok();
        while (ok && q.next()) {
            Answer a;
            a.criterion = q.value(0).toString();
            a.sample = q.value(1).toInt();
            if (!q.value(2).isNull())
                a.score = q.value(2).toDouble();
            a.status = q.value(3).toString();
            a.raw = q.value(4).toString();
            a.reasoning = q.value(5).toString();
            answers.append(a);
        }
    }
    beginResetModel();
    m_answers = std::move(answers);
    endResetModel();
}

int CriterionScoreModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_answers.size());
}

int CriterionScoreModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CriterionScoreModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Answer &a = m_answers[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case CriterionColumn: return a.criterion;
        case SampleColumn: return a.sample;
        case ScoreColumn: return a.score.isValid() ? QVariant(QString::number(a.score.toDouble(), 'g', 4)) : QVariant(tr("—"));
        case StatusColumn: return a.status;
        default: return {};
        }
    case ReasoningRole: return a.reasoning;
    case RawRole: return a.raw;
    case ScoreRole: return a.score;
    case CriterionKeyRole: return a.criterion;
    default: return {};
    }
}

QVariant CriterionScoreModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case CriterionColumn: return tr("Criterion");
    case SampleColumn: return tr("Sample");
    case ScoreColumn: return tr("Score");
    case StatusColumn: return tr("Parse");
    default: return {};
    }
}

} // namespace rubric
