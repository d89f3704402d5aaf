#include "judge/EndpointSecrets.h"

#include <QCoreApplication>
#include <QUrl>
#include <QUrlQuery>

namespace rubric::EndpointSecrets {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("rubric::EndpointSecrets", text);
}

bool keyLikeParameter(const QString &name)
{
    QString n = name.toLower();
    n.remove(QLatin1Char('-')).remove(QLatin1Char('_'));
    static const QStringList exact
            = {QStringLiteral("key"),         QStringLiteral("apikey"),    QStringLiteral("token"),
               QStringLiteral("accesstoken"), QStringLiteral("authtoken"), QStringLiteral("secret"),
               QStringLiteral("password"),    QStringLiteral("pass"),      QStringLiteral("pwd"),
               QStringLiteral("auth"),        QStringLiteral("sig"),       QStringLiteral("signature"),
               QStringLiteral("code"),        QStringLiteral("bearer")};
    return exact.contains(n) || n.endsWith(QLatin1String("key")) || n.endsWith(QLatin1String("token"))
           || n.endsWith(QLatin1String("secret")) || n.endsWith(QLatin1String("password"));
}

bool keyHeader(const QString &name)
{
    const QString h = name.toLower();
    return h == QLatin1String("authorization") || h == QLatin1String("x-api-key") || h == QLatin1String("api-key");
}

} // namespace

Result<void> checkBaseUrl(const QString &url)
{
    const QUrl u(url.trimmed());
    const QString where = tr("put the key in an environment variable (the profile's key variable, --api-key-env) "
                             "or in the keychain instead");
    if (!u.userInfo().isEmpty())
        return makeError(
                tr("the base URL holds a user name or password (user:pass@); it is not used or stored: %1").arg(where),
                {}, 0, QStringLiteral("baseUrl"));
    const auto items = QUrlQuery(u).queryItems();
    for (const auto &[name, value] : items)
        if (keyLikeParameter(name))
            return makeError(tr("the base URL holds a credential in its query parameter '%1'; it is not used or "
                                "stored: %2")
                                     .arg(name, where),
                             {}, 0, QStringLiteral("baseUrl"));
    return {};
}

QString stripUrl(const QString &url)
{
    QUrl u(url.trimmed());
    if (!u.isValid())
        return url.trimmed();
    u.setUserInfo(QString());
    if (u.hasQuery()) {
        QUrlQuery q(u);
        auto items = q.queryItems();
        for (auto &[name, value] : items)
            if (keyLikeParameter(name))
                value = QStringLiteral("[redacted]");
        q.setQueryItems(items);
        u.setQuery(q);
    }
    return u.toString();
}

bool isReference(const QString &value)
{
    return !envVariable(value).isEmpty() || !keychainName(value).isEmpty();
}

QString keychainName(const QString &value)
{
    const QString v = value.trimmed();
    if (!v.startsWith(QLatin1String("keychain:")))
        return {};
    return v.mid(9).trimmed();
}

QString keychainAccount(const QString &name)
{
    return QStringLiteral("header:") + name;
}

QString keychainNameFor(const QString &profile, const QString &header)
{
    return profile.trimmed() + QLatin1Char(':') + header.trimmed();
}

QList<QPair<QString, QString>> keychainHeaders(const QVariantMap &headers)
{
    QList<QPair<QString, QString>> out;
    for (auto it = headers.cbegin(); it != headers.cend(); ++it)
        if (const QString name = keychainName(it.value().toString()); !name.isEmpty())
            out.append({it.key(), keychainAccount(name)});
    return out;
}

QString envVariable(const QString &value)
{
    const QString v = value.trimmed();
    if (!v.startsWith(QLatin1String("env:")))
        return {};
    return v.mid(4).trimmed();
}

Result<void> checkHeaders(const QVariantMap &headers)
{
    for (auto it = headers.cbegin(); it != headers.cend(); ++it) {
        if (keyHeader(it.key()))
            return makeError(tr("the API key is not stored in a profile; name an environment variable or use the "
                                "keychain"),
                             {}, 0, QStringLiteral("headers"));
        if (!isReference(it.value().toString()))
            return makeError(tr("the value of the header '%1' is not stored; give it as %1=env:VARIABLE and set "
                                "the environment variable VARIABLE to the value, or keep it in the keychain "
                                "(%1=keychain:NAME; the profile editor stores a typed value there)")
                                     .arg(it.key()),
                             {}, 0, QStringLiteral("headers"));
    }
    return {};
}

QVariantMap storableHeaders(const QVariantMap &headers)
{
    QVariantMap out;
    for (auto it = headers.cbegin(); it != headers.cend(); ++it)
        if (!keyHeader(it.key()) && isReference(it.value().toString()))
            out.insert(it.key(), it.value().toString().trimmed());
    return out;
}

Result<QList<QPair<QByteArray, QByteArray>>> resolveHeaders(const QVariantMap &headers)
{
    QList<QPair<QByteArray, QByteArray>> out;
    for (auto it = headers.cbegin(); it != headers.cend(); ++it) {
        const QString value = it.value().toString();
        if (!keychainName(value).isEmpty())
            continue; // read from the keychain by the engine
        const QString var = envVariable(value);
        if (var.isEmpty()) {
            out.append({it.key().toUtf8(), value.toUtf8()});
            continue;
        }
        const QByteArray name = var.toLocal8Bit();
        if (!qEnvironmentVariableIsSet(name.constData()))
            return makeError(tr("the environment variable %1 that should hold the value of the header '%2' is not set")
                                     .arg(var, it.key()),
                             {}, 0, QStringLiteral("headers"));
        out.append({it.key().toUtf8(), qgetenv(name.constData())});
    }
    return out;
}

QString redact(QString text, const QList<QByteArray> &secrets)
{
    const QString mark = QStringLiteral("[redacted]");
    for (const QByteArray &secret : secrets) {
        if (secret.size() < 4)
            continue;
        const QString plain = QString::fromUtf8(secret);
        text.replace(plain, mark);
        text.replace(QString::fromLatin1(secret.toPercentEncoding()), mark, Qt::CaseInsensitive);
        QString escaped = plain;
        escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
                .replace(QLatin1Char('"'), QLatin1String("\\\""))
                .replace(QLatin1Char('/'), QLatin1String("\\/"));
        text.replace(escaped, mark);
    }
    return text;
}

} // namespace rubric::EndpointSecrets
