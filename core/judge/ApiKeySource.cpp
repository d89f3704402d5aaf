#include "judge/ApiKeySource.h"

#include <QCoreApplication>

#ifdef RUBRIC_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace rubric {

ApiKeySource::ApiKeySource(ProviderProfile profile, QObject *parent)
    : QObject(parent)
    , m_profile(std::move(profile))
{
}

bool ApiKeySource::keychainAvailable()
{
#ifdef RUBRIC_HAVE_KEYCHAIN
    return true;
#else
    return false;
#endif
}

void ApiKeySource::start()
{
    if (!m_profile.useKeychain) {
        if (m_profile.apiKeyEnv.isEmpty()) {
            emit resolved(QByteArray()); // an endpoint without authentication (local servers)
            return;
        }
        const QByteArray name = m_profile.apiKeyEnv.toLocal8Bit();
        if (!qEnvironmentVariableIsSet(name.constData())) {
            emit failed(
                    tr("the environment variable %1 that should hold the API key is not set").arg(m_profile.apiKeyEnv));
            return;
        }
        emit resolved(qgetenv(name.constData()));
        return;
    }
    readKeychain(m_profile.name, tr("the API key of \"%1\"").arg(m_profile.name));
}

void ApiKeySource::readKeychain(const QString &account, const QString &what)
{
#ifdef RUBRIC_HAVE_KEYCHAIN
    auto *job = new QKeychain::ReadPasswordJob(QString::fromLatin1(keychainService), this);
    job->setAutoDelete(true);
    job->setKey(account);
    connect(job, &QKeychain::Job::finished, this, [this, job, what] {
        if (job->error() != QKeychain::NoError)
            emit failed(tr("cannot read %1 from the keychain: %2").arg(what, job->errorString()));
        else
            emit resolved(job->binaryData());
    });
    job->start();
#else
    Q_UNUSED(account)
    emit failed(tr("this build has no keychain support; cannot read %1 from it: name an environment variable "
                   "instead")
                        .arg(what));
#endif
}

void ApiKeySource::store(const QString &account, const QByteArray &key)
{
#ifdef RUBRIC_HAVE_KEYCHAIN
    auto *job = new QKeychain::WritePasswordJob(QString::fromLatin1(keychainService), this);
    job->setAutoDelete(true);
    job->setKey(account);
    job->setBinaryData(key);
    connect(job, &QKeychain::Job::finished, this, [this, job, account] {
        if (job->error() != QKeychain::NoError)
            emit failed(tr("cannot store \"%1\" in the keychain: %2").arg(account, job->errorString()));
        else
            emit stored();
    });
    job->start();
#else
    Q_UNUSED(account)
    Q_UNUSED(key)
    emit failed(tr("this build has no keychain support"));
#endif
}

} // namespace rubric
