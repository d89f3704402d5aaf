// The fake endpoint's provider batches (tests only): OpenAI's files and batches, Anthropic's
// message batches. A batch ends setBatchDelayMs() after it was created; its lines are then
// answered as interactive calls would be, some failing (setBatchLineFailureRate()), or half of
// them expiring (setExpireNextBatch()).
#include "FakeHttp.h"
#include "FakeLlmServer.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>

namespace rubric::test {

struct FakeLlmServer::FakeBatch
{
    QString id;
    bool anthropic = false;
    QString inputFile;
    QVector<QPair<QString, QJsonObject>> lines; ///< custom_id → request body
    QString chatPath;                           ///< OpenAI: the lines' "url"
    qint64 createdMs = 0;
    bool expire = false;
    bool ended = false;
    int completed = 0;
    int failed = 0;
    QString outputFile, errorFile; ///< OpenAI
    QByteArray results;            ///< Anthropic
};

namespace {

/// The file part of a multipart/form-data body.
QByteArray multipartFile(const QByteArray &contentType, const QByteArray &body)
{
    const qsizetype at = contentType.indexOf("boundary=");
    if (at < 0)
        return {};
    QByteArray boundary = contentType.mid(at + 9).trimmed();
    if (boundary.startsWith('"'))
        boundary = boundary.mid(1, boundary.size() - 2);
    const QByteArray marker = "--" + boundary;
    qsizetype pos = 0;
    while ((pos = body.indexOf(marker, pos)) >= 0) {
        const qsizetype headersEnd = body.indexOf("\r\n\r\n", pos);
        const qsizetype next = body.indexOf(marker, pos + marker.size());
        if (headersEnd < 0 || next < 0)
            break;
        if (body.mid(pos, headersEnd - pos).contains("name=\"file\"")) {
            QByteArray content = body.mid(headersEnd + 4, next - headersEnd - 4);
            if (content.endsWith("\r\n"))
                content.chop(2);
            return content;
        }
        pos = next;
    }
    return {};
}

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

bool FakeLlmServer::handleBatch(QTcpSocket *socket, const RecordedRequest &request, bool closeAfter)
{
    const QByteArray path = request.path;
    const auto reply = [&](int status, const QByteArray &body) {
        socket->write(httpResponse(status, body, closeAfter));
        if (closeAfter)
            socket->disconnectFromHost();
        return true;
    };
    const auto notFound = [&] { return reply(404, errorBody(QStringLiteral("no such batch or file"), "not_found")); };
    const qint64 now = QDateTime::currentMSecsSinceEpoch();

    // Creating a batch: OpenAI uploads the file first.
    if (request.method == "POST" && path.endsWith("/files")) {
        const QByteArray content = multipartFile(request.headers.value("content-type"), request.body);
        if (content.isEmpty())
            return reply(400, errorBody(QStringLiteral("no file in the upload"), "invalid_request_error"));
        const QString id = QStringLiteral("file-%1").arg(m_files.size() + 1);
        m_files.insert(id, content);
        return reply(200, json({{QStringLiteral("id"), id},
                                {QStringLiteral("object"), QStringLiteral("file")},
                                {QStringLiteral("bytes"), int(content.size())},
                                {QStringLiteral("purpose"), QStringLiteral("batch")}}));
    }
    const bool anthropicCreate = request.method == "POST" && path.endsWith("/messages/batches");
    const bool openAiCreate = request.method == "POST" && path.endsWith("/batches") && !anthropicCreate;
    if (anthropicCreate || openAiCreate) {
        if (m_failCreations > 0) {
            --m_failCreations;
            return reply(500, errorBody(QStringLiteral("the fake server could not create the batch"), "server_error"));
        }
        auto batch = std::make_shared<FakeBatch>();
        batch->anthropic = anthropicCreate;
        const QJsonObject body = QJsonDocument::fromJson(request.body).object();
        if (anthropicCreate) {
            for (const QJsonValue &r : body.value(QStringLiteral("requests")).toArray()) {
                const QJsonObject o = r.toObject();
                batch->lines.append({o.value(QStringLiteral("custom_id")).toString(),
                                     o.value(QStringLiteral("params")).toObject()});
            }
        } else {
            batch->inputFile = body.value(QStringLiteral("input_file_id")).toString();
            if (!m_files.contains(batch->inputFile))
                return reply(400, errorBody(QStringLiteral("no such file: %1").arg(batch->inputFile),
                                            "invalid_request_error"));
            for (const QByteArray &line : m_files.value(batch->inputFile).split('\n')) {
                if (line.trimmed().isEmpty())
                    continue;
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                batch->chatPath = o.value(QStringLiteral("url")).toString();
                batch->lines.append(
                        {o.value(QStringLiteral("custom_id")).toString(), o.value(QStringLiteral("body")).toObject()});
            }
        }
        if (batch->lines.isEmpty())
            return reply(400, errorBody(QStringLiteral("the batch has no requests"), "invalid_request_error"));
        for (const auto &[id, lineBody] : std::as_const(batch->lines)) {
            ++m_batchLines;
            m_seenLines.insert(QCryptographicHash::hash(json(lineBody), QCryptographicHash::Sha1));
        }
        ++m_batchesCreated;
        batch->id
                = (anthropicCreate ? QStringLiteral("msgbatch_%1") : QStringLiteral("batch_%1")).arg(m_batchesCreated);
        batch->createdMs = now;
        batch->expire = std::exchange(m_expireNext, false);
        m_batches.insert(batch->id, batch);
        m_batchOrder.append(batch->id);
        if (m_creationDelayMs > 0) {
            QPointer<QTcpSocket> guard(socket);
            const QByteArray answer = batchObject(*batch);
            QTimer::singleShot(m_creationDelayMs, this, [guard, answer, closeAfter] {
                if (guard && guard->state() == QAbstractSocket::ConnectedState)
                    guard->write(httpResponse(200, answer, closeAfter));
            });
            return true;
        }
        return reply(200, batchObject(*batch));
    }

    // OpenAI: the list of batches, newest first (`limit`, `after`).
    if (request.method == "GET" && (path.endsWith("/batches") || path.contains("/batches?"))) {
        const QUrlQuery query(QUrl(QString::fromUtf8(path)).query());
        const int limit = std::clamp(query.queryItemValue(QStringLiteral("limit")).toInt(), 1, 100);
        const QString after = query.queryItemValue(QStringLiteral("after"));
        QJsonArray data;
        bool started = after.isEmpty();
        bool more = false;
        for (qsizetype i = m_batchOrder.size() - 1; i >= 0; --i) {
            const QString &id = m_batchOrder[i];
            if (!started) {
                started = id == after;
                continue;
            }
            if (data.size() == limit) {
                more = true;
                break;
            }
            auto batch = m_batches.value(id);
            if (!batch->anthropic)
                data.append(QJsonDocument::fromJson(batchObject(*batch)).object());
        }
        return reply(200, json({{QStringLiteral("object"), QStringLiteral("list")},
                                {QStringLiteral("data"), data},
                                {QStringLiteral("has_more"), more}}));
    }

    // The state of a batch, and its results.
    if (request.method == "GET" && (path.contains("/batches/"))) {
        const QByteArray tail = path.mid(path.indexOf("/batches/") + 9);
        const bool results = tail.endsWith("/results");
        const QString id = QString::fromUtf8(results ? tail.left(tail.size() - 8) : tail);
        const auto batch = m_batches.value(id);
        if (!batch)
            return notFound();
        if (!batch->ended && now - batch->createdMs >= m_batchDelayMs)
            endBatch(*batch);
        if (!results && m_failPolls > 0) {
            --m_failPolls;
            return reply(500, errorBody(QStringLiteral("the fake poll failed"), "server_error"));
        }
        if (results)
            return batch->ended ? reply(200, batch->results)
                                : reply(400, errorBody(QStringLiteral("not ended yet"), "invalid_request_error"));
        return reply(200, batchObject(*batch));
    }
    if (request.method == "GET" && path.contains("/files/") && path.endsWith("/content")) {
        const qsizetype from = path.indexOf("/files/") + 7;
        const QString id = QString::fromUtf8(path.mid(from, path.size() - from - 8));
        if (!m_files.contains(id))
            return notFound();
        return reply(200, m_files.value(id));
    }
    return false;
}

void FakeLlmServer::endBatch(FakeBatch &batch)
{
    batch.ended = true;
    QByteArray output, errors;
    const qsizetype answerable = batch.expire ? batch.lines.size() / 2 : batch.lines.size();
    for (qsizetype i = 0; i < batch.lines.size(); ++i) {
        const auto &[customId, body] = batch.lines[i];
        RecordedRequest as;
        as.method = "POST";
        as.path = batch.anthropic ? QByteArrayLiteral("/v1/messages") : batch.chatPath.toUtf8();
        as.body = json(body);
        const bool expired = i >= answerable;
        const bool fails = !expired && m_batchFailureRate > 0 && m_rng.generateDouble() < m_batchFailureRate;
        const FakeAnswer answer = expired || fails ? FakeAnswer() : (m_judge ? m_judge(body) : FakeAnswer());
        const bool ok = !expired && !fails && answer.httpStatus == 200;
        QJsonObject line{{QStringLiteral("custom_id"), customId}};
        if (batch.anthropic) {
            QJsonObject result;
            if (ok) {
                result = {{QStringLiteral("type"), QStringLiteral("succeeded")},
                          {QStringLiteral("message"), QJsonDocument::fromJson(answerBody(as, body, answer)).object()}};
            } else if (expired) {
                result = {{QStringLiteral("type"), QStringLiteral("expired")}};
            } else {
                result = {{QStringLiteral("type"), QStringLiteral("errored")},
                          {QStringLiteral("error"),
                           QJsonObject{{QStringLiteral("type"), QStringLiteral("error")},
                                       {QStringLiteral("error"),
                                        QJsonObject{{QStringLiteral("type"), QStringLiteral("api_error")},
                                                    {QStringLiteral("message"),
                                                     fails ? QStringLiteral("the fake batch line failed")
                                                           : answer.errorMessage}}}}}};
            }
            line.insert(QStringLiteral("result"), result);
            output += json(line) + '\n';
        } else {
            line.insert(QStringLiteral("id"), QStringLiteral("batch_req_%1").arg(i));
            if (ok) {
                line.insert(QStringLiteral("response"),
                            QJsonObject{{QStringLiteral("status_code"), 200},
                                        {QStringLiteral("request_id"), QStringLiteral("req_%1").arg(i)},
                                        {QStringLiteral("body"),
                                         QJsonDocument::fromJson(answerBody(as, body, answer)).object()}});
                line.insert(QStringLiteral("error"), QJsonValue::Null);
                output += json(line) + '\n';
            } else if (expired) {
                line.insert(QStringLiteral("response"), QJsonValue::Null);
                line.insert(QStringLiteral("error"),
                            QJsonObject{{QStringLiteral("code"), QStringLiteral("batch_expired")},
                                        {QStringLiteral("message"),
                                         QStringLiteral("This request could not be executed before the completion "
                                                        "window expired.")}});
                errors += json(line) + '\n';
            } else {
                const int status = fails ? 500 : answer.httpStatus;
                line.insert(QStringLiteral("response"),
                            QJsonObject{{QStringLiteral("status_code"), status},
                                        {QStringLiteral("body"),
                                         QJsonDocument::fromJson(
                                                 errorBody(fails ? QStringLiteral("the fake batch line failed")
                                                                 : answer.errorMessage,
                                                           "server_error"))
                                                 .object()}});
                line.insert(QStringLiteral("error"), QJsonValue::Null);
                errors += json(line) + '\n';
            }
        }
        if (ok) {
            ++batch.completed;
            ++m_batchAnswered;
        } else {
            ++batch.failed;
        }
    }
    if (m_damagedResults && !output.isEmpty()) {
        const qsizetype firstEnd = output.indexOf('\n') + 1;
        output = output.left(firstEnd) + QByteArrayLiteral("{\"custom_id\": \"cut off\n") + output.mid(firstEnd)
                 + output;
    }
    if (batch.anthropic) {
        batch.results = output;
    } else {
        if (!output.isEmpty()) {
            batch.outputFile = QStringLiteral("file-%1").arg(m_files.size() + 1);
            m_files.insert(batch.outputFile, output);
        }
        if (!errors.isEmpty()) {
            batch.errorFile = QStringLiteral("file-%1").arg(m_files.size() + 1);
            m_files.insert(batch.errorFile, errors);
        }
    }
}

QByteArray FakeLlmServer::batchObject(FakeBatch &batch)
{
    const int total = int(batch.lines.size());
    // Until it ends, the counts grow with the time it has been running.
    const double share
            = m_batchDelayMs > 0
                      ? std::min(1.0, double(QDateTime::currentMSecsSinceEpoch() - batch.createdMs) / m_batchDelayMs)
                      : 1.0;
    const int done = batch.ended ? batch.completed : int(total * share * 0.99);
    if (batch.anthropic) {
        QJsonObject o{{QStringLiteral("id"), batch.id},
                      {QStringLiteral("type"), QStringLiteral("message_batch")},
                      {QStringLiteral("processing_status"),
                       batch.ended ? QStringLiteral("ended") : QStringLiteral("in_progress")},
                      {QStringLiteral("request_counts"),
                       QJsonObject{{QStringLiteral("processing"), batch.ended ? 0 : total - done},
                                   {QStringLiteral("succeeded"), done},
                                   {QStringLiteral("errored"), batch.ended && !batch.expire ? batch.failed : 0},
                                   {QStringLiteral("canceled"), 0},
                                   {QStringLiteral("expired"), batch.ended && batch.expire ? batch.failed : 0}}},
                      {QStringLiteral("results_url"),
                       batch.ended
                               ? QJsonValue(QStringLiteral("%1/messages/batches/%2/results").arg(baseUrl(), batch.id))
                               : QJsonValue(QJsonValue::Null)}};
        return json(o);
    }
    const QString status = batch.ended ? (batch.expire ? QStringLiteral("expired") : QStringLiteral("completed"))
                                       : QStringLiteral("in_progress");
    QJsonObject o{{QStringLiteral("id"), batch.id},
                  {QStringLiteral("object"), QStringLiteral("batch")},
                  {QStringLiteral("endpoint"), batch.chatPath},
                  {QStringLiteral("input_file_id"), batch.inputFile},
                  {QStringLiteral("completion_window"), QStringLiteral("24h")},
                  {QStringLiteral("status"), status},
                  {QStringLiteral("output_file_id"),
                   batch.outputFile.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(batch.outputFile)},
                  {QStringLiteral("error_file_id"),
                   batch.errorFile.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(batch.errorFile)},
                  {QStringLiteral("request_counts"),
                   QJsonObject{{QStringLiteral("total"), total},
                               {QStringLiteral("completed"), done},
                               {QStringLiteral("failed"), batch.ended ? batch.failed : 0}}}};
    return json(o);
}

} // namespace rubric::test
