// CheckEval's inter-evaluator agreement in the studio (JudgeAgreementDialog, reached from the
// Rubric pane's "Judge agreement…"): the alpha and kappa it shows per dimension, their average and
// the per-sub-aspect figures equal the values computed independently in Python
// (tests/methods/make_checkeval_reference.py → tests/methods/checkeval_reference.json, alpha and
// kappa written out by hand there, not from a library).
#include "../methods/ChecklistFixture.h"
#include "UiTestProject.h"
#include "methods/checkeval/ChecklistActions.h"
#include "methods/checkeval/JudgeAgreementDialog.h"
#include "panes/RubricPane.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QAction>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rubric;

namespace {

double valueAt(QTableWidget *t, int row, int column)
{
    QTableWidgetItem *item = t->item(row, column);
    return item ? item->data(JudgeAgreementDialog::ValueRole).toDouble() : std::nan("");
}

void near(double actual, double expected, const char *what)
{
    QVERIFY2(std::abs(actual - expected) < 1e-12,
             qPrintable(QStringLiteral("%1: %2 vs reference %3").arg(QLatin1String(what)).arg(actual).arg(expected)));
}

/// The fixture's "Facts" sub-aspect alone, as a checklist of the fluency dimension.
Rubric factsChecklist()
{
    const Rubric all = test::fixtureChecklist();
    Rubric r(QStringLiteral("checkeval"), QStringLiteral("fluency"));
    Criterion root = *all.find(QStringLiteral("aspect"));
    root.text = QStringLiteral("fluency");
    r.add(root);
    r.add(*all.find(QStringLiteral("s2")));
    for (const char *q : {"q4", "q5", "q6"})
        r.add(*all.find(QLatin1String(q)));
    return r;
}

} // namespace

class TestJudgeAgreement : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void figuresMatchTheReference();
    void oneJudgeOrDifferentChecklistsSayWhy();
    void reachedFromTheRubricPane();

private:
    QJsonObject m_ref;
    QTemporaryDir m_dir;
    std::unique_ptr<Project> m_project;
};

void TestJudgeAgreement::initTestCase()
{
    testing::isolateSettings();
    m_ref = test::checklistReference();
    QVERIFY2(!m_ref.isEmpty(), "tests/methods/checkeval_reference.json is missing");
    auto opened = Project::open(m_dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY2(opened, qPrintable(opened.errorString()));
    m_project = std::move(opened).value();
    QVERIFY(m_project->upsertAspect({QStringLiteral("coherence"), QStringLiteral("d"), 1, 5}));
    QVERIFY(m_project->upsertAspect({QStringLiteral("fluency"), QStringLiteral("d"), 1, 5}));
    QVector<Item> items;
    const QJsonArray ids = m_ref.value(QStringLiteral("items")).toArray();
    for (int i = 0; i < ids.size(); ++i) {
        Item it;
        it.id = ids.at(i).toString();
        it.output = QStringLiteral("summary %1").arg(i);
        it.position = i;
        items.append(it);
    }
    QVERIFY(m_project->addItems(items));
    RubricStore store(m_project.get());
    const QSet<QString> facts{QStringLiteral("q4"), QStringLiteral("q5"), QStringLiteral("q6")};
    for (const QString &j : {QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")}) {
        // coherence: the whole fixture; fluency: its Facts questions under another judge name
        QVERIFY(m_project->ensureJudge(j, QStringLiteral("checkeval")));
        QVERIFY(store.saveVersion(j, test::fixtureChecklist()));
        QVERIFY(store.writeCriterionScores(j, test::fixtureScores(m_ref, j)));
        const QString f = QStringLiteral("F") + j.mid(1);
        QVERIFY(m_project->ensureJudge(f, QStringLiteral("checkeval")));
        QVERIFY(store.saveVersion(f, factsChecklist()));
        QVector<CriterionScore> rows;
        for (const CriterionScore &s : test::fixtureScores(m_ref, j))
            if (facts.contains(s.criterionKey))
                rows.append(s);
        QVERIFY(store.writeCriterionScores(f, rows));
    }
    // a judge of another method is not listed
    QVERIFY(m_project->ensureJudge(QStringLiteral("G"), QStringLiteral("geval")));
}

void TestJudgeAgreement::figuresMatchTheReference()
{
    JudgeAgreementDialog dialog(m_project.get(), QStringLiteral("J1"));
    QCOMPARE(dialog.judgeList()->count(), 6);
    // opened on J1: the coherence judges are chosen
    QTableWidget *dims = dialog.dimensionTable();
    QCOMPARE(dims->rowCount(), 2); // coherence + the average
    dialog.setChosen({QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3"), QStringLiteral("F1"),
                      QStringLiteral("F2"), QStringLiteral("F3")});
    QCOMPARE(dims->rowCount(), 3);
    QCOMPARE(dims->item(0, JudgeAgreementDialog::DimensionColumn)->text(), QStringLiteral("coherence"));
    QCOMPARE(dims->item(1, JudgeAgreementDialog::DimensionColumn)->text(), QStringLiteral("fluency"));
    QCOMPARE(dims->item(0, JudgeAgreementDialog::JudgesColumn)->text(), QStringLiteral("J1, J2, J3"));

    const QJsonObject agreement = m_ref.value(QStringLiteral("agreement")).toObject();
    const QJsonObject factsRef
            = agreement.value(QStringLiteral("per_sub_aspect")).toObject().value(QStringLiteral("Facts")).toObject();
    const double alpha = agreement.value(QStringLiteral("alpha")).toDouble();
    const double kappa = agreement.value(QStringLiteral("kappa")).toDouble();
    const double factsAlpha = factsRef.value(QStringLiteral("alpha")).toDouble();
    const double factsKappa = factsRef.value(QStringLiteral("kappa")).toDouble();
    near(valueAt(dims, 0, JudgeAgreementDialog::AlphaColumn), alpha, "coherence alpha");
    near(valueAt(dims, 0, JudgeAgreementDialog::KappaColumn), kappa, "coherence kappa");
    QCOMPARE(dims->item(0, JudgeAgreementDialog::AlphaColumn)->text(), QString::number(alpha, 'f', 3));
    QCOMPARE(dims->item(0, JudgeAgreementDialog::KappaColumn)->text(), QString::number(kappa, 'f', 3));
    QCOMPARE(dims->item(0, JudgeAgreementDialog::PairsColumn)->text(),
             QString::number(agreement.value(QStringLiteral("pairs")).toInt()));
    QCOMPARE(dims->item(0, JudgeAgreementDialog::KappaUnitsColumn)->text(),
             QString::number(agreement.value(QStringLiteral("kappa_units")).toInt()));
    near(valueAt(dims, 1, JudgeAgreementDialog::AlphaColumn), factsAlpha, "fluency (Facts) alpha");
    near(valueAt(dims, 1, JudgeAgreementDialog::KappaColumn), factsKappa, "fluency (Facts) kappa");
    // the dimension average, as the paper averages its four dimensions
    QCOMPARE(dims->item(2, JudgeAgreementDialog::JudgesColumn)->text(), QStringLiteral("over coherence, fluency"));
    near(valueAt(dims, 2, JudgeAgreementDialog::AlphaColumn), (alpha + factsAlpha) / 2, "average alpha");
    near(valueAt(dims, 2, JudgeAgreementDialog::KappaColumn), (kappa + factsKappa) / 2, "average kappa");

    // the selected dimension's sub-aspects
    QTableWidget *subs = dialog.subAspectTable();
    dims->selectRow(0);
    QCOMPARE(subs->rowCount(), 2);
    const QJsonObject per = agreement.value(QStringLiteral("per_sub_aspect")).toObject();
    for (int r = 0; r < 2; ++r) {
        const QString name = subs->item(r, JudgeAgreementDialog::DimensionColumn)->text();
        QVERIFY2(per.contains(name), qPrintable(name));
        const QJsonObject e = per.value(name).toObject();
        near(valueAt(subs, r, JudgeAgreementDialog::AlphaColumn), e.value(QStringLiteral("alpha")).toDouble(),
             "sub-aspect alpha");
        near(valueAt(subs, r, JudgeAgreementDialog::KappaColumn), e.value(QStringLiteral("kappa")).toDouble(),
             "sub-aspect kappa");
    }
    dims->selectRow(1);
    QCOMPARE(subs->rowCount(), 1);
    QCOMPARE(subs->item(0, JudgeAgreementDialog::DimensionColumn)->text(), QStringLiteral("Facts"));
    dims->selectRow(2); // the average has no sub-aspects
    QCOMPARE(subs->rowCount(), 0);

    // unchecking a judge in the list computes again (two judges on fluency now)
    for (int i = 0; i < dialog.judgeList()->count(); ++i)
        if (dialog.judgeList()->item(i)->text().startsWith(QStringLiteral("F3")))
            dialog.judgeList()->item(i)->setCheckState(Qt::Unchecked);
    QCOMPARE(dims->item(1, JudgeAgreementDialog::JudgesColumn)->text(), QStringLiteral("F1, F2"));
    QVERIFY(std::abs(valueAt(dims, 1, JudgeAgreementDialog::AlphaColumn) - factsAlpha) > 1e-6);
}

void TestJudgeAgreement::oneJudgeOrDifferentChecklistsSayWhy()
{
    JudgeAgreementDialog dialog(m_project.get(), QStringLiteral("J1"));
    dialog.setChosen({QStringLiteral("J1"), QStringLiteral("F1"), QStringLiteral("F2")});
    QCOMPARE(dialog.dimensionTable()->rowCount(), 2); // fluency + the average
    QVERIFY2(dialog.messageLabel()->text().contains(QStringLiteral("coherence: choose a second judge")),
             qPrintable(dialog.messageLabel()->text()));

    // a judge whose checklist inverts a question cannot be compared: refused with the reason
    RubricStore store(m_project.get());
    Rubric inverted = test::fixtureChecklist();
    inverted.find(QStringLiteral("q2"))->origin.insert(QStringLiteral("inverted"), true);
    QVERIFY(m_project->ensureJudge(QStringLiteral("J4"), QStringLiteral("checkeval")));
    QVERIFY(store.saveVersion(QStringLiteral("J4"), inverted));
    QVERIFY(store.writeCriterionScores(QStringLiteral("J4"), test::fixtureScores(m_ref, QStringLiteral("J2"))));
    JudgeAgreementDialog again(m_project.get(), QStringLiteral("J1"));
    again.setChosen({QStringLiteral("J1"), QStringLiteral("J4")});
    QCOMPARE(again.dimensionTable()->rowCount(), 2);
    QVERIFY(std::isnan(valueAt(again.dimensionTable(), 0, JudgeAgreementDialog::AlphaColumn)));
    QVERIFY2(again.messageLabel()->text().contains(QStringLiteral("inverted for judge")),
             qPrintable(again.messageLabel()->text()));
    QVERIFY(m_project->removeJudge(QStringLiteral("J4")));
}

void TestJudgeAgreement::reachedFromTheRubricPane()
{
    RubricPane pane;
    pane.setProject(m_project.get());
    pane.setJudge(QStringLiteral("F2"));
    auto *action = pane.findChild<QAction *>(QStringLiteral("rubricJudgeAgreement"));
    QVERIFY(action);
    action->trigger();
    auto *dialog = pane.findChild<JudgeAgreementDialog *>(QStringLiteral("judgeAgreementDialog"));
    QVERIFY(dialog);
    // opened on F2: the fluency judges are chosen
    QCOMPARE(dialog->dimensionTable()->item(0, JudgeAgreementDialog::DimensionColumn)->text(),
             QStringLiteral("fluency"));
    QCOMPARE(dialog->dimensionTable()->item(0, JudgeAgreementDialog::JudgesColumn)->text(),
             QStringLiteral("F1, F2, F3"));
    dialog->close();
}

QTEST_MAIN(TestJudgeAgreement)
#include "TestJudgeAgreement.moc"
