#include "store/Project.h"
#include "store/Schema.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

class TestProject : public QObject
{
    Q_OBJECT
private slots:
    void createsCurrentSchema();
};

void TestProject::createsCurrentSchema()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.rubric"));
    auto p = Project::open(path);
    QVERIFY2(p.ok(), qPrintable(p.errorString()));
    QSqlQuery q((*p)->database());
    QVERIFY(q.exec(QStringLiteral("PRAGMA user_version")) && q.next());
    QCOMPARE(q.value(0).toInt(), schema::currentVersion);
}

QTEST_GUILESS_MAIN(TestProject)
#include "TestProject.moc"
