#include "methods/hpss/HpssSearch.h"
#include "util/Json.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::hpss;

namespace {

quint64 fnv1a(const QString &text)
{
    quint64 h = 1469598103934665603ull;
    for (const QChar c : text) {
        h ^= c.unicode();
        h *= 1099511628211ull;
    }
    return h;
}

quint64 splitmix(quint64 &x)
{
    quint64 z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/// A synthetic judge: the validation Spearman of a strategy is a base plus one effect per factor
/// value (additive) plus noise that depends only on (strategy, seed), so an evaluation is
/// deterministic as under greedy decoding. The best value of every factor differs from the origin's.
struct Objective
{
    quint64 seed = 1;
    double noise = 0.01;
    // effects in Spearman units, values in Table 1 order
    std::array<QVector<double>, kFactorCount> effect = {
            QVector<double>{-0.06, 0.0, 0.02, 0.01, 0.035},        // scale: 100 best, 3 worst
            QVector<double>{0.0, 0.01, 0.015, 0.035},              // examples: 10 best
            QVector<double>{-0.02, 0.0, 0.025},                    // criteria: self best
            QVector<double>{0.0, 0.03, -0.12},                     // reference: self best, dialectic very bad
            QVector<double>{0.005, 0.0, 0.03},                     // cot: suffix best
            QVector<double>{0.0, 0.025},                           // autocot: on
            QVector<double>{0.0, 0.03},                            // metrics: on
            QVector<double>{0.0, 0.005, -0.01, 0.01, 0.015, 0.04}, // order: IET best
    };

    int bestValue(int factor) const
    {
        const QVector<double> &e = effect[size_t(factor)];
        return int(std::max_element(e.begin(), e.end()) - e.begin());
    }
    double mean(const PromptStrategy &s) const
    {
        double v = 0.35;
        for (int i = 0; i < kFactorCount; ++i)
            v += effect[size_t(i)][s.index(Factor(i))];
        return v;
    }
    double operator()(const PromptStrategy &s) const
    {
        quint64 x = fnv1a(s.format()) ^ (seed * 0x2545f4914f6cdd1dull);
        double u = 0; // Irwin–Hall: the sum of 12 uniforms − 6 is close to a standard normal
        for (int k = 0; k < 12; ++k)
            u += double(splitmix(x) >> 11) * 0x1.0p-53;
        return mean(s) + noise * (u - 6.0);
    }
    double optimum() const
    {
        double v = 0.35;
        for (int i = 0; i < kFactorCount; ++i)
            v += effect[size_t(i)][bestValue(i)];
        return v;
    }
};

struct Step
{
    QString strategy, move, parent, changed;
    bool operator==(const Step &o) const
    {
        return strategy == o.strategy && move == o.move && parent == o.parent && changed == o.changed;
    }
};

Step stepOf(const SearchProposal &p)
{
    return {p.strategy.format(), searchMoveName(p.move), p.parent ? p.parent->format() : QString(),
            p.changedFactor >= 0 ? factorName(Factor(p.changedFactor)) : QString()};
}

SearchParams paramsFor(const QString &algorithm, quint64 seed)
{
    SearchParams p;
    if (!p.set(QStringLiteral("search"), algorithm).ok())
        qFatal("bad algorithm %s", qPrintable(algorithm));
    p.seed = seed;
    return p;
}

HpssSearch makeSearch(const SearchParams &p)
{
    auto s = HpssSearch::create(p);
    if (!s)
        qFatal("%s", qPrintable(s.errorString()));
    return std::move(s).value();
}

/// Runs `search` until it stops or `limit` strategies are evaluated; returns the steps taken.
QVector<Step> drive(HpssSearch &search, const Objective &f, int limit = 1 << 30)
{
    QVector<Step> steps;
    while (int(search.evaluated().size()) < limit) {
        const auto next = search.next();
        if (!next)
            break;
        steps.append(stepOf(*next));
        const auto r = search.report(next->strategy, f(next->strategy));
        if (!r)
            qFatal("%s", qPrintable(r.errorString()));
    }
    return steps;
}

HpssSearch throughJson(const HpssSearch &search)
{
    QString error;
    const QVariant state = json::parse(json::stringify(search.toVariant()), &error);
    if (!error.isEmpty())
        qFatal("%s", qPrintable(error));
    auto restored = HpssSearch::fromVariant(state);
    if (!restored)
        qFatal("%s", qPrintable(restored.errorString()));
    return std::move(restored).value();
}

const QStringList kAlgorithms = {QStringLiteral("hpss"), QStringLiteral("mutation"), QStringLiteral("random"),
                                 QStringLiteral("greedy"), QStringLiteral("stepwise")};

} // namespace

class TestHpssSearch : public QObject
{
    Q_OBJECT

private slots:
    void defaultsAreThePapers()
    {
        const SearchParams p;
        QCOMPARE(p.budget, 71);
        QCOMPARE(p.population, 5);
        QCOMPARE(p.mutations, 2);
        QCOMPARE(p.exploit, 0.2);
        QCOMPARE(p.temperature, 5.0);
        QCOMPARE(p.ucb, 4.0);
        QCOMPARE(p.scoreScale, 100.0);
        QCOMPARE(p.origin, PromptStrategy::mtBenchOrigin());
        QCOMPARE(p.algorithm, SearchAlgorithm::Hpss);
    }

    void settingsAreReadAndCheckedByName_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("ok");
        QTest::newRow("budget") << "budget"
                                << "100" << true;
        QTest::newRow("budget not a number") << "budget"
                                             << "many" << false;
        QTest::newRow("exploit above 1") << "exploit"
                                         << "1.5" << false;
        QTest::newRow("temperature 0") << "temperature"
                                       << "0" << false;
        QTest::newRow("ucb 0 (w/o exploration term)") << "ucb"
                                                      << "0" << true;
        QTest::newRow("search") << "search"
                                << "stepwise" << true;
        QTest::newRow("opro search") << "search"
                                     << "opro" << true;
        QTest::newRow("unknown search") << "search"
                                        << "annealing" << false;
        QTest::newRow("origin") << "origin"
                                << "scale:3,examples:0,criteria:human,reference:none,cot:prefix,"
                                   "autocot:off,metrics:off,order:TEI"
                                << true;
        QTest::newRow("origin with a bad value") << "origin"
                                                 << "scale:4,examples:0,criteria:human,reference:none,"
                                                    "cot:prefix,autocot:off,metrics:off,order:TEI"
                                                 << false;
        QTest::newRow("disable") << "disable"
                                 << "reference:dialectic;scale:3" << true;
        QTest::newRow("unknown key") << "beam"
                                     << "5" << false;
    }
    void settingsAreReadAndCheckedByName()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(bool, ok);
        SearchParams p;
        const auto r = p.set(key, value);
        QCOMPARE(r.ok(), ok);
        if (!ok)
            QCOMPARE(r.error().field, key);
    }

    void budgetMustCoverInitialisation()
    {
        SearchParams p;
        p.budget = 20;
        const auto r = HpssSearch::create(p);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().field, QStringLiteral("budget"));
        SearchParams q;
        QVERIFY(q.set(QStringLiteral("disable"), QStringLiteral("cot:prefix")).ok()); // the origin's value
        QCOMPARE(HpssSearch::create(q).error().field, QStringLiteral("origin"));
    }

    void initialisationAndAdvantages()
    {
        const Objective f{3};
        HpssSearch s = makeSearch(paramsFor(QStringLiteral("hpss"), 3));
        const QVector<Step> steps = drive(s, f, 21);
        QCOMPARE(steps.size(), 21);
        const PromptStrategy o = PromptStrategy::mtBenchOrigin();
        QCOMPARE(steps[0].strategy, o.format());
        const QVector<PromptStrategy> ns = StrategySpace::full().neighbours(o);
        for (int k = 1; k < 21; ++k) {
            QCOMPARE(steps[k].move, QStringLiteral("init"));
            QCOMPARE(steps[k].strategy, ns[k - 1].format());
            QCOMPARE(steps[k].parent, o.format());
        }
        // A[i][j] = s_ij − mean_j' s_ij' with s = Spearman × 100 (Algorithm 1); N = M = 1.
        for (int i = 0; i < kFactorCount; ++i) {
            const int m = int(factorValues(Factor(i)).size());
            double mean = 0;
            for (int j = 0; j < m; ++j)
                mean += 100 * f(o.with(Factor(i), j));
            mean /= m;
            for (int j = 0; j < m; ++j) {
                QVERIFY(std::abs(s.advantage(Factor(i), j) - (100 * f(o.with(Factor(i), j)) - mean)) < 1e-9);
                QCOMPARE(s.explorationCount(Factor(i), j), 1.0);
                QCOMPARE(s.appearanceCount(Factor(i), j), 1.0);
            }
        }
        // the population is the top five of the 21, best first
        QCOMPARE(s.population().size(), 5);
        QCOMPARE(s.population().first(), s.best()->proposal.strategy);
        for (int k = 1; k < 5; ++k)
            QVERIFY(f(s.population()[k - 1]) >= f(s.population()[k]));
        // at t = 1 there is no UCB bonus; the probabilities are a softmax of ΔA / τ
        const QVector<NeighbourScore> table = s.neighbourScores(s.population().first());
        QCOMPARE(table.size(), 20);
        double sum = 0;
        for (const NeighbourScore &n : table) {
            QCOMPARE(n.bonus, 0.0);
            sum += n.probability;
        }
        QVERIFY(std::abs(sum - 1) < 1e-12);
        QVERIFY(std::abs(table[0].probability / table[1].probability
                         - std::exp((table[0].advantageGain - table[1].advantageGain) / 5.0))
                < 1e-9);
    }

    void explorationUpdateFollowsEq4And5()
    {
        const Objective f{5};
        HpssSearch s = makeSearch(paramsFor(QStringLiteral("hpss"), 5));
        drive(s, f, 21);
        for (int guard = 0; guard < 50; ++guard) {
            const auto p = s.next();
            QVERIFY(p.has_value());
            if (p->move != SearchMove::Explore) {
                QVERIFY(s.report(p->strategy, f(p->strategy)).ok());
                continue;
            }
            const int i = p->changedFactor;
            const int c = p->parent->index(Factor(i));
            const int j = p->strategy.index(Factor(i));
            QVector<double> a;
            for (int v = 0; v < factorValues(Factor(i)).size(); ++v)
                a.append(s.advantage(Factor(i), v));
            const double n = s.explorationCount(Factor(i), j);
            const double mj = s.appearanceCount(Factor(i), j);
            const double rNew = 100 * f(p->strategy);
            const double rParent = 100 * f(*p->parent);
            a[j] = (a[j] * n + (rNew - (rParent - a[c]))) / (n + 1);
            const double mean = std::accumulate(a.begin(), a.end(), 0.0) / a.size();
            QVERIFY(s.report(p->strategy, f(p->strategy)).ok());
            for (int v = 0; v < a.size(); ++v)
                QVERIFY(std::abs(s.advantage(Factor(i), v) - (a[v] - mean)) < 1e-9);
            QCOMPARE(s.explorationCount(Factor(i), j), n + 1);
            QCOMPARE(s.appearanceCount(Factor(i), j), mj + 1);
            return;
        }
        QFAIL("no exploration step in 50 evaluations");
    }

    void exactBudgetNoRepeats_data()
    {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<int>("expected");
        for (const QString &a : kAlgorithms)
            QTest::newRow(qPrintable(a)) << a << (a == QLatin1String("stepwise") ? 21 : 71);
    }
    void exactBudgetNoRepeats()
    {
        QFETCH(QString, algorithm);
        QFETCH(int, expected);
        for (quint64 seed = 1; seed <= 10; ++seed) {
            const Objective f{seed};
            HpssSearch s = makeSearch(paramsFor(algorithm, seed));
            const QVector<Step> steps = drive(s, f);
            QCOMPARE(steps.size(), expected);
            QVERIFY(s.finished());
            QVERIFY(!s.next().has_value());
            QSet<QString> seen;
            for (const Step &st : steps)
                seen.insert(st.strategy);
            QCOMPARE(seen.size(), expected);
            if (algorithm == QLatin1String("hpss")) {
                int init = 0, explore = 0, exploit = 0;
                for (const Step &st : steps)
                    (st.move == QLatin1String("init")      ? init
                     : st.move == QLatin1String("explore") ? explore
                                                           : exploit)++;
                QCOMPARE(init, 21);
                QCOMPARE(explore + exploit, 50);
                QVERIFY(explore > 0);
            }
            if (algorithm == QLatin1String("mutation"))
                for (qsizetype k = 21; k < steps.size(); ++k) {
                    QCOMPARE(steps[k].move, QStringLiteral("mutate"));
                    QVERIFY(!steps[k].changed.isEmpty());
                }
        }
    }

    // The 21 initialisation strategies fed with the authors' published validation Spearmans
    // (Qwen2.5-14B, SummEval; ../shared/data/hpss-artifacts, read at test time only, never shipped).
    void initialisationOnPublishedSpearmans()
    {
        const QString dir
                = QStringLiteral(RUBRIC_SHARED_DATA "/hpss-artifacts/initiation/metrics/summeval/qwen_2_5_14b");
        if (!QDir(dir).exists())
            QSKIP("../shared/data/hpss-artifacts is not here");
        const QHash<QString, QString> files = {
                {QStringLiteral("scale:3"), QStringLiteral("scale_3")},
                {QStringLiteral("scale:10"), QStringLiteral("scale_10")},
                {QStringLiteral("scale:50"), QStringLiteral("scale_50")},
                {QStringLiteral("scale:100"), QStringLiteral("scale_100")},
                {QStringLiteral("examples:3"), QStringLiteral("example_3")},
                {QStringLiteral("examples:5"), QStringLiteral("example_5")},
                {QStringLiteral("examples:10"), QStringLiteral("example_10")},
                {QStringLiteral("criteria:none"), QStringLiteral("wo_criteria")},
                {QStringLiteral("criteria:self"), QStringLiteral("self_generated_criteria")},
                {QStringLiteral("reference:self"), QStringLiteral("self_generated_reference")},
                {QStringLiteral("reference:dialectic"), QStringLiteral("dialectic")},
                {QStringLiteral("cot:none"), QStringLiteral("cot_free")},
                {QStringLiteral("cot:suffix"), QStringLiteral("cot_suffix")},
                {QStringLiteral("autocot:on"), QStringLiteral("autocot")},
                {QStringLiteral("metrics:on"), QStringLiteral("metrics")},
                {QStringLiteral("order:TIE"), QStringLiteral("tie")},
                {QStringLiteral("order:ETI"), QStringLiteral("eti")},
                {QStringLiteral("order:EIT"), QStringLiteral("eit")},
                {QStringLiteral("order:ITE"), QStringLiteral("ite")},
                {QStringLiteral("order:IET"), QStringLiteral("iet")},
        };
        for (const QString &aspect : {QStringLiteral("coherence"), QStringLiteral("consistency"),
                                      QStringLiteral("fluency"), QStringLiteral("relevance")}) {
            HpssSearch s = makeSearch(SearchParams{});
            QHash<QString, double> rho;
            for (int k = 0; k < 21; ++k) {
                const auto p = s.next();
                QVERIFY(p.has_value());
                QString name = QStringLiteral("baseline");
                if (p->changedFactor >= 0) {
                    const Factor f = Factor(p->changedFactor);
                    name = files.value(factorName(f) + QLatin1Char(':') + p->strategy.valueName(f));
                }
                QVERIFY2(!name.isEmpty(), qPrintable(p->strategy.format()));
                QFile file(dir + QLatin1Char('/') + name + QStringLiteral(".json"));
                QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
                const double r = json::parse(QString::fromUtf8(file.readAll()))
                                         .toMap()
                                         .value(aspect)
                                         .toMap()
                                         .value(QStringLiteral("correlation"))
                                         .toMap()
                                         .value(QStringLiteral("Spearman"))
                                         .toDouble();
                rho.insert(p->strategy.format(), r);
                QVERIFY(s.report(p->strategy, r).ok());
            }
            QCOMPARE(rho.size(), 21);
            const PromptStrategy o = PromptStrategy::mtBenchOrigin();
            QStringList table;
            for (int i = 0; i < kFactorCount; ++i) {
                double sum = 0;
                QStringList cells;
                for (int j = 0; j < factorValues(Factor(i)).size(); ++j) {
                    sum += s.advantage(Factor(i), j);
                    // differences of advantages are differences of Spearman × 100 (Algorithm 1)
                    const double expected
                            = 100
                              * (rho.value(o.with(Factor(i), j).format()) - rho.value(o.with(Factor(i), 0).format()));
                    QVERIFY(std::abs(s.advantage(Factor(i), j) - s.advantage(Factor(i), 0) - expected) < 1e-9);
                    cells.append(QStringLiteral("%1 %2")
                                         .arg(factorValues(Factor(i)).at(j))
                                         .arg(s.advantage(Factor(i), j), 0, 'f', 2));
                }
                QVERIFY(std::abs(sum) < 1e-9);
                table.append(factorName(Factor(i)) + QStringLiteral(": ") + cells.join(QStringLiteral(", ")));
            }
            qInfo("SummEval %s (Qwen2.5-14B, published init): %s", qPrintable(aspect),
                  qPrintable(table.join(QStringLiteral(" | "))));
            // the search goes on from there: a new strategy, derived from a population member
            const auto next = s.next();
            QVERIFY(next.has_value());
            QVERIFY(!rho.contains(next->strategy.format()));
            QVERIFY(s.population().contains(*next->parent));
        }
    }

    void reportChecksTheProposal()
    {
        HpssSearch s = makeSearch(SearchParams{});
        const auto p = s.next();
        QVERIFY(p.has_value());
        QCOMPARE(s.next()->strategy, p->strategy); // asked again until reported
        const PromptStrategy other = p->strategy.with(Factor::Scale, 0);
        QVERIFY(!s.report(other, 0.3).ok());
        QVERIFY(!s.report(p->strategy, std::nan("")).ok());
        QVERIFY(s.report(p->strategy, 0.3).ok());
        QVERIFY(s.next()->strategy != p->strategy);
    }

    // Kill after 30 evaluations, persist through JSON text, restore into a fresh object, go on:
    // the whole sequence equals an uninterrupted run with the same seed.
    void killAndResumeIsIdentical_data()
    {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<bool>("withPending");
        for (const QString &a : kAlgorithms) {
            QTest::newRow(qPrintable(a)) << a << false;
            QTest::newRow(qPrintable(a + QStringLiteral(" (killed while a strategy was being evaluated)")))
                    << a << true;
        }
    }
    void killAndResumeIsIdentical()
    {
        QFETCH(QString, algorithm);
        QFETCH(bool, withPending);
        for (quint64 seed : {1ull, 7ull}) {
            const Objective f{seed};
            HpssSearch whole = makeSearch(paramsFor(algorithm, seed));
            const QVector<Step> expected = drive(whole, f);

            HpssSearch first = makeSearch(paramsFor(algorithm, seed));
            QVector<Step> steps = drive(first, f, 30);
            QCOMPARE(steps.size(), std::min<qsizetype>(30, expected.size()));
            if (withPending && !first.finished())
                QVERIFY(first.next().has_value()); // asked, never answered
            HpssSearch resumed = throughJson(first);
            steps += drive(resumed, f);
            QCOMPARE(steps.size(), expected.size());
            for (qsizetype k = 0; k < steps.size(); ++k)
                QVERIFY2(steps[k] == expected[k], qPrintable(QStringLiteral("step %1: %2 vs %3")
                                                                     .arg(k + 1)
                                                                     .arg(steps[k].strategy, expected[k].strategy)));
            QCOMPARE(json::stringify(resumed.toVariant()), json::stringify(whole.toVariant()));
        }
    }

    void corruptStateIsRejected()
    {
        HpssSearch s = makeSearch(SearchParams{});
        drive(s, Objective{}, 25);
        QVariantMap state = s.toVariant();
        QVariantMap bad = state;
        bad.insert(QStringLiteral("rng"), QStringLiteral("not a state"));
        QCOMPARE(HpssSearch::fromVariant(bad).error().field, QStringLiteral("rng"));
        bad = state;
        QVariantList records = bad.value(QStringLiteral("evaluated")).toList();
        records.append(records.first());
        bad.insert(QStringLiteral("evaluated"), records);
        QCOMPARE(HpssSearch::fromVariant(bad).error().field, QStringLiteral("evaluated[25]"));
        bad = state;
        bad.insert(QStringLiteral("version"), 9);
        QVERIFY(!HpssSearch::fromVariant(bad).ok());
    }

    // The acceptance table: over ten seeds, HPSS's best validation score against the baselines
    // with the same budget, and its final advantages against the objective's known effects.
    void hpssBeatsBaselinesOnAnAdditiveObjective()
    {
        QHash<QString, double> total;
        std::array<QVector<double>, kFactorCount> meanA;
        for (int i = 0; i < kFactorCount; ++i)
            meanA[size_t(i)] = QVector<double>(factorValues(Factor(i)).size(), 0.0);
        const int seeds = 10;
        qInfo("seed | %s", qPrintable(kAlgorithms.join(QStringLiteral(" | "))));
        for (quint64 seed = 1; seed <= seeds; ++seed) {
            const Objective f{seed};
            QStringList row;
            for (const QString &a : kAlgorithms) {
                HpssSearch s = makeSearch(paramsFor(a, seed));
                drive(s, f);
                const double best = s.best()->spearman;
                total[a] += best;
                row.append(QString::number(best, 'f', 4));
                if (a == QLatin1String("hpss"))
                    for (int i = 0; i < kFactorCount; ++i)
                        for (int j = 0; j < meanA[size_t(i)].size(); ++j)
                            meanA[size_t(i)][j] += s.advantage(Factor(i), j) / seeds;
            }
            qInfo("%4d | %s", int(seed), qPrintable(row.join(QStringLiteral(" | "))));
        }
        QStringList means;
        for (const QString &a : kAlgorithms)
            means.append(QString::number(total[a] / seeds, 'f', 4));
        qInfo("mean | %s   (origin %.4f, optimum without noise %.4f)", qPrintable(means.join(QStringLiteral(" | "))),
              Objective{}.mean(PromptStrategy::mtBenchOrigin()), Objective{}.optimum());
        QVERIFY2(total[QStringLiteral("hpss")] >= total[QStringLiteral("random")], "HPSS below random search");
        QVERIFY2(total[QStringLiteral("hpss")] >= total[QStringLiteral("mutation")],
                 "HPSS below the mutation ablation");

        const Objective f;
        for (int i = 0; i < kFactorCount; ++i) {
            QStringList cells;
            for (int j = 0; j < meanA[size_t(i)].size(); ++j)
                cells.append(
                        QStringLiteral("%1 %2").arg(factorValues(Factor(i)).at(j)).arg(meanA[size_t(i)][j], 0, 'f', 2));
            qInfo("A %-9s %s (best value %s)", qPrintable(factorName(Factor(i))),
                  qPrintable(cells.join(QStringLiteral(", "))), qPrintable(factorValues(Factor(i)).at(f.bestValue(i))));
            const QVector<double> &a = meanA[size_t(i)];
            const int top = int(std::max_element(a.begin(), a.end()) - a.begin());
            QVERIFY2(top == f.bestValue(i),
                     qPrintable(QStringLiteral("factor %1: the largest mean advantage is %2, the helpful value is %3")
                                        .arg(factorName(Factor(i)), factorValues(Factor(i)).at(top),
                                             factorValues(Factor(i)).at(f.bestValue(i)))));
        }
    }
};

QTEST_GUILESS_MAIN(TestHpssSearch)
#include "TestHpssSearch.moc"
