// A team project in PostgreSQL: several processes at once (issue 16.4). Needs a real server
// (tests/support/PostgresServer); skipped with the reason where its binaries are not installed.
#include "PostgresServer.h"
#include "store/DatabaseUrl.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QProcess>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QtTest>

using namespace rubric;
using rubric::test::PostgresServer;

namespace {

/// A fresh team database with items i0 … i(n-1) and the aspects coh and flu.
Result<QString> teamProject(int items)
{
    auto server = PostgresServer::shared();
    if (!server)
        return server.error();
    auto url = (*server)->createDatabase();
    if (!url)
        return url.error();
    auto p = Project::open(*url);
    if (!p)
        return p.error();
    QVector<Item> list;
    for (int i = 0; i < items; ++i)
        list.append(
                Item{QStringLiteral("i%1").arg(i), {}, {}, QStringLiteral("source"), QStringLiteral("output"), {}, {}});
    if (auto r = (*p)->addItems(list); !r)
        return r.error();
    for (const char *aspect : {"coh", "flu"})
        if (auto r = (*p)->upsertAspect({QString::fromLatin1(aspect), {}, 1, 5}); !r)
            return r.error();
    return *url;
}

} // namespace

class TestTeamDatabase : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void urlsAreCheckedAndPasswordsNeverShown_data();
    void urlsAreCheckedAndPasswordsNeverShown();
    void twoAnnotatorsAtOnceLoseNothing();
    void aJudgeHasOneRunAtATime();
    void aKilledRunLetsTheJudgeGo();
    void othersChangesArriveWithoutReloading();
};

void TestTeamDatabase::init()
{
    if (QByteArray(QTest::currentTestFunction()).startsWith("urls"))
        return;
    if (const QString why = PostgresServer::missing(); !why.isEmpty())
        QSKIP(qPrintable(why));
}

void TestTeamDatabase::urlsAreCheckedAndPasswordsNeverShown_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("field"); // empty: the URL is good
    QTest::addColumn<QString>("redacted");
    QTest::newRow("full") << QStringLiteral("postgresql://ann:s3cret@db.lab:6543/summeval?sslmode=require") << QString()
                          << QStringLiteral("postgresql://ann@db.lab:6543/summeval?sslmode=require");
    QTest::newRow("sslmode=disable is said")
            << QStringLiteral("postgresql://ann:s3cret@db.lab/x?sslmode=disable") << QString()
            << QStringLiteral("postgresql://ann@db.lab/x?sslmode=disable");
    QTest::newRow("default port, short scheme") << QStringLiteral("postgres://ann@db.lab/summeval") << QString()
                                                << QStringLiteral("postgresql://ann@db.lab/summeval");
    QTest::newRow("escaped password") << QStringLiteral("postgresql://ann:p%40ss%2Fword@db.lab/x") << QString()
                                      << QStringLiteral("postgresql://ann@db.lab/x");
    QTest::newRow("no host") << QStringLiteral("postgresql://ann:s3cret@/summeval") << QStringLiteral("host")
                             << QString();
    QTest::newRow("no user") << QStringLiteral("postgresql://db.lab/summeval") << QStringLiteral("user") << QString();
    QTest::newRow("no database") << QStringLiteral("postgresql://ann:s3cret@db.lab") << QStringLiteral("database")
                                 << QString();
    QTest::newRow("port out of range") << QStringLiteral("postgresql://ann:s3cret@db.lab:70000/x")
                                       << QStringLiteral("url") << QString();
    QTest::newRow("password as a parameter")
            << QStringLiteral("postgresql://ann@db.lab/x?password=s3cret") << QStringLiteral("password") << QString();
    // Issue 33.12: a password typed raw with '/' or '@' in it is not shown either.
    QTest::newRow("raw slash in the password")
            << QStringLiteral("postgresql://ann:s3cret/x@db.lab/x") << QStringLiteral("url") << QString();
    QTest::newRow("raw at in the password")
            << QStringLiteral("postgresql://ann:p@s3cret@db.lab:70000/x") << QStringLiteral("url") << QString();
    // Parameters that connect elsewhere, or read the password from elsewhere, than the URL shows.
    QTest::newRow("hostaddr") << QStringLiteral("postgresql://ann:s3cret@db.lab/x?hostaddr=10.9.8.7")
                              << QStringLiteral("hostaddr") << QString();
    QTest::newRow("passfile") << QStringLiteral("postgresql://ann@db.lab/x?passfile=/tmp/pgpass")
                              << QStringLiteral("passfile") << QString();
    QTest::newRow("service") << QStringLiteral("postgresql://ann:s3cret@db.lab/x?service=other")
                             << QStringLiteral("service") << QString();
    QTest::newRow("parameter with a space") << QStringLiteral("postgresql://ann:s3cret@db.lab/x?sslmode=a%20b")
                                            << QStringLiteral("sslmode") << QString();
}

void TestTeamDatabase::urlsAreCheckedAndPasswordsNeverShown()
{
    QFETCH(QString, url);
    QFETCH(QString, field);
    QFETCH(QString, redacted);
    QVERIFY(DatabaseUrl::isDatabaseUrl(url));
    const auto parsed = DatabaseUrl::parse(url);
    if (field.isEmpty()) {
        QVERIFY2(parsed.ok(), qPrintable(parsed.errorString()));
        QCOMPARE(parsed->redacted(), redacted);
        if (url.contains(QLatin1String("%40")))
            QCOMPARE(parsed->password, QStringLiteral("p@ss/word"));
        QCOMPARE(parsed->warnings.isEmpty(), !url.contains(QLatin1String("sslmode=disable")));
        return;
    }
    QVERIFY(!parsed.ok());
    QCOMPARE(parsed.error().field, field);
    QVERIFY2(!parsed.errorString().contains(QLatin1String("s3cret")), qPrintable(parsed.errorString()));
    // Project::open says the same, and never the password either.
    const auto opened = Project::open(url);
    QVERIFY(!opened.ok());
    QVERIFY2(!opened.errorString().contains(QLatin1String("s3cret")), qPrintable(opened.errorString()));
}

void TestTeamDatabase::twoAnnotatorsAtOnceLoseNothing()
{
    constexpr int items = 150;
    const auto url = teamProject(items);
    QVERIFY2(url.ok(), qPrintable(url.errorString()));
    QProcess a, b;
    for (auto [process, annotator] : {std::pair{&a, "ann-a"}, std::pair{&b, "ann-b"}})
        process->start(QStringLiteral(TEAM_CHILD),
                       {QStringLiteral("annotate"), *url, QString::fromLatin1(annotator), QString::number(items)});
    QVERIFY(a.waitForFinished(300000));
    QVERIFY(b.waitForFinished(300000));
    const QString outA = QString::fromUtf8(a.readAllStandardOutput());
    const QString outB = QString::fromUtf8(b.readAllStandardOutput());
    QVERIFY2(a.exitCode() == 0, qPrintable(QString::fromUtf8(a.readAllStandardError())));
    QVERIFY2(b.exitCode() == 0, qPrintable(QString::fromUtf8(b.readAllStandardError())));
    // Each wrote its own scores and the shared annotator's (items × 2 aspects × 2 rows)…
    const QString wrote = QStringLiteral("wrote\t%1").arg(items * 2 * 2);
    QVERIFY2(outA.contains(wrote), qPrintable(outA));
    QVERIFY2(outB.contains(wrote), qPrintable(outB));
    // …at the same time (otherwise this test would show nothing).
    auto stamp = [](const QString &out, const QString &key) {
        for (const QString &line : out.split(QLatin1Char('\n')))
            if (line.startsWith(key + QLatin1Char('\t')))
                return line.section(QLatin1Char('\t'), 1).toLongLong();
        return qint64(-1);
    };
    const qint64 aFirst = stamp(outA, QStringLiteral("first")), aLast = stamp(outA, QStringLiteral("last"));
    const qint64 bFirst = stamp(outB, QStringLiteral("first")), bLast = stamp(outB, QStringLiteral("last"));
    QVERIFY2(aFirst < bLast && bFirst < aLast, qPrintable(outA + outB));
    qInfo("annotators wrote %d rows each; overlap %lld ms", items * 4,
          std::min(aLast, bLast) - std::max(aFirst, bFirst));

    auto p = Project::open(*url);
    QVERIFY2(p.ok(), qPrintable(p.errorString()));
    const QVector<Annotation> all = (*p)->readAnnotations().value();
    QCOMPARE(all.size(), items * 2 * 3); // ann-a, ann-b and shared, on every item and aspect
    QHash<QString, int> perAnnotator;
    for (const Annotation &n : all) {
        ++perAnnotator[n.annotator];
        if (n.annotator == QLatin1String("shared"))
            QCOMPARE(n.score, 3.0);
        else
            QCOMPARE(n.score, double(1 + (n.itemId.mid(1).toInt() + (n.aspect == QLatin1String("flu") ? 1 : 0)) % 5));
    }
    QCOMPARE(perAnnotator.value(QStringLiteral("ann-a")), items * 2);
    QCOMPARE(perAnnotator.value(QStringLiteral("ann-b")), items * 2);
    QCOMPARE(perAnnotator.value(QStringLiteral("shared")), items * 2);
    QCOMPARE((*p)->readAnnotators().value(),
             (QStringList{QStringLiteral("ann-a"), QStringLiteral("ann-b"), QStringLiteral("shared")}));
}

void TestTeamDatabase::aJudgeHasOneRunAtATime()
{
    const auto url = teamProject(3);
    QVERIFY2(url.ok(), qPrintable(url.errorString()));
    // Two studios (or a studio and the CLI): each Project is its own set of connections.
    auto first = Project::open(*url);
    auto second = Project::open(*url);
    QVERIFY(first.ok() && second.ok());
    Project &a = **first, &b = **second;
    const QString judge = QStringLiteral("geval-4o");
    QVERIFY(a.ensureJudge(judge, QStringLiteral("geval")).ok());
    QVERIFY(a.setJudgeStatus(judge, QStringLiteral("running")).ok());

    const auto refused = b.setJudgeStatus(judge, QStringLiteral("running"));
    QVERIFY(!refused.ok());
    QVERIFY2(refused.errorString().contains(QLatin1String("judge 'geval-4o' is being written by another run")),
             qPrintable(refused.errorString()));
    QVERIFY2(!refused.errorString().contains(PostgresServer::password()), qPrintable(refused.errorString()));
    // Nor can the other process write its scores, rubric or settings meanwhile…
    QVERIFY(!b.setJudgeScores(judge, QStringLiteral("coh"), {{QStringLiteral("i0"), 2.0}}).ok());
    RubricStore otherStore(&b);
    QVERIFY(!otherStore.setRunConfig(judge, {{QStringLiteral("aspect"), QStringLiteral("coh")}}).ok());
    QVERIFY(!b.removeJudge(judge).ok());
    QVERIFY(!b.setJudgeStatus(judge, QStringLiteral("failed")).ok());
    // …while the run writes, and another judge is free.
    QVERIFY(a.setJudgeScores(judge, QStringLiteral("coh"), {{QStringLiteral("i0"), 4.0}}).ok());
    QVERIFY(b.ensureJudge(QStringLiteral("other"), QStringLiteral("geval")).ok());
    QVERIFY(b.setJudgeStatus(QStringLiteral("other"), QStringLiteral("running")).ok());
    QVERIFY(b.setJudgeStatus(QStringLiteral("other"), QStringLiteral("done")).ok());

    // Once the run is over the judge is free again.
    QVERIFY(a.setJudgeStatus(judge, QStringLiteral("done")).ok());
    QVERIFY(b.setJudgeStatus(judge, QStringLiteral("running")).ok());
    QVERIFY(!a.setJudgeStatus(judge, QStringLiteral("running")).ok());
    QVERIFY(b.setJudgeStatus(judge, QStringLiteral("done")).ok());
    QCOMPARE(a.readJudgeScores(judge, QStringLiteral("coh")).value().value(QStringLiteral("i0")), 4.0);
}

void TestTeamDatabase::aKilledRunLetsTheJudgeGo()
{
    const auto url = teamProject(1);
    QVERIFY2(url.ok(), qPrintable(url.errorString()));
    auto p = Project::open(*url);
    QVERIFY(p.ok());
    const QString judge = QStringLiteral("j");
    QVERIFY((*p)->ensureJudge(judge, QStringLiteral("geval")).ok());
    QProcess holder;
    holder.start(QStringLiteral(TEAM_CHILD), {QStringLiteral("hold-judge"), *url, judge});
    QByteArray said; // accumulated: QTRY evaluates its condition once more after it held
    QTRY_VERIFY_WITH_TIMEOUT((said += holder.readAllStandardOutput()).contains("holding")
                                     || holder.state() == QProcess::NotRunning,
                             60000);
    QVERIFY2(holder.state() == QProcess::Running, qPrintable(QString::fromUtf8(holder.readAllStandardError())));
    QVERIFY(!(*p)->setJudgeStatus(judge, QStringLiteral("running")).ok());
    holder.kill();
    QVERIFY(holder.waitForFinished(30000));
    // The server ends the dead process's session, and its lock with it (the status it left
    // says "running", but nothing holds the judge).
    QTRY_VERIFY_WITH_TIMEOUT((*p)->setJudgeStatus(judge, QStringLiteral("running")).ok(), 30000);
    QVERIFY((*p)->setJudgeStatus(judge, QStringLiteral("done")).ok());
}

void TestTeamDatabase::othersChangesArriveWithoutReloading()
{
    const auto url = teamProject(3);
    QVERIFY2(url.ok(), qPrintable(url.errorString()));
    auto mine = Project::open(*url);
    QVERIFY(mine.ok());
    Project &studio = **mine;
    QSignalSpy changed(&studio, &Project::annotationChanged);
    QSignalSpy reset(&studio, &Project::annotationsReset);
    QSignalSpy judges(&studio, &Project::judgesChanged);
    // The studio's own score: one signal, from the write itself (its own announcement is not
    // sent back to it).
    QVERIFY(studio.setAnnotation({QStringLiteral("i0"), QStringLiteral("coh"), QStringLiteral("me"), 2, {}, {}}).ok());
    QCOMPARE(changed.count(), 1);

    // Another annotator's process scores an item: the studio hears of it without reading.
    QProcess other;
    other.start(QStringLiteral(TEAM_CHILD),
                {QStringLiteral("annotate"), *url, QStringLiteral("you"), QStringLiteral("1")});
    QVERIFY(other.waitForFinished(60000));
    QVERIFY2(other.exitCode() == 0, qPrintable(QString::fromUtf8(other.readAllStandardError())));
    // The child wrote i0 on coh and flu, as "you" and as "shared": four announcements.
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1 + 4, 30000);
    QCOMPARE(changed.at(1).at(0).toString(), QStringLiteral("i0"));
    QCOMPARE(changed.at(1).at(1).toString(), QStringLiteral("coh"));
    QCOMPARE(changed.at(4).at(1).toString(), QStringLiteral("flu"));

    // Another Project in this process (another studio window): a batch, and a judge's scores.
    auto second = Project::open(*url);
    QVERIFY(second.ok());
    QVERIFY((*second)
                    ->addAnnotations({{QStringLiteral("i1"), QStringLiteral("coh"), QStringLiteral("them"), 4, {}, {}},
                                      {QStringLiteral("i2"), QStringLiteral("coh"), QStringLiteral("them"), 5, {}, {}}})
                    .ok());
    QVERIFY((*second)->ensureJudge(QStringLiteral("j"), QStringLiteral("imported")).ok());
    QVERIFY((*second)->setJudgeScores(QStringLiteral("j"), QStringLiteral("coh"), {{QStringLiteral("i1"), 3.0}}).ok());
    QTRY_COMPARE_WITH_TIMEOUT(reset.count(), 1, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(judges.count() >= 1, 30000);
    QCOMPARE(judges.last().at(0).toString(), QStringLiteral("j"));
    // What the signals announce is there to read.
    QCOMPARE(studio.readHumanScores(QStringLiteral("coh")).value().size(), 3);
    QCOMPARE(studio.readJudgeScores(QStringLiteral("j"), QStringLiteral("coh")).value().value(QStringLiteral("i1")),
             3.0);
}

QTEST_GUILESS_MAIN(TestTeamDatabase)
#include "TestTeamDatabase.moc"
