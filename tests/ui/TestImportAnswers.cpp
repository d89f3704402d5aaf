// CheckEval: "Import answers…" in the Rubric pane (ImportAnswersDialog over AnswerImport, the
// importer of `rubric import-answers`): a CSV of per-question answers is previewed row by row,
// imported as a checklist judge, and gives the same agreement figures in the Judge agreement
// dialog as the same answers stored by a run; a bad file names file, line and field and writes
// nothing. Offscreen, real widgets.
#include "../methods/ChecklistFixture.h"
#include "UiTestProject.h"
#include "methods/checkeval/EvaluatorGroups.h"
#include "methods/checkeval/ImportAnswersDialog.h"
#include "methods/checkeval/JudgeAgreementDialog.h"
#include "panes/RubricPane.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rubric;

class TestImportAnswers : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void importedAnswersAgreeLikeRunAnswers();
    void badFileNamesLineAndFieldAndWritesNothing();

private:
    QString writeFile(const QString &name, const QString &text);
    ImportAnswersDialog *openFromPane(RubricPane &pane);
    QJsonObject m_ref;
    QTemporaryDir m_dir;
    std::unique_ptr<Project> m_project;
};

QString TestImportAnswers::writeFile(const QString &name, const QString &text)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(text.toUtf8());
    return path;
}

void TestImportAnswers::initTestCase()
{
    testing::isolateSettings();
    m_ref = test::checklistReference();
    QVERIFY2(!m_ref.isEmpty(), "tests/methods/checkeval_reference.json is missing");
    auto opened = Project::open(m_dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY2(opened, qPrintable(opened.errorString()));
    m_project = std::move(opened).value();
    QVERIFY(m_project->upsertAspect({QStringLiteral("coherence"), QStringLiteral("d"), 1, 5}));
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
    // J1, J2, J3 as runs store them
    for (const QString &j : {QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")}) {
        QVERIFY(m_project->ensureJudge(j, QStringLiteral("checkeval")));
        QVERIFY(store.saveVersion(j, test::fixtureChecklist()));
        QVERIFY(store.writeCriterionScores(j, test::fixtureScores(m_ref, j)));
    }
}

ImportAnswersDialog *TestImportAnswers::openFromPane(RubricPane &pane)
{
    pane.setProject(m_project.get());
    pane.setJudge(QStringLiteral("J1"));
    auto *action = pane.findChild<QAction *>(QStringLiteral("rubricImportAnswers"));
    if (!action)
        return nullptr;
    action->trigger();
    return pane.findChild<ImportAnswersDialog *>(QStringLiteral("importAnswersDialog"));
}

void TestImportAnswers::importedAnswersAgreeLikeRunAnswers()
{
    // J2's answers as another tool writes them: keys or texts, yes/no words, empty = none
    QString csv = QStringLiteral("item,question,answer\n");
    int rows = 0;
    for (const CriterionScore &s : test::fixtureScores(m_ref, QStringLiteral("J2"))) {
        if (s.sample != 0)
            continue;
        const QString question
                = ++rows % 2 ? s.criterionKey
                             : QStringLiteral("\"%1\"").arg(test::fixtureChecklist().find(s.criterionKey)->text);
        const QString answer = std::isnan(s.score) ? QString()
                               : s.score > 0.5     ? QStringLiteral("Yes")
                                                   : QStringLiteral("no");
        csv += QStringLiteral("%1,%2,%3\n").arg(s.itemId, question, answer);
    }
    const QString path = writeFile(QStringLiteral("j2.csv"), csv);

    RubricPane pane;
    ImportAnswersDialog *dialog = openFromPane(pane);
    QVERIFY(dialog);
    QVERIFY(!dialog->importButton()->isEnabled());                                       // no file yet
    QCOMPARE(dialog->checklistChoice()->currentData().toString(), QStringLiteral("J1")); // the pane's judge
    dialog->fileEdit()->setText(path);
    dialog->judgeEdit()->setText(QStringLiteral("J2csv"));
    dialog->modelEdit()->setText(QStringLiteral("Qwen/Qwen2.5-72B-Instruct"));
    emit dialog->judgeEdit()->editingFinished();
    QVERIFY2(dialog->importButton()->isEnabled(), qPrintable(dialog->summaryLabel()->text()));
    // the preview: every row with its line, the question's text, the answer and whether it meets
    QCOMPARE(dialog->previewTable()->rowCount(), rows);
    QCOMPARE(dialog->previewTable()->item(0, ImportAnswersDialog::LineCol)->text(), QStringLiteral("2"));
    QVERIFY(dialog->summaryLabel()->text().contains(QStringLiteral("the new judge 'J2csv'")));
    QVERIFY(!m_project->judge(QStringLiteral("J2csv"))); // nothing written by the preview

    dialog->importButton()->click();
    QCOMPARE(dialog->importedJudge(), QStringLiteral("J2csv"));
    QVERIFY(m_project->judge(QStringLiteral("J2csv")));
    const auto profile = EvaluatorGroups::read(*m_project, QStringLiteral("J2csv"), QStringLiteral("coherence"), {});
    QVERIFY(profile);
    QCOMPARE(profile->model, QStringLiteral("Qwen/Qwen2.5-72B-Instruct"));
    QCOMPARE(profile->size, QStringLiteral("large"));
    QVERIFY(!profile->person);

    // the same figures as J2's run answers, in the Judge agreement dialog
    JudgeAgreementDialog viaRuns(m_project.get());
    viaRuns.setChosen({QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")});
    JudgeAgreementDialog viaCsv(m_project.get());
    viaCsv.setChosen({QStringLiteral("J1"), QStringLiteral("J2csv"), QStringLiteral("J3")});
    for (int c : {int(JudgeAgreementDialog::AlphaColumn), int(JudgeAgreementDialog::KappaColumn)}) {
        const double a = viaRuns.dimensionTable()->item(0, c)->data(JudgeAgreementDialog::ValueRole).toDouble();
        const double b = viaCsv.dimensionTable()->item(0, c)->data(JudgeAgreementDialog::ValueRole).toDouble();
        QVERIFY(!std::isnan(a));
        QCOMPARE(b, a);
    }
    QCOMPARE(viaCsv.dimensionTable()->item(0, JudgeAgreementDialog::PairsColumn)->text(),
             viaRuns.dimensionTable()->item(0, JudgeAgreementDialog::PairsColumn)->text());
    const double alpha = m_ref.value(QStringLiteral("agreement")).toObject().value(QStringLiteral("alpha")).toDouble();
    QVERIFY(std::abs(viaCsv.dimensionTable()
                             ->item(0, JudgeAgreementDialog::AlphaColumn)
                             ->data(JudgeAgreementDialog::ValueRole)
                             .toDouble()
                     - alpha)
            < 1e-12);

    // people's answers: marked so, left out until "with people"
    RubricPane again;
    ImportAnswersDialog *people = openFromPane(again);
    QVERIFY(people);
    people->fileEdit()->setText(path);
    people->judgeEdit()->setText(QStringLiteral("Rater answers"));
    people->answeredByChoice()->setCurrentIndex(1);
    emit people->fileEdit()->editingFinished();
    QVERIFY2(people->importButton()->isEnabled(), qPrintable(people->summaryLabel()->text()));
    people->importButton()->click();
    JudgeAgreementDialog withPeople(m_project.get());
    withPeople.setChosen({QStringLiteral("J1"), QStringLiteral("J3"), QStringLiteral("Rater answers")});
    QCOMPARE(withPeople.dimensionTable()->item(0, JudgeAgreementDialog::JudgesColumn)->text(),
             QStringLiteral("J1, J3"));
    withPeople.setWithPeople(true);
    QCOMPARE(withPeople.dimensionTable()->item(0, JudgeAgreementDialog::JudgesColumn)->text(),
             QStringLiteral("J1, J3, Rater answers"));
    QCOMPARE(withPeople.dimensionTable()
                     ->item(0, JudgeAgreementDialog::AlphaColumn)
                     ->data(JudgeAgreementDialog::ValueRole)
                     .toDouble(),
             viaRuns.dimensionTable()
                     ->item(0, JudgeAgreementDialog::AlphaColumn)
                     ->data(JudgeAgreementDialog::ValueRole)
                     .toDouble());
}

void TestImportAnswers::badFileNamesLineAndFieldAndWritesNothing()
{
    const QString first = m_ref.value(QStringLiteral("items")).toArray().at(0).toString();
    const QString bad = writeFile(QStringLiteral("bad.csv"),
                                  QStringLiteral("item,question,answer\n%1,q1,yes\n%1,q2,maybe\n").arg(first));
    RubricPane pane;
    ImportAnswersDialog *dialog = openFromPane(pane);
    QVERIFY(dialog);
    dialog->fileEdit()->setText(bad);
    dialog->judgeEdit()->setText(QStringLiteral("Jbad"));
    emit dialog->fileEdit()->editingFinished();
    QVERIFY(!dialog->importButton()->isEnabled());
    QCOMPARE(dialog->previewTable()->rowCount(), 0);
    const QString said = dialog->summaryLabel()->text();
    QVERIFY2(said.contains(bad + QStringLiteral(":3")) && said.contains(QStringLiteral("answer: ")), qPrintable(said));
    dialog->accept(); // refused: nothing written
    QVERIFY(!m_project->judge(QStringLiteral("Jbad")));

    const QString unknown = writeFile(QStringLiteral("unknown.csv"),
                                      QStringLiteral("item,question,answer\n%1,q1,yes\nnope,q1,no\n").arg(first));
    dialog->fileEdit()->setText(unknown);
    dialog->refresh();
    QVERIFY2(dialog->summaryLabel()->text().contains(unknown + QStringLiteral(":3: item: ")),
             qPrintable(dialog->summaryLabel()->text()));
    QVERIFY(!dialog->importButton()->isEnabled());
    dialog->close();
}

QTEST_MAIN(TestImportAnswers)
#include "TestImportAnswers.moc"
