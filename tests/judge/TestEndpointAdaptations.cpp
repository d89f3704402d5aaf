// Issue 29, part 2: what an endpoint refuses is learned from its answers, not assumed. Real HTTP
// over loopback to the fake endpoint playing OpenAI reasoning models, thinking models and servers
// that refuse n, logprobs or the system role.

#include "JudgeTestUtil.h"
#include "judge/EndpointAdaptations.h"
#include "judge/EndpointCapabilities.h"
#include "store/CallStore.h"
#include "store/Project.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestEndpointAdaptations : public QObject
{
    Q_OBJECT
private slots:
    void refusalNamesParameter_data();
    void refusalNamesParameter();
    void adaptsToRefusal_data();
    void adaptsToRefusal();
    void reasoningModelGetsBudget_data();
    void reasoningModelGetsBudget();
    void unknownRefusalFailsAsBefore_data();
    void unknownRefusalFailsAsBefore();
    void sameRefusalAfterAdaptingFails();
    void persistedPerEndpoint();
};

namespace {

JudgeRequest request(int i, const QString &prefix = QStringLiteral("item"))
{
    JudgeRequest r;
    r.messages = {{QStringLiteral("system"), QStringLiteral("You are a strict judge.")},
                  {QStringLiteral("user"), QStringLiteral("Rate %1 #%2 from 1 to 5.").arg(prefix).arg(i)}};
    r.tag = QString::number(i);
    return r;
}

QJsonObject bodyOf(const RecordedRequest &r)
{
    return QJsonDocument::fromJson(r.body).object();
}

bool waitIdle(Collector &c)
{
    return QTest::qWaitFor([&c] { return c.idle; }, 10000);
}

QStringList names(const EndpointAdaptations &a)
{
    QStringList out;
    for (Adaptation x : a.list())
        out << EndpointAdaptations::name(x);
    return out;
}

} // namespace

void TestEndpointAdaptations::refusalNamesParameter_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<bool>("logprobs");
    QTest::addColumn<QString>("expected"); // "" = no adaptation

    QTest::newRow("openai max_tokens")
            << 400
            << QByteArray(
                       R"({"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. )"
                       R"(Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens",)"
                       R"("code":"unsupported_parameter"}})")
            << false << QStringLiteral("max_completion_tokens");
    QTest::newRow("openai temperature")
            << 400
            << QByteArray(
                       R"({"error":{"message":"Unsupported value: 'temperature' does not support 0 with this model. )"
                       R"(Only the default (1) value is supported.","type":"invalid_request_error",)"
                       R"("param":"temperature","code":"unsupported_value"}})")
            << false << QStringLiteral("no_temperature");
    QTest::newRow("openai top_logprobs") << 400
                                         << QByteArray(R"({"error":{"message":"Unsupported parameter: 'top_logprobs' )"
                                                       R"(is not supported with this model.","param":"top_logprobs",)"
                                                       R"("code":"unsupported_parameter"}})")
                                         << true << QStringLiteral("no_logprobs");
    QTest::newRow("logprobs not asked for") << 400
                                            << QByteArray(R"({"error":{"message":"Unsupported parameter: 'logprobs'",)"
                                                          R"("param":"logprobs","code":"unsupported_parameter"}})")
                                            << false << QStringLiteral("");
    QTest::newRow("vllm system role") << 400
                                      << QByteArray(R"({"object":"error","message":"System role not supported",)"
                                                    R"("type":"BadRequestError","param":null,"code":400})")
                                      << false << QStringLiteral("fold_system");
    QTest::newRow("context length names max_tokens")
            << 400
            << QByteArray(R"({"object":"error","message":"'max_tokens' is too large: 5000. This model's maximum )"
                          R"(context length is 4096 tokens and your request has 3500 input tokens","code":400})")
            << false << QStringLiteral("");
    QTest::newRow("bad temperature value") << 400
                                           << QByteArray(R"({"error":{"message":"temperature must be between 0 and 2",)"
                                                         R"("param":"temperature","code":"invalid_value"}})")
                                           << false << QStringLiteral("");
    QTest::newRow("names no parameter") << 400 << QByteArray(R"({"error":{"message":"model 'nope' does not exist"}})")
                                        << false << QStringLiteral("");
    QTest::newRow("422 detail naming n")
            << 422
            << QByteArray(R"({"detail":[{"loc":["body","n"],"msg":"n > 1 is not supported","type":"value_error"}]})")
            << false << QStringLiteral("");
    QTest::newRow("server error") << 500
                                  << QByteArray(R"({"error":{"message":"Unsupported parameter: 'max_tokens'",)"
                                                R"("param":"max_tokens","code":"unsupported_parameter"}})")
                                  << false << QStringLiteral("");
}

void TestEndpointAdaptations::refusalNamesParameter()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(bool, logprobs);
    QFETCH(QString, expected);
    JudgeRequest r = request(0);
    r.logprobs = logprobs;
    r.topLogprobs = logprobs ? 5 : 0;
    const auto refused = EndpointAdaptations().refusal(ProviderKind::OpenAI, r, status, body);
    QCOMPARE(refused ? EndpointAdaptations::name(refused->what) : QString(), expected);
    if (refused)
        QVERIFY(!refused->why.isEmpty());
    // n is only a candidate when the request asked for several choices.
    r.n = 3;
    const auto withN = EndpointAdaptations().refusal(ProviderKind::OpenAI, r, status, body);
    if (qstrcmp(QTest::currentDataTag(), "422 detail naming n") == 0)
        QCOMPARE(withN ? EndpointAdaptations::name(withN->what) : QString(), QStringLiteral("one_choice"));
}

void TestEndpointAdaptations::adaptsToRefusal_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("logprobs");
    QTest::addColumn<int>("n");
    QTest::addColumn<QStringList>("expected"); // adaptations, in the order learned
    QTest::addColumn<QString>("reason");       // one of the reasons, as shown

    QTest::newRow("openai reasoning: max_tokens, temperature")
            << int(FakeModelKind::OpenAiReasoning) << false << 1
            << QStringList{QStringLiteral("max_completion_tokens"), QStringLiteral("no_temperature")}
            << QStringLiteral("temperature 0 refused: using the endpoint's default (1)");
    QTest::newRow("openai reasoning: and logprobs")
            << int(FakeModelKind::OpenAiReasoning) << true << 1
            << QStringList{QStringLiteral("max_completion_tokens"), QStringLiteral("no_temperature"),
                           QStringLiteral("no_logprobs")}
            << QStringLiteral("max_tokens refused: sending max_completion_tokens");
    QTest::newRow("system role") << int(FakeModelKind::RefusesSystemRole) << false << 1
                                 << QStringList{QStringLiteral("fold_system")}
                                 << QStringLiteral("system role refused: folded into the user message");
    QTest::newRow("n") << int(FakeModelKind::RefusesN) << false << 3 << QStringList{QStringLiteral("one_choice")}
                       << QStringLiteral("n refused: one choice per request");
    QTest::newRow("logprobs") << int(FakeModelKind::RefusesLogprobs) << true << 1
                              << QStringList{QStringLiteral("no_logprobs")}
                              << QStringLiteral("logprobs refused: asking without them");
}

void TestEndpointAdaptations::adaptsToRefusal()
{
    QFETCH(int, kind);
    QFETCH(bool, logprobs);
    QFETCH(int, n);
    QFETCH(QStringList, expected);
    QFETCH(QString, reason);
    FakeLlmServer server;
    server.setModelKind(FakeModelKind(kind));
    server.setRecording(true);
    QVERIFY(server.listen());
    const auto requests = [&](const QString &prefix) {
        QVector<JudgeRequest> out;
        for (int i = 0; i < 6; ++i) {
            JudgeRequest r = request(i, prefix);
            r.logprobs = logprobs;
            r.topLogprobs = logprobs ? 5 : 0;
            r.n = n;
            out << r;
        }
        return out;
    };

    // Six requests, four in flight at most: while the first one discovers what the endpoint
    // refuses, the others wait, so each adaptation costs exactly one refused call.
    JudgeEngine engine(profileFor(server, 4), nullptr);
    engine.setRetryBackoff(1, 5);
    QSignalSpy adapted(&engine, &JudgeEngine::adapted);
    Collector c(engine);
    engine.submit(requests(QStringLiteral("first")));
    QVERIFY(waitIdle(c));
    QCOMPARE(c.answers.size(), 6);
    for (const JudgeResponse &r : std::as_const(c.answers)) {
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.text(), QStringLiteral("Rating: [[3]]"));
        QCOMPARE(r.retries, 0); // adapting is not retrying
    }
    QCOMPARE(names(engine.adaptations()), expected);
    QCOMPARE(server.requestCount(), 6 + int(expected.size()));
    QCOMPARE(engine.stats().sent, 6 + int(expected.size()));
    QCOMPARE(engine.stats().resent, int(expected.size()));
    QCOMPARE(int(adapted.size()), int(expected.size()));
    QVERIFY2(engine.adaptations().reasons().contains(reason),
             qPrintable(engine.adaptations().reasons().join(QLatin1Char('|'))));

    // What went out in the end carries no refused parameter.
    for (const RecordedRequest &rec : server.recorded().mid(int(expected.size()))) {
        const QJsonObject body = bodyOf(rec);
        if (expected.contains(QStringLiteral("max_completion_tokens"))) {
            QVERIFY(!body.contains(QStringLiteral("max_tokens")));
            QCOMPARE(body.value(QStringLiteral("max_completion_tokens")).toInt(), 512);
        }
        if (expected.contains(QStringLiteral("no_temperature")))
            QVERIFY(!body.contains(QStringLiteral("temperature")));
        if (expected.contains(QStringLiteral("no_logprobs")))
            QVERIFY(!body.contains(QStringLiteral("logprobs")) && !body.contains(QStringLiteral("top_logprobs")));
        if (expected.contains(QStringLiteral("one_choice")))
            QVERIFY(!body.contains(QStringLiteral("n")));
        if (expected.contains(QStringLiteral("fold_system"))) {
            const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
            QCOMPARE(messages.size(), 1);
            QCOMPARE(messages[0].toObject().value(QStringLiteral("role")).toString(), QStringLiteral("user"));
            QVERIFY(messages[0]
                            .toObject()
                            .value(QStringLiteral("content"))
                            .toString()
                            .startsWith(QLatin1String("You are a strict judge.\n\nRate first")));
        }
    }

    // A second engine that starts from what the first learned sends nothing the endpoint refuses.
    server.resetCounts();
    JudgeEngine second(profileFor(server, 4), nullptr);
    second.setAdaptations(engine.adaptations());
    QSignalSpy learnedAgain(&second, &JudgeEngine::adapted);
    Collector c2(second);
    second.submit(requests(QStringLiteral("second")));
    QVERIFY(waitIdle(c2));
    for (const JudgeResponse &r : std::as_const(c2.answers))
        QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(server.requestCount(), 6);
    QCOMPARE(second.stats().resent, 0);
    QCOMPARE(learnedAgain.size(), 0);
}

void TestEndpointAdaptations::reasoningModelGetsBudget_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("calls");     // requests in all for the first answer
    QTest::addColumn<int>("reasoning"); // reasoning tokens the ledger shows for both calls

    // OpenAI: max_tokens refused first, then an empty answer billed as 5 reasoning tokens, then
    // the answer after 300 tokens of thinking.
    QTest::newRow("openai reasoning") << int(FakeModelKind::OpenAiReasoning) << QString() << 3 << 5 + 300;
    QTest::newRow("think inline") << int(FakeModelKind::ThinkInline) << QString() << 2 << 0;
    QTest::newRow("reasoning_content") << int(FakeModelKind::ReasoningField) << QStringLiteral("reasoning_content") << 2
                                       << 0;
    QTest::newRow("reasoning") << int(FakeModelKind::ReasoningField) << QStringLiteral("reasoning") << 2 << 0;
}

void TestEndpointAdaptations::reasoningModelGetsBudget()
{
    QFETCH(int, kind);
    QFETCH(QString, field);
    QFETCH(int, calls);
    QFETCH(int, reasoning);
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project);
    FakeLlmServer server;
    server.setModelKind(FakeModelKind(kind));
    if (!field.isEmpty())
        server.setReasoningField(field);
    server.setRecording(true);
    QVERIFY(server.listen());
    ProviderProfile profile = profileFor(server, 4);
    profile.pricePerMillionOut = 1000; // 0.001 a token: the empty answer costs too
    JudgeEngine engine(profile, project->get());
    engine.setRunName(QStringLiteral("r"));
    Collector c(engine);
    JudgeRequest small = request(0);
    small.temperature = 1; // what a reasoning model takes
    small.maxTokens = 5;   // G-Eval's budget
    engine.submit({small});
    QVERIFY(waitIdle(c));
    QCOMPARE(c.answers.size(), 1);
    const JudgeResponse &r = c.answers.first();
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.text(), QStringLiteral("Rating: [[3]]"));
    QCOMPARE(server.requestCount(), calls);
    QVERIFY(engine.adaptations().has(Adaptation::ReasoningBudget));
    QVERIFY(engine.adaptations().reasons().contains(
            QStringLiteral("reasoning model: 2,048-token budget on top of each request's max_tokens")));
    const QJsonObject last = bodyOf(server.recorded().last());
    const QString budgetField = kind == int(FakeModelKind::OpenAiReasoning) ? QStringLiteral("max_completion_tokens")
                                                                            : QStringLiteral("max_tokens");
    QCOMPARE(last.value(budgetField).toInt(), 5 + 2048);
    QCOMPARE(engine.stats().thoughtOut, 1);

    // The ledger has both paid answers (the empty one too) and their reasoning tokens; the cache
    // has the answer, not the empty one.
    CallStore store(project->get());
    const auto ledger = store.ledger(QStringLiteral("r"));
    QVERIFY(ledger.ok());
    QCOMPARE(ledger->size(), 2);
    QCOMPARE(ledger->at(0).outcome, QStringLiteral("ok"));
    QCOMPARE(ledger->at(1).outcome, QStringLiteral("ok"));
    QVERIFY(ledger->at(0).tokensOut > 0);
    QVERIFY(ledger->at(0).cost > 0);
    QVERIFY2(ledger->at(0).error.contains(QLatin1String("reasoning")), qPrintable(ledger->at(0).error));
    QCOMPARE(ledger->at(0).tokensReasoning + ledger->at(1).tokensReasoning, reasoning);
    QCOMPARE(engine.stats().tokensReasoning, qint64(reasoning));
    const auto totals = store.totals(QStringLiteral("r"));
    QVERIFY(totals.ok());
    QCOMPARE(totals->calls, 2);
    QVERIFY(qFuzzyCompare(totals->cost, engine.stats().cost));
    const auto cached = engine.cached(small);
    QVERIFY(cached.ok() && *cached);
    QCOMPARE((*cached)->text(), QStringLiteral("Rating: [[3]]"));

    // From now on every request of the engine goes with the budget from the start.
    server.resetCounts();
    JudgeRequest next = request(1);
    next.temperature = 1;
    next.maxTokens = 5;
    c.idle = false;
    engine.submit({next});
    QVERIFY(waitIdle(c));
    QVERIFY2(c.answers.last().ok(), qPrintable(c.answers.last().error));
    QCOMPARE(c.answers.last().text(), QStringLiteral("Rating: [[3]]"));
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(bodyOf(server.recorded().first()).value(budgetField).toInt(), 5 + 2048);
}

void TestEndpointAdaptations::unknownRefusalFailsAsBefore_data()
{
    QTest::addColumn<QString>("message");
    QTest::newRow("no parameter") << QStringLiteral("model 'nope' does not exist");
    QTest::newRow("context length") << QStringLiteral("'max_tokens' is too large: 5000. This model's maximum context "
                                                      "length is 4096 tokens and your request has 3500 input tokens");
    QTest::newRow("bad value") << QStringLiteral("temperature must be between 0 and 2");
}

void TestEndpointAdaptations::unknownRefusalFailsAsBefore()
{
    QFETCH(QString, message);
    FakeLlmServer server;
    FakeAnswer refused;
    refused.httpStatus = 400;
    refused.errorMessage = message;
    server.setAnswer(refused);
    QVERIFY(server.listen());
    JudgeEngine engine(profileFor(server, 4), nullptr);
    Collector c(engine);
    engine.submit({request(0), request(1)});
    QVERIFY(waitIdle(c));
    QCOMPARE(c.answers.size(), 2);
    for (const JudgeResponse &r : std::as_const(c.answers)) {
        QCOMPARE(r.status, JudgeStatus::Failed);
        QCOMPARE(r.httpStatus, 400);
        QVERIFY2(r.error.contains(message), qPrintable(r.error));
    }
    QCOMPARE(server.requestCount(), 2); // each sent once, not retried, nothing adapted
    QVERIFY(engine.adaptations().isEmpty());
}

void TestEndpointAdaptations::sameRefusalAfterAdaptingFails()
{
    // An endpoint that refuses max_tokens and then refuses max_completion_tokens as well: one
    // adaptation, then the request fails as any refused one.
    FakeLlmServer server;
    FakeAnswer refused;
    refused.httpStatus = 400;
    refused.errorMessage = QStringLiteral("Unsupported parameter: 'max_tokens' is not supported with this model. "
                                          "Use 'max_completion_tokens' instead.");
    server.setAnswer(refused);
    QVERIFY(server.listen());
    JudgeEngine engine(profileFor(server, 1), nullptr);
    Collector c(engine);
    engine.submit({request(0)});
    QVERIFY(waitIdle(c));
    QCOMPARE(c.answers.size(), 1);
    QCOMPARE(c.answers.first().status, JudgeStatus::Failed);
    QCOMPARE(c.answers.first().httpStatus, 400);
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(names(engine.adaptations()), QStringList{QStringLiteral("max_completion_tokens")});
}

void TestEndpointAdaptations::persistedPerEndpoint()
{
    // What one engine learned, kept in the project under the endpoint's URL and model, is where the
    // next engine starts: it pays for no discovery.
    QTemporaryDir dir;
    auto project = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(project);
    FakeLlmServer server;
    server.setModelKind(FakeModelKind::OpenAiReasoning);
    QVERIFY(server.listen());
    const ProviderProfile profile = profileFor(server, 2);
    {
        JudgeEngine engine(profile, project->get());
        Collector c(engine);
        JudgeRequest r = request(0);
        r.maxTokens = 5;
        engine.submit({r});
        QVERIFY(waitIdle(c));
        QVERIFY2(c.answers.first().ok(), qPrintable(c.answers.first().error));
        QVERIFY(endpoint::noteAdaptations(**project, profile, engine.adaptations()).ok());
    }
    const auto stored = endpoint::adaptations(**project, profile);
    QVERIFY(stored.ok());
    QCOMPARE(names(*stored), (QStringList{QStringLiteral("max_completion_tokens"), QStringLiteral("no_temperature"),
                                          QStringLiteral("reasoning_budget")}));
    ProviderProfile otherModel = profile;
    otherModel.model = QStringLiteral("another-model");
    QVERIFY(endpoint::adaptations(**project, otherModel)->isEmpty());

    server.resetCounts();
    JudgeEngine engine(profile, project->get());
    engine.setAdaptations(*stored);
    Collector c(engine);
    JudgeRequest r = request(1);
    r.maxTokens = 5;
    engine.submit({r});
    QVERIFY(waitIdle(c));
    QVERIFY2(c.answers.first().ok(), qPrintable(c.answers.first().error));
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(engine.stats().thoughtOut, 0);
}

QTEST_GUILESS_MAIN(TestEndpointAdaptations)
#include "TestEndpointAdaptations.moc"
