#include "ProjectTestAccess.h"
#include "UiTestProject.h"
#include "models/ItemsFilterModel.h"
#include "models/ItemsModel.h"
#include "models/ScoreModel.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QtTest>

using namespace rubric;

class TestItemsModel : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void columnsAndHumanMeans();
    void followsInsertRemoveReset();
    void annotationAndSplitChanges();
    void filter_data();
    void filter();
    void filterSearchesWholeTexts();
    void sortsIdsNaturally();
    void hundredThousandRows();
    void unreadableProjectIsAnErrorNotAnEmptyTable_data();
    void unreadableProjectIsAnErrorNotAnEmptyTable();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Project> m_project;
};

void TestItemsModel::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_project = testing::makeProject(m_dir->filePath(QStringLiteral("p.rubric")), 12);
    QVERIFY(m_project->addAnnotations({{QStringLiteral("i1"), QStringLiteral("coherence"), QStringLiteral("ann"), 3},
                                       {QStringLiteral("i1"), QStringLiteral("coherence"), QStringLiteral("bob"), 4},
                                       {QStringLiteral("i2"), QStringLiteral("fluency"), QStringLiteral("ann"), 5}}));
    QVERIFY(m_project->setSplit({{QStringLiteral("i0"), SplitRole::Train},
                                 {QStringLiteral("i1"), SplitRole::Train},
                                 {QStringLiteral("i2"), SplitRole::Test}}));
}

void TestItemsModel::cleanup()
{
    m_project.reset();
    m_dir.reset();
}

void TestItemsModel::columnsAndHumanMeans()
{
    ItemsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProject(m_project.get());
    QCOMPARE(model.rowCount(), 12);
    QCOMPARE(model.columnCount(), ItemsModel::FirstAspectColumn + 3);
    QCOMPARE(model.headerData(ItemsModel::FirstAspectColumn, Qt::Horizontal).toString(), QStringLiteral("coherence"));
    QCOMPARE(model.index(1, ItemsModel::IdColumn).data().toString(), QStringLiteral("i1"));
    QCOMPARE(model.index(1, ItemsModel::GroupColumn).data().toString(), QStringLiteral("doc1"));
    QCOMPARE(model.index(1, ItemsModel::SystemColumn).data().toString(), QStringLiteral("sys1"));
    QCOMPARE(model.index(1, ItemsModel::SplitColumn).data().toString(), QStringLiteral("train"));
    QCOMPARE(model.index(2, ItemsModel::SplitColumn).data().toString(), QStringLiteral("test"));
    QCOMPARE(model.index(3, ItemsModel::SplitColumn).data().toString(), QString());
    QCOMPARE(model.index(1, ItemsModel::FirstAspectColumn).data().toString(), QStringLiteral("3.50"));
    QCOMPARE(model.index(2, ItemsModel::FirstAspectColumn + 1).data().toString(), QStringLiteral("5.00"));
    QCOMPARE(model.index(0, ItemsModel::FirstAspectColumn).data().toString(), QString());
    QVERIFY(model.index(4, ItemsModel::OutputColumn).data().toString().contains(QLatin1String("needle")));
    QCOMPARE(model.rowOf(QStringLiteral("i7")), 7);
}

void TestItemsModel::followsInsertRemoveReset()
{
    ItemsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProject(m_project.get());
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

    // Appended items arrive as one insert at the end.
    QVector<Item> more;
    for (int k = 0; k < 5; ++k)
        more.append(Item{QStringLiteral("new%1").arg(k), QStringLiteral("docX"), QStringLiteral("sys9"),
                         QStringLiteral("src"), QStringLiteral("out")});
    QVERIFY(m_project->addItems(more));
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(inserted.first().at(1).toInt(), 12);
    QCOMPARE(inserted.first().at(2).toInt(), 16);
    QCOMPARE(model.rowCount(), 17);
    QCOMPARE(model.rowOf(QStringLiteral("new4")), 16);

    // Items deleted at the end (the store has no remover yet: delete in SQL and signal).
    {
        QSqlQuery q(ProjectTestAccess::database(*m_project));
        QVERIFY(q.exec(QStringLiteral("DELETE FROM items WHERE ext_id LIKE 'new%' AND ext_id <> 'new0'")));
    }
    emit m_project->itemsChanged();
    QCOMPARE(removed.size(), 1);
    QCOMPARE(model.rowCount(), 13);
    QCOMPARE(model.rowOf(QStringLiteral("new1")), -1);

    // A new aspect changes the columns: a reset.
    QVERIFY(m_project->upsertAspect(Aspect{QStringLiteral("engagingness"), {}, 1, 3}));
    QCOMPARE(reset.size(), 1);
    QCOMPARE(model.columnCount(), ItemsModel::FirstAspectColumn + 4);
    QCOMPARE(model.index(1, ItemsModel::FirstAspectColumn).data().toString(), QStringLiteral("3.50"));

    // A reorder that is neither an append nor a truncation: a reset.
    {
        QSqlQuery q(ProjectTestAccess::database(*m_project));
        QVERIFY(q.exec(QStringLiteral("UPDATE items SET position = -1 WHERE ext_id = 'i5'")));
    }
    emit m_project->itemsChanged();
    QCOMPARE(reset.size(), 2);
    QCOMPARE(model.rowOf(QStringLiteral("i5")), 0);

    model.setProject(nullptr);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), int(ItemsModel::FirstAspectColumn));
}

void TestItemsModel::annotationAndSplitChanges()
{
    ItemsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProject(m_project.get());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(m_project->setAnnotation({QStringLiteral("i3"), QStringLiteral("relevance"), QStringLiteral("ann"), 2}));
    QCOMPARE(changed.size(), 1);
    const QModelIndex cell = model.index(3, ItemsModel::FirstAspectColumn + 2);
    QCOMPARE(changed.first().at(0).toModelIndex(), cell);
    QCOMPARE(cell.data().toString(), QStringLiteral("2.00"));
    QVERIFY(m_project->removeAnnotation(QStringLiteral("i3"), QStringLiteral("relevance"), QStringLiteral("ann")));
    QCOMPARE(cell.data().toString(), QString());

    QVERIFY(m_project->setSplit({{QStringLiteral("i3"), SplitRole::Test}}));
    QCOMPARE(model.index(3, ItemsModel::SplitColumn).data().toString(), QStringLiteral("test"));
    QCOMPARE(model.index(1, ItemsModel::SplitColumn).data().toString(), QString());
}

void TestItemsModel::filter_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("group");
    QTest::addColumn<QString>("system");
    QTest::addColumn<QString>("split");
    QTest::addColumn<int>("rows");
    QTest::newRow("nothing filters") << QString() << QString() << QString() << QString() << 12;
    QTest::newRow("text in the output") << QStringLiteral("NEEDLE") << QString() << QString() << QString() << 1;
    QTest::newRow("text in the id") << QStringLiteral("i1") << QString() << QString() << QString() << 3; // i1, i10, i11
    QTest::newRow("group") << QString() << QStringLiteral("doc1") << QString() << QString() << 4;
    QTest::newRow("system") << QString() << QString() << QStringLiteral("sys0") << QString() << 6;
    QTest::newRow("group and system") << QString() << QStringLiteral("doc1") << QStringLiteral("sys0") << QString()
                                      << 2;
    QTest::newRow("train split") << QString() << QString() << QString() << QStringLiteral("train") << 2;
    QTest::newRow("unassigned") << QString() << QString() << QString() << QStringLiteral("none") << 9;
    QTest::newRow("no match") << QStringLiteral("zebra") << QString() << QString() << QString() << 0;
    // The database searches: LIKE's wildcards in the text are plain characters.
    QTest::newRow("percent is literal") << QStringLiteral("%") << QString() << QString() << QString() << 0;
    QTest::newRow("underscore is literal") << QStringLiteral("item_1") << QString() << QString() << QString() << 0;
    QTest::newRow("any case") << QStringLiteral("source TEXT of item 11") << QString() << QString() << QString() << 1;
}

void TestItemsModel::filter()
{
    QFETCH(QString, text);
    QFETCH(QString, group);
    QFETCH(QString, system);
    QFETCH(QString, split);
    QFETCH(int, rows);
    ItemsModel model;
    model.setProject(m_project.get());
    ItemsFilterModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setItemsModel(&model);
    proxy.setText(text);
    proxy.setGroup(group);
    proxy.setSystem(system);
    proxy.setSplit(split);
    QTRY_VERIFY(!model.busy()); // read on the thread pool
    QCOMPARE(proxy.rowCount(), rows);
}

void TestItemsModel::filterSearchesWholeTexts()
{
    // Issue 34.3: the text filter searched the first 300 characters kept in memory; the database
    // searches the whole source and output.
    Item deep;
    deep.id = QStringLiteral("deep");
    deep.source = QStringLiteral("Filler sentence of a long article. ").repeated(40) + QStringLiteral("haystackend");
    deep.output = QStringLiteral("An output.");
    QVERIFY(m_project->addItems({deep}));
    ItemsModel model;
    model.setProject(m_project.get());
    QVERIFY(model.index(model.rowOf(QStringLiteral("deep")), ItemsModel::SourceColumn).data().toString().size()
            <= ItemsModel::previewLength);
    ItemsFilterModel proxy;
    proxy.setItemsModel(&model);
    proxy.setText(QStringLiteral("HAYSTACKEND"));
    QTRY_VERIFY(!model.busy());
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, ItemsModel::IdColumn).data().toString(), QStringLiteral("deep"));
    QVERIFY(proxy.searchError().isEmpty());
    // Rows added later are searched too.
    Item later = deep;
    later.id = QStringLiteral("later");
    QVERIFY(m_project->addItems({later}));
    QCOMPARE(proxy.rowCount(), 2);
}

void TestItemsModel::sortsIdsNaturally()
{
    ItemsModel model;
    model.setProject(m_project.get());
    ItemsFilterModel proxy;
    proxy.setItemsModel(&model);
    proxy.sort(ItemsModel::IdColumn, Qt::DescendingOrder);
    QTRY_VERIFY(!model.busy());
    QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("i11"));
    QCOMPARE(proxy.index(2, 0).data().toString(), QStringLiteral("i9"));
    proxy.sort(ItemsModel::FirstAspectColumn, Qt::AscendingOrder);
    QTRY_VERIFY(!model.busy());
    QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("i1")); // the only coherence score; missing last
}

void TestItemsModel::hundredThousandRows()
{
    QVector<Item> items;
    items.reserve(100000);
    for (int k = 0; k < 100000; ++k)
        items.append(Item{
                QStringLiteral("big%1").arg(k), QStringLiteral("g%1").arg(k % 500), QStringLiteral("s%1").arg(k % 16),
                QStringLiteral("A fairly long source text for row %1 that goes on for a while. ").repeated(8).arg(k),
                QStringLiteral("Output %1").arg(k)});
    QVERIFY(m_project->addItems(items));
    ItemsModel model;
    QElapsedTimer timer;
    timer.start();
    model.setProject(m_project.get());
    const qint64 loadMs = timer.elapsed();
    QCOMPARE(model.rowCount(), 100012);
    QVERIFY(model.index(20, ItemsModel::SourceColumn).data().toString().size() <= ItemsModel::previewLength);
    ItemsFilterModel proxy;
    proxy.setItemsModel(&model);
    timer.restart();
    proxy.setText(QStringLiteral("Output 9999"));
    QTRY_VERIFY_WITH_TIMEOUT(!model.busy(), 30000);
    QCOMPARE(proxy.rowCount(), 11); // 9999 and 99990…99999
    const qint64 filterMs = timer.elapsed();
    qInfo("100k rows: load %lld ms, text filter %lld ms", loadMs, filterMs);
}

void TestItemsModel::unreadableProjectIsAnErrorNotAnEmptyTable_data()
{
    QTest::addColumn<QString>("table");
    QTest::newRow("split gone") << QStringLiteral("splits");
    QTest::newRow("annotations gone") << QStringLiteral("annotations");
}

void TestItemsModel::unreadableProjectIsAnErrorNotAnEmptyTable()
{
    // Issue 18.8: a damaged project shows no half-read table as if it were the data; the models
    // say why (the studio puts it in its message bar).
    QFETCH(QString, table);
    QSqlQuery q(ProjectTestAccess::database(*m_project));
    QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys = OFF")));
    QVERIFY2(q.exec(QStringLiteral("DROP TABLE ") + table), qPrintable(q.lastError().text()));

    ItemsModel items;
    QSignalSpy itemsFailed(&items, &ItemsModel::loadFailed);
    items.setProject(m_project.get());
    QCOMPARE(itemsFailed.count(), 1);
    QVERIFY2(items.loadError().contains(QLatin1String("no such table: ") + table), qPrintable(items.loadError()));
    QCOMPARE(items.rowCount(), 0);

    ScoreModel scores;
    QSignalSpy scoresFailed(&scores, &ScoreModel::loadFailed);
    scores.setProject(m_project.get());
    // The scores are read when first asked for (opening a project reads none).
    QCOMPARE(scoresFailed.count(), 0);
    QCOMPARE(scores.rowCount(), 0);
    QVERIFY(scoresFailed.count() >= 1);
    QVERIFY2(scores.loadError().contains(QLatin1String("no such table: ") + table), qPrintable(scores.loadError()));
}

QTEST_MAIN(TestItemsModel)
#include "TestItemsModel.moc"
