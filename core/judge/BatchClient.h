#pragma once

#include "data/JudgeTypes.h"
#include "util/Result.h"

#include <QNetworkRequest>
#include <QObject>

#include <functional>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace rubric {

/// The wire protocol of a provider's batch interface, for one endpoint:
///  - OpenAI-compatible: the requests as a JSONL file uploaded to `/files` (purpose "batch"), a batch
///    created at `/batches` over it, its state from `/batches/{id}`, the output and error files
///    from `/files/{id}/content`;
///  - Anthropic: the requests in the body of `/messages/batches`, its state from
///    `/messages/batches/{id}`, the results (JSONL) from its `results_url`.
/// Result lines are matched to their request by `custom_id`. Asynchronous; errors name the HTTP
/// status and the server's message (secrets removed by the engine's `redact`).
class BatchClient : public QObject
{
    Q_OBJECT
public:
    struct Line
    {
        QString customId;
        QByteArray body; ///< the request's JSON body, as an interactive call would POST it
    };
    struct Created
    {
        QString remoteId;
        QString inputFile; ///< OpenAI's uploaded file ("" for Anthropic)
    };
    struct Poll
    {
        QString status; ///< the provider's own word
        bool ended = false;
        int total = 0;
        int completed = 0; ///< answered (OpenAI: completed; Anthropic: succeeded)
        int failed = 0;    ///< failed, errored, expired or cancelled lines
        QString output;    ///< OpenAI: the output file; Anthropic: the results URL
        QString errors;    ///< OpenAI: the error file
    };
    struct Outcome
    {
        QString customId;
        bool ok = false;
        int httpStatus = 0;
        QByteArray body; ///< a successful line's response body (what an interactive call returns)
        QString error;   ///< why a line failed
    };
    /// A results file as read: its lines, and the lines that could not be read ("line 7: …"),
    /// which are skipped so that one bad line does not make the whole file unreadable.
    struct Results
    {
        QVector<Outcome> outcomes;
        QStringList unreadable;
    };
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    /// `baseUrl` as in the profile; `headers` those of an interactive call (the key included).
    BatchClient(ProviderKind kind, const QString &baseUrl, Headers headers, int timeoutMs, QNetworkAccessManager *nam,
                std::function<QString(const QString &)> redact, QObject *parent = nullptr);

    /// Creates a batch of `lines`. OpenAI: `uploaded` hears of the input file before the batch is
    /// created over it, so that a process stopped in between can find its batch (findByInputFile).
    void create(const QVector<Line> &lines, std::function<void(Result<Created>)> done,
                std::function<void(const QString &inputFile)> uploaded = {});
    /// OpenAI: the batch created over `inputFile`, "" when there is none (the first 1,000 batches
    /// listed, newest first).
    void findByInputFile(const QString &inputFile, std::function<void(Result<QString>)> done);
    void poll(const QString &remoteId, std::function<void(Result<Poll>)> done);
    /// The lines of an ended batch (both files for OpenAI).
    /// Anthropic's `results_url` is fetched with the key only when it is on the endpoint's own
    /// origin (scheme, host and port); another origin is refused with the reason.
    void results(const Poll &poll, std::function<void(Result<Results>)> done);

    /// Reads a results file (JSONL) of either provider; lines that are not results with a
    /// `custom_id` are skipped and named in `unreadable`.
    static Results parseResults(ProviderKind kind, const QByteArray &jsonl);
    /// Whether `url` is on the same origin (scheme, host, port) as `base`.
    static bool sameOrigin(const QUrl &url, const QUrl &base);
    /// Reads a batch object (the answer to create and to poll).
    static Result<Poll> parsePoll(ProviderKind kind, const QByteArray &body);

private:
    using Reply = std::function<void(Result<QByteArray>)>;
    QNetworkRequest request(const QString &url) const;
    void finish(QNetworkReply *reply, const QString &what, Reply done);
    /// Why `reply` failed (network error or a status outside 2xx, with the server's message), if it did.
    std::optional<Error> failure(QNetworkReply *reply, const QString &what, const QByteArray &body) const;
    void fetch(const QString &url, const QString &what, Reply done);
    /// Downloads a results file and reads it line by line as it arrives.
    void streamResults(const QString &url, const QString &what, std::function<void(Result<Results>)> done);
    /// Reads line `lineNo` [begin, end) of a results file into `out` (skipped with the reason when unreadable).
    static void readLine(ProviderKind kind, const char *begin, const char *end, int lineNo, Results &out);
    void findFrom(const QString &inputFile, const QString &after, int page, std::function<void(Result<QString>)> done);

    ProviderKind m_kind;
    QString m_base;
    QString m_chatPath; ///< OpenAI: the URL path of interactive calls ("/v1/chat/completions")
    Headers m_headers;
    int m_timeoutMs;
    QNetworkAccessManager *m_nam;
    std::function<QString(const QString &)> m_redact;
};

} // namespace rubric
