// The OPRO-style search's bookkeeping (issue 32): the history it shows the evaluator, the budget of
// iterations, what a repeated, unreadable or disabled proposal costs, the winner, and a kill and
// resume. The expected values are recomputed here from the evaluated list with the official
// code's rules (baseline/opro.py: sorted by Spearman, the last show_num, item_2_str, the best by a
// strict "<"), not read from the search.

#include "methods/hpss/HpssSearch.h"
#include "util/Json.h"

#include <QRegularExpression>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::hpss;

namespace {

// [code] factors.py, our value names in its order: Part i → (factor, values).
struct Part
{
    Factor factor;
    QStringList values;
};
const QVector<Part> &parts()
{
    static const QVector<Part> p = {
            {Factor::Scale, QStringLiteral("3,5,10,50,100").split(QLatin1Char(','))},
            {Factor::Criteria, QStringLiteral("human,none,self").split(QLatin1Char(','))},
            {Factor::Cot, QStringLiteral("prefix,suffix,none").split(QLatin1Char(','))},
            {Factor::AutoCot, QStringLiteral("off,on").split(QLatin1Char(','))},
            {Factor::Metrics, QStringLiteral("off,on").split(QLatin1Char(','))},
            {Factor::Examples, QStringLiteral("0,3,5,10").split(QLatin1Char(','))},
            {Factor::Reference, QStringLiteral("none,self,dialectic").split(QLatin1Char(','))},
            {Factor::Order, QStringLiteral("TEI,TIE,ITE,IET,EIT,ETI").split(QLatin1Char(','))},
    };
    return p;
}

QString partsOf(const PromptStrategy &s)
{
    QStringList out;
    for (int p = 0; p < 8; ++p)
        out << QStringLiteral("'Part %1': %2").arg(p).arg(parts()[p].values.indexOf(s.valueName(parts()[p].factor)));
    return QLatin1Char('{') + out.join(QLatin1String(", ")) + QLatin1Char('}');
}

QString jsonOf(const PromptStrategy &s)
{
    QStringList out;
    for (int p = 0; p < 8; ++p)
        out << QStringLiteral("\"Part %1\" : %2").arg(p).arg(parts()[p].values.indexOf(s.valueName(parts()[p].factor)));
    return QLatin1Char('{') + out.join(QLatin1String(", ")) + QLatin1Char('}');
}

// A deterministic validation Spearman per strategy (distinct values: the order has no ties).
double spearmanOf(const PromptStrategy &s)
{
    quint64 h = 1469598103934665603ull;
    for (const QChar c : s.format()) {
        h ^= c.unicode();
        h *= 1099511628211ull;
    }
    return 0.2 + double(h % 600011ull) / 1000000.0;
}

SearchParams oproParams(int budget)
{
    SearchParams p;
    if (!p.set(QStringLiteral("search"), QStringLiteral("opro")).ok()
        || !p.set(QStringLiteral("budget"), QString::number(budget)).ok())
        qFatal("bad settings");
    return p;
}

HpssSearch throughJson(const HpssSearch &search)
{
    QString error;
    const QVariant state = json::parse(json::stringify(search.toVariant()), &error);
    auto restored = HpssSearch::fromVariant(state);
    if (!error.isEmpty() || !restored)
        qFatal("state does not restore");
    return std::move(restored).value();
}

/// The scripted evaluator: iteration k answers from this list (cycled): a one-factor change of the
/// best so far that is not evaluated ("new"), text that is not JSON, the best itself again (fenced),
/// a value out of range.
QString answerFor(int iteration, const HpssSearch &search)
{
    const PromptStrategy best = search.best()->proposal.strategy;
    switch (iteration % 5) {
    case 1:
        return QStringLiteral("I think the strategy should keep its examples.");
    case 3:
        return QStringLiteral("```json\n%1\n```").arg(jsonOf(best));
    case 4:
        return QStringLiteral("{\"Part 0\" : 7, \"Part 1\" : 0, \"Part 2\" : 0, \"Part 3\" : 0, \"Part 4\" : 0, "
                              "\"Part 5\" : 0, \"Part 6\" : 0, \"Part 7\" : 0}");
    default:
        for (int f = 0; f < kFactorCount; ++f)
            for (int j = 0; j < factorValues(Factor(f)).size(); ++j) {
                const PromptStrategy c = best.with(Factor(f), j);
                bool seen = false;
                for (const SearchRecord &r : search.evaluated())
                    seen = seen || r.proposal.strategy == c;
                if (!seen)
                    return jsonOf(c);
            }
    }
    return {};
}

/// Drives a search to its end with the scripted evaluator; returns the proposal prompts' histories.
QStringList drive(HpssSearch &s, QVector<PromptStrategy> &shownOrder, int stopAfterIterations = 1 << 30)
{
    QStringList histories;
    int iterations = 0;
    for (;;) {
        if (s.awaitingProposal()) {
            if (iterations >= stopAfterIterations)
                return histories;
            const QString history = s.oproHistory();
            histories << history;
            // the strategies the history shows, best last
            QVector<PromptStrategy> shown;
            static const QRegularExpression entry(QStringLiteral("Prompt: (\\{[^}]*\\})\\n"));
            for (auto it = entry.globalMatch(history); it.hasNext();) {
                const QString text = it.next().captured(1);
                for (const SearchRecord &r : s.evaluated())
                    if (partsOf(r.proposal.strategy) == text)
                        shown.append(r.proposal.strategy);
            }
            shownOrder = shown;
            if (!s.acceptProposal(answerFor(int(s.oproLog().size()), s)).ok())
                qFatal("acceptProposal refused");
            ++iterations;
            continue;
        }
        const auto next = s.next();
        if (!next)
            return histories;
        if (!s.report(next->strategy, spearmanOf(next->strategy)).ok())
            qFatal("report refused");
    }
}

} // namespace

class TestHpssOpro : public QObject
{
    Q_OBJECT
private slots:
    // The budget is HPSS's 71: 21 initial evaluations, then 50 iterations, each one proposal;
    // a non-JSON, a repeated or an out-of-range proposal spends its iteration without an evaluation.
    void budgetHistoryAndWinner()
    {
        HpssSearch s = HpssSearch::create(oproParams(71)).value();
        QVector<PromptStrategy> lastShown;
        const QStringList histories = drive(s, lastShown);
        QVERIFY(s.finished());
        QCOMPARE(s.stopReason(), QStringLiteral("budget"));
        QCOMPARE(histories.size(), 50);
        QCOMPARE(s.oproLog().size(), 50);
        int fresh = 0, unreadable = 0, repeat = 0;
        for (int k = 0; k < 50; ++k) {
            const QString outcome = s.oproLog()[k].toMap().value(QStringLiteral("outcome")).toString();
            const QString want = k % 5 == 1   ? QStringLiteral("unreadable")
                                 : k % 5 == 3 ? QStringLiteral("repeat")
                                 : k % 5 == 4 ? QStringLiteral("unreadable")
                                              : QStringLiteral("new");
            QCOMPARE(outcome, want);
            fresh += want == QLatin1String("new");
            unreadable += want == QLatin1String("unreadable");
            repeat += want == QLatin1String("repeat");
        }
        QCOMPARE(fresh, 20);
        QCOMPARE(int(s.evaluated().size()), 21 + fresh);

        // The last history recomputed: every step (the initialisation, then each iteration's
        // strategy, a repeat again) sorted ascending by Spearman, stable, the last 20.
        QVector<std::pair<PromptStrategy, double>> steps;
        for (const SearchRecord &r : s.evaluated())
            if (r.proposal.move == SearchMove::Init)
                steps.append({r.proposal.strategy, r.spearman});
        // (ties cannot occur with these Spearmans, so the initialisation's order does not matter)
        for (int k = 0; k < 49; ++k) { // the 50th iteration came after the last history
            const QString text = s.oproLog()[k].toMap().value(QStringLiteral("strategy")).toString();
            if (!text.isEmpty() && s.oproLog()[k].toMap().value(QStringLiteral("outcome")) != QLatin1String("outside"))
                steps.append({PromptStrategy::parse(text).value(), spearmanOf(PromptStrategy::parse(text).value())});
        }
        std::stable_sort(steps.begin(), steps.end(), [](const auto &x, const auto &y) { return x.second < y.second; });
        QString want;
        for (qsizetype k = steps.size() - 20; k < steps.size(); ++k) {
            QString score = QString::number(steps[k].second, 'g', 17);
            // Python's repr: the shortest text that reads back (these have at most 6 decimals)
            for (int digits = 1; digits <= 17; ++digits)
                if (QString::number(steps[k].second, 'g', digits).toDouble() == steps[k].second) {
                    score = QString::number(steps[k].second, 'g', digits);
                    break;
                }
            want += QStringLiteral("Prompt: %1\nScore: %2\n\n").arg(partsOf(steps[k].first), score);
        }
        QCOMPARE(histories.last(), want);
        QCOMPARE(lastShown.size(), 20);

        // The winner: the first of the highest validation Spearman over every evaluation.
        double best = 0;
        QString bestName;
        for (const SearchRecord &r : s.evaluated())
            if (best < r.spearman) {
                best = r.spearman;
                bestName = r.proposal.strategy.format();
            }
        QCOMPARE(s.best()->proposal.strategy.format(), bestName);
        QCOMPARE(s.best()->spearman, best);
    }

    // The parts and values in [code]'s order: Part 0 = 4 is scale 100, Part 2 = 2 is CoT free
    // ("none"), Part 7 = 5 is ETI; a disabled value is "outside" and evaluates nothing.
    void partsMapToTheOfficialFactors()
    {
        SearchParams p = oproParams(30);
        QVERIFY(p.set(QStringLiteral("disable"), QStringLiteral("examples:10")).ok());
        HpssSearch s = HpssSearch::create(p).value();
        while (!s.awaitingProposal()) {
            const auto next = s.next();
            QVERIFY(next);
            QVERIFY(s.report(next->strategy, spearmanOf(next->strategy)).ok());
        }
        QCOMPARE(s.oproRange(0), QStringLiteral("[0,1,2,3,4]"));
        QCOMPARE(s.oproRange(5), QStringLiteral("[0,1,2]")); // Example10 disabled
        QCOMPARE(s.oproRange(7), QStringLiteral("[0,1,2,3,4,5]"));
        QVERIFY(s.acceptProposal(QStringLiteral("{\"Part 0\" : 4, \"Part 1\" : 2, \"Part 2\" : 2, \"Part 3\" : 1, "
                                                "\"Part 4\" : 1, \"Part 5\" : 2, \"Part 6\" : 2, \"Part 7\" : 5}"))
                        .ok());
        const auto next = s.next();
        QVERIFY(next);
        QCOMPARE(next->strategy.format(),
                 PromptStrategy::parse(QStringLiteral("scale:100,examples:5,criteria:self,"
                                                      "reference:dialectic,cot:none,autocot:on,"
                                                      "metrics:on,order:ETI"))
                         .value()
                         .format());
        QCOMPARE(next->move, SearchMove::Opro);
        QVERIFY(s.report(next->strategy, 0.9).ok());
        QVERIFY(s.acceptProposal(QStringLiteral("{\"Part 0\" : 1, \"Part 1\" : 0, \"Part 2\" : 0, \"Part 3\" : 0, "
                                                "\"Part 4\" : 0, \"Part 5\" : 3, \"Part 6\" : 0, \"Part 7\" : 0}"))
                        .ok());
        QCOMPARE(s.oproLog().last().toMap().value(QStringLiteral("outcome")).toString(), QStringLiteral("outside"));
        QVERIFY(!s.next()); // nothing to evaluate: the next iteration asks again
        QVERIFY(s.awaitingProposal());
        QCOMPARE(s.oproIterationsLeft(), 30 - 20 - 2); // 20 initial: examples:10 is no neighbour
    }

    // Killed while waiting for a proposal or while its strategy is evaluated: the restored search
    // asks the same history and ends with the same log and winner as an uninterrupted one.
    void killAndResumeIsIdentical()
    {
        HpssSearch whole = HpssSearch::create(oproParams(71)).value();
        QVector<PromptStrategy> shown;
        const QStringList expected = drive(whole, shown);
        for (int cut : {0, 7, 18}) {
            HpssSearch first = HpssSearch::create(oproParams(71)).value();
            QStringList histories = drive(first, shown, cut);
            HpssSearch resumed = throughJson(first);
            histories += drive(resumed, shown);
            QCOMPARE(histories, expected);
            QCOMPARE(json::stringify(resumed.toVariant()), json::stringify(whole.toVariant()));
        }
        // with a new proposal pending (accepted, not yet evaluated): iteration 5 proposes a new one
        HpssSearch first = HpssSearch::create(oproParams(71)).value();
        QStringList histories = drive(first, shown, 5);
        const QString h = first.oproHistory();
        histories << h;
        QVERIFY(first.acceptProposal(answerFor(int(first.oproLog().size()), first)).ok());
        QVERIFY(first.next().has_value());
        HpssSearch resumed = throughJson(first);
        histories += drive(resumed, shown);
        QCOMPARE(histories, expected);
        QCOMPARE(json::stringify(resumed.toVariant()), json::stringify(whole.toVariant()));
    }

    void proposalOnlyWhenAwaited()
    {
        HpssSearch s = HpssSearch::create(oproParams(71)).value();
        QVERIFY(!s.awaitingProposal()); // the initialisation comes first
        QVERIFY(!s.acceptProposal(QStringLiteral("{}")).ok());
        SearchParams hpss;
        HpssSearch h = HpssSearch::create(hpss).value();
        QVERIFY(!h.awaitingProposal());
        QCOMPARE(h.oproIterationsLeft(), 0);
        QVERIFY(!oproParams(20).validate().ok()); // the budget must cover the initialisation
    }
};

QTEST_GUILESS_MAIN(TestHpssOpro)
#include "TestHpssOpro.moc"
