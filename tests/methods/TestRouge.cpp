#include "methods/OfflineBaselines.h"
#include "methods/Rouge.h"
#include "store/Project.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

// Expected values were worked out by hand (counts in the row names' comments).
class TestRouge : public QObject
{
    Q_OBJECT
private slots:
    void tokenize();
    void scores_data();
    void scores();
    void baselinesStoredAsJudges();
};

void TestRouge::tokenize()
{
    QCOMPARE(rouge::tokenize(QStringLiteral("Hello, World! It's 2024.")),
             (QStringList{QStringLiteral("hello"), QStringLiteral("world"), QStringLiteral("it"), QStringLiteral("s"),
                          QStringLiteral("2024")}));
    QVERIFY(rouge::tokenize(QStringLiteral(" ... ")).isEmpty());
}

void TestRouge::scores_data()
{
    QTest::addColumn<QString>("candidate");
    QTest::addColumn<QString>("reference");
    QTest::addColumn<double>("r1");
    QTest::addColumn<double>("r2");
    QTest::addColumn<double>("rl");
    // 5 of 6 unigrams shared; bigrams the-cat, on-the, the-mat shared of 5; LCS the cat on the mat = 5
    QTest::newRow("cat on mat") << "the cat sat on the mat"
                                << "the cat is on the mat" << 5.0 / 6 << 3.0 / 5 << 5.0 / 6;
    // unigrams a,c: P 2/4, R 2/3 → F 4/7; no shared bigram; LCS a c = 2
    QTest::newRow("partial") << "a b c d"
                             << "a c e" << 4.0 / 7 << 0.0 << 4.0 / 7;
    // clipping: 'the' counted once (reference has one): P 1/3, R 1/2 → F 0.4
    QTest::newRow("clipped counts") << "the the the"
                                    << "the cat" << 0.4 << 0.0 << 0.4;
    // LCS need not be contiguous: 3 of 5 and 3 of 3 → 0.75; bigrams none shared
    QTest::newRow("gapped lcs") << "w1 x w2 y w3"
                                << "w1 w2 w3" << 0.75 << 0.0 << 0.75;
    QTest::newRow("case and punctuation") << "Hello, World!"
                                          << "hello world" << 1.0 << 1.0 << 1.0;
    QTest::newRow("empty candidate") << ""
                                     << "some words" << 0.0 << 0.0 << 0.0;
}

void TestRouge::scores()
{
    QFETCH(QString, candidate);
    QFETCH(QString, reference);
    QFETCH(double, r1);
    QFETCH(double, r2);
    QFETCH(double, rl);
    QVERIFY(qAbs(OfflineBaselines::score(QStringLiteral("rouge-1"), candidate, reference) - r1) < 1e-12);
    QVERIFY(qAbs(OfflineBaselines::score(QStringLiteral("rouge-2"), candidate, reference) - r2) < 1e-12);
    QVERIFY(qAbs(OfflineBaselines::score(QStringLiteral("rouge-l"), candidate, reference) - rl) < 1e-12);
}

void TestRouge::baselinesStoredAsJudges()
{
    QTemporaryDir dir;
    auto p = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY(p.ok());
    Project *project = p->get();
    QVERIFY(project->addItems({Item{QStringLiteral("a"),
                                    QStringLiteral("g"),
                                    QStringLiteral("s"),
                                    QStringLiteral("src"),
                                    QStringLiteral("the cat sat on the mat"),
                                    QStringLiteral("the cat is on the mat"),
                                    {},
                                    0},
                               Item{QStringLiteral("b"),
                                    QStringLiteral("g"),
                                    QStringLiteral("s"),
                                    QStringLiteral("src"),
                                    QStringLiteral("no reference here"),
                                    QString(),
                                    {},
                                    1}}));
    QVERIFY(project->upsertAspect(Aspect{QStringLiteral("coherence"), {}, 1, 5}));
    QVERIFY(project->upsertAspect(Aspect{QStringLiteral("fluency"), {}, 1, 5}));
    auto written = OfflineBaselines::computeAndStore(project, {QStringLiteral("coherence"), QStringLiteral("fluency")});
    QVERIFY2(written.ok(), qPrintable(written.errorString()));
    QCOMPARE(written->size(), 4);
    const auto rl = project->judgeScores(QStringLiteral("rouge-l"), QStringLiteral("fluency"));
    QCOMPARE(rl.size(), 1); // item b has no reference: missing, not zero
    QVERIFY(qAbs(rl.value(QStringLiteral("a")) - 5.0 / 6) < 1e-12);
    const auto len = project->judgeScores(QStringLiteral("length"), QStringLiteral("coherence"));
    QCOMPARE(len.value(QStringLiteral("a")), 6.0);
    QCOMPARE(len.value(QStringLiteral("b")), 3.0);
    QCOMPARE(project->judge(QStringLiteral("rouge-2"))->status, QStringLiteral("done"));
}

QTEST_GUILESS_MAIN(TestRouge)
#include "TestRouge.moc"
