#include "methods/hpss/PromptStrategy.h"
#include "util/Json.h"

#include <QSet>
#include <QtTest>

using namespace rubric;
using namespace rubric::hpss;

class TestHpssStrategy : public QObject
{
    Q_OBJECT

private slots:
    void fullSpaceHas12960Strategies()
    {
        const StrategySpace space = StrategySpace::full();
        QCOMPARE(space.size(), kFullSpaceSize);
        const QVector<PromptStrategy> all = space.all();
        QCOMPARE(qint64(all.size()), kFullSpaceSize);
        QSet<QString> distinct;
        for (const PromptStrategy &s : all)
            distinct.insert(s.format());
        QCOMPARE(qint64(distinct.size()), kFullSpaceSize);
        // product order: the first factor varies slowest, Table 1 value order
        QCOMPARE(all.first().format(),
                 QStringLiteral("scale:3,examples:0,criteria:none,reference:none,cot:none,autocot:off,metrics:off,"
                                "order:TEI"));
        QCOMPARE(all.last().format(), QStringLiteral("scale:100,examples:10,criteria:self,reference:dialectic,"
                                                     "cot:suffix,autocot:on,metrics:on,order:IET"));
        QVERIFY(std::is_sorted(all.begin(), all.end()));
    }

    void origin()
    {
        const PromptStrategy o = PromptStrategy::mtBenchOrigin();
        QCOMPARE(o.format(), QStringLiteral("scale:5,examples:0,criteria:human,reference:none,cot:prefix,autocot:off,"
                                            "metrics:off,order:TEI"));
        QCOMPARE(o.scaleMax(), 5);
        QCOMPARE(o.exampleCount(), 0);
        auto parsed = PromptStrategy::parse(o.format());
        QVERIFY(parsed.ok());
        QCOMPARE(*parsed, o);
    }

    void originHasTwentyNeighbours()
    {
        const PromptStrategy o = PromptStrategy::mtBenchOrigin();
        const QVector<PromptStrategy> ns = StrategySpace::full().neighbours(o);
        QCOMPARE(ns.size(), 20);
        QSet<QString> distinct;
        QVector<int> perFactor(kFactorCount, 0);
        for (const PromptStrategy &n : ns) {
            distinct.insert(n.format());
            const int f = o.firstDifference(n);
            QVERIFY(f >= 0);
            ++perFactor[f];
            // exactly one factor differs
            QCOMPARE(n.with(Factor(f), o.index(Factor(f))), o);
        }
        QCOMPARE(distinct.size(), 20);
        QCOMPARE(perFactor, QVector<int>({4, 3, 2, 2, 2, 1, 1, 5}));
        QCOMPARE(ns.first().format(), QStringLiteral("scale:3,examples:0,criteria:human,reference:none,cot:prefix,"
                                                     "autocot:off,metrics:off,order:TEI"));
    }

    void parseAcceptsAnyOrderAndCase()
    {
        auto s = PromptStrategy::parse(QStringLiteral(" order:iet , metrics:on,autocot:ON,cot:suffix,reference:self,"
                                                      "criteria:none,examples:10,scale:100"));
        QVERIFY2(s.ok(), qPrintable(s.errorString()));
        QCOMPARE(s->format(), QStringLiteral("scale:100,examples:10,criteria:none,reference:self,cot:suffix,autocot:on,"
                                             "metrics:on,order:IET"));
    }

    void parseErrorsNameFactorAndValue_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        const QString rest = QStringLiteral(",examples:0,criteria:human,reference:none,cot:prefix,autocot:off,metrics:"
                                            "off,order:TEI");
        QTest::newRow("bad value") << QStringLiteral("scale:7") + rest << "scale"
                                   << "unknown value '7'";
        QTest::newRow("unknown factor") << QStringLiteral("size:5") + rest << ""
                                        << "unknown factor 'size'";
        QTest::newRow("missing factor") << rest.mid(1) << "scale"
                                        << "missing";
        QTest::newRow("twice") << QStringLiteral("scale:5,scale:10") + rest << "scale"
                               << "given twice";
        QTest::newRow("no colon") << QStringLiteral("scale5") + rest << "strategy"
                                  << "not factor:value";
        QTest::newRow("bad order") << QStringLiteral("scale:5,examples:0,criteria:human,reference:none,cot:prefix,"
                                                     "autocot:off,metrics:off,order:TTI")
                                   << "order"
                                   << "TEI|TIE|ETI|EIT|ITE|IET";
    }
    void parseErrorsNameFactorAndValue()
    {
        QFETCH(QString, text);
        QFETCH(QString, field);
        QFETCH(QString, message);
        const auto s = PromptStrategy::parse(text);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().field, field);
        QVERIFY2(s.error().message.contains(message), qPrintable(s.errorString()));
    }

    void variantRoundTrip()
    {
        for (const PromptStrategy &s : StrategySpace::full().neighbours(PromptStrategy::mtBenchOrigin())) {
            QString error;
            const QVariant back = json::parse(json::stringify(s.toVariant()), &error);
            QVERIFY(error.isEmpty());
            auto parsed = PromptStrategy::fromVariant(back);
            QVERIFY2(parsed.ok(), qPrintable(parsed.errorString()));
            QCOMPARE(*parsed, s);
        }
        // numbers as JSON numbers are read too
        QVariantMap m = PromptStrategy::mtBenchOrigin().toVariant();
        m.insert(QStringLiteral("scale"), 10);
        auto parsed = PromptStrategy::fromVariant(m);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->scaleMax(), 10);
        m.remove(QStringLiteral("cot"));
        QCOMPARE(PromptStrategy::fromVariant(m).error().field, QStringLiteral("cot"));
    }

    void disabledValues()
    {
        StrategySpace space = StrategySpace::full();
        QVERIFY(space.disable(Factor::Reference, QStringLiteral("dialectic")).ok());
        QVERIFY(space.disable(Factor::Scale, QStringLiteral("3")).ok());
        QCOMPARE(space.size(), 4 * 4 * 3 * 2 * 3 * 2 * 2 * 6);
        const PromptStrategy o = PromptStrategy::mtBenchOrigin();
        QCOMPARE(space.neighbours(o).size(), 18);
        for (const PromptStrategy &n : space.neighbours(o))
            QVERIFY(space.contains(n));
        for (const PromptStrategy &s : space.all())
            QVERIFY(s.valueName(Factor::Reference) != QLatin1String("dialectic"));
        QVERIFY(!space.contains(*o.with(Factor::Reference, QStringLiteral("dialectic"))));

        const auto bad = space.disable(Factor::Cot, QStringLiteral("middle"));
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().field, QStringLiteral("cot"));
        QVERIFY(space.disable(Factor::AutoCot, QStringLiteral("on")).ok());
        const auto last = space.disable(Factor::AutoCot, QStringLiteral("off"));
        QVERIFY(!last.ok());
        QVERIFY(last.error().message.contains(QStringLiteral("last enabled value")));

        auto back = StrategySpace::fromVariant(json::parse(json::stringify(space.toVariant())));
        QVERIFY2(back.ok(), qPrintable(back.errorString()));
        QVERIFY(*back == space);
        QVERIFY(space.enable(Factor::Reference, QStringLiteral("dialectic")).ok());
        QVERIFY(!(*back == space));
    }

    void pairwisePreset()
    {
        const StrategySpace space = StrategySpace::pairwise();
        QCOMPARE(space.size(), 1728);
        QCOMPARE(space.enabledValues(Factor::Scale).size(), 1);
        QVERIFY(!space.isEnabled(Factor::Criteria, factorValues(Factor::Criteria).indexOf(QStringLiteral("self"))));
        QVERIFY(space.contains(PromptStrategy::mtBenchOrigin()));
        QCOMPARE(space.neighbours(PromptStrategy::mtBenchOrigin()).size(), 3 + 1 + 2 + 2 + 1 + 1 + 5);
    }
};

QTEST_GUILESS_MAIN(TestHpssStrategy)
#include "TestHpssStrategy.moc"
