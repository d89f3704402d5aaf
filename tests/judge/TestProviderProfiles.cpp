#include "judge/ProviderProfiles.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

class TestProviderProfiles : public QObject
{
    Q_OBJECT
private slots:
    void roundTrips();
    void refusesKeysInHeaders();
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
        p.headers = {{QStringLiteral("X-Org"), QStringLiteral("lab")}};
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
    QCOMPARE(p->headers.value(QStringLiteral("X-Org")).toString(), QStringLiteral("lab"));
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

QTEST_GUILESS_MAIN(TestProviderProfiles)
#include "TestProviderProfiles.moc"
