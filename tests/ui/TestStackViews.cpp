// The stacked judge in the studio (issue 36): its tree in the Rubric pane goes by source judge with
// each criterion's importance (and a bar), the panel under it says what the fit measured; and the
// Annotate pane's "next by expected gain" suggests an unlabelled item with its reason, goes to it,
// and after the label is saved says how the cross-validated alignment moved.
// STACK_SHOT_PROJECT and STACK_SHOT (optional): grab the Rubric pane showing that project's judge
// "stack" into that PNG (the documentation's screenshot).

#include "../methods/PipelineFixture.h"
#include "../methods/StackFixture.h"
#include "models/RubricTreeModel.h"
#include "panes/AnnotatePane.h"
#include "panes/RubricPane.h"
#include "widgets/ExpectedGainBox.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestStackViews : public QObject
{
    Q_OBJECT
private slots:
    void init() { QSettings().clear(); }
    void treeBySourceJudgeWithImportance();
    void annotateSuggestsNextByExpectedGain();
    void screenshot();

private:
    std::unique_ptr<Fixture> judged(const QString &name);
    QTemporaryDir m_dir;
};

std::unique_ptr<Fixture> TestStackViews::judged(const QString &name)
{
    auto fx = makeProject(m_dir.filePath(name), 12);
    if (!fx)
        return nullptr;
    const QStringList all = fx->project->itemIds();
    if (!addJudge(*fx->project, QStringLiteral("g"), QStringLiteral("geval"), {QStringLiteral("aspect")}, all, false)
        || !addJudge(*fx->project, QStringLiteral("c"), QStringLiteral("checkeval"),
                     {QStringLiteral("q1"), QStringLiteral("q2"), QStringLiteral("q3")}, all, true))
        return nullptr;
    return fx;
}

void TestStackViews::treeBySourceJudgeWithImportance()
{
    auto fx = judged(QStringLiteral("tree.rubric"));
    QVERIFY(fx);
    const Outcome o = runToEnd(fx->project.get(), spec(QStringLiteral("stack"), QStringLiteral("stack"),
                                                       QStringLiteral("http://127.0.0.1:9/v1")));
    QVERIFY2(o.ok, qPrintable(o.error));
    RubricPane pane;
    pane.setProject(fx->project.get());
    pane.resize(1300, 800);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(pane.setJudge(QStringLiteral("stack")));
    RubricTreeModel *model = pane.model();
    const QModelIndex judgeNode = model->indexOfKey(QStringLiteral("judge:c"));
    QVERIFY(judgeNode.isValid());
    QCOMPARE(model->rowCount(judgeNode), 4); // q1, q2, q3 and the judge's score
    QCOMPARE(model->indexOfKey(QStringLiteral("c/q1")).parent(), judgeNode);
    auto *tree = pane.findChild<QTreeView *>();
    QVERIFY(tree);
    QVERIFY(!tree->isColumnHidden(RubricTreeModel::ImportanceColumn));
    const QModelIndex importance = model->indexOfKey(QStringLiteral("c/q1"), RubricTreeModel::ImportanceColumn);
    QVERIFY(!importance.data(Qt::DisplayRole).toString().isEmpty());
    const QVariant share = importance.data(RubricTreeModel::ShareRole);
    QVERIFY(share.isValid() && share.toDouble() >= 0 && share.toDouble() <= 1);
    auto *figures = pane.findChild<QLabel *>(QStringLiteral("stackFigures"));
    QVERIFY(figures && figures->isVisible());
    QVERIFY2(figures->text().contains(QLatin1String("ridge aggregator over 6 criteria of 2 judges"))
                     && figures->text().contains(QLatin1String("cross-validated r")),
             qPrintable(figures->text()));
}

void TestStackViews::annotateSuggestsNextByExpectedGain()
{
    auto fx = judged(QStringLiteral("annotate.rubric"));
    QVERIFY(fx);
    // Ten train items lose their label: the candidates.
    const QStringList train = fx->project->itemIds(SplitFilter::Train);
    for (int i = 0; i < 10; ++i)
        QVERIFY(fx->project->removeAnnotation(train[i], QStringLiteral("coherence"), QStringLiteral("experts")));
    AnnotatePane pane;
    pane.setProject(fx->project.get());
    pane.resize(1300, 800);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    pane.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&pane));
    auto *edit = pane.findChild<QLineEdit *>(QStringLiteral("annotatorEdit"));
    QTest::keyClicks(edit, QStringLiteral("me"));
    QTest::mouseClick(pane.findChild<QPushButton *>(QStringLiteral("startButton")), Qt::LeftButton);

    auto *box = pane.findChild<ExpectedGainBox *>(QStringLiteral("expectedGainBox"));
    QVERIFY(box && box->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!pane.isBusy(), 20000); // ranked on a worker
    const QString next = box->suggestedItem();
    QVERIFY2(train.mid(0, 10).contains(next), qPrintable(next)); // an unlabelled item, never a labelled one
    QVERIFY2(box->reasonText().contains(QLatin1String("20 labelled items"))
                     && box->reasonText().contains(QLatin1String("sd ")),
             qPrintable(box->reasonText()));
    QVERIFY2(box->movedText().contains(QLatin1String("on 20 labelled items")), qPrintable(box->movedText()));

    QTest::mouseClick(pane.findChild<QPushButton *>(QStringLiteral("expectedGainGo")), Qt::LeftButton);
    QCOMPARE(pane.currentItemId(), next);
    QWidget *surface = pane.findChild<QWidget *>(QStringLiteral("annotateSurface"));
    QTest::keyClick(surface, Qt::Key_4);
    QTest::keyClick(surface, Qt::Key_Return);
    QTRY_VERIFY(fx->project->humanScores(QStringLiteral("coherence")).contains(next));
    // After the save: how the fit's cross-validated alignment moved, and a new suggestion.
    QTRY_VERIFY2(box->movedText().contains(QStringLiteral("20 → 21 labelled items")), qPrintable(box->movedText()));
    QVERIFY(box->movedText().contains(QStringLiteral("Δ")));
    QVERIFY(box->suggestedItem() != next);
}

void TestStackViews::screenshot()
{
    const QString project = qEnvironmentVariable("STACK_SHOT_PROJECT"), out = qEnvironmentVariable("STACK_SHOT");
    if (project.isEmpty() || out.isEmpty())
        QSKIP("STACK_SHOT_PROJECT and STACK_SHOT are not set");
    auto p = Project::open(project);
    QVERIFY(p.ok());
    RubricPane pane;
    pane.setProject(p->get());
    pane.resize(1400, 900);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(pane.setJudge(QStringLiteral("stack")));
    auto *tree = pane.findChild<QTreeView *>();
    tree->expandAll();
    tree->sortByColumn(RubricTreeModel::ImportanceColumn, Qt::DescendingOrder);
    QVERIFY(QTest::qWaitForWindowExposed(&pane)); // grab() lays out and paints what is pending
    QVERIFY(pane.grab().save(out));
}

QTEST_MAIN(TestStackViews)
#include "TestStackViews.moc"
