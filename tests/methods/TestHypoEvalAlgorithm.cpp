#include "methods/HypoEvalAlgorithm.h"
#include "stats/Correlation.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace rubric;

namespace {

// FNV-1a: qHash is seeded per process in Qt 6, and the fixture must be the same in every run.
quint64 stableHash(const QString &text, quint64 salt)
{
    quint64 h = 1469598103934665603ull ^ salt;
    for (const QChar c : text) {
        h ^= c.unicode();
        h *= 1099511628211ull;
    }
    return h;
}

// A scripted world: hypotheses whose text starts with "SIGNAL" predict the human score
// (rounded), "NOISE" ones answer a pseudo-random score that does not depend on it.
struct World
{
    QHash<QString, double> human;
    int generated = 0;

    double judge(const QString &hypothesis, const QString &item) const
    {
        if (hypothesis.startsWith(QLatin1String("SIGNAL")))
            return std::clamp(std::round(human.value(item)), 1.0, 5.0);
        const size_t h = stableHash(hypothesis + QLatin1Char('|') + item, 7u);
        return double(1 + h % 5);
    }

    QStringList generate(const HypoTask &t)
    {
        QStringList out;
        for (int i = 0; i < t.count; ++i) {
            ++generated;
            if (t.kind == HypoTask::Kind::RefineData || t.kind == HypoTask::Kind::RefineLiterature)
                out.append(t.hypotheses.value(i) + QStringLiteral(" r"));
            else if (!t.withData) // literature only: two near-duplicates of one signal, the rest noise
                out.append(i < 2 ? QStringLiteral("SIGNAL DUP lit") : QStringLiteral("NOISE lit %1").arg(generated));
            else if (t.phase == QLatin1String("init")) // one informative hypothesis to start from
                out.append((i == 0 ? QStringLiteral("SIGNAL %1") : QStringLiteral("NOISE %1")).arg(generated));
            else // generated from wrongly predicted samples: informative ones appear
                out.append((i % 2 == 0 ? QStringLiteral("SIGNAL %1") : QStringLiteral("NOISE %1")).arg(generated));
        }
        return out;
    }

    HypoAnswer answer(const HypoEvalAlgorithm &algo, const HypoTask &t)
    {
        HypoAnswer a;
        a.taskId = t.id;
        switch (t.kind) {
        case HypoTask::Kind::Score: {
            QString text;
            for (const HypoHypothesis &h : algo.hypotheses())
                if (h.key == t.hypothesisKey)
                    text = h.text;
            a.score = judge(text, t.itemId);
            break;
        }
        case HypoTask::Kind::Redundancy:
            a.redundant
                    = t.hypotheses[0].contains(QLatin1String("DUP")) && t.hypotheses[1].contains(QLatin1String("DUP"));
            break;
        default:
            a.hypotheses = generate(t);
        }
        return a;
    }
};

QVector<HypoEvalAlgorithm::Sample> makeTrain(int n, World &w)
{
    QVector<HypoEvalAlgorithm::Sample> out;
    for (int i = 0; i < n; ++i) {
        const double s = 1.0 + (i * 7 % 13) / 3.0; // spread over 1..5
        const QString id = QStringLiteral("i%1").arg(i);
        w.human.insert(id, s);
        out.append({id, s});
    }
    return out;
}

int runToEnd(HypoEvalAlgorithm &algo, World &w)
{
    int batches = 0;
    for (auto batch = algo.nextBatch(); !batch.isEmpty(); batch = algo.nextBatch()) {
        QVector<HypoAnswer> answers;
        for (const HypoTask &t : batch)
            answers.append(w.answer(algo, t));
        algo.deliver(answers);
        ++batches;
    }
    return batches;
}

} // namespace

class TestHypoEvalAlgorithm : public QObject
{
    Q_OBJECT
private slots:
    void exploitationTerm_data();
    void exploitationTerm();
    void initialRewardFollowsFormula();
    void keepsInformativeHypotheses_data();
    void keepsInformativeHypotheses();
    void callCountsPerPhase();
    void deterministicForSeed();
    void paramsFromSettings_data();
    void paramsFromSettings();
};

void TestHypoEvalAlgorithm::exploitationTerm_data()
{
    QTest::addColumn<double>("human");
    QTest::addColumn<double>("predicted");
    QTest::addColumn<double>("expected");
    QTest::newRow("exact") << 3.0 << 3.0 << 1.0;
    QTest::newRow("max error") << 1.0 << 5.0 << 0.0;
    QTest::newRow("half") << 2.5 << 4.5 << 0.75;
}

void TestHypoEvalAlgorithm::exploitationTerm()
{
    QFETCH(double, human);
    QFETCH(double, predicted);
    QFETCH(double, expected);
    QCOMPARE(HypoEvalAlgorithm::exploitation(HypoEvalParams{}, human, predicted), expected);
}

void TestHypoEvalAlgorithm::initialRewardFollowsFormula()
{
    World w;
    HypoEvalAlgorithm algo(HypoEvalParams{}, makeTrain(30, w), false);
    auto gen = algo.nextBatch();
    QCOMPARE(gen.size(), 1);
    QCOMPARE(gen[0].kind, HypoTask::Kind::Generate);
    QCOMPARE(gen[0].items.size(), 5);
    QCOMPARE(gen[0].count, 5);
    algo.deliver({w.answer(algo, gen[0])});
    auto scores = algo.nextBatch();
    QCOMPARE(scores.size(), 25); // 5 hypotheses × |S_init|
    QVector<HypoAnswer> answers;
    for (const HypoTask &t : scores)
        answers.append(w.answer(algo, t));
    algo.deliver(answers);
    // r_h = mean L + α·sqrt(ln|S_init| / |S_init|)
    for (const HypoHypothesis &h : algo.hypotheses()) {
        double sum = 0;
        for (const auto &s : algo.initSamples())
            sum += HypoEvalAlgorithm::exploitation(algo.params(), s.score, w.judge(h.text, s.itemId));
        const double expected = sum / 5 + 0.5 * std::sqrt(std::log(5.0) / 5);
        QVERIFY(std::abs(h.reward - expected) < 1e-12);
        QCOMPARE(h.rewardHistory.size(), 1);
    }
    QCOMPARE(algo.phase(), QStringLiteral("update"));
    QCOMPARE(algo.nextBatch().size(), 5); // top-k of a bank of 5
}

void TestHypoEvalAlgorithm::keepsInformativeHypotheses_data()
{
    QTest::addColumn<bool>("literature");
    QTest::newRow("data only") << false;
    QTest::newRow("with literature") << true;
}

void TestHypoEvalAlgorithm::keepsInformativeHypotheses()
{
    QFETCH(bool, literature);
    World w;
    HypoEvalAlgorithm algo(HypoEvalParams{}, makeTrain(30, w), literature);
    runToEnd(algo, w);
    QVERIFY2(algo.finished(), qPrintable(algo.error()));
    const QStringList sel = algo.selected();
    QCOMPARE(sel.size(), 5);
    int signal = 0, bank = 0, bankSignal = 0, fromWrongBank = 0;
    for (const HypoHypothesis &h : algo.hypotheses()) {
        if (h.inBank) {
            ++bank;
            bankSignal += h.text.startsWith(QLatin1String("SIGNAL")) ? 1 : 0;
        }
        if (sel.contains(h.key)) {
            QVERIFY2(h.text.startsWith(QLatin1String("SIGNAL")), qPrintable(h.text));
            QVERIFY(h.trainPearson > 0.9);
            ++signal;
            fromWrongBank += h.source == QLatin1String("wrong-bank") ? 1 : 0;
        }
        QVERIFY(!h.rewardHistory.isEmpty() || h.source == QLatin1String("literature"));
    }
    QVERIFY(bankSignal >= 5); // the wrong-sample bank brought informative hypotheses in
    QCOMPARE(signal, 5);      // and the selection kept only informative ones
    QVERIFY(fromWrongBank > 0);
    QVERIFY(bank <= 20);
    if (literature) {
        int dup = 0;
        for (const HypoHypothesis &h : algo.hypotheses())
            if (h.inBank && h.text.contains(QLatin1String("DUP")))
                ++dup;
        QCOMPARE(dup, 1); // the redundant twin was removed
    }
}

void TestHypoEvalAlgorithm::callCountsPerPhase()
{
    World w;
    HypoEvalAlgorithm algo(HypoEvalParams{}, makeTrain(30, w), true);
    runToEnd(algo, w);
    QVERIFY(algo.finished());
    const auto calls = algo.callsPerPhase();
    QCOMPARE(calls.value(QStringLiteral("init")), 1);
    QCOMPARE(calls.value(QStringLiteral("init-score")), 25);
    QVERIFY(calls.value(QStringLiteral("update")) <= 25 * 10);
    QVERIFY(calls.value(QStringLiteral("update")) >= 25 * 5);
    const int events = calls.value(QStringLiteral("wrong-generate"));
    QCOMPARE(calls.value(QStringLiteral("refine")), events * 6);
    QCOMPARE(calls.value(QStringLiteral("wrong-score")), events * 5 * 10);
    QCOMPARE(calls.value(QStringLiteral("literature-only")), 1);
    int bank = 0;
    for (const HypoHypothesis &h : algo.hypotheses())
        bank += h.inBank ? 1 : 0;
    QCOMPARE(calls.value(QStringLiteral("selection")), bank * 30);
    QVERIFY(calls.value(QStringLiteral("redundancy")) <= 780);
}

void TestHypoEvalAlgorithm::deterministicForSeed()
{
    World w1, w2;
    HypoEvalAlgorithm a(HypoEvalParams{}, makeTrain(30, w1), true);
    HypoEvalAlgorithm b(HypoEvalParams{}, makeTrain(30, w2), true);
    runToEnd(a, w1);
    runToEnd(b, w2);
    QCOMPARE(a.selected(), b.selected());
    QCOMPARE(a.callsPerPhase(), b.callsPerPhase());
    HypoEvalParams other;
    other.seed = 2;
    World w3;
    HypoEvalAlgorithm c(other, makeTrain(30, w3), true);
    QVERIFY(c.initSamples()[0].itemId != a.initSamples()[0].itemId
            || c.initSamples()[1].itemId != a.initSamples()[1].itemId);
}

void TestHypoEvalAlgorithm::paramsFromSettings_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("ok");
    QTest::newRow("k") << "k"
                       << "7" << true;
    QTest::newRow("prefixed") << "hypoeval.alpha"
                              << "0.25" << true;
    QTest::newRow("merge all") << "merge"
                               << "all" << true;
    QTest::newRow("merge bad") << "merge"
                               << "some" << false;
    QTest::newRow("unknown") << "gamma"
                             << "1" << false;
    QTest::newRow("not a number") << "w_max"
                                  << "ten" << false;
    QTest::newRow("zero h_ev") << "h_ev"
                               << "0" << false;
}

void TestHypoEvalAlgorithm::paramsFromSettings()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(bool, ok);
    auto p = HypoEvalParams::fromSettings({{key, value}});
    QCOMPARE(p.ok(), ok);
    if (ok && key == QLatin1String("k"))
        QCOMPARE(p->topK, 7);
    if (ok && key == QLatin1String("hypoeval.alpha"))
        QCOMPARE(p->alpha, 0.25);
    const HypoEvalParams d;
    QCOMPARE(d.toMap().value(QStringLiteral("h_max")).toInt(), 20);
}

QTEST_GUILESS_MAIN(TestHypoEvalAlgorithm)
#include "TestHypoEvalAlgorithm.moc"
