#include "PostgresServer.h"
#include "ProjectTestAccess.h"
#include "StoreTestUtil.h"
#include "judge/EndpointCapabilities.h"
#include "store/CallStore.h"
#include "store/DatabaseUrl.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "store/Schema.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;
using rubric::test::PostgresServer;
using rubric::test::testsOnPostgres;

class TestProject : public QObject
{
    Q_OBJECT
private slots:
    void addItemsIsAllOrNothing();
    void annotationsSavedAtOnceAndValidated();
    void humanScoresAreMeansPerItem();
    void splitRoundTrips();
    void judgeScoresKeepMissingApart();
    void connectionsPerThread();
    void removingAJudgeTakesItsIssuesOnly();
    void judgeCountsMatchAnIndependentCount();
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

void TestProject::judgeCountsMatchAnIndependentCount()
{
    // readJudges counts each judge's distinct items with a score (not NULL) over all its aspects
    // in one pass over the score rows; the figures must be those of a plain count.
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(location, dir, QStringLiteral("p.rubric"));
    auto p = openOrFail(location);
    QVERIFY(p);
    QVector<Item> items;
    for (int i = 0; i < 40; ++i)
        items.append(makeItem(QStringLiteral("i%1").arg(i)));
    QVERIFY(p->addItems(items).ok());
    for (const QString &a : {QStringLiteral("coh"), QStringLiteral("flu"), QStringLiteral("rel")})
        QVERIFY(p->upsertAspect({a, {}, 1, 5}).ok());
    const auto scores = [](int from, int to, int step, int nullEvery) {
        QHash<QString, double> out;
        for (int i = from; i < to; i += step)
            out.insert(QStringLiteral("i%1").arg(i), nullEvery > 0 && i % nullEvery == 0 ? qQNaN() : 1.0 + i % 5);
        return out;
    };
    // "two": two aspects over overlapping items, NULLs on either; "nulls": only NULL scores;
    // "none": no score rows; "one": one aspect, every third item.
    QVERIFY(p->ensureJudge(QStringLiteral("two"), QStringLiteral("imported")).ok());
    QVERIFY(p->ensureJudge(QStringLiteral("nulls"), QStringLiteral("imported")).ok());
    QVERIFY(p->ensureJudge(QStringLiteral("none"), QStringLiteral("geval")).ok());
    QVERIFY(p->ensureJudge(QStringLiteral("one"), QStringLiteral("imported")).ok());
    QVERIFY(p->setJudgeScores(QStringLiteral("two"), QStringLiteral("rel"), scores(0, 30, 1, 7)).ok());
    QVERIFY(p->setJudgeScores(QStringLiteral("two"), QStringLiteral("coh"), scores(20, 40, 1, 3)).ok());
    QVERIFY(p->setJudgeScores(QStringLiteral("nulls"), QStringLiteral("flu"), scores(0, 10, 1, 1)).ok());
    QVERIFY(p->setJudgeScores(QStringLiteral("one"), QStringLiteral("flu"), scores(1, 40, 3, 0)).ok());

    const auto counted = p->readJudges(Project::JudgeCounts::Items);
    QVERIFY2(counted.ok(), qPrintable(counted.errorString()));
    const auto skipped = p->readJudges(Project::JudgeCounts::Skip);
    QVERIFY2(skipped.ok(), qPrintable(skipped.errorString()));
    QCOMPARE(counted->size(), 4);
    QCOMPARE(skipped->size(), counted->size());
    for (qsizetype k = 0; k < counted->size(); ++k) {
        const JudgeInfo &c = counted->at(k), &s = skipped->at(k);
        QCOMPARE(s.name, c.name);
        QCOMPARE(s.method, c.method);
        QCOMPARE(s.status, c.status);
        QCOMPARE(s.aspects, c.aspects);
        QCOMPARE(s.items, -1);
        QCOMPARE(p->readJudge(c.name).value()->items, c.items);
    }

    // On every backend: the plain SQL count, one judge at a time.
    QSqlQuery q(ProjectTestAccess::database(*p));
    QVERIFY(q.exec(QStringLiteral("SELECT r.name, (SELECT COUNT(DISTINCT s.item_id) FROM judge_scores s WHERE "
                                  "s.run_id = r.id AND s.score IS NOT NULL) FROM runs r ORDER BY r.id")));
    for (const JudgeInfo &j : *counted) {
        QVERIFY(q.next());
        QCOMPARE(j.name, q.value(0).toString());
        QCOMPARE(j.items, q.value(1).toInt());
    }
    QVERIFY(!q.next());
    if (testsOnPostgres())
        return;

    // On SQLite also Python's sqlite3, from the file.
    QProcess python;
    python.start(QStringLiteral("python3"),
                 {QStringLiteral(RUBRIC_TEST_DATA "/judge_counts.py"), dir.filePath(QStringLiteral("p.rubric"))});
    QVERIFY(python.waitForFinished(60000));
    QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
    const QJsonArray expected = QJsonDocument::fromJson(python.readAllStandardOutput()).array();
    QCOMPARE(expected.size(), counted->size());
    QStringList seen;
    for (qsizetype k = 0; k < counted->size(); ++k) {
        const QJsonObject e = expected.at(k).toObject();
        const JudgeInfo &j = counted->at(k);
        QCOMPARE(j.name, e.value(QStringLiteral("name")).toString());
        QCOMPARE(j.items, e.value(QStringLiteral("items")).toInt());
        QStringList aspects;
        for (const QJsonValue &a : e.value(QStringLiteral("aspects")).toArray())
            aspects << a.toString();
        QCOMPARE(j.aspects, aspects);
        seen << QStringLiteral("%1:%2").arg(j.name).arg(j.items);
    }
    // The cases above are what they say (not all zero, not all equal).
    QCOMPARE(seen, QStringList({QStringLiteral("two:32"), QStringLiteral("nulls:0"), QStringLiteral("none:0"),
                                QStringLiteral("one:13")}));
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
