#include "PostgresServer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTcpServer>
#include <QUuid>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rubric::test {
namespace {

constexpr const char *superuser = "rubric";

/// The newest /usr/lib/postgresql/<version>/bin with initdb, or the folder of initdb on the PATH;
/// RUBRIC_PG_BINDIR overrides both.
QString findBinDir()
{
    const QString given = qEnvironmentVariable("RUBRIC_PG_BINDIR");
    if (!given.isEmpty())
        return QFile::exists(given + QStringLiteral("/initdb")) ? given : QString();
    QDir lib(QStringLiteral("/usr/lib/postgresql"));
    QStringList versions = lib.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    std::sort(versions.begin(), versions.end(),
              [](const QString &a, const QString &b) { return a.toInt() > b.toInt(); });
    for (const QString &v : versions) {
        const QString bin = lib.filePath(v + QStringLiteral("/bin"));
        if (QFile::exists(bin + QStringLiteral("/initdb")) && QFile::exists(bin + QStringLiteral("/pg_ctl")))
            return bin;
    }
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("initdb"));
    return onPath.isEmpty() ? QString() : QFileInfo(onPath).absolutePath();
}

bool asRoot()
{
    return geteuid() == 0;
}

int freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

PostgresServer *&sharedServer()
{
    static PostgresServer *server = nullptr;
    return server;
}

void stopShared()
{
    delete sharedServer();
    sharedServer() = nullptr;
}

} // namespace

PostgresServer::PostgresServer()
    : m_binDir(findBinDir())
{
}

PostgresServer::~PostgresServer()
{
    stop();
}

QString PostgresServer::missing()
{
    if (findBinDir().isEmpty())
        return QStringLiteral(
                "the PostgreSQL server binaries (initdb, pg_ctl from Debian's postgresql package) are not "
                "installed: run scripts/install-deps.sh");
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL")))
        return QStringLiteral("Qt's PostgreSQL driver QPSQL (Debian's libqt6sql6-psql) is not installed: run "
                              "scripts/install-deps.sh");
    if (asRoot() && !getpwnam("postgres"))
        return QStringLiteral("running as root, and there is no 'postgres' user to run the server as (the postgresql "
                              "package creates it): run scripts/install-deps.sh");
    return {};
}

QString PostgresServer::password()
{
    return QStringLiteral("test-secret");
}

Result<QString> PostgresServer::runTool(const QString &tool, const QStringList &args, int timeoutMs) const
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    // The postgres user may not enter the test's own folder.
    p.setWorkingDirectory(m_dir ? m_dir->path() : QDir::tempPath());
    const QString program = m_binDir + QLatin1Char('/') + tool;
    if (asRoot())
        p.start(QStringLiteral("setpriv"),
                QStringList{QStringLiteral("--reuid=postgres"), QStringLiteral("--regid=postgres"),
                            QStringLiteral("--clear-groups"), program}
                        + args);
    else
        p.start(program, args);
    if (!p.waitForStarted(30000))
        return makeError(QStringLiteral("cannot start %1: %2").arg(tool, p.errorString()));
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        return makeError(QStringLiteral("%1 did not finish in %2 s").arg(tool).arg(timeoutMs / 1000));
    }
    const QString output = QString::fromLocal8Bit(p.readAll());
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return makeError(QStringLiteral("%1 failed (exit %2): %3").arg(tool).arg(p.exitCode()).arg(output));
    return output;
}

Result<void> PostgresServer::start()
{
    if (m_running)
        return {};
    if (const QString why = missing(); !why.isEmpty())
        return makeError(why);
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/rubric-pg-XXXXXX"));
    if (!m_dir->isValid())
        return makeError(QStringLiteral("cannot make a temporary folder: %1").arg(m_dir->errorString()));
    const QString pwFile = m_dir->filePath(QStringLiteral("pw"));
    {
        QFile f(pwFile);
        if (!f.open(QIODevice::WriteOnly) || f.write(password().toUtf8() + '\n') < 0)
            return makeError(QStringLiteral("cannot write %1").arg(pwFile));
    }
    if (asRoot()) {
        const passwd *pg = getpwnam("postgres");
        for (const QString &path : {m_dir->path(), pwFile})
            if (::chown(QFile::encodeName(path).constData(), pg->pw_uid, pg->pw_gid) != 0)
                return makeError(QStringLiteral("cannot hand %1 to the postgres user").arg(path));
    }
    const QString data = m_dir->filePath(QStringLiteral("data"));
    // Password checks on TCP (as a team server has them), trust on the folder's own socket.
    if (auto r = runTool(QStringLiteral("initdb"),
                         {QStringLiteral("-D"), data, QStringLiteral("-U"), QString::fromLatin1(superuser),
                          QStringLiteral("--pwfile=") + pwFile, QStringLiteral("--auth-host=scram-sha-256"),
                          QStringLiteral("--auth-local=trust"), QStringLiteral("-E"), QStringLiteral("UTF8"),
                          QStringLiteral("--locale=C"), QStringLiteral("--no-sync")});
        !r)
        return r.error();
    QString lastError;
    for (int attempt = 0; attempt < 5; ++attempt) {
        m_port = freePort();
        if (m_port == 0)
            return makeError(QStringLiteral("no free loopback port"));
        const QString options = QStringLiteral("-c listen_addresses=127.0.0.1 -p %1 -k %2 -c fsync=off "
                                               "-c synchronous_commit=off -c full_page_writes=off "
                                               "-c max_connections=300 -c shared_buffers=16MB "
                                               // small /dev/shm in containers: no POSIX shared memory
                                               "-c dynamic_shared_memory_type=mmap "
                                               "-c max_parallel_workers_per_gather=0")
                                        .arg(m_port)
                                        .arg(m_dir->path());
        auto r = runTool(QStringLiteral("pg_ctl"),
                         {QStringLiteral("-D"), data, QStringLiteral("-l"), m_dir->filePath(QStringLiteral("log")),
                          QStringLiteral("-w"), QStringLiteral("-t"), QStringLiteral("60"), QStringLiteral("-o"),
                          options, QStringLiteral("start")});
        if (r) {
            m_running = true;
            return {};
        }
        QFile log(m_dir->filePath(QStringLiteral("log")));
        lastError = r.errorString()
                    + (log.open(QIODevice::ReadOnly)
                               ? QStringLiteral("\nserver log:\n") + QString::fromUtf8(log.readAll())
                               : QString());
    }
    return makeError(QStringLiteral("the PostgreSQL server would not start: ") + lastError);
}

void PostgresServer::stop()
{
    if (!m_running)
        return;
    m_running = false;
    (void)runTool(QStringLiteral("pg_ctl"),
                  {QStringLiteral("-D"), m_dir->filePath(QStringLiteral("data")), QStringLiteral("-m"),
                   QStringLiteral("immediate"), QStringLiteral("-w"), QStringLiteral("stop")});
    m_dir.reset();
}

QString PostgresServer::url(const QString &name, bool withPassword) const
{
    return QStringLiteral("postgresql://%1%2@127.0.0.1:%3/%4")
            .arg(QString::fromLatin1(superuser), withPassword ? QLatin1Char(':') + password() : QString())
            .arg(m_port)
            .arg(name);
}

Result<QString> PostgresServer::createDatabase()
{
    if (!m_running)
        return makeError(QStringLiteral("the PostgreSQL server is not running"));
    const QString name = QStringLiteral("t%1_%2").arg(QCoreApplication::applicationPid()).arg(++m_databases);
    const QString connection = QStringLiteral("rubric-test-admin-") + QUuid::createUuid().toString(QUuid::Id128);
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connection);
        db.setHostName(QStringLiteral("127.0.0.1"));
        db.setPort(m_port);
        db.setUserName(QString::fromLatin1(superuser));
        db.setPassword(password());
        db.setDatabaseName(QStringLiteral("postgres"));
        if (!db.open()) {
            error = db.lastError().text();
        } else {
            QSqlQuery q(db);
            // A name the fixture makes: letters, digits and '_' only, so it needs no quoting.
            if (!q.exec(QStringLiteral("CREATE DATABASE ") + name))
                error = q.lastError().text();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(connection);
    if (!error.isEmpty())
        return makeError(QStringLiteral("cannot create a test database: ") + error);
    return url(name);
}

Result<PostgresServer *> PostgresServer::shared()
{
    if (!sharedServer()) {
        auto *server = new PostgresServer;
        if (auto r = server->start(); !r) {
            delete server;
            return r.error();
        }
        sharedServer() = server;
        qAddPostRoutine(stopShared);
    }
    return sharedServer();
}

bool testsOnPostgres()
{
    return qEnvironmentVariable("RUBRIC_TEST_BACKEND") == QLatin1String("postgresql");
}

Result<QString> newProjectLocation(const QTemporaryDir &dir, const QString &name)
{
    if (!testsOnPostgres())
        return dir.filePath(name);
    auto server = PostgresServer::shared();
    if (!server)
        return server.error();
    return (*server)->createDatabase();
}

QString missingTableMessage(const QString &table)
{
    return testsOnPostgres() ? QStringLiteral("relation \"%1\" does not exist").arg(table)
                             : QStringLiteral("no such table: ") + table;
}

} // namespace rubric::test
