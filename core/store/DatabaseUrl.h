#pragma once

#include "util/Result.h"

#include <QString>
#include <QStringList>

namespace rubric {

/// Where a team project lives: a `postgresql://user[:password]@host[:port]/database[?key=value&…]`
/// URL, parsed into the fields Qt's QPSQL driver takes.
///
/// A value type. The password is kept only to open connections: `redacted()` (the form every
/// message, title and stored setting uses) never carries it. Without a password in the URL,
/// libpq reads PGPASSWORD or ~/.pgpass as usual.
struct DatabaseUrl
{
    QString user;
    QString password;
    QString host;
    int port = 5432;
    QString database;
    /// libpq connection parameters from the query string, as QPSQL's "key=value;…" options.
    QString options;
    /// What the URL asks for that a user should know (e.g. sslmode=disable to a remote host).
    QStringList warnings;

    /// Whether `text` names a PostgreSQL database rather than a project file.
    static bool isDatabaseUrl(const QString &text);
    /// Parses a postgresql:// (or postgres://) URL; an error names the part that is wrong and
    /// never repeats the password. A URL without a password gets the one an earlier URL of this
    /// process gave for the same place (kept in memory only), so that path() opens it again.
    static Result<DatabaseUrl> parse(const QString &text);

    /// The URL without its password: postgresql://user@host:port/database?…
    QString redacted() const;
};

} // namespace rubric
