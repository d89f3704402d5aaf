#pragma once

// A loopback endpoint that misbehaves on purpose (tests only): what a misconfigured proxy, a
// broken local server or a malicious host may send to the judge engine.
#include <QByteArray>
#include <QList>
#include <QSet>
#include <QTcpServer>
#include <QTimer>

#include <optional>

class QTcpSocket;

namespace rubric::test {

enum class Hostility {
    DeepJson,      ///< a 200 answer nested 100,000 levels deep ("[[[[…")
    HugeBody,      ///< a 200 answer of 300 MB, written as the socket drains
    Trickle,       ///< a 200 answer sent one byte a second
    NegativeUsage, ///< a valid answer whose usage reports negative and absurd token counts
    RetryAfterInf, ///< 429 with `Retry-After: inf`, then a valid answer
    Redirect,      ///< 307 to another origin (redirectTo)
    Record,        ///< answers 404 and records every request it receives (a listener)
};

class HostileServer : public QTcpServer
{
public:
    explicit HostileServer(Hostility mode, QObject *parent = nullptr);
    bool listen(quint16 port = 0);
    QString baseUrl() const;
    static std::optional<Hostility> fromName(const QString &name);

    /// Where Redirect sends every request.
    void setRedirectTo(const QString &url) { m_redirectTo = url.toUtf8(); }
    /// The size HugeBody announces and sends.
    void setHugeBytes(qint64 bytes) { m_hugeBytes = bytes; }
    /// Every request received (head and body), in order.
    const QList<QByteArray> &received() const { return m_received; }
    int requestCount() const { return int(m_received.size()); }

private:
    void onReadyRead(QTcpSocket *socket);
    void answer(QTcpSocket *socket);
    void feedHuge(QTcpSocket *socket);

    Hostility m_mode;
    QByteArray m_redirectTo;
    qint64 m_hugeBytes = 300LL * 1024 * 1024;
    QList<QByteArray> m_received;
    QSet<QByteArray> m_limited; ///< RetryAfterInf: the requests answered 429 once
};

} // namespace rubric::test
