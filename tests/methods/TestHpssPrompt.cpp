#include "methods/hpss/PromptAssembly.h"
#include "util/Json.h"

#include <QFile>
#include <QtTest>

using namespace rubric;
using namespace rubric::hpss;

namespace {

QString readText(const QString &name)
{
    QFile f(QStringLiteral(RUBRIC_TEST_DATA "/hpss/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(f.fileName()));
    return QString::fromUtf8(f.readAll());
}

QVariantMap readJson(const QString &name)
{
    QString error;
    const QVariant v = json::parse(readText(name), &error);
    if (!error.isEmpty())
        qFatal("fixture %s: %s", qPrintable(name), qPrintable(error));
    return v.toMap();
}

/// The SummEval item of the golden files (tests/methods/hpss/summeval_item.json).
PromptInputs summEvalInputs()
{
    const QVariantMap item = readJson(QStringLiteral("summeval_item.json"));
    PromptInputs in;
    in.task = TaskWording::summEval();
    in.aspect = QStringLiteral("Coherence");
    in.source = item.value(QStringLiteral("source")).toString();
    in.output = item.value(QStringLiteral("output")).toString();
    in.criteria = item.value(QStringLiteral("coherence_definition")).toString();
    return in;
}

PromptStrategy strategy(const char *text)
{
    auto s = PromptStrategy::parse(QString::fromLatin1(text));
    if (!s)
        qFatal("%s", qPrintable(s.errorString()));
    return *s;
}

} // namespace

class TestHpssPrompt : public QObject
{
    Q_OBJECT

private slots:
    // The golden files were written by hand from hpss.md §4 with tests/methods/hpss/make_goldens.py,
    // which types each §4.3 snippet and joins them by the §4.2 layout; it does not run this code.
    void originGolden()
    {
        const auto r = renderPrompt(PromptStrategy::mtBenchOrigin(), summEvalInputs());
        QVERIFY2(r.ok(), qPrintable(r.errorString()));
        QCOMPARE(r->text, readText(QStringLiteral("golden_origin_TEI.txt")));
        QCOMPARE(r->messages.size(), 2);
        QCOMPARE(r->messages[0].role, QStringLiteral("system"));
        QCOMPARE(r->messages[0].content, QStringLiteral("You are a helpful assistant."));
        QCOMPARE(r->messages[1].role, QStringLiteral("user"));
        QCOMPARE(r->messages[1].content, r->text);
    }

    void everyFactorOnGolden()
    {
        const QVariantMap item = readJson(QStringLiteral("summeval_item.json"));
        const QVariantMap aux = readJson(QStringLiteral("all_on_inputs.json"));
        PromptInputs in = summEvalInputs();
        in.criteria = aux.value(QStringLiteral("self_criteria")).toString();
        in.autocot = aux.value(QStringLiteral("autocot")).toString();
        in.metrics = aux.value(QStringLiteral("metrics")).toString();
        in.reference = aux.value(QStringLiteral("reference")).toString();
        for (const QVariant &e : item.value(QStringLiteral("examples")).toList()) {
            const QVariantMap m = e.toMap();
            in.examples.append(ExampleItem{in.source, m.value(QStringLiteral("output")).toString(),
                                           m.value(QStringLiteral("coherence")).toDouble()});
        }
        const auto r = renderPrompt(strategy("scale:10,examples:3,criteria:self,reference:self,cot:suffix,autocot:on,"
                                             "metrics:on,order:IET"),
                                    in);
        QVERIFY2(r.ok(), qPrintable(r.errorString()));
        QCOMPARE(r->text, readText(QStringLiteral("golden_all_on_IET.txt")));
    }

    // Each order's layout (§4.2), with the components typed from §4.3 for a tiny item.
    void orderLayout_data()
    {
        QTest::addColumn<QString>("order");
        QTest::addColumn<QString>("layout"); // T, E, I stand for the components; "|" = "\n", "||" = "\n\n"
        QTest::newRow("TEI") << "TEI"
                             << "T||E|I";
        QTest::newRow("TIE") << "TIE"
                             << "T||I||E";
        QTest::newRow("ETI") << "ETI"
                             << "E|T||I";
        QTest::newRow("EIT") << "EIT"
                             << "E|I||T";
        QTest::newRow("ITE") << "ITE"
                             << "I||T||E";
        QTest::newRow("IET") << "IET"
                             << "I||E|T";
    }
    void orderLayout()
    {
        QFETCH(QString, order);
        QFETCH(QString, layout);
        PromptInputs in;
        in.task = TaskWording::summEval();
        in.aspect = QStringLiteral("fluency");
        in.source = QStringLiteral("DOC");
        in.output = QStringLiteral("SUM");
        in.criteria = QStringLiteral("CRIT");
        const bool below = order.indexOf(QLatin1Char('T')) < order.indexOf(QLatin1Char('I'));
        const QString td = QStringLiteral("[Instruction]\nPlease act as an impartial judge and evaluate the quality of "
                                          "the summary to the news article displayed %1You must directly output "
                                          "your rating of the summary on a scale of 1 to 3 without any explanation by "
                                          "strictly following this format: \"[[rating]]\", for example: \"Rating: "
                                          "[[3]]\". ")
                                   // The official "above" instruction ends without a space.
                                   .arg(below ? QStringLiteral("below on its fluency. ")
                                              : QStringLiteral("above on its fluency."));
        const QString er = QStringLiteral("Here are some rules of the evaluation:\n1. Your evaluation should consider "
                                          "the fluency of the summary. CRIT\n2. Be as objective as possible.\n");
        const QString ic = QStringLiteral("\n[Article]\nDOC\n\n\n[The Start of the Summary]\nSUM\n[The End of the "
                                          "Summary]");
        QString expected = layout;
        expected.replace(QLatin1Char('|'), QLatin1Char('\n'));
        expected.replace(QLatin1Char('T'), QStringLiteral("\x01")).replace(QLatin1Char('E'), QStringLiteral("\x02"));
        expected.replace(QLatin1Char('I'), QStringLiteral("\x03"));
        expected.replace(QLatin1Char('\x01'), td).replace(QLatin1Char('\x02'), er).replace(QLatin1Char('\x03'), ic);

        const auto s = PromptStrategy::parse(
                QStringLiteral(
                        "scale:3,examples:0,criteria:human,reference:none,cot:none,autocot:off,metrics:off,order:")
                + order);
        QVERIFY2(s.ok(), qPrintable(s.errorString()));
        const auto r = renderPrompt(*s, in);
        QVERIFY2(r.ok(), qPrintable(r.errorString()));
        QCOMPARE(r->text, expected);
        // The component spans follow the order and cover exactly the component texts.
        QCOMPARE(r->components.size(), 3);
        for (int k = 0; k < 3; ++k) {
            const ComponentSpan &c = r->components[k];
            QCOMPARE(c.component, order.at(k));
            const QString part = r->text.mid(c.start, c.length);
            QCOMPARE(part, c.component == QLatin1Char('T') ? td : c.component == QLatin1Char('E') ? er : ic);
        }
    }

    void spansMarkEachFactorSnippet()
    {
        const QVariantMap aux = readJson(QStringLiteral("all_on_inputs.json"));
        PromptInputs in = summEvalInputs();
        in.autocot = aux.value(QStringLiteral("autocot")).toString();
        in.metrics = aux.value(QStringLiteral("metrics")).toString();
        const auto r = renderPrompt(strategy("scale:50,examples:0,criteria:human,reference:dialectic,cot:prefix,"
                                             "autocot:on,metrics:on,order:ITE"),
                                    in);
        QVERIFY2(r.ok(), qPrintable(r.errorString()));
        QHash<Factor, QStringList> byFactor;
        int end = 0;
        for (const PromptSpan &s : r->spans) {
            QVERIFY(s.start >= end); // in text order, never overlapping
            end = s.start + s.length;
            byFactor[s.factor].append(r->text.mid(s.start, s.length));
        }
        QCOMPARE(byFactor.value(Factor::Scale), QStringList({QStringLiteral("50"), QStringLiteral("50")}));
        QCOMPARE(byFactor.value(Factor::Order), QStringList{QStringLiteral("above")});
        QCOMPARE(byFactor.value(Factor::Criteria), QStringList{in.criteria});
        QVERIFY(byFactor.value(Factor::Reference)
                        .join(QString())
                        .startsWith(QStringLiteral("Please generate your own summary for the news article first")));
        QVERIFY(byFactor.value(Factor::Cot).join(QString()).startsWith(QStringLiteral("Begin your evaluation")));
        QCOMPARE(byFactor.value(Factor::AutoCot).join(QString()),
                 QStringLiteral("\nEvaluation Steps:\n") + in.autocot + QStringLiteral("\n"));
        QVERIFY(byFactor.value(Factor::Metrics).join(QString()).contains(in.metrics));
        QVERIFY(!byFactor.contains(Factor::Examples)); // no examples, no snippet
    }

    void missingInputIsAnError_data()
    {
        QTest::addColumn<QString>("strategy");
        QTest::addColumn<QString>("field");
        QTest::newRow("self reference") << "reference:self"
                                        << "reference";
        QTest::newRow("autocot") << "autocot:on"
                                 << "autocot";
        QTest::newRow("metrics") << "metrics:on"
                                 << "metrics";
        QTest::newRow("examples") << "examples:5"
                                  << "examples";
        QTest::newRow("self criteria") << "criteria:self"
                                       << "criteria";
    }
    void missingInputIsAnError()
    {
        QFETCH(QString, strategy);
        QFETCH(QString, field);
        PromptInputs in = summEvalInputs();
        in.criteria.clear();
        PromptStrategy s = PromptStrategy::mtBenchOrigin().with(Factor::Criteria, 0); // none: needs no criteria
        const qsizetype colon = strategy.indexOf(QLatin1Char(':'));
        auto f = factorFromName(strategy.left(colon));
        QVERIFY(f.ok());
        auto changed = s.with(*f, strategy.mid(colon + 1));
        QVERIFY2(changed.ok(), qPrintable(changed.errorString()));
        const auto r = renderPrompt(*changed, in);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().field, field);
        QVERIFY(renderPrompt(s, in).ok());
    }

    // Fewer examples than the strategy's count are fine (a rating no validation item has is left
    // out, as in the official example files; the item itself is never its own example); none is not.
    void examplesMayBeFewer()
    {
        PromptInputs in = summEvalInputs();
        in.examples = {ExampleItem{QStringLiteral("a"), QStringLiteral("b"), 1.0, {}},
                       ExampleItem{QStringLiteral("c"), QStringLiteral("d"), 5.0, {}}};
        const PromptStrategy s = PromptStrategy::mtBenchOrigin().with(Factor::Examples, 1); // 3 examples
        const auto r = renderPrompt(s, in);
        QVERIFY2(r.ok(), qPrintable(r.errorString()));
        QVERIFY(r->text.contains(QStringLiteral("# Example 2:\n")));
        QVERIFY(!r->text.contains(QStringLiteral("# Example 3:\n")));
        in.examples.clear();
        QVERIFY(!renderPrompt(s, in).ok());
    }

    void topicalChatHasFactBlockAfterMetrics()
    {
        PromptInputs in;
        in.task = TaskWording::topicalChat();
        in.aspect = QStringLiteral("groundedness");
        in.source = QStringLiteral("A: hi");
        in.output = QStringLiteral("B: hello");
        in.fact = QStringLiteral("FACT");
        in.metrics = QStringLiteral("Q1");
        in.criteria = QStringLiteral("CRIT");
        in.scaleMin = 0;
        const auto r = renderPrompt(PromptStrategy::mtBenchOrigin().with(Factor::Metrics, 1), in);
        QVERIFY2(r.ok(), qPrintable(r.errorString()));
        QVERIFY(r->text.contains(QStringLiteral("displayed below on its groundedness. The response concerns an "
                                                "interesting fact, which will be provided as well. Begin")));
        QVERIFY(r->text.contains(QStringLiteral("on a scale of 0 to 5")));
        QVERIFY(r->text.contains(
                QStringLiteral("thinking about all the questions.\nQ1\n\n[Corresponding Fact]\nFACT\n\n"
                               "[The Start of the Response]\nB: hello\n[The End of the Response]")));
        QVERIFY(r->text.contains(QStringLiteral("\n[Conversation History]\nA: hi\n")));
    }

    // §4.5: [code]'s stored ratings for SummEval humans 1–5.
    void exampleRatings_data()
    {
        QTest::addColumn<int>("scale");
        QTest::addColumn<QStringList>("expected"); // for human 1, 2, 3, 4, 5
        QTest::newRow("3") << 3 << QStringLiteral("1 1.5 2 2.5 3").split(QLatin1Char(' '));
        QTest::newRow("5") << 5 << QStringLiteral("1 2 3 4 5").split(QLatin1Char(' '));
        QTest::newRow("10") << 10 << QStringLiteral("1 2.5 5 7.5 10").split(QLatin1Char(' '));
        QTest::newRow("50") << 50 << QStringLiteral("1 12.5 25 37.5 50").split(QLatin1Char(' '));
        QTest::newRow("100") << 100 << QStringLiteral("1 25 50 75 100").split(QLatin1Char(' '));
    }
    void exampleRatings()
    {
        QFETCH(int, scale);
        QFETCH(QStringList, expected);
        QStringList got;
        for (int h = 1; h <= 5; ++h)
            got.append(formatRating(mapExampleRating(h, 1, 5, 1, scale)));
        QCOMPARE(got, expected);
    }

    // The official Topical-Chat example files (humans 1-3, the task's own scale 3; groundedness 0-1):
    // a human 2 is 3 at scale 5 and 5 at scale 10; groundedness keeps 0 and 1 at scale 3.
    void topicalChatExampleRatings()
    {
        QStringList got;
        for (int scale : {3, 5, 10, 50, 100})
            for (int h = 1; h <= 3; ++h)
                got.append(formatRating(mapExampleRating(h, 1, 3, 1, scale, 3)));
        QCOMPARE(got.join(QLatin1Char(' ')), QStringLiteral("1 2 3 1 3 5 1 5 10 1 25 50 1 50 100"));
        got.clear();
        for (int scale : {3, 5, 10, 50, 100})
            for (int h = 0; h <= 1; ++h)
                got.append(formatRating(mapExampleRating(h, 0, 1, 0, scale, 3)));
        QCOMPARE(got.join(QLatin1Char(' ')), QStringLiteral("0 1 0 5 0 10 0 50 0 100"));
    }

    void readScore_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<double>("score");
        QTest::addColumn<QString>("rule");
        QTest::newRow("prefix cot") << "The summary jumps between facts and repeats 'barcelona'. It is hard to follow "
                                       "in places.\n\nRating: [[2]]"
                                    << 2.0 << "[[n]]";
        QTest::newRow("suffix cot, decimal")
                << "Rating: [[7.5]]\nExplanation: mostly well ordered, 3 sentences fine." << 7.5 << "[[n]]";
        QTest::newRow("double brackets win over earlier numbers")
                << "Sentence 1 and 2 connect well, sentence 4 does not.\nRating: [[3]]" << 3.0 << "[[n]]";
        QTest::newRow("single brackets") << "My rating is [4] out of 5." << 4.0 << "[n]";
        QTest::newRow("Rating: n") << "Rating: 85\nThe story is complex." << 85.0 << "labelled";
        QTest::newRow("a verdict verb") << "I would give it a 3 because it is fine." << 3.0 << "verdict verb";
        QTest::newRow("year is not a rating") << "In 2015 the club, I rate 4" << 4.0 << "verdict verb";
        // The shared reader takes no "first number" of the prose (the official cascade's last rule):
        // a count is not a rating, and the answer counts as unparsed (2.51).
        QTest::newRow("a count is not a rating") << "There are 2 slips in the first paragraph." << 2.51 << "";
        QTest::newRow("markdown") << "**Rating:** [[4]]" << 4.0 << "[[n]]";
        QTest::newRow("think block with another rating")
                << "<think>Rating: [[1]] seems harsh.</think>\nRating: [[3]]" << 3.0 << "[[n]]";
        QTest::newRow("nothing") << "I cannot rate this summary." << 2.51 << "";
    }
    void readScore()
    {
        QFETCH(QString, answer);
        QFETCH(double, score);
        QFETCH(QString, rule);
        const ScoreReading r = hpss::readScore(answer);
        QCOMPARE(r.score, score);
        QCOMPARE(r.rule, rule);
        QCOMPARE(r.parsed, !rule.isEmpty());
    }

    void scoreOutsideTheScaleIsMarked()
    {
        QVERIFY(hpss::readScore(QStringLiteral("Rating: [[7]]"), 1, 10).inScale);
        const ScoreReading r = hpss::readScore(QStringLiteral("Rating: [[7]]"), 1, 5);
        QVERIFY(r.parsed);
        QCOMPARE(r.score, 7.0);
        QVERIFY(!r.inScale);
        QVERIFY(hpss::readScore(QStringLiteral("no idea"), 1, 5).inScale); // a parse failure is counted apart
        QCOMPARE(scaleFraction(75, 1, 100), 74.0 / 99.0);
        QCOMPARE(scaleFraction(3, 1, 5), 0.5);
    }
};

QTEST_GUILESS_MAIN(TestHpssPrompt)
#include "TestHpssPrompt.moc"
