#include "CliRun.h"
#include "FakeLlmServer.h"
#include "ProjectTestAccess.h"
#include "methods/PromptLibrary.h"
#include "methods/RunContext.h"
#include "runs/Run.h"
#include "runs/RunConfig.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

class TestRunConfig : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
    void keysAndHeadersAreNeverStored();
    void olderConfigsGetProfileDefaults();
    void errorsNameTheField_data();
    void errorsNameTheField();
    void aStartedRunCanBeRebuiltFromTheProject();
    void cliResumeContinuesAFailedRun();
    void credentialsInBaseUrlNeverReachTheProject();
    void rolesThatShareAnEndpointKeepTheirOwnSettings();
    void oneJudgeNameIsOneConfiguration();
    void cliRefusesAnotherModelAndReplaces();
};

namespace {

ProviderProfile profile(const QString &name, const QString &url)
{
    ProviderProfile p;
    p.name = name;
    p.kind = ProviderKind::Anthropic;
    p.baseUrl = url;
    p.model = name + QStringLiteral("-model");
    p.apiKeyEnv = QStringLiteral("MY_KEY");
    p.concurrency = 7;
    p.requestsPerMinute = 120;
    p.tokensPerMinute = 90000;
    p.pricePerMillionIn = 0.5;
    p.pricePerMillionOut = 1.5;
    p.timeoutMs = 30000;
    p.maxRetries = 3;
    return p;
}

void compareProfiles(const ProviderProfile &a, const ProviderProfile &b)
{
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.kind, b.kind);
    QCOMPARE(a.baseUrl, b.baseUrl);
    QCOMPARE(a.model, b.model);
    QCOMPARE(a.apiKeyEnv, b.apiKeyEnv);
    QCOMPARE(a.useKeychain, b.useKeychain);
    QCOMPARE(a.concurrency, b.concurrency);
    QCOMPARE(a.requestsPerMinute, b.requestsPerMinute);
    QCOMPARE(a.tokensPerMinute, b.tokensPerMinute);
    QCOMPARE(a.pricePerMillionIn, b.pricePerMillionIn);
    QCOMPARE(a.pricePerMillionOut, b.pricePerMillionOut);
    QCOMPARE(a.timeoutMs, b.timeoutMs);
    QCOMPARE(a.maxRetries, b.maxRetries);
}

// The synthetic judge: model "model-a" answers 2, any other model 4.
test::FakeLlmServer::Judge byModel()
{
    return [](const QJsonObject &body) {
        test::FakeAnswer a;
        a.text = body.value(QStringLiteral("model")).toString() == QLatin1String("model-a")
                         ? QStringLiteral("Rating: [[2]]")
                         : QStringLiteral("Rating: [[4]]");
        return a;
    };
}

} // namespace

void TestRunConfig::roundTrip_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("items");
    QTest::addColumn<bool>("threeEndpoints");
    QTest::newRow("geval test split, one endpoint") << QStringLiteral("geval") << int(SplitFilter::Test) << false;
    QTest::newRow("hypoeval all items, three endpoints") << QStringLiteral("hypoeval") << int(SplitFilter::All) << true;
    QTest::newRow("geval train split") << QStringLiteral("geval") << int(SplitFilter::Train) << false;
}

void TestRunConfig::roundTrip()
{
    QFETCH(QString, method);
    QFETCH(int, items);
    QFETCH(bool, threeEndpoints);
    RunSpec s;
    s.judge = QStringLiteral("j1");
    s.method = method;
    s.aspect = QStringLiteral("coherence");
    s.items = SplitFilter(items);
    s.settings = {{QStringLiteral("k"), QStringLiteral("4")}, {QStringLiteral("theta"), QStringLiteral("0.25")}};
    s.settings.insert(QStringLiteral("logprobs"), true);
    s.settings.insert(QStringLiteral("samples"), 7);
    s.settings.insert(QStringLiteral("literature"), QStringLiteral("/tmp/lit"));
    s.evaluator = profile(QStringLiteral("eval"), QStringLiteral("http://e/v1"));
    s.generator = threeEndpoints ? profile(QStringLiteral("gen"), QStringLiteral("http://g/v1")) : s.evaluator;
    s.refiner = threeEndpoints ? profile(QStringLiteral("ref"), QStringLiteral("http://r/v1")) : s.generator;
    s.refiner.useKeychain = threeEndpoints;

    auto back = RunConfig::fromConfig(QStringLiteral("j1"), RunConfig::toConfig(s));
    QVERIFY2(back, qPrintable(back.errorString()));
    QCOMPARE(back->judge, s.judge);
    QCOMPARE(back->method, s.method);
    QCOMPARE(back->aspect, s.aspect);
    QCOMPARE(int(back->items), items);
    QCOMPARE(back->settings.value(QStringLiteral("logprobs")), s.settings.value(QStringLiteral("logprobs")));
    QCOMPARE(back->settings.value(QStringLiteral("samples")), s.settings.value(QStringLiteral("samples")));
    QCOMPARE(back->settings.value(QStringLiteral("literature")), s.settings.value(QStringLiteral("literature")));
    QCOMPARE(back->settings, s.settings);
    compareProfiles(back->evaluator, s.evaluator);
    compareProfiles(back->generator, s.generator);
    compareProfiles(back->refiner, s.refiner);
}

void TestRunConfig::keysAndHeadersAreNeverStored()
{
    RunSpec s;
    s.judge = QStringLiteral("j");
    s.method = QStringLiteral("geval");
    s.aspect = QStringLiteral("fluency");
    s.evaluator = profile(QStringLiteral("eval"), QStringLiteral("http://e/v1"));
    s.evaluator.headers = {{QStringLiteral("Authorization"), QStringLiteral("Bearer sk-secret-123")}};
    s.generator = s.refiner = s.evaluator;
    const QVariantMap config = RunConfig::toConfig(s);
    const QString dump = QString::fromUtf8(QJsonDocument::fromVariant(config).toJson());
    QVERIFY(!dump.contains(QLatin1String("sk-secret-123")));
    QVERIFY(!dump.contains(QLatin1String("Authorization")));
    QVERIFY(dump.contains(QLatin1String("MY_KEY"))); // the variable's name, not its value

    // Extra headers are kept as references (a resume sends them again); values never.
    s.evaluator.headers = {{QStringLiteral("X-Team"), QStringLiteral("env:TEAM_HEADER")},
                           {QStringLiteral("X-Org"), QStringLiteral("org-secret-77")}};
    const QVariantMap withHeaders = RunConfig::toConfig(s);
    const QString dump2 = QString::fromUtf8(QJsonDocument::fromVariant(withHeaders).toJson());
    QVERIFY(!dump2.contains(QLatin1String("org-secret-77")));
    QVERIFY(dump2.contains(QLatin1String("env:TEAM_HEADER")));
    auto back = RunConfig::fromConfig(QStringLiteral("j"), withHeaders);
    QVERIFY2(back, qPrintable(back.errorString()));
    QCOMPARE(back->evaluator.headers, (QVariantMap{{QStringLiteral("X-Team"), QStringLiteral("env:TEAM_HEADER")}}));

    // A credential in a base URL is stripped should it ever get this far.
    s.evaluator.baseUrl = QStringLiteral("http://u:url-secret-1@e/v1?key=url-secret-2&api-version=3");
    const QString dump3 = QString::fromUtf8(QJsonDocument::fromVariant(RunConfig::toConfig(s)).toJson());
    QVERIFY(!dump3.contains(QLatin1String("url-secret")));
    QVERIFY(dump3.contains(QLatin1String("api-version=3")));
}

void TestRunConfig::olderConfigsGetProfileDefaults()
{
    // What Run stored before endpoint details were kept: base_url, model, provider only.
    const QVariantMap config{
            {QStringLiteral("method"), QStringLiteral("geval")},
            {QStringLiteral("aspect"), QStringLiteral("coherence")},
            {QStringLiteral("items"), QStringLiteral("test")},
            {QStringLiteral("samples"), 20},
            {QStringLiteral("evaluator"), QVariantMap{{QStringLiteral("base_url"), QStringLiteral("http://x/v1")},
                                                      {QStringLiteral("model"), QStringLiteral("m")},
                                                      {QStringLiteral("provider"), QStringLiteral("openai")}}}};
    auto s = RunConfig::fromConfig(QStringLiteral("old"), config);
    QVERIFY2(s, qPrintable(s.errorString()));
    const ProviderProfile defaults;
    QCOMPARE(s->evaluator.concurrency, defaults.concurrency);
    QCOMPARE(s->evaluator.maxRetries, defaults.maxRetries);
    QCOMPARE(s->evaluator.name, QStringLiteral("evaluator"));
    QCOMPARE(s->generator.baseUrl, QStringLiteral("http://x/v1")); // roles default to the evaluator
    QCOMPARE(s->refiner.model, QStringLiteral("m"));
}

void TestRunConfig::errorsNameTheField_data()
{
    QTest::addColumn<QVariantMap>("config");
    QTest::addColumn<QString>("field");
    const QVariantMap evaluator{{QStringLiteral("base_url"), QStringLiteral("http://x/v1")},
                                {QStringLiteral("model"), QStringLiteral("m")}};
    const QVariantMap good{{QStringLiteral("method"), QStringLiteral("geval")},
                           {QStringLiteral("aspect"), QStringLiteral("a")},
                           {QStringLiteral("evaluator"), evaluator}};
    QVariantMap c = good;
    c.remove(QStringLiteral("method"));
    QTest::newRow("imported scores have no method") << c << QStringLiteral("method");
    c = good;
    c.remove(QStringLiteral("aspect"));
    QTest::newRow("no aspect") << c << QStringLiteral("aspect");
    c = good;
    c.insert(QStringLiteral("items"), QStringLiteral("some"));
    QTest::newRow("bad item set") << c << QStringLiteral("items");
    c = good;
    c.remove(QStringLiteral("evaluator"));
    QTest::newRow("no evaluator") << c << QStringLiteral("evaluator.base_url");
    c = good;
    c.insert(QStringLiteral("generator"), QVariantMap{{QStringLiteral("base_url"), QStringLiteral("http://g")}});
    QTest::newRow("generator without model") << c << QStringLiteral("generator.model");
    c = good;
    QVariantMap e = evaluator;
    e.insert(QStringLiteral("provider"), QStringLiteral("gemini"));
    c.insert(QStringLiteral("evaluator"), e);
    QTest::newRow("unknown provider") << c << QStringLiteral("evaluator.provider");
}

void TestRunConfig::errorsNameTheField()
{
    QFETCH(QVariantMap, config);
    QFETCH(QString, field);
    auto s = RunConfig::fromConfig(QStringLiteral("j"), config);
    QVERIFY(!s);
    QCOMPARE(s.error().field, field);
}

void TestRunConfig::aStartedRunCanBeRebuiltFromTheProject()
{
    QTemporaryDir dir;
    auto opened = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(opened);
    auto project = std::move(opened).value();
    QVERIFY(project->addItems(
            {Item{QStringLiteral("a"), {}, {}, QStringLiteral("src"), QStringLiteral("out"), {}, {}, 0}}));
    QVERIFY(project->upsertAspect(Aspect{QStringLiteral("fluency"), QStringLiteral("Well written."), 1, 5}));
    QVERIFY(project->setSplit({{QStringLiteral("a"), SplitRole::Test}}));

    test::FakeLlmServer server;
    QVERIFY(server.listen());
    RunSpec s;
    s.judge = QStringLiteral("g1");
    s.method = QStringLiteral("geval");
    s.aspect = QStringLiteral("fluency");
    s.settings.insert(QStringLiteral("logprobs"), true);
    s.evaluator = profile(QStringLiteral("fake"), server.baseUrl());
    s.evaluator.kind = ProviderKind::OpenAI;
    s.evaluator.apiKeyEnv.clear();
    s.generator = s.refiner = s.evaluator;
    {
        Run run(project.get(), s);
        QSignalSpy finished(&run, &Run::finished);
        QVERIFY2(run.start(), "start");
        QVERIFY(finished.size() == 1 || finished.wait(30000));
    }
    auto back = RunConfig::load(project.get(), QStringLiteral("g1"));
    QVERIFY2(back, qPrintable(back.errorString()));
    QCOMPARE(back->method, QStringLiteral("geval"));
    QVERIFY(back->settings.value(QStringLiteral("logprobs")).toBool());
    compareProfiles(back->evaluator, s.evaluator);
    QVERIFY(!RunConfig::load(project.get(), QStringLiteral("nobody")));
}

void TestRunConfig::cliResumeContinuesAFailedRun()
{
    QVERIFY2(!qEnvironmentVariable("RUBRIC_CLI").isEmpty(), "run through ctest, which sets RUBRIC_CLI");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cli.rubric"));
    auto opened = Project::open(path);
    QVERIFY(opened);
    auto project = std::move(opened).value();
    QVector<Item> items;
    QHash<QString, SplitRole> split;
    for (int i = 0; i < 6; ++i) {
        items.append(Item{QStringLiteral("i%1").arg(i),
                          {},
                          {},
                          QStringLiteral("source %1").arg(i),
                          QStringLiteral("output %1").arg(i),
                          {},
                          {},
                          i});
        split.insert(items.last().id, SplitRole::Test);
    }
    QVERIFY(project->addItems(items));
    QVERIFY(project->upsertAspect(Aspect{QStringLiteral("fluency"), QStringLiteral("Well written."), 1, 5}));
    QVERIFY(project->setSplit(split));

    test::FakeLlmServer server;
    QVERIFY(server.listen());
    test::FakeAnswer broken;
    broken.httpStatus = 400;
    broken.errorMessage = QStringLiteral("bad request");
    server.setAnswer(broken);
    RunSpec s;
    s.judge = QStringLiteral("cli");
    s.method = QStringLiteral("geval");
    s.aspect = QStringLiteral("fluency");
    s.evaluator = profile(QStringLiteral("fake"), server.baseUrl());
    s.evaluator.kind = ProviderKind::OpenAI;
    s.evaluator.apiKeyEnv.clear();
    s.generator = s.refiner = s.evaluator;
    {
        Run run(project.get(), s);
        QSignalSpy finished(&run, &Run::finished);
        QVERIFY(run.start());
        QVERIFY(finished.size() == 1 || finished.wait(30000));
        QVERIFY(!finished.first().first().toBool());
    }
    QCOMPARE(project->judge(QStringLiteral("cli"))->status, QStringLiteral("failed"));

    server.setAnswer(test::FakeAnswer{});
    QProcess cli;
    cli.start(qEnvironmentVariable("RUBRIC_CLI"),
              {QStringLiteral("run"), QStringLiteral("--project"), path, QStringLiteral("--judge"),
               QStringLiteral("cli"), QStringLiteral("--resume"), QStringLiteral("--json")});
    QVERIFY(cli.waitForStarted());
    QSignalSpy exited(&cli, &QProcess::finished);
    QVERIFY(exited.wait(60000)); // the fake server answers from this thread's event loop
    QCOMPARE(cli.exitCode(), 0);
    const QJsonObject o = QJsonDocument::fromJson(cli.readAllStandardOutput().trimmed()).object();
    QCOMPARE(o.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(o.value(QStringLiteral("attempts")).toInt(), 2);
    QCOMPARE(project->judge(QStringLiteral("cli"))->status, QStringLiteral("done"));

    // --resume refuses options that would change the run.
    QProcess refused;
    refused.start(qEnvironmentVariable("RUBRIC_CLI"),
                  {QStringLiteral("run"), QStringLiteral("--project"), path, QStringLiteral("--judge"),
                   QStringLiteral("cli"), QStringLiteral("--resume"), QStringLiteral("--model"),
                   QStringLiteral("other")});
    QVERIFY(refused.waitForFinished(30000));
    QCOMPARE(refused.exitCode(), 2);
    QVERIFY(refused.readAllStandardError().contains("--model"));
}

void TestRunConfig::credentialsInBaseUrlNeverReachTheProject()
{
    test::FakeLlmServer server;
    QVERIFY(server.listen());
    const QString port = QString::number(server.port());
    const QStringList urls{QStringLiteral("http://alice:url-secret-5@127.0.0.1:%1/v1").arg(port),
                           QStringLiteral("http://127.0.0.1:%1/v1?key=url-secret-5").arg(port),
                           QStringLiteral("http://127.0.0.1:%1/v1?api_key=url-secret-5").arg(port)};
    for (int role = 0; role < 2; ++role)
        for (const QString &url : urls) {
            QTemporaryDir dir;
            const QString path = dir.filePath(QStringLiteral("p.rubric"));
            {
                auto opened = Project::open(path);
                QVERIFY(opened);
                auto project = std::move(opened).value();
                QVERIFY(project->addItems(
                        {Item{QStringLiteral("a"), {}, {}, QStringLiteral("src"), QStringLiteral("out"), {}, {}, 0}}));
                QVERIFY(project->upsertAspect(
                        Aspect{QStringLiteral("fluency"), QStringLiteral("Well written."), 1, 5}));
                QVERIFY(project->setSplit({{QStringLiteral("a"), SplitRole::Test}}));
                RunSpec s;
                s.judge = QStringLiteral("g1");
                s.method = QStringLiteral("hypoeval");
                s.aspect = QStringLiteral("fluency");
                s.evaluator = profile(QStringLiteral("fake"), server.baseUrl());
                s.evaluator.kind = ProviderKind::OpenAI;
                s.evaluator.apiKeyEnv.clear();
                s.generator = s.refiner = s.evaluator;
                (role == 0 ? s.evaluator : s.generator).baseUrl = url; // any role
                Run run(project.get(), s);
                const auto started = run.start();
                QVERIFY2(!started, qPrintable(url));
                QVERIFY(started.errorString().contains(QStringLiteral("environment variable")));
                QVERIFY(!started.errorString().contains(QStringLiteral("url-secret-5")));
                QVERIFY(RubricStore(project.get()).runConfig(QStringLiteral("g1")).isEmpty());
            }
            QByteArray all;
            for (const QString &f : QDir(dir.path()).entryList(QDir::Files)) {
                QFile file(dir.filePath(f));
                QVERIFY(file.open(QIODevice::ReadOnly));
                all += file.readAll();
            }
            QVERIFY(!all.contains("url-secret-5")); // runs.config, the cache, the ledger
        }
    QCOMPARE(server.requestCount(), 0);

    // The command line refuses it before the run starts.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cli.rubric"));
    QVERIFY(Project::open(path));
    QProcess cli;
    cli.start(qEnvironmentVariable("RUBRIC_CLI"),
              {QStringLiteral("run"), QStringLiteral("--project"), path, QStringLiteral("--judge"), QStringLiteral("j"),
               QStringLiteral("--method"), QStringLiteral("geval"), QStringLiteral("--aspect"),
               QStringLiteral("fluency"), QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--base-url"),
               urls[1]});
    QVERIFY(cli.waitForFinished(30000));
    QCOMPARE(cli.exitCode(), 2);
    const QByteArray err = cli.readAllStandardError();
    QVERIFY2(err.contains("environment variable") && !err.contains("url-secret-5"), err.constData());
}

void TestRunConfig::rolesThatShareAnEndpointKeepTheirOwnSettings()
{
    QTemporaryDir dir;
    auto opened = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(opened);
    auto project = std::move(opened).value();
    test::FakeLlmServer server;
    QVERIFY(server.listen());
    test::FakeAnswer answer;
    answer.promptTokens = 1000000; // a million tokens in: the cost is the price per million
    answer.completionTokens = 0;
    server.setAnswer(answer);

    RunSpec s;
    s.judge = QStringLiteral("roles");
    s.method = QStringLiteral("hypoeval");
    s.aspect = QStringLiteral("fluency");
    s.evaluator = profile(QStringLiteral("fake"), server.baseUrl());
    s.evaluator.kind = ProviderKind::OpenAI;
    s.evaluator.apiKeyEnv.clear();
    s.evaluator.pricePerMillionIn = 1.0;
    s.generator = s.refiner = s.evaluator;
    s.generator.pricePerMillionIn = 2.0;
    s.generator.concurrency = 3;
    RunContext ctx(project.get(), s);
    QVERIFY(ctx.engine(JudgeRole::Evaluator) != ctx.engine(JudgeRole::Generator));
    QCOMPARE(ctx.engine(JudgeRole::Refiner), ctx.engine(JudgeRole::Evaluator)); // the same profile
    QCOMPARE(ctx.engine(JudgeRole::Generator)->profile().concurrency, 3);
    QCOMPARE(ctx.engine(JudgeRole::Evaluator)->profile().concurrency, 7);

    const auto request = [](const QString &text) {
        JudgeRequest r;
        r.messages = {{QStringLiteral("user"), text}};
        return r;
    };
    // The cache key names the URL and the model, not the role: the cache is shared.
    QCOMPARE(ctx.cacheKey(JudgeRole::Evaluator, request(QStringLiteral("a"))),
             ctx.cacheKey(JudgeRole::Generator, request(QStringLiteral("a"))));

    QVector<JudgeResponse> got;
    const auto ask = [&](JudgeRole role, const QString &text) {
        got.clear();
        bool done = false;
        ctx.submit(role, QStringLiteral("p"), {request(text)}, [&](const QVector<JudgeResponse> &r) {
            got = r;
            done = true;
        });
        QTRY_VERIFY(done);
    };
    ask(JudgeRole::Evaluator, QStringLiteral("a"));
    QCOMPARE(got.value(0).status, JudgeStatus::Ok);
    QCOMPARE(got[0].cost, 1.0);
    ask(JudgeRole::Generator, QStringLiteral("b"));
    QCOMPARE(got.value(0).status, JudgeStatus::Ok);
    QCOMPARE(got[0].cost, 2.0); // the generator's own price
    ask(JudgeRole::Generator, QStringLiteral("a"));
    QCOMPARE(got.value(0).status, JudgeStatus::Cached); // answered by the evaluator's call
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(ctx.progress().cost, 3.0);
}

void TestRunConfig::oneJudgeNameIsOneConfiguration()
{
    QTemporaryDir dir;
    auto project = test::testItemsProject(dir.filePath(QStringLiteral("p.rubric")), 6);
    QVERIFY(project);
    test::FakeLlmServer server;
    QVERIFY(server.listen());
    RunSpec s;
    s.judge = QStringLiteral("g");
    s.method = QStringLiteral("geval");
    s.aspect = QStringLiteral("fluency");
    s.settings.insert(QStringLiteral("samples"), 1);
    s.evaluator = profile(QStringLiteral("fake"), server.baseUrl());
    s.evaluator.kind = ProviderKind::OpenAI;
    s.evaluator.apiKeyEnv.clear();
    s.generator = s.refiner = s.evaluator;
    s.settings.insert(QStringLiteral("geval.temperature"), QStringLiteral("1"));
    const auto runOnce = [&](const RunSpec &spec) -> Result<void> {
        Run run(project.get(), spec);
        QSignalSpy finished(&run, &Run::finished);
        if (auto r = run.start(); !r)
            return r;
        if (finished.isEmpty() && !finished.wait(30000))
            return makeError(QStringLiteral("no finish"));
        return {};
    };
    QVERIFY(runOnce(s));
    QVERIFY(RunConfig::differences(project.get(), s).value().isEmpty());

    // Another method parameter: refused, the difference named with both values.
    RunSpec other = s;
    other.settings.insert(QStringLiteral("geval.temperature"), QStringLiteral("0.5"));
    auto refused = runOnce(other);
    QVERIFY(!refused);
    QVERIFY2(refused.errorString().contains(QStringLiteral("--set geval.temperature: '1' (stored) → '0.5'")),
             qPrintable(refused.errorString()));
    QCOMPARE(project->judge(QStringLiteral("g"))->status, QStringLiteral("done"));
    QCOMPARE(RubricStore(project.get()).runConfig(QStringLiteral("g")).value(QStringLiteral("attempts")).toInt(), 1);

    // Another generator model counts too; the stored prompt template edited since counts too.
    other = s;
    other.generator.model = QStringLiteral("bigger");
    QVERIFY(RunConfig::differences(project.get(), other)
                    .value()
                    .join(u'\n')
                    .contains(QStringLiteral("generator model")));
    const QVariantMap templates
            = RubricStore(project.get()).runConfig(QStringLiteral("g")).value(QStringLiteral("templates")).toMap();
    QVERIFY(!templates.isEmpty());
    const QString name = templates.firstKey();
    auto builtin = PromptLibrary::builtin(name);
    QVERIFY(builtin);
    QVERIFY(PromptLibrary(project.get()).setOverride(name, builtin->body + QStringLiteral("\nBe strict.")));
    QVERIFY(RunConfig::differences(project.get(), s).value().join(u'\n').contains(QStringLiteral("template ") + name));
    QVERIFY(!runOnce(s));
    RunSpec resumed = s; // --resume takes the stored configuration: never refused
    resumed.resume = true;
    QVERIFY(runOnce(resumed));
    QVERIFY(RunConfig::differences(project.get(), s).value().isEmpty()); // the attempt recorded the edited template

    // What may change between attempts: budget, concurrency, prices, key variable, the item set,
    // max_source_tokens.
    RunSpec allowed = s;
    allowed.budget = 5;
    allowed.evaluator.concurrency = 2;
    allowed.evaluator.pricePerMillionIn = 9;
    allowed.evaluator.apiKeyEnv = QStringLiteral("OTHER_KEY");
    allowed.items = SplitFilter::All;
    allowed.settings.insert(QStringLiteral("max_source_tokens"), QStringLiteral("100"));
    QVERIFY2(RunConfig::differences(project.get(), allowed).value().isEmpty(),
             qPrintable(RunConfig::differences(project.get(), allowed).value().join(u'\n')));

    // --replace: the old judge's record goes, the new configuration starts afresh.
    other.replace = true;
    QVERIFY(runOnce(other));
    const QVariantMap config = RubricStore(project.get()).runConfig(QStringLiteral("g"));
    QCOMPARE(config.value(QStringLiteral("attempts")).toInt(), 1);
    QCOMPARE(config.value(QStringLiteral("generator")).toMap().value(QStringLiteral("model")).toString(),
             QStringLiteral("bigger"));
}

void TestRunConfig::cliRefusesAnotherModelAndReplaces()
{
    QVERIFY2(!qEnvironmentVariable("RUBRIC_CLI").isEmpty(), "run through ctest, which sets RUBRIC_CLI");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cli.rubric"));
    auto project = test::testItemsProject(path, 6);
    QVERIFY(project);
    test::FakeLlmServer server;
    QVERIFY(server.listen());
    server.setJudge(byModel());
    const auto args = [&](const QString &model, const QStringList &more = {}) {
        return QStringList{QStringLiteral("run"),
                           QStringLiteral("--project"),
                           path,
                           QStringLiteral("--judge"),
                           QStringLiteral("j"),
                           QStringLiteral("--method"),
                           QStringLiteral("geval"),
                           QStringLiteral("--aspect"),
                           QStringLiteral("fluency"),
                           QStringLiteral("--base-url"),
                           server.baseUrl(),
                           QStringLiteral("--model"),
                           model,
                           QStringLiteral("--samples"),
                           QStringLiteral("1")}
               + more;
    };
    const auto scores = [&] { return project->judgeScores(QStringLiteral("j"), QStringLiteral("fluency")); };

    test::CliResult first = test::runCli(args(QStringLiteral("model-a")));
    QVERIFY2(first.exitCode == 0, first.err.constData());
    QCOMPARE(scores().size(), 6);
    for (double v : scores())
        QCOMPARE(v, 2.0);

    // The same name with another model: refused, both models named, nothing changed.
    const int requests = server.requestCount();
    test::CliResult refused = test::runCli(args(QStringLiteral("model-b")));
    QCOMPARE(refused.exitCode, 1);
    const QString err = QString::fromUtf8(refused.err);
    QVERIFY2(err.contains(QStringLiteral("evaluator model: 'model-a' (stored) → 'model-b'")), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("--replace")), qPrintable(err));
    QCOMPARE(server.requestCount(), requests);
    for (double v : scores())
        QCOMPARE(v, 2.0);

    // --estimate of the other model under the name is refused the same way (it would count the
    // stored judge's work as done).
    test::CliResult estimate = test::runCli(args(QStringLiteral("model-b"), {QStringLiteral("--estimate")}));
    QCOMPARE(estimate.exitCode, 1);
    QVERIFY2(
            QString::fromUtf8(estimate.err).contains(QStringLiteral("evaluator model: 'model-a' (stored) → 'model-b'")),
            estimate.err.constData());
    QCOMPARE(server.requestCount(), requests);

    // Another concurrency is the same configuration.
    test::CliResult again
            = test::runCli(args(QStringLiteral("model-a"), {QStringLiteral("--concurrency"), QStringLiteral("3")}));
    QVERIFY2(again.exitCode == 0, again.err.constData());

    // --replace: the new model's scores only; the judge cache keeps the old answers.
    QSqlQuery q(ProjectTestAccess::database(*project));
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM judge_cache WHERE model = 'model-a'")) && q.next());
    const int cachedA = q.value(0).toInt();
    QVERIFY(cachedA > 0);
    q.finish(); // an open statement would keep this connection's snapshot from before the CLI's writes
    test::CliResult replaced
            = test::runCli(args(QStringLiteral("model-b"), {QStringLiteral("--replace"), QStringLiteral("--json")}));
    QVERIFY2(replaced.exitCode == 0, replaced.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(replaced.out.trimmed()).object();
    QCOMPARE(o.value(QStringLiteral("attempts")).toInt(), 1);
    QCOMPARE(scores().size(), 6);
    for (double v : scores())
        QCOMPARE(v, 4.0);
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM judge_cache WHERE model = 'model-a'")) && q.next());
    QCOMPARE(q.value(0).toInt(), cachedA);
    QCOMPARE(RunConfig::load(project.get(), QStringLiteral("j"))->evaluator.model, QStringLiteral("model-b"));
}

QTEST_GUILESS_MAIN(TestRunConfig)
#include "TestRunConfig.moc"
