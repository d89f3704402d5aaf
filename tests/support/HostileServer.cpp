#include "HostileServer.h"

#include "FakeHttp.h"

#include <QTcpSocket>

namespace rubric::test {
namespace {

QByteArray validAnswer(const QByteArray &usage)
{
    return QByteArrayLiteral(R"({"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,)"
                             R"("message":{"role":"assistant","content":"Rating: [[3]]"},"finish_reason":"stop"}],)")
           + QByteArrayLiteral(R"("usage":)") + usage + '}';
}

constexpr char pendingKey[] = "hostile_pending"; ///< bytes of HugeBody still to write

} // namespace

HostileServer::HostileServer(Hostility mode, QObject *parent)
    : QTcpServer(parent)
    , m_mode(mode)
{
    connect(this, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = nextPendingConnection()) {
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    });
}

bool HostileServer::listen(quint16 port)
{
    return QTcpServer::listen(QHostAddress::LocalHost, port);
}

QString HostileServer::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1/v1").arg(serverPort());
}

std::optional<Hostility> HostileServer::fromName(const QString &name)
{
    static const QList<QPair<QString, Hostility>> names{{QStringLiteral("deep-json"), Hostility::DeepJson},
                                                        {QStringLiteral("huge-body"), Hostility::HugeBody},
                                                        {QStringLiteral("trickle"), Hostility::Trickle},
                                                        {QStringLiteral("negative-usage"), Hostility::NegativeUsage},
                                                        {QStringLiteral("retry-after-inf"), Hostility::RetryAfterInf},
                                                        {QStringLiteral("redirect"), Hostility::Redirect},
                                                        {QStringLiteral("record"), Hostility::Record}};
    for (const auto &[n, h] : names)
        if (n == name)
            return h;
    return std::nullopt;
}

void HostileServer::onReadyRead(QTcpSocket *socket)
{
    // One request per connection is enough here: read the head, then the body it announces.
    QByteArray buffer = socket->property("hostile_buffer").toByteArray() + socket->readAll();
    const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0) {
        socket->setProperty("hostile_buffer", buffer);
        return;
    }
    qsizetype length = 0;
    for (const QByteArray &line : buffer.left(headEnd).split('\n'))
        if (line.toLower().startsWith("content-length:"))
            length = line.mid(15).trimmed().toLongLong();
    if (buffer.size() < headEnd + 4 + length) {
        socket->setProperty("hostile_buffer", buffer);
        return;
    }
    socket->setProperty("hostile_buffer", QByteArray());
    m_received.append(buffer.left(headEnd + 4 + length));
    answer(socket);
}

void HostileServer::answer(QTcpSocket *socket)
{
    switch (m_mode) {
    case Hostility::DeepJson: {
        const int depth = 100000;
        const QByteArray body = QByteArrayLiteral(R"({"choices":[{"message":{"content":)") + QByteArray(depth, '[')
                                + QByteArray(depth, ']') + QByteArrayLiteral("}}]}");
        socket->write(httpResponse(200, body, true));
        socket->disconnectFromHost();
        return;
    }
    case Hostility::HugeBody: {
        socket->write(QByteArrayLiteral("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ")
                      + QByteArray::number(m_hugeBytes) + QByteArrayLiteral("\r\nConnection: close\r\n\r\n"));
        socket->setProperty(pendingKey, m_hugeBytes);
        connect(socket, &QTcpSocket::bytesWritten, this, [this, socket] { feedHuge(socket); });
        feedHuge(socket);
        return;
    }
    case Hostility::Trickle: {
        const QByteArray whole = httpResponse(200, validAnswer(R"({"prompt_tokens":5,"completion_tokens":2})"), true);
        auto *timer = new QTimer(socket);
        auto sent = std::make_shared<qsizetype>(0);
        connect(timer, &QTimer::timeout, socket, [socket, whole, sent] {
            if (*sent < whole.size())
                socket->write(whole.mid((*sent)++, 1));
        });
        timer->start(1000);
        return;
    }
    case Hostility::NegativeUsage:
        socket->write(httpResponse(
                200,
                validAnswer(R"({"prompt_tokens":-1000000,"completion_tokens":-5,"prompt_tokens_details":)"
                            R"({"cached_tokens":-7},"completion_tokens_details":{"reasoning_tokens":9e99}})"),
                true));
        socket->disconnectFromHost();
        return;
    case Hostility::RetryAfterInf: {
        // The first time a request comes: 429 with an infinite wait; when it comes again, its answer.
        const QByteArray request = m_received.last();
        const QByteArray body = request.mid(request.indexOf("\r\n\r\n") + 4);
        const bool first = !m_limited.contains(body);
        m_limited.insert(body);
        if (first)
            socket->write(httpResponse(429, errorBody(QStringLiteral("slow down"), "rate_limit_exceeded"), true,
                                       QByteArrayLiteral("Retry-After: inf\r\n")));
        else
            socket->write(httpResponse(200, validAnswer(R"({"prompt_tokens":5,"completion_tokens":2})"), true));
        socket->disconnectFromHost();
        return;
    }
    case Hostility::Redirect:
        socket->write(httpResponse(307, QByteArrayLiteral("{}"), true, "Location: " + m_redirectTo + "\r\n"));
        socket->disconnectFromHost();
        return;
    case Hostility::Record:
        socket->write(httpResponse(404, errorBody(QStringLiteral("nothing here"), "not_found"), true));
        socket->disconnectFromHost();
        return;
    }
}

void HostileServer::feedHuge(QTcpSocket *socket)
{
    // A megabyte at a time while less than one is waiting to go: the memory here stays small
    // whatever the client does with what it receives.
    qint64 pending = socket->property(pendingKey).toLongLong();
    static const QByteArray chunk(1024 * 1024, ' ');
    while (pending > 0 && socket->bytesToWrite() < qint64(chunk.size())
           && socket->state() == QAbstractSocket::ConnectedState) {
        const qint64 n = std::min<qint64>(pending, chunk.size());
        socket->write(chunk.constData(), n);
        pending -= n;
    }
    socket->setProperty(pendingKey, pending);
    if (pending == 0 && socket->bytesToWrite() == 0)
        socket->disconnectFromHost();
}

} // namespace rubric::test
