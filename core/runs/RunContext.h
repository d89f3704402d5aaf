#pragma once

#include "data/Aspect.h"
#include "data/Item.h"
#include "judge/JudgeEngine.h"
#include "methods/PromptLibrary.h"
#include "runs/RunTypes.h"
#include "store/RubricStore.h"

#include <QHash>
#include <QObject>

#include <functional>
#include <map>
#include <memory>

namespace rubric {

class Project;

/// What a method needs while it runs: the project and its rubric store, the run's spec, the
/// aspect, items and human scores, the prompt library, and one JudgeEngine per distinct
/// provider profile (roles that share a profile share an engine and its cache).
///
/// Lives in the thread that created it (the engines' thread). `submit` is asynchronous; its
/// callback runs from the event loop (never inside submit), with the responses in request
/// order. The first failed response fails the run (engines cancelled, `failed` emitted once).
class RunContext : public QObject
{
    Q_OBJECT
public:
    RunContext(Project *project, RunSpec spec, QObject *parent = nullptr);
    ~RunContext() override;

    Result<void> prepare(); ///< loads the aspect, items and human scores; checks the spec

    Project *project() const { return m_project; }
    RubricStore &store() { return m_store; }
    const RunSpec &spec() const { return m_spec; }
    const Aspect &aspect() const { return m_aspect; }
    const PromptLibrary &prompts() const { return m_prompts; }
    /// Task nouns and aspect fields for templates.
    QVariantMap baseContext() const { return m_baseContext; }
    /// Items to score (per spec.items) and the train items with a human score, in import order.
    const QVector<Item> &targetItems() const { return m_target; }
    const QVector<Item> &trainItems() const { return m_train; }
    const Item *item(const QString &id) const;
    double human(const QString &itemId) const;

    JudgeEngine *engine(JudgeRole role);
    bool isCached(JudgeRole role, const JudgeRequest &request);
    /// The cached answer to a request under the role's profile, or nullopt.
    std::optional<JudgeResponse> cached(JudgeRole role, const JudgeRequest &request);
    /// The judge cache key of a request under the role's profile (identical requests of one
    /// run are sent once: estimates count distinct keys).
    QString cacheKey(JudgeRole role, const JudgeRequest &request);
    /// Records which template (name → hash/source) the run used.
    void noteTemplate(const RenderedPrompt &prompt);
    QVariantMap templatesUsed() const { return m_templates; }

    using Done = std::function<void(const QVector<JudgeResponse> &)>;
    /// Sends the requests (phase is a label for the call counts) and calls `done` once all are
    /// answered. Nothing happens after the run failed or was cancelled. With a budget (spec.budget),
    /// a batch whose uncached requests could take the cost of this attempt past it is not sent: the
    /// run fails with a message saying so and stays resumable (answers so far are kept).
    void submit(JudgeRole role, const QString &phase, const QVector<JudgeRequest> &requests, Done done);
    void cancel();
    bool stopped() const { return m_stopped; }
    void fail(const QString &message);

    /// Target items from index `from` on whose texts (source, output) no earlier target item
    /// has: the items that can still ask new prompts (identical prompts are sent once).
    int newTargetTexts(int from) const;
    /// The most requests the method still needs to send (from now on, cache hits not sent);
    /// reported in progress() as RunProgress::sendMax. -1: unknown.
    void setOutlook(int maxToSend);

    /// Calls per phase: {"phase": {"calls": n, "sent": n, "cache_hits": n}}.
    QVariantMap phaseCalls() const;
    RunProgress progress() const;

    /// Rough token count of a text (characters / 4, at least 1 for a non-empty text).
    static qint64 approxTokens(const QString &text);
    static qint64 approxTokens(const JudgeRequest &request);

signals:
    void progressed(const rubric::RunProgress &progress);
    void failed(const QString &message);

private:
    struct Batch
    {
        QString phase;
        JudgeEngine *engine = nullptr;
        QVector<JudgeResponse> responses;
        int remaining = 0;
        Done done;
    };
    void onAnswered(JudgeEngine *engine, const JudgeResponse &response);
    QString profileKey(const ProviderProfile &p) const;

    Project *m_project;
    RubricStore m_store;
    RunSpec m_spec;
    Aspect m_aspect;
    PromptLibrary m_prompts;
    QVariantMap m_baseContext;
    QVector<Item> m_target, m_train;
    QHash<QString, int> m_itemIndex;
    QVector<Item> m_allItems;
    QHash<QString, double> m_human;
    std::map<QString, std::unique_ptr<JudgeEngine>> m_engines;
    QHash<int, Batch> m_batches;
    int m_nextBatch = 1;
    bool m_stopped = false;
    QVariantMap m_templates;
    QHash<QString, int> m_phaseCalls, m_phaseHits, m_phaseSent;
    QString m_phase;
    int m_done = 0, m_total = 0;
    int m_outlook = -1, m_outlookBase = 0; ///< setOutlook's figure and the requests sent when it was given
};

} // namespace rubric
