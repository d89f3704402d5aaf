// The run pane's HypoEval form: the paper's defaults, their tooltips and the spec they make, and a
// whole HypoEval run typed into the form (five hypotheses selected, every test item scored).
#include "RunPaneFixture.h"
#include "methods/hypoeval/HypoEvalParams.h"
#include "runs/RunConfig.h"
#include "store/RubricStore.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QProgressBar>
#include <QStackedWidget>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

class TestRunPaneHypoEval : public RunPaneFixture
{
    Q_OBJECT
private slots:
    void initTestCase() { testing::isolateSettings(); }
    void init() { setUpPane(); }
    void cleanup() { tearDownPane(); }

    void hypoEvalParametersShowThePaperDefaults();
    void hypoEvalThroughTheFormSelectsFiveHypotheses();
};

void TestRunPaneHypoEval::hypoEvalParametersShowThePaperDefaults()
{
    auto *method = child<QComboBox>("method");
    method->setCurrentIndex(method->findData(QStringLiteral("hypoeval")));
    QCOMPARE(child<QSpinBox>("param_init_samples")->value(), 5);
    QCOMPARE(child<QSpinBox>("param_k")->value(), 10);
    QCOMPARE(child<QDoubleSpinBox>("param_theta")->value(), 0.5);
    QCOMPARE(child<QDoubleSpinBox>("param_alpha")->value(), 0.5);
    QCOMPARE(child<QDoubleSpinBox>("param_b")->value(), 0.0625);
    QCOMPARE(child<QSpinBox>("param_refine_rounds")->value(), 6);
    QCOMPARE(child<QSpinBox>("param_h_max")->value(), 20);
    QCOMPARE(child<QSpinBox>("param_h_ev")->value(), 5);
    QCOMPARE(child<QSpinBox>("param_min_parsed")->value(), 0); // automatic
    QVERIFY(child<QSpinBox>("param_w_max")->toolTip().contains(QLatin1String("10")));
    // every label with a mnemonic has its field as buddy (Alt+T reaches the literature folder)
    for (const QLabel *label : m_pane->findChildren<QLabel *>())
        if (label->text().contains(QLatin1Char('&')) && label->isVisibleTo(m_pane.get()))
            QVERIFY2(label->buddy(), qPrintable(label->text()));
    for (const char *name :
         {"param_init_samples", "param_k", "param_theta", "param_alpha", "param_a", "param_b", "param_w_hyp",
          "param_w_max", "param_refine_rounds", "param_h_max", "param_h_ev", "param_min_parsed", "param_seed"})
        QVERIFY2(!m_pane->findChild<QWidget *>(QString::fromLatin1(name))->toolTip().isEmpty(), name);
    // The form's spec carries them as method settings HypoEval accepts.
    addProfile(QStringLiteral("fake"), m_server->baseUrl());
    child<QLineEdit>("judgeName")->setText(QStringLiteral("h"));
    child<QSpinBox>("param_k")->setValue(7);
    child<QSpinBox>("param_min_parsed")->setValue(12);
    const auto spec = m_pane->specFromForm();
    QVERIFY2(spec, qPrintable(spec.errorString()));
    QCOMPARE(spec->method, QStringLiteral("hypoeval"));
    QCOMPARE(spec->settings.value(QStringLiteral("k")).toString(), QStringLiteral("7"));
    QCOMPARE(spec->settings.value(QStringLiteral("b")).toDouble(), 0.0625);
    QCOMPARE(spec->settings.value(QStringLiteral("min_parsed")).toString(), QStringLiteral("12"));
    QCOMPARE(HypoEvalParams::fromSettings(spec->settings)->minParsed, 12);
}

void TestRunPaneHypoEval::hypoEvalThroughTheFormSelectsFiveHypotheses()
{
    addProfile(QStringLiteral("fake"), m_server->baseUrl());
    auto *method = child<QComboBox>("method");
    method->setCurrentIndex(method->findData(QStringLiteral("hypoeval")));
    QCOMPARE(child<QStackedWidget>("methodParameters")->currentIndex(), 1);
    child<QComboBox>("aspect")->setCurrentText(QStringLiteral("coherence"));
    child<QLineEdit>("judgeName")->setText(QStringLiteral("hypo-ui"));
    auto *items = child<QComboBox>("items");
    items->setCurrentIndex(items->findData(QStringLiteral("test")));
    auto *evaluator = child<QComboBox>("evaluatorProfile");
    evaluator->setCurrentIndex(evaluator->findData(QStringLiteral("fake")));
    // Small hyperparameters, typed into the form as a user would (H_ev stays at the paper's 5).
    const auto type = [this](const char *name, const QString &value) {
        auto *box = child<QAbstractSpinBox>(name);
        box->selectAll();
        QTest::keyClicks(box, value);
        QTest::keyClick(box, Qt::Key_Tab);
    };
    type("param_init_samples", QStringLiteral("3"));
    type("param_per_call", QStringLiteral("3"));
    type("param_k", QStringLiteral("3"));
    type("param_w_max", QStringLiteral("6"));
    type("param_refine_rounds", QStringLiteral("1"));
    type("param_h_max", QStringLiteral("8"));
    QCOMPARE(child<QSpinBox>("param_k")->value(), 3);
    QCOMPARE(child<QSpinBox>("param_h_max")->value(), 8);
    QCOMPARE(child<QSpinBox>("param_h_ev")->value(), 5);
    const auto spec = m_pane->specFromForm();
    QVERIFY2(spec, qPrintable(spec.errorString()));
    QCOMPARE(spec->settings.value(QStringLiteral("refine_rounds")).toString(), QStringLiteral("1"));

    // Cold HypoEval: the estimate is a range, and the label shows both ends.
    QSignalSpy estimates(m_pane.get(), &RunPane::estimateShown);
    QTest::mouseClick(child<QPushButton>("estimateButton"), Qt::LeftButton);
    QVERIFY(estimates.wait(20000));
    const RunEstimate e = m_pane->lastEstimate();
    QVERIFY(!e.exact);
    QVERIFY2(0 < e.callsMin && e.callsMin < e.calls, qPrintable(QStringLiteral("%1–%2").arg(e.callsMin).arg(e.calls)));
    const QString label = child<QLabel>("estimateLabel")->text();
    const QLocale l;
    QVERIFY2(label.contains(QStringLiteral("%1–%2").arg(l.toString(e.callsMin), l.toString(e.calls))),
             qPrintable(label));
    QCOMPARE(m_server->requestCount(), 0);

    auto *bar = child<QProgressBar>("progressBar");
    QVector<int> maxima;
    QStringList formats;
    connect(m_pane->controller(), &RunController::progressed, this, [&] {
        maxima.append(bar->maximum());
        formats.append(bar->format());
    });
    QSignalSpy finished(m_pane.get(), &RunPane::runFinished);
    QTest::mouseClick(child<QPushButton>("startButton"), Qt::LeftButton);
    QVERIFY(finished.wait(180000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    const int sent = m_server->requestCount();
    // While it ran, the bar counted out of the estimate's upper bound ("at most"); done, out of
    // the calls it made.
    QVERIFY(!maxima.isEmpty());
    QCOMPARE(maxima.first(), e.calls);
    QVERIFY2(formats.first().contains(QLatin1String("at most")), qPrintable(formats.first()));
    const RunProgress last = m_pane->controller()->lastProgress();
    QVERIFY(last.total >= sent);
    QCOMPARE(bar->maximum(), last.total);
    QCOMPARE(bar->value(), last.total);
    QVERIFY(!bar->format().contains(QLatin1String("at most")));
    qInfo("HypoEval through the pane: %d requests sent, estimate %d–%d", sent, e.callsMin, e.calls);
    QVERIFY2(e.callsMin <= sent && sent <= e.calls,
             qPrintable(QStringLiteral("%1 ≤ %2 ≤ %3").arg(e.callsMin).arg(sent).arg(e.calls)));

    // A rubric version with the 5 selected hypotheses, and a judge score for every target item
    // built from those 5 criteria.
    RubricStore store(m_fx.project.get());
    QVERIFY(store.latestVersion(QStringLiteral("hypo-ui")) >= 1);
    const auto rubric = store.load(QStringLiteral("hypo-ui"));
    QVERIFY2(rubric, qPrintable(rubric.errorString()));
    const QVector<Criterion> selected = rubric->enabled(CriterionKind::Hypothesis);
    QCOMPARE(selected.size(), 5);
    QSet<QString> selectedKeys;
    for (const Criterion &c : selected)
        selectedKeys.insert(c.key);
    QCOMPARE(m_fx.project->judge(QStringLiteral("hypo-ui"))->status, QStringLiteral("done"));
    // The run used the form's parameters (stored with it for resuming).
    const auto stored = RunConfig::load(m_fx.project.get(), QStringLiteral("hypo-ui"));
    QVERIFY2(stored, qPrintable(stored.errorString()));
    QCOMPARE(stored->method, QStringLiteral("hypoeval"));
    QCOMPARE(stored->settings.value(QStringLiteral("k")).toString(), QStringLiteral("3"));
    QCOMPARE(stored->settings.value(QStringLiteral("h_max")).toString(), QStringLiteral("8"));
    QCOMPARE(stored->settings.value(QStringLiteral("refine_rounds")).toString(), QStringLiteral("1"));
    const QHash<QString, double> scores
            = m_fx.project->judgeScores(QStringLiteral("hypo-ui"), QStringLiteral("coherence"));
    QCOMPARE(scores.size(), m_fx.testIds.size());
    QHash<QString, int> criteriaPerItem;
    for (const ItemCriterionScores &c : store.criterionScores(QStringLiteral("hypo-ui")))
        if (selectedKeys.contains(c.criterionKey) && !std::isnan(c.mean))
            ++criteriaPerItem[c.itemId];
    for (const QString &id : std::as_const(m_fx.testIds)) {
        QVERIFY2(scores.contains(id) && !std::isnan(scores.value(id)), qPrintable(id));
        QCOMPARE(criteriaPerItem.value(id), 5);
    }

    // Start again with the same judge: it resumes the finished run, and everything it needs
    // comes from the project's cache.
    m_server->resetCounts();
    estimates.clear();
    finished.clear();
    QVERIFY(child<QPushButton>("startButton")->isEnabled());
    QTest::mouseClick(child<QPushButton>("startButton"), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    QCOMPARE(m_server->requestCount(), 0);
    QTRY_COMPARE(estimates.size(), 1);
    QVERIFY(m_pane->lastEstimate().exact);
    QCOMPARE(m_pane->lastEstimate().calls, 0);
    QCOMPARE(store.latestVersion(QStringLiteral("hypo-ui")), rubric->version());
    QCOMPARE(m_fx.project->judgeScores(QStringLiteral("hypo-ui"), QStringLiteral("coherence")), scores);
}

QTEST_MAIN(TestRunPaneHypoEval)
#include "TestRunPaneHypoEval.moc"
