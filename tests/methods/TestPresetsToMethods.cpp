// Issue 32, point 8: from each import preset to each method's run, as a new user goes — `rubric
// import FILE --preset P`, `rubric split`, then a run of every registered method against the
// loopback synthetic judge. A handful of items per preset keeps it fast. The data come from
// ../shared/data (a preset whose file is absent is skipped with its reason).

#include "CliRun.h"
#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "methods/MethodRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestPresetsToMethods : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_projects.isValid()); }
    void eachPresetEachMethod_data();
    void eachPresetEachMethod();

private:
    TempProjects m_projects;
};

void TestPresetsToMethods::eachPresetEachMethod_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("aspect");
    QTest::addColumn<int>("take");
    QTest::addColumn<QString>("task");
    QTest::newRow("summeval") << "summeval"
                              << "summeval/summeval_bartscore_data.json"
                              << "coherence" << 32 << "summeval";
    QTest::newRow("topical-chat") << "topical-chat"
                                  << "topical-chat/topical_chat.json"
                                  << "coherence" << 24 << "topical_chat";
    QTest::newRow("hanna") << "hanna"
                           << "hanna/hanna_valid_qwen_2_5_14b.json"
                           << "coherence" << 24 << "hanna";
}

void TestPresetsToMethods::eachPresetEachMethod()
{
    QFETCH(QString, preset);
    QFETCH(QString, file);
    QFETCH(QString, aspect);
    QFETCH(int, take);
    QFETCH(QString, task);
    QFile data(QStringLiteral(RUBRIC_SHARED_DATA "/") + file);
    if (!data.open(QIODevice::ReadOnly))
        QSKIP(qPrintable(QStringLiteral("../shared/data/%1 is not here").arg(file)));
    const QJsonArray all = QJsonDocument::fromJson(data.readAll()).array();
    QVERIFY(all.size() >= take);
    QJsonArray few;
    for (int i = 0; i < take; ++i)
        few.append(all[i]);
    QTemporaryDir dir;
    const QString subset = dir.filePath(QStringLiteral("subset.json"));
    {
        QFile f(subset);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(few).toJson());
    }
    const QString path = m_projects.next();
    CliResult r = runCli(
            {QStringLiteral("import"), subset, QStringLiteral("--project"), path, QStringLiteral("--preset"), preset});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCli({QStringLiteral("split"), QStringLiteral("--project"), path, QStringLiteral("--train"),
                QString::number(take / 2), QStringLiteral("--seed"), QStringLiteral("5")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto opened = Project::open(path, Project::OpenMode::OpenExisting);
    QVERIFY(opened);
    auto project = std::move(opened).value();
    QHash<QString, double> humanByOutput;
    const auto human = project->humanScores(aspect);
    for (const QString &id : project->itemIds(SplitFilter::All))
        humanByOutput.insert(project->item(id)->output, human.value(id));
    SyntheticJudge judge(humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());

    QStringList failures;
    for (const QString &method : MethodRegistry::names()) {
        RunSpec s = spec(method, method, server.baseUrl());
        s.aspect = aspect;
        // HPSS: the preset's task and a short search (the others run with their defaults).
        if (method == QLatin1String("hpss")) {
            s.settings.insert(QStringLiteral("task"), task);
            s.settings.insert(QStringLiteral("search"), QStringLiteral("random"));
            s.settings.insert(QStringLiteral("budget"), QStringLiteral("2"));
        }
        // CheckEval: the authors' checklist of the aspect (SummEval's and Topical-Chat's); HANNA has
        // none, so its run borrows SummEval's coherence checklist to go the same path.
        if (method == QLatin1String("checkeval"))
            s.settings.insert(
                    QStringLiteral("checklist"),
                    QStringLiteral("preset:%1/%2")
                            .arg(task == QLatin1String("topical_chat") ? task : QStringLiteral("summeval"), aspect));
        // The stacked judge: over the judges that scored the train items too (CheckEval and HD-Eval;
        // the others scored the test items alone, which it refuses, naming their criteria).
        if (method == QLatin1String("stack"))
            s.settings.insert(QStringLiteral("judges"), QStringLiteral("checkeval,hdeval"));
        const Outcome o = runToEnd(project.get(), s);
        if (!o.ok) {
            failures.append(QStringLiteral("%1: %2").arg(method, o.error));
            continue;
        }
        const QHash<QString, double> scores = project->judgeScores(method, aspect);
        int scored = 0;
        for (auto it = scores.begin(); it != scores.end(); ++it)
            scored += std::isfinite(it.value()) ? 1 : 0;
        if (scored == 0)
            failures.append(QStringLiteral("%1: ran but scored no item").arg(method));
    }
    QVERIFY2(failures.isEmpty(), qPrintable(preset + QStringLiteral(": ") + failures.join(QStringLiteral("; "))));
}

QTEST_GUILESS_MAIN(TestPresetsToMethods)
#include "TestPresetsToMethods.moc"
