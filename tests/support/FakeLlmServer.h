#pragma once

#include "data/JudgeTypes.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QQueue>
#include <QRandomGenerator>
#include <QSet>
#include <QVector>

#include <functional>
#include <memory>
#include <optional>

class QTcpServer;
class QTcpSocket;

namespace rubric::test {

/// What the fake judge answers to one request.
struct FakeAnswer
{
    QString text = QStringLiteral("Rating: [[3]]");
    /// Per generated token: the alternatives (first = the token emitted). Sent only when the
    /// request asks for logprobs (OpenAI shape).
    QVector<QVector<TokenLogprob>> topLogprobs;
    QStringList moreChoices; ///< texts of choices 2..n (else `text` is repeated for n > 1)
    int promptTokens = -1;   ///< -1: characters of the messages / 4
    int completionTokens = -1;
    /// Of the prompt tokens, those read from a prompt cache (reported as OpenAI's
    /// prompt_tokens_details.cached_tokens / Anthropic's cache_read_input_tokens); 0 = none.
    int cachedTokens = 0;
    int httpStatus = 200; ///< anything else answers an error with `errorMessage`
    QString errorMessage;
    /// Stopped at max_tokens: finish_reason "length" (OpenAI) / stop_reason "max_tokens"
    /// (Anthropic) instead of "stop" / "end_turn".
    bool cutOff = false;
};

enum class FakeFault {
    None,
    RateLimited, ///< 429 with Retry-After
    ServerError, ///< 500
    Drop,        ///< the connection is closed without an answer
    Truncated,   ///< 200, full Content-Length announced, half the body sent, then closed
    InvalidJson, ///< 200 with a body that is not JSON
    BadRequest,  ///< 400 with a message
};

/// What kind of model the fake endpoint plays (OpenAI chat-completions shape only; the judge's
/// answer text still comes from setAnswer/setJudge).
enum class FakeModelKind {
    Plain, ///< takes every parameter and answers at once
    /// An OpenAI reasoning model (gpt-5, o1/o3/o4-mini) on /chat/completions: HTTP 400 in OpenAI's
    /// shape for max_tokens, a temperature other than 1, a top_p other than 1, logprobs or
    /// top_logprobs; hides reasoningTokens() of thinking in max_completion_tokens: a budget below
    /// that plus the answer answers "" cut off ("length") with every token billed as reasoning.
    OpenAiReasoning,
    /// A thinking model whose server leaves the thinking in the text: "<think>…</think>\n\n" then
    /// the answer; the thinking mentions other scores and yes/no answers. A max_tokens below the
    /// think block's tokens answers the block cut off, unclosed, finish_reason "length".
    ThinkInline,
    /// A thinking model behind a reasoning parser: the thinking in message.reasoning_content (or
    /// the field setReasoningField() names), content the answer; a budget too small for thinking
    /// and answer gives content null, finish_reason "length".
    ReasoningField,
    RefusesSystemRole, ///< HTTP 400 "System role not supported" (Gemma-2 on vLLM) for a system message
    RefusesN,          ///< HTTP 400 naming n when n > 1
    RefusesLogprobs,   ///< HTTP 400 naming logprobs when they are asked for
};

/// An Anthropic body's system prompt: a string, or text blocks (with cache_control) joined.
inline QString systemText(const QJsonObject &body)
{
    const QJsonValue system = body.value(QStringLiteral("system"));
    if (!system.isArray())
        return system.toString();
    QString text;
    for (const auto &block : system.toArray())
        text += block.toObject().value(QStringLiteral("text")).toString();
    return text;
}

/// The text of a chat request's body: its messages' contents, one a line, then an Anthropic
/// body's system prompt (what a fake judge looks into to decide its answer).
inline QString promptText(const QJsonObject &body)
{
    QString prompt;
    for (const auto &m : body.value(QStringLiteral("messages")).toArray())
        prompt += m.toObject().value(QStringLiteral("content")).toString() + QLatin1Char('\n');
    return prompt + systemText(body);
}

/// One request as received (header names lower-cased).
struct RecordedRequest
{
    QByteArray method;
    QByteArray path;
    QHash<QByteArray, QByteArray> headers;
    QByteArray body;
};

/// A loopback HTTP/1.1 server that speaks the OpenAI chat-completions and Anthropic messages
/// shapes, for tests and benchmarks only. Written on QTcpServer so faults are exact: dropped
/// connections, truncated bodies, 429 with Retry-After, 500, invalid JSON, by script or by rate.
/// Latency is a QTimer per request (no sleeps); keep-alive connections are reused.
/// Lives in the thread that created it.
class FakeLlmServer : public QObject
{
    Q_OBJECT
public:
    using Judge = std::function<FakeAnswer(const QJsonObject &requestBody)>;

    explicit FakeLlmServer(QObject *parent = nullptr);
    ~FakeLlmServer() override;

    /// Listens on 127.0.0.1:`port` (0 = any free port).
    bool listen(quint16 port = 0);
    quint16 port() const;
    /// "http://127.0.0.1:PORT/v1"
    QString baseUrl() const;
    /// Goes away as a stopped replica does: stops listening (new connections are refused) and
    /// closes every open connection; requests waiting for their answer get none. Answers already
    /// written go out first, so answeredCount() is what clients received. The counts stay readable.
    void shutDown();

    void setLatencyMs(int ms) { m_latencyMs = ms; }
    /// A latency with a long tail like hosted LLMs': lognormal with this median and σ (of the
    /// log), drawn per request from its own generator seeded with `seed`. Replaces setLatencyMs.
    void setLatencyLogNormal(double medianMs, double sigma, quint32 seed);
    /// Sum of the latencies the server applied to the requests it answered (ms): divided by the
    /// client's concurrency, the shortest wall time a client can reach for them.
    double latencySumMs() const { return m_latencySumMs; }
    /// The same answer to every request.
    void setAnswer(const FakeAnswer &answer);
    /// The "synthetic judge": derives each answer from the request body.
    void setJudge(Judge judge) { m_judge = std::move(judge); }
    /// Random faults, each with its own probability (drawn per request from a seeded generator).
    void setFaultRates(double rateLimited, double serverError, double drop, double truncated, double invalidJson = 0);
    void setSeed(quint32 seed) { m_rng.seed(seed); }
    /// Faults for the next requests, in order (FakeFault::None = answer normally); before rates.
    void scriptFaults(const QVector<FakeFault> &faults);
    void setRetryAfterSeconds(double seconds) { m_retryAfter = seconds; }
    void setRecording(bool on) { m_recording = on; }
    /// Answer one choice whatever `n` asks (as Ollama and the llama.cpp server do).
    void setIgnoreN(bool on) { m_ignoreN = on; }
    /// What kind of model answers (FakeModelKind; default Plain).
    void setModelKind(FakeModelKind kind) { m_kind = kind; }
    FakeModelKind modelKind() const { return m_kind; }
    /// Tokens a reasoning kind thinks before it answers (default 300).
    void setReasoningTokens(int tokens) { m_reasoningTokens = tokens; }
    int reasoningTokens() const { return m_reasoningTokens; }
    /// The message field ReasoningField puts the thinking in: "reasoning_content" (vLLM, llama.cpp,
    /// DeepSeek; the default) or "reasoning" (newer vLLM, Ollama).
    void setReasoningField(const QString &field) { m_reasoningField = field; }
    /// The thinking the reasoning kinds show: about reasoningTokens() tokens that weigh other scores
    /// ("Maybe 2?", "rating [[1]]") and other yes/no answers ("Q1: No, Q2: Yes").
    QString thinkingText() const;
    static std::optional<FakeModelKind> modelKindFromName(const QString &name);

    // --- Provider batches: OpenAI's files + batches (/v1/files, /v1/batches, /v1/files/{id}/content)
    // and Anthropic's message batches (/v1/messages/batches, …/{id}, …/{id}/results). Each line is
    // answered as the same request sent interactively would be (the judge, the answer's shape);
    // the HTTP requests of the batch interface are not counted by requestCount().
    /// A batch ends this long after it was created (its counts grow linearly until then).
    void setBatchDelayMs(int ms) { m_batchDelayMs = ms; }
    /// Share of a batch's lines that fail (HTTP 500 in OpenAI's error file, "errored" for Anthropic),
    /// drawn from the seeded fault generator.
    void setBatchLineFailureRate(double rate) { m_batchFailureRate = rate; }
    /// The next batch created expires: its first half is answered, the rest is "expired".
    void setExpireNextBatch(bool on) { m_expireNext = on; }
    /// The answer to a batch's creation comes this late (the batch exists at once): a client stopped
    /// in between has to find it in the list of batches.
    void setBatchCreationDelayMs(int ms) { m_creationDelayMs = ms; }
    /// Batch creations answered with HTTP 500 (then normal again).
    void failBatchCreations(int count) { m_failCreations = count; }
    /// The next `count` polls of a batch's state answer HTTP 500.
    void failBatchPolls(int count) { m_failPolls = count; }
    /// Results files as a careless provider writes them: every answered line twice, and a line
    /// that is not JSON after the first.
    void setBatchResultsDamaged(bool on) { m_damagedResults = on; }
    int batchesCreated() const { return m_batchesCreated; }
    /// Lines submitted in all batches, and those no earlier line had (same body): their difference is
    /// what a client submitted more than once.
    int batchLines() const { return m_batchLines; }
    int batchLinesDistinct() const { return int(m_seenLines.size()); }
    /// Lines answered (successfully) in all batches that ended.
    int batchLinesAnswered() const { return m_batchAnswered; }

    int requestCount() const { return m_requests; }
    /// Requests the model kind refused (HTTP 400 for a parameter or role it does not take).
    int refusedCount() const { return m_refused; }
    int answeredCount() const { return m_answered; }
    /// Requests whose body (and path) no earlier request had: requestCount() - distinctCount() is
    /// what a client paid more than once (the kill test's "paid twice").
    int distinctCount() const { return int(m_seenBodies.size()); }
    int faultCount(FakeFault fault) const { return m_faults.value(int(fault)); }
    int totalFaults() const;
    /// Most requests waiting for their answer at the same time (shows real concurrency).
    int maxConcurrent() const { return m_maxConcurrent; }
    int connectionsAccepted() const { return m_connections; }
    /// Connections currently open (a client that was killed shows here until its sockets close).
    int openConnections() const { return int(m_buffers.size()); }
    QVector<RecordedRequest> recorded() const { return m_recorded; }
    void resetCounts();

signals:
    void requestReceived(int count);

private:
    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void handle(QTcpSocket *socket, const RecordedRequest &request, bool closeAfter);
    /// The batch interface's paths (FakeBatchApi.cpp); false when the request is not one of them.
    bool handleBatch(QTcpSocket *socket, const RecordedRequest &request, bool closeAfter);
    struct FakeBatch;
    void endBatch(FakeBatch &batch);
    QByteArray batchObject(FakeBatch &batch);
    int nextLatencyMs();
    /// GET /fake/stats: {"requests", "answered", "distinct", "latency_sum_ms", "max_concurrent"}
    /// (benchmarks, the kill test).
    void answerStats(QTcpSocket *socket, bool closeAfter);
    void respond(QTcpSocket *socket, const RecordedRequest &request, FakeFault fault, bool closeAfter);
    QByteArray answerBody(const RecordedRequest &request, const QJsonObject &body, const FakeAnswer &answer) const;
    /// The HTTP 400 body the model kind answers the request with; empty when it takes it
    /// (FakeModelKinds.cpp).
    QByteArray refusal(const QJsonObject &body) const;
    /// One choice as the model kind answers it: the message (content, reasoning), finish_reason,
    /// completion and reasoning tokens.
    struct Turn
    {
        QJsonObject message;
        QString finishReason;
        int completionTokens = 0;
        int reasoningTokens = 0;
    };
    Turn turn(const QJsonObject &body, const QString &answer, bool cutOff, int answerTokens) const;
    FakeFault nextFault();

    QTcpServer *m_server = nullptr;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    int m_latencyMs = 0;
    double m_medianMs = 0, m_sigma = 0; ///< lognormal latency when m_medianMs > 0
    QRandomGenerator m_latencyRng{1};
    double m_latencySumMs = 0;
    Judge m_judge;
    double m_rates[5] = {0, 0, 0, 0, 0};
    QRandomGenerator m_rng{12345};
    QQueue<FakeFault> m_script;
    double m_retryAfter = 1;
    bool m_recording = false;
    bool m_ignoreN = false;
    FakeModelKind m_kind = FakeModelKind::Plain;
    int m_reasoningTokens = 300;
    QString m_reasoningField = QStringLiteral("reasoning_content");
    int m_requests = 0;
    int m_refused = 0;
    int m_answered = 0;
    QSet<QByteArray> m_seenBodies; ///< SHA-1 of path + body of every request
    int m_pendingNow = 0;
    int m_maxConcurrent = 0;
    int m_connections = 0;
    quint64 m_ids = 0;
    QHash<int, int> m_faults;
    QVector<RecordedRequest> m_recorded;

    int m_batchDelayMs = 0;
    double m_batchFailureRate = 0;
    bool m_expireNext = false;
    int m_failCreations = 0;
    int m_failPolls = 0;
    bool m_damagedResults = false;
    int m_creationDelayMs = 0;
    int m_batchesCreated = 0;
    int m_batchLines = 0;
    int m_batchAnswered = 0;
    QSet<QByteArray> m_seenLines;
    QHash<QString, QByteArray> m_files;
    QHash<QString, std::shared_ptr<FakeBatch>> m_batches;
    QStringList m_batchOrder; ///< ids, oldest first
};

} // namespace rubric::test
