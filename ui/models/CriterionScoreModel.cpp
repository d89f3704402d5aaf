#include "CriterionScoreModel.h"

#include "store/Project.h"
#include "store/RubricStore.h"

#include <cmath>

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
    m_loadError.clear();
    if (m_project && !m_judge.isEmpty() && !m_itemId.isEmpty()) {
        const auto scores = RubricStore(m_project).readSampleScores(m_judge);
        if (!scores)
            m_loadError = scores.errorString();
        for (const CriterionScore &c : scores ? *scores : QVector<CriterionScore>()) {
            if (c.itemId != m_itemId || (!m_criterion.isEmpty() && c.criterionKey != m_criterion))
                continue;
            Answer a;
            a.criterion = c.criterionKey;
            a.sample = c.sample;
            if (!std::isnan(c.score))
                a.score = c.score;
            a.status = c.parseStatus;
            a.raw = c.raw;
            a.reasoning = c.reasoning;
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
        case CriterionColumn:
            return a.criterion;
        case SampleColumn:
            return a.sample;
        case ScoreColumn:
            return a.score.isValid() ? QVariant(QString::number(a.score.toDouble(), 'g', 4)) : QVariant(tr("—"));
        case StatusColumn:
            return a.status;
        default:
            return {};
        }
    case ReasoningRole:
        return a.reasoning;
    case RawRole:
        return a.raw;
    case ScoreRole:
        return a.score;
    case CriterionKeyRole:
        return a.criterion;
    default:
        return {};
    }
}

QVariant CriterionScoreModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case CriterionColumn:
        return tr("Criterion");
    case SampleColumn:
        return tr("Sample");
    case ScoreColumn:
        return tr("Score");
    case StatusColumn:
        return tr("Parse");
    default:
        return {};
    }
}

} // namespace rubric
