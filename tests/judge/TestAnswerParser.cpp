#include "judge/AnswerParser.h"

#include <QtTest>

#include <cmath>

using namespace rubric;

class TestAnswerParser : public QObject
{
    Q_OBJECT
private slots:
    void score_data();
    void score();
    void yesNo_data();
    void yesNo();
    void json_data();
    void json();
    void weightedIsExactExpectedValue_data();
    void weightedIsExactExpectedValue();
    void fallsBackToSampleMean();
    void logprobsWithoutScaleTokensFallBack();
    void unparseableKeepsRawText();
};

Q_DECLARE_METATYPE(ParsedAnswer::Method)

void TestAnswerParser::score_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<double>("score");
    QTest::addColumn<ParsedAnswer::Method>("method");
    QTest::newRow("plain integer") << QStringLiteral("4") << true << 4.0 << ParsedAnswer::Method::Number;
    QTest::newRow("plain decimal with spaces")
            << QStringLiteral("  3.5 \n") << true << 3.5 << ParsedAnswer::Method::Number;
    QTest::newRow("out of") << QStringLiteral("4/5") << true << 4.0 << ParsedAnswer::Method::Number;
    QTest::newRow("double brackets") << QStringLiteral("The summary is fluent.\nRating: [[5]]") << true << 5.0
                                     << ParsedAnswer::Method::Rating;
    QTest::newRow("brackets win over earlier numbers")
            << QStringLiteral("Point 1 and 2 hold. Rating: [[ 2 ]]") << true << 2.0 << ParsedAnswer::Method::Rating;
    QTest::newRow("final score") << QStringLiteral("Reasoning: 3 issues.\nFinal score: 1") << true << 1.0
                                 << ParsedAnswer::Method::FinalScore;
    QTest::newRow("final score bold") << QStringLiteral("Final Score: **4**") << true << 4.0
                                      << ParsedAnswer::Method::FinalScore;
    QTest::newRow("last final score wins over the quoted scale")
            << QStringLiteral("The rubric says Final score: 1 means poor.\nSteps…\nFinal score: 4") << true << 4.0
            << ParsedAnswer::Method::FinalScore;
    QTest::newRow("last rating wins") << QStringLiteral("Format: Rating: [[1]] to [[5]]. My verdict: Rating: [[3]]")
                                      << true << 3.0 << ParsedAnswer::Method::Rating;
    QTest::newRow("last score label wins")
            << QStringLiteral("Score: 5 would be perfect.\nScore: 2") << true << 2.0 << ParsedAnswer::Method::Number;
    QTest::newRow("score label") << QStringLiteral("Coherence score: 3") << true << 3.0 << ParsedAnswer::Method::Number;
    QTest::newRow("prose only") << QStringLiteral("I cannot rate this.") << false << qQNaN()
                                << ParsedAnswer::Method::None;
    QTest::newRow("number inside prose is not a score")
            << QStringLiteral("There are 3 problems here.") << false << qQNaN() << ParsedAnswer::Method::None;
}

void TestAnswerParser::score()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(double, score);
    QFETCH(ParsedAnswer::Method, method);
    const ParsedAnswer p = AnswerParser::parseScore(text);
    QCOMPARE(p.ok, ok);
    QCOMPARE(p.method, method);
    if (ok)
        QCOMPARE(p.score, score);
    else
        QVERIFY(std::isnan(p.score));
    QCOMPARE(p.raw, text);
}

void TestAnswerParser::yesNo_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected"); // "Q1=1,Q2=0"
    QTest::newRow("colon list") << QStringLiteral("Q1: Yes\nQ2: no\nQ3: YES") << QStringLiteral("Q1=1,Q2=0,Q3=1");
    QTest::newRow("numbered") << QStringLiteral("1. yes\n2) no") << QStringLiteral("Q1=1,Q2=0");
    QTest::newRow("bullets and bold") << QStringLiteral("- **Q4**: No, because …\n- Q5 - yes")
                                      << QStringLiteral("Q4=0,Q5=1");
    QTest::newRow("none") << QStringLiteral("It is fine.") << QString();
    // Issue 29: the forms chat models write, and reasoning left out.
    QTest::newRow("brackets") << QStringLiteral("Q1: [Yes]\nQ2: [No]") << QStringLiteral("Q1=1,Q2=0");
    QTest::newRow("bold labels") << QStringLiteral("**Q1:** Yes\n**Q2:** No") << QStringLiteral("Q1=1,Q2=0");
    QTest::newRow("bullets, bold answers")
            << QStringLiteral("- Q1: **No**\n- Q2: **Yes**") << QStringLiteral("Q1=0,Q2=1");
    QTest::newRow("dotted") << QStringLiteral("Q1. Yes\nQ2. No") << QStringLiteral("Q1=1,Q2=0");
    QTest::newRow("verdict at the end") << QStringLiteral("Q1: No obvious errors, so Yes\nQ2: No, it repeats itself.")
                                        << QStringLiteral("Q1=1,Q2=0");
    QTest::newRow("question words") << QStringLiteral("Question 1: yes\nQuestion 2 - no")
                                    << QStringLiteral("Q1=1,Q2=0");
    QTest::newRow("json") << QStringLiteral("```json\n{\"Q1\": \"Yes\", \"Q2\": \"No\"}\n```")
                          << QStringLiteral("Q1=1,Q2=0");
    QTest::newRow("think block with other answers")
            << QStringLiteral("<think>Q1: No? Q2: Yes maybe.\nQ1: No</think>\nQ1: Yes\nQ2: No")
            << QStringLiteral("Q1=1,Q2=0");
    QTest::newRow("cut off in thought") << QStringLiteral("<think>Q1: Yes\nQ2: No") << QString();
    QTest::newRow("no verdict") << QStringLiteral("Q1: the summary is fine") << QString();
}

void TestAnswerParser::yesNo()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const ParsedAnswer p = AnswerParser::parseYesNo(text);
    QStringList got;
    for (auto it = p.answers.cbegin(); it != p.answers.cend(); ++it)
        got << it.key() + QLatin1Char('=') + (it.value() ? QLatin1Char('1') : QLatin1Char('0'));
    QCOMPARE(got.join(QLatin1Char(',')), expected);
    QCOMPARE(p.ok, !expected.isEmpty());
    if (p.ok)
        QCOMPARE(p.method, ParsedAnswer::Method::YesNo);
}

void TestAnswerParser::json_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<double>("score");
    QTest::newRow("bare") << QStringLiteral("{\"score\": 4, \"reason\": \"ok\"}") << true << 4.0;
    QTest::newRow("fenced with prose") << QStringLiteral(
            "Here:\n```json\n{\"reason\": \"a } in a string\", \"score\": 2.5}\n```")
                                       << true << 2.5;
    QTest::newRow("no score member") << QStringLiteral("{\"verdict\": \"good\"}") << true << qQNaN();
    QTest::newRow("broken") << QStringLiteral("{\"score\": 4,") << false << qQNaN();
    // Found by fuzz_answer (issue #19): nlohmann's out_of_range for 1e999 was not caught (the
    // answer aborted the program), and deep nesting overflowed the stack in the conversion.
    QTest::newRow("number beyond double") << QStringLiteral("{\"score\": 1e999}") << false << qQNaN();
    QTest::newRow("nested 100000 deep") << QStringLiteral("{\"a\": ") + QString(100000, QLatin1Char('['))
                                                   + QString(100000, QLatin1Char(']'))
                                                   + QStringLiteral(", \"score\": 3}")
                                        << false << qQNaN();
}

void TestAnswerParser::json()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(double, score);
    const ParsedAnswer p = AnswerParser::parseJson(text);
    QCOMPARE(p.ok, ok);
    if (std::isnan(score))
        QVERIFY(std::isnan(p.score));
    else
        QCOMPARE(p.score, score);
    if (ok)
        QVERIFY(!p.json.isEmpty());
    else
        QVERIFY(!p.error.isEmpty());
}

void TestAnswerParser::weightedIsExactExpectedValue_data()
{
    QTest::addColumn<QVector<double>>("probs"); // probabilities of "1".."5" as returned
    QTest::addColumn<double>("otherMass");      // mass on non-scale tokens (dropped by renormalising)
    QTest::newRow("peaked") << QVector<double>{0.05, 0.1, 0.6, 0.2, 0.05} << 0.0;
    QTest::newRow("renormalised") << QVector<double>{0.1, 0.1, 0.1, 0.1, 0.1} << 0.5;
    QTest::newRow("bimodal, partial mass") << QVector<double>{0.3, 0.0, 0.0, 0.0, 0.3} << 0.2;
}

void TestAnswerParser::weightedIsExactExpectedValue()
{
    QFETCH(QVector<double>, probs);
    QFETCH(double, otherMass);
    JudgeChoice c;
    c.text = QStringLiteral("Rating: 3");
    // First token has no scale value; the second does.
    c.topLogprobs.append({{QStringLiteral("Rating"), std::log(0.9)}, {QStringLiteral("Score"), std::log(0.1)}});
    QVector<TokenLogprob> alts;
    double total = 0, expected = 0;
    for (int v = 1; v <= 5; ++v) {
        if (probs[v - 1] > 0)
            alts.append({QStringLiteral(" %1").arg(v), std::log(probs[v - 1])});
        total += probs[v - 1];
        expected += v * probs[v - 1];
    }
    if (otherMass > 0)
        alts.append({QStringLiteral("N/A"), std::log(otherMass)});
    expected /= total;
    c.topLogprobs.append(alts);
    const ParsedAnswer p = AnswerParser::weightedScore(c, 1, 5);
    QVERIFY(p.ok);
    QVERIFY(p.usedLogprobs());
    QVERIFY2(std::abs(p.score - expected) < 1e-12, qPrintable(QStringLiteral("%1 vs %2").arg(p.score).arg(expected)));
    double sum = 0;
    for (double x : p.distribution)
        sum += x;
    QVERIFY(std::abs(sum - 1.0) < 1e-12);
}

void TestAnswerParser::fallsBackToSampleMean()
{
    JudgeResponse r;
    for (const char *t : {"Rating: [[2]]", "Rating: [[4]]", "no idea", "[[5]]"})
        r.choices.append(JudgeChoice{QString::fromLatin1(t), {}});
    const ParsedAnswer p = AnswerParser::scoreOf(r, 1, 5);
    QVERIFY(p.ok);
    QCOMPARE(p.method, ParsedAnswer::Method::SampleMean);
    QVERIFY(!p.usedLogprobs());
    QCOMPARE(p.samplesUsed, 3);
    QCOMPARE(p.score, 11.0 / 3.0);
}

void TestAnswerParser::logprobsWithoutScaleTokensFallBack()
{
    JudgeResponse r;
    JudgeChoice c{QStringLiteral("Final score: 4"), {{{QStringLiteral("Final"), -0.1}}}};
    r.choices.append(c);
    const ParsedAnswer p = AnswerParser::scoreOf(r, 1, 5);
    QVERIFY(p.ok);
    QCOMPARE(p.method, ParsedAnswer::Method::FinalScore);
    QCOMPARE(p.score, 4.0);
}

void TestAnswerParser::unparseableKeepsRawText()
{
    JudgeResponse r;
    r.choices.append(JudgeChoice{QStringLiteral("As an AI I decline."), {}});
    const ParsedAnswer p = AnswerParser::scoreOf(r, 1, 5);
    QVERIFY(!p.ok);
    QCOMPARE(p.raw, QStringLiteral("As an AI I decline."));
    QVERIFY(!p.error.isEmpty());
    QVERIFY(AnswerParser::shouldReask(p, 1, 3));
    QVERIFY(!AnswerParser::shouldReask(p, 3, 3));
    QVERIFY(!AnswerParser::shouldReask(AnswerParser::parseScore(QStringLiteral("5")), 1, 3));
}

QTEST_GUILESS_MAIN(TestAnswerParser)
#include "TestAnswerParser.moc"
