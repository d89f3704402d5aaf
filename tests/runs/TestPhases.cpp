#include "runs/Phases.h"

#include <QtTest>

using namespace rubric;

class TestPhases : public QObject
{
    Q_OBJECT
private slots:
    void runOrderThenUnknownByName()
    {
        const QStringList names{QStringLiteral("evaluate"),  QStringLiteral("zeta"),
                                QStringLiteral("init"),      QStringLiteral("alpha"),
                                QStringLiteral("selection"), QStringLiteral("literature-summary")};
        QCOMPARE(phases::inRunOrder(names),
                 QStringList({QStringLiteral("literature-summary"), QStringLiteral("init"), QStringLiteral("selection"),
                              QStringLiteral("evaluate"), QStringLiteral("alpha"), QStringLiteral("zeta")}));
    }

    void estimateLineShowsRangesAndNumbers()
    {
        const auto range = [](int lo, int hi) {
            return QVariantMap{{QStringLiteral("min"), lo}, {QStringLiteral("max"), hi}};
        };
        const QVariantMap perPhase{{QStringLiteral("evaluate"), range(1516, 7580)},
                                   {QStringLiteral("init"), 1},
                                   {QStringLiteral("init-score"), range(25, 25)},
                                   {QStringLiteral("update"), range(25, 200)}};
        QCOMPARE(phases::estimateLine(perPhase, QStringLiteral("-")),
                 QStringLiteral("init 1, init-score 25, update 25-200, evaluate 1516-7580"));
        QCOMPARE(phases::estimateLine(perPhase, QStringLiteral("–"), QStringLiteral(" · "),
                                      QLocale(QLocale::English, QLocale::UnitedStates)),
                 QStringLiteral("init 1 · init-score 25 · update 25–200 · evaluate 1,516–7,580"));
        QCOMPARE(phases::estimateLine({}), QString());
    }
};

QTEST_GUILESS_MAIN(TestPhases)
#include "TestPhases.moc"
