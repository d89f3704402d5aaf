#pragma once

#include "data/Aspect.h"
#include "data/Item.h"
#include "util/Result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

#include <array>
#include <functional>

namespace rubric {

class Project;

/// One human score of an item import, by index into the import's items and aspects.
struct ImportedScore
{
    int item = 0;   ///< index into ItemImport::items
    int aspect = 0; ///< index into ItemImport::aspects
    QString annotator;
    double score = 0.0;
};

/// What an import of items writes: its aspects, items and their human scores.
struct ItemImport
{
    QVector<Aspect> aspects; ///< created, or their definition and scale updated
    QVector<Item> items;     ///< appended after the project's last item (their positions are ignored)
    QVector<ImportedScore> scores;
    QString task; ///< stored as the project's task unless it has one already; none when empty
    /// The error for the database refusing item `index` (or score `index`): where it came from.
    std::function<Error(const QString &message, int index)> itemFailed;
    std::function<Error(const QString &message, int index)> scoreFailed;
};

/// Where a streamed annotations import writes, inside its transaction
/// (ImportStore::streamAnnotations).
class AnnotationSink
{
public:
    virtual ~AnnotationSink() = default;
    /// The row of the item with the external id `id`; -1 when the project has none.
    virtual Result<qint64> itemRow(const QString &id) = 0;
    /// Creates the aspect `name` with the scale 1–5.
    virtual Result<void> addAspect(const QString &name) = 0;
    /// Inserts or replaces the score of `annotator` for the item in row `itemRow` on `aspect`.
    virtual Result<void> add(qint64 itemRow, const QString &aspect, const QString &annotator, double score,
                             const QString &note)
            = 0;
};

/// Where a streamed import of a judge's scores writes, inside its transaction
/// (ImportStore::streamJudgeScores).
class JudgeScoreSink
{
public:
    /// What adding one record's scores did.
    struct Scored
    {
        bool unknownItem = false; ///< the project has no item with that id (nothing written)
        int firstLine = 0;        ///< > 0: the item was scored already, by the record on this line
    };
    virtual ~JudgeScoreSink() = default;
    /// The scores of the item `id` (from the record on `line`), one per aspect of the import in
    /// its order; NaN stores a missing score.
    virtual Result<Scored> add(const QString &id, int line, const QVector<double> &scores) = 0;
};

/// An item as a streamed import writes it: its labels and texts as UTF-8 bytes (as the file had
/// them: no conversion on the way in), each text with its content address (ImportStore::textAddress,
/// computed by the reader, possibly on another thread). A text equal to one of the last few
/// written is best handed over as the same QByteArray (a shallow copy): the store then knows it
/// without comparing its bytes.
struct ImportedItem
{
    QByteArray id, group, system;
    std::array<QByteArray, 4> texts; ///< source, output, reference, context (a JSON object, "{}" for none)
    std::array<qint64, 4> addresses{};
};

/// Where a streamed import writes, inside its transaction (ImportStore::streamItems).
class ItemSink
{
public:
    /// What adding an item did: its row, or the id it clashed with.
    struct Added
    {
        qint64 row = -1; ///< the new row; -1 when the id was already there
        /// When the id was already there: the 0-based index in this import of the item that has
        /// it, or -1 when the project had it before the import.
        int clashIndex = -1;
    };
    virtual ~ItemSink() = default;
    /// Appends `item` after the ones before.
    virtual Result<Added> addItem(const ImportedItem &item) = 0;
    /// A human score of the item in row `itemRow`, for aspect `aspect` (index into the aspects).
    virtual Result<void> addScore(qint64 itemRow, int aspect, const QString &annotator, double score) = 0;
};

/// The writes (and the reads they check against) of the importers: each import lands whole in
/// one transaction or not at all, its statements prepared once for all its rows. Emits none of
/// the project's change signals (the importer does, once the import landed). A thin view over a
/// Project (not owned; must outlive the store), used from the thread that created it.
class ImportStore
{
public:
    explicit ImportStore(Project *project);

    /// The content address of a text (UTF-8) under which the project stores it once.
    static qint64 textAddress(QByteArrayView utf8);

    /// The external ids of every item, in no particular order.
    Result<QStringList> itemIds() const;

    /// Writes an item import in one transaction: aspects, then items, then scores, then the task.
    Result<void> writeItems(const ItemImport &import);
    /// A streamed item import in one transaction: creates `aspects` (or updates their definitions
    /// and scales), hands a sink to `produce`, which writes the items and scores one at a time and
    /// returns the aspects' final scales (known once every score was seen), then stores those and
    /// `task` (unless the project has one) and commits. Any error rolls everything back. An
    /// article shared by many items is written once. Memory stays that of one item. In a project
    /// file the rows go through SQLite's own interface (prepared once, the UTF-8 bound as it is),
    /// in a team database through Qt's driver.
    /// With `dryRun` everything is written and checked as for real, then rolled back.
    Result<void> streamItems(const QVector<Aspect> &aspects, const QString &task,
                             const std::function<Result<QVector<Aspect>>(ItemSink &sink)> &produce,
                             bool dryRun = false);
    /// A streamed annotations import in one transaction: hands a sink to `produce`, which
    /// checks and writes the scores one at a time, then commits; any error rolls everything back.
    Result<void> streamAnnotations(const std::function<Result<void>(AnnotationSink &sink)> &produce);

    /// A streamed import of the scores of the judge `judge` (method "imported": created, or
    /// updated when it is one already) for `aspects` (which the project has), in one transaction:
    /// hands a sink to `produce`, which writes the scores record by record; then marks the judge
    /// done and commits. Any error rolls everything back (a judge it created included). A record
    /// repeating an item is told by the sink without a map of every item in memory.
    Result<void> streamJudgeScores(const QString &judge, const QStringList &aspects,
                                   const std::function<Result<void>(JudgeScoreSink &sink)> &produce);

private:
    Project *m_project;
};

} // namespace rubric
