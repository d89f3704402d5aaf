// CheckEval's prune by discrimination on the example project (build/example/summeval.template.rubric,
// SummEval coherence, 30 train and 1570 test items): a checklist judge (four questions marked SIGNAL, three not) is run
// against the loopback fake endpoint with the synthetic judge that knows the human scores (questions marked SIGNAL
// follow them, the others answer at random, as `fake-llm-server --synthetic-project` does), then
// Prune… in the Rubric pane disables the least discriminating questions and saves them as a new
// version whose alignment on the test split is recorded beside the old version's in the version
// list. The figures are recomputed here from the stored answers (Pearson written out).
// With RUBRIC_SHOT_DIR set, the pane is grabbed to RUBRIC_SHOT_DIR/checkeval-prune.png.
#include "FakeLlmServer.h"
#include "SyntheticJudge.h"
#include "UiTestProject.h"
#include "methods/checkeval/Checklist.h"
#include "methods/checkeval/PruneQuestionsDialog.h"
#include "models/RubricTreeModel.h"
#include "panes/RubricPane.h"
#include "runs/Run.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "widgets/RubricVersionList.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include <cmath>

using namespace rubric;
using rubric::test::FakeLlmServer;
using rubric::test::SyntheticJudge;

namespace {

const char *kChecklist = R"(definition:
  summeval: the collective quality of all sentences.

sub_aspect:
    Structure:
        Does the summary read as one connected piece (SIGNAL 2)?
        Is every sentence placed where it belongs?
    Flow:
        Does the summary build from sentence to sentence (SIGNAL 3)?
        Are the transitions between the sentences smooth?
    Focus:
        Does the summary stay on one topic (SIGNAL 4)?
        Is the central topic named in the first sentence?
        Does the summary avoid being a heap of related facts (SIGNAL 3.5)?
)";

/// Pearson r, written out.
double pearson(const std::vector<double> &x, const std::vector<double> &y)
{
    const double n = double(x.size());
    double mx = 0, my = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        mx += x[i] / n;
        my += y[i] / n;
    }
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / std::sqrt(sxx * syy);
}

/// The share of met answers over the enabled questions of `r`, per item of `items`, against the human score.
double recompute(const Rubric &r, const QVector<CriterionScore> &scores, const QHash<QString, double> &human,
                 const QStringList &items, int *n)
{
    QSet<QString> enabled;
    for (const Criterion &q : r.ofKind(CriterionKind::Question))
        if (q.enabled)
            enabled.insert(q.key);
    QHash<QString, std::pair<int, int>> met; // item → (met, answered)
    for (const CriterionScore &s : scores)
        if (s.sample == 0 && s.parseStatus == QLatin1String("ok") && enabled.contains(s.criterionKey)) {
            met[s.itemId].first += s.score > 0.5;
            met[s.itemId].second += 1;
        }
    std::vector<double> x, y;
    for (const QString &id : items)
        if (met.contains(id) && human.contains(id)) {
            x.push_back(double(met[id].first) / met[id].second);
            y.push_back(human[id]);
        }
    *n = int(x.size());
    return pearson(x, y);
}

} // namespace

class TestPruneExample : public QObject
{
    Q_OBJECT
private slots:
    void pruneMakesAVersionWithItsAlignmentBesideTheOld();
};

void TestPruneExample::pruneMakesAVersionWithItsAlignmentBesideTheOld()
{
    testing::isolateSettings();
    QVERIFY2(QFile::exists(QStringLiteral(RUBRIC_EXAMPLE_TEMPLATE)), RUBRIC_EXAMPLE_TEMPLATE);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("example.rubric"));
    QVERIFY(QFile::copy(QStringLiteral(RUBRIC_EXAMPLE_TEMPLATE), path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    const QString checklistFile = dir.filePath(QStringLiteral("coherence.yaml"));
    {
        QFile f(checklistFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kChecklist);
    }
    auto opened = Project::open(path, Project::OpenMode::OpenExisting);
    QVERIFY2(opened, qPrintable(opened.errorString()));
    Project &project = **opened;
    const QHash<QString, double> human = project.humanScores(QStringLiteral("coherence"));
    QHash<QString, double> byOutput;
    for (const Item &it : project.items())
        if (human.contains(it.id))
            byOutput.insert(it.output, human.value(it.id));
    QVERIFY(!byOutput.isEmpty());
    SyntheticJudge synthetic(byOutput);
    FakeLlmServer server;
    server.setJudge([&synthetic](const QJsonObject &body) { return synthetic.answer(body); });
    QVERIFY(server.listen());

    RunSpec spec;
    spec.judge = QStringLiteral("checkeval");
    spec.method = QStringLiteral("checkeval");
    spec.aspect = QStringLiteral("coherence");
    spec.evaluator.name = QStringLiteral("fake");
    spec.evaluator.baseUrl = server.baseUrl();
    spec.evaluator.model = QStringLiteral("synthetic");
    spec.evaluator.concurrency = 16;
    spec.evaluator.maxRetries = 1;
    spec.settings = {{QStringLiteral("checklist"), checklistFile}, {QStringLiteral("group"), QStringLiteral("aspect")}};
    {
        Run run(&project, spec);
        QSignalSpy finished(&run, &Run::finished);
        auto started = run.start();
        QVERIFY2(started, qPrintable(started.errorString()));
        QVERIFY(finished.wait(300000) || !finished.isEmpty());
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    }

    RubricPane pane;
    pane.resize(1300, 760);
    pane.setProject(&project);
    QVERIFY(pane.setJudge(QStringLiteral("checkeval")));
    RubricStore store(&project);
    const auto before = store.readVersions(QStringLiteral("checkeval"));
    QVERIFY(before);
    const int oldVersion = before->last().version;
    const Rubric old = pane.model()->rubric();
    auto *action = pane.findChild<QAction *>(QStringLiteral("rubricPrune"));
    QVERIFY(action && action->isEnabled());
    action->trigger();
    auto *dialog = pane.findChild<PruneQuestionsDialog *>(QStringLiteral("pruneQuestionsDialog"));
    QVERIFY(dialog);
    dialog->countBox()->setValue(3);
    QCOMPARE(dialog->questionList()->count(), 3);
    // the three random questions separate least: none of them follows the human score
    for (int i = 0; i < 3; ++i)
        QVERIFY2(!dialog->questionList()->item(i)->text().contains(QStringLiteral("SIGNAL")),
                 qPrintable(dialog->questionList()->item(i)->text()));
    QVERIFY(dialog->saveBox()->isChecked());
    const PruneAlignment shown = dialog->alignment();
    QCOMPARE(shown.split, QStringLiteral("test"));
    dialog->accept();

    // a new version, its test-split alignment beside the old one's
    const auto after = store.readVersions(QStringLiteral("checkeval"));
    QVERIFY(after);
    QCOMPARE(after->size(), before->size() + 1);
    const RubricVersionInfo &oldInfo = (*after)[after->size() - 2];
    const RubricVersionInfo &newInfo = after->last();
    QCOMPARE(oldInfo.version, oldVersion);
    QCOMPARE(newInfo.parentVersion, oldVersion);
    QVERIFY(oldInfo.testAlignment.has_value());
    QVERIFY(newInfo.testAlignment.has_value());
    QVERIFY(newInfo.alignment.has_value()); // train split, on the same footing
    QVERIFY2(newInfo.testBasis.contains(QStringLiteral("test split")), qPrintable(newInfo.testBasis));

    // recomputed from the stored answers
    const auto scores = store.readSampleScores(QStringLiteral("checkeval"));
    QVERIFY(scores);
    const auto pruned = store.load(QStringLiteral("checkeval"), newInfo.version);
    QVERIFY(pruned);
    const QStringList test = project.itemIds(SplitFilter::Test);
    const QStringList train = project.itemIds(SplitFilter::Train);
    int nOld = 0, nNew = 0, nTrain = 0;
    const double rOld = recompute(old, *scores, human, test, &nOld);
    const double rNew = recompute(*pruned, *scores, human, test, &nNew);
    const double rTrain = recompute(*pruned, *scores, human, train, &nTrain);
    QCOMPARE(nNew, 1570);
    QVERIFY2(std::abs(*newInfo.testAlignment - rNew) < 1e-9,
             qPrintable(QStringLiteral("%1 vs %2").arg(*newInfo.testAlignment).arg(rNew)));
    QVERIFY2(std::abs(*newInfo.alignment - rTrain) < 1e-9,
             qPrintable(QStringLiteral("%1 vs %2").arg(*newInfo.alignment).arg(rTrain)));
    QVERIFY(std::abs(shown.after - rNew) < 1e-9);
    // the run's own test figure is kept when it had one; else the stored answers' one
    if (before->last().testAlignment)
        QCOMPARE(*oldInfo.testAlignment, *before->last().testAlignment);
    else
        QVERIFY(std::abs(*oldInfo.testAlignment - rOld) < 1e-9);
    QVERIFY2(rNew > rOld, qPrintable(QStringLiteral("pruning the random questions: %1 -> %2").arg(rOld).arg(rNew)));
    qInfo("test-split alignment v%d %.4f -> v%d %.4f (n = %d); train %.4f (n = %d)", oldVersion, rOld, newInfo.version,
          rNew, nNew, rTrain, nTrain);

    // the version list shows both (test column on request)
    auto *list = pane.findChild<RubricVersionList *>();
    QVERIFY(list);
    auto *showTest = pane.findChild<QCheckBox *>(QStringLiteral("rubricShowTestAlignment"));
    QVERIFY(showTest);
    showTest->setChecked(true);
    QCOMPARE(list->topLevelItemCount(), int(after->size()));
    const QString oldText
            = list->topLevelItem(list->topLevelItemCount() - 2)->text(RubricVersionList::VersionTestAlignment);
    const QString newText
            = list->topLevelItem(list->topLevelItemCount() - 1)->text(RubricVersionList::VersionTestAlignment);
    QVERIFY2(oldText != QStringLiteral("—") && newText != QStringLiteral("—"),
             qPrintable(oldText + QLatin1Char(' ') + newText));
    // one edit: undo brings the questions back (unsaved again)
    QCOMPARE(pane.undoStack()->count(), 1);

    if (const QString shots = qEnvironmentVariable("RUBRIC_SHOT_DIR"); !shots.isEmpty()) {
        pane.show();
        list->setCurrentItem(list->topLevelItem(list->topLevelItemCount() - 1));
        QVERIFY(QTest::qWaitForWindowExposed(&pane)); // grab() lays out and paints what is pending
        QVERIFY(pane.grab().save(QDir(shots).filePath(QStringLiteral("checkeval-prune.png"))));
    }
}

QTEST_MAIN(TestPruneExample)
#include "TestPruneExample.moc"
