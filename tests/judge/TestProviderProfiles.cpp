#include "judge/EndpointSecrets.h"
#include "judge/ProviderProfiles.h"
#include "judge/StructuredAnswers.h"
#include "runs/RunConfig.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

namespace {
QByteArray test_readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

class TestProviderProfiles : public QObject
{
    Q_OBJECT
private slots:
    void roundTrips();
    void replicasRoundTrip();
    void structuredAnswersRoundTrip_data();
    void structuredAnswersRoundTrip();
    void refusesKeysInHeaders();
    void refusesCredentialsInTheBaseUrl();
    void headerValuesAreNotStored();
    void keychainReferencesAreStored();
};

void TestProviderProfiles::roundTrips()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("settings.ini"));
    {
        ProviderProfiles profiles(file);
        ProviderProfile p;
        p.name = QStringLiteral("local vLLM");
        p.kind = ProviderKind::Anthropic;
        p.baseUrl = QStringLiteral("http://127.0.0.1:8000/v1");
        p.model = QStringLiteral("qwen");
        p.apiKeyEnv = QStringLiteral("VLLM_KEY");
        p.headers = {{QStringLiteral("X-Org"), QStringLiteral("env:LAB_ORG")}};
        p.concurrency = 64;
        p.requestsPerMinute = 600;
        p.pricePerMillionIn = 0.5;
        p.maxRetries = 3;
        p.reasoningBudget = 8192;
        QVERIFY(profiles.save(p).ok());
        profiles.sync();
    }
    ProviderProfiles again(file);
    QCOMPARE(again.names(), QStringList{QStringLiteral("local vLLM")});
    const auto p = again.load(QStringLiteral("local vLLM"));
    QVERIFY(p.has_value());
    QCOMPARE(p->kind, ProviderKind::Anthropic);
    QCOMPARE(p->baseUrl, QStringLiteral("http://127.0.0.1:8000/v1"));
    QCOMPARE(p->apiKeyEnv, QStringLiteral("VLLM_KEY"));
    QCOMPARE(p->headers.value(QStringLiteral("X-Org")).toString(), QStringLiteral("env:LAB_ORG"));
    QCOMPARE(p->concurrency, 64);
    QCOMPARE(p->requestsPerMinute, 600.0);
    QCOMPARE(p->pricePerMillionIn, 0.5);
    QCOMPARE(p->maxRetries, 3);
    QCOMPARE(p->reasoningBudget, 8192);
    QVERIFY(!again.load(QStringLiteral("other")).has_value());
    again.remove(QStringLiteral("local vLLM"));
    QVERIFY(again.names().isEmpty());
}

void TestProviderProfiles::structuredAnswersRoundTrip_data()
{
    QTest::addColumn<int>("mode");
    for (StructuredMode m :
         {StructuredMode::Off, StructuredMode::JsonSchema, StructuredMode::GuidedJson, StructuredMode::LlamaGrammar})
        QTest::newRow(qPrintable(StructuredAnswers::modeName(m))) << int(m);
}

void TestProviderProfiles::structuredAnswersRoundTrip()
{
    QFETCH(int, mode);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("settings.ini"));
    ProviderProfile p;
    p.name = QStringLiteral("vllm");
    p.baseUrl = QStringLiteral("http://127.0.0.1:8000/v1");
    p.model = QStringLiteral("qwen");
    p.structuredAnswers = StructuredMode(mode);
    {
        ProviderProfiles profiles(file);
        QVERIFY(profiles.save(p).ok());
        profiles.sync();
    }
    // Off is not written at all: a profile saved without it reads as it always did.
    QCOMPARE(test_readFile(file).contains("structuredAnswers"), p.structuredAnswers != StructuredMode::Off);
    const auto loaded = ProviderProfiles(file).load(p.name);
    QVERIFY(loaded.has_value());
    QCOMPARE(int(loaded->structuredAnswers), mode);

    // A stored run's configuration keeps it too, and names it only when it is on.
    const QVariantMap stored = RunConfig::profileToMap(p);
    QCOMPARE(stored.contains(QStringLiteral("structured")), p.structuredAnswers != StructuredMode::Off);
    const auto back = RunConfig::profileFromMap(stored, QStringLiteral("evaluator"));
    QVERIFY2(back.ok(), qPrintable(back.errorString()));
    QCOMPARE(int(back->structuredAnswers), mode);
}

void TestProviderProfiles::replicasRoundTrip()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("settings.ini"));
    {
        ProviderProfiles profiles(file);
        ProviderProfile p;
        p.name = QStringLiteral("fleet");
        p.baseUrl = QStringLiteral("http://gpu1:8000/v1");
        p.replicaUrls = {QStringLiteral("http://gpu2:8000/v1"), QStringLiteral("http://gpu3:8000/v1")};
        p.replicaWeights = {1, 2, 0.5};
        p.model = QStringLiteral("qwen");
        QVERIFY(profiles.save(p).ok());
        // A credential in any replica's URL is refused like one in the base URL.
        p.name = QStringLiteral("leaky");
        p.replicaUrls = {QStringLiteral("http://user:sk-pw-998877@gpu2:8000/v1")};
        const auto refused = profiles.save(p);
        QVERIFY(!refused.ok());
        QVERIFY(!refused.errorString().contains(QStringLiteral("sk-pw-998877")));
        profiles.sync();
    }
    ProviderProfiles again(file);
    QCOMPARE(again.names(), QStringList{QStringLiteral("fleet")});
    const auto p = again.load(QStringLiteral("fleet"));
    QVERIFY(p.has_value());
    QCOMPARE(p->baseUrls().size(), 3);
    QCOMPARE(p->replicaUrls.value(1), QStringLiteral("http://gpu3:8000/v1"));
    QCOMPARE(p->replicaWeights, (QVector<double>{1, 2, 0.5}));
    QVERIFY(!test_readFile(file).contains("sk-pw-998877"));
}

void TestProviderProfiles::refusesKeysInHeaders()
{
    QTemporaryDir dir;
    ProviderProfiles profiles(dir.filePath(QStringLiteral("s.ini")));
    ProviderProfile p;
    p.name = QStringLiteral("x");
    p.baseUrl = QStringLiteral("http://h/v1");
    p.headers = {{QStringLiteral("Authorization"), QStringLiteral("Bearer sk-123")}};
    const auto r = profiles.save(p);
    QVERIFY(!r.ok());
    QVERIFY(!r.errorString().contains(QStringLiteral("sk-123")));
}

void TestProviderProfiles::refusesCredentialsInTheBaseUrl()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("s.ini"));
    ProviderProfiles profiles(file);
    ProviderProfile p;
    p.name = QStringLiteral("x");
    p.model = QStringLiteral("m");
    for (const QString &url :
         {QStringLiteral("https://bob:sk-url-secret@api.example.com/v1"),
          QStringLiteral("https://api.example.com/v1?key=sk-url-secret"),
          QStringLiteral("https://api.example.com/v1?api_key=sk-url-secret"),
          QStringLiteral("https://api.example.com/v1?api-version=2024-06-01&access_token=sk-url-secret")}) {
        p.baseUrl = url;
        const auto r = profiles.save(p);
        QVERIFY2(!r.ok(), qPrintable(url));
        QCOMPARE(r.error().field, QStringLiteral("baseUrl"));
        QVERIFY(r.errorString().contains(QStringLiteral("environment variable")));
        QVERIFY(r.errorString().contains(QStringLiteral("keychain")));
        QVERIFY(!r.errorString().contains(QStringLiteral("sk-url-secret")));
    }
    profiles.sync();
    QVERIFY(!test_readFile(file).contains("sk-url-secret"));
    QVERIFY(profiles.names().isEmpty());
    // Other query parameters (Azure's api-version) are fine.
    p.baseUrl = QStringLiteral("https://x.openai.azure.com/openai/deployments/d?api-version=2024-06-01");
    QVERIFY(profiles.save(p).ok());
}

void TestProviderProfiles::headerValuesAreNotStored()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("s.ini"));
    ProviderProfiles profiles(file);
    ProviderProfile p;
    p.name = QStringLiteral("x");
    p.baseUrl = QStringLiteral("http://h/v1");
    p.headers = {{QStringLiteral("X-Team-Token"), QStringLiteral("team-secret-42")}};
    const auto r = profiles.save(p);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().field, QStringLiteral("headers"));
    QVERIFY(r.errorString().contains(QStringLiteral("env:")));
    QVERIFY(!r.errorString().contains(QStringLiteral("team-secret-42")));
    p.headers = {{QStringLiteral("X-Team-Token"), QStringLiteral("env:TEAM_TOKEN")}};
    QVERIFY(profiles.save(p).ok());
    profiles.sync();
    const QByteArray stored = test_readFile(file);
    QVERIFY(!stored.contains("team-secret-42"));
    QCOMPARE(ProviderProfiles(file).load(QStringLiteral("x"))->headers.value(QStringLiteral("X-Team-Token")).toString(),
             QStringLiteral("env:TEAM_TOKEN"));
}

void TestProviderProfiles::keychainReferencesAreStored()
{
    // Issue 18.9: a header value may live in the keychain; the profile stores the reference.
    using namespace EndpointSecrets;
    QCOMPARE(keychainName(QStringLiteral(" keychain:lab:X-Team ")), QStringLiteral("lab:X-Team"));
    QCOMPARE(keychainName(QStringLiteral("env:X")), QString());
    QCOMPARE(keychainName(QStringLiteral("keychainless")), QString());
    QVERIFY(isReference(QStringLiteral("keychain:lab:X-Team")));
    QVERIFY(!isReference(QStringLiteral("keychain:")));
    QCOMPARE(keychainNameFor(QStringLiteral("lab"), QStringLiteral("X-Team")), QStringLiteral("lab:X-Team"));
    QCOMPARE(keychainAccount(QStringLiteral("lab:X-Team")), QStringLiteral("header:lab:X-Team"));
    const QVariantMap headers{{QStringLiteral("X-Team"), QStringLiteral("keychain:lab:X-Team")},
                              {QStringLiteral("X-Org"), QStringLiteral("env:RUBRIC_TEST_ORG")}};
    const auto fromKeychain = keychainHeaders(headers);
    QCOMPARE(fromKeychain.size(), 1);
    QCOMPARE(fromKeychain[0].first, QStringLiteral("X-Team"));
    QCOMPARE(fromKeychain[0].second, QStringLiteral("header:lab:X-Team"));
    QVERIFY(checkHeaders(headers).ok());
    QCOMPARE(storableHeaders(headers), headers);
    // The environment's headers are resolved at once; the keychain's are left to the engine.
    qputenv("RUBRIC_TEST_ORG", "org-7");
    const auto resolved = resolveHeaders(headers);
    QVERIFY2(resolved.ok(), qPrintable(resolved.errorString()));
    QCOMPARE(resolved->size(), 1);
    QCOMPARE(resolved->at(0).first, QByteArray("X-Org"));
    QCOMPARE(resolved->at(0).second, QByteArray("org-7"));
    qunsetenv("RUBRIC_TEST_ORG");

    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("s.ini"));
    ProviderProfiles profiles(file);
    ProviderProfile p;
    p.name = QStringLiteral("lab");
    p.baseUrl = QStringLiteral("http://h/v1");
    p.headers = headers;
    QVERIFY2(profiles.save(p).ok(), qPrintable(profiles.save(p).errorString()));
    profiles.sync();
    QCOMPARE(ProviderProfiles(file).load(QStringLiteral("lab"))->headers, headers);
    // A literal value is still refused, and the message says where it may go.
    p.headers = {{QStringLiteral("X-Team"), QStringLiteral("team-secret-42")}};
    const auto refused = profiles.save(p);
    QVERIFY(!refused.ok());
    QVERIFY(refused.errorString().contains(QStringLiteral("keychain:")));
    QVERIFY(!refused.errorString().contains(QStringLiteral("team-secret-42")));
}

QTEST_GUILESS_MAIN(TestProviderProfiles)
#include "TestProviderProfiles.moc"
