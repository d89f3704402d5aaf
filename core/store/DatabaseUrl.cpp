#include "DatabaseUrl.h"

#include <QCoreApplication>
#include <QHash>
#include <QMutex>
#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("DatabaseUrl", text);
}

bool hasScheme(const QString &text)
{
    return text.startsWith(QLatin1String("postgresql://"), Qt::CaseInsensitive)
           || text.startsWith(QLatin1String("postgres://"), Qt::CaseInsensitive);
}

/// The URL as typed with its password replaced, for messages about a URL that did not parse.
/// A password typed raw may hold '/' and '@' itself: the user information runs from the scheme
/// to the LAST '@' before the query, and the password from the first ':' in it.
QString withoutPassword(const QString &text)
{
    static const QRegularExpression parameter(QStringLiteral("([?&]password=)[^&#]*"),
                                              QRegularExpression::CaseInsensitiveOption);
    QString out = text;
    const qsizetype scheme = out.indexOf(QLatin1String("://"));
    if (scheme >= 0) {
        const qsizetype from = scheme + 3;
        qsizetype query = out.indexOf(QLatin1Char('?'), from);
        if (query < 0)
            query = out.size();
        const qsizetype at = out.lastIndexOf(QLatin1Char('@'), query - 1);
        const qsizetype colon = out.indexOf(QLatin1Char(':'), from);
        if (at > from && colon >= from && colon < at)
            out.replace(colon + 1, at - colon - 1, QStringLiteral("***"));
    }
    out.replace(parameter, QStringLiteral("\\1***"));
    return out;
}

/// Passwords given in a URL during this process, by the URL without them: the studio's report
/// job, comparisons and recent projects open a project again by its path(), which has none.
/// Kept in memory only, never written anywhere.
QHash<QString, QString> &rememberedPasswords(QMutex *&mutex)
{
    static QMutex lock;
    static QHash<QString, QString> passwords;
    mutex = &lock;
    return passwords;
}

} // namespace

bool DatabaseUrl::isDatabaseUrl(const QString &text)
{
    return hasScheme(text.trimmed());
}

Result<DatabaseUrl> DatabaseUrl::parse(const QString &text)
{
    const QString shown = withoutPassword(text.trimmed());
    if (!hasScheme(text.trimmed()))
        return makeError(tr("a team database URL starts with postgresql://"), shown, 0, QStringLiteral("url"));
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!url.isValid())
        // QUrl's own message repeats the whole URL, password and all.
        return makeError(tr("not a valid URL: check the port (1–65535) and write characters such as @ : / in "
                            "the user, password or database name as %XX"),
                         shown, 0, QStringLiteral("url"));
    DatabaseUrl out;
    out.user = url.userName(QUrl::FullyDecoded);
    out.password = url.password(QUrl::FullyDecoded);
    out.host = url.host(QUrl::FullyDecoded);
    if (out.host.isEmpty())
        return makeError(tr("the URL names no host (postgresql://user@host/database)"), shown, 0,
                         QStringLiteral("host"));
    if (out.user.isEmpty())
        return makeError(tr("the URL names no user (postgresql://user@host/database)"), shown, 0,
                         QStringLiteral("user"));
    out.port = url.port(5432);
    if (out.port <= 0 || out.port > 65535)
        return makeError(tr("the port must be between 1 and 65535"), shown, 0, QStringLiteral("port"));
    out.database = url.path(QUrl::FullyDecoded);
    if (out.database.startsWith(QLatin1Char('/')))
        out.database.remove(0, 1);
    if (out.database.isEmpty() || out.database.contains(QLatin1Char('/')))
        return makeError(tr("the URL must name one database after the host (postgresql://user@host/database)"), shown,
                         0, QStringLiteral("database"));
    if (url.hasFragment())
        return makeError(tr("a database URL has no #fragment"), shown, 0, QStringLiteral("url"));

    // Query parameters go to libpq as they are (sslmode, connect_timeout, application_name …);
    // QPSQL joins them with ';' and libpq splits on spaces, so neither may appear in them.
    static const QRegularExpression key(QStringLiteral("^[a-z_]+$"));
    static const QRegularExpression value(QStringLiteral("^[^;\\s'\"\\\\]+$"));
    QStringList options;
    for (const auto &[k, v] : QUrlQuery(url).queryItems(QUrl::FullyDecoded)) {
        if (!key.match(k).hasMatch())
            return makeError(tr("'%1' is not a connection parameter name").arg(k), shown, 0, QStringLiteral("query"));
        if (k == QLatin1String("password") || k == QLatin1String("user") || k == QLatin1String("host")
            || k == QLatin1String("port") || k == QLatin1String("dbname"))
            return makeError(tr("give the %1 in the URL itself, not as ?%1=").arg(k), shown, 0, k);
        // Parameters that connect elsewhere than the URL's host, or read the password from
        // elsewhere than ~/.pgpass for that host: a crafted URL could send the password libpq finds
        // for a trusted host to another address.
        if (k == QLatin1String("hostaddr") || k == QLatin1String("passfile") || k == QLatin1String("service")
            || k == QLatin1String("servicefile"))
            return makeError(tr("'%1' is not accepted in a team database URL: it would connect to, or read the "
                                "password from, somewhere the URL does not show; give the host in the URL itself")
                                     .arg(k),
                             shown, 0, k);
        if (k == QLatin1String("sslmode") && v == QLatin1String("disable") && out.host != QLatin1String("localhost")
            && out.host != QLatin1String("127.0.0.1") && out.host != QLatin1String("::1"))
            out.warnings << tr("sslmode=disable: the password and every score travel unencrypted to %1").arg(out.host);
        if (!value.match(v).hasMatch())
            return makeError(tr("the value of '%1' may not be empty or hold spaces, quotes or ';'").arg(k), shown, 0,
                             k);
        options.append(k + QLatin1Char('=') + v);
    }
    out.options = options.join(QLatin1Char(';'));
    QMutex *mutex = nullptr;
    QHash<QString, QString> &passwords = rememberedPasswords(mutex);
    QMutexLocker lock(mutex);
    if (!out.password.isEmpty())
        passwords.insert(out.redacted(), out.password);
    else
        out.password = passwords.value(out.redacted());
    return out;
}

QString DatabaseUrl::redacted() const
{
    QUrl url;
    url.setScheme(QStringLiteral("postgresql"));
    url.setUserName(user);
    url.setHost(host);
    if (port != 5432)
        url.setPort(port);
    url.setPath(QLatin1Char('/') + database);
    QString out = url.toString();
    if (!options.isEmpty())
        out += QLatin1Char('?') + QString(options).replace(QLatin1Char(';'), QLatin1Char('&'));
    return out;
}

} // namespace rubric
