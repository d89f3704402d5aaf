#include "methods/AnswerText.h"

#include <QtTest>

using namespace rubric;

class TestAnswerText : public QObject
{
    Q_OBJECT
private slots:
    void hypotheses_data();
    void hypotheses();
    void steps();
    void finalYesNo_data();
    void finalYesNo();
    void reasoning();
};

void TestAnswerText::hypotheses_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("paper format") << "Proposed:\nhypothesis1. [Flow: 1 when…, 5 when…]\nhypothesis2. Order matters."
                                  << QStringList{QStringLiteral("Flow: 1 when…, 5 when…"),
                                                 QStringLiteral("Order matters.")};
    QTest::newRow("spaced and colon") << "Hypothesis 1: A.\n\nHypothesis 2) B\nspans lines."
                                      << QStringList{QStringLiteral("A."), QStringLiteral("B spans lines.")};
    QTest::newRow("numbered fallback") << "1. First one\n2. Second one"
                                       << QStringList{QStringLiteral("First one"), QStringLiteral("Second one")};
    QTest::newRow("nothing") << "I cannot help with that." << QStringList{};
}

void TestAnswerText::hypotheses()
{
    QFETCH(QString, text);
    QFETCH(QStringList, expected);
    QCOMPARE(answer::hypotheses(text), expected);
}

void TestAnswerText::steps()
{
    QCOMPARE(answer::steps(QStringLiteral("1. Read.\n2. Compare\n   carefully.\n3. Score.")),
             (QStringList{QStringLiteral("Read."), QStringLiteral("Compare carefully."), QStringLiteral("Score.")}));
    QCOMPARE(answer::steps(QStringLiteral("Read.\nScore.")),
             (QStringList{QStringLiteral("Read."), QStringLiteral("Score.")}));
    // As chat models write them (issue 29): a preamble, bold numbers, bullets, a think block.
    QCOMPARE(answer::steps(QStringLiteral("<think>1. not a step</think>Here are the steps:\n\n**1.** Read the "
                                          "source.\n**2.** Check the order\n   of the sentences.\n- Assign a score.")),
             (QStringList{QStringLiteral("Read the source."), QStringLiteral("Check the order of the sentences."),
                          QStringLiteral("Assign a score.")}));
}

void TestAnswerText::finalYesNo_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("expected"); // -1 none, 0 no, 1 yes
    QTest::newRow("yes") << "They repeat. Final answer: yes" << 1;
    QTest::newRow("bracketed no") << "Final answer: [No]" << 0;
    QTest::newRow("last wins") << "Final answer: yes... on reflection Final Answer: no" << 0;
    QTest::newRow("absent") << "maybe" << -1;
}

void TestAnswerText::finalYesNo()
{
    QFETCH(QString, text);
    QFETCH(int, expected);
    const auto got = answer::finalYesNo(text);
    QCOMPARE(got.has_value() ? int(*got) : -1, expected);
}

void TestAnswerText::reasoning()
{
    QCOMPARE(answer::reasoningBeforeScore(QStringLiteral("Step 1: x.\nStep 3: good. {Final score: 4}")),
             QStringLiteral("Step 1: x.\nStep 3: good."));
    QCOMPARE(answer::reasoningBeforeScore(QStringLiteral("no score here")), QStringLiteral("no score here"));
}

QTEST_GUILESS_MAIN(TestAnswerText)
#include "TestAnswerText.moc"
