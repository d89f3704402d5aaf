#include "store/ExampleProject.h"
#include "store/Project.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

namespace {

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool write(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

} // namespace

/// The user's copy of the example project: made once from the template, never replaced.
class TestExampleProject : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void copyIsInTheDataLocation();
    void madeOnceFromTheTemplate();
    void existingCopyIsNeverReplaced();
    void missingTemplateMakesNoCopy();
    void legacyExampleIsCarriedOver();
};

void TestExampleProject::copyIsInTheDataLocation()
{
    QCOMPARE(ExampleProject::copyPath(), QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
                                                 + QStringLiteral("/examples/summeval.rubric"));
    QVERIFY(ExampleProject::templatePath().endsWith(QLatin1String("example/summeval.template.rubric")));
}

void TestExampleProject::madeOnceFromTheTemplate()
{
    QTemporaryDir dir;
    const QString templ = dir.filePath(QStringLiteral("t.rubric"));
    {
        auto p = Project::open(templ);
        QVERIFY(p.ok());
        QVERIFY((*p)->upsertAspect({QStringLiteral("coherence"), QStringLiteral("d"), 1, 5}).ok());
    }
    const QString copy = dir.filePath(QStringLiteral("user/examples/summeval.rubric"));
    // A journal left from a copy the user deleted must not be replayed into the new one.
    QVERIFY(QDir().mkpath(QFileInfo(copy).absolutePath()));
    QVERIFY(write(copy + QStringLiteral("-wal"), QByteArray(4096, 'x')));
    auto made = ExampleProject::ensureCopy(templ, copy);
    QVERIFY2(made.ok(), qPrintable(made.errorString()));
    QCOMPARE(*made, copy);
    QCOMPARE(contents(copy), contents(templ));
    QVERIFY(!QFileInfo::exists(copy + QStringLiteral(".partial")));
    QVERIFY(!QFileInfo::exists(copy + QStringLiteral("-wal")));
    auto opened = Project::open(copy, Project::OpenMode::OpenExisting);
    QVERIFY2(opened.ok(), qPrintable(opened.errorString()));
    QVERIFY((*opened)->aspect(QStringLiteral("coherence")).has_value());
}

void TestExampleProject::existingCopyIsNeverReplaced()
{
    QTemporaryDir dir;
    const QString templ = dir.filePath(QStringLiteral("t.rubric"));
    const QString copy = dir.filePath(QStringLiteral("c.rubric"));
    QVERIFY(write(templ, "template v1"));
    QVERIFY(ExampleProject::ensureCopy(templ, copy).ok());
    QVERIFY(write(copy, "the user's work"));
    QVERIFY(write(templ, "template v2, rebuilt"));
    auto again = ExampleProject::ensureCopy(templ, copy);
    QVERIFY(again.ok());
    QCOMPARE(contents(copy), QByteArray("the user's work"));
    // Even with the template gone, the copy is there and opens.
    QVERIFY(QFile::remove(templ));
    QVERIFY(ExampleProject::ensureCopy(templ, copy).ok());
    QCOMPARE(contents(copy), QByteArray("the user's work"));
}

void TestExampleProject::missingTemplateMakesNoCopy()
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("c.rubric"));
    auto r = ExampleProject::ensureCopy(dir.filePath(QStringLiteral("none.rubric")), copy);
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.contains(QLatin1String("example_project")));
    QCOMPARE(r.error().file, dir.filePath(QStringLiteral("none.rubric")));
    QVERIFY(!QFileInfo::exists(copy));
}

void TestExampleProject::legacyExampleIsCarriedOver()
{
    // Builds before the template wrote build/example/summeval.rubric and users annotated it in
    // place: the copy is made from that file while it exists.
    const QString legacy = ExampleProject::legacyPath();
    QVERIFY(legacy.endsWith(QLatin1String("example/summeval.rubric")));
    QVERIFY2(!QFileInfo::exists(legacy), qPrintable(legacy));
    QCOMPARE(ExampleProject::sourcePath(), ExampleProject::templatePath());
    QVERIFY(QDir().mkpath(QFileInfo(legacy).absolutePath()));
    QVERIFY(write(legacy, "annotated in place"));
    QCOMPARE(ExampleProject::sourcePath(), legacy);
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("c.rubric"));
    QVERIFY(ExampleProject::ensureCopy(ExampleProject::sourcePath(), copy).ok());
    QCOMPARE(contents(copy), QByteArray("annotated in place"));
    QVERIFY(QFile::remove(legacy));
}

QTEST_GUILESS_MAIN(TestExampleProject)
#include "TestExampleProject.moc"
