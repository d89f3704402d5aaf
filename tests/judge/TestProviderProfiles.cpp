#include "judge/ProviderProfiles.h"

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
    void refusesKeysInHeaders();
    void refusesCredentialsInTheBaseUrl();
    void headerValuesAreNotStored();
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
    QVERIFY(!again.load(QStringLiteral("other")).has_value());
    again.remove(QStringLiteral("local vLLM"));
    QVERIFY(again.names().isEmpty());
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

QTEST_GUILESS_MAIN(TestProviderProfiles)
#include "TestProviderProfiles.moc"
