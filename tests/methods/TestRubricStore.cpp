#include "PostgresServer.h"
#include "ProjectTestAccess.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

class TestRubricStore : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void savesVersionsAndLoadsTree();
    void rejectsBadTrees_data();
    void rejectsBadTrees();
    void writesAndSummarisesScores();
    void runConfigRoundTrip();
    void prunesScores();
    void alignmentBasisGoesToTheNote();
    void unreadableTablesAreErrorsNotEmptiness_data();
    void unreadableTablesAreErrorsNotEmptiness();
    void editOfAnOlderVersionDescendsFromIt();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Project> m_project;
};

void TestRubricStore::init()
{
    static int counter = 0;
    RUBRIC_PROJECT_LOCATION(location, m_dir, QStringLiteral("p%1.rubric").arg(++counter));
    auto p = Project::open(location);
    QVERIFY2(p.ok(), qPrintable(p.errorString()));
    m_project = std::move(p).value();
    QVector<Item> items;
    for (int i = 0; i < 3; ++i)
        items.append(Item{QStringLiteral("it%1").arg(i),
                          QStringLiteral("g"),
                          QStringLiteral("s"),
                          QStringLiteral("src"),
                          QStringLiteral("out"),
                          QStringLiteral("ref"),
                          {},
                          i});
    auto added = m_project->addItems(items);
    QVERIFY2(added.ok(), qPrintable(added.errorString()));
    QVERIFY(m_project->upsertAspect(Aspect{QStringLiteral("coherence"), QStringLiteral("fits together"), 1, 5}));
    QVERIFY(m_project->ensureJudge(QStringLiteral("j"), QStringLiteral("hypoeval")));
}

void TestRubricStore::cleanup()
{
    m_project.reset();
}

void TestRubricStore::savesVersionsAndLoadsTree()
{
    RubricStore store(m_project.get());
    QCOMPARE(store.latestVersion(QStringLiteral("j")), 0);
    QVERIFY(!store.loadLatest(QStringLiteral("j")).value()); // none yet: not an error
    QVERIFY(!store.load(QStringLiteral("j")).ok());

    Rubric r(QStringLiteral("hypoeval"), QStringLiteral("coherence"));
    Criterion root;
    root.key = QStringLiteral("a");
    root.kind = CriterionKind::Aspect;
    root.text = QStringLiteral("coherence");
    r.add(root);
    Criterion h;
    h.key = QStringLiteral("h1");
    h.parentKey = QStringLiteral("a");
    h.kind = CriterionKind::Hypothesis;
    h.text = QStringLiteral("logical flow");
    h.enabled = false;
    h.weight = 0.5;
    h.origin = {{QStringLiteral("source"), QStringLiteral("init")}};
    h.stats = {{QStringLiteral("train_pearson"), 0.42}, {QStringLiteral("rewards"), QVariantList{0.5, 0.75}}};
    r.add(h);

    QSignalSpy changed(m_project.get(), &Project::judgesChanged);
    auto v1 = store.saveVersion(QStringLiteral("j"), r, QStringLiteral("first"));
    QVERIFY2(v1.ok(), qPrintable(v1.errorString()));
    QCOMPARE(*v1, 1);
    QCOMPARE(changed.count(), 1);
    r.find(QStringLiteral("h1"))->enabled = true;
    auto v2 = store.saveVersion(QStringLiteral("j"), r, QStringLiteral("second"), 0.61);
    QCOMPARE(*v2, 2);

    const auto versions = store.versions(QStringLiteral("j"));
    QCOMPARE(versions.size(), 2);
    QCOMPARE(versions[0].note, QStringLiteral("first"));
    QVERIFY(!versions[0].alignment.has_value());
    QCOMPARE(*versions[1].alignment, 0.61);
    QVERIFY(versions[1].created.isValid());

    auto loaded = store.load(QStringLiteral("j"), 1);
    QVERIFY(loaded.ok());
    QCOMPARE(loaded->version(), 1);
    QCOMPARE(loaded->aspect(), QStringLiteral("coherence"));
    QCOMPARE(loaded->criteria().size(), 2);
    const Criterion *lh = loaded->find(QStringLiteral("h1"));
    QVERIFY(lh);
    QCOMPARE(lh->parentKey, QStringLiteral("a"));
    QCOMPARE(lh->kind, CriterionKind::Hypothesis);
    QCOMPARE(lh->enabled, false);
    QCOMPARE(lh->weight, 0.5);
    QCOMPARE(lh->position, 1);
    QCOMPARE(lh->stats.value(QStringLiteral("train_pearson")).toDouble(), 0.42);
    QCOMPARE(lh->stats.value(QStringLiteral("rewards")).toList().size(), 2);
    QCOMPARE(lh->origin.value(QStringLiteral("source")).toString(), QStringLiteral("init"));
    QCOMPARE(loaded->children(QStringLiteral("a")).size(), 1);
    QCOMPARE(store.load(QStringLiteral("j"))->find(QStringLiteral("h1"))->enabled, true);
    QVERIFY(store.setAlignment(QStringLiteral("j"), 1, 0.3));
    QCOMPARE(*store.versions(QStringLiteral("j"))[0].alignment, 0.3);
}

void TestRubricStore::rejectsBadTrees_data()
{
    QTest::addColumn<QString>("firstKey");
    QTest::addColumn<QString>("secondKey");
    QTest::addColumn<QString>("secondParent");
    QTest::newRow("duplicate key") << "x"
                                   << "x"
                                   << "";
    QTest::newRow("unknown parent") << "x"
                                    << "y"
                                    << "nope";
}

void TestRubricStore::rejectsBadTrees()
{
    QFETCH(QString, firstKey);
    QFETCH(QString, secondKey);
    QFETCH(QString, secondParent);
    RubricStore store(m_project.get());
    Rubric r(QStringLiteral("geval"), QStringLiteral("coherence"));
    Criterion a;
    a.key = firstKey;
    r.add(a);
    Criterion b;
    b.key = secondKey;
    b.parentKey = secondParent;
    r.add(b);
    QVERIFY(!store.saveVersion(QStringLiteral("j"), r).ok());
    QCOMPARE(store.latestVersion(QStringLiteral("j")), 0); // nothing half-written
}

void TestRubricStore::writesAndSummarisesScores()
{
    RubricStore store(m_project.get());
    QVector<CriterionScore> rows;
    rows.append({QStringLiteral("it1"), QStringLiteral("h1"), 0, 4, QStringLiteral("ok"),
                 QStringLiteral("Final score: 4"), QStringLiteral("because"), QStringLiteral("k1")});
    rows.append({QStringLiteral("it1"), QStringLiteral("h1"), 1, 2, QStringLiteral("ok"), QStringLiteral("2"), {}, {}});
    rows.append({QStringLiteral("it1"),
                 QStringLiteral("h1"),
                 2,
                 std::nan(""),
                 QStringLiteral("unparsed"),
                 QStringLiteral("dunno"),
                 {},
                 {}});
    rows.append({QStringLiteral("it0"), QStringLiteral("h2"), 0, 5, QStringLiteral("ok"), {}, {}, {}});
    QVERIFY(store.writeCriterionScores(QStringLiteral("j"), rows));

    auto all = store.criterionScores(QStringLiteral("j"));
    QCOMPARE(all.size(), 2);
    QCOMPARE(all[0].itemId, QStringLiteral("it0")); // item order
    QCOMPARE(all[1].samples.size(), 3);
    QCOMPARE(all[1].mean, 3.0);
    QCOMPARE(all[1].parseStatus, QStringLiteral("unparsed"));
    QCOMPARE(all[1].reasoning, QStringLiteral("because"));
    QCOMPARE(all[1].raw, QStringLiteral("Final score: 4"));

    // replace one sample, and a batch with an unknown item lands not at all
    QVERIFY(store.writeCriterionScores(
            QStringLiteral("j"),
            {{QStringLiteral("it1"), QStringLiteral("h1"), 2, 3, QStringLiteral("ok"), {}, {}, {}}}));
    QVERIFY(!store.writeCriterionScores(
            QStringLiteral("j"),
            {{QStringLiteral("it2"), QStringLiteral("h1"), 0, 1, QStringLiteral("ok"), {}, {}, {}},
             {QStringLiteral("ghost"), QStringLiteral("h1"), 0, 1, QStringLiteral("ok"), {}, {}, {}}}));
    all = store.criterionScores(QStringLiteral("j"));
    QCOMPARE(all.size(), 2);
    QCOMPARE(all[1].mean, 3.0);
    QCOMPARE(all[1].parseStatus, QStringLiteral("ok"));
    QCOMPARE(store.sampleScores(QStringLiteral("j")).size(), 4);
    QVERIFY(store.clearCriterionScores(QStringLiteral("j")));
    QVERIFY(store.sampleScores(QStringLiteral("j")).isEmpty());
}

void TestRubricStore::runConfigRoundTrip()
{
    RubricStore store(m_project.get());
    QVERIFY(store.setRunConfig(QStringLiteral("j"), {{QStringLiteral("phase"), QStringLiteral("evaluate")}}));
    QCOMPARE(store.runConfig(QStringLiteral("j")).value(QStringLiteral("phase")).toString(),
             QStringLiteral("evaluate"));
    QCOMPARE(store.runStatus(QStringLiteral("j")), QStringLiteral("new"));
    QVERIFY(!store.setRunConfig(QStringLiteral("nobody"), {}).ok());
}

void TestRubricStore::prunesScores()
{
    RubricStore store(m_project.get());
    QVector<CriterionScore> rows;
    for (const char *item : {"it0", "it1"})
        for (const char *key : {"h1", "h2", "h3"})
            rows.append({QString::fromLatin1(item),
                         QString::fromLatin1(key),
                         0,
                         3,
                         QStringLiteral("ok"),
                         {},
                         {},
                         QStringLiteral("%1-%2").arg(QLatin1String(item), QLatin1String(key))});
    QVERIFY(store.writeCriterionScores(QStringLiteral("j"), rows));
    QSignalSpy changed(m_project.get(), &Project::judgesChanged);
    // drop h2 everywhere and h3 on it1
    auto pruned = store.pruneCriterionScores(QStringLiteral("j"), [](const CriterionScore &s) {
        return s.criterionKey == QLatin1String("h1") || s.callKey == QLatin1String("it0-h3");
    });
    QVERIFY(pruned.ok());
    QCOMPARE(*pruned, 3);
    QCOMPARE(changed.size(), 1);
    QStringList left;
    for (const CriterionScore &s : store.sampleScores(QStringLiteral("j")))
        left.append(s.callKey);
    QCOMPARE(left, (QStringList{QStringLiteral("it0-h1"), QStringLiteral("it0-h3"), QStringLiteral("it1-h1")}));
    // nothing to drop: no write, no signal
    QCOMPARE(*store.pruneCriterionScores(QStringLiteral("j"), [](const CriterionScore &) { return true; }), 0);
    QCOMPARE(changed.size(), 1);
}

void TestRubricStore::alignmentBasisGoesToTheNote()
{
    RubricStore store(m_project.get());
    Rubric r(QStringLiteral("hypoeval"), QStringLiteral("coherence"));
    Criterion h;
    h.key = QStringLiteral("h1");
    h.text = QStringLiteral("x");
    r.add(h);
    QCOMPARE(*store.saveVersion(QStringLiteral("j"), r, QStringLiteral("edited")), 1);
    QCOMPARE(*store.saveVersion(QStringLiteral("j"), r), 2);
    QVERIFY(store.setAlignment(QStringLiteral("j"), 1, 0.5, QStringLiteral("test split, n = 4")));
    QVERIFY(store.setAlignment(QStringLiteral("j"), 2, 0.25, QStringLiteral("test split, n = 4")));
    const auto v = store.versions(QStringLiteral("j"));
    QCOMPARE(v[0].note, QStringLiteral("edited — test split, n = 4"));
    QCOMPARE(*v[0].alignment, 0.5);
    QCOMPARE(v[1].note, QStringLiteral("test split, n = 4"));
    QVERIFY(!store.setAlignment(QStringLiteral("j"), 9, 0.1, QStringLiteral("x")).ok());
}

void TestRubricStore::unreadableTablesAreErrorsNotEmptiness_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("reader");
    QTest::newRow("versions") << QStringLiteral("rubric_versions") << QStringLiteral("versions");
    QTest::newRow("latest version") << QStringLiteral("rubric_versions") << QStringLiteral("latestVersion");
    QTest::newRow("criteria") << QStringLiteral("criteria") << QStringLiteral("criteria");
    QTest::newRow("load without criteria") << QStringLiteral("criteria") << QStringLiteral("load");
    QTest::newRow("load without versions") << QStringLiteral("rubric_versions") << QStringLiteral("load");
    QTest::newRow("latest without versions") << QStringLiteral("rubric_versions") << QStringLiteral("loadLatest");
    QTest::newRow("latest without criteria") << QStringLiteral("criteria") << QStringLiteral("loadLatest");
    QTest::newRow("sample scores") << QStringLiteral("criterion_scores") << QStringLiteral("sampleScores");
    QTest::newRow("criterion scores") << QStringLiteral("criterion_scores") << QStringLiteral("criterionScores");
    QTest::newRow("refused items") << QStringLiteral("criterion_scores") << QStringLiteral("failedItems");
    QTest::newRow("run config") << QStringLiteral("runs") << QStringLiteral("runConfig");
    QTest::newRow("run status") << QStringLiteral("runs") << QStringLiteral("runStatus");
}

void TestRubricStore::unreadableTablesAreErrorsNotEmptiness()
{
    // Issue 18.8: a damaged project must not read as one without rubrics, scores or settings.
    QFETCH(QString, table);
    QFETCH(QString, reader);
    RubricStore store(m_project.get());
    const QString j = QStringLiteral("j");
    Rubric r(QStringLiteral("hypoeval"), QStringLiteral("coherence"));
    r.add({QStringLiteral("a"), {}, CriterionKind::Aspect, QStringLiteral("coherence")});
    r.add({QStringLiteral("h1"), QStringLiteral("a"), CriterionKind::Hypothesis, QStringLiteral("flows")});
    QCOMPARE(store.saveVersion(j, r).value(), 1);
    QVERIFY(store.writeCriterionScores(
            j,
            {{QStringLiteral("it1"), QStringLiteral("h1"), 0, 4, QStringLiteral("ok"), QStringLiteral("4"), {}, {}}}));
    QVERIFY(store.setRunConfig(j, {{QStringLiteral("aspect"), QStringLiteral("coherence")}}));
    // Before the damage the readers see the data.
    QCOMPARE(store.readVersions(j).value().size(), 1);
    QCOMPARE(store.readCriteria(j).value().size(), 2);
    QCOMPARE(store.readSampleScores(j).value().size(), 1);
    QCOMPARE(store.readRunConfig(j).value().value(QStringLiteral("aspect")).toString(), QStringLiteral("coherence"));

    // The table is gone (foreign keys off, or SQLite refuses to drop a parent table).
    QSqlQuery q(ProjectTestAccess::database(*m_project));
    if (rubric::test::testsOnPostgres()) {
        QVERIFY2(q.exec(QStringLiteral("DROP TABLE ") + table + QStringLiteral(" CASCADE")),
                 qPrintable(q.lastError().text()));
    } else {
        QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys = OFF")));
        QVERIFY2(q.exec(QStringLiteral("DROP TABLE ") + table), qPrintable(q.lastError().text()));
    }
    QString error;
    if (reader == QLatin1String("versions"))
        error = store.readVersions(j).errorString();
    else if (reader == QLatin1String("latestVersion"))
        error = store.readLatestVersion(j).errorString();
    else if (reader == QLatin1String("criteria"))
        error = store.readCriteria(j).errorString();
    else if (reader == QLatin1String("load"))
        error = store.load(j).errorString();
    else if (reader == QLatin1String("loadLatest"))
        error = store.loadLatest(j).errorString();
    else if (reader == QLatin1String("sampleScores"))
        error = store.readSampleScores(j).errorString();
    else if (reader == QLatin1String("criterionScores"))
        error = store.readCriterionScores(j).errorString();
    else if (reader == QLatin1String("failedItems"))
        error = store.failedItems(j).errorString();
    else if (reader == QLatin1String("runConfig"))
        error = store.readRunConfig(j).errorString();
    else if (reader == QLatin1String("runStatus"))
        error = store.readRunStatus(j).errorString();
    QVERIFY2(error.contains(QLatin1String("cannot read")), qPrintable(reader + QLatin1String(": ") + error));
    QVERIFY2(error.contains(rubric::test::missingTableMessage(table)), qPrintable(error));
    QVERIFY2(error.contains(m_project->path()), qPrintable(error));
}

void TestRubricStore::editOfAnOlderVersionDescendsFromIt()
{
    // Issue 33.9: Ann edits version 1 while Bo saves version 2 from it; Ann's save is version 3,
    // and its parent is the version she edited (1), not Bo's (2), which it does not contain.
    RubricStore store(m_project.get());
    Rubric r(QStringLiteral("hypoeval"), QStringLiteral("coherence"));
    Criterion root;
    root.key = QStringLiteral("a");
    root.kind = CriterionKind::Aspect;
    root.text = QStringLiteral("coherence");
    r.add(root);
    QCOMPARE(store.saveVersion(QStringLiteral("j"), r).value(), 1);
    Rubric ann = store.load(QStringLiteral("j")).value();
    Rubric bo = store.load(QStringLiteral("j")).value();
    bo.criteria()[0].text = QStringLiteral("coherence (Bo)");
    QCOMPARE(store.saveVersion(QStringLiteral("j"), bo).value(), 2);
    ann.criteria()[0].text = QStringLiteral("coherence (Ann)");
    QCOMPARE(store.saveVersion(QStringLiteral("j"), ann).value(), 3);
    const auto versions = store.readVersions(QStringLiteral("j"));
    QVERIFY(versions.ok());
    QCOMPARE(versions->size(), 3);
    QCOMPARE(versions->at(0).parentVersion, 0);
    QCOMPARE(versions->at(1).parentVersion, 1);
    QCOMPARE(versions->at(2).parentVersion, 1);
    // A new rubric (a run's) follows the latest.
    QCOMPARE(store.saveVersion(QStringLiteral("j"), r).value(), 4);
    QCOMPARE(store.readVersions(QStringLiteral("j"))->at(3).parentVersion, 3);
}

QTEST_GUILESS_MAIN(TestRubricStore)
#include "TestRubricStore.moc"
