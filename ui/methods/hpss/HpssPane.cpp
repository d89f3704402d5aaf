#include "methods/hpss/HpssPane.h"

#include "methods/hpss/HpssAdvantageView.h"
#include "methods/hpss/HpssJudgeView.h"
#include "methods/hpss/HpssLeaderboard.h"
#include "methods/hpss/HpssLeaderboardModel.h"
#include "methods/hpss/HpssPromptInspector.h"
#include "methods/hpss/HpssSearchView.h"
#include "models/RunController.h"
#include "models/ScoreModel.h"
#include "runs/RunConfig.h"
#include "store/Project.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace rubric {

using namespace hpss;

HpssPane::HpssPane(QWidget *parent)
    : QWidget(parent)
    , m_judge(new QComboBox(this))
    , m_message(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_search(new HpssSearchView(this))
    , m_leaderboard(new HpssLeaderboard(this))
    , m_advantages(new HpssAdvantageView(this))
    , m_inspector(new HpssPromptInspector(this))
{
    setObjectName(QStringLiteral("hpssPane"));
    m_judge->setObjectName(QStringLiteral("hpssJudge"));
    m_judge->setMinimumContentsLength(20);
    m_message->setObjectName(QStringLiteral("hpssMessage"));
    m_message->setWordWrap(true);
    m_message->setVisible(false);
    m_tabs->setObjectName(QStringLiteral("hpssTabs"));
    m_tabs->addTab(m_search, tr("Search"));
    m_tabs->addTab(m_leaderboard, tr("Leaderboard"));
    m_tabs->addTab(m_advantages, tr("Advantages"));
    m_tabs->addTab(m_inspector, tr("Prompt inspector"));
    auto *reloadButton = new QPushButton(tr("Reload"), this);
    reloadButton->setObjectName(QStringLiteral("hpssReload"));

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("HPSS judge:"), this));
    top->addWidget(m_judge);
    top->addWidget(reloadButton);
    top->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_message);
    layout->addWidget(m_tabs, 1);

    m_refresh.setSingleShot(true);
    m_refresh.setInterval(300);
    connect(&m_refresh, &QTimer::timeout, this, &HpssPane::reload);
    connect(reloadButton, &QPushButton::clicked, this, [this] {
        refillJudges();
        reload();
    });
    connect(m_judge, &QComboBox::currentIndexChanged, this, &HpssPane::reload);
    connect(m_leaderboard, &HpssLeaderboard::inspectRequested, this, [this](const PromptStrategy &s) {
        m_inspector->setStrategy(s);
        m_tabs->setCurrentWidget(m_inspector);
    });
    connect(m_leaderboard, &HpssLeaderboard::sendToTestRequested, this,
            [this](const PromptStrategy &s) { sendToTest(s.format()); });
    reload();
}

void HpssPane::setProject(Project *project)
{
    m_project = project;
    disconnect(m_followJudge);
    refillJudges();
    if (project) {
        // The judge the studio shows (e.g. `--judge J`), when it is an HPSS one.
        ScoreModel *scores = ScoreModel::of(project);
        m_followJudge = connect(scores, &ScoreModel::judgeChanged, this, [this](const QString &judge) {
            if (m_judge->findText(judge) >= 0
                || (m_project && m_project->judge(judge) && m_project->judge(judge)->method == QLatin1String("hpss")))
                showJudge(judge);
        });
        if (const int i = m_judge->findText(scores->judge()); i >= 0) {
            const QSignalBlocker block(m_judge);
            m_judge->setCurrentIndex(i);
        }
    }
    reload();
}

void HpssPane::setRunController(RunController *controller)
{
    if (m_controller)
        disconnect(m_controller, nullptr, this, nullptr);
    m_controller = controller;
    if (!controller)
        return;
    connect(controller, &RunController::progressed, this, [this] {
        if (!m_controller)
            return;
        const QString running = m_controller->runningJudge();
        // A new HPSS judge appears once its run has written it; with none shown, it is shown.
        if (m_judge->findText(running) < 0) {
            const bool none = currentJudge().isEmpty();
            refillJudges();
            if (none && m_judge->findText(running) >= 0) {
                const QSignalBlocker block(m_judge);
                m_judge->setCurrentIndex(m_judge->findText(running));
                reload();
            }
        }
        if (running == currentJudge() && !m_refresh.isActive())
            m_refresh.start();
    });
    connect(controller, &RunController::started, this, [this](const QString &judge) {
        m_leaderboard->setSendEnabled(false);
        if (m_judge->findText(judge) < 0)
            refillJudges();
    });
    connect(controller, &RunController::finished, this, [this](const QString &judge) {
        m_leaderboard->setSendEnabled(true);
        refillJudges();
        if (judge == currentJudge()) {
            m_refresh.stop();
            reload();
        }
    });
}

void HpssPane::refillJudges()
{
    const QString keep = currentJudge();
    const QSignalBlocker block(m_judge);
    m_judge->clear();
    if (m_project)
        for (const JudgeInfo &j : m_project->judges())
            if (j.method == QLatin1String("hpss"))
                m_judge->addItem(j.name);
    if (const int i = m_judge->findText(keep); i >= 0)
        m_judge->setCurrentIndex(i);
}

bool HpssPane::showJudge(const QString &judge)
{
    if (m_judge->findText(judge) < 0)
        refillJudges();
    const int i = m_judge->findText(judge);
    if (i < 0)
        return false;
    if (i == m_judge->currentIndex())
        reload();
    else
        m_judge->setCurrentIndex(i);
    return true;
}

QString HpssPane::currentJudge() const
{
    return m_judge->currentText();
}

QString HpssPane::messageText() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}

void HpssPane::showMessage(const QString &text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

void HpssPane::reload()
{
    ++m_reloads;
    const QString judge = currentJudge();
    if (!m_project || judge.isEmpty()) {
        showMessage(m_project ? tr("The project has no HPSS judge yet: run one from \"Judge & Run\" (method hpss).")
                              : QString());
        m_search->setView(nullptr);
        m_leaderboard->model()->clear();
        m_advantages->setView(nullptr);
        m_inspector->setView(nullptr);
        return;
    }
    // A fixed prompt, a transferred strategy or the APE-style search: no strategies to show.
    auto without = JudgeView::withoutSearch(m_project, judge);
    if (without && !without->isEmpty()) {
        showMessage(withoutSearchText(judge, *without));
        m_search->setView(nullptr);
        m_leaderboard->model()->clear();
        m_advantages->setView(nullptr);
        m_inspector->setView(nullptr);
        return;
    }
    auto view = JudgeView::load(m_project, judge, &RunConfig::load);
    if (!view) {
        showMessage(view.errorString());
        m_search->setView(nullptr);
        m_leaderboard->model()->clear();
        m_advantages->setView(nullptr);
        m_inspector->setView(nullptr);
        return;
    }
    if (m_spendJudge != judge) {
        m_spend.clear();
        m_spendJudge = judge;
    }
    // A strategy evaluated again by a new search of the judge (other parameters) is read again.
    QSet<QString> known;
    for (const SearchRecord &r : view->search().evaluated())
        if (m_spend.contains(r.proposal.strategy.format()))
            known.insert(r.proposal.strategy.format());
    if (view->search().evaluated().size() < m_spend.size())
        known.clear();
    if (auto s = view->spend(m_project, known)) {
        if (known.isEmpty())
            m_spend.clear();
        m_spend.insert(*s);
        showMessage({});
    } else {
        showMessage(tr("Calls and cost are not shown: %1").arg(s.errorString()));
    }
    m_search->setView(&*view);
    m_leaderboard->model()->setLevel(view->search().params().level);
    m_leaderboard->model()->setPairwise(
            view->isPairwise() ? view->pairwise().value(QStringLiteral("validation_pairs")).toInt() : 0);
    m_leaderboard->model()->setEvaluations(view->search().evaluated(), m_spend);
    m_advantages->setView(&*view);
    m_inspector->setView(&*view);
}

QString HpssPane::withoutSearchText(const QString &judge, const QVariantMap &info) const
{
    const auto rho = [&info](const char *key) {
        const QVariant v = info.value(QLatin1String(key));
        return v.isValid() ? QString::number(v.toDouble(), 'f', 3) : tr("not known yet");
    };
    const QString kind = info.value(QStringLiteral("kind")).toString();
    if (kind == QLatin1String("ape"))
        return tr("%1 ran the APE-style search over free-text prompts (%2 evaluated, %3 of its budget spent), not a "
                  "search of strategies: there is nothing to show here. The winner's validation Spearman %4, test "
                  "Spearman %5; its prompt and every candidate: rubric show-rubric --judge %1.")
                .arg(judge)
                .arg(info.value(QStringLiteral("evaluated")).toInt())
                .arg(info.value(QStringLiteral("cost")).toInt())
                .arg(rho("validation_spearman"), rho("test_spearman"));
    if (kind == QLatin1String("prompt"))
        return tr("%1 scores a fixed prompt, %2 (%3), with no search: there is nothing to show here. Test Spearman "
                  "%4.")
                .arg(judge, info.value(QStringLiteral("name")).toString(),
                     info.value(QStringLiteral("file")).toString(), rho("test_spearman"));
    return tr("%1 scores a strategy transferred from %2 (%3), with no search: there is nothing to show here. Test "
              "Spearman %4.")
            .arg(judge, info.value(QStringLiteral("name")).toString(),
                 info.value(QStringLiteral("strategy")).toString(), rho("test_spearman"));
}

void HpssPane::sendToTest(const QString &strategy)
{
    if (!m_project)
        return;
    auto s = PromptStrategy::parse(strategy);
    if (!s) {
        showMessage(s.errorString());
        return;
    }
    auto spec = testSplitSpec(m_project, currentJudge(), *s, &RunConfig::load);
    if (!spec) {
        showMessage(tr("Cannot send %1 to the test split: %2").arg(strategy, spec.errorString()));
        return;
    }
    emit testRunRequested(*spec);
}

} // namespace rubric
