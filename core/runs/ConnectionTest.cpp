#include "runs/ConnectionTest.h"

#include "judge/AnswerParser.h"
#include "judge/JudgeEngine.h"
#include "judge/Provider.h"

#include <QTimer>

namespace rubric {

ConnectionTest::ConnectionTest(ProviderProfile profile, QObject *parent)
    : QObject(parent)
    , m_profile(std::move(profile))
{
    // A test should answer quickly and say what is wrong rather than retry for minutes.
    m_profile.concurrency = 1;
    m_profile.maxRetries = qMin(m_profile.maxRetries, 2);
}

ConnectionTest::~ConnectionTest() = default;

QString ConnectionTest::defaultPrompt()
{
    return QStringLiteral("Rate the fluency of this sentence from 1 (poor) to 5 (perfect): "
                          "\"The cat sat quietly on the warm mat.\" Answer with the number only.");
}

void ConnectionTest::start(const QString &prompt)
{
    if (m_engine)
        return;
    JudgeRequest request;
    request.messages = {{QStringLiteral("user"), prompt.isEmpty() ? defaultPrompt() : prompt}};
    request.maxTokens = 16;
    request.logprobs = m_profile.kind == ProviderKind::OpenAI;
    request.topLogprobs = request.logprobs ? 5 : 0;
    if (m_profile.kind == ProviderKind::OpenAI && m_profile.structuredAnswers != StructuredMode::Off) {
        // The schema the profile's scoring requests go with; the JSON needs room, and a
        // logprob-weighted score has no first score token to read in it.
        request.shape = AnswerShape::score(1, 5);
        request.logprobs = false;
        request.topLogprobs = 0;
        request.maxTokens = 256;
    }
    // Two choices show whether the endpoint honours n (Ollama and the llama.cpp server answer one).
    request.n = Provider::create(m_profile.kind)->supportsChoices() ? 2 : 1;
    m_choicesAsked = request.n;
    m_engine = std::make_unique<JudgeEngine>(m_profile, nullptr);
    m_engine->setCacheEnabled(false);
    connect(m_engine.get(), &JudgeEngine::answered, this, &ConnectionTest::onAnswered);
    // Queued so that `finished` never comes from inside start(), even for an immediate failure
    // (a missing key is reported synchronously by the engine).
    QTimer::singleShot(0, this, [this, request] {
        if (m_engine)
            m_engine->submit({request});
    });
}

void ConnectionTest::onAnswered(const JudgeResponse &response)
{
    ConnectionTestResult r;
    r.ok = response.ok();
    r.answer = response.text();
    r.error = response.error;
    r.httpStatus = response.httpStatus;
    r.latencyMs = response.latencyMs;
    r.retries = response.retries;
    r.tokensIn = response.tokensIn;
    r.tokensOut = response.tokensOut;
    r.logprobs = !response.choices.isEmpty() && !response.choices.first().topLogprobs.isEmpty();
    r.choicesAsked = m_choicesAsked;
    r.choicesReturned = int(response.choices.size());
    r.adapted = m_engine->adaptations().reasons();
    r.sent = m_engine->stats().sent;
    if (r.ok) {
        const ParsedAnswer parsed = AnswerParser::scoreOf(response, 1, 5);
        r.scored = parsed.ok;
        r.score = parsed.score;
        r.scoreMethod = AnswerParser::methodName(parsed.method);
        r.scoreError = parsed.error;
    }
    // The engine is released after this signal returns (it is the sender).
    m_engine.release()->deleteLater();
    emit finished(r);
}

} // namespace rubric
