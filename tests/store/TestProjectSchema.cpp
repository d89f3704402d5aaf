#include "PostgresServer.h"
#include "ProjectTestAccess.h"
#include "StoreTestUtil.h"
#include "judge/EndpointCapabilities.h"
#include "store/CallStore.h"
#include "store/DatabaseUrl.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "store/Schema.h"
#include "store/SqlDialect.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

// The project file's schema: created current, migrated from every older version (fixtures in
// tests/store/fixtures), a failed migration leaving the file as it was, newer and foreign files
// refused. The rest of the store's behaviour is in TestProject.cpp.

using namespace rubric;
using namespace rubric::test;
using rubric::test::PostgresServer;
using rubric::test::testsOnPostgres;

class TestProjectSchema : public QObject
{
    Q_OBJECT
private slots:
    void createsCurrentSchemaWithWalAndForeignKeys();
    void migratesVersion1();
    void migratesTestSplitAlignmentApart();
    void migratesLedgerReasoningTokens();
    void migratesChecklistAnswers();
    void migratesTextsToOneCopy();
    void failedMigrationLeavesFileAsItWas();
    void refusesNewerSchema();
    void refusesNonProjectFile();
};

void TestProjectSchema::createsCurrentSchemaWithWalAndForeignKeys()
{
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(path, dir, QStringLiteral("p.rubric"));
    auto p = openOrFail(path);
    QVERIFY(p);
    QSqlQuery q(ProjectTestAccess::database(*p));
    if (testsOnPostgres()) {
        // A team database: the version in its own table, every table there, ids made by the database.
        QVERIFY(q.exec(QStringLiteral("SELECT version FROM schema_version")) && q.next());
        QCOMPARE(q.value(0).toInt(), schema::currentVersion);
        for (const QString &table : schema::tables()) {
            QVERIFY(q.exec(QStringLiteral("SELECT to_regclass('%1') IS NOT NULL").arg(table)) && q.next());
            QVERIFY2(q.value(0).toBool(), qPrintable(table));
        }
        QVERIFY(q.exec(QStringLiteral("SELECT data_type FROM information_schema.columns WHERE table_name = 'aspects' "
                                      "AND column_name = 'scale_max'"))
                && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("double precision"));
        return;
    }
    QVERIFY(q.exec(QStringLiteral("PRAGMA user_version")) && q.next());
    QCOMPARE(q.value(0).toInt(), schema::currentVersion);
    QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")) && q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
    QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys")) && q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    // Every table of the current schema is there.
    QVERIFY(schema::tables().contains(QStringLiteral("meta")));
    for (const char *table : {"items", "aspects", "annotations", "splits", "runs", "judge_scores", "rubric_versions",
                              "criteria", "criterion_scores", "judge_cache", "judge_ledger", "prompt_templates",
                              "issues", "judge_batches", "judge_batch_requests"}) {
        QVERIFY2(schema::tables().contains(QLatin1String(table)), table);
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name='%1'")
                               .arg(QLatin1String(table)))
                && q.next());
        QVERIFY2(q.value(0).toInt() == 1, table);
    }
}

void TestProjectSchema::migratesTestSplitAlignmentApart()
{
    if (testsOnPostgres())
        QSKIP("migrations from old SQLite project files (fixtures in tests/store/fixtures): the SQLite run has them");
    // A schema-2 file whose re-score recorded its alignment on the test split (in the train
    // figure's column): schema 3 moves that figure to its own column, a train figure stays.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v2.rubric"));
    {
        auto p = openOrFail(path);
        QVERIFY(p);
        QVERIFY(p->ensureJudge(QStringLiteral("j"), QStringLiteral("hypoeval")));
        QSqlQuery q(ProjectTestAccess::database(*p));
        for (const auto &[version, note] :
             {std::pair{1, "HypoEval bank of 5 — Pearson … with the human scores on the train split, n = 30"},
              std::pair{2, "edited — alignment: Pearson of the judge score with the human scores on the test "
                           "split, n = 10"}})
            QVERIFY2(q.exec(QStringLiteral("INSERT INTO rubric_versions(run_id, aspect, method, version, note, "
                                           "alignment, created_at) SELECT id, 'a', 'hypoeval', %1, '%2', 0.5, 'now' "
                                           "FROM runs WHERE name = 'j'")
                                    .arg(version)
                                    .arg(QString::fromUtf8(note))),
                     qPrintable(q.lastError().text()));
        QVERIFY(q.exec(QStringLiteral("ALTER TABLE rubric_versions DROP COLUMN test_alignment")));
        QVERIFY(q.exec(QStringLiteral("ALTER TABLE rubric_versions DROP COLUMN test_basis")));
        QVERIFY(q.exec(QStringLiteral("ALTER TABLE judge_ledger DROP COLUMN tokens_cached")));    // added by v4
        QVERIFY(q.exec(QStringLiteral("ALTER TABLE judge_ledger DROP COLUMN batch")));            // added by v5
        QVERIFY(q.exec(QStringLiteral("ALTER TABLE judge_ledger DROP COLUMN tokens_reasoning"))); // added by v6
        QVERIFY(q.exec(QStringLiteral("ALTER TABLE criterion_scores DROP COLUMN answer")));       // added by v7
        QVERIFY(q.exec(QStringLiteral("DROP TABLE judge_batch_requests")));
        QVERIFY(q.exec(QStringLiteral("DROP TABLE judge_batches")));
        QVERIFY2(backToSchema7Items(q), qPrintable(q.lastError().text()));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 2")));
    }
    auto p = openOrFail(path);
    QVERIFY(p);
    QSqlQuery q(ProjectTestAccess::database(*p));
    QVERIFY(q.exec(QStringLiteral("SELECT version, alignment, test_alignment FROM rubric_versions ORDER BY version")));
    QVERIFY(q.next());
    QCOMPARE(q.value(1).toDouble(), 0.5);
    QVERIFY(q.value(2).isNull());
    QVERIFY(q.next());
    QVERIFY(q.value(1).isNull());
    QCOMPARE(q.value(2).toDouble(), 0.5);
}

void TestProjectSchema::migratesLedgerReasoningTokens()
{
    if (testsOnPostgres())
        QSKIP("migrations from old SQLite project files (fixtures in tests/store/fixtures): the SQLite run has them");
    // A schema-5 file with a ledger row: schema 6 adds the reasoning tokens (0 for the old row),
    // and new rows keep theirs.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v5.rubric"));
    {
        auto p = openOrFail(path);
        QVERIFY(p);
        CallStore store(p.get());
        LedgerEntry e;
        e.key = QStringLiteral("k1");
        e.baseUrl = QStringLiteral("http://127.0.0.1:1/v1");
        e.model = QStringLiteral("m");
        e.outcome = QStringLiteral("ok");
        e.tokensOut = 40;
        store.addLedger(e);
        QVERIFY(store.flush().ok());
        QSqlQuery q(ProjectTestAccess::database(*p));
        QVERIFY(q.exec(QStringLiteral("ALTER TABLE judge_ledger DROP COLUMN tokens_reasoning")));
        QVERIFY(q.exec(QStringLiteral("ALTER TABLE criterion_scores DROP COLUMN answer"))); // added by v7
        QVERIFY2(backToSchema7Items(q), qPrintable(q.lastError().text()));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 5")));
    }
    auto p = openOrFail(path);
    QVERIFY(p);
    CallStore store(p.get());
    LedgerEntry e;
    e.key = QStringLiteral("k2");
    e.baseUrl = QStringLiteral("http://127.0.0.1:1/v1");
    e.model = QStringLiteral("m");
    e.outcome = QStringLiteral("ok");
    e.tokensOut = 300;
    e.tokensReasoning = 290;
    store.addLedger(e);
    QVERIFY(store.flush().ok());
    const auto rows = store.ledger();
    QVERIFY(rows.ok());
    QCOMPARE(rows->size(), 2);
    QCOMPARE(rows->at(0).tokensOut, 40);
    QCOMPARE(rows->at(0).tokensReasoning, 0);
    QCOMPARE(rows->at(1).tokensReasoning, 290);
    const auto totals = store.totals();
    QVERIFY(totals.ok());
    QCOMPARE(totals->tokensReasoning, 290);
}

void TestProjectSchema::migratesChecklistAnswers()
{
    if (testsOnPostgres())
        QSKIP("migrations from old SQLite project files: the SQLite run has them");
    // Issue 30.1: a schema-6 file stored a checklist answer's meets-criterion value in score
    // only; schema 7 adds the literal answer, restored from score and the latest polarity.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v6.rubric"));
    {
        auto p = openOrFail(path);
        QVERIFY(p);
        Item a, b;
        a.id = QStringLiteral("a");
        b.id = QStringLiteral("b");
        b.position = 1;
        QVERIFY(p->addItems({a, b}));
        QVERIFY(p->ensureJudge(QStringLiteral("ce"), QStringLiteral("checkeval")));
        Rubric r(QStringLiteral("checkeval"), QStringLiteral("coherence"));
        r.add({QStringLiteral("aspect"), {}, CriterionKind::Aspect, QStringLiteral("coherence")});
        r.add({QStringLiteral("s1"), QStringLiteral("aspect"), CriterionKind::SubAspect, QStringLiteral("Flow")});
        r.add({QStringLiteral("q1"), QStringLiteral("s1"), CriterionKind::Question, QStringLiteral("Is it clear?")});
        r.add({QStringLiteral("q2"), QStringLiteral("s1"), CriterionKind::Question, QStringLiteral("Is it wordy?")});
        r.find(QStringLiteral("q2"))->origin.insert(QStringLiteral("inverted"), true);
        RubricStore store(p.get());
        QVERIFY(store.saveVersion(QStringLiteral("ce"), r));
        // as the old run stored them: score = meets (q1 yes → 1, q2 yes → 0 since inverted)
        QVERIFY(store.writeCriterionScores(
                QStringLiteral("ce"),
                {{QStringLiteral("a"), QStringLiteral("q1"), 0, 1.0, QStringLiteral("ok")},
                 {QStringLiteral("a"), QStringLiteral("q2"), 0, 0.0, QStringLiteral("ok")},
                 {QStringLiteral("b"), QStringLiteral("q2"), 0, 1.0, QStringLiteral("ok")},
                 {QStringLiteral("b"), QStringLiteral("q1"), 0, std::nan(""), QStringLiteral("unparsed")}}));
        QSqlQuery q(ProjectTestAccess::database(*p));
        QVERIFY(q.exec(QStringLiteral("ALTER TABLE criterion_scores DROP COLUMN answer")));
        QVERIFY2(backToSchema7Items(q), qPrintable(q.lastError().text()));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 6")));
    }
    auto p = openOrFail(path);
    QVERIFY(p);
    const auto rows = RubricStore(p.get()).readSampleScores(QStringLiteral("ce"));
    QVERIFY(rows.ok());
    QCOMPARE(rows->size(), 4);
    for (const CriterionScore &s : *rows) {
        const QString unit = s.itemId + QLatin1Char('/') + s.criterionKey;
        if (unit == QLatin1String("a/q1"))
            QCOMPARE(s.answer, 1.0); // said yes, met
        else if (unit == QLatin1String("a/q2"))
            QCOMPARE(s.answer, 1.0); // said yes, not met (inverted)
        else if (unit == QLatin1String("b/q2"))
            QCOMPARE(s.answer, 0.0); // said no, met (inverted)
        else
            QVERIFY(std::isnan(s.answer) && std::isnan(s.score)); // unanswered stays so
    }
}

void TestProjectSchema::migratesTextsToOneCopy()
{
    // Issue 34.2: a schema-7 file stored each output's article in the output's own row (16 copies
    // of one article for SummEval). Schema 8 stores every text once; every id, score, annotation,
    // split and criterion score stays as it was. The same for a team database (issue 34, import
    // part 3): a schema-7 database on a real PostgreSQL server, migrated when a studio opens it.
    const bool postgres = testsOnPostgres();
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(path, dir, QStringLiteral("v7.rubric"));
    const QString article = QStringLiteral("An article shared by every output of its group. ").repeated(40);
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(postgres ? QStringLiteral("QPSQL") : QStringLiteral("QSQLITE"),
                                                    QStringLiteral("v7"));
        if (postgres) {
            auto parsed = DatabaseUrl::parse(path);
            QVERIFY(parsed.ok());
            db.setHostName(parsed->host);
            db.setPort(parsed->port);
            db.setUserName(parsed->user);
            db.setPassword(parsed->password);
            db.setDatabaseName(parsed->database);
        } else {
            db.setDatabaseName(path);
        }
        QVERIFY2(db.open(), qPrintable(db.lastError().text()));
        QSqlQuery q(db);
        for (int v = 0; v < 7; ++v)
            for (const QString &statement : schema::stepStatements(v)) {
                const QString text = postgres ? sql::postgresStatement(statement) : statement;
                QVERIFY2(q.exec(text), qPrintable(q.lastError().text() + text));
            }
        if (postgres)
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE schema_version(version BIGINT NOT NULL)"))
                    && q.exec(QStringLiteral("INSERT INTO schema_version(version) VALUES(7)")));
        else
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 7")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO aspects(id, name, definition, scale_min, scale_max) VALUES(3, "
                                      "'coherence', 'd', 1, 5)")));
        QVERIFY(q.prepare(QStringLiteral("INSERT INTO items(id, ext_id, position, group_id, system_id, source, output, "
                                         "reference, context) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)")));
        for (int i = 0; i < 12; ++i) {
            // Row ids with gaps (deleted items) must survive: the annotations point at them.
            q.addBindValue(100 + 7 * i);
            q.addBindValue(QStringLiteral("it%1").arg(i));
            q.addBindValue(i);
            q.addBindValue(QStringLiteral("doc%1").arg(i / 4));
            q.addBindValue(QStringLiteral("M%1").arg(i % 4));
            q.addBindValue(QString(article + QString::number(i / 4)));
            q.addBindValue(QStringLiteral("output %1").arg(i));
            q.addBindValue(i / 4 == 2 ? QStringLiteral("") : QStringLiteral("reference %1").arg(i / 4));
            q.addBindValue(i == 5 ? QStringLiteral("{\"fact\":\"x\"}") : QStringLiteral("{}"));
            QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
        }
        QVERIFY(q.exec(QStringLiteral("INSERT INTO annotations(item_id, aspect_id, annotator, score, created_at, note) "
                                      "VALUES(107, 3, 'ann', 4.5, 't', 'a note'), (163, 3, 'ann', 2, 't', '')")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO splits(item_id, role) VALUES(100, 'train'), (107, 'test')")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO runs(id, name, method, created_at, updated_at) VALUES(9, 'j', "
                                      "'imported', 't', 't')")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO judge_scores(run_id, item_id, aspect_id, score) VALUES(9, 107, 3, "
                                      "3.25), (9, 114, 3, NULL)")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO criterion_scores(run_id, item_id, criterion_key, score, "
                                      "parse_status) VALUES(9, 163, 'q1', 1, 'ok')")));
        q.clear();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v7"));

    auto p = openOrFail(path);
    QVERIFY(p);
    QSqlQuery q(ProjectTestAccess::database(*p));
    QVERIFY(q.exec(postgres ? QStringLiteral("SELECT version FROM schema_version")
                            : QStringLiteral("PRAGMA user_version"))
            && q.next());
    QCOMPARE(q.value(0).toInt(), schema::currentVersion);
    // Once each: 3 articles, 12 outputs, 2 references and the empty one, 2 contexts.
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*), SUM(LENGTH(body)) FROM texts")) && q.next());
    QCOMPARE(q.value(0).toInt(), 3 + 12 + 3 + 2);
    QVERIFY(q.value(1).toLongLong() < 4 * article.size());
    QVERIFY(q.exec(postgres ? QStringLiteral("SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = "
                                             "current_schema() AND table_name = 'items' AND column_name = 'source'")
                            : QStringLiteral("SELECT COUNT(*) FROM pragma_table_info('items') WHERE name = 'source'"))
            && q.next());
    QCOMPARE(q.value(0).toInt(), 0);
    // Every item as it was, with its row id.
    const auto items = p->readItems();
    QVERIFY(items.ok());
    QCOMPARE(items->size(), 12);
    for (int i = 0; i < 12; ++i) {
        const Item &it = items->at(i);
        QCOMPARE(it.id, QStringLiteral("it%1").arg(i));
        QCOMPARE(it.group, QStringLiteral("doc%1").arg(i / 4));
        QCOMPARE(it.system, QStringLiteral("M%1").arg(i % 4));
        QCOMPARE(it.source, article + QString::number(i / 4));
        QCOMPARE(it.output, QStringLiteral("output %1").arg(i));
        QCOMPARE(it.reference, i / 4 == 2 ? QString() : QStringLiteral("reference %1").arg(i / 4));
        QCOMPARE(it.context.value(QStringLiteral("fact")).toString(), i == 5 ? QStringLiteral("x") : QString());
        QVERIFY(q.exec(QStringLiteral("SELECT id FROM items WHERE ext_id = '%1'").arg(it.id)) && q.next());
        QCOMPARE(q.value(0).toInt(), 100 + 7 * i);
    }
    const auto notes = p->readAnnotations(QStringLiteral("coherence"));
    QVERIFY(notes.ok());
    QCOMPARE(notes->size(), 2);
    QCOMPARE(p->humanScores(QStringLiteral("coherence")).value(QStringLiteral("it1")), 4.5);
    QCOMPARE(p->humanScores(QStringLiteral("coherence")).value(QStringLiteral("it9")), 2.0);
    for (const Annotation &a : *notes)
        QCOMPARE(a.note, a.itemId == QLatin1String("it1") ? QStringLiteral("a note") : QString());
    QCOMPARE(p->split().value(QStringLiteral("it0")), SplitRole::Train);
    QCOMPARE(p->split().value(QStringLiteral("it1")), SplitRole::Test);
    const auto judged = p->readJudgeScores(QStringLiteral("j"), QStringLiteral("coherence"));
    QVERIFY(judged.ok());
    QCOMPARE(judged->size(), 1);
    QCOMPARE(judged->value(QStringLiteral("it1")), 3.25);
    const auto criteria = RubricStore(p.get()).readSampleScores(QStringLiteral("j"));
    QVERIFY(criteria.ok());
    QCOMPARE(criteria->size(), 1);
    QCOMPARE(criteria->first().itemId, QStringLiteral("it9"));
    // New items share the migrated texts.
    Item again = makeItem(QStringLiteral("new"), QStringLiteral("doc0"));
    again.source = article + QStringLiteral("0");
    QVERIFY(p->addItems({again}));
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM texts")) && q.next());
    QCOMPARE(q.value(0).toInt(), 3 + 12 + 3 + 2 + 1); // only its output is new
    QCOMPARE(p->item(QStringLiteral("new"))->source, article + QStringLiteral("0"));
}

void TestProjectSchema::migratesVersion1()
{
    if (testsOnPostgres())
        QSKIP("migrations from old SQLite project files (fixtures in tests/store/fixtures): the SQLite run has them");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("old.rubric"));
    QVERIFY(writeDatabaseFromSql(path, QStringLiteral(RUBRIC_TEST_DATA "/fixtures/schema_v1.sql")));

    auto p = openOrFail(path);
    QVERIFY(p);
    QSqlQuery q(ProjectTestAccess::database(*p));
    QVERIFY(q.exec(QStringLiteral("PRAGMA user_version")) && q.next());
    QCOMPARE(q.value(0).toInt(), schema::currentVersion);

    QCOMPARE(p->itemCount(), 3);
    QCOMPARE(p->meta(QStringLiteral("task")), QStringLiteral("summarization"));
    QCOMPARE(p->item(QStringLiteral("c"))->context.value(QStringLiteral("fact")).toString(), QStringLiteral("x"));
    const auto anns = p->annotations(QStringLiteral("coherence"));
    QCOMPARE(anns.size(), 3);
    QCOMPARE(anns.first().note, QString()); // the column added by v2 has its default
    QVERIFY(q.exec(QStringLiteral(
                    "SELECT COUNT(*) FROM pragma_table_info('judge_ledger') WHERE name = 'tokens_cached'"))
            && q.next());
    QCOMPARE(q.value(0).toInt(), 1); // added by v4
    QVERIFY(q.exec(QStringLiteral(
                    "SELECT COUNT(*) FROM pragma_table_info('judge_ledger') WHERE name = 'tokens_reasoning'"))
            && q.next());
    QCOMPARE(q.value(0).toInt(), 1); // added by v6
    QCOMPARE(p->humanScores(QStringLiteral("coherence")).value(QStringLiteral("a")), 3.5);
    QCOMPARE(p->split().value(QStringLiteral("a")), SplitRole::Train);
    // The migrated file takes v2 data.
    QVERIFY(p->ensureJudge(QStringLiteral("j"), QStringLiteral("imported")).ok());
    QVERIFY(p->setAnnotation({QStringLiteral("c"),
                              QStringLiteral("coherence"),
                              QStringLiteral("ann1"),
                              5,
                              QStringLiteral("a note"),
                              {}})
                    .ok());
}

void TestProjectSchema::failedMigrationLeavesFileAsItWas()
{
    if (testsOnPostgres())
        QSKIP("migrations from old SQLite project files (fixtures in tests/store/fixtures): the SQLite run has them");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("clash.rubric"));
    QVERIFY(writeDatabaseFromSql(path, QStringLiteral(RUBRIC_TEST_DATA "/fixtures/schema_v1.sql")));
    {
        // A v1 file that already has a table the v2 step creates: the step must fail as a whole.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("clash"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("CREATE TABLE judge_cache(x)")));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("clash"));

    auto p = Project::open(path);
    QVERIFY(!p.ok());
    QVERIFY2(p.errorString().contains(QLatin1String("from schema 1 to 2")), qPrintable(p.errorString()));
    QVERIFY(p.errorString().contains(path));

    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
    db.setDatabaseName(path);
    QVERIFY(db.open());
    {
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version")) && q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        // Neither the column added first nor the tables created before the clash are there.
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE name IN ('runs','judge_scores')"))
                && q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        QVERIFY(!q.exec(QStringLiteral("SELECT note FROM annotations")));
    }
    db.close();
    db = {};
    QSqlDatabase::removeDatabase(QStringLiteral("check"));
}

void TestProjectSchema::refusesNewerSchema()
{
    if (testsOnPostgres()) {
        QTemporaryDir dir;
        RUBRIC_PROJECT_LOCATION(url, dir, QStringLiteral("new.rubric"));
        {
            auto p = openOrFail(url);
            QVERIFY(p);
            QSqlQuery q(ProjectTestAccess::database(*p));
            QVERIFY(q.exec(QStringLiteral("UPDATE schema_version SET version = %1").arg(schema::currentVersion + 1)));
        }
        auto p = Project::open(url);
        QVERIFY(!p.ok());
        QVERIFY2(p.errorString().contains(QLatin1String("newer")), qPrintable(p.errorString()));
        QVERIFY2(!p.errorString().contains(PostgresServer::password()), qPrintable(p.errorString()));
        return;
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("new.rubric"));
    {
        auto p = openOrFail(path);
        QVERIFY(p);
        QSqlQuery q(ProjectTestAccess::database(*p));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = %1").arg(schema::currentVersion + 1)));
        QVERIFY(q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")));
    }
    const QByteArray before = fileHash(path);
    auto p = Project::open(path);
    QVERIFY(!p.ok());
    QVERIFY2(p.errorString().contains(QLatin1String("newer")), qPrintable(p.errorString()));
    QVERIFY(p.errorString().contains(path));
    QCOMPARE(fileHash(path), before);
}

void TestProjectSchema::refusesNonProjectFile()
{
    if (testsOnPostgres()) {
        // A database that holds something else is not taken over.
        QTemporaryDir dir;
        RUBRIC_PROJECT_LOCATION(url, dir, QStringLiteral("notes.rubric"));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("other"));
            auto parsed = DatabaseUrl::parse(url);
            QVERIFY(parsed.ok());
            db.setHostName(parsed->host);
            db.setPort(parsed->port);
            db.setUserName(parsed->user);
            db.setPassword(parsed->password);
            db.setDatabaseName(parsed->database);
            QVERIFY2(db.open(), qPrintable(db.lastError().text()));
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE notes(id BIGINT)")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("other"));
        auto p = Project::open(url);
        QVERIFY(!p.ok());
        QVERIFY2(p.errorString().contains(QLatin1String("no Rubric Studio project")), qPrintable(p.errorString()));
        // A database that does not exist is an error naming it, and never shows the password.
        const QString missing = url.left(url.lastIndexOf(QLatin1Char('/'))) + QStringLiteral("/no_such_db");
        auto none = Project::open(missing, Project::OpenMode::OpenExisting);
        QVERIFY(!none.ok());
        QVERIFY2(none.errorString().contains(QLatin1String("no_such_db")), qPrintable(none.errorString()));
        QVERIFY2(!none.errorString().contains(PostgresServer::password()), qPrintable(none.errorString()));
        return;
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("notes.rubric"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("this is a text file, not a database\n");
    f.close();
    auto p = Project::open(path);
    QVERIFY(!p.ok());
    QVERIFY2(p.errorString().contains(QLatin1String("not an SQLite database")), qPrintable(p.errorString()));

    auto missing = Project::open(dir.filePath(QStringLiteral("none.rubric")), Project::OpenMode::OpenExisting);
    QVERIFY(!missing.ok());
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("none.rubric"))));
}

QTEST_GUILESS_MAIN(TestProjectSchema)
#include "TestProjectSchema.moc"
