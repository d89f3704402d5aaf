// Importer::run and Importer::check: the streamed item import. A reader thread parses the file
// (RecordStream), applies the mapping and hashes the texts; the calling thread writes the rows
// into the project's transaction as they come. The two meet in a short queue of batches, so
// memory stays that of a few hundred records whatever the file's size.

#include "ImportRules.h"
#include "Importer.h"
#include "RecordStream.h"
#include "store/ImportStore.h"
#include "store/Project.h"
#include "util/Json.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QVarLengthArray>

#include <condition_variable>
#include <cstring>
#include <deque>
#include <limits>
#include <mutex>
#include <thread>

namespace rubric {
namespace {

using namespace importrules;

/// One record made into an item and its human scores (ImportedScore::item = its index).
struct Row
{
    int line = 0;
    ImportedItem item;
    QVarLengthArray<ImportedScore, 2> scores;
    /// A score outside a given or kept scale: reported once the item is written (as a repeated
    /// id, found when writing, comes first).
    std::optional<Error> scaleError;
};

struct Batch
{
    std::vector<Row> rows;
    qint64 bytesRead = 0;
    std::optional<Error> error; ///< what stopped the reader after these rows
    bool last = false;
};

/// The reader's batches on their way to the writer; push() waits while it is full.
class BatchQueue
{
public:
    bool push(Batch batch)
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_batches.size() < kDepth || m_cancelled; });
        if (m_cancelled)
            return false;
        m_batches.push_back(std::move(batch));
        m_changed.notify_all();
        return true;
    }
    Batch pop()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return !m_batches.empty(); });
        Batch b = std::move(m_batches.front());
        m_batches.pop_front();
        m_changed.notify_all();
        return b;
    }
    void cancel()
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
        m_changed.notify_all();
    }

private:
    static constexpr size_t kDepth = 8;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Batch> m_batches;
    bool m_cancelled = false;
};

/// The last texts of one column the reader made: an equal text is handed over as the same copy
/// with the address already computed (the article shared by consecutive outputs is hashed once).
class RecentTexts
{
public:
    QByteArray share(QByteArrayView bytes, qint64 *address)
    {
        for (const Entry &e : m_entries)
            if (e.filled && e.body.size() == bytes.size()
                && (bytes.isEmpty() || std::memcmp(e.body.constData(), bytes.data(), size_t(bytes.size())) == 0)) {
                *address = e.address;
                return e.body;
            }
        Entry &e = m_entries[m_next];
        m_next = (m_next + 1) % m_entries.size();
        e.body = bytes.toByteArray();
        e.address = ImportStore::textAddress(bytes);
        e.filled = true;
        *address = e.address;
        return e.body;
    }

private:
    struct Entry
    {
        QByteArray body;
        qint64 address = 0;
        bool filled = false;
    };
    std::array<Entry, 4> m_entries;
    size_t m_next = 0;
};

/// A short label (group, system): the previous one again when equal, without a new copy.
QByteArray label(QByteArrayView bytes, QByteArray *previous)
{
    if (previous->size() != bytes.size() || QByteArrayView(*previous) != bytes)
        *previous = bytes.toByteArray();
    return *previous;
}

/// Applies the mapping to each record: the item, its texts' addresses and its human scores.
class RowBuilder
{
public:
    RowBuilder(const ImportSpec &spec, const QVector<Aspect> &aspects, const QVector<ScaleOrigin> &origins)
        : m_spec(spec)
        , m_aspects(aspects)
        , m_origins(origins)
        , lowest(aspects.size(), std::numeric_limits<double>::infinity())
        , highest(aspects.size(), -std::numeric_limits<double>::infinity())
    {
        const FieldMapping &m = spec.mapping;
        m_id = FieldPath(m.id);
        m_group = FieldPath(m.group);
        m_system = FieldPath(m.system);
        m_texts = {FieldPath(m.source), FieldPath(m.output), FieldPath(m.reference)};
        for (const auto &[name, field] : m.context)
            m_context.push_back(FieldPath(field));
        for (const auto &[name, field] : m.human)
            m_human.push_back(FieldPath(field));
        m_noContext = QByteArrayLiteral("{}");
        m_noContextAddress = ImportStore::textAddress(m_noContext);
    }

    Result<void> convert(const RecordView &r, qsizetype k, Row *row)
    {
        const FieldMapping &m = m_spec.mapping;
        const QString &file = m_spec.file;
        row->line = r.line;
        ImportedItem &it = row->item;
        FieldValue v;
        QByteArray printed;
        // The text of the field at `path` (none when unmapped), as UTF-8.
        const auto text = [&](const FieldPath &path, QByteArrayView *out) -> Result<void> {
            *out = {};
            if (path.name.isEmpty())
                return {};
            if (!r.field(path, &v))
                return makeError(tr("the mapped field is missing from this record"), file, r.line, path.name);
            if (v.isText) {
                *out = v.text;
            } else {
                printed = textOf(v.value).toUtf8();
                *out = printed;
            }
            return {};
        };
        QByteArrayView bytes;
        if (m.id.isEmpty()) {
            it.id = QByteArray::number(qlonglong(k));
        } else {
            if (auto f = text(m_id, &bytes); !f)
                return f;
            const auto plain = [](char c) { return uchar(c) > 0x20 && uchar(c) < 0x7f; };
            if (!bytes.isEmpty() && plain(bytes.front()) && plain(bytes.back())) {
                it.id = bytes.toByteArray();
            } else { // trimmed as QString::trimmed() does (Unicode spaces too)
                it.id = QString::fromUtf8(bytes).trimmed().toUtf8();
                if (it.id.isEmpty())
                    return makeError(tr("the item id is empty"), file, r.line, m.id);
            }
        }
        if (auto f = text(m_group, &bytes); !f)
            return f;
        it.group = label(bytes, &m_lastGroup);
        if (auto f = text(m_system, &bytes); !f)
            return f;
        it.system = label(bytes, &m_lastSystem);
        for (size_t t = 0; t < m_texts.size(); ++t) {
            if (auto f = text(m_texts[t], &bytes); !f)
                return f;
            it.texts[t] = m_recent[t].share(bytes, &it.addresses[t]);
        }
        if (m.system.isEmpty() && m.systemFromIdBlock > 0) {
            const QString id = QString::fromUtf8(it.id);
            bool ok = false;
            const qlonglong n = id.toLongLong(&ok);
            const qlonglong block = ok && n >= 0 ? n / m.systemFromIdBlock : -1;
            if (block < 0 || block >= m.systemFromIdNames.size())
                return makeError(tr("cannot derive the system from the id '%1' (expected a number from 0 to %2)")
                                         .arg(id)
                                         .arg(qlonglong(m.systemFromIdNames.size()) * m.systemFromIdBlock - 1),
                                 file, r.line, m.id);
            it.system = m.systemFromIdNames.at(block).toUtf8();
        }
        if (m_context.empty()) {
            it.texts[3] = m_noContext;
            it.addresses[3] = m_noContextAddress;
        } else {
            QVariantMap context;
            for (size_t c = 0; c < m_context.size(); ++c) {
                if (auto f = text(m_context[c], &bytes); !f)
                    return f;
                context.insert(m.context.at(qsizetype(c)).first, QString::fromUtf8(bytes));
            }
            it.texts[3] = m_recent[3].share(json::stringify(context).toUtf8(), &it.addresses[3]);
        }
        for (qsizetype a = 0; a < qsizetype(m_human.size()); ++a) {
            const FieldPath &path = m_human[size_t(a)];
            if (!r.field(path, &v))
                return makeError(tr("the mapped field is missing from this record"), file, r.line, path.name);
            const QVariant value = v.isText ? QVariant(QString::fromUtf8(v.text)) : v.value;
            auto values = scoresOf(value);
            if (!values)
                return located(values.error(), file, r.line, path.name);
            const bool list = values->size() != 1 || value.typeId() == QMetaType::QVariantList
                              || (value.typeId() == QMetaType::QString
                                  && value.toString().trimmed().startsWith(QLatin1Char('[')));
            for (qsizetype s = 0; s < values->size(); ++s) {
                if (!values->at(s))
                    continue;
                const double score = *values->at(s);
                lowest[a] = std::min(lowest.at(a), score);
                highest[a] = std::max(highest.at(a), score);
                const ImportedScore p{
                        int(k), int(a),
                        list ? Importer::raterName(int(s)) : QString::fromLatin1(Importer::scalarAnnotator), score};
                if (!row->scaleError && m_origins.at(a) != ScaleOrigin::Inferred)
                    row->scaleError = outsideScale(p, m_aspects, m_origins, lowest, highest, m_spec, r.line);
                row->scores.append(p);
            }
        }
        return {};
    }

private:
    const ImportSpec &m_spec;
    const QVector<Aspect> &m_aspects;
    const QVector<ScaleOrigin> &m_origins;
    FieldPath m_id, m_group, m_system;
    std::array<FieldPath, 3> m_texts;
    std::vector<FieldPath> m_context, m_human;
    std::array<RecentTexts, 4> m_recent;
    QByteArray m_lastGroup, m_lastSystem, m_noContext;
    qint64 m_noContextAddress = 0;

public:
    QVector<double> lowest, highest; ///< each aspect's smallest and largest score so far
};

/// The line of record `index` (0-based) of the file, read again: an error names where a repeated
/// id was first, and the import keeps no list of lines (its memory stays flat).
int lineOfRecord(const QString &file, ImportFormat format, qsizetype index)
{
    int line = 0;
    qsizetype k = 0;
    auto read = RecordStream::forEach(file, format, [&](const RecordView &r, qint64) -> Result<bool> {
        if (k++ < index)
            return true;
        line = r.line;
        return false;
    });
    return read ? line : 0;
}

constexpr size_t kBatchRows = 256;

Result<ImportSummary> importItems(Project &project, const ImportSpec &spec, bool dryRun)
{
    const FieldMapping &m = spec.mapping;
    const QString &file = spec.file;
    const QString idField = m.id.isEmpty() ? QStringLiteral("id") : m.id;
    QVector<Aspect> aspects;
    QVector<ScaleOrigin> origins;
    if (auto r = importAspects(project, spec, &aspects, &origins); !r)
        return r.error();
    const ImportFormat format = Importer::formatFor(file, spec.format);
    const qint64 total = QFileInfo(file).size();
    // Inferred scales are provisional until every score was seen: wide open meanwhile.
    QVector<Aspect> provisional = aspects;
    for (qsizetype a = 0; a < provisional.size(); ++a)
        if (origins.at(a) == ScaleOrigin::Inferred) {
            provisional[a].min = 1;
            provisional[a].max = 5;
        }
    RowBuilder builder(spec, aspects, origins);
    qsizetype items = 0;
    int annotations = 0;
    QElapsedTimer clock;
    clock.start();
    qint64 lastReport = -1;
    bool cancelled = false;

    auto written = ImportStore(&project).streamItems(
            provisional, m.task,
            [&](ItemSink &sink) -> Result<QVector<Aspect>> {
                BatchQueue queue;
                std::thread reader([&] {
                    Batch batch;
                    qsizetype k = 0;
                    auto read = RecordStream::forEach(file, format,
                                                      [&](const RecordView &r, qint64 bytes) -> Result<bool> {
                                                          Row row;
                                                          if (auto c = builder.convert(r, k, &row); !c)
                                                              return c.error();
                                                          ++k;
                                                          batch.rows.push_back(std::move(row));
                                                          if (batch.rows.size() < kBatchRows)
                                                              return true;
                                                          batch.bytesRead = bytes;
                                                          const bool go = queue.push(std::move(batch));
                                                          batch = {};
                                                          return go;
                                                      });
                    if (!read)
                        batch.error = read.error();
                    batch.bytesRead = total;
                    batch.last = true;
                    queue.push(std::move(batch));
                });
                // However the writing ends, the reader is stopped and joined first.
                struct Join
                {
                    BatchQueue &queue;
                    std::thread &thread;
                    ~Join()
                    {
                        queue.cancel();
                        thread.join();
                    }
                } join{queue, reader};

                for (;;) {
                    Batch batch = queue.pop();
                    for (const Row &row : batch.rows) {
                        auto added = sink.addItem(row.item);
                        if (!added)
                            return makeError(added.errorString(), file, row.line, idField);
                        if (added->row < 0) {
                            const QString id = QString::fromUtf8(row.item.id);
                            if (added->clashIndex < 0)
                                return alreadyInProject(spec, id, row.line);
                            return makeError(tr("the id '%1' was already used on line %2")
                                                     .arg(id)
                                                     .arg(lineOfRecord(file, format, added->clashIndex)),
                                             file, row.line, idField);
                        }
                        if (row.scaleError)
                            return *row.scaleError;
                        for (const ImportedScore &p : row.scores) {
                            if (auto w = sink.addScore(added->row, p.aspect, p.annotator, p.score); !w)
                                return makeError(w.errorString(), file, row.line, m.human.at(p.aspect).second);
                            ++annotations;
                        }
                        ++items;
                    }
                    if (batch.error)
                        return *batch.error;
                    const qint64 ms = clock.elapsed();
                    bool stop = spec.cancelled && spec.cancelled();
                    if (!stop && spec.progress && !batch.last && ms - lastReport >= 250) {
                        lastReport = ms;
                        stop = !spec.progress({batch.bytesRead, total, int(items), double(ms) / 1000.0});
                    }
                    if (stop) {
                        cancelled = true;
                        return makeError(tr("the import was cancelled; nothing was written"), file,
                                         batch.rows.empty() ? 0 : batch.rows.back().line);
                    }
                    if (batch.last)
                        break;
                }
                inferScales(aspects, origins, builder.lowest, builder.highest);
                return aspects;
            },
            dryRun);
    if (!written)
        return written.error();
    if (spec.progress && !cancelled && !dryRun)
        spec.progress({total, total, int(items), double(clock.elapsed()) / 1000.0});

    if (!dryRun) {
        if (!aspects.isEmpty())
            emit project.aspectsChanged();
        emit project.itemsChanged();
        emit project.annotationsReset();
    }

    ImportSummary summary;
    summary.items = int(items);
    summary.annotations = annotations;
    for (qsizetype a = 0; a < aspects.size(); ++a) {
        summary.aspects.append(aspects.at(a).name);
        summary.scales.append({aspects.at(a).name, aspects.at(a).min, aspects.at(a).max, origins.at(a)});
    }
    return summary;
}

} // namespace

Result<ImportSummary> Importer::check(Project &project, const ImportSpec &spec)
{
    return importItems(project, spec, true);
}

Result<ImportSummary> Importer::run(Project &project, const ImportSpec &spec)
{
    return importItems(project, spec, false);
}

} // namespace rubric
