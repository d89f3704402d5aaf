#pragma once

#include "rubric/Rubric.h"
#include "store/Project.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QVector>

namespace rubric {

/// One item's checklist answers as a grid: a row per sub-aspect (a group row with each judge's
/// share of met questions) followed by a row per question of it; column 0 is the question, then
/// one column per judge: the judge's literal answer and whether it meets the question's criterion
/// ("yes · met", "yes · not met" for an inverted question, "—" unanswered or refused), green where
/// met and red where not, with the judge's
/// raw answer and reasoning for the call behind each cell (RawRole, ReasoningRole). The judges
/// are the given one and every other judge of the project whose latest rubric is a checklist on
/// the same aspect with the same question keys (the paper's several evaluators on one
/// checklist). The header of a judge column gives its coverage on the item (answered / enabled
/// questions).
///
/// Holds a pointer to the project (not owned); reads on setItem() and when the shown judges'
/// scores change. GUI thread. An unknown judge or a judge whose rubric is not a checklist gives
/// an empty grid; a project that cannot be read gives an empty grid and error() says why.
class AnswerGridModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role {
        AnswerRole = Qt::UserRole + 1, ///< the judge's literal answer: "yes", "no" or "" (no answer)
        MeetsRole,                     ///< whether the answer meets the criterion (bool; invalid without one)
        RawRole,
        ReasoningRole,
        StatusRole,      ///< the answer's parse status ("ok", "unparsed", "failed", "" = none stored)
        GroupRowRole,    ///< true on a sub-aspect row
        CriterionKeyRole ///< the question's (or sub-aspect's) key
    };

    explicit AnswerGridModel(QObject *parent = nullptr);

    void setProject(Project *project);
    /// Shows `itemId` under `judge` and the judges that share its checklist.
    void setItem(const QString &judge, const QString &itemId);
    QString judge() const { return m_judge; }
    QString itemId() const { return m_itemId; }
    /// The shown judges (the given one first); column = 1 + index.
    QStringList judges() const;
    /// Answered / enabled questions of judge column `index` on the item (NaN without questions).
    double coverage(int index) const;
    int rowOfKey(const QString &key) const;
    void reload();

    /// The judges of `project` whose latest rubric is a checklist on `judge`'s aspect with the
    /// same question keys, `judge` first (empty when `judge` has no checklist); an error when the
    /// project cannot be read (never read as "no checklist").
    static Result<QStringList> sharingJudges(Project *project, const QString &judge);
    /// Why the last reload showed nothing (the project could not be read); empty when it read.
    QString error() const { return m_error; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Result<void> read(); ///< fills m_rows and m_columns

    struct Answer
    {
        double score = 0;  ///< meets the criterion (1) or not (0), NaN unanswered
        double answer = 0; ///< the literal answer, 1 yes / 0 no (NaN when not stored)
        QString status;    ///< empty: no answer stored
        QString raw;
        QString reasoning;
    };
    struct Column
    {
        QString judge;
        QHash<QString, Answer> answers; ///< question key → sample 0
        QSet<QString> inverted;         ///< questions whose "no" meets the criterion (in its latest version)
        int enabled = 0;
        int answered = 0;
    };
    struct Row
    {
        Criterion node;
        bool group = false;
    };
    QString cellText(const Row &row, const Column &column) const;
    /// The literal answer of a question cell: "yes", "no" or "" (unanswered, or not stored).
    static QString literal(const Answer &a);

    QPointer<Project> m_project;
    QString m_judge;
    QString m_itemId;
    QString m_error;
    QVector<Row> m_rows;
    QVector<Column> m_columns;
};

} // namespace rubric
