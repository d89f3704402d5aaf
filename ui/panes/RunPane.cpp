#include "panes/RunPane.h"

#include "PlainText.h"
#include "judge/ProviderProfiles.h"
#include "methods/MethodRegistry.h"
#include "models/RunController.h"
#include "panes/RunList.h"
#include "runs/Phases.h"
#include "runs/RunConfig.h"
#include "store/Project.h"
#include "widgets/MethodParamsForm.h"
#include "widgets/ProfileEditor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include <cmath>

namespace rubric {
namespace {

QString money(double v)
{
    return QLocale().toString(v, 'f', v < 1 ? 4 : 2);
}

QString duration(double seconds)
{
    if (seconds < 0)
        return QStringLiteral("—");
    const int s = int(std::lround(seconds));
    return s >= 3600 ? QStringLiteral("%1:%2:%3")
                               .arg(s / 3600)
                               .arg(s / 60 % 60, 2, 10, QLatin1Char('0'))
                               .arg(s % 60, 2, 10, QLatin1Char('0'))
                     : QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QLabel *hint(const QString &text, QWidget *parent)
{
    auto *l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setForegroundRole(QPalette::PlaceholderText);
    return l;
}

} // namespace

RunPane::RunPane(QWidget *parent)
    : QWidget(parent)
    , m_controller(new RunController(this))
{
    setObjectName(QStringLiteral("runPane"));

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("runMessage"));
    m_message->setTextFormat(Qt::PlainText); // quotes the endpoint and the checklist file
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_message->setVisible(false);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    auto *profilesScroll = new QScrollArea(splitter);
    profilesScroll->setWidgetResizable(true);
    profilesScroll->setFrameShape(QFrame::NoFrame);
    m_profileEditor = new ProfileEditor;
    profilesScroll->setWidget(m_profileEditor);
    connect(m_profileEditor, &ProfileEditor::profilesChanged, this, &RunPane::refillProfiles);
    connect(m_profileEditor, &ProfileEditor::messageRaised, this,
            [this](const QString &text, bool error) { error ? showError(text) : showInfo(text); });
    auto *methodScroll = new QScrollArea(splitter);
    methodScroll->setWidgetResizable(true);
    methodScroll->setFrameShape(QFrame::NoFrame);
    methodScroll->setWidget(buildMethod());
    splitter->addWidget(profilesScroll);
    splitter->addWidget(methodScroll);
    splitter->addWidget(buildProgress());
    // The forms get the room first (a field cut off at the right edge is worse than a narrower
    // list of runs); below their width they scroll.
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 4);
    splitter->setStretchFactor(2, 3);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_message);
    layout->addWidget(splitter, 1);

    connect(m_controller, &RunController::estimated, this, &RunPane::onEstimated);
    connect(m_controller, &RunController::estimateFailed, this, &RunPane::onEstimateFailed);
    connect(m_controller, &RunController::started, this, &RunPane::onStarted);
    connect(m_controller, &RunController::progressed, this, &RunPane::onProgress);
    connect(m_controller, &RunController::finished, this, &RunPane::onFinished);

    // The run list follows the project's judges, at most every 250 ms (a run writes often).
    m_runsRefresh.setSingleShot(true);
    m_runsRefresh.setInterval(250);
    connect(&m_runsRefresh, &QTimer::timeout, this, &RunPane::refillRuns);

    refillProfiles();
    updateButtons();
}

RunPane::~RunPane()
{
    shutdown();
}

QWidget *RunPane::buildMethod()
{
    auto *box = new QGroupBox(tr("Method"));
    m_method = new QComboBox(box);
    m_method->setObjectName(QStringLiteral("method"));
    QStringList summaries;
    for (const MethodInfo &m : MethodRegistry::all()) {
        m_method->addItem(m.title, m.name);
        summaries << QCoreApplication::translate("rubric::MethodParams", m.summary);
    }
    m_method->setToolTip(summaries.join(QLatin1Char('\n')));
    m_aspect = new QComboBox(box);
    m_aspect->setObjectName(QStringLiteral("aspect"));
    m_judgeName = new QLineEdit(box);
    m_judgeName->setObjectName(QStringLiteral("judgeName"));
    m_judgeName->setToolTip(
            tr("The run's name in the project. Starting a name that failed or was cancelled resumes it."));
    m_items = new QComboBox(box);
    m_items->setObjectName(QStringLiteral("items"));
    m_items->addItem(tr("Test split"), QStringLiteral("test"));
    m_items->addItem(tr("Train split"), QStringLiteral("train"));
    m_items->addItem(tr("All items"), QStringLiteral("all"));
    m_evaluator = new QComboBox(box);
    m_evaluator->setObjectName(QStringLiteral("evaluatorProfile"));
    m_evaluator->setToolTip(tr("The model that scores the items."));
    m_generator = new QComboBox(box);
    m_generator->setObjectName(QStringLiteral("generatorProfile"));
    m_generator->setToolTip(tr("The model that writes G-Eval's steps or proposes HypoEval's hypotheses."));
    m_refiner = new QComboBox(box);
    m_refiner->setObjectName(QStringLiteral("refinerProfile"));
    m_refiner->setToolTip(tr("The model that refines HypoEval's hypotheses."));

    auto *form = new QFormLayout;
    form->addRow(tr("M&ethod:"), m_method);
    form->addRow(tr("&Aspect:"), m_aspect);
    form->addRow(tr("&Judge name:"), m_judgeName);
    form->addRow(tr("It&ems:"), m_items);
    form->addRow(tr("E&valuator:"), m_evaluator);
    form->addRow(tr("&Generator:"), m_generator);
    form->addRow(tr("&Refiner:"), m_refiner);

    m_params = new MethodParamsForm(box);
    connect(m_method, &QComboBox::currentIndexChanged, m_params, &MethodParamsForm::showMethod);

    auto *v = new QVBoxLayout(box);
    v->addLayout(form);
    auto *paramsTitle = new QLabel(tr("<b>Parameters</b> (paper defaults; hover for what each does)"), box);
    paramsTitle->setWordWrap(true);
    v->addWidget(paramsTitle);
    v->addWidget(m_params);
    v->addStretch(1);
    return box;
}

QWidget *RunPane::buildProgress()
{
    auto *box = new QGroupBox(tr("Run"));
    m_estimateButton = new QPushButton(tr("E&stimate"), box);
    m_estimateButton->setObjectName(QStringLiteral("estimateButton"));
    m_estimateButton->setToolTip(tr("Calls, cached answers, tokens and cost the run needs now; nothing is sent."));
    connect(m_estimateButton, &QPushButton::clicked, this, &RunPane::estimate);
    m_startButton = new QPushButton(tr("St&art"), box);
    m_startButton->setObjectName(QStringLiteral("startButton"));
    connect(m_startButton, &QPushButton::clicked, this, &RunPane::start);
    m_cancelButton = new QPushButton(tr("&Cancel run"), box);
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    connect(m_cancelButton, &QPushButton::clicked, this, &RunPane::cancel);
    m_resumeButton = new QPushButton(tr("Res&ume"), box);
    m_resumeButton->setObjectName(QStringLiteral("resumeButton"));
    m_resumeButton->setToolTip(
            tr("Continue the selected failed or cancelled run with its stored configuration; answers "
               "already received are not asked again."));
    connect(m_resumeButton, &QPushButton::clicked, this, &RunPane::resumeSelected);
    m_retryFailed = new QCheckBox(tr("Ask refused items again"), box);
    m_retryFailed->setObjectName(QStringLiteral("retryFailed"));
    m_retryFailed->setToolTip(
            tr("Items the endpoint refused in an earlier attempt (e.g. too long for its context) are skipped when "
               "a judge runs again. Tick this to ask them again, e.g. after choosing another model; Resume then "
               "also takes a finished run."));
    connect(m_retryFailed, &QCheckBox::toggled, this, &RunPane::updateButtons);
    m_batch = new QCheckBox(tr("Provider batches"), box);
    m_batch->setObjectName(QStringLiteral("batchMode"));
    m_batch->setToolTip(
            tr("Send the run's larger steps (100 calls or more) through the provider's batch interface (OpenAI "
               "Batch API, Anthropic Message Batches) at half the price; results can take up to 24 hours. You may "
               "close the studio meanwhile: running the judge again picks the results up without paying twice."));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_estimateButton);
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_resumeButton);
    buttons->addWidget(m_retryFailed);
    buttons->addWidget(m_batch);

    m_estimateLabel = new QLabel(tr("No estimate yet."), box);
    m_estimateLabel->setObjectName(QStringLiteral("estimateLabel"));
    m_estimateLabel->setTextFormat(Qt::PlainText);
    m_estimateLabel->setWordWrap(true);
    m_progress = new QProgressBar(box);
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(false); // no count until a run starts
    m_progressLabel = new QLabel(box);
    m_progressLabel->setObjectName(QStringLiteral("progressLabel"));
    m_progressLabel->setTextFormat(Qt::PlainText);
    m_progressLabel->setWordWrap(true);
    m_progressLabel->setTextFormat(Qt::PlainText);

    m_runs = new RunList(box);
    connect(m_runs, &QTreeWidget::currentItemChanged, this, &RunPane::updateButtons);
    connect(m_runs, &RunList::countFailed, this,
            [this](const QString &message) { showError(tr("Cannot count the judges' items: %1").arg(message)); });

    auto *v = new QVBoxLayout(box);
    v->addLayout(buttons);
    v->addWidget(m_estimateLabel);
    v->addWidget(m_progress);
    v->addWidget(m_progressLabel);
    v->addWidget(new QLabel(tr("<b>Runs of this project</b>"), box));
    v->addWidget(m_runs, 1);
    v->addWidget(hint(tr("Select a failed or cancelled run to resume it."), box));
    return box;
}

void RunPane::setProject(Project *project)
{
    if (project == m_project)
        return;
    m_controller->setProject(nullptr); // cancels and joins a run of the old project
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    m_project = project;
    m_runs->setProject(project);
    m_controller->setProject(project);
    if (m_project) {
        connect(m_project, &Project::aspectsChanged, this, &RunPane::refillAspects);
        connect(m_project, &Project::judgesChanged, this, [this] {
            if (!m_runsRefresh.isActive())
                m_runsRefresh.start();
        });
    }
    m_estimate = {};
    m_estimateLabel->setText(tr("No estimate yet."));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    m_progressLabel->clear();
    m_message->setVisible(false);
    refillAspects();
    refillRuns();
    updateButtons();
}

void RunPane::setProfileSettingsFile(const QString &settingsFile)
{
    m_profileEditor->setSettingsFile(settingsFile); // refills the profile choices
}

// --- profiles ---------------------------------------------------------------------------------

void RunPane::refillProfiles()
{
    const QStringList names = m_profileEditor->profiles()->names();
    for (QComboBox *combo : {m_evaluator, m_generator, m_refiner}) {
        const QString current = combo->currentData().toString();
        const QSignalBlocker block(combo);
        combo->clear();
        if (combo != m_evaluator)
            combo->addItem(combo == m_generator ? tr("(same as evaluator)") : tr("(same as generator)"), QString());
        for (const QString &n : names)
            combo->addItem(n, n);
        const int at = combo->findData(current);
        combo->setCurrentIndex(at >= 0 ? at : 0);
    }
    updateButtons();
}

// --- the form --------------------------------------------------------------------------------

void RunPane::refillAspects()
{
    const QString current = m_aspect->currentText();
    const QSignalBlocker block(m_aspect);
    m_aspect->clear();
    if (!m_project)
        return;
    const auto aspects = m_project->readAspects();
    if (!aspects) {
        showError(tr("Cannot read the project: %1").arg(aspects.errorString()));
        return;
    }
    for (const Aspect &a : *aspects)
        m_aspect->addItem(a.name);
    const int at = m_aspect->findText(current);
    m_aspect->setCurrentIndex(at >= 0 ? at : 0);
}

void RunPane::refillRuns()
{
    if (auto r = m_runs->refill(); !r)
        showError(tr("Cannot read the project: %1").arg(r.errorString()));
    updateButtons();
}

QString RunPane::selectedRun() const
{
    return m_runs->selectedRun();
}

Result<RunSpec> RunPane::specFromForm() const
{
    RunSpec s;
    s.judge = m_judgeName->text().trimmed();
    if (s.judge.isEmpty())
        return makeError(tr("Give the run a judge name."), {}, 0, QStringLiteral("judge"));
    s.method = m_method->currentData().toString();
    s.aspect = m_aspect->currentText();
    if (s.aspect.isEmpty())
        return makeError(tr("The project has no aspect to judge."), {}, 0, QStringLiteral("aspect"));
    s.items = RunConfig::itemsFromName(m_items->currentData().toString()).value_or(SplitFilter::Test);
    const QString evaluator = m_evaluator->currentData().toString();
    const auto e = m_profileEditor->profiles()->load(evaluator);
    if (!e)
        return makeError(tr("Choose an evaluator profile (save one on the left first)."), {}, 0,
                         QStringLiteral("evaluator"));
    s.evaluator = *e;
    s.generator = s.evaluator;
    if (const QString g = m_generator->currentData().toString(); !g.isEmpty()) {
        const auto p = m_profileEditor->profiles()->load(g);
        if (!p)
            return makeError(tr("The generator profile '%1' no longer exists.").arg(g), {}, 0,
                             QStringLiteral("generator"));
        s.generator = *p;
    }
    s.refiner = s.generator;
    if (const QString r = m_refiner->currentData().toString(); !r.isEmpty()) {
        const auto p = m_profileEditor->profiles()->load(r);
        if (!p)
            return makeError(tr("The refiner profile '%1' no longer exists.").arg(r), {}, 0, QStringLiteral("refiner"));
        s.refiner = *p;
    }
    m_params->writeTo(s);
    s.retryFailed = m_retryFailed->isChecked();
    s.batch.enabled = m_batch->isChecked();
    return s;
}

void RunPane::fillForm(const RunSpec &s)
{
    m_judgeName->setText(s.judge);
    m_method->setCurrentIndex(qMax(0, m_method->findData(s.method)));
    m_aspect->setCurrentIndex(m_aspect->findText(s.aspect));
    m_items->setCurrentIndex(qMax(0, m_items->findData(RunConfig::itemsName(s.items))));
    // Profiles are chosen by name where the user still has one of that name.
    const auto choose = [](QComboBox *combo, const QString &name) {
        const int at = combo->findData(name);
        if (at >= 0)
            combo->setCurrentIndex(at);
    };
    choose(m_evaluator, s.evaluator.name);
    if (m_generator->findData(s.generator.name) >= 0 && s.generator.name != s.evaluator.name)
        choose(m_generator, s.generator.name);
    else
        m_generator->setCurrentIndex(0);
    if (m_refiner->findData(s.refiner.name) >= 0 && s.refiner.name != s.generator.name)
        choose(m_refiner, s.refiner.name);
    else
        m_refiner->setCurrentIndex(0);
    m_params->readFrom(s);
}

// --- running ---------------------------------------------------------------------------------

void RunPane::estimate()
{
    auto spec = specFromForm();
    if (!spec) {
        showError(spec.errorString());
        return;
    }
    m_estimateLabel->setText(tr("Estimating …"));
    m_estimateGeneration = m_controller->estimate(*spec);
}

void RunPane::start()
{
    auto spec = specFromForm();
    if (!spec) {
        showError(spec.errorString());
        return;
    }
    // One judge name is one configuration: a name run before with other settings is not mixed.
    const auto diffRead = RunConfig::differences(m_project, *spec);
    if (!diffRead) {
        showError(diffRead.errorString());
        return;
    }
    if (const QStringList &diff = *diffRead; !diff.isEmpty()) {
        QMessageBox box(QMessageBox::Warning, tr("Another configuration"),
                        tr("Judge '%1' was run with another configuration. One judge name is one configuration; "
                           "its scores would mix two judges.")
                                .arg(spec->judge),
                        QMessageBox::Cancel, this);
        box.setObjectName(QStringLiteral("configDifferenceBox"));
        box.setTextFormat(Qt::PlainText); // the judge's name is whatever was typed
        box.setInformativeText(diff.join(QLatin1Char('\n')));
        QPushButton *rename = box.addButton(tr("Run under a new name…"), QMessageBox::AcceptRole);
        rename->setObjectName(QStringLiteral("newNameButton"));
        QPushButton *replace = box.addButton(tr("Replace"), QMessageBox::DestructiveRole);
        replace->setObjectName(QStringLiteral("replaceButton"));
        replace->setToolTip(tr("Delete the judge's scores and rubric and run afresh under this name (answers "
                               "already paid for stay in the cache)."));
        box.exec();
        if (box.clickedButton() == replace) {
            spec->replace = true;
        } else if (box.clickedButton() == rename) {
            bool ok = false;
            const QString name = QInputDialog::getText(this, tr("Run under a new name"), tr("New judge name:"),
                                                       QLineEdit::Normal, spec->judge + QStringLiteral("-2"), &ok)
                                         .trimmed();
            if (!ok || name.isEmpty())
                return;
            m_judgeName->setText(name);
            start(); // checked again: the new name may be taken too
            return;
        } else {
            return;
        }
    }
    startSpec(*spec);
}

bool RunPane::startSpec(const RunSpec &spec)
{
    if (m_controller->isRunning()) {
        showError(tr("A run is going; cancel it or wait for it to finish."));
        return false;
    }
    m_message->setVisible(false);
    m_estimateLabel->setText(tr("Estimating …"));
    m_estimateGeneration = m_controller->estimate(spec); // computed in the worker before the run starts
    m_runEstimateGeneration = m_estimateGeneration;
    m_runCalls = 0;
    m_runCallsBound = false;
    if (!m_controller->start(spec)) {
        showError(tr("No project is open."));
        return false;
    }
    return true;
}

void RunPane::cancel()
{
    m_controller->cancel();
}

void RunPane::resumeSelected()
{
    const QString judge = selectedRun();
    if (judge.isEmpty())
        return;
    auto spec = RunConfig::load(m_project, judge);
    if (!spec) {
        showError(tr("Cannot resume '%1': %2").arg(judge, spec.errorString()));
        return;
    }
    spec->resume = true;
    spec->retryFailed = m_retryFailed->isChecked();
    spec->batch.enabled = m_batch->isChecked();
    fillForm(*spec);
    startSpec(*spec);
}

void RunPane::rescore(const QString &judge)
{
    rescoreWith(judge, {});
}

void RunPane::rescoreWith(const QString &judge, const QVariantMap &settings)
{
    for (int i = 0; i < m_runs->topLevelItemCount(); ++i)
        if (m_runs->topLevelItem(i)->data(0, Qt::UserRole).toString() == judge)
            m_runs->setCurrentItem(m_runs->topLevelItem(i));
    auto spec = RunConfig::load(m_project, judge);
    if (!spec) {
        showError(tr("Cannot re-score '%1': %2").arg(judge, spec.errorString()));
        return;
    }
    spec->resume = true; // the stored configuration, possibly with edited criteria
    for (auto it = settings.cbegin(); it != settings.cend(); ++it)
        spec->settings.insert(it.key(), it.value());
    fillForm(*spec);
    if (startSpec(*spec))
        showInfo(tr("Re-scoring '%1': answers already in the cache are not asked again.").arg(judge));
}

void RunPane::startRun(const RunSpec &spec)
{
    fillForm(spec);
    if (startSpec(spec))
        showInfo(tr("Started '%1' (%2 on the %3 split).")
                         .arg(spec.judge, spec.method, RunConfig::itemsName(spec.items)));
}

void RunPane::shutdown()
{
    m_controller->shutdown();
}

void RunPane::onEstimated(quint64 generation, const RunEstimate &e)
{
    if (generation != m_estimateGeneration)
        return;
    m_estimate = e;
    if (generation == m_runEstimateGeneration) {
        m_runCalls = e.calls + e.cached;
        m_runCallsBound = !e.exact;
    }
    const QLocale l;
    const QString calls
            = e.exact ? tr("%1 calls").arg(l.toString(e.calls))
                      : tr("%1–%2 calls (depends on the answers)").arg(l.toString(e.callsMin), l.toString(e.calls));
    QString text
            = tr("Estimate: %1 · %2 answered from the cache · ~%3 tokens in, ~%4 out · cost %5")
                      .arg(calls, l.toString(e.cached), l.toString(e.tokensIn), l.toString(e.tokensOut), money(e.cost));
    if (const QString line = phases::estimateLine(e.perPhase, QStringLiteral("–"), QStringLiteral(" · "), l);
        !line.isEmpty())
        text += QLatin1Char('\n') + tr("Calls by phase: %1").arg(line);
    if (!e.exact && !e.exactPhases.isEmpty())
        text += QLatin1Char('\n')
                + tr("Exact for %1; the rest depends on the answers")
                          .arg(phases::inRunOrder(e.exactPhases).join(QStringLiteral(", ")));
    m_estimateLabel->setText(text);
    emit estimateShown(e);
}

void RunPane::onEstimateFailed(quint64 generation, const QString &error)
{
    if (generation != m_estimateGeneration)
        return;
    m_estimateLabel->setText(tr("No estimate."));
    showError(tr("Estimate failed: %1").arg(error));
}

void RunPane::onStarted(const QString &judge)
{
    m_progress->setRange(0, 0); // busy until the first report
    m_progress->setFormat(QString());
    m_progress->setTextVisible(true);
    m_progressLabel->setText(tr("Starting %1 …").arg(judge));
    updateButtons();
}

void RunPane::onProgress(const RunProgress &p)
{
    // The run submits its calls in chunks: out of the estimate's total, not of those known yet.
    const int total = qMax(1, qMax(p.total, m_runCalls));
    const bool bound = m_runCallsBound && total > p.total; // at most that many: it depends on the answers
    m_progress->setRange(0, total);
    m_progress->setValue(qMin(p.done, total));
    const QLocale l;
    // The bar's own %v / %m would print the numbers without the locale's digit grouping.
    m_progress->setFormat((bound ? tr("%1 / at most %2 calls") : tr("%1 / %2 calls"))
                                  .arg(l.toString(m_progress->value()), l.toString(total)));
    const QString totalText = bound ? QStringLiteral("≤ ") + l.toString(total) : l.toString(total);
    // the most the run still sends, where the method can tell (HypoEval's preparation narrows it phase by phase)
    const QString sent = p.sendMax >= 0 && p.sendMax != p.sent
                                 ? tr("%1 of at most %2 calls sent").arg(l.toString(p.sent), l.toString(p.sendMax))
                                 : tr("%1 calls sent").arg(l.toString(p.sent));
    m_progressLabel->setText(tr("%1 · %2 / %3 answered · %4 · %5 cache hits · %6 tokens · cost %7 · ETA %8")
                                     .arg(p.phase, l.toString(p.done), totalText, sent, l.toString(p.cacheHits),
                                          l.toString(p.tokens), money(p.cost),
                                          duration(m_controller->etaSeconds(total)))
                             + RunController::batchText(p));
}

void RunPane::onFinished(const QString &judge, bool ok, const QString &error, const QVariantMap &summary)
{
    if (m_progress->maximum() == 0)
        m_progress->setRange(0, 1);
    if (const RunProgress last = m_controller->lastProgress(); ok && last.total > 0) {
        // Done: the calls it made in the end (within the range a cold HypoEval estimate gives).
        m_progress->setRange(0, last.total);
        m_progress->setValue(last.total);
        m_progress->setFormat(tr("%1 / %2 calls").arg(QLocale().toString(last.total), QLocale().toString(last.total)));
    }
    if (ok) {
        const QVariantMap result = summary.value(QStringLiteral("result")).toMap();
        QString text = tr("Run '%1' done: %Ln item(s) scored, %2 without a score; %3.", nullptr,
                          result.value(QStringLiteral("scored")).toInt())
                               .arg(judge)
                               .arg(result.value(QStringLiteral("missing")).toInt())
                               .arg(tr("%Ln call(s) sent, %1 from the cache", nullptr,
                                       summary.value(QStringLiteral("sent")).toInt())
                                            .arg(summary.value(QStringLiteral("cache_hits")).toInt()));
        if (const int refused = result.value(QStringLiteral("failed")).toInt(); refused > 0)
            text += QLatin1Char(' ')
                    + tr("%n item(s) refused by the endpoint (see Issues; tick 'Ask refused items again' and press "
                         "Resume "
                         "to ask them again).",
                         nullptr, refused);
        if (const QString scoring = result.value(QStringLiteral("scoring")).toString(); !scoring.isEmpty())
            text += QLatin1Char(' ')
                    + tr("Scoring: %1 (%2).").arg(scoring, result.value(QStringLiteral("scoring_reason")).toString());
        // A method's own lines about the run (HD-Eval: the items behind its test figures).
        for (const QString &note : result.value(QStringLiteral("notes")).toStringList())
            text += QLatin1Char(' ') + note + QLatin1Char('.');
        showInfo(text + adaptedText(summary));
    } else {
        showError(tr("Run '%1' stopped: %2. It is saved; select it and press Resume to continue.").arg(judge, error)
                  + adaptedText(summary));
    }
    refillRuns();
    updateButtons();
    emit runFinished(judge, ok, error);
}

QString RunPane::adaptedText(const QVariantMap &summary)
{
    const QStringList adapted = summary.value(QStringLiteral("adapted")).toStringList();
    if (adapted.isEmpty())
        return {};
    return QLatin1Char(' ') + tr("Adapted to the endpoint: %1.").arg(adapted.join(QStringLiteral("; ")));
}

void RunPane::updateButtons()
{
    const bool running = m_controller->isRunning();
    const bool bound = m_project != nullptr;
    m_estimateButton->setEnabled(bound && m_evaluator->count() > 0);
    m_startButton->setEnabled(bound && !running && m_evaluator->count() > 0);
    m_cancelButton->setEnabled(running);
    bool resumable = false;
    if (const QTreeWidgetItem *item = m_runs->currentItem()) {
        const QString status = item->text(RunList::StatusColumn);
        resumable = status == QLatin1String("failed") || status == QLatin1String("cancelled")
                    || status == QLatin1String("running")
                    || (status == QLatin1String("done") && m_retryFailed->isChecked());
    }
    m_resumeButton->setEnabled(bound && !running && resumable);
}

void RunPane::showError(const QString &text)
{
    m_message->setStyleSheet(QStringLiteral("QLabel#runMessage { background: #fde8e8; color: #8a1c1c; padding: 6px; "
                                            "border-radius: 4px; }"));
    m_message->setText(text);
    m_message->setVisible(true);
}

void RunPane::showInfo(const QString &text)
{
    m_message->setStyleSheet(QStringLiteral("QLabel#runMessage { background: #e8f1fd; color: #1c3d8a; padding: 6px; "
                                            "border-radius: 4px; }"));
    m_message->setText(text);
    m_message->setVisible(true);
}

QString RunPane::messageText() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

} // namespace rubric
