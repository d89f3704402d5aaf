// Issue 29.4: the answer reader on answers real judges wrote, and on the forms the models people
// use today write (markdown, think blocks, reasoning fields, cut-off answers).

#include "judge/AnswerParser.h"
#include "methods/checkeval/ChecklistAnswers.h"
#include "methods/hdeval/HdEvalTree.h"
#include "methods/hpss/PromptAssembly.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace rubric;

class TestRealAnswers : public QObject
{
    Q_OBJECT
private slots:
    void gpt35SummEvalAnswers();
    void scoreForms_data();
    void scoreForms();
    void reasoningSeparated();
    void methodVariants();
    void listItems();
};

// 4,800 answers GPT-3.5-turbo-0301 wrote as a SummEval judge ("reason, then score"), each with the
// score a careful reader takes from it (../shared/data/real-answers/SOURCE.md).
void TestRealAnswers::gpt35SummEvalAnswers()
{
    const QString path = QStringLiteral(RUBRIC_SHARED_DATA "/real-answers/gpt-3.5-turbo-0301_summeval_rts.jsonl");
    QFile file(path);
    if (!file.exists())
        QSKIP("shared dataset not present (../shared/data/real-answers)");
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    int total = 0, agree = 0, other = 0, unparsed = 0, line = 0;
    QStringList misread;
    while (!file.atEnd()) {
        ++line;
        const QByteArray bytes = file.readLine().trimmed();
        if (bytes.isEmpty())
            continue;
        const QJsonObject o = QJsonDocument::fromJson(bytes).object();
        QVERIFY2(o.contains(QStringLiteral("answer")),
                 qPrintable(QStringLiteral("%1:%2: no answer").arg(path).arg(line)));
        const QString answer = o.value(QStringLiteral("answer")).toString();
        const QJsonValue reading = o.value(QStringLiteral("reading"));
        const ParsedAnswer p = AnswerParser::readScore(answer, ScoreRules{1, 5});
        ++total;
        if (reading.isNull()) {
            if (!p.ok)
                ++agree;
            else
                ++other;
            continue;
        }
        if (!p.ok) {
            ++unparsed;
            if (misread.size() < 15)
                misread << QStringLiteral("unparsed (%1): %2").arg(reading.toDouble()).arg(answer.right(160));
        } else if (std::abs(p.score - reading.toDouble()) < 1e-9) {
            ++agree;
        } else {
            ++other;
            if (misread.size() < 15)
                misread << QStringLiteral("%1 for %2: %3").arg(p.score).arg(reading.toDouble()).arg(answer.right(160));
        }
    }
    qInfo("real answers: %d read, %d agree (%.2f %%), %d another number (%.2f %%), %d unparsed (%.2f %%)", total, agree,
          100.0 * agree / total, other, 100.0 * other / total, unparsed, 100.0 * unparsed / total);
    for (const QString &m : std::as_const(misread))
        qInfo("  %s", qPrintable(m));
    QCOMPARE(total, 4800);
    QVERIFY2(agree >= 0.99 * total, "the reader must agree with the reference on at least 99 %");
    QVERIFY2(other <= 0.005 * total, "the reader may give another number on at most 0.5 %");
}

void TestRealAnswers::scoreForms_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("expected"); // NaN = unparsed
    const double none = qQNaN();
    // Markdown chat answers.
    QTest::newRow("bold label") << QStringLiteral("**Score:** 4") << 4.0;
    QTest::newRow("label with scale") << QStringLiteral("Score (1-5): 4") << 4.0;
    QTest::newRow("rate this a bold 4 out of 5")
            << QStringLiteral("The summary flows well.\n\nI would rate this a **4** out of 5.") << 4.0;
    QTest::newRow("rating n/m") << QStringLiteral("Rating: 4/5") << 4.0;
    QTest::newRow("fenced json") << QStringLiteral("```json\n{\"reasoning\": \"2 slips\", \"score\": 3}\n```") << 3.0;
    QTest::newRow("preamble with other numbers")
            << QStringLiteral("There are 2 or 3 small slips in 1 paragraph, but the 4 key events are covered.\n\n"
                              "**Final score: 4**")
            << 4.0;
    QTest::newRow("header then score") << QStringLiteral("### Evaluation\nCoherence is decent.\n### Score\n3") << 3.0;
    QTest::newRow("out of five, gets") << QStringLiteral("Out of 5, this gets 4.") << 4.0;
    QTest::newRow("on a scale of, give") << QStringLiteral("On a scale of 1 to 5, I would give this a 4.") << 4.0;
    QTest::newRow("word number") << QStringLiteral("The summary is choppy, with a score of two.") << 2.0;
    QTest::newRow("word out of word") << QStringLiteral("It lacks coherence, scoring a one out of five.") << 1.0;
    QTest::newRow("parenthesised n/m") << QStringLiteral("The summary is irrelevant (1/5).") << 1.0;
    QTest::newRow("bare last sentence") << QStringLiteral("The summary covers the main points. 4.") << 4.0;
    QTest::newRow("half point") << QStringLiteral("Score: 3.5") << 3.5;
    QTest::newRow("revised: the last verdict counts")
            << QStringLiteral("Score: 3. On reflection the flow is better than I said; I'd give it a 4.") << 4.0;
    QTest::newRow("double brackets win") << QStringLiteral("Score 2 at first sight. Rating: [[4]]") << 4.0;
    QTest::newRow("aspect label line") << QStringLiteral("Coherence: 4/5\nThe sentences follow.") << 4.0;
    // Unparsed, never a guess.
    QTest::newRow("two scores at once") << QStringLiteral("I'd say the score is 3 or 4.") << none;
    QTest::newRow("a range as the verdict") << QStringLiteral("Score: 3-4") << none;
    QTest::newRow("numbers in prose only") << QStringLiteral("There are 3 problems in 2 sentences.") << none;
    QTest::newRow("another scale") << QStringLiteral("Rating: 8/10") << none;
    QTest::newRow("out of the scale") << QStringLiteral("Score: 7") << none;
    QTest::newRow("empty") << QString() << none;
    // Reasoning left out: think blocks that mention other scores.
    QTest::newRow("think block with other scores") << QStringLiteral(
            "<think>Maybe a 2? Score: 2. No — the flow is fine, Rating: [[5]] is too high.</think>\n\n"
            "Score: 4") << 4.0;
    QTest::newRow("think block cut off") << QStringLiteral("<think>Let me weigh it. A score of 3 seems") << none;
    QTest::newRow("closing tag only") << QStringLiteral("I think 2… no, 5.</think>\nRating: [[3]]") << 3.0;
}

void TestRealAnswers::scoreForms()
{
    QFETCH(QString, text);
    QFETCH(double, expected);
    const ParsedAnswer p = AnswerParser::readScore(text, ScoreRules{1, 5});
    if (std::isnan(expected)) {
        QVERIFY2(!p.ok, qPrintable(QStringLiteral("read %1 (%2)").arg(p.score).arg(p.rule)));
        QVERIFY(!p.error.isEmpty());
        QVERIFY(std::isnan(p.score));
    } else {
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.score, expected);
    }
    QCOMPARE(p.raw, text);
}

void TestRealAnswers::reasoningSeparated()
{
    JudgeChoice c;
    c.text = QStringLiteral("<think>Two facts wrong, Score: 1?</think>\n\nScore: 4");
    QCOMPARE(c.answer(), QStringLiteral("Score: 4"));
    QCOMPARE(c.thoughts(), QStringLiteral("Two facts wrong, Score: 1?"));
    c.text = QStringLiteral("<think>still thinking about it");
    QCOMPARE(c.answer(), QString());
    c.text = QStringLiteral("Score: 5");
    c.reasoning = QStringLiteral("Score: 2 at first");
    QCOMPARE(c.answer(), QStringLiteral("Score: 5"));
    QCOMPARE(c.thoughts(), QStringLiteral("Score: 2 at first"));
    JudgeResponse r;
    r.choices.append(c);
    QCOMPARE(AnswerParser::scoreOf(r, 1, 5).score, 5.0);
}

void TestRealAnswers::listItems()
{
    const QStringList items = AnswerParser::parseList(
            QStringLiteral("<think>1. not this</think>Here they are:\n1. **Logical flow:** the ideas follow\n"
                           "2) Topic focus\n- Consistent tense\n**3.** Clear references"));
    QCOMPARE(items, (QStringList{QStringLiteral("Logical flow: the ideas follow"), QStringLiteral("Topic focus"),
                                 QStringLiteral("Consistent tense"), QStringLiteral("Clear references")}));
}

// The methods' own readers are the shared reader's named variants: what each misread before.
void TestRealAnswers::methodVariants()
{
    // HD-Eval asks "Score (1-5):" and read the first number it met.
    QCOMPARE(hdeval::firstScore(QStringLiteral("Score (1-5): 4")), std::optional<double>(4.0));
    QCOMPARE(hdeval::firstScore(QStringLiteral("On a scale of 1 to 5, I would give this a 4.")),
             std::optional<double>(4.0));
    QCOMPARE(hdeval::firstScore(QStringLiteral("Out of 5, this gets 4")), std::optional<double>(4.0));
    QCOMPARE(hdeval::firstScore(QStringLiteral("4\nThe sentences follow; 2 of them are long.")),
             std::optional<double>(4.0));
    QCOMPARE(hdeval::firstScore(QStringLiteral("<think>Maybe 2.</think>\n3\nFine.")), std::optional<double>(3.0));
    QVERIFY(!hdeval::firstScore(QStringLiteral("There are 2 slips.")).has_value());
    // CheckEval read none of these, and "No obvious errors, so Yes" as No.
    const QHash<int, bool> a = checkeval::parseAnswers(
            QStringLiteral("Q1: [Yes]\n**Q2:** Yes\n- Q3: **No**\nQ4. Yes\nQ5: No obvious errors, so Yes\nQ9: Yes"), 5);
    QCOMPARE(a.size(), 5);
    QCOMPARE(a.value(1), true);
    QCOMPARE(a.value(2), true);
    QCOMPARE(a.value(3), false);
    QCOMPARE(a.value(4), true);
    QCOMPARE(a.value(5), true);
    // HPSS: [[n]] and [n] first, unparsed = the official 2.51, never the prose's first number.
    QCOMPARE(hpss::readScore(QStringLiteral("**Rating:** [[4]]")).score, 4.0);
    QCOMPARE(hpss::readScore(QStringLiteral("In 2 of 3 sentences the flow breaks.")).parsed, false);
}

QTEST_GUILESS_MAIN(TestRealAnswers)
#include "TestRealAnswers.moc"
