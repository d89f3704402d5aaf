#include "ExampleProject.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ExampleProject", text);
}

} // namespace

QString ExampleProject::templatePath()
{
    const QString env = qEnvironmentVariable("RUBRIC_EXAMPLE_TEMPLATE");
    if (!env.isEmpty())
        return env;
    return QDir(QCoreApplication::applicationDirPath())
            .absoluteFilePath(QStringLiteral("../example/summeval.template.rubric"));
}

QString ExampleProject::legacyPath()
{
    return QDir(QCoreApplication::applicationDirPath()).absoluteFilePath(QStringLiteral("../example/summeval.rubric"));
}

QString ExampleProject::sourcePath()
{
    const QString legacy = legacyPath();
    return QFileInfo::exists(legacy) ? legacy : templatePath();
}

QString ExampleProject::copyPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
           + QStringLiteral("/examples/summeval.rubric");
}

Result<QString> ExampleProject::ensureCopy(const QString &templ, const QString &copy)
{
    // The user's copy is theirs once it exists: never compare it with the template, never replace it.
    if (QFileInfo::exists(copy))
        return copy;
    if (!QFileInfo::exists(templ))
        return makeError(tr("the example project has not been built (cmake --build build --target "
                            "example_project makes it)"),
                         templ);
    const QFileInfo target(copy);
    if (!QDir().mkpath(target.absolutePath()))
        return makeError(tr("cannot create the folder for the example project"), target.absolutePath());
    const QString partial = copy + QStringLiteral(".partial");
    QFile::remove(partial);
    if (!QFile::copy(templ, partial))
        return makeError(tr("cannot copy the example project template"), templ);
    QFile::setPermissions(partial, QFile::permissions(partial) | QFileDevice::WriteOwner | QFileDevice::ReadOwner);
    // A journal left beside a copy that is gone would be replayed into the fresh one.
    for (const char *suffix : {"-wal", "-shm", "-journal"})
        QFile::remove(copy + QLatin1String(suffix));
    // rename() does not replace an existing file: a copy made meanwhile by another start wins.
    if (!QFile::rename(partial, copy)) {
        QFile::remove(partial);
        if (QFileInfo::exists(copy))
            return copy;
        return makeError(tr("cannot create the example project"), copy);
    }
    return copy;
}

} // namespace rubric
