// `rubric copy` between a project file and a PostgreSQL database (issue 16.4): there and back
// gives a project whose `rubric export` is byte-identical and whose every table holds the same
// rows, ids and value types included. Needs a real server (tests/support/PostgresServer);
// skipped with the reason where its binaries are not installed.
#include "PostgresServer.h"
#include "ProjectTestAccess.h"
#include "rubric/Rubric.h"
#include "store/BatchStore.h"
#include "store/CallStore.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "store/Schema.h"

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;
using rubric::test::PostgresServer;

namespace {

struct CliRun
{
    int rc = -1;
    QString out;
    QString err;
};

CliRun cli(const QStringList &args)
{
    QProcess p;
    p.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    CliRun r;
    if (!p.waitForFinished(300000))
        return r;
    r.rc = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Every row of every table of a project file, in the order of all columns, each value with
/// SQLite's storage class (so that 3 and 3.0, or '7' and 7, differ).
QStringList dumpTables(QSqlDatabase &db)
{
    QStringList out;
    QSqlQuery q(db);
    for (const QString &table : schema::tables()) {
        const QSqlRecord rec = db.record(table);
        QStringList typed, order;
        for (int i = 0; i < rec.count(); ++i) {
            typed << QStringLiteral("typeof(%1) || ':' || quote(%1)").arg(rec.fieldName(i));
            order << rec.fieldName(i);
        }
        if (!q.exec(QStringLiteral("SELECT %1 FROM %2 ORDER BY %3")
                            .arg(typed.join(QStringLiteral(" || ' | ' || ")), table, order.join(QStringLiteral(", ")))))
            return {QStringLiteral("cannot read %1: %2").arg(table, q.lastError().text())};
        while (q.next())
            out << table + QStringLiteral(": ") + q.value(0).toString();
    }
    return out;
}

QStringList dump(const QString &file)
{
    QStringList out;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("dump"));
        db.setDatabaseName(file);
        out = db.open() ? dumpTables(db) : QStringList{QStringLiteral("cannot open ") + file};
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("dump"));
    return out;
}

} // namespace

class TestCopyCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void thereAndBackIsByteIdentical();
    void refusesATargetThatHoldsAProject();

private:
    QTemporaryDir m_dir;
    QString m_original;
};

void TestCopyCli::initTestCase()
{
    if (qEnvironmentVariable("RUBRIC_CLI").isEmpty())
        QSKIP("RUBRIC_CLI does not name the built rubric binary (run through ctest)");
    if (const QString why = PostgresServer::missing(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QVERIFY(QFile::exists(QStringLiteral(RUBRIC_EXAMPLE_TEMPLATE)));
    // The example project (SummEval, its split and baseline judges), plus a row in every table the
    // example leaves empty: a second annotator with notes, a judge with two rubric versions and
    // criterion scores, the call cache and ledger, a prompt override and an issue.
    m_original = m_dir.filePath(QStringLiteral("original.rubric"));
    QVERIFY(QFile::copy(QStringLiteral(RUBRIC_EXAMPLE_TEMPLATE), m_original));
    QFile::setPermissions(m_original, QFile::ReadOwner | QFile::WriteOwner);
    auto opened = Project::open(m_original, Project::OpenMode::OpenExisting);
    QVERIFY2(opened.ok(), qPrintable(opened.errorString()));
    Project &p = **opened;
    const QStringList ids = p.itemIds();
    QVERIFY(ids.size() > 10);
    QVector<Annotation> notes;
    for (int i = 0; i < 10; ++i)
        notes.append({ids.at(i), QStringLiteral("coherence"), QStringLiteral("ann-ü"), double(1 + i % 5),
                      QStringLiteral("note %1, with \"quotes\" and a\nline break").arg(i),
                      QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5, 678), Qt::UTC)});
    QVERIFY(p.addAnnotations(notes).ok());
    const QString judge = QStringLiteral("checklist-1");
    QVERIFY(p.ensureJudge(judge, QStringLiteral("checkeval"), QStringLiteral("{\"aspect\":\"coherence\"}")).ok());
    RubricStore store(&p);
    Criterion root{
            QStringLiteral("c1"), {}, CriterionKind::Aspect, QStringLiteral("Coherent?"), {}, true, 1.0, 0, {}, {}};
    Criterion question{QStringLiteral("q1"),
                       QStringLiteral("c1"),
                       CriterionKind::Question,
                       QStringLiteral("Does it stay on topic?"),
                       {},
                       true,
                       0.1 + 0.2,
                       1,
                       {{QStringLiteral("source"), QStringLiteral("seed")}},
                       {}};
    QVERIFY(store.saveVersion(judge, Rubric(QStringLiteral("checkeval"), QStringLiteral("coherence"), {root, question}),
                              QStringLiteral("first"), 0.25)
                    .ok());
    question.enabled = false;
    QVERIFY(store.saveVersion(judge, Rubric(QStringLiteral("checkeval"), QStringLiteral("coherence"), {root, question}),
                              QStringLiteral("second"))
                    .ok());
    QVector<CriterionScore> scores;
    for (int i = 0; i < 5; ++i)
        scores.append({ids.at(i), QStringLiteral("q1"), 0, i % 2 ? 1.0 : std::nan(""),
                       i % 2 ? QStringLiteral("ok") : QStringLiteral("unparsed"), QStringLiteral("Answer: %1").arg(i),
                       QString(), QStringLiteral("key%1").arg(i)});
    QVERIFY(store.writeCriterionScores(judge, scores).ok());
    QVERIFY(p.setJudgeScores(judge, QStringLiteral("coherence"), {{ids.at(0), 1.0 / 3.0}, {ids.at(1), std::nan("")}})
                    .ok());
    QVERIFY(p.setJudgeStatus(judge, QStringLiteral("done")).ok());
    {
        CallStore calls(&p);
        JudgeResponse answer;
        answer.choices = {JudgeChoice{QStringLiteral("Rating: [[4]]"), {}, QStringLiteral("stop")}};
        calls.addAnswer(QStringLiteral("key1"), QStringLiteral("http://127.0.0.1:1/v1"), QStringLiteral("m"),
                        QStringLiteral("{\"messages\":[]}"), answer);
        LedgerEntry entry;
        entry.key = QStringLiteral("key1");
        entry.run = judge;
        entry.baseUrl = QStringLiteral("http://127.0.0.1:1/v1");
        entry.model = QStringLiteral("m");
        entry.outcome = QStringLiteral("ok");
        entry.httpStatus = 200;
        entry.tokensIn = 1234;
        entry.tokensCached = 1000;
        entry.cost = 0.000123;
        entry.latencyMs = 12.5;
        entry.batch = QStringLiteral("batch_7");
        calls.addLedger(entry);
        QVERIFY(calls.flush().ok());
        // A provider batch with its call, taken in, and one still out.
        BatchStore batches(&p);
        BatchRecord record;
        record.provider = QStringLiteral("openai");
        record.baseUrl = QStringLiteral("http://127.0.0.1:1/v1");
        record.model = QStringLiteral("m");
        record.run = judge;
        const auto done = batches.create(record, {{QStringLiteral("key1"), QStringLiteral("{\"messages\":[]}")}});
        QVERIFY(done.ok());
        QVERIFY(batches.setSubmitted(*done, QStringLiteral("batch_7"), QStringLiteral("file-3")).ok());
        QVERIFY(batches.markCalls(*done, {QStringLiteral("key1")}, QStringLiteral("answered")).ok());
        const auto open = batches.create(record, {{QStringLiteral("key2"), QStringLiteral("{\"messages\":[1]}")}});
        QVERIFY(open.ok());
        QVERIFY(batches.setSubmitted(*open, QStringLiteral("batch_8"), QStringLiteral("file-4")).ok());
    }
    QVERIFY(p.addIssue(QStringLiteral("call"), QStringLiteral("refused"), judge, ids.at(2)).ok());
    QSqlQuery q(ProjectTestAccess::database(p));
    QVERIFY(q.exec(QStringLiteral("INSERT INTO prompt_templates(name, body, updated_at) VALUES('geval_score', "
                                  "'{{#system}}x{{/system}}', '2026-01-01T00:00:00.000Z')")));
}

void TestCopyCli::thereAndBackIsByteIdentical()
{
    auto server = PostgresServer::shared();
    QVERIFY2(server.ok(), qPrintable(server.errorString()));
    const auto url = (*server)->createDatabase();
    QVERIFY2(url.ok(), qPrintable(url.errorString()));
    const QString back = m_dir.filePath(QStringLiteral("back.rubric"));

    const CliRun there
            = cli({QStringLiteral("copy"), QStringLiteral("--from"), m_original, QStringLiteral("--to"), *url});
    QVERIFY2(there.rc == 0, qPrintable(there.err));
    QVERIFY2(!there.out.contains(PostgresServer::password()), qPrintable(there.out));
    const CliRun home = cli({QStringLiteral("copy"), QStringLiteral("--from"), *url, QStringLiteral("--to"), back});
    QVERIFY2(home.rc == 0, qPrintable(home.err));
    qInfo("there: %s", qPrintable(there.out.trimmed()));
    qInfo("back:  %s", qPrintable(home.out.trimmed()));
    QCOMPARE(there.out.section(QLatin1Char(' '), 1, 1), home.out.section(QLatin1Char(' '), 1, 1)); // rows

    // `rubric export` of the original, of the database and of the copy back: the same bytes.
    for (const QString &format : {QStringLiteral("jsonl"), QStringLiteral("csv")}) {
        QStringList files;
        for (const QString &project : {m_original, *url, back}) {
            const QString out = m_dir.filePath(QStringLiteral("export%1.%2").arg(files.size()).arg(format));
            const CliRun r = cli(
                    {QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--out"), out});
            QVERIFY2(r.rc == 0, qPrintable(r.err));
            files.append(out);
        }
        const QByteArray original = fileBytes(files.at(0));
        QVERIFY(original.size() > 1000);
        QCOMPARE(fileBytes(files.at(1)), original);
        QCOMPARE(fileBytes(files.at(2)), original);
        qInfo("export .%s: %lld bytes, sha256 %s on all three", qPrintable(format), qint64(original.size()),
              QCryptographicHash::hash(original, QCryptographicHash::Sha256).toHex().left(16).constData());
    }
    const CliRun criteria = cli({QStringLiteral("export"), QStringLiteral("--project"), back, QStringLiteral("--judge"),
                                 QStringLiteral("checklist-1"), QStringLiteral("--criteria"), QStringLiteral("--out"),
                                 m_dir.filePath(QStringLiteral("c.csv"))});
    QVERIFY2(criteria.rc == 0 || criteria.err.contains(QLatin1String("no criterion scores")), qPrintable(criteria.err));

    // Every table: the same rows, ids and SQLite storage classes.
    const QStringList before = dump(m_original), after = dump(back);
    QVERIFY2(before.size() > 30000, qPrintable(before.value(0)));
    QCOMPARE(after.size(), before.size());
    for (qsizetype i = 0; i < before.size(); ++i)
        QCOMPARE(after.at(i), before.at(i));
    for (const QString &table : schema::tables())
        QVERIFY2(std::any_of(before.begin(), before.end(),
                             [&](const QString &row) { return row.startsWith(table + QStringLiteral(": ")); }),
                 qPrintable(table + QStringLiteral(" has no row to copy in the test project")));
    qInfo("%lld rows in %lld tables the same, ids and storage classes included", qint64(before.size()),
          qint64(schema::tables().size()));

    // The database keeps counting ids on from the copied ones.
    auto team = Project::open(*url);
    QVERIFY2(team.ok(), qPrintable(team.errorString()));
    QVERIFY((*team)->ensureJudge(QStringLiteral("after-copy"), QStringLiteral("geval")).ok());
    QVERIFY((*team)->addIssue(QStringLiteral("call"), QStringLiteral("new")).ok());
}

void TestCopyCli::refusesATargetThatHoldsAProject()
{
    auto server = PostgresServer::shared();
    QVERIFY2(server.ok(), qPrintable(server.errorString()));
    const auto url = (*server)->createDatabase();
    QVERIFY2(url.ok(), qPrintable(url.errorString()));
    QVERIFY(cli({QStringLiteral("copy"), QStringLiteral("--from"), m_original, QStringLiteral("--to"), *url}).rc == 0);
    const CliRun again
            = cli({QStringLiteral("copy"), QStringLiteral("--from"), m_original, QStringLiteral("--to"), *url});
    QCOMPARE(again.rc, 1);
    QVERIFY2(again.err.contains(QLatin1String("already holds a project")), qPrintable(again.err));
    QVERIFY2(!again.err.contains(PostgresServer::password()), qPrintable(again.err));
    const CliRun existing
            = cli({QStringLiteral("copy"), QStringLiteral("--from"), *url, QStringLiteral("--to"), m_original});
    QCOMPARE(existing.rc, 1);
    QVERIFY2(existing.err.contains(QLatin1String("already exists")), qPrintable(existing.err));
    const CliRun noTo = cli({QStringLiteral("copy"), QStringLiteral("--from"), m_original});
    QCOMPARE(noTo.rc, 2);
    QVERIFY2(noTo.err.contains(QLatin1String("--to")), qPrintable(noTo.err));
}

QTEST_GUILESS_MAIN(TestCopyCli)
#include "TestCopyCli.moc"
