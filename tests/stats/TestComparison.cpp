#include "stats/Bootstrap.h"
#include "stats/Comparison.h"
#include "stats/ProjectData.h"
#include "store/CallStore.h"
#include "store/Project.h"
#include "store/ScoreColumns.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace rubric;
using namespace rubric::stats;

/// compareJudges over a real project file, against tests/stats/compare_reference.json (scipy;
/// made by tests/stats/make_compare_reference.py, the command is in its header).
class TestComparison : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void againstScipy();
    void identicalJudgesAreExactlyEqual();
    void sharedReplicatesEqualEachJudgeAlone();
    void columnStoreJudgesEqualReadJudges();
    void everyJudgeWithCost();
    void errorsNameTheJudge();
    void outputsShareTheRounding();
    void groupLevelAndStop();
    void coderMatrixColumnsOfSeveralJudges();

private:
    CompareOptions options(QStringList judges) const;
    QTemporaryDir m_dir;
    QString m_path;
    QJsonObject m_ref;
};

void TestComparison::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QFile f(QStringLiteral(RUBRIC_TEST_DATA "/compare_reference.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    m_ref = QJsonDocument::fromJson(f.readAll()).object();
    QVERIFY(!m_ref.isEmpty());

    m_path = m_dir.filePath(QStringLiteral("compare.rubric"));
    auto p = Project::open(m_path);
    QVERIFY(p);
    Project &project = **p;
    QVERIFY(project.upsertAspect({QStringLiteral("coherence"), QStringLiteral("Is it coherent?"), 1, 5}));
    QVERIFY(project.upsertAspect({QStringLiteral("fluency"), QStringLiteral("Is it fluent?"), 1, 5}));
    QVector<Item> items;
    const QJsonArray refItems = m_ref.value(QStringLiteral("items")).toArray();
    for (const QJsonValue &v : refItems) {
        Item it;
        it.id = v[QStringLiteral("id")].toString();
        it.group = v[QStringLiteral("group")].toString();
        it.system = v[QStringLiteral("system")].toString();
        it.source = QStringLiteral("source ") + it.id;
        it.output = QStringLiteral("output ") + it.id;
        items.append(it);
    }
    QVERIFY(project.addItems(items));
    QVector<Annotation> annotations;
    QHash<QString, double> good, weak;
    for (int i = 0; i < items.size(); ++i) {
        for (const QString &who : {QStringLiteral("a1"), QStringLiteral("a2")})
            annotations.append({items[i].id,
                                QStringLiteral("coherence"),
                                who,
                                m_ref.value(who).toArray().at(i).toDouble(),
                                {},
                                {}});
        good.insert(items[i].id, m_ref.value(QStringLiteral("good")).toArray().at(i).toDouble());
        weak.insert(items[i].id, m_ref.value(QStringLiteral("weak")).toArray().at(i).toDouble());
    }
    QVERIFY(project.addAnnotations(annotations));
    QVERIFY(project.ensureJudge(QStringLiteral("good"), QStringLiteral("geval")));
    QVERIFY(project.setJudgeScores(QStringLiteral("good"), QStringLiteral("coherence"), good));
    QVERIFY(project.ensureJudge(QStringLiteral("weak_baseline"), QStringLiteral("length")));
    QVERIFY(project.setJudgeScores(QStringLiteral("weak_baseline"), QStringLiteral("coherence"), weak));
    QVERIFY(project.ensureJudge(QStringLiteral("twin"), QStringLiteral("imported")));
    QVERIFY(project.setJudgeScores(QStringLiteral("twin"), QStringLiteral("coherence"), good));
    QVERIFY(project.ensureJudge(QStringLiteral("fluent-only"), QStringLiteral("geval")));
    QVERIFY(project.setJudgeScores(QStringLiteral("fluent-only"), QStringLiteral("fluency"), good));
    // The ledger: "good" made 2 calls per item at $0.0015 each (one failed: still a call paid for).
    CallStore calls(&project);
    for (int i = 0; i < 2 * items.size(); ++i) {
        LedgerEntry e;
        e.key = QStringLiteral("k%1").arg(i);
        e.run = QStringLiteral("good");
        e.outcome = i == 0 ? QStringLiteral("failed") : QStringLiteral("ok");
        e.cost = 0.0015;
        calls.addLedger(e);
    }
    QVERIFY(calls.flush());
}

CompareOptions TestComparison::options(QStringList judges) const
{
    CompareOptions o;
    o.aspect = QStringLiteral("coherence");
    o.judges = std::move(judges);
    o.bootstrap = 300;
    o.permutations = 2000;
    o.seed = 7;
    return o;
}

void TestComparison::againstScipy()
{
    auto p = Project::open(m_path);
    QVERIFY(p);
    CompareOptions o = options({QStringLiteral("good"), QStringLiteral("weak_baseline")});
    o.permutations = 40000; // Monte Carlo p within ±0.008 (4 standard errors at p ≈ 0.03) of the exact one
    const auto c = compareJudges(**p, o);
    QVERIFY2(c, qPrintable(c ? QString() : c.errorString()));
    QCOMPARE(c->judges.size(), 2);
    const QJsonObject ref = m_ref.value(QStringLiteral("judges")).toObject();
    for (const JudgeAlignment &j : c->judges) {
        const QJsonObject r
                = ref.value(j.judge == QLatin1String("good") ? QStringLiteral("good") : QStringLiteral("weak"))
                          .toObject();
        QCOMPARE(j.n, 16);
        for (Coefficient k : kCoefficients)
            QVERIFY2(std::abs(j.value(k) - r.value(coefficientName(k)).toDouble()) < 1e-12,
                     qPrintable(j.judge + QLatin1Char(' ') + coefficientName(k)));
        QVERIFY(j.lo <= j.pearson && j.pearson <= j.hi);
    }
    QCOMPARE(c->pairs.size(), 1);
    const PairComparison &pair = c->pairs.front();
    const QJsonObject rp = m_ref.value(QStringLiteral("pair")).toObject();
    QCOMPARE(pair.a, QStringLiteral("good"));
    QCOMPARE(pair.n, 16);
    QVERIFY(std::abs(pair.difference - rp.value(QStringLiteral("difference")).toDouble()) < 1e-12);
    const double exact = rp.value(QStringLiteral("permutation_p")).toDouble();
    QVERIFY2(std::abs(pair.p - exact) < 0.008, qPrintable(QStringLiteral("%1 vs exact %2").arg(pair.p).arg(exact)));
    QVERIFY(std::abs(pair.williamsP - rp.value(QStringLiteral("williams_p")).toDouble()) < 1e-9);
    QVERIFY(pair.lo <= pair.difference && pair.difference <= pair.hi);
    // p ≈ 0.03 < 0.05: said in words as a real difference, better judge first.
    QVERIFY2(pair.plainWords.startsWith(QStringLiteral("good agrees with people more than weak_baseline")),
             qPrintable(pair.plainWords));
    QVERIFY(c->ceiling.available);
    QCOMPARE(c->ceiling.n, 16);
    QCOMPARE(c->ceiling.annotators, 2);
    QVERIFY(std::abs(c->ceiling.alpha - m_ref.value(QStringLiteral("alpha")).toDouble()) < 1e-12);
}

void TestComparison::identicalJudgesAreExactlyEqual()
{
    auto p = Project::open(m_path);
    QVERIFY(p);
    for (Level level : {Level::Dataset, Level::Group, Level::System}) {
        CompareOptions o = options({QStringLiteral("good"), QStringLiteral("twin")});
        o.level = level;
        const auto c = compareJudges(**p, o);
        QVERIFY(c);
        QCOMPARE(c->pairs.size(), 1);
        const PairComparison &pair = c->pairs.front();
        QCOMPARE(pair.difference, 0.0);
        QCOMPARE(pair.p, 1.0);
        QCOMPARE(pair.lo, 0.0);
        QCOMPARE(pair.hi, 0.0);
        QVERIFY2(pair.plainWords.contains(QStringLiteral("agree with people equally")), qPrintable(pair.plainWords));
        QCOMPARE(c->judges[0].pearson, c->judges[1].pearson);
    }
}

void TestComparison::sharedReplicatesEqualEachJudgeAlone()
{
    // Every judge scored every item: the dataset-level intervals and differences come from one
    // draw per replicate for all judges. They are those of each judge and each pair alone, bit
    // for bit (group level, which never shares, for contrast).
    auto p = Project::open(m_path);
    QVERIFY(p);
    const QStringList names{QStringLiteral("good"), QStringLiteral("weak_baseline"), QStringLiteral("twin")};
    for (Level level : {Level::Dataset, Level::Group}) {
        CompareOptions o = options(names);
        o.level = level;
        o.permutations = 200;
        const auto c = compareJudges(**p, o);
        QVERIFY(c);
        QCOMPARE(c->judges.size(), 3);
        for (int k = 0; k < 3; ++k) {
            const auto items = gatherScores(**p, o.aspect, names[k], o.split);
            QVERIFY(items);
            BootstrapOptions b{o.bootstrap, o.seed, o.confidence};
            b.coefficients = coefficientBit(o.primary);
            const Interval alone = bootstrapCorrelation(*items, level, b)[o.primary];
            QCOMPARE(c->judges[k].lo, alone.lo);
            QCOMPARE(c->judges[k].hi, alone.hi);
        }
        QCOMPARE(c->pairs.size(), 3);
        for (const PairComparison &pair : c->pairs) {
            const auto items = gatherPaired(**p, o.aspect, pair.a, pair.b, o.split);
            QVERIFY(items);
            ComparisonOptions co;
            co.resamples = o.bootstrap;
            co.permutations = o.permutations;
            co.seed = o.seed;
            co.coefficients = coefficientBit(o.primary);
            const JudgeComparison alone = compareJudges(*items, level, co);
            QCOMPARE(pair.lo, alone.differenceCi[0].lo);
            QCOMPARE(pair.hi, alone.differenceCi[0].hi);
            QCOMPARE(pair.p, alone.permutationP[0]);
        }
    }
}

void TestComparison::columnStoreJudgesEqualReadJudges()
{
    // `rubric info` and Project::readJudges both list the judges through ScoreColumnStore (one scan
    // for the item counts), so they are checked here against what this fixture wrote, not against
    // each other: names, methods, aspects and the items scored (a NULL score, a refused item, is not
    // an item scored). tests/store's judgeCountsMatchAnIndependentCount checks the counts against
    // Python's sqlite3.
    auto p = Project::open(m_path);
    QVERIFY(p);
    QVERIFY((*p)->ensureJudge(QStringLiteral("refusing"), QStringLiteral("geval")));
    QHash<QString, double> some{{QStringLiteral("i00"), 3.0}, {QStringLiteral("i01"), std::nan("")}};
    QVERIFY((*p)->setJudgeScores(QStringLiteral("refusing"), QStringLiteral("fluency"), some)); // not coherence:
    // the tests after this one list the judges of coherence
    const auto scored = [this](const char *key) {
        int n = 0;
        for (const QJsonValue &v : m_ref.value(QLatin1String(key)).toArray())
            n += std::isnan(v.toDouble(std::nan(""))) ? 0 : 1;
        return n;
    };
    struct Expected
    {
        QString method;
        QString aspect;
        int items;
    };
    const QHash<QString, Expected> expected{
            {QStringLiteral("good"), {QStringLiteral("geval"), QStringLiteral("coherence"), scored("good")}},
            {QStringLiteral("weak_baseline"), {QStringLiteral("length"), QStringLiteral("coherence"), scored("weak")}},
            {QStringLiteral("twin"), {QStringLiteral("imported"), QStringLiteral("coherence"), scored("good")}},
            {QStringLiteral("fluent-only"), {QStringLiteral("geval"), QStringLiteral("fluency"), scored("good")}},
            {QStringLiteral("refusing"), {QStringLiteral("geval"), QStringLiteral("fluency"), 1}},
    };
    const auto viaProject = (*p)->readJudges();
    const auto viaColumns = ScoreColumnStore(p->get()).judges();
    QVERIFY(viaProject && viaColumns);
    for (const auto *listed : {&*viaProject, &*viaColumns}) {
        QCOMPARE(listed->size(), expected.size());
        for (const JudgeInfo &j : *listed) {
            QVERIFY2(expected.contains(j.name), qPrintable(j.name));
            const Expected &e = expected.value(j.name);
            QCOMPARE(j.method, e.method);
            QCOMPARE(j.aspects, QStringList{e.aspect});
            QCOMPARE(j.items, e.items);
        }
    }
}

void TestComparison::everyJudgeWithCost()
{
    auto p = Project::open(m_path);
    QVERIFY(p);
    CompareOptions o = options({});
    o.pairs = false;
    const auto c = compareJudges(**p, o);
    QVERIFY(c);
    // Every judge that scored coherence, in project order; not the one that scored fluency only.
    QStringList names;
    for (const JudgeAlignment &j : c->judges)
        names.append(j.judge);
    QCOMPARE(names, (QStringList{QStringLiteral("good"), QStringLiteral("weak_baseline"), QStringLiteral("twin")}));
    QVERIFY(c->pairs.isEmpty());
    QCOMPARE(c->judges[0].method, QStringLiteral("geval"));
    QCOMPARE(c->judges[0].calls, 32);
    QCOMPARE(c->judges[0].callsPerItem, 2.0);
    QVERIFY(std::abs(c->judges[0].costPerItem - 0.003) < 1e-12);
    QCOMPARE(c->judges[1].calls, 0); // no ledger row: it made no call
    QCOMPARE(c->judges[1].costPerItem, 0.0);
    QVERIFY(std::isnan(c->judges[2].costPerItem)); // imported: cost not known
    QVERIFY(std::isnan(c->judges[2].callsPerItem));
}

void TestComparison::errorsNameTheJudge()
{
    auto p = Project::open(m_path);
    QVERIFY(p);
    auto c = compareJudges(**p, options({QStringLiteral("good"), QStringLiteral("nobody")}));
    QVERIFY(!c);
    QVERIFY(c.errorString().contains(QStringLiteral("unknown judge 'nobody'")));
    QCOMPARE(c.error().field, QStringLiteral("judge"));
    QCOMPARE(c.error().file, m_path);
    c = compareJudges(**p, options({QStringLiteral("fluent-only")}));
    QVERIFY(!c);
    QVERIFY(c.errorString().contains(QStringLiteral("has not scored the aspect 'coherence'")));
    c = compareJudges(**p, options({QStringLiteral("good"), QStringLiteral("good")}));
    QVERIFY(!c);
    QVERIFY(c.errorString().contains(QStringLiteral("named twice")));
    CompareOptions o = options({});
    o.aspect = QStringLiteral("relevance");
    c = compareJudges(**p, o);
    QVERIFY(!c);
    QVERIFY2(c.errorString().contains(QStringLiteral("'relevance'")), qPrintable(c.errorString()));
}

void TestComparison::outputsShareTheRounding()
{
    QCOMPARE(roundStatistic(0.41049), 0.41);
    QCOMPARE(formatStatistic(0.41049), QStringLiteral("0.410"));
    QCOMPARE(formatStatistic(-0.0001), QStringLiteral("0.000"));
    QCOMPARE(formatStatistic(std::nan("")), QStringLiteral("n/a"));
    QCOMPARE(roundP(0.0123456), 0.0123);
    QCOMPARE(formatP(1.0), QStringLiteral("1"));
    QCOMPARE(formatCalls(2.0), QStringLiteral("2.00"));

    auto p = Project::open(m_path);
    QVERIFY(p);
    const auto c = compareJudges(**p, options({QStringLiteral("good"), QStringLiteral("weak_baseline")}));
    QVERIFY(c);
    const QJsonObject json = comparisonToJson(*c);
    const QJsonArray judges = json.value(QStringLiteral("judges")).toArray();
    QCOMPARE(judges.size(), 2);
    const QString md = comparisonToMarkdown(*c);
    const QString tex = comparisonToLatex(*c);
    const QString csv = comparisonToCsv(*c);
    for (int i = 0; i < 2; ++i) {
        const JudgeAlignment &j = c->judges[i];
        const QJsonObject o = judges[i].toObject();
        QCOMPARE(o.value(QStringLiteral("judge")).toString(), j.judge);
        QCOMPARE(o.value(QStringLiteral("pearson")).toDouble(), roundStatistic(j.pearson));
        QCOMPARE(o.value(QStringLiteral("ci")).toArray().at(0).toDouble(), roundStatistic(j.lo));
        QCOMPARE(o.value(QStringLiteral("n")).toInt(), 16);
        // The JSON's number as JSON prints it is in every table.
        const QString printed
                = QString::fromUtf8(
                          QJsonDocument(QJsonArray{o.value(QStringLiteral("pearson"))}).toJson(QJsonDocument::Compact))
                          .mid(1)
                          .chopped(1);
        QVERIFY2(md.contains(printed), qPrintable(printed));
        QVERIFY(tex.contains(printed));
        QVERIFY(csv.contains(printed));
        QVERIFY(md.contains(formatStatistic(j.pearson)));
    }
    QVERIFY(tex.contains(QStringLiteral("weak\\_baseline")));
    QVERIFY(tex.contains(QStringLiteral("\\toprule")));
    QCOMPARE(csv.count(QLatin1Char('\n')), 3);
    QVERIFY(csv.startsWith(QStringLiteral("judge,method,pearson,")));
    QCOMPARE(comparisonPairsToCsv(*c).count(QLatin1Char('\n')), 2);
    const QJsonObject ceiling = json.value(QStringLiteral("human_ceiling")).toObject();
    QCOMPARE(ceiling.value(QStringLiteral("n")).toInt(), 16);
    QCOMPARE(json.value(QStringLiteral("pairs")).toArray().at(0).toObject().value(QStringLiteral("a")).toString(),
             QStringLiteral("good"));
    QVERIFY(md.contains(QStringLiteral("Krippendorff")));
}

void TestComparison::groupLevelAndStop()
{
    auto p = Project::open(m_path);
    QVERIFY(p);
    CompareOptions o = options({QStringLiteral("good"), QStringLiteral("weak_baseline")});
    o.level = Level::Group;
    o.constantGroups = ConstantGroups::One;
    const auto c = compareJudges(**p, o);
    QVERIFY(c);
    QVERIFY(c->judges[0].groupsUsed > 0 && c->judges[0].groupsUsed <= 4);
    QVERIFY(c->convention.contains(QStringLiteral("group level")));
    QVERIFY(c->convention.contains(QStringLiteral("counts as 1")));
    QVERIFY(std::isnan(c->pairs[0].williamsP)); // Williams is not defined at group level

    std::stop_source stop;
    stop.request_stop();
    o.stop = stop.get_token();
    const auto cancelled = compareJudges(**p, o);
    QVERIFY(!cancelled);
    QVERIFY(cancelled.errorString().contains(QStringLiteral("cancelled")));
}

void TestComparison::coderMatrixColumnsOfSeveralJudges()
{
    // gatherCoders put the second judge two columns on (past the row's end with two judges).
    auto p = Project::open(m_path);
    QVERIFY(p);
    const auto m = gatherCoders(**p, QStringLiteral("coherence"), SplitFilter::All,
                                {QStringLiteral("weak_baseline"), QStringLiteral("good")});
    QVERIFY(m);
    QCOMPARE(m->coders, (QStringList{QStringLiteral("a1"), QStringLiteral("a2"), QStringLiteral("weak_baseline"),
                                     QStringLiteral("good")}));
    const QJsonArray weak = m_ref.value(QStringLiteral("weak")).toArray();
    const QJsonArray good = m_ref.value(QStringLiteral("good")).toArray();
    QCOMPARE(m->data.size(), size_t(16));
    for (size_t i = 0; i < m->data.size(); ++i) {
        QCOMPARE(m->data[i].size(), size_t(4));
        QCOMPARE(m->data[i][2], weak.at(qsizetype(i)).toDouble());
        QCOMPARE(m->data[i][3], good.at(qsizetype(i)).toDouble());
    }
}

QTEST_GUILESS_MAIN(TestComparison)
#include "TestComparison.moc"
