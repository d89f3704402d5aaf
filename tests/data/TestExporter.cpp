#include "PostgresServer.h"
#include "io/Exporter.h"
#include "io/Importer.h"
#include "store/Project.h"
#include "util/Csv.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rubric;

/// Items from valid.csv (quotes, a newline inside a cell, list scores) plus one judge with a
/// missing score, exported and read back.
class TestExporter : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void jsonl();
    void csvRoundTripsThroughTheImporter();
    void refusesOtherSuffixes_data();
    void refusesOtherSuffixes();
    void formulasOpenAsText_data();
    void formulasOpenAsText();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Project> m_project;
};

void TestExporter::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    RUBRIC_PROJECT_LOCATION(location, *m_dir, QStringLiteral("p.rubric"));
    auto p = Project::open(location);
    QVERIFY2(p.ok(), qPrintable(p.errorString()));
    m_project = std::move(p).value();
    FieldMapping m;
    m.group = QStringLiteral("doc");
    m.system = QStringLiteral("model");
    m.source = QStringLiteral("article");
    m.output = QStringLiteral("summary");
    m.human = {{QStringLiteral("coherence"), QStringLiteral("coh")},
               {QStringLiteral("fluency"), QStringLiteral("flu")}};
    auto r = Importer::run(*m_project,
                           ImportSpec{QStringLiteral(RUBRIC_TEST_DATA "/fixtures/valid.csv"), ImportFormat::Auto, m});
    QVERIFY2(r.ok(), qPrintable(r.errorString()));
    QVERIFY(m_project->ensureJudge(QStringLiteral("g"), QStringLiteral("geval")).ok());
    QVERIFY(m_project
                    ->setJudgeScores(QStringLiteral("g"), QStringLiteral("coherence"),
                                     {{QStringLiteral("0"), 4.5}, {QStringLiteral("1"), std::nan("")}})
                    .ok());
}

void TestExporter::cleanup()
{
    m_project.reset();
    m_dir.reset();
}

void TestExporter::jsonl()
{
    const QString file = m_dir->filePath(QStringLiteral("out.jsonl"));
    auto n = Exporter::write(*m_project, file);
    QVERIFY2(n.ok(), qPrintable(n.errorString()));
    QCOMPARE(*n, 4);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 4);
    const QJsonObject first = QJsonDocument::fromJson(lines[0]).object();
    QCOMPARE(first.value(QStringLiteral("output")).toString(), QStringLiteral("A \"quoted\" summary"));
    QCOMPARE(first.value(QStringLiteral("group")).toString(), QStringLiteral("d1"));
    QCOMPARE(first.value(QStringLiteral("human")).toObject().value(QStringLiteral("fluency")).toDouble(), 13.0 / 3.0);
    QCOMPARE(first.value(QStringLiteral("judges"))
                     .toObject()
                     .value(QStringLiteral("g"))
                     .toObject()
                     .value(QStringLiteral("coherence"))
                     .toDouble(),
             4.5);
    const QJsonObject second = QJsonDocument::fromJson(lines[1]).object();
    QCOMPARE(second.value(QStringLiteral("output")).toString(), QStringLiteral("Two lines\r\nin one cell"));
    QVERIFY(second.value(QStringLiteral("judges")).toObject().isEmpty()); // its judge score is missing
    const QJsonObject last = QJsonDocument::fromJson(lines[3]).object();
    QVERIFY(!last.value(QStringLiteral("human")).toObject().contains(QStringLiteral("coherence"))); // not rated
}

void TestExporter::csvRoundTripsThroughTheImporter()
{
    const QString file = m_dir->filePath(QStringLiteral("out.csv"));
    auto n = Exporter::write(*m_project, file);
    QVERIFY2(n.ok(), qPrintable(n.errorString()));
    auto preview = Importer::preview(file, ImportFormat::Auto, 10);
    QVERIFY2(preview.ok(), qPrintable(preview.errorString()));
    QCOMPARE(preview->fields, (QStringList{QStringLiteral("id"), QStringLiteral("group"), QStringLiteral("system"),
                                           QStringLiteral("source"), QStringLiteral("output"),
                                           QStringLiteral("reference"), QStringLiteral("human.coherence"),
                                           QStringLiteral("human.fluency"), QStringLiteral("judge.g.coherence")}));
    QCOMPARE(preview->rows.size(), 4);
    QCOMPARE(preview->rows[1].value(QStringLiteral("output")).toString(), QStringLiteral("Two lines\r\nin one cell"));
    QCOMPARE(preview->rows[0].value(QStringLiteral("output")).toString(), QStringLiteral("A \"quoted\" summary"));
    QCOMPARE(preview->rows[0].value(QStringLiteral("judge.g.coherence")).toString(), QStringLiteral("4.5"));
    QCOMPARE(preview->rows[1].value(QStringLiteral("judge.g.coherence")).toString(), QString());
    QCOMPARE(preview->rows[3].value(QStringLiteral("human.coherence")).toString(), QString());
    QCOMPARE(preview->rows[0].value(QStringLiteral("human.fluency")).toString().toDouble(), 13.0 / 3.0);
}

void TestExporter::refusesOtherSuffixes_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("json") << QStringLiteral("out.json");
    QTest::newRow("no suffix") << QStringLiteral("out");
}

void TestExporter::refusesOtherSuffixes()
{
    QFETCH(QString, name);
    const QString file = m_dir->filePath(name);
    auto n = Exporter::write(*m_project, file);
    QVERIFY(!n.ok());
    QCOMPARE(n.error().file, file);
    QVERIFY(!QFile::exists(file));
}

void TestExporter::formulasOpenAsText_data()
{
    // Issue 33.11: a cell a spreadsheet would run as a formula gets a leading apostrophe; numbers stay numbers.
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("written");
    QTest::newRow("equals") << QStringLiteral("=HYPERLINK(\"http://x\")")
                            << QStringLiteral("\"'=HYPERLINK(\"\"http://x\"\")\"");
    QTest::newRow("plus") << QStringLiteral("+cmd|' /C calc'!A0") << QStringLiteral("'+cmd|' /C calc'!A0");
    QTest::newRow("minus") << QStringLiteral("-2+3+cmd|x") << QStringLiteral("'-2+3+cmd|x");
    QTest::newRow("at") << QStringLiteral("@SUM(A1)") << QStringLiteral("'@SUM(A1)");
    QTest::newRow("tab") << QStringLiteral("\t=1") << QStringLiteral("'\t=1");
    QTest::newRow("negative number") << QStringLiteral("-0.25") << QStringLiteral("-0.25");
    QTest::newRow("exponent") << QStringLiteral("+1e-3") << QStringLiteral("+1e-3");
    QTest::newRow("plain") << QStringLiteral("a, b") << QStringLiteral("\"a, b\"");
}

void TestExporter::formulasOpenAsText()
{
    QFETCH(QString, text);
    QFETCH(QString, written);
    QCOMPARE(csv::field(text), written);
}

QTEST_GUILESS_MAIN(TestExporter)
#include "TestExporter.moc"
