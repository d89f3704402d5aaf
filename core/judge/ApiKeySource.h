#pragma once

#include "data/JudgeTypes.h"

#include <QByteArray>
#include <QObject>

namespace rubric {

/// Reads a profile's API key: from the environment variable the profile names, or from the OS
/// keychain (QtKeychain, service "RubricStudio", account = profile name) when built with it.
/// The keychain read is asynchronous; `resolved` or `failed` is emitted exactly once (possibly
/// before `start()` returns for the environment). The key is handed only to the caller, never
/// logged; error messages never contain it.
class ApiKeySource : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *keychainService = "RubricStudio";

    explicit ApiKeySource(ProviderProfile profile, QObject *parent = nullptr);
    void start();
    /// Reads another secret from the keychain: the entry `account` of the service (e.g. a header
    /// value, EndpointSecrets::keychainAccount); `what` names it in error messages.
    void readKeychain(const QString &account, const QString &what);

    /// Stores a secret in the keychain under `account` (the profile name for an API key;
    /// asynchronous; `stored` or `failed`).
    void store(const QString &account, const QByteArray &key);
    static bool keychainAvailable();

signals:
    void resolved(const QByteArray &key);
    void stored();
    void failed(const QString &reason);

private:
    ProviderProfile m_profile;
};

} // namespace rubric
