#pragma once

#include "data/JudgeTypes.h"
#include "util/Result.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QVariantMap>

namespace rubric {

/// Credentials that must not travel with an endpoint's settings.
///
/// A base URL may not carry one: `user:pass@host` and query parameters named like a key (key,
/// api_key, apikey, api-key, token, access_token, secret, password, …) are refused with a message
/// that says where the key goes instead (an environment variable or the keychain). Values of other
/// query parameters (e.g. Azure's api-version) are kept.
///
/// Extra headers are stored as references, never their values: `env:VAR` (the value is read from
/// the environment variable VAR when the engine starts) or `keychain:NAME` (the value is read from
/// the OS keychain, service "RubricStudio", account "header:NAME", when the engine starts; the
/// profile editor puts a typed value there under NAME = "<profile>:<header>"). The header names
/// that carry the API key itself (Authorization, x-api-key, api-key) are refused: the key has
/// its own variable.
namespace EndpointSecrets {

/// Error (field "baseUrl") when the URL carries a credential; its message never repeats it.
Result<void> checkBaseUrl(const QString &url);
/// The URL with its user info removed and the values of key-like query parameters replaced by
/// "[redacted]": what may be written to a log, the cache, the ledger or runs.config.
QString stripUrl(const QString &url);

/// True for a header value that names where its secret lives ("env:VAR" or "keychain:NAME").
bool isReference(const QString &value);
/// The environment variable of an "env:VAR" reference ("" for anything else).
QString envVariable(const QString &value);
/// The NAME of a "keychain:NAME" reference ("" for anything else).
QString keychainName(const QString &value);
/// The keychain account of a header value stored under NAME: "header:NAME".
QString keychainAccount(const QString &name);
/// The NAME under which the profile editor keeps a typed value of `header` for `profile`.
QString keychainNameFor(const QString &profile, const QString &header);
/// The headers whose value is a keychain reference: header name → keychain account.
QList<QPair<QString, QString>> keychainHeaders(const QVariantMap &headers);
/// Error (field "headers") for a key header or a header whose value is not a reference.
Result<void> checkHeaders(const QVariantMap &headers);
/// The headers with only their references (literal values dropped): what may be stored.
QVariantMap storableHeaders(const QVariantMap &headers);
/// The headers' values for sending: references resolved from the environment (error naming the
/// variable that is not set), literal values (profiles saved by older versions) kept as they are.
/// Keychain references are left out: their values are read asynchronously (ApiKeySource).
Result<QList<QPair<QByteArray, QByteArray>>> resolveHeaders(const QVariantMap &headers);
/// `text` with every secret (of four bytes or more) replaced by "[redacted]": as it is,
/// percent-encoded (a server that echoes the request's URL or headers encoded) and JSON-escaped
/// (an error body shown as it came).
QString redact(QString text, const QList<QByteArray> &secrets);

} // namespace EndpointSecrets
} // namespace rubric
