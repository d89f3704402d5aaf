#include "PostgresServer.h"
#include "ProjectTestAccess.h"
#include "judge/EndpointCapabilities.h"
#include "store/CallStore.h"
#include "store/DatabaseUrl.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "store/Schema.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rubric;
using rubric::test::PostgresServer;
using rubric::test::testsOnPostgres;

namespace {

/// Builds a database file from an SQL script (one statement per line, `--` comments).
bool writeDatabaseFromSql(const QString &dbPath, const QString &sqlFile)
{
    QFile f(sqlFile);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    bool ok = true;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("fixture"));
        db.setDatabaseName(dbPath);
        ok = db.open();
        QSqlQuery q(db);
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QString stmt = QString::fromUtf8(line).trimmed();
            if (stmt.isEmpty() || stmt.startsWith(QLatin1String("--")))
                continue;
            ok = ok && q.exec(stmt);
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("fixture"));
    return ok;
}

QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

std::unique_ptr<Project> openOrFail(const QString &path)
{
    auto p = Project::open(path);
    if (!p)
        qWarning("%s", qPrintable(p.errorString()));
    return p ? std::move(p).value() : nullptr;
}

Item makeItem(const QString &id, const QString &group = QStringLiteral("g"),
              const QString &system = QStringLiteral("s"))
{
    Item it;
    it.id = id;
    it.group = group;
    it.system = system;
    it.source = QStringLiteral("source of ") + id;
    it.output = QStringLiteral("output of ") + id;
    return it;
}

} // namespace

class TestProject : public QObject
{
    Q_OBJECT
private slots:
    void createsCurrentSchemaWithWalAndForeignKeys();
    void migratesVersion1();
    void migratesTestSplitAlignmentApart();
    void migratesLedgerReasoningTokens();
    void migratesChecklistAnswers();
    void failedMigrationLeavesFileAsItWas();
    void refusesNewerSchema();
    void refusesNonProjectFile();
    void addItemsIsAllOrNothing();
    void annotationsSavedAtOnceAndValidated();
    void humanScoresAreMeansPerItem();
    void splitRoundTrips();
    void judgeScoresKeepMissingApart();
    void connectionsPerThread();
    void removingAJudgeTakesItsIssuesOnly();
    void unreadableTablesAreErrorsNotEmptiness_data();
    void unreadableTablesAreErrorsNotEmptiness();
    void endpointCapabilitiesReadErrors();
};

void TestProject::removingAJudgeTakesItsIssuesOnly()
{
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(location, dir, QStringLiteral("p.rubric"));
    auto p = openOrFail(location);
    QVERIFY(p);
    QVERIFY(p->ensureJudge(QStringLiteral("a"), QStringLiteral("geval")));
    QVERIFY(p->ensureJudge(QStringLiteral("b"), QStringLiteral("geval")));
    QVERIFY(p->addIssue(QStringLiteral("call"), QStringLiteral("refused"), QStringLiteral("a")).ok());
    QVERIFY(p->addIssue(QStringLiteral("call"), QStringLiteral("refused"), QStringLiteral("b")).ok());
    QVERIFY(p->addIssue(QStringLiteral("import"), QStringLiteral("bad line")).ok());
    QVERIFY(p->removeJudge(QStringLiteral("a")).ok());
    QSqlQuery q(ProjectTestAccess::database(*p));
    QVERIFY(q.exec(QStringLiteral("SELECT run FROM issues ORDER BY id")));
    QStringList left;
    while (q.next())
        left << q.value(0).toString();
    QCOMPARE(left, QStringList({QStringLiteral("b"), QString()}));
    QVERIFY(!p->judge(QStringLiteral("a")));
}

void TestProject::createsCurrentSchemaWithWalAndForeignKeys()
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

void TestProject::migratesTestSplitAlignmentApart()
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

void TestProject::migratesLedgerReasoningTokens()
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

void TestProject::migratesChecklistAnswers()
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

void TestProject::migratesVersion1()
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

void TestProject::failedMigrationLeavesFileAsItWas()
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

void TestProject::refusesNewerSchema()
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

void TestProject::refusesNonProjectFile()
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

void TestProject::addItemsIsAllOrNothing()
{
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(location, dir, QStringLiteral("p.rubric"));
    auto p = openOrFail(location);
    QVERIFY(p);
    QSignalSpy changed(p.get(), &Project::itemsChanged);
    {
        auto r0 = p->addItems({makeItem(QStringLiteral("0")), makeItem(QStringLiteral("1"))});
        QVERIFY2(r0.ok(), qPrintable(r0.errorString()));
    }
    QCOMPARE(changed.count(), 1);

    // The third item clashes with an existing id: none of the batch lands.
    auto r = p->addItems({makeItem(QStringLiteral("2")), makeItem(QStringLiteral("3")), makeItem(QStringLiteral("1"))});
    QVERIFY(!r.ok());
    QVERIFY2(r.errorString().contains(QLatin1String("'1' is already")), qPrintable(r.errorString()));
    QCOMPARE(p->itemCount(), 2);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(p->itemIds(), (QStringList{QStringLiteral("0"), QStringLiteral("1")}));
}

void TestProject::annotationsSavedAtOnceAndValidated()
{
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(path, dir, QStringLiteral("p.rubric"));
    {
        auto p = openOrFail(path);
        QVERIFY(p);
        QVERIFY(p->addItems({makeItem(QStringLiteral("x"))}).ok());
        QVERIFY(p->upsertAspect({QStringLiteral("fluency"), QStringLiteral("Is it well written?"), 1, 3}).ok());
        QSignalSpy spy(p.get(), &Project::annotationChanged);
        QVERIFY(p->setAnnotation({QStringLiteral("x"), QStringLiteral("fluency"), QStringLiteral("ann"), 2, {}, {}})
                        .ok());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.first().at(0).toString(), QStringLiteral("x"));

        auto out = p->setAnnotation({QStringLiteral("x"), QStringLiteral("fluency"), QStringLiteral("ann"), 4, {}, {}});
        QVERIFY(!out.ok());
        QVERIFY2(out.errorString().contains(QLatin1String("outside its scale")), qPrintable(out.errorString()));
        QVERIFY(!p->setAnnotation({QStringLiteral("nope"), QStringLiteral("fluency"), QStringLiteral("ann"), 2, {}, {}})
                         .ok());
        QVERIFY(!p->setAnnotation({QStringLiteral("x"), QStringLiteral("nope"), QStringLiteral("ann"), 2, {}, {}})
                         .ok());
        // Replacing a score keeps one row per annotator × item × aspect.
        QVERIFY(p->setAnnotation({QStringLiteral("x"),
                                  QStringLiteral("fluency"),
                                  QStringLiteral("ann"),
                                  3,
                                  QStringLiteral("better on reread"),
                                  {}})
                        .ok());
    }
    // A fresh open (as after killing the app) sees the last saved score.
    auto p = openOrFail(path);
    QVERIFY(p);
    const auto anns = p->annotations();
    QCOMPARE(anns.size(), 1);
    QCOMPARE(anns.first().score, 3.0);
    QCOMPARE(anns.first().note, QStringLiteral("better on reread"));
}

void TestProject::humanScoresAreMeansPerItem()
{
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(location, dir, QStringLiteral("p.rubric"));
    auto p = openOrFail(location);
    QVERIFY(p);
    QVERIFY(p->addItems({makeItem(QStringLiteral("a")), makeItem(QStringLiteral("b")), makeItem(QStringLiteral("c"))})
                    .ok());
    QVERIFY(p->upsertAspect({QStringLiteral("coh"), {}, 1, 5}).ok());
    QVERIFY(p->addAnnotations({{QStringLiteral("a"), QStringLiteral("coh"), QStringLiteral("r1"), 4, {}, {}},
                               {QStringLiteral("a"), QStringLiteral("coh"), QStringLiteral("r2"), 3, {}, {}},
                               {QStringLiteral("a"), QStringLiteral("coh"), QStringLiteral("r3"), 3, {}, {}},
                               {QStringLiteral("b"), QStringLiteral("coh"), QStringLiteral("r1"), 1, {}, {}}})
                    .ok());
    const auto h = p->humanScores(QStringLiteral("coh"));
    QCOMPARE(h.size(), 2);
    QVERIFY(std::abs(h.value(QStringLiteral("a")) - 10.0 / 3.0) < 1e-12);
    QCOMPARE(h.value(QStringLiteral("b")), 1.0);
    QCOMPARE(p->annotators(QStringLiteral("coh")).size(), 3);

    // A batch with one bad row writes none of its rows.
    QVERIFY(!p->addAnnotations({{QStringLiteral("c"), QStringLiteral("coh"), QStringLiteral("r1"), 2, {}, {}},
                                {QStringLiteral("c"), QStringLiteral("coh"), QStringLiteral("r2"), 9, {}, {}}})
                     .ok());
    QCOMPARE(p->annotations().size(), 4);
}

void TestProject::splitRoundTrips()
{
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(location, dir, QStringLiteral("p.rubric"));
    auto p = openOrFail(location);
    QVERIFY(p);
    QVERIFY(p->addItems({makeItem(QStringLiteral("a")), makeItem(QStringLiteral("b")), makeItem(QStringLiteral("c"))})
                    .ok());
    QVERIFY(p->setSplit({{QStringLiteral("a"), SplitRole::Train}, {QStringLiteral("c"), SplitRole::Test}}).ok());
    QCOMPARE(p->itemIds(SplitFilter::Train), QStringList{QStringLiteral("a")});
    QCOMPARE(p->itemIds(SplitFilter::Test), QStringList{QStringLiteral("c")});
    QCOMPARE(p->itemIds(SplitFilter::All).size(), 3);
    // Unknown ids are refused and the previous split stays.
    QVERIFY(!p->setSplit({{QStringLiteral("zzz"), SplitRole::Train}}).ok());
    QCOMPARE(p->itemIds(SplitFilter::Train), QStringList{QStringLiteral("a")});
}

void TestProject::judgeScoresKeepMissingApart()
{
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(location, dir, QStringLiteral("p.rubric"));
    auto p = openOrFail(location);
    QVERIFY(p);
    QVERIFY(p->addItems({makeItem(QStringLiteral("a")), makeItem(QStringLiteral("b"))}).ok());
    QVERIFY(p->upsertAspect({QStringLiteral("coh"), {}, 1, 5}).ok());
    QVERIFY(p->ensureJudge(QStringLiteral("rouge-l"), QStringLiteral("rouge-l")).ok());
    QVERIFY(!p->ensureJudge(QStringLiteral("rouge-l"), QStringLiteral("geval")).ok());
    QVERIFY(p->setJudgeScores(QStringLiteral("rouge-l"), QStringLiteral("coh"),
                              {{QStringLiteral("a"), 0.25}, {QStringLiteral("b"), std::nan("")}})
                    .ok());
    const auto s = p->judgeScores(QStringLiteral("rouge-l"), QStringLiteral("coh"));
    QCOMPARE(s.size(), 1);
    QCOMPARE(s.value(QStringLiteral("a")), 0.25);
    const auto j = p->judge(QStringLiteral("rouge-l"));
    QVERIFY(j.has_value());
    QCOMPARE(j->items, 1);
    QCOMPARE(j->aspects, QStringList{QStringLiteral("coh")});
}

void TestProject::connectionsPerThread()
{
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(location, dir, QStringLiteral("p.rubric"));
    auto p = openOrFail(location);
    QVERIFY(p);
    QVERIFY(p->addItems({makeItem(QStringLiteral("a"))}).ok());
    const QString mainConnection = ProjectTestAccess::database(*p).connectionName();
    QString workerConnection;
    int workerCount = -1;
    QThread *worker = QThread::create([&] {
        workerConnection = ProjectTestAccess::database(*p).connectionName();
        workerCount = p->itemCount();
    });
    worker->start();
    QVERIFY(worker->wait(10000));
    delete worker;
    QCOMPARE(workerCount, 1);
    QVERIFY(!workerConnection.isEmpty());
    QVERIFY(workerConnection != mainConnection);
}

QTEST_GUILESS_MAIN(TestProject)
void TestProject::unreadableTablesAreErrorsNotEmptiness_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("reader");
    QTest::newRow("items") << QStringLiteral("items") << QStringLiteral("items");
    QTest::newRow("item ids") << QStringLiteral("items") << QStringLiteral("itemIds");
    QTest::newRow("aspects") << QStringLiteral("aspects") << QStringLiteral("aspects");
    QTest::newRow("annotations") << QStringLiteral("annotations") << QStringLiteral("annotations");
    QTest::newRow("human scores") << QStringLiteral("annotations") << QStringLiteral("humanScores");
    QTest::newRow("split") << QStringLiteral("splits") << QStringLiteral("split");
    QTest::newRow("judges") << QStringLiteral("runs") << QStringLiteral("judges");
    QTest::newRow("judge scores") << QStringLiteral("judge_scores") << QStringLiteral("judgeScores");
    QTest::newRow("call ledger") << QStringLiteral("judge_ledger") << QStringLiteral("ledger");
    QTest::newRow("call totals") << QStringLiteral("judge_ledger") << QStringLiteral("totals");
    // Counts and lists that read as plausible data when empty (issue 18.8).
    QTest::newRow("item count") << QStringLiteral("items") << QStringLiteral("itemCount");
    QTest::newRow("groups") << QStringLiteral("items") << QStringLiteral("groups");
    QTest::newRow("systems") << QStringLiteral("items") << QStringLiteral("systems");
    QTest::newRow("annotators") << QStringLiteral("annotations") << QStringLiteral("annotators");
    QTest::newRow("annotators of an aspect") << QStringLiteral("annotations") << QStringLiteral("aspectAnnotators");
    QTest::newRow("setting") << QStringLiteral("meta") << QStringLiteral("meta");
    // Lookups by name: an unreadable table is not "no such item/aspect/judge" (a run would then
    // create the judge again, an import take the aspect as new).
    QTest::newRow("item lookup") << QStringLiteral("items") << QStringLiteral("item");
    QTest::newRow("aspect lookup") << QStringLiteral("aspects") << QStringLiteral("aspect");
    QTest::newRow("judge lookup") << QStringLiteral("runs") << QStringLiteral("judge");
    // Writers that look a name up first report the damage, not a missing name.
    QTest::newRow("annotation's aspect") << QStringLiteral("aspects") << QStringLiteral("addAnnotation");
    QTest::newRow("annotation's item") << QStringLiteral("items") << QStringLiteral("addAnnotation");
    QTest::newRow("judge scores' judge") << QStringLiteral("runs") << QStringLiteral("setJudgeScores");
    QTest::newRow("existing judge") << QStringLiteral("runs") << QStringLiteral("ensureJudge");
    // A cache that cannot be read must not look like a cache without the answer (the call
    // would be paid for again).
    QTest::newRow("cache lookup") << QStringLiteral("judge_cache") << QStringLiteral("lookup");
    QTest::newRow("cache contains") << QStringLiteral("judge_cache") << QStringLiteral("contains");
    QTest::newRow("cache size") << QStringLiteral("judge_cache") << QStringLiteral("cacheSize");
}

void TestProject::unreadableTablesAreErrorsNotEmptiness()
{
    QFETCH(QString, table);
    QFETCH(QString, reader);
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(location, dir, QStringLiteral("p.rubric"));
    auto p = openOrFail(location);
    QVERIFY(p);
    QVERIFY(p->addItems({makeItem(QStringLiteral("a")), makeItem(QStringLiteral("b"))}).ok());
    QVERIFY(p->upsertAspect({QStringLiteral("coh"), {}, 1, 5}).ok());
    QVERIFY(p->setAnnotation({QStringLiteral("a"), QStringLiteral("coh"), QStringLiteral("ann"), 3, {}, {}}).ok());
    QVERIFY(p->ensureJudge(QStringLiteral("j"), QStringLiteral("imported")).ok());
    QVERIFY(p->setJudgeScores(QStringLiteral("j"), QStringLiteral("coh"), {{QStringLiteral("a"), 2.0}}).ok());
    QVERIFY(p->setMeta(QStringLiteral("task"), QStringLiteral("dialogue")).ok());
    {
        CallStore cache(p.get());
        JudgeResponse answer;
        answer.choices = {JudgeChoice{QStringLiteral("Rating: [[4]]"), {}, QStringLiteral("stop")}};
        cache.addAnswer(QStringLiteral("k1"), QStringLiteral("http://127.0.0.1:1/v1"), QStringLiteral("m"),
                        QStringLiteral("{}"), answer);
        QVERIFY(cache.flush().ok());
        // Before the damage every reader has the data (so the test below is about the damage).
        QVERIFY(cache.lookup(QStringLiteral("k1")).value().has_value());
        QCOMPARE(cache.cacheSize().value(), 1);
    }
    QCOMPARE(p->readItemCount().value(), 2);
    QCOMPARE(p->readGroups().value(), QStringList{QStringLiteral("g")});
    QCOMPARE(p->readAnnotators().value(), QStringList{QStringLiteral("ann")});
    QCOMPARE(p->readMeta(QStringLiteral("task")).value(), QStringLiteral("dialogue"));
    QCOMPARE(p->readItem(QStringLiteral("a")).value()->group, QStringLiteral("g"));
    QCOMPARE(p->readAspect(QStringLiteral("coh")).value()->max, 5.0);
    QCOMPARE(p->readJudge(QStringLiteral("j")).value()->method, QStringLiteral("imported"));
    // A name that is not there is none, not an error.
    QVERIFY(!p->readItem(QStringLiteral("zz")).value().has_value());
    QVERIFY(!p->readAspect(QStringLiteral("zz")).value().has_value());
    QVERIFY(!p->readJudge(QStringLiteral("zz")).value().has_value());
    // A damaged file: the table is gone (foreign keys off, or SQLite refuses to drop a parent).
    QSqlQuery q(ProjectTestAccess::database(*p));
    if (testsOnPostgres()) {
        QVERIFY2(q.exec(QStringLiteral("DROP TABLE ") + table + QStringLiteral(" CASCADE")),
                 qPrintable(q.lastError().text()));
    } else {
        QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys = OFF")));
        QVERIFY2(q.exec(QStringLiteral("DROP TABLE ") + table), qPrintable(q.lastError().text()));
    }
    const QString j = QStringLiteral("j"), coh = QStringLiteral("coh");
    CallStore calls(p.get());
    QString error;
    if (reader == QLatin1String("items"))
        error = p->readItems().errorString();
    else if (reader == QLatin1String("itemIds"))
        error = p->readItemIds().errorString();
    else if (reader == QLatin1String("aspects"))
        error = p->readAspects().errorString();
    else if (reader == QLatin1String("annotations"))
        error = p->readAnnotations(coh).errorString();
    else if (reader == QLatin1String("humanScores"))
        error = p->readHumanScores(coh).errorString();
    else if (reader == QLatin1String("split"))
        error = p->readSplit().errorString();
    else if (reader == QLatin1String("judges"))
        error = p->readJudges().errorString();
    else if (reader == QLatin1String("judgeScores"))
        error = p->readJudgeScores(j, coh).errorString();
    else if (reader == QLatin1String("ledger"))
        error = calls.ledger().errorString();
    else if (reader == QLatin1String("totals"))
        error = calls.totals().errorString();
    else if (reader == QLatin1String("itemCount"))
        error = p->readItemCount().errorString();
    else if (reader == QLatin1String("groups"))
        error = p->readGroups().errorString();
    else if (reader == QLatin1String("systems"))
        error = p->readSystems().errorString();
    else if (reader == QLatin1String("annotators"))
        error = p->readAnnotators().errorString();
    else if (reader == QLatin1String("aspectAnnotators"))
        error = p->readAnnotators(coh).errorString();
    else if (reader == QLatin1String("meta"))
        error = p->readMeta(QStringLiteral("task"), QStringLiteral("summarization")).errorString();
    else if (reader == QLatin1String("lookup"))
        error = calls.lookup(QStringLiteral("k1")).errorString();
    else if (reader == QLatin1String("contains"))
        error = calls.contains(QStringLiteral("k1")).errorString();
    else if (reader == QLatin1String("cacheSize"))
        error = calls.cacheSize().errorString();
    else if (reader == QLatin1String("item"))
        error = p->readItem(QStringLiteral("a")).errorString();
    else if (reader == QLatin1String("aspect"))
        error = p->readAspect(coh).errorString();
    else if (reader == QLatin1String("judge"))
        error = p->readJudge(j).errorString();
    else if (reader == QLatin1String("addAnnotation"))
        error = p->setAnnotation({QStringLiteral("a"), coh, QStringLiteral("ann2"), 4, {}, {}}).errorString();
    else if (reader == QLatin1String("setJudgeScores"))
        error = p->setJudgeScores(j, coh, {{QStringLiteral("b"), 3.0}}).errorString();
    else if (reader == QLatin1String("ensureJudge"))
        error = p->ensureJudge(j, QStringLiteral("imported")).errorString();
    QVERIFY2(error.contains(QLatin1String("cannot read")), qPrintable(reader + QLatin1String(": ") + error));
    QVERIFY2(error.contains(table), qPrintable(error)); // SQLite's "no such table: …" is kept
    QVERIFY2(error.contains(p->path()), qPrintable(error));
}

void TestProject::endpointCapabilitiesReadErrors()
{
    // What the project learned about an endpoint is read as a Result: a settings table that
    // cannot be read is an error, not "the endpoint honours n and returns logprobs".
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(location, dir, QStringLiteral("p.rubric"));
    auto p = openOrFail(location);
    QVERIFY(p);
    ProviderProfile profile;
    profile.baseUrl = QStringLiteral("http://127.0.0.1:1/v1");
    profile.model = QStringLiteral("m");
    QCOMPARE(*endpoint::ignoresN(*p, profile), false);
    QVERIFY(endpoint::noteIgnoresN(*p, profile).ok());
    QCOMPARE(*endpoint::ignoresN(*p, profile), true);
    QCOMPARE(*endpoint::lacksLogprobs(*p, profile), false);
    QSqlQuery q(ProjectTestAccess::database(*p));
    QVERIFY2(q.exec(QStringLiteral("DROP TABLE meta")), qPrintable(q.lastError().text()));
    for (const Result<bool> &r : {endpoint::ignoresN(*p, profile), endpoint::lacksLogprobs(*p, profile)}) {
        QVERIFY(!r.ok());
        QVERIFY2(r.errorString().contains(QLatin1String("meta")), qPrintable(r.errorString()));
    }
}

#include "TestProject.moc"
