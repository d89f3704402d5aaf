#pragma once

#include "data/Aspect.h"
#include "data/Item.h"
#include "judge/JudgeEngine.h"
#include "judge/RunAdaptations.h"
#include "methods/PromptLibrary.h"
#include "methods/RunTypes.h"
#include "store/RubricStore.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>

namespace rubric {

class Project;

/// What a method needs while it runs: the project and its rubric store, the run's spec, the
/// aspect, items and human scores, the prompt library, and one JudgeEngine per
/// distinct provider profile (roles whose profiles differ in any setting, such as prices,
/// limits or the key variable, get their own engine and costs; all engines share the project's
/// judge cache, whose key names the URL and the model, not the role).
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

    /// --set max_source_tokens=N: every method's templates see item sources cut to about N tokens
    /// (for endpoints whose context the long ones overflow); recorded with the run's settings.
    static constexpr const char *maxSourceTokensKey = "max_source_tokens";
    /// The run's --set parameters that belong to the method (without the run's own, above).
    QVariantMap methodSettings() const;

    Project *project() const { return m_project; }
    RubricStore &store() { return m_store; }
    const RunSpec &spec() const { return m_spec; }
    const Aspect &aspect() const { return m_aspect; }
    const PromptLibrary &prompts() const { return m_prompts; }
    /// Task nouns and aspect fields for templates.
    QVariantMap baseContext() const { return m_baseContext; }
    /// The project's task ("summarization", "dialogue", …; PromptLibrary::projectTask), read by prepare().
    QString task() const { return m_task; }
    /// Items to score (per spec.items; in a re-score of a rubric version that has no train-split
    /// alignment yet — an edited version, or a finished G-Eval run scored again — also the train
    /// items with a human score, after them) and the train items with a human score, in import order.
    const QVector<Item> &targetItems() const { return m_target; }
    const QVector<Item> &trainItems() const { return m_train; }
    const Item *item(const QString &id) const;
    double human(const QString &itemId) const;

    JudgeEngine *engine(JudgeRole role);
    /// Whether the cache holds an answer to a request under the role's profile (an error when
    /// the cache cannot be read).
    Result<bool> isCached(JudgeRole role, const JudgeRequest &request);
    /// The cached answer to a request under the role's profile, or nullopt; an error when the
    /// cache cannot be read.
    Result<std::optional<JudgeResponse>> cached(JudgeRole role, const JudgeRequest &request);
    /// The judge cache key of a request under the role's profile (identical requests of one
    /// run are sent once: estimates count distinct keys).
    QString cacheKey(JudgeRole role, const JudgeRequest &request);
    /// Records which template (name → hash/source) the run used.
    void noteTemplate(const RenderedPrompt &prompt);
    /// The request of template `name` rendered with `context`: its messages, the template noted as
    /// used (noteTemplate), asked at `temperature` with at most `maxTokens` — the first step of
    /// every method's requests. An error when the template does not render.
    Result<JudgeRequest> templateRequest(const QString &name, const QVariantMap &context, double temperature,
                                         int maxTokens);
    QVariantMap templatesUsed() const { return m_templates; }

    /// Whether an answer can be read (a score parsed, text that is not empty). RunContext asks a
    /// request once more when its answer cannot: with max_tokens doubled when the answer was cut
    /// off there, else with JudgeRequest::reask set (a new cache key); the second answer is the
    /// one handed on, with JudgeResponse::reasked saying why. Both answers are cached, so a re-run
    /// reads the same two without sending. An answer that merely hit max_tokens but can be read
    /// (G-Eval's logprobs at max_tokens 5) is not asked again.
    using Readable = std::function<bool(const JudgeResponse &)>;
    /// The check where a method gives none: some text, not cut off at max_tokens.
    static bool readableText(const JudgeResponse &response);
    /// Re-asks so far by reason: {"cut off at max_tokens": n, "empty answer": n, …} (the run summary).
    QVariantMap reasked() const;
    /// What the run's endpoints needed, with why ("temperature 0 refused: using the endpoint's
    /// default (1)", …): learned by this run or by an earlier one (the project keeps them per base
    /// URL and model, prepare() loads them into every engine before its first request, and each
    /// one learned is saved at once). Empty when every request went as asked (the run summary's
    /// "adapted").
    QStringList adapted() const;
    /// What the role's endpoint is known to need so far (loaded by prepare(), extended as learned).
    EndpointAdaptations adaptations(JudgeRole role) const;

    using Done = std::function<void(const QVector<JudgeResponse> &)>;
    /// Sends the requests (phase is a label for the call counts) and calls `done` once all are
    /// answered, with the responses in request order: a barrier, for steps that need every answer
    /// of the step (HypoEval's update rounds). The requests stream like stream()'s units of one
    /// request each; a response the endpoint refused for its own sake (see itemFailure()) comes in
    /// `responses` with its error, for the method to record.
    void submit(JudgeRole role, const QString &phase, const QVector<JudgeRequest> &requests, Done done,
                Readable readable = {});

    /// Builds the requests of unit `unit` (0 … units-1): the answers that are used together, such as
    /// one item's samples or its hypotheses. Called when the stream has room for it.
    using UnitBuilder = std::function<Result<QVector<JudgeRequest>>(int unit)>;
    /// A unit's answers, in the order of its requests, as soon as the last of them arrived (each is
    /// committed to the judge cache before it comes here).
    using UnitAnswered = std::function<void(int unit, const QVector<JudgeResponse> &responses)>;
    /// Streams `units` independent units to the role's engine: the engine's queue is kept filled
    /// (about twice its concurrency in requests) so every slot is busy while units remain, and each
    /// unit is handed to `answered` as soon as its answers are in; `done` follows the last one (from
    /// the event loop, after the scores recorded so far are written). No barrier between units.
    ///
    /// Failures: an error that belongs to one unit (the endpoint refused that request: HTTP 400, 413
    /// or 422, e.g. a context length or a content filter) reaches `answered` with the response's
    /// error, and the stream goes on; an error of the run (authentication, unknown model or path,
    /// the endpoint unreachable after retries, rate limits after retries) fails the run at once. As
    /// long as no request of the stream succeeded, refused units are held back: when the first
    /// min(units, max(5, concurrency)) answered units were all refused, the refusal is the run's
    /// (a setting the endpoint rejects) and fails it, and nothing of them is recorded.
    ///
    /// Budget (spec.budget): units are built a window ahead (max(32, 4 × concurrency) requests);
    /// a window whose uncached requests could take the attempt's cost past the budget, counting what
    /// is still in flight, is not sent: the run fails resumable with a message saying so.
    void stream(JudgeRole role, const QString &phase, int units, UnitBuilder build, UnitAnswered answered,
                std::function<void()> done, Readable readable = {});

    /// True when a failed response is the endpoint refusing that one request (the run can go on),
    /// false when the failure belongs to the run (it must stop).
    static bool itemFailure(const JudgeResponse &response);
    /// "HTTP 400: …" — the reason a failed response gives, for the item's record.
    static QString failureText(const JudgeResponse &response);

    /// Items that a previous attempt of this judge recorded as refused by the endpoint (criterion
    /// scores with status "failed"), with the endpoint's message. A run skips them unless
    /// spec.retryFailed is set.
    const QHash<QString, QString> &failedBefore() const { return m_failedBefore; }
    /// True when this attempt skips item `itemId`: a previous attempt recorded it as refused by the
    /// endpoint (failedBefore()) and spec.retryFailed is not set.
    bool skipsFailed(const QString &itemId) const { return !m_spec.retryFailed && m_failedBefore.contains(itemId); }
    /// The indices into targetItems() this attempt asks: all but those skipsFailed() leaves out,
    /// whose number is added to `*skipped` (the run summary's "failed").
    QVector<int> targetsToAsk(int *skipped) const;

    /// Scores to store: written together by time (every 250 ms, and before a stream's `done`,
    /// a failure or a cancel), so the store never holds back the stream. The judge cache already
    /// holds every answer they come from.
    void recordScores(const QVector<CriterionScore> &rows, const QHash<QString, double> &itemScores);
    Result<void> flushScores();

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

    /// What an estimate charges for `in` input and `out` output tokens at `profile`'s prices: no
    /// prompt-cache reads counted, so an upper bound (RunEstimate::cost).
    static double estimatedCost(const ProviderProfile &profile, qint64 in, qint64 out)
    {
        return profile.cost(double(in), double(out));
    }
    /// Rough token count of a text (characters / 4, at least 1 for a non-empty text).
    static qint64 approxTokens(const QString &text);
    static qint64 approxTokens(const JudgeRequest &request);
    /// The request as sent to `profile`'s endpoint: its messages and, with structured answers,
    /// the schema it carries.
    static qint64 approxTokens(const JudgeRequest &request, const ProviderProfile &profile);

signals:
    void progressed(const rubric::RunProgress &progress);
    void failed(const QString &message);

private:
    struct Unit
    {
        QVector<JudgeRequest> requests;
        QVector<JudgeResponse> responses;
        QVector<double> projected; ///< worst-case cost of each uncached request (budget)
        QStringList reasked;       ///< per request: why it was asked again ("" = not)
        int remaining = 0;
        bool refused = false;
    };
    struct Stream
    {
        int id = 0;
        QString phase;
        JudgeEngine *engine = nullptr;
        int units = 0;
        int next = 0;             ///< next unit to build
        QVector<int> built;       ///< built, checked against the budget, not yet submitted
        QHash<int, Unit> pending; ///< built units (submitted or waiting in `built`)
        QVector<int> held;        ///< refused units held back while nothing succeeded
        int outstanding = 0;      ///< requests submitted and not answered
        int succeeded = 0;        ///< requests answered (or cached) without error
        int answeredUnits = 0;
        UnitBuilder build;
        UnitAnswered answered;
        std::function<void()> done;
        Readable readable;
        bool filling = false;
        bool finished = false;
    };
    void fill(int streamId);
    Result<void> buildWindow(Stream &s);
    void onAnswered(JudgeEngine *engine, const JudgeResponse &response);
    void unitComplete(Stream &s, int unit);
    void finishIfDone(Stream &s);
    double projectedCost(JudgeEngine *engine, const JudgeRequest &request) const;
    QString profileKey(const ProviderProfile &p) const;
    void onAdapted(JudgeEngine *engine);

    Project *m_project;
    RubricStore m_store;
    RunSpec m_spec;
    Aspect m_aspect;
    PromptLibrary m_prompts;
    QVariantMap m_baseContext;
    QString m_task;
    QVector<Item> m_target, m_train;
    QHash<QString, int> m_itemIndex;
    QVector<Item> m_allItems;
    QHash<QString, double> m_human;
    std::map<QString, std::unique_ptr<JudgeEngine>> m_engines;
    RunAdaptations m_adaptations;
    std::map<int, Stream> m_streams;
    int m_nextStream = 1;
    double m_reserved = 0; ///< worst-case cost of the requests in flight (budget)
    QHash<QString, QString> m_failedBefore;
    QVector<CriterionScore> m_pendingRows;
    QHash<QString, double> m_pendingItemScores;
    QTimer *m_flushTimer = nullptr;
    bool m_stopped = false;
    QVariantMap m_templates;
    QHash<QString, int> m_phaseCalls, m_phaseHits, m_phaseSent;
    QVariantMap m_reasked;
    QString m_phase;
    int m_done = 0, m_total = 0;
    int m_outlook = -1, m_outlookBase = 0; ///< setOutlook's figure and the requests sent when it was given
};

} // namespace rubric
