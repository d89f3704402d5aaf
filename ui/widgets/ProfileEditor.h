#pragma once

#include "data/JudgeTypes.h"
#include "runs/ConnectionTest.h"

#include <QGroupBox>
#include <QPointer>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace rubric {

class ProviderProfiles;

/// The provider-profile editor of the Judge & Run pane: the list of saved profiles, the fields of
/// the one being edited (base URL and its replicas with their weights, model, where the key comes from, prices,
/// concurrency, rate limits, timeout, retries), New / Save / Delete and "Test connection" (one call with the profile as
/// edited, asynchronous; the result or the failure with its HTTP status shows below).
///
/// Owns the ProviderProfiles store (the user's settings, or a file given for tests). Refusals
/// (a profile without a model, a failed save) and notices are reported through messageRaised;
/// the owner shows them. GUI thread only.
class ProfileEditor : public QGroupBox
{
    Q_OBJECT
public:
    explicit ProfileEditor(QWidget *parent = nullptr);
    ~ProfileEditor() override;

    /// The stored profiles (owned by the editor).
    ProviderProfiles *profiles() const { return m_profiles.get(); }
    /// Reads and writes profiles in `settingsFile` (INI) instead of the user's settings
    /// (tests; empty = the application's settings). Emits profilesChanged.
    void setSettingsFile(const QString &settingsFile);
    /// The profile as the fields describe it now (not necessarily saved).
    ProviderProfile editedProfile() const;

public slots:
    /// Clears the fields for a new profile (defaults of ProviderProfile).
    void newProfile();
    /// Saves the edited profile under its name; refused without a model.
    void saveProfile();
    /// Deletes the profile selected in the list.
    void deleteProfile();
    /// Sends one test call with the edited profile; ignored while one is in flight.
    void testConnection();

signals:
    /// A profile was saved or deleted, or the store was replaced.
    void profilesChanged();
    /// A message for the owner's message line; `error`: a refusal rather than a notice.
    void messageRaised(const QString &text, bool error);

private:
    void refill(const QString &select = {});
    void loadProfile(const QString &name);
    /// Saves `p` (its header values are references by now) and reports it.
    void storeProfile(const ProviderProfile &p);
    void onConnectionTested(const ConnectionTestResult &result);

    std::unique_ptr<ProviderProfiles> m_profiles;
    QPointer<ConnectionTest> m_connectionTest;
    QListWidget *m_list = nullptr;
    QLineEdit *m_name = nullptr;
    QComboBox *m_provider = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QPlainTextEdit *m_replicas = nullptr; ///< one URL a line, optionally followed by its weight
    double m_baseWeight = 1;              ///< the base URL's weight, kept as loaded (the CLI may set it)
    QLineEdit *m_model = nullptr;
    QComboBox *m_keySource = nullptr;
    QLineEdit *m_keyEnv = nullptr;
    QLineEdit *m_headers = nullptr; ///< "NAME=env:VAR; NAME2=keychain:NAME; NAME3=typed value"
    QDoubleSpinBox *m_priceIn = nullptr;
    QDoubleSpinBox *m_priceCached = nullptr;
    QDoubleSpinBox *m_priceOut = nullptr;
    QSpinBox *m_concurrency = nullptr;
    QDoubleSpinBox *m_rpm = nullptr;
    QDoubleSpinBox *m_tpm = nullptr;
    QSpinBox *m_timeout = nullptr;
    QSpinBox *m_deadline = nullptr;
    QSpinBox *m_maxResponse = nullptr;
    QSpinBox *m_retries = nullptr;
    QSpinBox *m_reasoningBudget = nullptr;
    QComboBox *m_structured = nullptr;
    QPushButton *m_testButton = nullptr;
    QLabel *m_connectionResult = nullptr;
};

} // namespace rubric
