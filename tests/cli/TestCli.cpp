#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <tuple>

/// End-to-end tests of the `rubric` data commands through the built binary ($RUBRIC_CLI).
class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void summevalImportInfoSplitExport();
    void genericFlagsAndListScores();
    void malformedImportIsLocatedAndChangesNothing_data();
    void malformedImportIsLocatedAndChangesNothing();
    void refusedImportLeavesNoNewProject();
    void topicalChatScalesInferredOrRefusedWithTheFix();
    void importAnnotations();
    void usageErrors_data();
    void usageErrors();
    void benchImport();

private:
    struct Run
    {
        int rc = -1;
        QString out, err;
    };
    Run rubric(const QStringList &args);
    QJsonObject info(const QString &project);
    QString m_cli;
};

namespace {

QString fixture(const QString &name)
{
    return QStringLiteral(RUBRIC_SOURCE_DIR "/tests/data/fixtures/") + name;
}

const QString kSummEval = QStringLiteral(RUBRIC_SHARED_DATA "/summeval/summeval_bartscore_data.json");

QJsonObject aspectNamed(const QJsonObject &info, const QString &name)
{
    for (const QJsonValue &v : info.value(QStringLiteral("aspects")).toArray())
        if (v.toObject().value(QStringLiteral("name")).toString() == name)
            return v.toObject();
    return {};
}

} // namespace

TestCli::Run TestCli::rubric(const QStringList &args)
{
    QProcess p;
    p.start(m_cli, args);
    Run r;
    if (!p.waitForFinished(120000))
        return r;
    r.rc = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QJsonObject TestCli::info(const QString &project)
{
    const Run r = rubric({QStringLiteral("info"), QStringLiteral("--project"), project, QStringLiteral("--json")});
    if (r.rc != 0)
        return {};
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

void TestCli::initTestCase()
{
    m_cli = qEnvironmentVariable("RUBRIC_CLI");
    if (m_cli.isEmpty() || !QFileInfo(m_cli).isExecutable())
        QSKIP("RUBRIC_CLI does not name the built rubric binary (run through ctest)");
}

void TestCli::summevalImportInfoSplitExport()
{
    if (!QFileInfo::exists(kSummEval))
        QSKIP("shared SummEval data not present");
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("s.rubric"));
    Run r = rubric({QStringLiteral("import"), kSummEval, QStringLiteral("--project"), project,
                    QStringLiteral("--preset"), QStringLiteral("summeval")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));

    QJsonObject i = info(project);
    QCOMPARE(i.value(QStringLiteral("items")).toInt(), 1600);
    QCOMPARE(i.value(QStringLiteral("groups")).toInt(), 100);
    QCOMPARE(i.value(QStringLiteral("systems")).toInt(), 16);
    const QJsonObject coherence = aspectNamed(i, QStringLiteral("coherence"));
    QVERIFY(qAbs(coherence.value(QStringLiteral("human_mean")).toDouble() - 3.4125) < 1e-9);
    QCOMPARE(coherence.value(QStringLiteral("annotated_items")).toInt(), 1600);
    QCOMPARE(i.value(QStringLiteral("aspects")).toArray().size(), 4);

    r = rubric({QStringLiteral("split"), QStringLiteral("--project"), project, QStringLiteral("--train"),
                QStringLiteral("30"), QStringLiteral("--seed"), QStringLiteral("11"), QStringLiteral("--json")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("train")).toInt(), 30);
    i = info(project);
    QCOMPARE(i.value(QStringLiteral("splits")).toObject().value(QStringLiteral("train")).toInt(), 30);
    QCOMPARE(i.value(QStringLiteral("splits")).toObject().value(QStringLiteral("test")).toInt(), 1570);
    // Group-disjoint: whole documents of 16 summaries each, so 30 asked are 2 documents = 32 items
    // and the other 98 documents are the test side.
    r = rubric({QStringLiteral("split"), QStringLiteral("--project"), project, QStringLiteral("--train"),
                QStringLiteral("30"), QStringLiteral("--seed"), QStringLiteral("11"), QStringLiteral("--by-group"),
                QStringLiteral("--json")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("train")).toInt(), 32);
    QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("test")).toInt(), 1568);
    r = rubric({QStringLiteral("split"), QStringLiteral("--project"), project, QStringLiteral("--train"),
                QStringLiteral("30"), QStringLiteral("--seed"), QStringLiteral("11"), QStringLiteral("--json")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));

    const QString jsonl = dir.filePath(QStringLiteral("out.jsonl"));
    r = rubric({QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--out"), jsonl});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QFile f(jsonl);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1600);
    const QJsonObject first = QJsonDocument::fromJson(lines.first()).object();
    for (const char *key : {"id", "group", "system", "source", "output", "human", "judges"})
        QVERIFY2(first.contains(QLatin1String(key)), key);
    QCOMPARE(first.value(QStringLiteral("id")).toString(), QStringLiteral("0"));
    QCOMPARE(first.value(QStringLiteral("system")).toString(), QStringLiteral("M0"));
    QCOMPARE(first.value(QStringLiteral("human")).toObject().size(), 4);
    double sum = 0;
    for (const QByteArray &line : lines)
        sum += QJsonDocument::fromJson(line)
                       .object()
                       .value(QStringLiteral("human"))
                       .toObject()
                       .value(QStringLiteral("coherence"))
                       .toDouble();
    QVERIFY(qAbs(sum / 1600 - 3.4125) < 1e-9);

    const QString csv = dir.filePath(QStringLiteral("out.csv"));
    r = rubric({QStringLiteral("export"), QStringLiteral("--project"), project, QStringLiteral("--out"), csv});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QFile c(csv);
    QVERIFY(c.open(QIODevice::ReadOnly));
    QCOMPARE(c.readLine().trimmed(),
             QByteArray("id,group,system,source,output,reference,human.coherence,human.consistency,human.fluency,"
                        "human.relevance"));
    // The export is readable by the importer again (its CSV quoting round-trips).
    const QString again = dir.filePath(QStringLiteral("again.rubric"));
    r = rubric({QStringLiteral("import"), csv, QStringLiteral("--project"), again, QStringLiteral("--id"),
                QStringLiteral("id"), QStringLiteral("--group"), QStringLiteral("group"), QStringLiteral("--source"),
                QStringLiteral("source"), QStringLiteral("--output"), QStringLiteral("output"),
                QStringLiteral("--human"), QStringLiteral("coherence=human.coherence")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    const QJsonObject j = info(again);
    QCOMPARE(j.value(QStringLiteral("items")).toInt(), 1600);
    QVERIFY(qAbs(aspectNamed(j, QStringLiteral("coherence")).value(QStringLiteral("human_mean")).toDouble() - 3.4125)
            < 1e-9);
}

void TestCli::genericFlagsAndListScores()
{
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("g.rubric"));
    const Run r = rubric({QStringLiteral("import"),    fixture(QStringLiteral("nested.jsonl")),
                          QStringLiteral("--project"), project,
                          QStringLiteral("--id"),      QStringLiteral("meta.id"),
                          QStringLiteral("--group"),   QStringLiteral("meta.doc"),
                          QStringLiteral("--system"),  QStringLiteral("meta.sys"),
                          QStringLiteral("--source"),  QStringLiteral("text.src"),
                          QStringLiteral("--output"),  QStringLiteral("text.out"),
                          QStringLiteral("--human"),   QStringLiteral("coherence=scores.coherence"),
                          QStringLiteral("--human"),   QStringLiteral("fluency=scores.fluency"),
                          QStringLiteral("--scale"),   QStringLiteral("fluency=0:10")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    const QJsonObject i = info(project);
    QCOMPARE(i.value(QStringLiteral("items")).toInt(), 3);
    QCOMPARE(i.value(QStringLiteral("groups")).toInt(), 2);
    QCOMPARE(i.value(QStringLiteral("systems")).toInt(), 2);
    const QJsonObject coherence = aspectNamed(i, QStringLiteral("coherence"));
    QCOMPARE(coherence.value(QStringLiteral("annotators")).toInt(), 3);
    // Mean over items of the per-item rater means: (10/3 + 5/3 + 14/3) / 3.
    QVERIFY(qAbs(coherence.value(QStringLiteral("human_mean")).toDouble() - 29.0 / 9.0) < 1e-9);
    QCOMPARE(aspectNamed(i, QStringLiteral("fluency")).value(QStringLiteral("max")).toDouble(), 10.0);
}

void TestCli::malformedImportIsLocatedAndChangesNothing_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("located");

    const QStringList nested{QStringLiteral("--id"),     QStringLiteral("meta.id"),
                             QStringLiteral("--output"), QStringLiteral("text.out"),
                             QStringLiteral("--human"),  QStringLiteral("coherence=scores.coherence")};
    const QStringList scoreCsv{QStringLiteral("--id"),   QStringLiteral("id"),      QStringLiteral("--output"),
                               QStringLiteral("output"), QStringLiteral("--human"), QStringLiteral("quality=score")};
    QTest::newRow("truncated json") << QStringLiteral("truncated.json") << nested
                                    << QStringLiteral("truncated.json:43:");
    QTest::newRow("unterminated quote") << QStringLiteral("unterminated.csv") << scoreCsv
                                        << QStringLiteral("unterminated.csv:3: output:");
    QTest::newRow("missing field") << QStringLiteral("missing_field.json") << nested
                                   << QStringLiteral("missing_field.json:21: text.out:");
    QTest::newRow("text as score") << QStringLiteral("text_score.csv") << scoreCsv
                                   << QStringLiteral("text_score.csv:4: score:");
    QTest::newRow("score off the scale") << QStringLiteral("out_of_scale.csv") << scoreCsv
                                         << QStringLiteral("out_of_scale.csv:3: score:");
}

void TestCli::malformedImportIsLocatedAndChangesNothing()
{
    QFETCH(QString, file);
    QFETCH(QStringList, flags);
    QFETCH(QString, located);
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("p.rubric"));
    Run r = rubric({QStringLiteral("import"), fixture(QStringLiteral("valid.tsv")), QStringLiteral("--project"),
                    project, QStringLiteral("--id"), QStringLiteral("id"), QStringLiteral("--group"),
                    QStringLiteral("group"), QStringLiteral("--output"), QStringLiteral("output"),
                    QStringLiteral("--human"), QStringLiteral("quality=quality")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    const QJsonObject before = info(project);
    QCOMPARE(before.value(QStringLiteral("items")).toInt(), 3);

    r = rubric(QStringList{QStringLiteral("import"), fixture(file), QStringLiteral("--project"), project} + flags);
    QVERIFY(r.rc != 0);
    QVERIFY2(r.err.contains(located), qPrintable(r.err));
    QCOMPARE(info(project), before);
}

void TestCli::refusedImportLeavesNoNewProject()
{
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("new.rubric"));
    const Run r = rubric({QStringLiteral("import"), fixture(QStringLiteral("wrong_columns.csv")),
                          QStringLiteral("--project"), project, QStringLiteral("--output"), QStringLiteral("output")});
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(QStringLiteral("wrong_columns.csv:3:")), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(project));
}

void TestCli::topicalChatScalesInferredOrRefusedWithTheFix()
{
    const QString topical = QStringLiteral(RUBRIC_SHARED_DATA "/topical-chat/topical_chat.json");
    if (!QFileInfo::exists(topical))
        QSKIP("shared Topical-Chat data not present");
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("t.rubric"));
    QStringList flags{QStringLiteral("import"),    topical,
                      QStringLiteral("--project"), project,
                      QStringLiteral("--group"),   QStringLiteral("source"),
                      QStringLiteral("--system"),  QStringLiteral("system_id"),
                      QStringLiteral("--output"),  QStringLiteral("system_output")};
    for (const char *a : {"understandability", "naturalness", "coherence", "engagingness", "groundedness"})
        flags << QStringLiteral("--human") << QStringLiteral("%1=scores.%1").arg(QLatin1String(a));

    // An explicit scale the data breaks: refused with the file, line, field, value and the fix; no project left.
    Run r = rubric(flags + QStringList{QStringLiteral("--scale"), QStringLiteral("groundedness=1:5")});
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(QStringLiteral("topical_chat.json:2: scores.groundedness: the score 0.6666666667 is "
                                           "outside the scale 1–5 given for 'groundedness': use --scale "
                                           "groundedness=0:1 or leave --scale out to infer it from the data")),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(project));

    // Without --scale: inferred, and the summary says so.
    r = rubric(flags);
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("scales inferred from the data (set them with --scale ASPECT=MIN:MAX): "
                                           "understandability 0–1, naturalness 1–3, coherence 1–3, engagingness "
                                           "1–3, groundedness 0–1")),
             qPrintable(r.out));
    const QJsonObject i = info(project);
    QCOMPARE(i.value(QStringLiteral("items")).toInt(), 360);
    for (const auto &[aspect, lo, hi] : {std::tuple{"groundedness", 0.0, 1.0},
                                         std::tuple{"understandability", 0.0, 1.0}, std::tuple{"naturalness", 1.0, 3.0},
                                         std::tuple{"coherence", 1.0, 3.0}, std::tuple{"engagingness", 1.0, 3.0}}) {
        const QJsonObject a = aspectNamed(i, QLatin1String(aspect));
        QCOMPARE(a.value(QStringLiteral("min")).toDouble(), lo);
        QCOMPARE(a.value(QStringLiteral("max")).toDouble(), hi);
    }

    // --json lists each scale with where it came from.
    const QString second = dir.filePath(QStringLiteral("j.rubric"));
    r = rubric({QStringLiteral("import"), topical, QStringLiteral("--project"), second, QStringLiteral("--output"),
                QStringLiteral("system_output"), QStringLiteral("--human"),
                QStringLiteral("groundedness=scores.groundedness"), QStringLiteral("--human"),
                QStringLiteral("overall=scores.overall"), QStringLiteral("--scale"), QStringLiteral("overall=1:5"),
                QStringLiteral("--json")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    const QJsonArray scales
            = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("scales")).toArray();
    QCOMPARE(scales.size(), 2);
    QCOMPARE(scales.at(0).toObject().value(QStringLiteral("origin")).toString(), QStringLiteral("inferred"));
    QCOMPARE(scales.at(0).toObject().value(QStringLiteral("max")).toDouble(), 1.0);
    QCOMPARE(scales.at(1).toObject().value(QStringLiteral("origin")).toString(), QStringLiteral("given"));
}

void TestCli::importAnnotations()
{
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("a.rubric"));
    Run r = rubric({QStringLiteral("import"), fixture(QStringLiteral("valid.tsv")), QStringLiteral("--project"),
                    project, QStringLiteral("--id"), QStringLiteral("id"), QStringLiteral("--output"),
                    QStringLiteral("output"), QStringLiteral("--human"), QStringLiteral("quality=quality")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    r = rubric({QStringLiteral("import-annotations"), fixture(QStringLiteral("annotations.csv")),
                QStringLiteral("--project"), project});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    QJsonObject i = info(project);
    QCOMPARE(aspectNamed(i, QStringLiteral("quality")).value(QStringLiteral("annotators")).toInt(), 3);
    QCOMPARE(aspectNamed(i, QStringLiteral("clarity")).value(QStringLiteral("annotated_items")).toInt(), 1);

    r = rubric({QStringLiteral("import-annotations"), fixture(QStringLiteral("annotations_bad.csv")),
                QStringLiteral("--project"), project});
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(QStringLiteral("annotations_bad.csv:3: item_id:")), qPrintable(r.err));
    QCOMPARE(info(project), i);
}

void TestCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("rc");
    QTest::newRow("import without project")
            << QStringList{QStringLiteral("import"), fixture(QStringLiteral("valid.tsv"))} << 2;
    QTest::newRow("unknown preset") << QStringList{QStringLiteral("import"),    fixture(QStringLiteral("valid.tsv")),
                                                   QStringLiteral("--project"), QStringLiteral("x.rubric"),
                                                   QStringLiteral("--preset"),  QStringLiteral("nope")}
                                    << 2;
    QTest::newRow("bad scale") << QStringList{QStringLiteral("import"),    fixture(QStringLiteral("valid.tsv")),
                                              QStringLiteral("--project"), QStringLiteral("x.rubric"),
                                              QStringLiteral("--scale"),   QStringLiteral("q=5:1")}
                               << 2;
    QTest::newRow("split without train") << QStringList{QStringLiteral("split"), QStringLiteral("--project"),
                                                        QStringLiteral("x.rubric")}
                                         << 2;
    QTest::newRow("unknown bench") << QStringList{QStringLiteral("bench"), QStringLiteral("nope")} << 2;
}

void TestCli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(int, rc);
    QTemporaryDir dir;
    QProcess p;
    p.setWorkingDirectory(dir.path());
    p.start(m_cli, args);
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), rc);
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("x.rubric"))));
}

void TestCli::benchImport()
{
    if (!QFileInfo::exists(kSummEval))
        QSKIP("shared SummEval data not present");
    const Run r = rubric({QStringLiteral("bench"), QStringLiteral("import"), QStringLiteral("--file"), kSummEval,
                          QStringLiteral("--preset"), QStringLiteral("summeval"), QStringLiteral("--json")});
    QVERIFY2(r.rc == 0, qPrintable(r.err));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("items")).toInt(), 1600);
    QCOMPARE(o.value(QStringLiteral("loaded_items")).toInt(), 1600);
    QCOMPARE(o.value(QStringLiteral("loaded_annotations")).toInt(), 6400);
    QVERIFY(o.value(QStringLiteral("import_ms")).toDouble() > 0);
    QVERIFY(o.value(QStringLiteral("peak_rss_after_open_mib")).toDouble() > 0);
}

QTEST_GUILESS_MAIN(TestCli)
#include "TestCli.moc"
