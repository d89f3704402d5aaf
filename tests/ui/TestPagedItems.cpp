// Issue 34.1: the Dataset pane's table at scale. The paged model shows exactly what an
// independent read of the file gives, at any position after scrolling, sorting and filtering,
// and never holds more than a bounded number of rows. The expected rows are computed here from a
// direct read of the tables (QSqlQuery) with the filter and the order written again in this
// file, not through the store under test.
#include "ProjectTestAccess.h"
#include "UiTestProject.h"
#include "models/ItemsFilterModel.h"
#include "models/ItemsModel.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableView>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace rubric;

namespace {

constexpr int kItems = 6000;

struct Expected
{
    QString id, group, system, split, source, output;
    int position = 0;
    double coherence = std::nan("");
};

/// Natural order written independently of the store: the texts split into runs of digits and
/// runs of other characters; digit runs compare as numbers, other runs case-insensitively.
int naturalOrder(const QString &a, const QString &b)
{
    static const QRegularExpression runs(QStringLiteral("\\d+|\\D+"));
    auto ia = runs.globalMatch(a), ib = runs.globalMatch(b);
    while (ia.hasNext() && ib.hasNext()) {
        const QString x = ia.next().captured(), y = ib.next().captured();
        const bool dx = x.front().isDigit(), dy = y.front().isDigit();
        if (dx && dy) {
            const qulonglong vx = x.toULongLong(), vy = y.toULongLong();
            if (vx != vy)
                return vx < vy ? -1 : 1;
            continue;
        }
        const int c = QString::compare(x, y, Qt::CaseInsensitive);
        if (c != 0)
            return c < 0 ? -1 : 1;
    }
    return ia.hasNext() ? 1 : ib.hasNext() ? -1 : 0;
}

QString humanText(double v)
{
    return std::isnan(v) ? QString() : QString::number(v, 'f', 2);
}

} // namespace

class TestPagedItems : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void rowsMatchAnIndependentRead_data();
    void rowsMatchAnIndependentRead();
    void holdsABoundedNumberOfRows();
    void sortAndFilterAreReadOffTheGuiThread();

private:
    QVector<Expected> readAll() const;
    QVector<Expected> expectedRows(const QString &text, const QString &group, const QString &split, int column,
                                   Qt::SortOrder order) const;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Project> m_project;
};

void TestPagedItems::initTestCase()
{
    testing::isolateSettings();
    m_dir = std::make_unique<QTemporaryDir>();
    auto opened = Project::open(m_dir->filePath(QStringLiteral("paged.rubric")));
    QVERIFY2(opened, qPrintable(opened.errorString()));
    m_project = std::move(opened).value();
    QVERIFY(m_project->upsertAspect(Aspect{QStringLiteral("coherence"), QString(), 1, 5}));
    QVector<Item> items;
    for (int k = 0; k < kItems; ++k) {
        Item it;
        // Ids of three shapes, imported out of natural order: "b12", "A7", "item-003".
        it.id = k % 3 == 0   ? QStringLiteral("b%1").arg((k * 7919) % 100000)
                : k % 3 == 1 ? QStringLiteral("A%1").arg(k)
                             : QStringLiteral("item-%1").arg(k, 3, 10, QLatin1Char('0'));
        it.group = QStringLiteral("doc%1").arg(k % 41);
        it.system = QStringLiteral("Sys%1").arg(k % 5);
        it.source = QStringLiteral("Article %1 about topic %2. ").arg(k / 16).arg(k % 13).repeated(20)
                    + (k % 500 == 7 ? QStringLiteral(" deepword at the end") : QString());
        it.output = QStringLiteral("Summary number %1 of system %2").arg(k).arg(k % 5);
        items.append(it);
    }
    QVERIFY(m_project->addItems(items));
    QVector<Annotation> annotations;
    QHash<QString, SplitRole> split;
    for (int k = 0; k < kItems; ++k) {
        if (k % 4 == 0)
            annotations.append({items[k].id, QStringLiteral("coherence"), QStringLiteral("ann"), double(k % 5 + 1)});
        if (k % 12 == 0)
            annotations.append({items[k].id, QStringLiteral("coherence"), QStringLiteral("bob"), double(k % 3 + 1)});
        if (k % 7 == 0)
            split.insert(items[k].id, SplitRole::Train);
        else if (k % 11 == 0)
            split.insert(items[k].id, SplitRole::Test);
    }
    QVERIFY(m_project->addAnnotations(annotations));
    QVERIFY(m_project->setSplit(split));
}

void TestPagedItems::cleanupTestCase()
{
    m_project.reset();
    m_dir.reset();
}

QVector<Expected> TestPagedItems::readAll() const
{
    QVector<Expected> out;
    QSqlQuery q(ProjectTestAccess::database(*m_project));
    if (!q.exec(QStringLiteral("SELECT i.ext_id, i.group_id, i.system_id, COALESCE(s.role, ''), ts.body, tout.body, "
                               "i.position, (SELECT AVG(n.score) FROM annotations n JOIN aspects a ON a.id = "
                               "n.aspect_id WHERE n.item_id = i.id AND a.name = 'coherence') FROM items i LEFT JOIN "
                               "splits s ON s.item_id = i.id LEFT JOIN texts ts ON ts.id = i.source_id LEFT JOIN "
                               "texts tout ON tout.id = i.output_id ORDER BY i.position")))
        qFatal("%s", qPrintable(q.lastError().text()));
    while (q.next()) {
        Expected e;
        e.id = q.value(0).toString();
        e.group = q.value(1).toString();
        e.system = q.value(2).toString();
        e.split = q.value(3).toString();
        e.source = q.value(4).toString();
        e.output = q.value(5).toString();
        e.position = q.value(6).toInt();
        if (!q.value(7).isNull())
            e.coherence = q.value(7).toDouble();
        out.append(e);
    }
    return out;
}

QVector<Expected> TestPagedItems::expectedRows(const QString &text, const QString &group, const QString &split,
                                               int column, Qt::SortOrder order) const
{
    QVector<Expected> rows;
    for (const Expected &e : readAll()) {
        if (!group.isEmpty() && e.group != group)
            continue;
        if (split == QLatin1String("none") ? !e.split.isEmpty() : !split.isEmpty() && e.split != split)
            continue;
        if (!text.isEmpty()) {
            bool found = false;
            for (const QString *s : {&e.id, &e.group, &e.system, &e.source, &e.output})
                found = found || s->contains(text, Qt::CaseInsensitive);
            if (!found)
                continue;
        }
        rows.append(e);
    }
    const bool down = order == Qt::DescendingOrder;
    const auto byText = [down](const QString &a, const QString &b) {
        const int c = naturalOrder(a, b);
        return down ? c > 0 : c < 0;
    };
    switch (column) {
    case ItemsModel::IdColumn:
        std::stable_sort(rows.begin(), rows.end(), [&](auto &a, auto &b) { return byText(a.id, b.id); });
        break;
    case ItemsModel::SystemColumn:
        std::stable_sort(rows.begin(), rows.end(), [&](auto &a, auto &b) { return byText(a.system, b.system); });
        break;
    case ItemsModel::OutputColumn:
        std::stable_sort(rows.begin(), rows.end(), [&](auto &a, auto &b) { return byText(a.output, b.output); });
        break;
    case ItemsModel::FirstAspectColumn:
        // Items without a score last, whichever the direction.
        std::stable_sort(rows.begin(), rows.end(), [down](const Expected &a, const Expected &b) {
            if (std::isnan(a.coherence) != std::isnan(b.coherence))
                return std::isnan(b.coherence);
            if (std::isnan(a.coherence))
                return false;
            return down ? a.coherence > b.coherence : a.coherence < b.coherence;
        });
        break;
    default:
        break;
    }
    return rows;
}

void TestPagedItems::rowsMatchAnIndependentRead_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("group");
    QTest::addColumn<QString>("split");
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("order");
    const int up = Qt::AscendingOrder, down = Qt::DescendingOrder;
    QTest::newRow("import order") << QString() << QString() << QString() << -1 << up;
    QTest::newRow("ids naturally") << QString() << QString() << QString() << int(ItemsModel::IdColumn) << up;
    QTest::newRow("ids naturally, down") << QString() << QString() << QString() << int(ItemsModel::IdColumn) << down;
    QTest::newRow("system, down") << QString() << QString() << QString() << int(ItemsModel::SystemColumn) << down;
    QTest::newRow("output") << QString() << QString() << QString() << int(ItemsModel::OutputColumn) << up;
    QTest::newRow("human score, missing last")
            << QString() << QString() << QString() << int(ItemsModel::FirstAspectColumn) << up;
    QTest::newRow("human score down, missing last")
            << QString() << QString() << QString() << int(ItemsModel::FirstAspectColumn) << down;
    QTest::newRow("text in the source, far in") << QStringLiteral("DEEPWORD") << QString() << QString() << -1 << up;
    QTest::newRow("text in the output, by id")
            << QStringLiteral("number 1") << QString() << QString() << int(ItemsModel::IdColumn) << up;
    QTest::newRow("group and train split, by score") << QString() << QStringLiteral("doc3") << QStringLiteral("train")
                                                     << int(ItemsModel::FirstAspectColumn) << down;
    QTest::newRow("unassigned, text, by system")
            << QStringLiteral("topic 4") << QString() << QStringLiteral("none") << int(ItemsModel::SystemColumn) << up;
    QTest::newRow("nothing matches") << QStringLiteral("zebra") << QString() << QString() << -1 << up;
}

void TestPagedItems::rowsMatchAnIndependentRead()
{
    QFETCH(QString, text);
    QFETCH(QString, group);
    QFETCH(QString, split);
    QFETCH(int, column);
    QFETCH(int, order);
    const QVector<Expected> expected = expectedRows(text, group, split, column, Qt::SortOrder(order));

    ItemsModel model;
    model.setProject(m_project.get());
    ItemsFilterModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setItemsModel(&model);
    QTableView view;
    view.setModel(&proxy);
    view.setSortingEnabled(true);
    view.resize(900, 420);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    // Filtered through the widgets' door (the pane's combos and edit call these), sorted by a
    // click on the header.
    proxy.setText(text);
    proxy.setGroup(group);
    proxy.setSplit(split);
    if (column >= 0) {
        view.sortByColumn(column, Qt::SortOrder(order));
        QCOMPARE(view.horizontalHeader()->sortIndicatorSection(), column);
    } else {
        view.sortByColumn(-1, Qt::AscendingOrder);
    }
    QTRY_VERIFY_WITH_TIMEOUT(!model.busy(), 20000); // read on the thread pool
    QVERIFY2(proxy.searchError().isEmpty(), qPrintable(proxy.searchError()));
    QCOMPARE(proxy.rowCount(), int(expected.size()));
    if (expected.isEmpty())
        return;

    // Rows the view shows at positions across the list, each checked against the independent read.
    const int last = int(expected.size()) - 1;
    for (const int at : {0, last / 3, last / 2 + 17, (last * 7) / 8, last}) {
        view.scrollTo(proxy.index(at, 0), QAbstractItemView::PositionAtTop);
        (void)view.viewport()->grab(); // painted: the view asked for the rows it shows
        const int top = view.rowAt(0);
        int bottom = view.rowAt(view.viewport()->height() - 1);
        if (bottom < 0)
            bottom = last;
        QVERIFY(top >= 0 && top <= at);
        for (int r = top; r <= bottom; ++r) {
            const Expected &e = expected[r];
            const auto cell = [&](int c) { return proxy.index(r, c).data().toString(); };
            QCOMPARE(cell(ItemsModel::IdColumn), e.id);
            QCOMPARE(cell(ItemsModel::GroupColumn), e.group);
            QCOMPARE(cell(ItemsModel::SystemColumn), e.system);
            QCOMPARE(cell(ItemsModel::SplitColumn), e.split);
            QCOMPARE(cell(ItemsModel::SourceColumn), e.source.left(ItemsModel::previewLength).simplified());
            QCOMPARE(cell(ItemsModel::OutputColumn), e.output.simplified());
            QCOMPARE(cell(ItemsModel::FirstAspectColumn), humanText(e.coherence));
            QCOMPARE(proxy.index(r, 0).data(ItemsModel::ItemIdRole).toString(), e.id);
        }
    }
    // The view's row of an item is where the independent order has it.
    const Expected &middle = expected[last / 2];
    QCOMPARE(model.rowOf(middle.id), last / 2);
}

void TestPagedItems::holdsABoundedNumberOfRows()
{
    ItemsModel model;
    model.setProject(m_project.get());
    ItemsFilterModel proxy;
    proxy.setItemsModel(&model);
    QTableView view;
    view.setModel(&proxy);
    view.resize(900, 420);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    constexpr int bound = ItemsModel::kPagesKept * ItemsModel::kPageRows;
    QVERIFY(bound < kItems); // the walk below must overflow the cache
    QCOMPARE(model.rowCount(), kItems);
    QScrollBar *bar = view.verticalScrollBar();
    int largest = 0;
    for (int value = 0; value <= bar->maximum(); value += std::max(1, bar->pageStep() / 2)) {
        bar->setValue(value);
        (void)view.viewport()->grab();
        largest = std::max(largest, model.cachedRows());
    }
    // Rows read one by one, everywhere, as a delegate or a tooltip might.
    for (int r = 0; r < kItems; r += 37) {
        QVERIFY(!model.row(r).id.isEmpty());
        largest = std::max(largest, model.cachedRows());
    }
    QVERIFY2(largest <= bound, qPrintable(QStringLiteral("%1 rows held").arg(largest)));
    QVERIFY(largest > 0);
    QCOMPARE(model.row(kItems - 1).id, readAll().last().id);
}

void TestPagedItems::sortAndFilterAreReadOffTheGuiThread()
{
    // Issue 34: a sort or text filter at a million items took seconds in SQLite with the event
    // loop stopped. They are read on the thread pool: the call returns at once with the rows of
    // before still shown, and a burst of requests (typing, header clicks) ends in the last one.
    ItemsModel model;
    model.setProject(m_project.get());
    ItemsFilterModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setItemsModel(&model);
    QTableView view;
    view.setModel(&proxy);
    view.setSortingEnabled(true);
    view.sortByColumn(-1, Qt::AscendingOrder);
    view.resize(900, 420);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(!model.busy());
    QCOMPARE(model.rowCount(), kItems);
    const QString firstBefore = proxy.index(0, ItemsModel::IdColumn).data().toString();
    QSignalSpy busy(&model, &ItemsModel::busyChanged);

    // Typed letter by letter, then sorted twice: every call returns before its read is done.
    const QString typed = QStringLiteral("topic 1");
    for (int k = 1; k <= typed.size(); ++k) {
        proxy.setText(typed.left(k));
        QVERIFY(model.busy());
        QCOMPARE(model.rowCount(), kItems); // the rows of before, until the read is done
        QCOMPARE(proxy.index(0, ItemsModel::IdColumn).data().toString(), firstBefore);
    }
    view.sortByColumn(ItemsModel::SystemColumn, Qt::AscendingOrder);
    view.sortByColumn(ItemsModel::IdColumn, Qt::DescendingOrder);
    QVERIFY(model.busy());
    QCOMPARE(model.rowCount(), kItems);
    QCOMPARE(busy.count(), 1); // one busy stretch for the whole burst
    QTRY_VERIFY_WITH_TIMEOUT(!model.busy(), 20000);
    QCOMPARE(busy.count(), 2);
    QCOMPARE(busy.at(1).at(0).toBool(), false);

    // What is shown is the last filter in the last order, as an independent read has it.
    const QVector<Expected> expected = expectedRows(typed, {}, {}, ItemsModel::IdColumn, Qt::DescendingOrder);
    QVERIFY(expected.size() > 100 && expected.size() < kItems);
    QVERIFY2(proxy.searchError().isEmpty(), qPrintable(proxy.searchError()));
    QCOMPARE(proxy.rowCount(), int(expected.size()));
    for (const int r : {0, 1, int(expected.size()) / 2, int(expected.size()) - 1})
        QCOMPARE(proxy.index(r, ItemsModel::IdColumn).data().toString(), expected[r].id);

    // A sort keeps the selected item selected (a layout change, not a reset), after the read.
    const QString picked = expected[7].id;
    view.selectRow(7);
    view.sortByColumn(ItemsModel::OutputColumn, Qt::AscendingOrder);
    QCOMPARE(view.currentIndex().row(), 7); // not moved yet
    QTRY_VERIFY_WITH_TIMEOUT(!model.busy(), 20000);
    QCOMPARE(view.currentIndex().data(ItemsModel::ItemIdRole).toString(), picked);
    QCOMPARE(view.currentIndex().row(), model.rowOf(picked));

    // Unbinding while a read is in flight waits for it and shows nothing.
    proxy.setText(QStringLiteral("Summary"));
    QVERIFY(model.busy());
    model.setProject(nullptr);
    QVERIFY(!model.busy());
    QCOMPARE(model.rowCount(), 0);
}

QTEST_MAIN(TestPagedItems)
#include "TestPagedItems.moc"
