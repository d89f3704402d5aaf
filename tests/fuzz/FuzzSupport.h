#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>

/// What every fuzz target shares: a QCoreApplication (Qt SQL's driver plugin and the
/// translators want one) and a private folder for inputs that the code under test reads as files.
/// Inputs whose first byte picks a variant (a format, a provider) read it with `selector()`.
namespace rubric::fuzz {

inline void initQt(int *argc, char ***argv)
{
    static QCoreApplication *app = nullptr;
    if (!app)
        app = new QCoreApplication(*argc, *argv);
}

inline QTemporaryDir &scratch()
{
    static QTemporaryDir dir;
    return dir;
}

/// Writes `bytes` to `name` inside the scratch folder and returns its path; empty when it
/// cannot (a full disk is not a finding of the code under test).
inline QString writeScratch(const QString &name, const QByteArray &bytes)
{
    const QString path = scratch().filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        return {};
    return path;
}

/// The first byte as a variant number in [0, count) and the rest as the payload.
struct Split
{
    int variant = 0;
    QByteArray payload;
};

inline Split selector(const uint8_t *data, size_t size, int count)
{
    if (size == 0)
        return {};
    return {int(data[0]) % count, QByteArray(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1))};
}

} // namespace rubric::fuzz
