#pragma once

#include "store/Project.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QVector>

namespace rubric {

/// The judge's answers behind one heatmap cell: for one item, every criterion score (or the
/// scores of one criterion) with each sample's parse status, reasoning and raw answer.
/// Holds a pointer to the project, re-reads when the judge's scores change. GUI thread.
class CriterionScoreModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { CriterionColumn, SampleColumn, ScoreColumn, StatusColumn, ColumnCount };
    enum Role { ReasoningRole = Qt::UserRole + 1, RawRole, ScoreRole, CriterionKeyRole };

    explicit CriterionScoreModel(QObject *parent = nullptr);

    void setProject(Project *project);
    /// Shows the answers of `judge` for `itemId`; an empty `criterionKey` shows all criteria.
    void setCell(const QString &judge, const QString &itemId, const QString &criterionKey = {});
    QString judge() const { return m_judge; }
    QString itemId() const { return m_itemId; }
    QString criterionKey() const { return m_criterion; }
    void reload();
    /// Why the answers could not be read (the project could not be read), empty after a good read.
    QString loadError() const { return m_loadError; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Answer
    {
        QString criterion;
        int sample = 0;
        QVariant score; ///< invalid when the answer could not be parsed
        QString status;
        QString raw;
        QString reasoning;
    };

    QPointer<Project> m_project;
    QString m_judge;
    QString m_itemId;
    QString m_criterion;
    QString m_loadError;
    QVector<Answer> m_answers;
};

} // namespace rubric
