#include "ChecklistFixture.h"
#include "RubricFixture.h"
#include "commands/AddCriterionCommand.h"
#include "commands/DeleteCriterionCommand.h"
#include "commands/MoveCriterionCommand.h"
#include "methods/checkeval/InvertPolarityCommand.h"
#include "methods/checkeval/RestoreQuestionCommand.h"
#include "models/RubricTreeModel.h"

#include <QAbstractItemModelTester>
#include <QUndoStack>
#include <QtTest>

using namespace rubric;

class TestRubricTreeModel : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void treeAndColumns();
    void editTextIsUndoableAndMerges();
    void toggleEnabled();
    void deleteRestoresPositionAndSubtree_data();
    void deleteRestoresPositionAndSubtree();
    void moveUpAndDown();
    void addSiblingAndChild();
    void readOnlyRefusesEdits();
    void stepsOfGEval();
    void sortsSiblingsByAFigure();
    void restoreAndInvertAreUndoable();

private:
    QStringList hypotheses() const { return m_model->childKeys(QStringLiteral("aspect")); }

    RubricTreeModel *m_model = nullptr;
    QUndoStack *m_stack = nullptr;
    QAbstractItemModelTester *m_tester = nullptr;
};

void TestRubricTreeModel::init()
{
    m_model = new RubricTreeModel(this);
    m_stack = new QUndoStack(this);
    m_model->setUndoStack(m_stack);
    // The tester watches every change the tests make (inserts, removals, moves, data changes).
    m_tester = new QAbstractItemModelTester(m_model, QAbstractItemModelTester::FailureReportingMode::QtTest, this);
    m_model->setRubric(fixture::hypoEvalRubric());
}

void TestRubricTreeModel::cleanup()
{
    delete m_tester;
    delete m_stack;
    delete m_model;
}

void TestRubricTreeModel::treeAndColumns()
{
    QCOMPARE(m_model->rowCount(), 1);
    const QModelIndex root = m_model->index(0, 0);
    QCOMPARE(m_model->data(root).toString(), QStringLiteral("coherence"));
    QCOMPARE(m_model->rowCount(root), 5);
    QCOMPARE(m_model->columnCount(root), int(RubricTreeModel::ColumnCount));
    QCOMPARE(m_model->parent(m_model->index(2, 3, root)), root);
    const QModelIndex h2 = m_model->index(1, 0, root);
    QCOMPARE(m_model->keyOf(h2), QStringLiteral("h2"));
    QCOMPARE(m_model->data(h2.siblingAtColumn(RubricTreeModel::KindColumn)).toString(), QStringLiteral("hypothesis"));
    QCOMPARE(m_model->data(h2.siblingAtColumn(RubricTreeModel::OriginColumn)).toString(),
             QStringLiteral("wrong-bank refine 3"));
    QCOMPARE(m_model->data(m_model->index(2, RubricTreeModel::OriginColumn, root)).toString(),
             QStringLiteral("literature"));
    QCOMPARE(m_model->data(m_model->index(0, RubricTreeModel::OriginColumn, root)).toString(),
             QStringLiteral("initial"));
    QCOMPARE(m_model->data(h2.siblingAtColumn(RubricTreeModel::RewardColumn)).toString(), QStringLiteral("0.600"));
    QCOMPARE(m_model->data(h2.siblingAtColumn(RubricTreeModel::TrainPearsonColumn)).toString(),
             QStringLiteral("0.600"));
    QCOMPARE(m_model->data(h2.siblingAtColumn(RubricTreeModel::RankColumn)).toInt(), 2);
    QVERIFY(!m_model->data(m_model->index(4, RubricTreeModel::RankColumn, root)).isValid());
    QCOMPARE(m_model->data(h2.siblingAtColumn(RubricTreeModel::EnabledColumn), Qt::CheckStateRole).toInt(),
             int(Qt::Checked));
    QCOMPARE(m_model->data(m_model->index(3, RubricTreeModel::EnabledColumn, root), Qt::CheckStateRole).toInt(),
             int(Qt::Unchecked));
    QVERIFY(!m_model->data(root.siblingAtColumn(RubricTreeModel::EnabledColumn), Qt::CheckStateRole).isValid());
    QVERIFY(m_model->flags(h2) & Qt::ItemIsEditable);
    QVERIFY(m_model->flags(h2.siblingAtColumn(RubricTreeModel::EnabledColumn)) & Qt::ItemIsUserCheckable);
    QVERIFY(!(m_model->flags(h2.siblingAtColumn(RubricTreeModel::KindColumn)) & Qt::ItemIsEditable));
    // the tool tip carries the full text (and the definition where there is one)
    QVERIFY(m_model->data(root, Qt::ToolTipRole).toString().contains(QLatin1String("Well structured.")));
    QCOMPARE(m_model->headerData(RubricTreeModel::TextColumn, Qt::Horizontal).toString(), QStringLiteral("Criterion"));
}

void TestRubricTreeModel::editTextIsUndoableAndMerges()
{
    const Rubric original = m_model->rubric();
    const QModelIndex h1 = m_model->indexOfKey(QStringLiteral("h1"));
    QSignalSpy changed(m_model, &QAbstractItemModel::dataChanged);
    QVERIFY(m_model->setData(h1, QStringLiteral("First rewording")));
    QVERIFY(m_model->setData(h1, QStringLiteral("Second rewording")));
    QCOMPARE(changed.size(), 2);
    QCOMPARE(m_stack->count(), 1); // consecutive edits of one criterion merge
    const Criterion *c = m_model->criterion(QStringLiteral("h1"));
    QCOMPARE(c->text, QStringLiteral("Second rewording"));
    QCOMPARE(c->key, QStringLiteral("h1"));
    QCOMPARE(c->origin.value(QStringLiteral("edited_from")).toString(), original.find(QStringLiteral("h1"))->text);
    QVERIFY(!c->origin.value(QStringLiteral("edited_by")).toString().isEmpty());
    QCOMPARE(c->origin.value(QStringLiteral("source")).toString(), QStringLiteral("init")); // lineage kept
    QCOMPARE(m_model->data(h1.siblingAtColumn(RubricTreeModel::OriginColumn)).toString(),
             QStringLiteral("edited (initial)"));
    // an edit of another criterion is a step of its own
    QVERIFY(m_model->setData(m_model->indexOfKey(QStringLiteral("h2")), QStringLiteral("Other")));
    QCOMPARE(m_stack->count(), 2);
    m_stack->undo();
    m_stack->undo();
    QCOMPARE(m_model->rubric().criteria(), original.criteria());
    m_stack->redo();
    QCOMPARE(m_model->criterion(QStringLiteral("h1"))->text, QStringLiteral("Second rewording"));
    // unchanged or empty text is no edit
    QVERIFY(!m_model->setData(h1, QStringLiteral("Second rewording")));
    QVERIFY(!m_model->setData(h1, QStringLiteral("   ")));
    QCOMPARE(m_stack->index(), 1);
}

void TestRubricTreeModel::toggleEnabled()
{
    const QModelIndex on = m_model->indexOfKey(QStringLiteral("h1"), RubricTreeModel::EnabledColumn);
    QVERIFY(m_model->setData(on, Qt::Unchecked, Qt::CheckStateRole));
    QVERIFY(!m_model->criterion(QStringLiteral("h1"))->enabled);
    QCOMPARE(m_model->data(on, Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
    QVERIFY(!m_model->setData(on, Qt::Unchecked, Qt::CheckStateRole)); // no change, no command
    QCOMPARE(m_stack->count(), 1);
    m_stack->undo();
    QVERIFY(m_model->criterion(QStringLiteral("h1"))->enabled);
    // the aspect root is not checkable
    QVERIFY(!m_model->setData(m_model->indexOfKey(QStringLiteral("aspect"), RubricTreeModel::EnabledColumn),
                              Qt::Unchecked, Qt::CheckStateRole));
}

void TestRubricTreeModel::deleteRestoresPositionAndSubtree_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("rootRows");
    QTest::addColumn<int>("children");
    QTest::newRow("first") << QStringLiteral("h1") << 1 << 4;
    QTest::newRow("middle") << QStringLiteral("h3") << 1 << 4;
    QTest::newRow("last") << QStringLiteral("h5") << 1 << 4;
    QTest::newRow("root with its subtree") << QStringLiteral("aspect") << 0 << 0;
}

void TestRubricTreeModel::deleteRestoresPositionAndSubtree()
{
    QFETCH(QString, key);
    QFETCH(int, rootRows);
    QFETCH(int, children);
    const Rubric original = m_model->rubric();
    const int row = m_model->indexOfKey(key).row();
    m_stack->push(new DeleteCriterionCommand(m_model, key));
    QVERIFY(!m_model->criterion(key));
    QCOMPARE(m_model->rowCount(), rootRows);
    QCOMPARE(int(hypotheses().size()), children);
    if (rootRows == 0)
        QVERIFY(m_model->rubric().criteria().isEmpty());
    m_stack->undo();
    QCOMPARE(m_model->indexOfKey(key).row(), row);
    QCOMPARE(m_model->rubric().criteria(), original.criteria()); // text, origin, stats and positions
    m_stack->redo();
    QVERIFY(!m_model->criterion(key));
}

void TestRubricTreeModel::moveUpAndDown()
{
    const Rubric original = m_model->rubric();
    QVERIFY(!m_model->canMove(QStringLiteral("h1"), -1));
    QVERIFY(!m_model->canMove(QStringLiteral("h5"), 1));
    QVERIFY(!m_model->canMove(QStringLiteral("aspect"), 1));
    QVERIFY(m_model->canMove(QStringLiteral("h3"), -1));
    m_stack->push(new MoveCriterionCommand(m_model, QStringLiteral("h3"), -1));
    QCOMPARE(hypotheses(), (QStringList{QStringLiteral("h1"), QStringLiteral("h3"), QStringLiteral("h2"),
                                        QStringLiteral("h4"), QStringLiteral("h5")}));
    m_stack->push(new MoveCriterionCommand(m_model, QStringLiteral("h1"), 1));
    QCOMPARE(hypotheses(), (QStringList{QStringLiteral("h3"), QStringLiteral("h1"), QStringLiteral("h2"),
                                        QStringLiteral("h4"), QStringLiteral("h5")}));
    // positions follow the display order
    QVector<int> positions;
    for (const QString &k : hypotheses())
        positions.append(m_model->criterion(k)->position);
    QVERIFY(std::is_sorted(positions.begin(), positions.end()));
    m_stack->undo();
    m_stack->undo();
    QCOMPARE(m_model->rubric().criteria(), original.criteria());
}

void TestRubricTreeModel::addSiblingAndChild()
{
    const Rubric original = m_model->rubric();
    Criterion c;
    c.key = m_model->freshKey(QStringLiteral("h"));
    QVERIFY(!original.find(c.key));
    c.parentKey = QStringLiteral("aspect");
    c.kind = CriterionKind::Hypothesis;
    c.text = QStringLiteral("An added hypothesis");
    c.origin = {{QStringLiteral("source"), QStringLiteral("added")}};
    m_stack->push(new AddCriterionCommand(m_model, c, 2));
    QCOMPARE(hypotheses().at(2), c.key);
    QCOMPARE(m_model->data(m_model->indexOfKey(c.key, RubricTreeModel::OriginColumn)).toString(),
             QStringLiteral("added"));
    // a child under the added one (a deeper tree, as CheckEval's)
    Criterion q;
    q.key = QStringLiteral("q1");
    q.parentKey = c.key;
    q.kind = CriterionKind::Question;
    q.text = QStringLiteral("A question");
    m_stack->push(new AddCriterionCommand(m_model, q, 0));
    const QModelIndex qi = m_model->indexOfKey(QStringLiteral("q1"));
    QCOMPARE(m_model->keyOf(m_model->parent(qi)), c.key);
    QCOMPARE(m_model->rowCount(m_model->indexOfKey(c.key)), 1);
    // deleting the added one takes its child; undo brings both back in place
    m_stack->push(new DeleteCriterionCommand(m_model, c.key));
    QVERIFY(!m_model->criterion(QStringLiteral("q1")));
    m_stack->undo();
    QCOMPARE(m_model->keyOf(m_model->parent(m_model->indexOfKey(QStringLiteral("q1")))), c.key);
    QCOMPARE(hypotheses().at(2), c.key);
    // add at the end
    Criterion last = c;
    last.key = QStringLiteral("h99");
    m_stack->push(new AddCriterionCommand(m_model, last, int(hypotheses().size())));
    QCOMPARE(hypotheses().last(), QStringLiteral("h99"));
    QCOMPARE(m_model->rubric().criteria().last().key, QStringLiteral("h99"));
    while (m_stack->canUndo())
        m_stack->undo();
    QCOMPARE(m_model->rubric().criteria(), original.criteria());
}

void TestRubricTreeModel::readOnlyRefusesEdits()
{
    m_model->setRubric(fixture::hypoEvalRubric(), true);
    const QModelIndex h1 = m_model->indexOfKey(QStringLiteral("h1"));
    QVERIFY(!(m_model->flags(h1) & Qt::ItemIsEditable));
    QVERIFY(!m_model->setData(h1, QStringLiteral("x")));
    QVERIFY(!m_model->setData(h1.siblingAtColumn(RubricTreeModel::EnabledColumn), Qt::Unchecked, Qt::CheckStateRole));
    QCOMPARE(m_stack->count(), 0);
}

void TestRubricTreeModel::stepsOfGEval()
{
    m_model->setRubric(fixture::gevalRubric());
    const QModelIndex root = m_model->index(0, 0);
    QCOMPARE(m_model->rowCount(root), 3);
    QCOMPARE(m_model->data(m_model->index(0, RubricTreeModel::KindColumn, root)).toString(), QStringLiteral("step"));
    QCOMPARE(m_model->data(m_model->index(2, RubricTreeModel::OriginColumn, root)).toString(),
             QStringLiteral("auto-CoT step"));
    QCOMPARE(m_model->data(m_model->index(1, 0, root)).toString(), QStringLiteral("Step 2: read the summary."));
}

void TestRubricTreeModel::sortsSiblingsByAFigure()
{
    m_model->setRubric(fixture::checklistRubric());
    const QVector<Criterion> stored = m_model->rubric().criteria();
    const QPersistentModelIndex q4 = m_model->indexOfKey(QStringLiteral("q4"));
    m_model->sort(RubricTreeModel::DiscriminationColumn, Qt::DescendingOrder);
    QCOMPARE(m_model->sortColumn(), int(RubricTreeModel::DiscriminationColumn));
    QCOMPARE(m_model->childKeys(QStringLiteral("s1")), fixture::keys({"q1", "q2", "q3"})); // q3: no figure, last
    QCOMPARE(m_model->childKeys(QStringLiteral("s2")), fixture::keys({"q5", "q4"}));
    QCOMPARE(q4.row(), 1); // persistent indexes follow
    QCOMPARE(m_model->keyOf(q4), QStringLiteral("q4"));
    QCOMPARE(m_model->rubric().criteria(), stored); // a view: positions untouched
    QVERIFY(!m_model->canMove(QStringLiteral("q5"), 1));
    QCOMPARE(m_model->index(0, RubricTreeModel::DiscriminationColumn, m_model->indexOfKey(QStringLiteral("s2")))
                     .data(RubricTreeModel::SortRole)
                     .toDouble(),
             0.35);
    // a structural edit goes back to the tree order first
    Criterion q;
    q.key = QStringLiteral("q6");
    q.parentKey = QStringLiteral("s2");
    q.kind = CriterionKind::Question;
    q.text = QStringLiteral("Is it clear?");
    m_stack->push(new AddCriterionCommand(m_model, q, 2));
    QCOMPARE(m_model->sortColumn(), -1);
    QCOMPARE(m_model->childKeys(QStringLiteral("s2")), fixture::keys({"q4", "q5", "q6"}));
    m_model->sort(RubricTreeModel::YesRateColumn, Qt::AscendingOrder);
    QCOMPARE(m_model->childKeys(QStringLiteral("s2")), fixture::keys({"q4", "q5", "q6"}));
    m_model->sort(RubricTreeModel::TextColumn); // not a figure: the tree order
    QCOMPARE(m_model->sortColumn(), -1);
    // a rubric loaded while sorted is shown sorted
    m_model->sort(RubricTreeModel::DiscriminationColumn, Qt::DescendingOrder);
    m_model->setRubric(fixture::checklistRubric());
    QCOMPARE(m_model->childKeys(QStringLiteral("s2")), fixture::keys({"q5", "q4"}));
}

void TestRubricTreeModel::restoreAndInvertAreUndoable()
{
    m_model->setRubric(fixture::checklistRubric());
    QCOMPARE(RubricTreeModel::columnsFor(QStringLiteral("checkeval")).contains(RubricTreeModel::YesRateColumn), true);
    QCOMPARE(RubricTreeModel::columnsFor(QStringLiteral("hypoeval")).contains(RubricTreeModel::YesRateColumn), false);
    QCOMPARE(RubricTreeModel::columnsFor(QStringLiteral("geval")).contains(RubricTreeModel::RewardColumn), false);
    m_stack->push(new RestoreQuestionCommand(m_model, QStringLiteral("q3")));
    QVERIFY(m_model->criterion(QStringLiteral("q3"))->enabled);
    QCOMPARE(m_model->criterion(QStringLiteral("q3"))->origin.value(QStringLiteral("restored_from_filter")).toString(),
             QStringLiteral("duplicate of q1"));
    m_stack->push(new InvertPolarityCommand(m_model, QStringLiteral("q4")));
    QVERIFY(m_model->criterion(QStringLiteral("q4"))->origin.value(QStringLiteral("inverted")).toBool());
    QVERIFY(m_model->polarityWarning(*m_model->criterion(QStringLiteral("q4"))).isEmpty());
    m_stack->undo();
    QVERIFY(!m_model->criterion(QStringLiteral("q4"))->origin.contains(QStringLiteral("inverted")));
    QVERIFY(!m_model->polarityWarning(*m_model->criterion(QStringLiteral("q4"))).isEmpty());
    m_stack->undo();
    QCOMPARE(*m_model->criterion(QStringLiteral("q3")), *fixture::checklistRubric().find(QStringLiteral("q3")));
}

QTEST_MAIN(TestRubricTreeModel)
#include "TestRubricTreeModel.moc"
