#pragma once

#include "data/JudgeTypes.h"
#include "util/Result.h"

#include <QSettings>

#include <memory>
#include <optional>

namespace rubric {

/// Named provider profiles in the user's settings (QSettings group "providers"), never in a
/// project. The key is not stored: only the name of its environment variable or the keychain flag.
/// `save` refuses a base URL with a credential in it and extra headers given by value (they are
/// stored as references, NAME=env:VAR; see EndpointSecrets).
/// By default uses the application's QSettings; tests pass their own settings file.
class ProviderProfiles
{
public:
    ProviderProfiles();
    explicit ProviderProfiles(const QString &settingsFile);

    QStringList names() const;
    std::optional<ProviderProfile> load(const QString &name) const;
    Result<void> save(const ProviderProfile &profile);
    void remove(const QString &name);
    void sync();

private:
    std::unique_ptr<QSettings> m_settings;
};

} // namespace rubric
