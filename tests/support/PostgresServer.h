#pragma once

#include "util/Result.h"

#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace rubric::test {

/// A throwaway PostgreSQL server for the tests: `initdb` into a temporary folder, `pg_ctl start`
/// on a free loopback port (its unix socket in the same folder), stopped and removed with the
/// object. As root the server binaries run as the `postgres` system user (initdb refuses root).
///
/// Not thread-safe; one per process is enough (shared()). Blocking: it waits for the server's
/// programs, so it is for test set-up only.
class PostgresServer
{
public:
    PostgresServer();
    ~PostgresServer();
    PostgresServer(const PostgresServer &) = delete;
    PostgresServer &operator=(const PostgresServer &) = delete;

    /// Why a server cannot be started on this machine (the binaries, Qt's QPSQL driver or the
    /// `postgres` user missing), naming what to install; empty when it can.
    static QString missing();

    /// Creates a cluster and starts the server; an error carries the server's log.
    Result<void> start();
    bool isRunning() const { return m_running; }
    int port() const { return m_port; }
    /// The superuser's password (the server asks for it on TCP connections).
    static QString password();

    /// Creates a new, empty database and returns its postgresql:// URL (with the password).
    Result<QString> createDatabase();
    /// The URL of the database `name` on this server; without the password when `withPassword`
    /// is false.
    QString url(const QString &name, bool withPassword = true) const;

    /// The process's server, started on first use and stopped when the application quits.
    static Result<PostgresServer *> shared();

private:
    Result<QString> runTool(const QString &tool, const QStringList &args, int timeoutMs = 120000) const;
    void stop();

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_binDir;
    int m_port = 0;
    int m_databases = 0;
    bool m_running = false;
};

/// Where the store tests put a new project: a file `name` in `dir`, or — when the environment
/// sets RUBRIC_TEST_BACKEND=postgresql — a fresh database on the shared server.
bool testsOnPostgres();
Result<QString> newProjectLocation(const QTemporaryDir &dir, const QString &name);
/// What the backend under test says about a table that is not there (the tests look for it in
/// errors, so that a damaged project never reads as an empty one).
QString missingTableMessage(const QString &table);

} // namespace rubric::test

/// Declares `var` as a new project's location (see newProjectLocation); skips the test with
/// the reason when PostgreSQL was asked for and is not installed, fails it when it would not start.
#define RUBRIC_PROJECT_LOCATION(var, dir, name)                                                                        \
    const auto var##Made = ::rubric::test::newProjectLocation(dir, name);                                              \
    if (!var##Made && !::rubric::test::PostgresServer::missing().isEmpty())                                            \
        QSKIP(qPrintable(::rubric::test::PostgresServer::missing()));                                                  \
    QVERIFY2(var##Made.ok(), qPrintable(var##Made.errorString()));                                                     \
    const QString var = var##Made.value()
