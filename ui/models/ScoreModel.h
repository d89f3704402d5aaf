#pragma once

#include "data/Annotation.h"
#include "methods/MethodViews.h"
#include "store/Project.h"
#include "store/ScoreGridStore.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QVector>

namespace rubric {

/// Items × (human score, aggregated judge score, criterion scores) of one judge on one aspect.
///
/// The one score model the heatmap and the correlation chart share (STYLE.md 10): get it with
/// `ScoreModel::of(project)`, which creates it on first use as a child of the project, so it
/// lives exactly as long as the project. Holds a pointer to the project and a read cache of the
/// selected judge's scores; the cache is refreshed from the project's change signals, batched
/// every ~100 ms into one `dataChanged` (or an insert / reset when rows or columns change).
/// The scores are read when first asked for (rowCount, data, score, …), not when the project is
/// bound, and held as columns: per item its id, a group and a system number, the split and one
/// number per column. GUI thread only. Missing scores are invalid QVariants (never a default number).
class ScoreModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role {
        ScoreRole = Qt::UserRole + 1, ///< double, or invalid when missing
        ResidualRole,                 ///< score − human score (invalid when either is missing)
        ItemIdRole,
        SplitRoleRole, ///< int(rubric::SplitRole)
        GroupRole,
        SystemRole,
        // header roles (orientation Horizontal)
        ColumnKeyRole,   ///< criterion key, "human" or "judge"
        ColumnKindRole,  ///< int(ColumnKind)
        ColumnGroupRole, ///< a criterion's layer (an HD-Eval node's; 0: none); Qt::BackgroundRole gives its colour
        ScaleMinRole,    ///< lower end of the column's scale (for colouring)
        ScaleMaxRole,
    };
    enum class ColumnKind { Human, Judge, Criterion };

    /// The project's shared score model (created on first call, owned by the project).
    static ScoreModel *of(Project *project);

    explicit ScoreModel(QObject *parent = nullptr);
    ~ScoreModel() override;

    void setProject(Project *project);
    Project *project() const { return m_project; }

    /// Selects the judge (a run name). Empty: only the human column has data.
    void setJudge(const QString &judge);
    QString judge() const { return m_judge; }
    /// Selects the aspect whose human and aggregated judge scores are shown.
    void setAspect(const QString &aspect);
    QString aspect() const { return m_aspect; }
    /// Which of the criterion column sets the judge's method offers (columnSets()) is shown
    /// (0: its criteria; CheckEval: 1 = its sub-aspects, see ChecklistColumns); judges of a method
    /// without other sets ignore it.
    void setColumnSet(int set);
    int columnSet() const { return m_columnSet; }
    /// The labels of the criterion column sets the selected judge's method offers (empty: only
    /// its criteria; MethodViews::scoreColumnSets) and the tooltip of a switch between them.
    QStringList columnSets() const;
    QString columnSetsTip() const;
    /// Whether the selected judge's criterion scores are yes / no answers (a CheckEval checklist:
    /// its method's views say so, MethodViews::yesNoScores).
    bool isChecklist() const;

    static constexpr int HumanColumn = 0;
    static constexpr int JudgeColumn = 1;
    static constexpr int FirstCriterionColumn = 2;

    /// Criterion keys in column order (column = FirstCriterionColumn + index).
    QStringList criterionKeys() const
    {
        ensureLoaded();
        return m_criterionKeys;
    }
    /// The score at row × column, NaN when missing.
    double score(int row, int column) const;
    QString itemId(int row) const;
    int rowOfItem(const QString &itemId) const;
    SplitRole splitRole(int row) const;
    QString group(int row) const;
    QString system(int row) const;

    /// The criterion columns of `judge` for column set `columnSet` (keys, labels, layers and each
    /// item's mean per criterion), as this model shows them. Reads `project` on the calling
    /// thread's connection: a worker calls it with a project it opened itself.
    static Result<ScoreColumns> readCriterionColumns(Project *project, const QString &judge, int columnSet);

    /// Re-reads everything now (normally done through the batched change signals).
    void reload();
    /// Why the last read failed (the project could not be read), empty after a good read.
    QString loadError() const { return m_loadError; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void judgeChanged(const QString &judge);
    void aspectChanged(const QString &aspect);
    /// Emitted after every refresh (reset, insert or batched change).
    void refreshed();
    /// Reading the project failed: the table is empty and `message` says why.
    void loadFailed(const QString &message);

private:
    struct Snapshot
    {
        QStringList keys;       ///< criterion keys
        QStringList labels;     ///< criterion texts
        QVector<int> layers;    ///< per key: HD-Eval layer (0: none)
        QVector<double> minima; ///< per column
        QVector<double> maxima;
        ScoreGrid grid;         ///< ids, labels, split, human and judge scores per item
        QVector<double> values; ///< row by row, columnCount() a row; NaN = missing
        const MethodViews *views = &MethodViews::forMethod(QString()); ///< of the judge's method
    };
    Result<Snapshot> read() const;
    void apply(Result<Snapshot> snapshot, bool forceReset);
    /// Reads the project on first use (rowCount, data, …): opening a project reads no scores.
    void ensureLoaded() const;
    void adopt(Snapshot &s);
    void scheduleRefresh();
    void onAnnotationChanged(const QString &itemId, const QString &aspect);
    void onJudgesChanged(const QString &judge);

    QPointer<Project> m_project;
    QString m_judge;
    QString m_aspect;
    int m_columnSet = 0;
    const MethodViews *m_views = &MethodViews::forMethod(QString());
    QStringList m_criterionKeys;
    QVector<int> m_criterionLayers;
    QStringList m_criterionLabels;
    QVector<double> m_minima;
    QVector<double> m_maxima;
    ScoreGrid m_grid;
    QVector<double> m_values; ///< row by row, columnCount() a row
    int m_rowCount = 0;
    bool m_loaded = false;
    QTimer m_refresh;
    QVector<QMetaObject::Connection> m_connections;
    QString m_loadError;
};

} // namespace rubric
