#pragma once

#include "data/Annotation.h"
#include "data/Aspect.h"
#include "data/Item.h"
#include "util/Result.h"

#include <QHash>
#include <QMutex>
#include <QObject>
#include <QVector>

#include <functional>
#include <memory>
#include <optional>

class QSqlDatabase;

namespace rubric {

struct CopyCounts;
struct DatabaseUrl;

/// A judge (a named run, or scores imported from another tool) as listed in a project.
struct JudgeInfo
{
    QString name;
    QString method;
    QString status;
    QStringList aspects;
    int items = 0; ///< distinct items with at least one score
};

/// The project: one SQLite file (WAL, foreign keys, versioned schema), or a team project in a
/// PostgreSQL database named by a postgresql:// URL (same schema; see SqlDialect for the
/// differences).
///
/// Owns nothing but the connections. Any thread may call the const readers and the
/// writers; each thread gets its own connection (opened lazily, closed with the Project).
/// Every multi-row write runs in one transaction: it either lands whole or not at all.
/// Change signals are emitted from the thread that made the change.
///
/// The `read…()` readers return an error when the file cannot be read (locked, damaged, a table
/// missing), so that a broken project never reads as an empty one (nor a lookup as "not found");
/// the plain readers of the same data return an empty value then. They are for tests and callers
/// that have just read the same data through a `read…()` reader; everything else uses `read…()`.
class Project : public QObject
{
    Q_OBJECT
public:
    enum class OpenMode { OpenOrCreate, OpenExisting };

    /// Opens (or creates) the project at `path` and migrates it to the current schema. `path`
    /// may be a `postgresql://user[:password]@host[:port]/database` URL: the database must
    /// exist (`mode` does not create it); an empty one gets the schema, one holding other
    /// tables is refused.
    static Result<std::unique_ptr<Project>> open(const QString &path, OpenMode mode = OpenMode::OpenOrCreate);
    ~Project() override;

    /// The file's absolute path, or the database URL without its password.
    QString path() const { return m_path; }
    /// Whether the project lives in a PostgreSQL database (shared by a team).
    bool isTeamDatabase() const;

    // --- key/value settings stored in the project (task description, seeds …)
    /// The value stored under `key`, `fallback` when there is none; an error when the file
    /// cannot be read.
    Result<QString> readMeta(const QString &key, const QString &fallback = {}) const;
    QString meta(const QString &key, const QString &fallback = {}) const;
    Result<void> setMeta(const QString &key, const QString &value);

    // --- items
    Result<int> readItemCount() const;
    int itemCount() const;
    /// Every item with its texts, in import order. A method scoring items needs them; a list, a
    /// split or a statistic reads readItemRows() (no texts) and a whole-project pass forEachItem().
    Result<QVector<Item>> readItems() const;
    QVector<Item> items() const;
    /// Every item without its texts (id, group, system, position), in import order. Equal groups
    /// and systems share one string.
    Result<QVector<ItemRow>> readItemRows() const;
    /// Hands every item with its texts to `visit`, one at a time in import order, and stops early
    /// when it returns false: a pass over the whole project in the memory of one item.
    Result<void> forEachItem(const std::function<bool(const Item &)> &visit) const;
    /// The item with external id `id`, none when there is no such item; an error when the file
    /// cannot be read (never "no such item").
    Result<std::optional<Item>> readItem(const QString &id) const;
    std::optional<Item> item(const QString &id) const;
    /// Appends items in one transaction; refuses (and writes nothing) when an id already exists.
    Result<void> addItems(const QVector<Item> &items);
    /// Distinct non-empty group / system ids, sorted.
    Result<QStringList> readGroups() const;
    QStringList groups() const;
    Result<QStringList> readSystems() const;
    QStringList systems() const;

    // --- aspects
    Result<QVector<Aspect>> readAspects() const;
    QVector<Aspect> aspects() const;
    /// The aspect named `name`, none when there is no such aspect; an error when the file cannot be read.
    Result<std::optional<Aspect>> readAspect(const QString &name) const;
    std::optional<Aspect> aspect(const QString &name) const;
    /// Creates the aspect or updates its definition/scale.
    Result<void> upsertAspect(const Aspect &aspect);

    // --- human annotations
    Result<QVector<Annotation>> readAnnotations(const QString &aspect = {}) const;
    QVector<Annotation> annotations(const QString &aspect = {}) const;
    /// Saves one score at once (insert or replace for annotator × item × aspect).
    Result<void> setAnnotation(const Annotation &annotation);
    Result<void> removeAnnotation(const QString &itemId, const QString &aspect, const QString &annotator);
    /// Sets one score of `annotator` and nothing else: an existing note stays as stored (a
    /// teammate's or another window's edit is not written back stale), unless `note` is given
    /// (the note typed with the score). A new score takes the annotator's note on the item.
    Result<void> setAnnotationScore(const QString &itemId, const QString &aspect, const QString &annotator,
                                    double score, const std::optional<QString> &note = std::nullopt);
    /// Sets `annotator`'s note on every score they gave the item, scores untouched; returns how
    /// many scores carry it (0: none yet, the note waits for the first score).
    Result<int> setAnnotationNote(const QString &itemId, const QString &annotator, const QString &note);
    /// Adds many annotations in one transaction (all-or-nothing).
    Result<void> addAnnotations(const QVector<Annotation> &annotations);
    /// Per item: the mean of its human scores for `aspect` (items without one are absent).
    Result<QHash<QString, double>> readHumanScores(const QString &aspect) const;
    QHash<QString, double> humanScores(const QString &aspect) const;
    /// Distinct annotator names (of `aspect`, or of all aspects), sorted.
    Result<QStringList> readAnnotators(const QString &aspect = {}) const;
    QStringList annotators(const QString &aspect = {}) const;

    // --- split
    Result<QHash<QString, SplitRole>> readSplit() const;
    QHash<QString, SplitRole> split() const;
    /// Replaces the split (items not in `roles` become unassigned) in one transaction.
    Result<void> setSplit(const QHash<QString, SplitRole> &roles);
    /// Ids of the items that pass `filter` (All: every item), in import order.
    Result<QStringList> readItemIds(SplitFilter filter = SplitFilter::All) const;
    QStringList itemIds(SplitFilter filter = SplitFilter::All) const;

    // --- judges: named runs and imported scores
    /// What readJudges() and readJudge() read of each judge.
    enum class JudgeCounts {
        Items, ///< also JudgeInfo::items: one pass over every score row (about a second at a million items)
        Skip,  ///< names, methods, statuses and aspects only (JudgeInfo::items is -1): a few index probes
    };
    /// The judges in the order they were made, each with the aspects it has score rows for (in
    /// aspect order) and, with JudgeCounts::Items, the distinct items it gave a score (not NULL).
    Result<QVector<JudgeInfo>> readJudges(JudgeCounts counts = JudgeCounts::Items) const;
    QVector<JudgeInfo> judges() const;
    /// The judge named `name`, none when there is no such judge; an error when the file cannot be read.
    Result<std::optional<JudgeInfo>> readJudge(const QString &name, JudgeCounts counts = JudgeCounts::Items) const;
    std::optional<JudgeInfo> judge(const QString &name) const;
    /// Creates the run if missing (returns its row id) or returns the existing one's.
    Result<qint64> ensureJudge(const QString &name, const QString &method, const QString &configJson = {});
    /// Status "running" claims the judge for this Project (in a team database: a lock held
    /// until another status is set or the Project closes); it fails while another process's
    /// run holds it. Any other status releases the claim.
    Result<void> setJudgeStatus(const QString &name, const QString &status);
    Result<void> removeJudge(const QString &name);
    /// Stores item scores of a judge for one aspect (one transaction). A NaN score is stored as
    /// missing (NULL) with status `missing`.
    Result<void> setJudgeScores(const QString &judge, const QString &aspect, const QHash<QString, double> &scores);
    /// Item id → score (missing scores are absent).
    Result<QHash<QString, double>> readJudgeScores(const QString &judge, const QString &aspect) const;
    QHash<QString, double> judgeScores(const QString &judge, const QString &aspect) const;

    // --- issues channel (failed calls, unparseable answers, import problems)
    Result<void> addIssue(const QString &kind, const QString &message, const QString &run = {},
                          const QString &itemId = {});

signals:
    /// In a team database these are also emitted (on the thread that opened the Project, from its
    /// event loop) when another process or Project changed the same data: annotations and judges.
    void itemsChanged();
    void aspectsChanged();
    void annotationChanged(const QString &itemId, const QString &aspect);
    void annotationsReset();
    void splitChanged();
    void judgesChanged(const QString &judge);
    void issuesChanged();

private:
    // Every SQL statement lives in core/store/: the store classes reach the connection, nothing
    // above them does. Tests inspect the file through one door (tests/support/ProjectTestAccess.h).
    friend class BatchStore;
    friend class BrowseStore;
    friend class CallStore;
    friend class ColumnStore;
    friend class ImportStore;
    friend class IssueStore;
    friend class ItemPageStore;
    friend class PromptStore;
    friend class RubricStore;
    friend class ScoreGridStore;
    friend class ScoreColumnStore;
    friend class SplitStore;
    friend struct ProjectTestAccess;
    friend Result<CopyCounts> copyProject(Project &from, Project &to);

    /// The calling thread's connection to the file.
    QSqlDatabase database() const;
    /// Runs `body` inside one transaction; commits when it returns ok, rolls back otherwise.
    Result<void> transact(const std::function<Result<void>(QSqlDatabase &)> &body);
    /// Ok unless another process's run holds the judge (team databases only; a single file
    /// keeps SQLite's own locking). Every write to a judge's rows checks it first.
    Result<void> checkJudgeWritable(QSqlDatabase &db, const QString &judge) const;

    explicit Project(QString path);
    static Result<std::unique_ptr<Project>> openDatabase(const QString &url);
    /// Team databases: listens on the opening thread's connection for the changes other
    /// processes announce (announceChange), and re-emits them as this Project's signals.
    Result<void> listenForChanges();
    /// Team databases: tells the other processes that annotations or a judge changed (a
    /// PostgreSQL NOTIFY); best effort, the change itself is already committed.
    void announceChange(const QStringList &change);
    void onNotification(const QString &channel, const QVariant &payload);
    Result<void> claimJudge(const QString &name);
    void releaseJudge(const QString &name);
    /// The aspect's row id, -1 when there is none; an error when it cannot be read.
    Result<qint64> aspectRowId(QSqlDatabase &db, const QString &name) const;
    Error readError(const QString &what, const Result<void> &failed) const;

    QString m_path;
    QString m_connectionPrefix;
    mutable QMutex m_mutex;
    mutable QStringList m_connections;
    std::unique_ptr<DatabaseUrl> m_url; ///< set for a team database
    /// Judges this Project's runs hold (team databases): name → the connection holding the lock.
    QHash<QString, QString> m_heldJudges;
};

} // namespace rubric
