#pragma once

// Small projects built in a temporary folder for the GUI tests.
#include "store/Project.h"

#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace rubric::testing {

/// Keeps QSettings away from the user's real settings and empties them.
inline void isolateSettings()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("RubricStudioTests"));
    // One settings file per test program: ctest runs them in parallel.
    QCoreApplication::setApplicationName(QStringLiteral("rubric-ui-tests-")
                                         + QFileInfo(QCoreApplication::applicationFilePath()).completeBaseName());
    QSettings().clear();
}

/// `n` items: id "i<k>", group "doc<k % 3>", system "sys<k % 2>", a source and an output that
/// name the item (item 4's output contains "needle"); aspects coherence and fluency (1–5) and
/// relevance (1–3).
inline std::unique_ptr<Project> makeProject(const QString &path, int n)
{
    auto opened = Project::open(path);
    if (!opened)
        qFatal("cannot create %s: %s", qPrintable(path), qPrintable(opened.errorString()));
    std::unique_ptr<Project> p = std::move(opened).value();
    QVector<Item> items;
    for (int k = 0; k < n; ++k) {
        Item it;
        it.id = QStringLiteral("i%1").arg(k);
        it.group = QStringLiteral("doc%1").arg(k % 3);
        it.system = QStringLiteral("sys%1").arg(k % 2);
        it.source = QStringLiteral("Source text of item %1. ").repeated(5).arg(k);
        it.output = k == 4 ? QStringLiteral("An output with a needle in it.")
                           : QStringLiteral("Output of item %1.").arg(k);
        it.reference = QStringLiteral("Reference %1").arg(k);
        items.append(it);
    }
    if (!p->addItems(items))
        qFatal("cannot add items");
    for (const Aspect &a : {Aspect{QStringLiteral("coherence"), QStringLiteral("Well structured."), 1, 5},
                            Aspect{QStringLiteral("fluency"), QStringLiteral("Well written."), 1, 5},
                            Aspect{QStringLiteral("relevance"), QStringLiteral("On topic."), 1, 3}})
        if (!p->upsertAspect(a))
            qFatal("cannot add aspect");
    return p;
}

} // namespace rubric::testing
