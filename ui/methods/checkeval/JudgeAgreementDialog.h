#pragma once

#include "methods/checkeval/EvaluatorGroups.h"
#include "methods/checkeval/QuestionAgreement.h"

#include <QDialog>
#include <QPointer>
#include <QStringList>
#include <QVector>

#include <optional>

class QComboBox;
class QLabel;
class QListWidget;
class QTableWidget;
class QTabWidget;

namespace rubric {

class EvaluatorGroupsView;
class Project;

/// CheckEval's inter-evaluator agreement (the paper's IEA): the user picks checklist judges; per
/// dimension (the aspect the judges' checklists score) Krippendorff's alpha (nominal, on the
/// meets-criterion answers) and Fleiss' kappa among the chosen judges of that dimension, over the
/// (item, question) units of every item (QuestionAgreement), the average over the dimensions, and
/// the current dimension's figures per sub-aspect. A dimension with one chosen judge or whose
/// checklists differ gets no figures; the message under the table says why. The "Groups" tab
/// shows the chosen judges as the paper groups its evaluators (EvaluatorGroupsView). Judges
/// whose answers are people's (their evaluator profile) are coders only with "LLM judges and
/// people" chosen.
class JudgeAgreementDialog : public QDialog
{
    Q_OBJECT
public:
    enum Column { DimensionColumn, JudgesColumn, AlphaColumn, KappaColumn, PairsColumn, KappaUnitsColumn, ColumnCount };
    /// The unrounded figure of an alpha or kappa cell (a double; NaN when undefined).
    static constexpr int ValueRole = Qt::UserRole + 1;

    /// Lists the project's checklist judges; those scoring the same aspect as `judge` are chosen
    /// (every checklist judge when `judge` is empty or not one).
    explicit JudgeAgreementDialog(Project *project, const QString &judge = {}, QWidget *parent = nullptr);

    QListWidget *judgeList() const { return m_judges; }
    /// One row per dimension with figures, then the average row.
    QTableWidget *dimensionTable() const { return m_dimensions; }
    /// The selected dimension's sub-aspects (Dimension column: the sub-aspect).
    QTableWidget *subAspectTable() const { return m_subAspects; }
    QLabel *messageLabel() const { return m_message; }
    EvaluatorGroupsView *groupsView() const { return m_groups; }
    QTabWidget *tabs() const { return m_tabs; }
    /// "LLM judges only" (0) or "LLM judges and people" (1).
    QComboBox *codersChoice() const { return m_coders; }
    /// Chooses exactly `judges` (by name) and computes again.
    void setChosen(const QStringList &judges);
    /// Judges whose answers are people's count as coders (true) or are left out (false).
    void setWithPeople(bool withPeople);

private:
    struct Dimension
    {
        QString aspect;
        QStringList judges;
        std::optional<ChecklistAgreement> result; ///< none when refused
        QString error;
    };
    void listJudges(const QString &judge);
    void readProfiles();
    void recompute();
    void showSubAspects();

    QPointer<Project> m_project;
    QListWidget *m_judges;
    QTableWidget *m_dimensions;
    QTableWidget *m_subAspects;
    QLabel *m_message;
    QComboBox *m_coders;
    QTabWidget *m_tabs;
    EvaluatorGroupsView *m_groups;
    QHash<QString, EvaluatorProfile> m_profiles; ///< per listed judge
    QStringList m_profileProblems;               ///< profiles that could not be read
    QVector<Dimension> m_shown;
    bool m_updating = false;
};

} // namespace rubric
