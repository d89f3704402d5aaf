#include "Schema.h"

#include "ItemTexts.h"
#include "SqlDialect.h"

#include <QCoreApplication>
#include <QSqlError>
#include <QSqlQuery>

namespace rubric::schema {

QStringList tables()
{
    return {QStringLiteral("meta"),
            QStringLiteral("texts"),
            QStringLiteral("items"),
            QStringLiteral("aspects"),
            QStringLiteral("annotations"),
            QStringLiteral("splits"),
            QStringLiteral("runs"),
            QStringLiteral("judge_scores"),
            QStringLiteral("rubric_versions"),
            QStringLiteral("criteria"),
            QStringLiteral("criterion_scores"),
            QStringLiteral("judge_cache"),
            QStringLiteral("judge_ledger"),
            QStringLiteral("prompt_templates"),
            QStringLiteral("issues"),
            QStringLiteral("judge_batches"),
            QStringLiteral("judge_batch_requests")};
}

QStringList stepStatements(int fromVersion)
{
    switch (fromVersion) {
    case 0: // v1: the dataset — items, aspects, human annotations, the train/test split.
        return {
                QStringLiteral("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
                QStringLiteral("CREATE TABLE items("
                               " id INTEGER PRIMARY KEY,"
                               " ext_id TEXT NOT NULL UNIQUE,"
                               " position INTEGER NOT NULL,"
                               " group_id TEXT NOT NULL DEFAULT '',"
                               " system_id TEXT NOT NULL DEFAULT '',"
                               " source TEXT NOT NULL DEFAULT '',"
                               " output TEXT NOT NULL DEFAULT '',"
                               " reference TEXT NOT NULL DEFAULT '',"
                               " context TEXT NOT NULL DEFAULT '{}')"),
                QStringLiteral("CREATE INDEX items_group ON items(group_id)"),
                QStringLiteral("CREATE INDEX items_system ON items(system_id)"),
                QStringLiteral("CREATE TABLE aspects("
                               " id INTEGER PRIMARY KEY,"
                               " name TEXT NOT NULL UNIQUE,"
                               " definition TEXT NOT NULL DEFAULT '',"
                               " scale_min REAL NOT NULL DEFAULT 1,"
                               " scale_max REAL NOT NULL DEFAULT 5)"),
                QStringLiteral("CREATE TABLE annotations("
                               " id INTEGER PRIMARY KEY,"
                               " item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,"
                               " aspect_id INTEGER NOT NULL REFERENCES aspects(id) ON DELETE CASCADE,"
                               " annotator TEXT NOT NULL,"
                               " score REAL NOT NULL,"
                               " created_at TEXT NOT NULL,"
                               " UNIQUE(item_id, aspect_id, annotator))"),
                QStringLiteral("CREATE TABLE splits("
                               " item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,"
                               " role TEXT NOT NULL CHECK(role IN ('train','test')))"),
        };
    case 1: // v2: annotation notes; judges (runs), their scores, rubrics, the call cache and ledger.
        return {
                QStringLiteral("ALTER TABLE annotations ADD COLUMN note TEXT NOT NULL DEFAULT ''"),
                QStringLiteral("CREATE TABLE runs("
                               " id INTEGER PRIMARY KEY,"
                               " name TEXT NOT NULL UNIQUE,"
                               " method TEXT NOT NULL,"
                               " config TEXT NOT NULL DEFAULT '{}',"
                               " status TEXT NOT NULL DEFAULT 'done',"
                               " created_at TEXT NOT NULL,"
                               " updated_at TEXT NOT NULL)"),
                QStringLiteral("CREATE TABLE judge_scores("
                               " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                               " item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,"
                               " aspect_id INTEGER NOT NULL REFERENCES aspects(id) ON DELETE CASCADE,"
                               " score REAL,"
                               " status TEXT NOT NULL DEFAULT 'ok',"
                               " PRIMARY KEY(run_id, item_id, aspect_id))"),
                QStringLiteral("CREATE TABLE rubric_versions("
                               " id INTEGER PRIMARY KEY,"
                               " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                               " aspect TEXT NOT NULL,"
                               " method TEXT NOT NULL,"
                               " version INTEGER NOT NULL,"
                               " parent_id INTEGER REFERENCES rubric_versions(id),"
                               " note TEXT NOT NULL DEFAULT '',"
                               " alignment REAL,"
                               " created_at TEXT NOT NULL,"
                               " UNIQUE(run_id, version))"),
                QStringLiteral("CREATE TABLE criteria("
                               " id INTEGER PRIMARY KEY,"
                               " rubric_version_id INTEGER NOT NULL REFERENCES rubric_versions(id) ON DELETE CASCADE,"
                               " key TEXT NOT NULL,"
                               " parent_key TEXT NOT NULL DEFAULT '',"
                               " kind TEXT NOT NULL,"
                               " text TEXT NOT NULL,"
                               " definition TEXT NOT NULL DEFAULT '',"
                               " enabled INTEGER NOT NULL DEFAULT 1,"
                               " weight REAL NOT NULL DEFAULT 1,"
                               " position INTEGER NOT NULL,"
                               " origin TEXT NOT NULL DEFAULT '{}',"
                               " stats TEXT NOT NULL DEFAULT '{}',"
                               " UNIQUE(rubric_version_id, key))"),
                QStringLiteral("CREATE TABLE criterion_scores("
                               " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                               " item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,"
                               " criterion_key TEXT NOT NULL,"
                               " sample INTEGER NOT NULL DEFAULT 0,"
                               " score REAL,"
                               " parse_status TEXT NOT NULL,"
                               " raw TEXT NOT NULL DEFAULT '',"
                               " reasoning TEXT NOT NULL DEFAULT '',"
                               " call_key TEXT NOT NULL DEFAULT '',"
                               " PRIMARY KEY(run_id, item_id, criterion_key, sample))"),
                QStringLiteral("CREATE TABLE judge_cache("
                               " key TEXT PRIMARY KEY,"
                               " base_url TEXT NOT NULL,"
                               " model TEXT NOT NULL,"
                               " request TEXT NOT NULL,"
                               " response TEXT NOT NULL,"
                               " created_at TEXT NOT NULL)"),
                QStringLiteral("CREATE TABLE judge_ledger("
                               " id INTEGER PRIMARY KEY,"
                               " key TEXT NOT NULL,"
                               " run TEXT NOT NULL DEFAULT '',"
                               " base_url TEXT NOT NULL,"
                               " model TEXT NOT NULL,"
                               " outcome TEXT NOT NULL,"
                               " http_status INTEGER,"
                               " tokens_in INTEGER NOT NULL DEFAULT 0,"
                               " tokens_out INTEGER NOT NULL DEFAULT 0,"
                               " cost REAL NOT NULL DEFAULT 0,"
                               " latency_ms REAL NOT NULL DEFAULT 0,"
                               " retries INTEGER NOT NULL DEFAULT 0,"
                               " error TEXT NOT NULL DEFAULT '',"
                               " created_at TEXT NOT NULL)"),
                QStringLiteral("CREATE INDEX judge_ledger_run ON judge_ledger(run)"),
                QStringLiteral("CREATE TABLE prompt_templates("
                               " name TEXT PRIMARY KEY,"
                               " body TEXT NOT NULL,"
                               " updated_at TEXT NOT NULL)"),
                QStringLiteral("CREATE TABLE issues("
                               " id INTEGER PRIMARY KEY,"
                               " kind TEXT NOT NULL,"
                               " run TEXT NOT NULL DEFAULT '',"
                               " item_ext_id TEXT NOT NULL DEFAULT '',"
                               " message TEXT NOT NULL,"
                               " created_at TEXT NOT NULL)"),
        };
    case 2: // v3: a rubric version's alignment on the test split, beside its train-split figure.
        return {QStringLiteral("ALTER TABLE rubric_versions ADD COLUMN test_alignment REAL"),
                QStringLiteral("ALTER TABLE rubric_versions ADD COLUMN test_basis TEXT NOT NULL DEFAULT ''"),
                // Figures earlier re-scores measured on the test split move to their own column.
                QStringLiteral("UPDATE rubric_versions SET test_alignment = alignment, alignment = NULL, test_basis = "
                               "'Pearson of the judge score with the human scores on the test split' WHERE "
                               "alignment IS NOT NULL AND note LIKE '%human scores on the test split%'")};
    case 3: // v4: input tokens the provider read from its prompt cache, priced at the cached rate.
        return {QStringLiteral("ALTER TABLE judge_ledger ADD COLUMN tokens_cached INTEGER NOT NULL DEFAULT 0")};
    case 4: // v5: provider batches (OpenAI Batch API, Anthropic Message Batches) and the batch a call was in.
        return {QStringLiteral("CREATE TABLE judge_batches("
                               " id INTEGER PRIMARY KEY,"
                               " provider TEXT NOT NULL,"
                               " base_url TEXT NOT NULL,"
                               " model TEXT NOT NULL,"
                               " run TEXT NOT NULL DEFAULT '',"
                               " remote_id TEXT NOT NULL DEFAULT '',"
                               " input_file TEXT NOT NULL DEFAULT '',"
                               " state TEXT NOT NULL,"
                               " remote_status TEXT NOT NULL DEFAULT '',"
                               " requests INTEGER NOT NULL,"
                               " completed INTEGER NOT NULL DEFAULT 0,"
                               " failed INTEGER NOT NULL DEFAULT 0,"
                               " error TEXT NOT NULL DEFAULT '',"
                               " created_at TEXT NOT NULL,"
                               " updated_at TEXT NOT NULL)"),
                QStringLiteral("CREATE TABLE judge_batch_requests("
                               " batch_id INTEGER NOT NULL REFERENCES judge_batches(id) ON DELETE CASCADE,"
                               " key TEXT NOT NULL,"
                               " request TEXT NOT NULL,"
                               " state TEXT NOT NULL DEFAULT 'pending',"
                               " PRIMARY KEY(batch_id, key))"),
                QStringLiteral("CREATE INDEX judge_batch_requests_key ON judge_batch_requests(key)"),
                QStringLiteral("ALTER TABLE judge_ledger ADD COLUMN batch TEXT NOT NULL DEFAULT ''")};
    case 5: // v6: output tokens a reasoning model spent thinking (billed as output, never the answer).
        return {QStringLiteral("ALTER TABLE judge_ledger ADD COLUMN tokens_reasoning INTEGER NOT NULL DEFAULT 0")};
    case 6: // v7: a yes/no answer stored as the judge gave it (criterion_scores.answer: 1 yes, 0 no, NULL
        // none, or not a yes/no criterion) beside score, which for a checklist question is whether the
        // answer meets the question's criterion (1 met, 0 not met: "no" meets an inverted question).
        // Checklist runs already stored meets-criterion in score; the literal answers of the rows of
        // questions are restored from it and the polarity in the judge's latest rubric version.
        return {QStringLiteral("ALTER TABLE criterion_scores ADD COLUMN answer REAL"),
                QStringLiteral("UPDATE criterion_scores SET answer = CASE WHEN c.origin LIKE '%\"inverted\":true%' "
                               "THEN 1 - criterion_scores.score ELSE criterion_scores.score END FROM criteria c JOIN "
                               "rubric_versions v ON v.id = c.rubric_version_id WHERE v.run_id = "
                               "criterion_scores.run_id AND v.version = (SELECT MAX(w.version) FROM rubric_versions w "
                               "WHERE w.run_id = criterion_scores.run_id) AND c.key = criterion_scores.criterion_key "
                               "AND c.kind = 'question' AND criterion_scores.score IS NOT NULL AND "
                               "criterion_scores.parse_status = 'ok'")};
    case 7: // v8: the items' texts stored once (content-addressed: outputs sharing an article share one
        // copy) in `texts`; the items table keeps ids, labels and positions, read without the texts.
        // Between these statements and stepStatementsAfter(7) the texts move (itemtexts::moveTextsOutOfItems).
        // The text columns are no foreign keys: texts are shared, written and never deleted by the store.
        return {QStringLiteral("CREATE TABLE texts(id INTEGER PRIMARY KEY, hash INTEGER NOT NULL, body TEXT NOT NULL)"),
                QStringLiteral("CREATE INDEX texts_hash ON texts(hash)"),
                // Views page through the items by position.
                QStringLiteral("CREATE INDEX items_position ON items(position)"),
                QStringLiteral("ALTER TABLE items ADD COLUMN source_id INTEGER"),
                QStringLiteral("ALTER TABLE items ADD COLUMN output_id INTEGER"),
                QStringLiteral("ALTER TABLE items ADD COLUMN reference_id INTEGER"),
                QStringLiteral("ALTER TABLE items ADD COLUMN context_id INTEGER")};
    default:
        return {};
    }
}

QStringList stepStatementsAfter(int fromVersion)
{
    if (fromVersion == 7)
        return {QStringLiteral("ALTER TABLE items DROP COLUMN source"),
                QStringLiteral("ALTER TABLE items DROP COLUMN output"),
                QStringLiteral("ALTER TABLE items DROP COLUMN reference"),
                QStringLiteral("ALTER TABLE items DROP COLUMN context")};
    return {};
}

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Schema", text);
}

Error newerSchema(int version, const QString &path)
{
    return makeError(tr("this project was written by a newer Rubric Studio (schema %1; this build reads up to %2); "
                        "open it with that version or newer")
                             .arg(version)
                             .arg(currentVersion),
                     path);
}

/// Applies the steps from `version` to the current one on an open transaction.
Result<void> applySteps(QSqlDatabase &db, int version, const QString &path)
{
    const bool postgres = sql::isPostgres(db);
    QSqlQuery q(db);
    const auto run = [&](int v, const QStringList &statements) -> Result<void> {
        for (const QString &statement : statements) {
            const QString text = postgres ? sql::postgresStatement(statement) : statement;
            if (!q.exec(text))
                return makeError(tr("migrating the project from schema %1 to %2 failed: %3 (%4)")
                                         .arg(v)
                                         .arg(v + 1)
                                         .arg(q.lastError().text(), text),
                                 path);
        }
        return {};
    };
    for (int v = version; v < currentVersion; ++v) {
        if (auto r = run(v, stepStatements(v)); !r)
            return r;
        if (v == 7)
            if (auto r = itemtexts::moveTextsOutOfItems(db); !r)
                return makeError(tr("migrating the project from schema %1 to %2 failed: %3")
                                         .arg(v)
                                         .arg(v + 1)
                                         .arg(r.errorString()),
                                 path);
        if (auto r = run(v, stepStatementsAfter(v)); !r)
            return r;
    }
    return {};
}

/// A team database keeps its schema version in a table of its own (PostgreSQL has no
/// user_version). Several studios may open a new database at once: the first migrates it, the
/// others wait on the transaction lock and then find it current.
Result<void> migratePostgres(QSqlDatabase &db, const QString &path)
{
    if (!db.transaction())
        return makeError(db.lastError().text(), path);
    auto fail = [&](const QString &message) -> Result<void> {
        db.rollback();
        return makeError(message, path);
    };
    if (auto r = sql::lockForTransaction(db, QStringLiteral("schema")); !r)
        return fail(r.errorString());
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT to_regclass('schema_version') IS NOT NULL, (SELECT COUNT(*) FROM "
                               "information_schema.tables WHERE table_schema = current_schema())"))
        || !q.next())
        return fail(tr("cannot read the schema version: %1").arg(q.lastError().text()));
    const bool versioned = q.value(0).toBool();
    const qint64 tables = q.value(1).toLongLong();
    q.finish();
    int version = 0;
    if (versioned) {
        if (!q.exec(QStringLiteral("SELECT version FROM schema_version")) || !q.next())
            return fail(tr("cannot read the schema version: %1").arg(q.lastError().text()));
        version = q.value(0).toInt();
        q.finish();
    } else if (tables > 0) {
        return fail(tr("the database holds %1 tables but no Rubric Studio project (no schema_version table); "
                       "give an empty database")
                            .arg(tables));
    }
    if (version > currentVersion) {
        db.rollback();
        return newerSchema(version, path);
    }
    if (version == currentVersion) {
        db.rollback();
        return {};
    }
    if (auto r = applySteps(db, version, path); !r) {
        db.rollback();
        return r;
    }
    const QString record = versioned ? QStringLiteral("UPDATE schema_version SET version = %1")
                                     : QStringLiteral("CREATE TABLE schema_version(version BIGINT NOT NULL); "
                                                      "INSERT INTO schema_version(version) VALUES(%1)");
    for (const QString &statement : record.arg(currentVersion).split(QStringLiteral("; "))) {
        if (!q.exec(statement))
            return fail(q.lastError().text());
    }
    if (!db.commit())
        return fail(db.lastError().text());
    return {};
}

} // namespace

Result<void> migrate(QSqlDatabase &db, const QString &path)
{
    if (sql::isPostgres(db))
        return migratePostgres(db, path);
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        return makeError(tr("cannot read the schema version: %1").arg(q.lastError().text()), path);
    const int version = q.value(0).toInt();
    q.finish();
    if (version > currentVersion)
        return newerSchema(version, path);
    if (version == currentVersion)
        return {};

    if (!db.transaction())
        return makeError(db.lastError().text(), path);
    if (auto r = applySteps(db, version, path); !r) {
        db.rollback();
        return r;
    }
    if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(currentVersion)) || !db.commit()) {
        const QString err = q.lastError().text();
        db.rollback();
        return makeError(err, path);
    }
    return {};
}

} // namespace rubric::schema
