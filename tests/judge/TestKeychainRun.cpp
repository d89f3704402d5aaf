// Issue 18.9 end to end with a real secret service: a header value kept in the OS keychain
// (QtKeychain → D-Bus Secret Service, gnome-keyring under test) is read when a run starts, sent
// to the endpoint, and never written to the project (runs.config, cache, ledger, issues) nor
// printed. Without a session bus the test skips; ctest's test_keychain_run_secret_service runs
// it inside a private D-Bus session with an unlocked gnome-keyring (with_secret_service.sh),
// where a missing service is a failure, not a skip.

#include "FakeLlmServer.h"
#include "ProjectTestAccess.h"
#include "judge/ApiKeySource.h"
#include "judge/EndpointSecrets.h"
#include "store/Project.h"
#include "store/SqlUtil.h"

#include <QDir>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUuid>
#include <QtTest>

using namespace rubric;

namespace {

QByteArray filesOf(const QTemporaryDir &dir)
{
    QByteArray all;
    for (const QString &name : QDir(dir.path()).entryList(QDir::Files)) {
        QFile f(dir.filePath(name));
        if (f.open(QIODevice::ReadOnly))
            all += f.readAll();
    }
    return all;
}

} // namespace

class TestKeychainRun : public QObject
{
    Q_OBJECT
private slots:
    void headerFromTheKeychainIsSentAndNeverStored();
};

/// No secret service to use: a skip, or a failure under with_secret_service.sh (which promises one).
#define SKIP_WITHOUT_SECRET_SERVICE(why)                                                                               \
    do {                                                                                                               \
        if (qEnvironmentVariableIsSet("RUBRIC_REQUIRE_SECRET_SERVICE"))                                                \
            QFAIL(qPrintable(QStringLiteral("with_secret_service.sh promised a secret service, but: ") + (why)));      \
        QSKIP(qPrintable(why));                                                                                        \
    } while (false)

void TestKeychainRun::headerFromTheKeychainIsSentAndNeverStored()
{
    const QString cli = qEnvironmentVariable("RUBRIC_CLI");
    if (cli.isEmpty())
        QSKIP("RUBRIC_CLI is not set (run through ctest)");
    if (!ApiKeySource::keychainAvailable())
        SKIP_WITHOUT_SECRET_SERVICE(QStringLiteral("this build has no QtKeychain"));
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        SKIP_WITHOUT_SECRET_SERVICE(
                QStringLiteral("no D-Bus session bus (ctest's test_keychain_run_secret_service runs this with one)"));

    // The secret goes into the keychain as the profile editor puts it there.
    const QString tag = QUuid::createUuid().toString(QUuid::Id128);
    const QByteArray secret = "kc-secret-" + tag.toLatin1();
    const QString name
            = EndpointSecrets::keychainNameFor(QStringLiteral("rubric-test-") + tag, QStringLiteral("X-Team"));
    {
        ApiKeySource keychain(ProviderProfile{});
        QSignalSpy stored(&keychain, &ApiKeySource::stored);
        QSignalSpy failed(&keychain, &ApiKeySource::failed);
        keychain.store(EndpointSecrets::keychainAccount(name), secret);
        QTRY_VERIFY_WITH_TIMEOUT(stored.size() + failed.size() > 0, 30000);
        if (!failed.isEmpty())
            SKIP_WITHOUT_SECRET_SERVICE(QStringLiteral("no secret service: ") + failed.first().first().toString());
    }

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("k.rubric"));
    {
        auto project = Project::open(path);
        QVERIFY2(project, qPrintable(project.errorString()));
        QVector<Item> items;
        QHash<QString, SplitRole> split;
        for (int i = 0; i < 4; ++i) {
            Item it;
            it.id = QStringLiteral("i%1").arg(i);
            it.source = QStringLiteral("source %1").arg(i);
            it.output = QStringLiteral("output %1").arg(i);
            items.append(it);
            split.insert(it.id, SplitRole::Test);
        }
        QVERIFY((*project)->addItems(items).ok());
        QVERIFY((*project)
                        ->upsertAspect(Aspect{QStringLiteral("fluency"), QStringLiteral("Well written."), 1, 5})
                        .ok());
        QVERIFY((*project)->setSplit(split).ok());
    }

    test::FakeLlmServer server;
    QVERIFY(server.listen());
    server.setRecording(true);
    const QString reference = QStringLiteral("keychain:") + name;
    QProcess run;
    run.start(cli,
              {QStringLiteral("run"), QStringLiteral("--project"), path, QStringLiteral("--judge"),
               QStringLiteral("kc"), QStringLiteral("--method"), QStringLiteral("geval"), QStringLiteral("--aspect"),
               QStringLiteral("fluency"), QStringLiteral("--base-url"), server.baseUrl(), QStringLiteral("--model"),
               QStringLiteral("fake-judge"), QStringLiteral("--samples"), QStringLiteral("2"),
               QStringLiteral("--header"), QStringLiteral("X-Team=") + reference, QStringLiteral("--json")});
    QVERIFY(run.waitForStarted());
    QSignalSpy exited(&run, &QProcess::finished);
    QVERIFY(exited.wait(120000)); // the fake server answers from this thread's event loop
    const QByteArray out = run.readAllStandardOutput(), err = run.readAllStandardError();
    QVERIFY2(run.exitCode() == 0, err.constData());

    // Sent: every request carried the value from the keychain, none the reference.
    const auto requests = server.recorded();
    QVERIFY2(!requests.isEmpty(), QByteArray(out + err).constData());
    for (const auto &r : requests)
        QCOMPARE(r.headers.value("x-team"), secret);

    // Stored: the reference, never the value (runs.config, cache, ledger, issues: the whole file
    // and its WAL), and nothing printed holds it.
    {
        auto project = Project::open(path, Project::OpenMode::OpenExisting);
        QVERIFY(project);
        QSqlQuery q(ProjectTestAccess::database(*(*project)));
        QVERIFY(sql::firstRow(q, QStringLiteral("SELECT config FROM runs WHERE name = 'kc'")).value());
        const QString config = q.value(0).toString();
        QVERIFY2(config.contains(reference), qPrintable(config));
        QVERIFY2(!config.contains(QString::fromLatin1(secret)), qPrintable(config));
    }
    const QByteArray files = filesOf(dir);
    QVERIFY(files.contains(reference.toUtf8()));
    QVERIFY(!files.contains(secret));
    QVERIFY(!out.contains(secret));
    QVERIFY(!err.contains(secret));
}

QTEST_GUILESS_MAIN(TestKeychainRun)
#include "TestKeychainRun.moc"
