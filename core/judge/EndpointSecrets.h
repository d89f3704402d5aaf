#pragma once

#include "judge/JudgeTypes.h"
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
/// the environment variable VAR when the engine starts). The header names that carry the API key
/// itself (Authorization, x-api-key, api-key) are refused: the key has its own variable.
namespace EndpointSecrets {

/// Error (field "baseUrl") when the URL carries a credential; its message never repeats it.
Result<void> checkBaseUrl(const QString &url);
/// The URL with its user info removed and the values of key-like query parameters replaced by
/// "[redacted]": what may be written to a log, the cache, the ledger or runs.config.
QString stripUrl(const QString &url);

/// True for a header value that names where its secret lives ("env:VAR").
bool isReference(const QString &value);
/// The environment variable of an "env:VAR" reference ("" for anything else).
QString envVariable(const QString &value);
/// Error (field "headers") for a key header or a header whose value is not a reference.
Result<void> checkHeaders(const QVariantMap &headers);
/// The headers with only their references (literal values dropped): what may be stored.
QVariantMap storableHeaders(const QVariantMap &headers);
/// The headers' values for sending: references resolved from the environment (error naming the
/// variable that is not set), literal values (profiles saved by older versions) kept as they are.
Result<QList<QPair<QByteArray, QByteArray>>> resolveHeaders(const QVariantMap &headers);

} // namespace EndpointSecrets
} // namespace rubric
