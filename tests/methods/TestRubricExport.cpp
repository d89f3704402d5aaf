// RubricExport: the JSON and Markdown forms of a rubric (show-rubric --json / --markdown and the
// studio's Export Rubric).
#include "rubric/RubricExport.h"

#include <QtTest>

using namespace rubric;

class TestRubricExport : public QObject
{
    Q_OBJECT
private slots:
    void jsonListsParentsBeforeChildren();
    void markdownReadsAsADocument();

private:
    static Rubric checklist();
};

Rubric TestRubricExport::checklist()
{
    // Added out of tree order on purpose: a question before its sub-aspect.
    Rubric r(QStringLiteral("checkeval"), QStringLiteral("coherence"));
    Criterion root{QStringLiteral("root"),
                   {},
                   CriterionKind::Aspect,
                   QStringLiteral("coherence"),
                   QStringLiteral("The summary is well-structured.\nIt builds from sentence to sentence.")};
    r.add(root);
    Criterion q2{QStringLiteral("q2"), QStringLiteral("s1"), CriterionKind::Question,
                 QStringLiteral("# Does it jump between topics?")};
    q2.enabled = false;
    r.add(q2);
    Criterion s1{QStringLiteral("s1"), QStringLiteral("root"), CriterionKind::SubAspect,
                 QStringLiteral("Logical flow")};
    r.add(s1);
    Criterion q1{QStringLiteral("q1"), QStringLiteral("s1"), CriterionKind::Question,
                 QStringLiteral("Is the order of events clear?")};
    q1.stats = {{QStringLiteral("train_pearson"), 0.4321}, {QStringLiteral("selected_rank"), 2}};
    q1.origin = {{QStringLiteral("source"), QStringLiteral("data")},
                 {QStringLiteral("edited_by"), QStringLiteral("ana")}};
    r.add(q1);
    r.setVersion(3);
    return r;
}

void TestRubricExport::jsonListsParentsBeforeChildren()
{
    const QVariantMap json = RubricExport::toJson(checklist());
    QCOMPARE(json.value(QStringLiteral("method")).toString(), QStringLiteral("checkeval"));
    QCOMPARE(json.value(QStringLiteral("aspect")).toString(), QStringLiteral("coherence"));
    QCOMPARE(json.value(QStringLiteral("version")).toInt(), 3);
    QStringList ids;
    for (const QVariant &v : json.value(QStringLiteral("criteria")).toList())
        ids << v.toMap().value(QStringLiteral("id")).toString();
    // Tree order: root, its sub-aspect, then the sub-aspect's questions in position order.
    QCOMPARE(ids,
             (QStringList{QStringLiteral("root"), QStringLiteral("s1"), QStringLiteral("q2"), QStringLiteral("q1")}));
    const QVariantMap q2 = json.value(QStringLiteral("criteria")).toList().at(2).toMap();
    QCOMPARE(q2.value(QStringLiteral("enabled")).toBool(), false);
    QCOMPARE(q2.value(QStringLiteral("kind")).toString(), QStringLiteral("question"));
    QCOMPARE(q2.value(QStringLiteral("parent")).toString(), QStringLiteral("s1"));
}

void TestRubricExport::markdownReadsAsADocument()
{
    const QString md = RubricExport::toMarkdown(checklist());
    const QStringList lines = md.split(QLatin1Char('\n'));
    QCOMPARE(lines.value(0), QStringLiteral("# checkeval rubric for coherence (version 3)"));
    QVERIFY2(lines.contains(QStringLiteral("## coherence")), qPrintable(md));
    // The definition is one paragraph, its line break folded.
    QVERIFY2(lines.contains(QStringLiteral("The summary is well-structured. It builds from sentence to sentence.")),
             qPrintable(md));
    QVERIFY2(lines.contains(QStringLiteral("- **s1** (sub-aspect): Logical flow")), qPrintable(md));
    // A disabled question is struck through and says so; its leading '#' cannot become a heading.
    QVERIFY2(lines.contains(QStringLiteral("  - **q2** (question, not used): ~~\\# Does it jump between topics?~~")),
             qPrintable(md));
    QVERIFY2(lines.contains(QStringLiteral("  - **q1** (question): Is the order of events clear?")), qPrintable(md));
    QVERIFY2(lines.contains(QStringLiteral("    <br>*train Pearson 0.432 · selected #2 · from data · edited by ana*")),
             qPrintable(md));
    // Children come after their parent.
    QVERIFY(md.indexOf(QLatin1String("**s1**")) < md.indexOf(QLatin1String("**q2**")));
    QVERIFY(md.indexOf(QLatin1String("**q2**")) < md.indexOf(QLatin1String("**q1**")));
}

QTEST_GUILESS_MAIN(TestRubricExport)
#include "TestRubricExport.moc"
