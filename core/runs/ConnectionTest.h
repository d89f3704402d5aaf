#pragma once

#include "data/JudgeTypes.h"

#include <QObject>

#include <limits>
#include <memory>

namespace rubric {

class JudgeEngine;

/// What one test call to an endpoint showed.
struct ConnectionTestResult
{
    bool ok = false;
    QString answer;
    QString error;      ///< the engine's reason: "HTTP 400: <server message>", a network error …
    int httpStatus = 0; ///< 0 when no HTTP answer came (closed port, timeout)
    double latencyMs = 0;
    int retries = 0;
    int tokensIn = 0;
    int tokensOut = 0;
    bool logprobs = false;   ///< the answer carried top_logprobs
    int choicesAsked = 1;    ///< n of the probe (2 where the provider has n, else 1)
    int choicesReturned = 0; ///< choices in the answer: fewer than asked = the endpoint ignores n
    bool scored = false;     ///< a 1–5 score could be read from the answer
    double score = std::numeric_limits<double>::quiet_NaN(); ///< NaN unless scored
    QString scoreMethod;                                     ///< AnswerParser::methodName of how it was read
    QString scoreError;
    /// What the endpoint refused and how the test asked instead ("logprobs refused: asking
    /// without them", "reasoning model: …"), in the order learned; empty when it took the request.
    QStringList adapted;
    int sent = 0; ///< HTTP requests the test made (adaptations and retries included)
};

/// "Test connection": sends one short scoring prompt to a provider profile (no cache, no
/// project) and reports answer, latency, tokens, whether logprobs came back and whether the
/// endpoint honours n (asked for 2 choices where the provider has n), or the failure
/// with its HTTP status and body. A refused parameter (max_tokens, temperature, logprobs, n, the
/// system role) or a reasoning model's empty answer is adapted to as a run would (JudgeEngine) and
/// reported in `adapted`. Used by `rubric judge-test` and the studio's run pane.
///
/// Asynchronous; lives in (and must be used from) one thread with an event loop. `finished` is
/// emitted exactly once per start(), never from inside start().
class ConnectionTest : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionTest(ProviderProfile profile, QObject *parent = nullptr);
    ~ConnectionTest() override;

    /// The default prompt: a 1–5 fluency rating of one sentence, answered with the number only.
    static QString defaultPrompt();

    /// `prompt` empty: defaultPrompt(). A second start() while one is running is ignored.
    void start(const QString &prompt = {});
    bool isRunning() const { return m_engine != nullptr; }

signals:
    void finished(const rubric::ConnectionTestResult &result);

private:
    void onAnswered(const JudgeResponse &response);

    ProviderProfile m_profile;
    std::unique_ptr<JudgeEngine> m_engine;
    int m_choicesAsked = 1;
};

} // namespace rubric

Q_DECLARE_METATYPE(rubric::ConnectionTestResult)
