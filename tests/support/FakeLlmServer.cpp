#include "FakeLlmServer.h"

#include "FakeHttp.h"

#include <QCryptographicHash>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <cmath>

namespace rubric::test {

static QByteArray statusText(int status)
{
    switch (status) {
    case 200:
        return QByteArrayLiteral("OK");
    case 400:
        return QByteArrayLiteral("Bad Request");
    case 401:
        return QByteArrayLiteral("Unauthorized");
    case 404:
        return QByteArrayLiteral("Not Found");
    case 429:
        return QByteArrayLiteral("Too Many Requests");
    case 500:
        return QByteArrayLiteral("Internal Server Error");
    default:
        return QByteArrayLiteral("Status");
    }
}

QByteArray httpResponse(int status, const QByteArray &body, bool closeAfter, const QByteArray &extraHeaders,
                        qsizetype announcedLength)
{
    QByteArray out;
    out.reserve(body.size() + 200);
    out += "HTTP/1.1 " + QByteArray::number(status) + ' ' + statusText(status) + "\r\n";
    out += "Content-Type: application/json\r\n";
    out += "Content-Length: " + QByteArray::number(announcedLength >= 0 ? announcedLength : body.size()) + "\r\n";
    out += extraHeaders;
    if (closeAfter)
        out += "Connection: close\r\n";
    out += "\r\n";
    out += body;
    return out;
}

QByteArray errorBody(const QString &message, const char *type)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("error"),
                                      QJsonObject{{QStringLiteral("message"), message},
                                                  {QStringLiteral("type"), QString::fromLatin1(type)}}}})
            .toJson(QJsonDocument::Compact);
}

FakeLlmServer::FakeLlmServer(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    m_server->setMaxPendingConnections(1024);
    connect(m_server, &QTcpServer::newConnection, this, &FakeLlmServer::onNewConnection);
}

FakeLlmServer::~FakeLlmServer() = default;

bool FakeLlmServer::listen(quint16 port)
{
    return m_server->listen(QHostAddress::LocalHost, port);
}

quint16 FakeLlmServer::port() const
{
    return m_server->serverPort();
}

QString FakeLlmServer::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1/v1").arg(port());
}

void FakeLlmServer::shutDown()
{
    m_server->close();
    const QList<QTcpSocket *> sockets = m_buffers.keys();
    for (QTcpSocket *socket : sockets)
        socket->disconnectFromHost(); // what it answered is flushed first: answeredCount() stays exact
}

void FakeLlmServer::setAnswer(const FakeAnswer &answer)
{
    m_judge = [answer](const QJsonObject &) { return answer; };
}

void FakeLlmServer::setFaultRates(double rateLimited, double serverError, double drop, double truncated,
                                  double invalidJson)
{
    m_rates[0] = rateLimited;
    m_rates[1] = serverError;
    m_rates[2] = drop;
    m_rates[3] = truncated;
    m_rates[4] = invalidJson;
}

void FakeLlmServer::scriptFaults(const QVector<FakeFault> &faults)
{
    for (FakeFault f : faults)
        m_script.enqueue(f);
}

int FakeLlmServer::totalFaults() const
{
    int n = 0;
    for (auto it = m_faults.cbegin(); it != m_faults.cend(); ++it)
        if (it.key() != int(FakeFault::None))
            n += it.value();
    return n;
}

void FakeLlmServer::resetCounts()
{
    m_requests = 0;
    m_answered = 0;
    m_refused = 0;
    m_seenBodies.clear();
    m_maxConcurrent = 0;
    m_connections = 0;
    m_latencySumMs = 0;
    m_faults.clear();
    m_recorded.clear();
}

void FakeLlmServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        ++m_connections;
        m_buffers.insert(socket, QByteArray());
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_buffers.remove(socket);
            socket->deleteLater();
        });
    }
}

void FakeLlmServer::onReadyRead(QTcpSocket *socket)
{
    auto it = m_buffers.find(socket);
    if (it == m_buffers.end())
        return;
    it->append(socket->readAll());
    // Requests may arrive in pieces or several at once (pipelining): take every complete one.
    for (;;) {
        QByteArray &buf = m_buffers[socket];
        const qsizetype headerEnd = buf.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;
        RecordedRequest req;
        const QList<QByteArray> lines = buf.left(headerEnd).split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        req.method = requestLine.value(0);
        req.path = requestLine.value(1);
        qsizetype length = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = lines[i].left(colon).trimmed().toLower();
            const QByteArray value = lines[i].mid(colon + 1).trimmed();
            req.headers.insert(name, value);
            if (name == "content-length")
                length = value.toLongLong();
        }
        if (buf.size() < headerEnd + 4 + length)
            return;
        req.body = buf.mid(headerEnd + 4, length);
        buf.remove(0, headerEnd + 4 + length);
        const bool closeAfter = req.headers.value("connection").toLower() == "close";
        handle(socket, req, closeAfter);
    }
}

FakeFault FakeLlmServer::nextFault()
{
    if (!m_script.isEmpty())
        return m_script.dequeue();
    double r = m_rng.generateDouble();
    const FakeFault kinds[] = {FakeFault::RateLimited, FakeFault::ServerError, FakeFault::Drop, FakeFault::Truncated,
                               FakeFault::InvalidJson};
    for (int i = 0; i < 5; ++i) {
        if (r < m_rates[i])
            return kinds[i];
        r -= m_rates[i];
    }
    return FakeFault::None;
}

void FakeLlmServer::setLatencyLogNormal(double medianMs, double sigma, quint32 seed)
{
    m_medianMs = medianMs;
    m_sigma = sigma;
    m_latencyRng.seed(seed);
}

int FakeLlmServer::nextLatencyMs()
{
    if (m_medianMs <= 0)
        return m_latencyMs;
    // Box–Muller: one standard normal from two uniforms.
    const double u1 = std::max(1e-12, m_latencyRng.generateDouble());
    const double u2 = m_latencyRng.generateDouble();
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
    return int(std::lround(m_medianMs * std::exp(m_sigma * z)));
}

void FakeLlmServer::answerStats(QTcpSocket *socket, bool closeAfter)
{
    const QJsonObject stats{{QStringLiteral("requests"), m_requests},
                            {QStringLiteral("answered"), m_answered},
                            {QStringLiteral("distinct"), distinctCount()},
                            {QStringLiteral("latency_sum_ms"), m_latencySumMs},
                            {QStringLiteral("max_concurrent"), m_maxConcurrent},
                            {QStringLiteral("batches"), m_batchesCreated},
                            {QStringLiteral("batch_lines"), m_batchLines},
                            {QStringLiteral("batch_lines_distinct"), batchLinesDistinct()}};
    socket->write(httpResponse(200, QJsonDocument(stats).toJson(QJsonDocument::Compact), closeAfter));
    if (closeAfter)
        socket->disconnectFromHost();
}

void FakeLlmServer::handle(QTcpSocket *socket, const RecordedRequest &request, bool closeAfter)
{
    if (request.method == "GET" && request.path == "/fake/stats") {
        answerStats(socket, closeAfter);
        return;
    }
    if (handleBatch(socket, request, closeAfter))
        return;
    ++m_requests;
    m_seenBodies.insert(
            QCryptographicHash::hash(QByteArray(request.path + '\n' + request.body), QCryptographicHash::Sha1));
    if (m_recording)
        m_recorded.append(request);
    const FakeFault fault = nextFault();
    ++m_faults[int(fault)];
    ++m_pendingNow;
    m_maxConcurrent = std::max(m_maxConcurrent, m_pendingNow);
    emit requestReceived(m_requests);
    QPointer<QTcpSocket> guard(socket);
    auto go = [this, guard, request, fault, closeAfter] {
        --m_pendingNow;
        if (guard && guard->state() == QAbstractSocket::ConnectedState)
            respond(guard, request, fault, closeAfter);
    };
    const int latency = nextLatencyMs();
    m_latencySumMs += latency;
    if (latency > 0)
        QTimer::singleShot(latency, Qt::PreciseTimer, this, go);
    else
        QTimer::singleShot(0, this, go);
}

void FakeLlmServer::respond(QTcpSocket *socket, const RecordedRequest &request, FakeFault fault, bool closeAfter)
{
    switch (fault) {
    case FakeFault::RateLimited:
        socket->write(httpResponse(429, errorBody(QStringLiteral("rate limit reached, slow down"), "rate_limit_error"),
                                   closeAfter, "Retry-After: " + QByteArray::number(m_retryAfter) + "\r\n"));
        break;
    case FakeFault::ServerError:
        socket->write(
                httpResponse(500, errorBody(QStringLiteral("the fake server failed"), "server_error"), closeAfter));
        break;
    case FakeFault::BadRequest:
        socket->write(httpResponse(
                400, errorBody(QStringLiteral("model 'nope' does not exist"), "invalid_request_error"), closeAfter));
        break;
    case FakeFault::Drop:
        socket->abort();
        return;
    case FakeFault::InvalidJson:
        socket->write(httpResponse(200, QByteArrayLiteral("{\"choices\": [ this is not json"), closeAfter));
        break;
    case FakeFault::Truncated:
    case FakeFault::None: {
        const QJsonObject body = QJsonDocument::fromJson(request.body).object();
        if (const QByteArray refused = request.path.endsWith("/chat/completions") ? refusal(body) : QByteArray();
            !refused.isEmpty()) {
            ++m_refused;
            socket->write(httpResponse(400, refused, closeAfter));
            break;
        }
        const FakeAnswer answer = m_judge ? m_judge(body) : FakeAnswer();
        if (answer.httpStatus != 200) {
            socket->write(httpResponse(answer.httpStatus, errorBody(answer.errorMessage, "error"), closeAfter));
            break;
        }
        const QByteArray payload = answerBody(request, body, answer);
        if (fault == FakeFault::Truncated) {
            socket->write(httpResponse(200, payload.left(payload.size() / 2), true, {}, payload.size()));
            socket->disconnectFromHost();
            return;
        }
        ++m_answered;
        socket->write(httpResponse(200, payload, closeAfter));
        break;
    }
    }
    if (closeAfter)
        socket->disconnectFromHost();
}

QByteArray FakeLlmServer::answerBody(const RecordedRequest &request, const QJsonObject &body,
                                     const FakeAnswer &answer) const
{
    const bool anthropic = request.path.endsWith("/messages");
    int promptChars = 0;
    for (const QJsonValue &m : body.value(QStringLiteral("messages")).toArray())
        promptChars += int(m.toObject().value(QStringLiteral("content")).toString().size());
    promptChars += int(systemText(body).size());
    const int tokensIn = answer.promptTokens >= 0 ? answer.promptTokens : std::max(1, promptChars / 4);
    const int tokensOut
            = answer.completionTokens >= 0 ? answer.completionTokens : std::max(1, int(answer.text.size()) / 4);
    const QString model = body.value(QStringLiteral("model")).toString();
    const QString id = QStringLiteral("fake-%1").arg(const_cast<FakeLlmServer *>(this)->m_ids++);
    if (anthropic) {
        const QJsonObject out{
                {QStringLiteral("id"), id},
                {QStringLiteral("type"), QStringLiteral("message")},
                {QStringLiteral("role"), QStringLiteral("assistant")},
                {QStringLiteral("model"), model},
                {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                                   {QStringLiteral("text"), answer.text}}}},
                {QStringLiteral("stop_reason"),
                 answer.cutOff ? QStringLiteral("max_tokens") : QStringLiteral("end_turn")},
                // Anthropic's input_tokens leaves out what was read from the cache.
                {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), tokensIn - answer.cachedTokens},
                                                      {QStringLiteral("cache_read_input_tokens"), answer.cachedTokens},
                                                      {QStringLiteral("cache_creation_input_tokens"), 0},
                                                      {QStringLiteral("output_tokens"), tokensOut}}}};
        return QJsonDocument(out).toJson(QJsonDocument::Compact);
    }
    const int n = m_ignoreN ? 1 : std::max(1, body.value(QStringLiteral("n")).toInt(1));
    const bool logprobs = body.value(QStringLiteral("logprobs")).toBool();
    const int top = body.value(QStringLiteral("top_logprobs")).toInt(0);
    QJsonArray choices;
    int completionTokens = 0, reasoningTokens = 0;
    for (int i = 0; i < n; ++i) {
        const QString text = i == 0 ? answer.text : answer.moreChoices.value(i - 1, answer.text);
        const Turn t = turn(body, text, answer.cutOff, tokensOut);
        completionTokens += t.completionTokens;
        reasoningTokens += t.reasoningTokens;
        QJsonObject choice{{QStringLiteral("index"), i},
                           {QStringLiteral("message"), t.message},
                           {QStringLiteral("finish_reason"), t.finishReason}};
        if (logprobs && !answer.topLogprobs.isEmpty()) {
            QJsonArray content;
            // A model that thinks in the text is scored token by token from its first token on: the
            // thinking's tokens come first, its digits with other digits beside them.
            const QString said = t.message.value(QStringLiteral("content")).toString();
            if (const qsizetype close = said.indexOf(QLatin1String("</think>")); close >= 0) {
                static const QRegularExpression piece(QStringLiteral("\\d|\\w+|\\s+|[^\\w\\s]+"));
                for (auto it = piece.globalMatch(said.left(close + 8) + QStringLiteral("\n\n")); it.hasNext();) {
                    const QString tok = it.next().captured(0);
                    QJsonArray topArr{QJsonObject{{QStringLiteral("token"), tok}, {QStringLiteral("logprob"), -0.05}}};
                    if (tok.size() == 1 && tok.at(0).isDigit())
                        for (const char *other : {"1", "2", "3", "4", "5"})
                            if (tok != QLatin1String(other))
                                topArr.append(QJsonObject{{QStringLiteral("token"), QString::fromLatin1(other)},
                                                          {QStringLiteral("logprob"), -4.0}});
                    content.append(QJsonObject{{QStringLiteral("token"), tok},
                                               {QStringLiteral("logprob"), -0.05},
                                               {QStringLiteral("top_logprobs"), topArr}});
                }
            }
            for (const auto &alts : answer.topLogprobs) {
                if (alts.isEmpty())
                    continue;
                QJsonArray topArr;
                for (qsizetype k = 0; k < alts.size() && (top <= 0 || k < top); ++k)
                    topArr.append(QJsonObject{{QStringLiteral("token"), alts[k].token},
                                              {QStringLiteral("logprob"), alts[k].logprob}});
                content.append(QJsonObject{{QStringLiteral("token"), alts.first().token},
                                           {QStringLiteral("logprob"), alts.first().logprob},
                                           {QStringLiteral("top_logprobs"), topArr}});
            }
            choice.insert(QStringLiteral("logprobs"), QJsonObject{{QStringLiteral("content"), content}});
        } else {
            choice.insert(QStringLiteral("logprobs"), QJsonValue::Null);
        }
        choices.append(choice);
    }
    QJsonObject usage{{QStringLiteral("prompt_tokens"), tokensIn},
                      {QStringLiteral("completion_tokens"), completionTokens},
                      {QStringLiteral("total_tokens"), tokensIn + completionTokens},
                      {QStringLiteral("prompt_tokens_details"),
                       QJsonObject{{QStringLiteral("cached_tokens"), answer.cachedTokens}}}};
    if (m_kind == FakeModelKind::OpenAiReasoning) // OpenAI bills the hidden thinking and says how much
        usage.insert(QStringLiteral("completion_tokens_details"),
                     QJsonObject{{QStringLiteral("reasoning_tokens"), reasoningTokens}});
    const QJsonObject out{{QStringLiteral("id"), id},
                          {QStringLiteral("object"), QStringLiteral("chat.completion")},
                          {QStringLiteral("model"), model},
                          {QStringLiteral("choices"), choices},
                          {QStringLiteral("usage"), usage}};
    return QJsonDocument(out).toJson(QJsonDocument::Compact);
}

} // namespace rubric::test
