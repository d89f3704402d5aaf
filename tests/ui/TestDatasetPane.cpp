#include "UiTestProject.h"
#include "models/ItemsModel.h"
#include "panes/DatasetPane.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTextBrowser>
#include <QtTest>

using namespace rubric;

class TestDatasetPane : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { testing::isolateSettings(); }
    void filterNarrowsRows();
    void viewerShowsTheSelectedItem();
    void selectItemClearsHidingFilters();
    void hundredThousandRowsScroll();
};

void TestDatasetPane::filterNarrowsRows()
{
    QTemporaryDir dir;
    auto project = testing::makeProject(dir.filePath(QStringLiteral("d.rubric")), 12);
    DatasetPane pane;
    pane.setProject(project.get());
    pane.show();
    auto *view = pane.findChild<QTableView *>(QStringLiteral("itemsView"));
    auto *filter = pane.findChild<QLineEdit *>(QStringLiteral("filterEdit"));
    auto *group = pane.findChild<QComboBox *>(QStringLiteral("groupFilter"));
    auto *system = pane.findChild<QComboBox *>(QStringLiteral("systemFilter"));
    auto *count = pane.findChild<QLabel *>(QStringLiteral("countLabel"));
    QVERIFY(view && filter && group && system && count);
    QCOMPARE(view->model()->rowCount(), 12);
    QCOMPARE(group->count(), 4); // all + doc0..doc2
    QCOMPARE(count->text(), QStringLiteral("12 of 12 items"));

    // Filters are read on the thread pool: the count says "Searching" meanwhile.
    const auto settled = [&pane] { return !pane.itemsModel()->busy(); };
    QTest::keyClicks(filter, QStringLiteral("needle"));
    QCOMPARE(count->text(), QStringLiteral("Searching 12 items…"));
    QTRY_VERIFY(settled());
    QCOMPARE(view->model()->rowCount(), 1);
    QCOMPARE(view->model()->index(0, ItemsModel::IdColumn).data().toString(), QStringLiteral("i4"));
    QCOMPARE(count->text(), QStringLiteral("1 of 12 items"));

    filter->clear();
    QTRY_VERIFY(settled());
    QCOMPARE(view->model()->rowCount(), 12);
    group->setCurrentIndex(group->findData(QStringLiteral("doc2")));
    QTRY_VERIFY(settled());
    QCOMPARE(view->model()->rowCount(), 4);
    system->setCurrentIndex(system->findData(QStringLiteral("sys1")));
    QTRY_VERIFY(settled());
    QCOMPARE(view->model()->rowCount(), 2); // i5, i11
    QCOMPARE(count->text(), QStringLiteral("2 of 12 items"));
}

void TestDatasetPane::viewerShowsTheSelectedItem()
{
    QTemporaryDir dir;
    auto project = testing::makeProject(dir.filePath(QStringLiteral("d.rubric")), 5);
    DatasetPane pane;
    pane.setProject(project.get());
    pane.resize(1000, 700);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    auto *view = pane.findChild<QTableView *>(QStringLiteral("itemsView"));
    QCOMPARE(pane.currentItemId(), QStringLiteral("i0")); // the first row is selected on open
    const QRect cell = view->visualRect(view->model()->index(3, ItemsModel::OutputColumn));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(pane.currentItemId(), QStringLiteral("i3"));
    QCOMPARE(pane.findChild<QTextBrowser *>(QStringLiteral("outputView"))->toPlainText(),
             QStringLiteral("Output of item 3."));
    QVERIFY(pane.findChild<QTextBrowser *>(QStringLiteral("sourceView"))
                    ->toPlainText()
                    .startsWith(QLatin1String("Source text of item 3.")));
    QCOMPARE(pane.findChild<QTextBrowser *>(QStringLiteral("referenceView"))->toPlainText(),
             QStringLiteral("Reference 3"));
    QVERIFY(pane.findChild<QLabel *>(QStringLiteral("itemTitle"))->text().contains(QLatin1String("doc0")));
}

void TestDatasetPane::selectItemClearsHidingFilters()
{
    QTemporaryDir dir;
    auto project = testing::makeProject(dir.filePath(QStringLiteral("d.rubric")), 12);
    DatasetPane pane;
    pane.setProject(project.get());
    auto *filter = pane.findChild<QLineEdit *>(QStringLiteral("filterEdit"));
    QTest::keyClicks(filter, QStringLiteral("needle"));
    QTRY_VERIFY(!pane.itemsModel()->busy());
    QCOMPARE(pane.itemsModel()->rowCount(), 1); // i4 only: i7 is hidden
    QVERIFY(pane.selectItem(QStringLiteral("i7")));
    QVERIFY(filter->text().isEmpty());
    QCOMPARE(pane.currentItemId(), QStringLiteral("i7"));
    auto *view = pane.findChild<QTableView *>(QStringLiteral("itemsView"));
    // Selected once the unfiltered rows are read (on the thread pool).
    QTRY_COMPARE(view->currentIndex().data(ItemsModel::ItemIdRole).toString(), QStringLiteral("i7"));
    QVERIFY(!pane.selectItem(QStringLiteral("nope")));
}

void TestDatasetPane::hundredThousandRowsScroll()
{
    QTemporaryDir dir;
    auto project = testing::makeProject(dir.filePath(QStringLiteral("big.rubric")), 0);
    QVector<Item> items;
    for (int k = 0; k < 100000; ++k)
        items.append(Item{
                QStringLiteral("%1").arg(k), QStringLiteral("doc%1").arg(k / 16), QStringLiteral("M%1").arg(k % 16),
                QStringLiteral("A source sentence that is long enough to be elided in the table. ").repeated(10),
                QStringLiteral("Output %1").arg(k)});
    QVERIFY(project->addItems(items));
    DatasetPane pane;
    pane.resize(1200, 800);
    QElapsedTimer timer;
    timer.start();
    pane.setProject(project.get());
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    const qint64 openMs = timer.elapsed();
    auto *view = pane.findChild<QTableView *>(QStringLiteral("itemsView"));
    QCOMPARE(view->model()->rowCount(), 100000);
    // Page through the table, repainting each page synchronously; the worst page is reported.
    qint64 worst = 0;
    for (int page = 0; page < 50; ++page) {
        view->verticalScrollBar()->setValue(page * 2000);
        timer.restart();
        view->viewport()->repaint();
        worst = std::max(worst, timer.elapsed());
    }
    view->scrollToBottom();
    view->viewport()->repaint();
    QCOMPARE(view->rowAt(view->viewport()->height() - 2) >= 99990, true);
    qInfo("100k rows: open %lld ms, worst page repaint %lld ms", openMs, worst);
    QVERIFY2(worst < 200, "a page of the table takes too long to paint");
}

QTEST_MAIN(TestDatasetPane)
#include "TestDatasetPane.moc"
