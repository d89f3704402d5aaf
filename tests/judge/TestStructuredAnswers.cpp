// Issue 29, part 3: structured answers where the endpoint offers them. Real HTTP over loopback to
// the fake endpoint: each mode's body carries the schema in its form, the schema's JSON is read
// right, an endpoint that ignores the schema is read as text, one that refuses it is asked without
// it, and the cache key changes only where a schema is sent.

#include "JudgeTestUtil.h"
#include "judge/AnswerParser.h"
#include "judge/CacheKey.h"
#include "judge/EndpointAdaptations.h"
#include "judge/StructuredAnswers.h"
#include "methods/RunContext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestStructuredAnswers : public QObject
{
    Q_OBJECT
private slots:
    void bodyCarriesSchema_data();
    void bodyCarriesSchema();
    void schemaAnswerRead_data();
    void schemaAnswerRead();
    void ignoredSchemaReadAsText();
    void cacheKey();
    void estimateCountsSchema();
    void refusalAdapts_data();
    void refusalAdapts();
    void modeNames();
};

namespace {

JudgeRequest request(const AnswerShape &shape, const QString &text = QStringLiteral("Rate item #1 from 1 to 5."))
{
    JudgeRequest r;
    r.messages
            = {{QStringLiteral("system"), QStringLiteral("You are a strict judge.")}, {QStringLiteral("user"), text}};
    r.shape = shape;
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

/// The one answer of `r` from a fresh engine on `profile`, with what the server received.
JudgeResponse ask(const ProviderProfile &profile, const JudgeRequest &r)
{
    JudgeEngine engine(profile, nullptr);
    engine.setRetryBackoff(1, 5);
    Collector c(engine);
    engine.submit({r});
    if (!waitIdle(c) || c.answers.size() != 1)
        return {};
    return c.answers.first();
}

const QStringList schemaFields{QStringLiteral("response_format"), QStringLiteral("guided_json"),
                               QStringLiteral("json_schema")};

QJsonObject scoreSchema(double min, double max)
{
    return QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("reasoning"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
                         {QStringLiteral("score"), QJsonObject{{QStringLiteral("type"), QStringLiteral("number")},
                                                               {QStringLiteral("minimum"), min},
                                                               {QStringLiteral("maximum"), max}}}}},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("reasoning"), QStringLiteral("score")}},
            {QStringLiteral("additionalProperties"), false}};
}

QJsonObject yesNoSchema(int n)
{
    QJsonObject properties;
    QJsonArray required;
    for (int i = 1; i <= n; ++i) {
        properties.insert(
                QStringLiteral("Q%1").arg(i),
                QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                            {QStringLiteral("enum"), QJsonArray{QStringLiteral("Yes"), QStringLiteral("No")}}});
        required.append(QStringLiteral("Q%1").arg(i));
    }
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                       {QStringLiteral("properties"), properties},
                       {QStringLiteral("required"), required},
                       {QStringLiteral("additionalProperties"), false}};
}

} // namespace

void TestStructuredAnswers::bodyCarriesSchema_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("mode");
    QTest::addColumn<bool>("yesNo");
    QTest::addColumn<QString>("field"); // "" = no schema in the body

    const int openAi = int(ProviderKind::OpenAI);
    QTest::newRow("off: nothing sent") << openAi << int(StructuredMode::Off) << false << QString();
    QTest::newRow("json_schema score") << openAi << int(StructuredMode::JsonSchema) << false
                                       << QStringLiteral("response_format");
    QTest::newRow("json_schema yes/no") << openAi << int(StructuredMode::JsonSchema) << true
                                        << QStringLiteral("response_format");
    QTest::newRow("guided_json score") << openAi << int(StructuredMode::GuidedJson) << false
                                       << QStringLiteral("guided_json");
    QTest::newRow("guided_json yes/no") << openAi << int(StructuredMode::GuidedJson) << true
                                        << QStringLiteral("guided_json");
    QTest::newRow("llama_grammar score") << openAi << int(StructuredMode::LlamaGrammar) << false
                                         << QStringLiteral("json_schema");
    QTest::newRow("llama_grammar yes/no")
            << openAi << int(StructuredMode::LlamaGrammar) << true << QStringLiteral("json_schema");
    QTest::newRow("anthropic: no schema parameter")
            << int(ProviderKind::Anthropic) << int(StructuredMode::JsonSchema) << false << QString();
}

void TestStructuredAnswers::bodyCarriesSchema()
{
    QFETCH(int, kind);
    QFETCH(int, mode);
    QFETCH(bool, yesNo);
    QFETCH(QString, field);
    FakeLlmServer server;
    server.setRecording(true);
    QVERIFY(server.listen());
    ProviderProfile profile = profileFor(server);
    profile.kind = ProviderKind(kind);
    profile.structuredAnswers = StructuredMode(mode);

    const AnswerShape shape = yesNo ? AnswerShape::yesNo(12) : AnswerShape::score(1, 5);
    const JudgeResponse r = ask(profile, request(shape));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(server.recorded().size(), 1);
    const QJsonObject body = bodyOf(server.recorded().first());
    for (const QString &f : schemaFields)
        QCOMPARE(body.contains(f), f == field);
    if (field.isEmpty())
        return;

    const QJsonObject expected = yesNo ? yesNoSchema(12) : scoreSchema(1, 5);
    QJsonObject schema;
    if (field == QLatin1String("response_format")) {
        const QJsonObject format = body.value(field).toObject();
        QCOMPARE(format.value(QStringLiteral("type")).toString(), QStringLiteral("json_schema"));
        const QJsonObject js = format.value(QStringLiteral("json_schema")).toObject();
        QVERIFY(!js.value(QStringLiteral("name")).toString().isEmpty());
        QCOMPARE(js.value(QStringLiteral("strict")).toBool(), true);
        schema = js.value(QStringLiteral("schema")).toObject();
    } else {
        schema = body.value(field).toObject();
    }
    QCOMPARE(schema, expected);
    // The reasoning comes before the score, Q2 before Q10: a constrained decoder writes them in order.
    const QByteArray raw = server.recorded().first().body;
    if (yesNo) {
        const auto at = [&raw](int q) { return raw.indexOf(QByteArray("\"Q" + QByteArray::number(q) + "\":{")); };
        for (int q = 1; q < 12; ++q)
            QVERIFY2(at(q) >= 0 && at(q) < at(q + 1), raw.constData());
    } else {
        QVERIFY2(raw.indexOf("\"reasoning\":{") < raw.indexOf("\"score\":{"), raw.constData());
    }
}

void TestStructuredAnswers::schemaAnswerRead_data()
{
    QTest::addColumn<int>("mode");
    for (StructuredMode m : {StructuredMode::JsonSchema, StructuredMode::GuidedJson, StructuredMode::LlamaGrammar})
        QTest::newRow(qPrintable(StructuredAnswers::modeName(m))) << int(m);
}

void TestStructuredAnswers::schemaAnswerRead()
{
    QFETCH(int, mode);
    FakeLlmServer server;
    QVERIFY(server.listen());
    ProviderProfile profile = profileFor(server);
    profile.structuredAnswers = StructuredMode(mode);
    // The endpoint answers what the schema asks for; the reasoning holds numbers and brackets that
    // a text reading would take for a score.
    server.setJudge([](const QJsonObject &body) {
        FakeAnswer a;
        const bool yesNo = promptText(body).contains(QLatin1String("questions"));
        a.text = yesNo ? QStringLiteral(R"({"Q1": "Yes", "Q2": "No", "Q3": "Yes"})")
                       : QStringLiteral(R"({"reasoning": "It covers 2 of 3 points; a first reading said [[2]], )"
                                        R"(Score: 1, but on balance it is good.", "score": 4})");
        return a;
    });

    const JudgeResponse score = ask(profile, request(AnswerShape::score(1, 5)));
    QVERIFY2(score.ok(), qPrintable(score.error));
    // Every variant of the shared reader the scoring methods use reads the schema's score.
    ScoreRules plain{1, 5};
    ScoreRules hpss{1, 5};
    hpss.singleBrackets = true;
    ScoreRules hdEval{1, 5};
    hdEval.firstLone = true;
    for (const ScoreRules &rules : {plain, hpss, hdEval}) {
        const ParsedAnswer p = AnswerParser::readScore(score.text(), rules);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.score, 4.0);
        QCOMPARE(p.method, ParsedAnswer::Method::Json);
    }
    const ParsedAnswer sampled = AnswerParser::scoreOf(score, 1, 5); // G-Eval without logprobs
    QVERIFY(sampled.ok);
    QCOMPARE(sampled.score, 4.0);

    const JudgeResponse answers
            = ask(profile, request(AnswerShape::yesNo(3), QStringLiteral("Answer the questions Q1 to Q3.")));
    QVERIFY2(answers.ok(), qPrintable(answers.error));
    const ParsedAnswer yn = AnswerParser::parseYesNo(answers.text());
    QVERIFY2(yn.ok, qPrintable(yn.error));
    const QMap<QString, bool> expected{
            {QStringLiteral("Q1"), true}, {QStringLiteral("Q2"), false}, {QStringLiteral("Q3"), true}};
    QCOMPARE(yn.answers, expected);
}

void TestStructuredAnswers::ignoredSchemaReadAsText()
{
    // A server that takes the schema and answers in prose all the same (the default fake ignores
    // every field it does not know): the text reader reads it.
    FakeLlmServer server;
    server.setRecording(true);
    QVERIFY(server.listen());
    server.setJudge([](const QJsonObject &body) {
        FakeAnswer a;
        a.text = promptText(body).contains(QLatin1String("questions"))
                         ? QStringLiteral("**Q1:** Yes\n- Q2: **No**\nQ3. Yes")
                         : QStringLiteral("The summary is fluent.\n\n**Score:** 4");
        return a;
    });
    ProviderProfile profile = profileFor(server);
    profile.structuredAnswers = StructuredMode::JsonSchema;
    const JudgeResponse score = ask(profile, request(AnswerShape::score(1, 5)));
    QVERIFY2(score.ok(), qPrintable(score.error));
    QVERIFY(bodyOf(server.recorded().last()).contains(QStringLiteral("response_format")));
    const ParsedAnswer p = AnswerParser::readScore(score.text(), ScoreRules{1, 5});
    QVERIFY2(p.ok, qPrintable(p.error));
    QCOMPARE(p.score, 4.0);

    const JudgeResponse answers
            = ask(profile, request(AnswerShape::yesNo(3), QStringLiteral("Answer the questions Q1 to Q3.")));
    QVERIFY2(answers.ok(), qPrintable(answers.error));
    const ParsedAnswer yn = AnswerParser::parseYesNo(answers.text());
    QVERIFY(yn.ok);
    QCOMPARE(yn.answers.value(QStringLiteral("Q1")), true);
    QCOMPARE(yn.answers.value(QStringLiteral("Q2")), false);
    QCOMPARE(yn.answers.value(QStringLiteral("Q3")), true);
}

void TestStructuredAnswers::cacheKey()
{
    ProviderProfile off;
    off.baseUrl = QStringLiteral("http://127.0.0.1:1/v1");
    off.model = QStringLiteral("judge");
    const JudgeRequest plain = request({});
    const JudgeRequest shaped = request(AnswerShape::score(1, 5));

    // Off: the shape changes nothing, and the key is the one every earlier build wrote.
    QCOMPARE(CacheKey::canonical(off, shaped), CacheKey::canonical(off, plain));
    QVERIFY(!CacheKey::canonical(off, shaped).contains(QLatin1String("structured")));
    QCOMPARE(
            CacheKey::canonical(off, plain),
            QStringLiteral(R"({"logprobs":false,"max_tokens":512,"messages":[{"content":"You are a strict judge.",)"
                           R"("role":"system"},{"content":"Rate item #1 from 1 to 5.","role":"user"}],"model":"judge",)"
                           R"("n":1,"provider":"openai","response_format":"","sample_index":0,"seed":null,"stop":[],)"
                           R"("temperature":0.0,"top_logprobs":0,"top_p":1.0})"));

    // On: a request with a shape gets a key of its own per mode and per shape; one without keeps its key.
    QSet<QString> keys{CacheKey::hash(CacheKey::canonical(off, shaped))};
    for (StructuredMode m : {StructuredMode::JsonSchema, StructuredMode::GuidedJson, StructuredMode::LlamaGrammar}) {
        ProviderProfile on = off;
        on.structuredAnswers = m;
        QCOMPARE(CacheKey::canonical(on, plain), CacheKey::canonical(off, plain));
        QVERIFY(CacheKey::canonical(on, shaped).contains(StructuredAnswers::modeName(m)));
        keys << CacheKey::hash(CacheKey::canonical(on, shaped))
             << CacheKey::hash(CacheKey::canonical(on, request(AnswerShape::score(1, 10))))
             << CacheKey::hash(CacheKey::canonical(on, request(AnswerShape::yesNo(3))));
    }
    QCOMPARE(keys.size(), 1 + 3 * 3);

    // Anthropic gets no schema, so its key stays as it was.
    ProviderProfile anthropic = off;
    anthropic.kind = ProviderKind::Anthropic;
    const QString anthropicOff = CacheKey::canonical(anthropic, shaped);
    anthropic.structuredAnswers = StructuredMode::JsonSchema;
    QCOMPARE(CacheKey::canonical(anthropic, shaped), anthropicOff);

    // The engine's key is the same function of the profile.
    ProviderProfile on = off;
    on.structuredAnswers = StructuredMode::JsonSchema;
    QVERIFY(JudgeEngine(on, nullptr).cacheKey(shaped) != JudgeEngine(off, nullptr).cacheKey(shaped));
    QCOMPARE(JudgeEngine(on, nullptr).cacheKey(plain), JudgeEngine(off, nullptr).cacheKey(plain));
}

void TestStructuredAnswers::estimateCountsSchema()
{
    ProviderProfile off;
    off.model = QStringLiteral("judge");
    ProviderProfile on = off;
    on.structuredAnswers = StructuredMode::JsonSchema;
    const JudgeRequest shaped = request(AnswerShape::yesNo(10));
    QCOMPARE(RunContext::approxTokens(shaped, off), RunContext::approxTokens(shaped));
    QCOMPARE(RunContext::approxTokens(request({}), on), RunContext::approxTokens(request({})));
    const qint64 schemaTokens
            = RunContext::approxTokens(StructuredAnswers::bodyFields(on.structuredAnswers, shaped.shape));
    QVERIFY(schemaTokens > 50); // ten questions' enums
    QCOMPARE(RunContext::approxTokens(shaped, on), RunContext::approxTokens(shaped) + schemaTokens);
}

void TestStructuredAnswers::refusalAdapts_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("reason");
    QTest::newRow("openai: response_format")
            << int(StructuredMode::JsonSchema) << QStringLiteral("response_format")
            << QStringLiteral("Invalid parameter: 'response_format' of type 'json_schema' is not supported with this "
                              "model.")
            << QStringLiteral("response_format refused: reading the answers as text");
    QTest::newRow("vllm: guided_json") << int(StructuredMode::GuidedJson) << QStringLiteral("guided_json")
                                       << QStringLiteral("guided_json: extra inputs are not permitted")
                                       << QStringLiteral("guided_json refused: reading the answers as text");
    QTest::newRow("llama.cpp: json_schema") << int(StructuredMode::LlamaGrammar) << QStringLiteral("json_schema")
                                            << QStringLiteral("json_schema is not supported by this server")
                                            << QStringLiteral("json_schema refused: reading the answers as text");
}

void TestStructuredAnswers::refusalAdapts()
{
    QFETCH(int, mode);
    QFETCH(QString, field);
    QFETCH(QString, message);
    QFETCH(QString, reason);
    FakeLlmServer server;
    server.setRecording(true);
    QVERIFY(server.listen());
    server.setJudge([field, message](const QJsonObject &body) {
        FakeAnswer a;
        if (body.contains(field)) {
            a.httpStatus = 400;
            a.errorMessage = message;
        } else {
            a.text = QStringLiteral("Score: 4");
        }
        return a;
    });
    ProviderProfile profile = profileFor(server, 4);
    profile.structuredAnswers = StructuredMode(mode);
    JudgeEngine engine(profile, nullptr);
    engine.setRetryBackoff(1, 5);
    QSignalSpy adapted(&engine, &JudgeEngine::adapted);
    Collector c(engine);
    QVector<JudgeRequest> requests;
    for (int i = 0; i < 4; ++i)
        requests << request(AnswerShape::score(1, 5), QStringLiteral("Rate item #%1 from 1 to 5.").arg(i));
    engine.submit(requests);
    QVERIFY(waitIdle(c));
    QCOMPARE(c.answers.size(), 4);
    for (const JudgeResponse &r : std::as_const(c.answers)) {
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(AnswerParser::readScore(r.text(), ScoreRules{1, 5}).score, 4.0);
        QCOMPARE(r.retries, 0);
    }
    // One refused call teaches it; the others wait for it and go without the schema.
    QVERIFY(engine.adaptations().has(Adaptation::NoStructured));
    QCOMPARE(int(adapted.size()), 1);
    QCOMPARE(adapted.first().first().toString(), reason);
    QCOMPARE(server.requestCount(), 5);
    for (const RecordedRequest &rec : server.recorded().mid(1))
        QVERIFY(!bodyOf(rec).contains(field));

    // Stored and loaded as the other adaptations are.
    const auto loaded = EndpointAdaptations::fromJson(engine.adaptations().toJson());
    QVERIFY(loaded);
    QVERIFY(loaded->has(Adaptation::NoStructured));

    // With structured answers off the same refusal text teaches nothing: the request fails as before.
    const EndpointAdaptations none;
    QVERIFY(!none.refusal(ProviderKind::OpenAI, request(AnswerShape::score(1, 5)), 400,
                          QJsonDocument(QJsonObject{{QStringLiteral("error"),
                                                     QJsonObject{{QStringLiteral("message"), message}}}})
                                  .toJson())
                     .has_value());
}

void TestStructuredAnswers::modeNames()
{
    for (const QString &name : StructuredAnswers::modeNames())
        QCOMPARE(StructuredAnswers::modeName(*StructuredAnswers::modeFromName(name)), name);
    QVERIFY(!StructuredAnswers::modeFromName(QStringLiteral("grammar")));
    QVERIFY(StructuredAnswers::modeFromName(QStringLiteral(" JSON_SCHEMA ")) == StructuredMode::JsonSchema);
}

QTEST_GUILESS_MAIN(TestStructuredAnswers)
#include "TestStructuredAnswers.moc"
