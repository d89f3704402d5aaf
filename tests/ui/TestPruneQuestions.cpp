// CheckEval's prune by discrimination in the studio (Rubric pane, "Prune…", PruneQuestionsDialog):
// the questions it picks and the alignment before and after on the test split equal the values
// computed independently in Python (tests/methods/make_checkeval_prune_reference.py →
// checkeval_prune_reference.json, from the fixture of checkeval_reference.json); one undoable
// edit that "Save as new version" keeps.
#include "../methods/ChecklistFixture.h"
#include "UiTestProject.h"
#include "methods/checkeval/PruneQuestionsDialog.h"
#include "models/RubricTreeModel.h"
#include "panes/RubricPane.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QAction>
#include <QCheckBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>

using namespace rubric;

class TestPruneQuestions : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void prunesTheLeastDiscriminatingAsOneEdit();
    void refusesToPruneEverything();

private:
    QJsonObject m_ref, m_prune;
    QTemporaryDir m_dir;
    std::unique_ptr<Project> m_project;
};

void TestPruneQuestions::initTestCase()
{
    testing::isolateSettings();
    m_ref = test::checklistReference();
    QFile f(QStringLiteral(RUBRIC_SOURCE_DIR "/tests/methods/checkeval_prune_reference.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    m_prune = QJsonDocument::fromJson(f.readAll()).object();
    QVERIFY(!m_ref.isEmpty() && !m_prune.isEmpty());
    auto opened = Project::open(m_dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY2(opened, qPrintable(opened.errorString()));
    m_project = std::move(opened).value();
    QVERIFY(m_project->upsertAspect({QStringLiteral("coherence"), QStringLiteral("d"), 1, 5}));
    QVector<Item> items;
    QVector<Annotation> ann;
    QHash<QString, SplitRole> split;
    const QJsonArray ids = m_ref.value(QStringLiteral("items")).toArray();
    const QJsonObject human = m_ref.value(QStringLiteral("human")).toObject();
    const QJsonArray test = m_prune.value(QStringLiteral("test_items")).toArray();
    for (int i = 0; i < ids.size(); ++i) {
        Item it;
        it.id = ids.at(i).toString();
        it.output = QStringLiteral("summary %1").arg(i);
        it.position = i;
        items.append(it);
        ann.append({it.id, QStringLiteral("coherence"), QStringLiteral("a1"), human.value(it.id).toDouble(), {}, {}});
        split.insert(it.id, test.contains(it.id) ? SplitRole::Test : SplitRole::Train);
    }
    QVERIFY(m_project->addItems(items));
    QVERIFY(m_project->addAnnotations(ann));
    QVERIFY(m_project->setSplit(split));
    // J1's checklist with the question figures of the reference (as a run writes them).
    Rubric r = test::fixtureChecklist();
    const QJsonObject analytics = m_ref.value(QStringLiteral("analytics")).toObject();
    for (auto q = analytics.begin(); q != analytics.end(); ++q) {
        Criterion *c = r.find(q.key());
        QVERIFY(c);
        const QJsonObject a = q.value().toObject();
        if (!a.value(QStringLiteral("point_biserial")).isNull())
            c->stats.insert(QStringLiteral("discrimination"), a.value(QStringLiteral("point_biserial")).toDouble());
        if (!a.value(QStringLiteral("constant")).isNull())
            c->stats.insert(QStringLiteral("constant"), a.value(QStringLiteral("constant")).toString());
    }
    RubricStore store(m_project.get());
    QVERIFY(m_project->ensureJudge(QStringLiteral("J1"), QStringLiteral("checkeval")));
    QVERIFY(store.saveVersion(QStringLiteral("J1"), r));
    QVERIFY(store.writeCriterionScores(QStringLiteral("J1"), test::fixtureScores(m_ref, QStringLiteral("J1"))));
}

void TestPruneQuestions::prunesTheLeastDiscriminatingAsOneEdit()
{
    RubricPane pane;
    pane.setProject(m_project.get());
    QVERIFY(pane.setJudge(QStringLiteral("J1")));
    auto *action = pane.findChild<QAction *>(QStringLiteral("rubricPrune"));
    QVERIFY(action);
    QVERIFY(action->isEnabled());
    action->trigger();
    auto *dialog = pane.findChild<PruneQuestionsDialog *>(QStringLiteral("pruneQuestionsDialog"));
    QVERIFY(dialog);
    const QJsonObject byK = m_prune.value(QStringLiteral("prune")).toObject();
    for (int k : {1, 3, 2}) { // ends on 2
        dialog->countBox()->setValue(k);
        const QJsonObject e = byK.value(QString::number(k)).toObject();
        const QJsonArray pruned = e.value(QStringLiteral("pruned")).toArray();
        QCOMPARE(dialog->questionList()->count(), pruned.size());
        for (int i = 0; i < pruned.size(); ++i)
            QVERIFY2(dialog->questionList()->item(i)->text().startsWith(pruned.at(i).toString() + QStringLiteral(" ·")),
                     qPrintable(dialog->questionList()->item(i)->text()));
        QCOMPARE(dialog->alignment().split, QStringLiteral("test"));
        QCOMPARE(dialog->alignment().items, e.value(QStringLiteral("items")).toInt());
        QVERIFY2(std::abs(dialog->alignment().before - e.value(QStringLiteral("before")).toDouble()) < 1e-12,
                 qPrintable(QString::number(dialog->alignment().before, 'g', 17)));
        QVERIFY2(std::abs(dialog->alignment().after - e.value(QStringLiteral("after")).toDouble()) < 1e-12,
                 qPrintable(QString::number(dialog->alignment().after, 'g', 17)));
        QVERIFY2(dialog->alignmentLabel()->text().contains(
                         QString::number(e.value(QStringLiteral("after")).toDouble(), 'f', 3)),
                 qPrintable(dialog->alignmentLabel()->text()));
    }
    dialog->saveBox()->setChecked(false); // kept for "Save as new version" (saved at once: TestPruneExample)
    dialog->accept();
    RubricTreeModel *model = pane.model();
    QVERIFY(!model->criterion(QStringLiteral("q6"))->enabled);
    QVERIFY(!model->criterion(QStringLiteral("q3"))->enabled);
    QVERIFY(model->criterion(QStringLiteral("q4"))->enabled);
    QCOMPARE(model->criterion(QStringLiteral("q6"))->origin.value(QStringLiteral("pruned")).toString(),
             QStringLiteral("always yes"));
    QVERIFY(model->criterion(QStringLiteral("q3"))
                    ->origin.value(QStringLiteral("pruned"))
                    .toString()
                    .startsWith(QStringLiteral("discrimination 0.022")));
    // one edit: one undo brings both back
    QCOMPARE(pane.undoStack()->count(), 1);
    pane.undoStack()->undo();
    QVERIFY(model->criterion(QStringLiteral("q6"))->enabled);
    QVERIFY(model->criterion(QStringLiteral("q3"))->enabled);
    QVERIFY(!model->criterion(QStringLiteral("q3"))->origin.contains(QStringLiteral("pruned")));
    pane.undoStack()->redo();
    const auto saved = pane.saveVersion(QStringLiteral("pruned 2 by discrimination"));
    QVERIFY2(saved.ok(), qPrintable(saved.errorString()));
    QCOMPARE(*saved, 2);
    const auto v2 = RubricStore(m_project.get()).load(QStringLiteral("J1"), *saved);
    QVERIFY(v2);
    QVERIFY(!v2->find(QStringLiteral("q6"))->enabled);
    QVERIFY(!v2->find(QStringLiteral("q3"))->enabled);
    QVERIFY(v2->find(QStringLiteral("q1"))->enabled);
}

void TestPruneQuestions::refusesToPruneEverything()
{
    const Rubric r = test::fixtureChecklist();
    auto e = QuestionPrune::leastDiscriminating(r, 1);
    QVERIFY(!e); // no figures yet
    QVERIFY2(e.errorString().contains(QStringLiteral("have discrimination figures")), qPrintable(e.errorString()));
    e = QuestionPrune::leastDiscriminating(r, 6);
    QVERIFY(!e);
    QVERIFY2(e.errorString().contains(QStringLiteral("would leave none")), qPrintable(e.errorString()));
    e = QuestionPrune::leastDiscriminating(r, 0);
    QVERIFY(!e);
}

QTEST_MAIN(TestPruneQuestions)
#include "TestPruneQuestions.moc"
