#pragma once

#include "methods/checkeval/EvaluatorGroups.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QTableWidget;

namespace rubric {

class Project;

/// The Judge agreement dialog's "Groups" tab: the paper's group table (All, Large, Medium, Small,
/// each family, Top-3; with people, each group plus the people and the people alone), α and κ
/// per dimension and their average (EvaluatorGroups::compute), and the evaluators it groups with
/// their model, whether the answers are people's, size and family — each editable and stored in
/// the project (an edit computes again; an untouched field shows what was inferred and how).
class EvaluatorGroupsView : public QWidget
{
    Q_OBJECT
public:
    enum EvaluatorColumn { JudgeCol, DimensionCol, ModelCol, KindCol, SizeCol, FamilyCol, RhoCol, EvaluatorColCount };
    /// The unrounded figure of a group-table cell (NaN when undefined).
    static constexpr int ValueRole = Qt::UserRole + 1;
    /// A group row's id (GroupRow::id) on its first cell.
    static constexpr int GroupIdRole = Qt::UserRole + 2;

    explicit EvaluatorGroupsView(QWidget *parent = nullptr);

    /// Shows the groups of `evaluators` (profiles as read; re-read after an edit).
    void show(Project *project, const QVector<EvaluatorProfile> &evaluators, bool withPeople);

    QTableWidget *groupTable() const { return m_groups; }
    QTableWidget *evaluatorTable() const { return m_evaluators; }
    QLabel *noteLabel() const { return m_note; }
    /// The row of group `id` in groupTable(), -1 when absent.
    int groupRow(const QString &id) const;
    /// The α (kappa = false) or κ column of `aspect` in groupTable(); an empty aspect is the average.
    int figureColumn(const QString &aspect, bool kappa) const;

signals:
    /// A profile was edited and stored: the owner re-reads the profiles and calls show() again.
    void profileChanged();

private:
    void fillGroups();
    void fillEvaluators();
    void store(EvaluatorProfile profile);

    QPointer<Project> m_project;
    QVector<EvaluatorProfile> m_profiles;
    bool m_withPeople = false;
    EvaluatorGroupTable m_table;
    QTableWidget *m_groups;
    QTableWidget *m_evaluators;
    QLabel *m_note;
    bool m_filling = false;
};

} // namespace rubric
