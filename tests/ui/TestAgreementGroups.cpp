// CheckEval's inter-evaluator agreement by group, as the paper reports it (Tables 2, 23; Table 4
// for people): the Judge agreement dialog's Groups tab — all / large / medium / small / each
// family / Top-3 rows, alpha and kappa per dimension and their average, LLM judges only or with
// people — against tests/methods/make_checkeval_groups_reference.py (sizes and families inferred
// by the stated rule re-implemented there, Spearman from scipy, alpha and kappa written by hand).
#include "UiTestProject.h"
#include "methods/checkeval/EvaluatorGroups.h"
#include "methods/checkeval/EvaluatorGroupsView.h"
#include "methods/checkeval/JudgeAgreementDialog.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rubric;

namespace {

QJsonObject reference()
{
    QFile f(QStringLiteral(RUBRIC_SOURCE_DIR "/tests/methods/checkeval_groups_reference.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

Rubric checklist(const QString &dim, const QJsonArray &questions)
{
    Rubric r(QStringLiteral("checkeval"), dim);
    r.add({QStringLiteral("aspect"), {}, CriterionKind::Aspect, dim, QStringLiteral("d")});
    r.add({QStringLiteral("s1"), QStringLiteral("aspect"), CriterionKind::SubAspect, QStringLiteral("First")});
    r.add({QStringLiteral("s2"), QStringLiteral("aspect"), CriterionKind::SubAspect, QStringLiteral("Second")});
    for (int i = 0; i < questions.size(); ++i)
        r.add({questions.at(i).toString(), i < 2 ? QStringLiteral("s1") : QStringLiteral("s2"), CriterionKind::Question,
               QStringLiteral("Is %1 of %2 met?").arg(questions.at(i).toString(), dim)});
    return r;
}

double valueAt(QTableWidget *t, int row, int column)
{
    QTableWidgetItem *item = row >= 0 && column >= 0 ? t->item(row, column) : nullptr;
    return item ? item->data(EvaluatorGroupsView::ValueRole).toDouble() : std::nan("");
}

} // namespace

class TestAgreementGroups : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void sizeAndFamilyFromTheModelName();
    void groupTableMatchesTheReference();
    void withPeopleAndAHandSetSize();

private:
    void compareTable(JudgeAgreementDialog &dialog, const QJsonObject &expected, bool withPeople);
    int evaluatorRow(JudgeAgreementDialog &dialog, const QString &judge);
    QJsonObject m_ref;
    QStringList m_judges;
    QTemporaryDir m_dir;
    std::unique_ptr<Project> m_project;
};

void TestAgreementGroups::initTestCase()
{
    testing::isolateSettings();
    m_ref = reference();
    QVERIFY2(!m_ref.isEmpty(), "tests/methods/checkeval_groups_reference.json is missing");
    auto opened = Project::open(m_dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY2(opened, qPrintable(opened.errorString()));
    m_project = std::move(opened).value();
    const QJsonArray dims = m_ref.value(QStringLiteral("dims")).toArray();
    for (const QJsonValue &d : dims)
        QVERIFY(m_project->upsertAspect({d.toString(), QStringLiteral("d"), 1, 5}));
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
    QVector<Annotation> human;
    const QJsonObject h = m_ref.value(QStringLiteral("human")).toObject();
    for (auto d = h.begin(); d != h.end(); ++d) {
        const QJsonObject byItem = d.value().toObject();
        for (auto it = byItem.begin(); it != byItem.end(); ++it)
            human.append({it.key(), d.key(), QStringLiteral("rater"), it.value().toDouble(), {}, {}});
    }
    QVERIFY(m_project->addAnnotations(human));

    RubricStore store(m_project.get());
    const QJsonArray questions = m_ref.value(QStringLiteral("questions")).toArray();
    const QJsonObject judges = m_ref.value(QStringLiteral("judges")).toObject();
    const QJsonObject answers = m_ref.value(QStringLiteral("answers")).toObject();
    const QJsonObject judgeScores = m_ref.value(QStringLiteral("judge_scores")).toObject();
    for (auto j = judges.begin(); j != judges.end(); ++j) {
        const QJsonObject info = j.value().toObject();
        const QString dim = info.value(QStringLiteral("dim")).toString();
        QVERIFY(m_project->ensureJudge(j.key(), QStringLiteral("checkeval")));
        QVERIFY(store.saveVersion(j.key(), checklist(dim, questions)));
        QVector<CriterionScore> rows;
        const QJsonObject byQ = answers.value(j.key()).toObject();
        for (auto q = byQ.begin(); q != byQ.end(); ++q) {
            const QJsonObject byItem = q.value().toObject();
            for (auto it = byItem.begin(); it != byItem.end(); ++it) {
                CriterionScore s;
                s.itemId = it.key();
                s.criterionKey = q.key();
                s.parseStatus = it.value().isNull() ? QStringLiteral("unparsed") : QStringLiteral("ok");
                if (!it.value().isNull())
                    s.score = it.value().toDouble();
                rows.append(s);
            }
        }
        QVERIFY(store.writeCriterionScores(j.key(), rows));
        QHash<QString, double> scores;
        const QJsonObject sc = judgeScores.value(j.key()).toObject();
        for (auto it = sc.begin(); it != sc.end(); ++it)
            scores.insert(it.key(), it.value().toDouble());
        QVERIFY(m_project->setJudgeScores(j.key(), dim, scores));
        // an LLM judge's model as a user sets it (no run here); people are marked in the dialog
        if (!info.value(QStringLiteral("person")).toBool()) {
            EvaluatorProfile p;
            p.judge = j.key();
            p.model = info.value(QStringLiteral("who")).toString();
            p.modelSet = true;
            QVERIFY(EvaluatorGroups::write(*m_project, p));
        }
        m_judges << j.key();
    }
}

void TestAgreementGroups::sizeAndFamilyFromTheModelName()
{
    const QJsonObject inferred = m_ref.value(QStringLiteral("inferred")).toObject();
    QCOMPARE(inferred.size(), 10);
    for (auto m = inferred.begin(); m != inferred.end(); ++m) {
        const EvaluatorProfile p = EvaluatorGroups::infer(m.key());
        QCOMPARE(p.size, m.value().toObject().value(QStringLiteral("size")).toString());
        QCOMPARE(p.family, m.value().toObject().value(QStringLiteral("family")).toString());
        QVERIFY(!p.sizeWhy.isEmpty());
    }
    // the rule's other cases
    QCOMPARE(EvaluatorGroups::infer(QStringLiteral("mistralai/Mixtral-8x7B-Instruct-v0.1")).size,
             QStringLiteral("medium"));
    QCOMPARE(EvaluatorGroups::infer(QStringLiteral("mistralai/Mixtral-8x22B-Instruct-v0.1")).size,
             QStringLiteral("large"));
    QCOMPARE(EvaluatorGroups::infer(QStringLiteral("mistralai/Mixtral-8x7B-Instruct-v0.1")).family,
             QStringLiteral("Mistral"));
    QCOMPARE(EvaluatorGroups::infer(QStringLiteral("o3-mini")).family, QStringLiteral("GPT"));
    QCOMPARE(EvaluatorGroups::infer(QStringLiteral("claude-3-5-sonnet")).size, QString());
    QCOMPARE(EvaluatorGroups::infer(QStringLiteral("Meta-Llama-3.1-405B-Instruct")).family, QStringLiteral("Llama"));
    QCOMPARE(EvaluatorGroups::infer(QStringLiteral("Qwen2.5-1.5B")).size, QStringLiteral("small"));
}

int TestAgreementGroups::evaluatorRow(JudgeAgreementDialog &dialog, const QString &judge)
{
    QTableWidget *t = dialog.groupsView()->evaluatorTable();
    for (int r = 0; r < t->rowCount(); ++r)
        if (t->item(r, EvaluatorGroupsView::JudgeCol)->text() == judge)
            return r;
    return -1;
}

void TestAgreementGroups::compareTable(JudgeAgreementDialog &dialog, const QJsonObject &expected, bool withPeople)
{
    EvaluatorGroupsView *view = dialog.groupsView();
    QTableWidget *t = view->groupTable();
    const QJsonObject rows = expected.value(QStringLiteral("rows")).toObject();
    QCOMPARE(t->rowCount(), rows.size());
    const QJsonArray dims = m_ref.value(QStringLiteral("dims")).toArray();
    auto near = [](double actual, const QJsonValue &ref, const QString &what) {
        if (ref.isNull()) {
            QVERIFY2(std::isnan(actual), qPrintable(what));
            return;
        }
        QVERIFY2(std::abs(actual - ref.toDouble()) < 1e-12,
                 qPrintable(QStringLiteral("%1: %2 vs reference %3").arg(what).arg(actual).arg(ref.toDouble())));
    };
    for (auto g = rows.begin(); g != rows.end(); ++g) {
        const int row = view->groupRow(g.key());
        QVERIFY2(row >= 0, qPrintable(g.key()));
        if (withPeople && g.key() != QLatin1String("people"))
            QVERIFY2(t->item(row, 0)->text().endsWith(QStringLiteral(" + people")),
                     qPrintable(t->item(row, 0)->text()));
        const QJsonObject e = g.value().toObject();
        for (const QJsonValue &d : dims) {
            const QJsonValue cell = e.value(QStringLiteral("dims")).toObject().value(d.toString());
            const QString where = g.key() + QLatin1Char(' ') + d.toString();
            if (cell.isNull()) {
                QVERIFY2(std::isnan(valueAt(t, row, view->figureColumn(d.toString(), false))), qPrintable(where));
                continue;
            }
            near(valueAt(t, row, view->figureColumn(d.toString(), false)),
                 cell.toObject().value(QStringLiteral("alpha")), where + QStringLiteral(" alpha"));
            near(valueAt(t, row, view->figureColumn(d.toString(), true)),
                 cell.toObject().value(QStringLiteral("kappa")), where + QStringLiteral(" kappa"));
        }
        near(valueAt(t, row, view->figureColumn({}, false)), e.value(QStringLiteral("alpha")),
             g.key() + QStringLiteral(" average alpha"));
        near(valueAt(t, row, view->figureColumn({}, true)), e.value(QStringLiteral("kappa")),
             g.key() + QStringLiteral(" average kappa"));
    }
}

void TestAgreementGroups::groupTableMatchesTheReference()
{
    JudgeAgreementDialog dialog(m_project.get());
    dialog.setChosen(m_judges);
    // the people are not marked yet: mark them in the evaluator table (stored in the project)
    const QJsonObject judges = m_ref.value(QStringLiteral("judges")).toObject();
    for (auto j = judges.begin(); j != judges.end(); ++j) {
        if (!j.value().toObject().value(QStringLiteral("person")).toBool())
            continue;
        const int r = evaluatorRow(dialog, j.key());
        QVERIFY2(r >= 0, qPrintable(j.key()));
        auto *kind = qobject_cast<QComboBox *>(
                dialog.groupsView()->evaluatorTable()->cellWidget(r, EvaluatorGroupsView::KindCol));
        QVERIFY(kind);
        kind->setCurrentIndex(1);
    }
    const auto stored = EvaluatorGroups::read(*m_project, QStringLiteral("annotator-A@coherence"),
                                              QStringLiteral("coherence"), {});
    QVERIFY(stored && stored->person);
    QCOMPARE(dialog.codersChoice()->currentIndex(), 0); // LLM judges only
    const QJsonObject llm = m_ref.value(QStringLiteral("llm_only")).toObject();
    compareTable(dialog, llm, false);
    // Top-3 as the reference ranks the models by their mean rho
    QStringList top;
    for (const QJsonValue &m : llm.value(QStringLiteral("top3")).toArray())
        top << m.toString();
    QTableWidget *t = dialog.groupsView()->groupTable();
    QCOMPARE(t->item(dialog.groupsView()->groupRow(QStringLiteral("top3")), 1)->text(), top.join(QStringLiteral(", ")));
    QVERIFY2(dialog.groupsView()->noteLabel()->text().contains(top.first()),
             qPrintable(dialog.groupsView()->noteLabel()->text()));
    // the model's rho beside each LLM judge
    const QJsonObject rho = llm.value(QStringLiteral("rho")).toObject();
    const int r = evaluatorRow(dialog, QStringLiteral("gpt-4o@fluency"));
    QVERIFY(std::abs(valueAt(dialog.groupsView()->evaluatorTable(), r, EvaluatorGroupsView::RhoCol)
                     - rho.value(QStringLiteral("gpt-4o")).toDouble())
            < 1e-12);
    // people are left out of the chosen-judges figures and say so
    QVERIFY2(dialog.messageLabel()->text().contains(QStringLiteral("annotator-A@coherence")),
             qPrintable(dialog.messageLabel()->text()));
    QVERIFY(!dialog.dimensionTable()
                     ->item(0, JudgeAgreementDialog::JudgesColumn)
                     ->text()
                     .contains(QStringLiteral("annotator")));

    // With RUBRIC_SHOT_DIR set: the Groups tab as a screenshot (docs/screenshots/checkeval-iea-groups.png)
    if (const QString shots = qEnvironmentVariable("RUBRIC_SHOT_DIR"); !shots.isEmpty()) {
        dialog.tabs()->setCurrentWidget(dialog.groupsView());
        dialog.resize(1500, 860);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog)); // grab() lays out and paints what is pending
        QVERIFY(dialog.grab().save(QDir(shots).filePath(QStringLiteral("checkeval-iea-groups.png"))));
    }
}

void TestAgreementGroups::withPeopleAndAHandSetSize()
{
    JudgeAgreementDialog dialog(m_project.get());
    dialog.setChosen(m_judges);
    dialog.setWithPeople(true);
    compareTable(dialog, m_ref.value(QStringLiteral("with_people")).toObject(), true);
    QVERIFY(dialog.dimensionTable()
                    ->item(0, JudgeAgreementDialog::JudgesColumn)
                    ->text()
                    .contains(QStringLiteral("annotator-A@coherence")));

    // gemma-2-27b set to large by hand on both of its judges: the size groups change as the reference's
    dialog.setWithPeople(false);
    for (const QString &j : {QStringLiteral("gemma-2-27b-it@coherence"), QStringLiteral("gemma-2-27b-it@fluency")}) {
        const int r = evaluatorRow(dialog, j);
        QVERIFY2(r >= 0, qPrintable(j));
        auto *size = qobject_cast<QComboBox *>(
                dialog.groupsView()->evaluatorTable()->cellWidget(r, EvaluatorGroupsView::SizeCol));
        QVERIFY(size);
        QVERIFY(size->currentText().startsWith(QStringLiteral("inferred: medium")));
        size->setCurrentIndex(size->findData(QStringLiteral("large")));
    }
    compareTable(dialog, m_ref.value(QStringLiteral("override")).toObject(), false);
    // stored: a new dialog shows it
    JudgeAgreementDialog again(m_project.get());
    again.setChosen(m_judges);
    const int r = evaluatorRow(again, QStringLiteral("gemma-2-27b-it@fluency"));
    auto *size = qobject_cast<QComboBox *>(
            again.groupsView()->evaluatorTable()->cellWidget(r, EvaluatorGroupsView::SizeCol));
    QCOMPARE(size->currentData().toString(), QStringLiteral("large"));
    // and a family typed by hand makes its own row
    QTableWidget *ev = again.groupsView()->evaluatorTable();
    ev->item(evaluatorRow(again, QStringLiteral("gpt-4o@coherence")), EvaluatorGroupsView::FamilyCol)
            ->setText(QStringLiteral("OpenAI"));
    QVERIFY(again.groupsView()->groupRow(QStringLiteral("family:OpenAI")) >= 0);
    QVERIFY(again.groupsView()->groupRow(QStringLiteral("family:GPT")) >= 0); // gpt-4o@fluency, gpt-4o-mini
}

QTEST_MAIN(TestAgreementGroups)
#include "TestAgreementGroups.moc"
