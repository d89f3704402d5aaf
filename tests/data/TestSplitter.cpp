#include "io/Splitter.h"
#include "store/Project.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

/// 10 groups x 4 systems = 40 items; aspect "a" scored on all but the 4 items of group g9,
/// aspect "b" only on group g9.
class TestSplitter : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void stratified_data();
    void stratified();
    void reproducibleBySeed();
    void refusesImpossibleRequests_data();
    void refusesImpossibleRequests();
    void applyStoresSplitAndParameters();
    void groupDisjoint_data();
    void groupDisjoint();
    void groupDisjointNeedsATestGroup();
    void wholeGroupsFrom();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Project> m_project;
};

void TestSplitter::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto p = Project::open(m_dir->filePath(QStringLiteral("p.rubric")));
    QVERIFY2(p.ok(), qPrintable(p.errorString()));
    m_project = std::move(p).value();
    QVector<Item> items;
    QVector<Annotation> annotations;
    for (int g = 0; g < 10; ++g) {
        for (int s = 0; s < 4; ++s) {
            Item it;
            it.id = QStringLiteral("i%1_%2").arg(g).arg(s);
            it.group = QStringLiteral("g%1").arg(g);
            it.system = QStringLiteral("s%1").arg(s);
            it.output = it.id;
            // Project binds a null QString as NULL, which the NOT NULL columns refuse: use "" (see report).
            it.source = it.reference = QStringLiteral("");
            items.append(it);
            annotations.append(Annotation{it.id,
                                          g == 9 ? QStringLiteral("b") : QStringLiteral("a"),
                                          QStringLiteral("r"),
                                          double(1 + (g + s) % 5),
                                          QStringLiteral(""),
                                          {}});
        }
    }
    QVERIFY(m_project->addItems(items).ok());
    QVERIFY(m_project->upsertAspect(Aspect{QStringLiteral("a"), QStringLiteral(""), 1, 5}).ok());
    QVERIFY(m_project->upsertAspect(Aspect{QStringLiteral("b"), QStringLiteral(""), 1, 5}).ok());
    QVERIFY(m_project->addAnnotations(annotations).ok());
}

void TestSplitter::cleanup()
{
    m_project.reset();
    m_dir.reset();
}

void TestSplitter::stratified_data()
{
    QTest::addColumn<QString>("aspect");
    QTest::addColumn<int>("stratify");
    QTest::addColumn<int>("train");
    QTest::addColumn<int>("eligible");
    QTest::addColumn<int>("perStratum"); ///< training items each stratum must get (-1: not checked)

    QTest::newRow("one per group") << QStringLiteral("a") << int(Stratify::Group) << 9 << 36 << 1;
    QTest::newRow("two per group") << QStringLiteral("a") << int(Stratify::Group) << 18 << 36 << 2;
    QTest::newRow("three per system") << QStringLiteral("a") << int(Stratify::System) << 12 << 36 << 3;
    QTest::newRow("any aspect, one per group") << QString() << int(Stratify::Group) << 10 << 40 << 1;
    QTest::newRow("unstratified") << QStringLiteral("a") << int(Stratify::None) << 7 << 36 << -1;
    QTest::newRow("everything") << QStringLiteral("b") << int(Stratify::Group) << 4 << 4 << 4;
}

void TestSplitter::stratified()
{
    QFETCH(QString, aspect);
    QFETCH(int, stratify);
    QFETCH(int, train);
    QFETCH(int, eligible);
    QFETCH(int, perStratum);
    auto roles = Splitter::draw(*m_project, SplitOptions{train, 42, aspect, Stratify(stratify)});
    QVERIFY2(roles.ok(), qPrintable(roles.errorString()));
    QCOMPARE(int(roles->size()), eligible);
    QHash<QString, int> perKey;
    int drawn = 0;
    for (auto it = roles->begin(); it != roles->end(); ++it) {
        if (!aspect.isEmpty())
            QVERIFY(m_project->humanScores(aspect).contains(it.key()));
        if (it.value() != SplitRole::Train)
            continue;
        ++drawn;
        const Item item = *m_project->item(it.key());
        perKey[Stratify(stratify) == Stratify::System ? item.system : item.group]++;
    }
    QCOMPARE(drawn, train);
    if (perStratum > 0)
        for (int n : std::as_const(perKey))
            QCOMPARE(n, perStratum);
}

void TestSplitter::reproducibleBySeed()
{
    const auto a = Splitter::draw(*m_project, SplitOptions{9, 7, QStringLiteral("a"), Stratify::Group});
    const auto b = Splitter::draw(*m_project, SplitOptions{9, 7, QStringLiteral("a"), Stratify::Group});
    const auto c = Splitter::draw(*m_project, SplitOptions{9, 8, QStringLiteral("a"), Stratify::Group});
    QVERIFY(a.ok() && b.ok() && c.ok());
    QCOMPARE(*a, *b);
    QVERIFY(*a != *c);
}

void TestSplitter::refusesImpossibleRequests_data()
{
    QTest::addColumn<int>("train");
    QTest::addColumn<QString>("aspect");
    QTest::addColumn<QString>("says");
    QTest::newRow("more than scored") << 37 << QStringLiteral("a") << QStringLiteral("between 1 and 36");
    QTest::newRow("zero") << 0 << QStringLiteral("a") << QStringLiteral("between 1 and 36");
    QTest::newRow("unknown aspect") << 3 << QStringLiteral("nope") << QStringLiteral("no aspect named 'nope'");
}

void TestSplitter::refusesImpossibleRequests()
{
    QFETCH(int, train);
    QFETCH(QString, aspect);
    QFETCH(QString, says);
    auto r = Splitter::apply(*m_project, SplitOptions{train, 1, aspect, Stratify::Group});
    QVERIFY(!r.ok());
    QVERIFY2(r.errorString().contains(says), qPrintable(r.errorString()));
    QVERIFY(m_project->split().isEmpty());
}

void TestSplitter::applyStoresSplitAndParameters()
{
    auto r = Splitter::apply(*m_project, SplitOptions{9, 5, QStringLiteral("a"), Stratify::Group});
    QVERIFY2(r.ok(), qPrintable(r.errorString()));
    QCOMPARE(r->train, 9);
    QCOMPARE(r->test, 27);
    QCOMPARE(r->unassigned, 4);
    QCOMPARE(int(m_project->itemIds(SplitFilter::Train).size()), 9);
    QCOMPARE(int(m_project->itemIds(SplitFilter::Test).size()), 27);
    QCOMPARE(m_project->meta(QStringLiteral("split.seed")), QStringLiteral("5"));
    QVERIFY(m_project->meta(QStringLiteral("split.params")).contains(QStringLiteral("\"stratify\":\"group\"")));
    QCOMPARE(m_project->split(), *Splitter::draw(*m_project, SplitOptions{9, 5, QStringLiteral("a"), Stratify::Group}));
}

void TestSplitter::groupDisjoint_data()
{
    QTest::addColumn<int>("train");
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("expectedTrain"); ///< whole groups of 4: the first multiple of 4 ≥ train
    QTest::newRow("exact groups") << 8 << quint64(1) << 8;
    QTest::newRow("rounded up to whole groups") << 9 << quint64(2) << 12;
    QTest::newRow("one item asked, one group drawn") << 1 << quint64(3) << 4;
}

void TestSplitter::groupDisjoint()
{
    QFETCH(int, train);
    QFETCH(quint64, seed);
    QFETCH(int, expectedTrain);
    SplitOptions o{train, seed, QStringLiteral("a"), Stratify::Group};
    o.byGroup = true;
    auto r = Splitter::apply(*m_project, o);
    QVERIFY2(r.ok(), qPrintable(r.errorString()));
    QCOMPARE(r->train, expectedTrain);
    QCOMPARE(r->test, 36 - expectedTrain);
    QSet<QString> trainGroups, testGroups;
    const auto roles = m_project->split();
    for (auto it = roles.begin(); it != roles.end(); ++it)
        (it.value() == SplitRole::Train ? trainGroups : testGroups).insert(m_project->item(it.key())->group);
    QVERIFY(!trainGroups.isEmpty() && !testGroups.isEmpty());
    QVERIFY(!trainGroups.intersects(testGroups));
    QCOMPARE(int(trainGroups.size()), expectedTrain / 4);
    QVERIFY(m_project->meta(QStringLiteral("split.params")).contains(QStringLiteral("\"by_group\":true")));
    // The same seed draws the same groups; the plain draw would mix groups across the sides.
    QCOMPARE(*Splitter::draw(*m_project, o), roles);
    SplitOptions plain = o;
    plain.byGroup = false;
    plain.train = 9;
    QSet<QString> plainTrain, plainTest;
    const auto mixed = *Splitter::draw(*m_project, plain);
    for (auto it = mixed.begin(); it != mixed.end(); ++it)
        (it.value() == SplitRole::Train ? plainTrain : plainTest).insert(m_project->item(it.key())->group);
    QVERIFY(plainTrain.intersects(plainTest));
}

void TestSplitter::groupDisjointNeedsATestGroup()
{
    SplitOptions o{33, 1, QStringLiteral("a"), Stratify::Group};
    o.byGroup = true;
    auto r = Splitter::draw(*m_project, o);
    QVERIFY(!r.ok());
    QVERIFY2(r.errorString().contains(QLatin1String("no group for the test side")), qPrintable(r.errorString()));
}

void TestSplitter::wholeGroupsFrom()
{
    // Preference order: one item of g3, then of g1, then the rest of g0..g8 in order.
    QStringList order{QStringLiteral("i3_2"), QStringLiteral("i1_0")};
    for (int g = 0; g < 9; ++g)
        for (int s = 0; s < 4; ++s)
            if (!order.contains(QStringLiteral("i%1_%2").arg(g).arg(s)))
                order.append(QStringLiteral("i%1_%2").arg(g).arg(s));
    const auto roles = Splitter::wholeGroupsFrom(*m_project, order, 5);
    QVERIFY2(roles.ok(), qPrintable(roles.errorString()));
    QCOMPARE(int(roles->size()), 36);
    QSet<QString> train;
    for (auto it = roles->begin(); it != roles->end(); ++it)
        if (it.value() == SplitRole::Train)
            train.insert(it.key().section(QLatin1Char('_'), 0, 0));
    QCOMPARE(train, (QSet<QString>{QStringLiteral("i3"), QStringLiteral("i1")})); // whole g3 and g1: 8 items
    QCOMPARE(int(std::count(roles->begin(), roles->end(), SplitRole::Train)), 8);
    const auto all = Splitter::wholeGroupsFrom(*m_project, order, 36);
    QVERIFY(!all.ok());
    QVERIFY2(all.errorString().contains(QLatin1String("no group for the test side")), qPrintable(all.errorString()));
}

QTEST_GUILESS_MAIN(TestSplitter)
#include "TestSplitter.moc"
