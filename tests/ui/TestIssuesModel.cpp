#include "ProjectTestAccess.h"
#include "UiTestProject.h"
#include "models/IssuesModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QtTest>

using namespace rubric;

class TestIssuesModel : public QObject
{
    Q_OBJECT
private slots:
    void followsInsertRemoveReset();
};

void TestIssuesModel::followsInsertRemoveReset()
{
    QTemporaryDir dir;
    auto project = testing::makeProject(dir.filePath(QStringLiteral("p.rubric")), 3);
    QVERIFY(project->addIssue(QStringLiteral("import"), QStringLiteral("line 3: not a number"), {},
                              QStringLiteral("i2")));

    IssuesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setProject(project.get());
    QCOMPARE(reset.size(), 1);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, IssuesModel::KindColumn).data().toString(), QStringLiteral("import"));
    QCOMPARE(model.index(0, IssuesModel::ItemColumn).data().toString(), QStringLiteral("i2"));
    QCOMPARE(model.index(0, IssuesModel::MessageColumn).data().toString(), QStringLiteral("line 3: not a number"));
    QVERIFY(!model.index(0, IssuesModel::TimeColumn).data().toString().isEmpty());

    QVERIFY(project->addIssue(QStringLiteral("call"), QStringLiteral("HTTP 500"), QStringLiteral("geval-1"),
                              QStringLiteral("i0")));
    QVERIFY(project->addIssue(QStringLiteral("parse"), QStringLiteral("no score in the answer"),
                              QStringLiteral("geval-1")));
    QCOMPARE(inserted.size(), 2);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(1, IssuesModel::RunColumn).data().toString(), QStringLiteral("geval-1"));
    QCOMPARE(model.index(2, 0).data(IssuesModel::ItemIdRole).toString(), QString());

    // A deleted issue in the middle: the rows after it go and come back (issues only append).
    {
        QSqlQuery q(ProjectTestAccess::database(*project));
        QVERIFY(q.exec(QStringLiteral("DELETE FROM issues WHERE kind = 'call'")));
    }
    emit project->issuesChanged();
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(1, IssuesModel::KindColumn).data().toString(), QStringLiteral("parse"));
    QVERIFY(removed.size() >= 1);

    QVERIFY(model.clearIssues());
    QCOMPARE(model.rowCount(), 0);

    model.setProject(nullptr);
    QCOMPARE(reset.size(), 2);
}

QTEST_MAIN(TestIssuesModel)
#include "TestIssuesModel.moc"
