// RubricDiff: what changed between two rubric versions, in core and through `rubric show-rubric --diff`.
#include "rubric/RubricDiff.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

class TestRubricDiff : public QObject
{
    Q_OBJECT
private slots:
    void equalVersionsHaveNoChanges();
    void everyKindOfChange();
    void cliShowsTheDiff();

private:
    static Rubric v1();
    static Rubric v2();
};

Rubric TestRubricDiff::v1()
{
    Rubric r(QStringLiteral("hypoeval"), QStringLiteral("coherence"));
    r.add({QStringLiteral("root"), {}, CriterionKind::Aspect, QStringLiteral("coherence")});
    for (int i = 1; i <= 4; ++i)
        r.add({QStringLiteral("h%1").arg(i), QStringLiteral("root"), CriterionKind::Hypothesis,
               QStringLiteral("Hypothesis %1").arg(i)});
    return r;
}

Rubric TestRubricDiff::v2()
{
    // h1 reworded, h2 disabled, h3 removed, h4 first among its siblings now, h5 added.
    Rubric r(QStringLiteral("hypoeval"), QStringLiteral("coherence"));
    r.add({QStringLiteral("root"), {}, CriterionKind::Aspect, QStringLiteral("coherence")});
    r.add({QStringLiteral("h4"), QStringLiteral("root"), CriterionKind::Hypothesis, QStringLiteral("Hypothesis 4")});
    r.add({QStringLiteral("h1"), QStringLiteral("root"), CriterionKind::Hypothesis,
           QStringLiteral("Hypothesis 1, sharper")});
    Criterion h2{QStringLiteral("h2"), QStringLiteral("root"), CriterionKind::Hypothesis,
                 QStringLiteral("Hypothesis 2")};
    h2.enabled = false;
    r.add(h2);
    r.add({QStringLiteral("h5"), QStringLiteral("root"), CriterionKind::Hypothesis, QStringLiteral("A new one")});
    return r;
}

void TestRubricDiff::equalVersionsHaveNoChanges()
{
    QVERIFY(RubricDiff::compare(v1(), v1()).isEmpty());
    QCOMPARE(RubricDiff::toText({}), QStringLiteral("no changes\n"));
}

void TestRubricDiff::everyKindOfChange()
{
    const auto entries = RubricDiff::compare(v1(), v2());
    QStringList got;
    for (const auto &e : entries)
        got << e.key + QLatin1Char(' ') + RubricDiff::changeName(e.change);
    // h4 moved to the front, so h1 and h2 moved back one place each.
    QCOMPARE(got, (QStringList{QStringLiteral("h4 moved"), QStringLiteral("h1 reworded"), QStringLiteral("h1 moved"),
                               QStringLiteral("h2 disabled"), QStringLiteral("h2 moved"), QStringLiteral("h5 added"),
                               QStringLiteral("h3 removed")}));
    QCOMPARE(entries[1].before, QStringLiteral("Hypothesis 1"));
    QCOMPARE(entries[1].after, QStringLiteral("Hypothesis 1, sharper"));
    const QString text = RubricDiff::toText(entries);
    QVERIFY2(text.contains(QStringLiteral("~ h1 reworded: “Hypothesis 1” → “Hypothesis 1, sharper”\n")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("+ h5 added: “A new one”\n")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("- h3 removed: “Hypothesis 3”\n")), qPrintable(text));
}

void TestRubricDiff::cliShowsTheDiff()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("diff.rubric"));
    {
        auto project = Project::open(path);
        QVERIFY2(project.ok(), qPrintable(project.errorString()));
        QVERIFY((*project)->ensureJudge(QStringLiteral("hypo"), QStringLiteral("hypoeval")).ok());
        RubricStore store(project->get());
        QCOMPARE(store.saveVersion(QStringLiteral("hypo"), v1()).value(), 1);
        QCOMPARE(store.saveVersion(QStringLiteral("hypo"), v2()).value(), 2);
    }
    QProcess cli;
    cli.start(qEnvironmentVariable("RUBRIC_CLI"),
              {QStringLiteral("show-rubric"), QStringLiteral("--project"), path, QStringLiteral("--judge"),
               QStringLiteral("hypo"), QStringLiteral("--diff"), QStringLiteral("1"), QStringLiteral("--json")});
    QVERIFY(cli.waitForFinished(30000));
    QCOMPARE(cli.exitCode(), 0);
    const QJsonObject json = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    QCOMPARE(json.value(QStringLiteral("from")).toInt(), 1);
    QCOMPARE(json.value(QStringLiteral("to")).toInt(), 2);
    const QJsonArray changes = json.value(QStringLiteral("changes")).toArray();
    QCOMPARE(changes.size(), 7);
    QCOMPARE(changes.last().toObject().value(QStringLiteral("change")).toString(), QStringLiteral("removed"));
    QCOMPARE(changes.last().toObject().value(QStringLiteral("id")).toString(), QStringLiteral("h3"));

    // A version that does not exist is an error, not an empty diff.
    cli.start(qEnvironmentVariable("RUBRIC_CLI"),
              {QStringLiteral("show-rubric"), QStringLiteral("--project"), path, QStringLiteral("--judge"),
               QStringLiteral("hypo"), QStringLiteral("--diff"), QStringLiteral("7")});
    QVERIFY(cli.waitForFinished(30000));
    QCOMPARE(cli.exitCode(), 1);
    QVERIFY(!cli.readAllStandardError().isEmpty());

    // A damaged project (the criteria table gone) is an error naming the table, not an empty
    // rubric (issue 18.8).
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("damage"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY2(q.exec(QStringLiteral("DROP TABLE criteria")), qPrintable(q.lastError().text()));
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("damage"));
    cli.start(qEnvironmentVariable("RUBRIC_CLI"), {QStringLiteral("show-rubric"), QStringLiteral("--project"), path,
                                                   QStringLiteral("--judge"), QStringLiteral("hypo")});
    QVERIFY(cli.waitForFinished(30000));
    const QByteArray err = cli.readAllStandardError();
    QCOMPARE(cli.exitCode(), 1);
    QVERIFY2(err.contains("no such table: criteria"), err.constData());
}

QTEST_GUILESS_MAIN(TestRubricDiff)
#include "TestRubricDiff.moc"
