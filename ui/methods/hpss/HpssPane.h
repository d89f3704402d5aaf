#pragma once

#include "methods/RunTypes.h"
#include "methods/hpss/HpssJudgeView.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QTabWidget;

namespace rubric {

class HpssAdvantageView;
class HpssLeaderboard;
class HpssPromptInspector;
class HpssSearchView;
class Project;
class RunController;

/// The "HPSS" pane: the project's HPSS judges and, for the chosen one, four tabs — the live
/// search (HpssSearchView), the leaderboard (HpssLeaderboard), the per-factor advantages
/// (HpssAdvantageView) and the prompt inspector (HpssPromptInspector).
///
/// Everything is read from the judge's persisted search state (hpss::JudgeView). Bound to the
/// studio's RunController, the pane re-reads it at most every `refreshMs` (default 300 ms) while
/// that judge's run reports progress, and once when the run ends, so the views follow a running
/// search. "Send to test split" becomes `testRunRequested` with the spec of that run
/// (hpss::testSplitSpec); the main window hands it to the run pane. The pane follows the studio's
/// selected judge (ScoreModel) when that is an HPSS judge. A judge without a strategy search (a
/// fixed CloserLook prompt, a transferred strategy, the APE-style search over prompt texts) is
/// listed, and shown as a message saying what it is and its figures. Bound through setProject()
/// (not owned); GUI thread only.
class HpssPane : public QWidget
{
    Q_OBJECT
public:
    explicit HpssPane(QWidget *parent = nullptr);

    void setProject(Project *project);
    /// Follows the runs of `controller` (not owned; nullptr: none).
    void setRunController(RunController *controller);
    /// Shows `judge`; false when it is not an HPSS judge of the project.
    bool showJudge(const QString &judge);
    QString currentJudge() const;
    /// Re-reads the current judge's state now; errors go to the message line.
    void reload();
    void setRefreshInterval(int ms) { m_refresh.setInterval(ms); }

    HpssSearchView *searchView() const { return m_search; }
    HpssLeaderboard *leaderboard() const { return m_leaderboard; }
    HpssAdvantageView *advantageView() const { return m_advantages; }
    HpssPromptInspector *promptInspector() const { return m_inspector; }
    QTabWidget *tabs() const { return m_tabs; }
    QString messageText() const;
    /// How often the state was read (tests: the live updates).
    int reloadCount() const { return m_reloads; }

signals:
    void testRunRequested(const rubric::RunSpec &spec);

private:
    void refillJudges();
    void sendToTest(const QString &strategy);
    void showMessage(const QString &text);
    /// The message for a judge that ran no strategy search (a fixed prompt, a transfer, APE-style).
    QString withoutSearchText(const QString &judge, const QVariantMap &info) const;

    QPointer<Project> m_project;
    QPointer<RunController> m_controller;
    QComboBox *m_judge;
    QLabel *m_message;
    QTabWidget *m_tabs;
    HpssSearchView *m_search;
    HpssLeaderboard *m_leaderboard;
    HpssAdvantageView *m_advantages;
    HpssPromptInspector *m_inspector;
    QTimer m_refresh;
    QMetaObject::Connection m_followJudge; ///< the studio's selected judge (ScoreModel), when an HPSS one
    int m_reloads = 0;
    /// The calls and cost read so far, of m_spendJudge's strategies (an evaluation's are final).
    QHash<QString, hpss::StrategySpend> m_spend;
    QString m_spendJudge;
};

} // namespace rubric
