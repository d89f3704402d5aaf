// The APE-style search's step machine (hpss::ApeSearch) without an endpoint: where the authors'
// baseline/ape.py would loop forever (every variation unusable: each costs nothing and, with its one
// seed, comes back the same) ours stops after its limit with a stop reason that says so; a search
// saved and restored after every step ends exactly as the uninterrupted one.

#include "methods/hpss/ApeSearch.h"

#include <QtTest>

using namespace rubric;
using namespace rubric::hpss;

namespace {

// A made-up validation Spearman per prompt text.
double rhoOf(const QString &prompt)
{
    return double(qHash(prompt) % 1000) / 1000.0;
}

// Drives a search to its end with variations "<parent> v<attempt>" (every third one unusable),
// saving and restoring the state after every step when `roundTrip`.
ApeSearch drive(ApeSearch s, bool roundTrip)
{
    for (int guard = 0; guard < 1000; ++guard) {
        if (roundTrip) {
            auto back = ApeSearch::fromVariant(s.toVariant());
            if (!back)
                qFatal("%s", qPrintable(back.errorString()));
            s = *back;
        }
        switch (s.next()) {
        case ApeSearch::Action::Done:
            return s;
        case ApeSearch::Action::Evaluate:
            if (!s.report(s.pendingCandidate(), rhoOf(s.candidates().at(s.pendingCandidate()).prompt)).ok())
                qFatal("report");
            break;
        case ApeSearch::Action::Resample: {
            const QString text
                    = s.candidates().at(s.resampleParent()).prompt + QStringLiteral(" v%1").arg(s.resampleAttempt());
            if (!s.acceptVariation(text, s.resampleAttempt() % 3 == 2 ? QStringLiteral("a {field}") : QString()).ok())
                qFatal("accept");
            break;
        }
        }
    }
    qFatal("the search did not end");
}

} // namespace

class TestHpssApe : public QObject
{
    Q_OBJECT
private slots:
    void everyVariationUnusableStops()
    {
        ApeSearch s = ApeSearch::create(QStringLiteral("base {document}"), 70, 5, 70);
        QVERIFY(s.report(0, 0.4).ok());
        int asked = 0;
        while (s.next() == ApeSearch::Action::Resample) {
            QCOMPARE(s.resampleParent(), 0); // the queue holds the base prompt alone
            QVERIFY(s.acceptVariation(QStringLiteral("broken {style}"), QStringLiteral("unknown field")).ok());
            ++asked;
            QVERIFY(asked <= 70);
        }
        QCOMPARE(s.next(), ApeSearch::Action::Done);
        QCOMPARE(asked, 70);
        QCOMPARE(s.cost(), 0);
        QCOMPARE(s.winner(), 0);
        QVERIFY2(s.stopReason().contains(QLatin1String("70 unusable variations")), qPrintable(s.stopReason()));
    }

    void budgetEndsThePassAndTheQueueKeepsTheBest()
    {
        // Budget 3 (every third variation unusable, costing nothing): the search ends in the pass
        // where the cost reaches 3; the queue is sorted(base and the 3 variations by Spearman)[-5:].
        ApeSearch s = drive(ApeSearch::create(QStringLiteral("base"), 3, 5, 3), false);
        QCOMPARE(s.cost(), 3);
        QCOMPARE(s.stopReason(), QStringLiteral("budget"));
        QVector<int> all;
        for (int k = 0; k < s.candidates().size(); ++k)
            if (s.candidates()[k].spearman)
                all.append(k);
        QCOMPARE(all.size(), 4);
        std::stable_sort(all.begin(), all.end(),
                         [&](int a, int b) { return *s.candidates()[a].spearman < *s.candidates()[b].spearman; });
        QCOMPARE(s.queue(), all);
        QCOMPARE(s.winner(), all.last());
    }

    void savedAfterEveryStepEndsTheSame()
    {
        const ApeSearch straight = drive(ApeSearch::create(QStringLiteral("base"), 20, 5, 20), false);
        const ApeSearch resumed = drive(ApeSearch::create(QStringLiteral("base"), 20, 5, 20), true);
        QCOMPARE(resumed.toVariant(), straight.toVariant());
        QCOMPARE(straight.cost(), 20);
        QVERIFY(straight.log().size() > 20); // some unusable ones, which cost nothing
    }
};

QTEST_GUILESS_MAIN(TestHpssApe)
#include "TestHpssApe.moc"
