#include "judge/BatchClient.h"

#include "judge/EndpointJson.h"
#include "judge/Provider.h"

#include <QCoreApplication>
#include <QHttpMultiPart>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QUrl>

#include <nlohmann/json.hpp>

namespace rubric {
namespace {

QString str(const nlohmann::json &j, const char *key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

int num(const nlohmann::json &j, const char *key)
{
    return endpointJson::count(j, key);
}

/// An error object's message: {"message": …} or {"error": {"message": …}} or a string.
QString errorText(const nlohmann::json &e)
{
    if (e.is_string())
        return QString::fromStdString(e.get<std::string>());
    if (!e.is_object())
        return {};
    if (auto inner = e.find("error"); inner != e.end() && inner->is_object())
        return errorText(*inner);
    const QString message = str(e, "message");
    const QString code = str(e, "code").isEmpty() ? str(e, "type") : str(e, "code");
    if (code.isEmpty())
        return message;
    return message.isEmpty() ? code : QString(code + QStringLiteral(": ") + message);
}

} // namespace

BatchClient::BatchClient(ProviderKind kind, const QString &baseUrl, Headers headers, int timeoutMs,
                         QNetworkAccessManager *nam, std::function<QString(const QString &)> redact, QObject *parent)
    : QObject(parent)
    , m_kind(kind)
    , m_base(baseUrl.trimmed())
    , m_headers(std::move(headers))
    , m_timeoutMs(timeoutMs)
    , m_nam(nam)
    , m_redact(std::move(redact))
{
    while (m_base.endsWith(QLatin1Char('/')))
        m_base.chop(1);
    m_chatPath = QUrl(m_base + QStringLiteral("/chat/completions")).path();
}

QNetworkRequest BatchClient::request(const QString &url) const
{
    QNetworkRequest r{QUrl(url)};
    for (const auto &[name, value] : m_headers)
        r.setRawHeader(name, value);
    r.setTransferTimeout(m_timeoutMs);
    // The key and the custom headers never follow a redirect to another origin.
    r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::SameOriginRedirectPolicy);
    r.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    return r;
}

void BatchClient::finish(QNetworkReply *reply, const QString &what, Reply done)
{
    connect(reply, &QNetworkReply::finished, this, [this, reply, what, done = std::move(done)] {
        reply->deleteLater();
        const QByteArray body = reply->readAll();
        if (auto error = failure(reply, what, body))
            return done(*error);
        done(body);
    });
}

std::optional<Error> BatchClient::failure(QNetworkReply *reply, const QString &what, const QByteArray &body) const
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 0 || (reply->error() != QNetworkReply::NoError && int(reply->error()) < 100))
        return makeError(m_redact(tr("%1: network error: %2").arg(what, reply->errorString())));
    if (status < 200 || status >= 300)
        return makeError(m_redact(
                tr("%1: HTTP %2: %3").arg(what).arg(status).arg(Provider::create(m_kind)->errorMessage(body))));
    return std::nullopt;
}

void BatchClient::fetch(const QString &url, const QString &what, Reply done)
{
    finish(m_nam->get(request(url)), what, std::move(done));
}

void BatchClient::create(const QVector<Line> &lines, std::function<void(Result<Created>)> done,
                         std::function<void(const QString &)> uploaded)
{
    if (m_kind == ProviderKind::Anthropic) {
        nlohmann::json requests = nlohmann::json::array();
        for (const Line &l : lines) {
            nlohmann::json params = nlohmann::json::parse(l.body.constBegin(), l.body.constEnd(), nullptr, false);
            requests.push_back({{"custom_id", l.customId.toStdString()}, {"params", std::move(params)}});
        }
        const nlohmann::json body = {{"requests", std::move(requests)}};
        QNetworkRequest r = request(m_base + QStringLiteral("/messages/batches"));
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        finish(m_nam->post(r, QByteArray::fromStdString(body.dump())), tr("creating the batch"),
               [done](Result<QByteArray> reply) {
                   if (!reply)
                       return done(reply.error());
                   const nlohmann::json j = endpointJson::parse(*reply);
                   const QString id = j.is_object() ? str(j, "id") : QString();
                   if (id.isEmpty())
                       return done(makeError(tr("creating the batch: the answer names no batch id")));
                   done(Created{id, {}});
               });
        return;
    }

    // OpenAI: one JSONL line per request, uploaded as a file, then a batch over it.
    QByteArray jsonl;
    for (const Line &l : lines) {
        nlohmann::json body = nlohmann::json::parse(l.body.constBegin(), l.body.constEnd(), nullptr, false);
        const nlohmann::json line = {{"custom_id", l.customId.toStdString()},
                                     {"method", "POST"},
                                     {"url", m_chatPath.toStdString()},
                                     {"body", std::move(body)}};
        jsonl += QByteArray::fromStdString(line.dump());
        jsonl += '\n';
    }
    auto *multi = new QHttpMultiPart(QHttpMultiPart::FormDataType);
    QHttpPart purpose;
    purpose.setHeader(QNetworkRequest::ContentDispositionHeader, QByteArrayLiteral("form-data; name=\"purpose\""));
    purpose.setBody(QByteArrayLiteral("batch"));
    QHttpPart file;
    file.setHeader(QNetworkRequest::ContentDispositionHeader,
                   QByteArrayLiteral("form-data; name=\"file\"; filename=\"requests.jsonl\""));
    file.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/jsonl"));
    file.setBody(jsonl);
    multi->append(purpose);
    multi->append(file);
    QNetworkReply *upload = m_nam->post(request(m_base + QStringLiteral("/files")), multi);
    multi->setParent(upload);
    finish(upload, tr("uploading the batch file"), [this, done, uploaded](Result<QByteArray> reply) {
        if (!reply)
            return done(reply.error());
        const nlohmann::json j = endpointJson::parse(*reply);
        const QString fileId = j.is_object() ? str(j, "id") : QString();
        if (fileId.isEmpty())
            return done(makeError(tr("uploading the batch file: the answer names no file id")));
        if (uploaded)
            uploaded(fileId);
        const nlohmann::json body = {{"input_file_id", fileId.toStdString()},
                                     {"endpoint", m_chatPath.toStdString()},
                                     {"completion_window", "24h"}};
        QNetworkRequest r = request(m_base + QStringLiteral("/batches"));
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        finish(m_nam->post(r, QByteArray::fromStdString(body.dump())), tr("creating the batch"),
               [done, fileId](Result<QByteArray> created) {
                   if (!created)
                       return done(created.error());
                   const nlohmann::json b = endpointJson::parse(*created);
                   const QString id = b.is_object() ? str(b, "id") : QString();
                   if (id.isEmpty())
                       return done(makeError(tr("creating the batch: the answer names no batch id")));
                   done(Created{id, fileId});
               });
    });
}

void BatchClient::findByInputFile(const QString &inputFile, std::function<void(Result<QString>)> done)
{
    findFrom(inputFile, {}, 0, std::move(done));
}

void BatchClient::findFrom(const QString &inputFile, const QString &after, int page,
                           std::function<void(Result<QString>)> done)
{
    QString url = m_base + QStringLiteral("/batches?limit=100");
    if (!after.isEmpty())
        url += QStringLiteral("&after=") + QString::fromLatin1(QUrl::toPercentEncoding(after));
    fetch(url, tr("listing the batches"), [this, inputFile, page, done](Result<QByteArray> reply) {
        if (!reply)
            return done(reply.error());
        const nlohmann::json j = endpointJson::parse(*reply);
        if (!j.is_object() || !j.contains("data") || !j["data"].is_array())
            return done(makeError(tr("listing the batches: the answer has no list")));
        QString last;
        for (const auto &b : j["data"]) {
            if (!b.is_object())
                continue;
            if (str(b, "input_file_id") == inputFile)
                return done(str(b, "id"));
            last = str(b, "id");
        }
        const bool more = j.value("has_more", false);
        if (!more || last.isEmpty() || page >= 9)
            return done(QString());
        findFrom(inputFile, last, page + 1, done);
    });
}

Result<BatchClient::Poll> BatchClient::parsePoll(ProviderKind kind, const QByteArray &body)
{
    bool tooDeep = false;
    const nlohmann::json j = endpointJson::parse(body, &tooDeep);
    if (!j.is_object())
        return makeError(tooDeep ? endpointJson::refusal(true) : tr("the batch's state is not a JSON object"));
    Poll p;
    const nlohmann::json counts = j.contains("request_counts") && j["request_counts"].is_object()
                                          ? j["request_counts"]
                                          : nlohmann::json::object();
    if (kind == ProviderKind::Anthropic) {
        p.status = str(j, "processing_status");
        p.ended = p.status == QLatin1String("ended");
        p.completed = num(counts, "succeeded");
        p.failed = num(counts, "errored") + num(counts, "canceled") + num(counts, "expired");
        p.total = p.completed + p.failed + num(counts, "processing");
        p.output = str(j, "results_url");
    } else {
        p.status = str(j, "status");
        p.ended = p.status == QLatin1String("completed") || p.status == QLatin1String("expired")
                  || p.status == QLatin1String("cancelled") || p.status == QLatin1String("failed");
        p.total = num(counts, "total");
        p.completed = num(counts, "completed");
        p.failed = num(counts, "failed");
        p.output = str(j, "output_file_id");
        p.errors = str(j, "error_file_id");
    }
    if (p.status.isEmpty())
        return makeError(tr("the batch's state names no status"));
    return p;
}

void BatchClient::poll(const QString &remoteId, std::function<void(Result<Poll>)> done)
{
    const QString url = m_kind == ProviderKind::Anthropic ? m_base + QStringLiteral("/messages/batches/") + remoteId
                                                          : m_base + QStringLiteral("/batches/") + remoteId;
    fetch(url, tr("asking for the batch %1").arg(remoteId), [kind = m_kind, done](Result<QByteArray> reply) {
        if (!reply)
            return done(reply.error());
        done(parsePoll(kind, *reply));
    });
}

void BatchClient::readLine(ProviderKind kind, const char *begin, const char *end, int lineNo, Results &out)
{
    if (QByteArrayView(begin, end).trimmed().isEmpty())
        return;
    bool tooDeep = false;
    const nlohmann::json j = endpointJson::parse(begin, end, &tooDeep);
    if (!j.is_object() || str(j, "custom_id").isEmpty()) {
        out.unreadable << (tooDeep ? tr("line %1: %2").arg(lineNo).arg(endpointJson::refusal(true))
                                   : tr("line %1: not a result with a custom_id").arg(lineNo));
        return;
    }
    Outcome o;
    o.customId = str(j, "custom_id");
    if (kind == ProviderKind::Anthropic) {
        const nlohmann::json result = j.value("result", nlohmann::json::object());
        const QString type = str(result, "type");
        if (type == QLatin1String("succeeded") && result.contains("message")) {
            o.ok = true;
            o.httpStatus = 200;
            o.body = QByteArray::fromStdString(result["message"].dump());
        } else {
            o.error = type == QLatin1String("errored") ? errorText(result.value("error", nlohmann::json()))
                                                       : tr("the batch %1 the request").arg(type);
            if (o.error.isEmpty())
                o.error = tr("the batch gave no answer (%1)").arg(type);
        }
    } else {
        const nlohmann::json response = j.value("response", nlohmann::json());
        const nlohmann::json error = j.value("error", nlohmann::json());
        o.httpStatus = response.is_object() ? num(response, "status_code") : 0;
        if (o.httpStatus >= 200 && o.httpStatus < 300 && response.contains("body")) {
            o.ok = true;
            o.body = QByteArray::fromStdString(response["body"].dump());
        } else if (!error.is_null()) {
            o.error = errorText(error);
        } else if (response.is_object()) {
            o.error = QStringLiteral("HTTP %1: %2")
                              .arg(o.httpStatus)
                              .arg(errorText(response.value("body", nlohmann::json())));
        }
        if (!o.ok && o.error.isEmpty())
            o.error = tr("the batch gave no answer");
    }
    out.outcomes.append(o);
}

BatchClient::Results BatchClient::parseResults(ProviderKind kind, const QByteArray &jsonl)
{
    Results results;
    int lineNo = 0;
    qsizetype from = 0;
    while (from < jsonl.size()) { // line by line, without a copy of the file split into lines
        qsizetype to = jsonl.indexOf('\n', from);
        if (to < 0)
            to = jsonl.size();
        readLine(kind, jsonl.constData() + from, jsonl.constData() + to, ++lineNo, results);
        from = to + 1;
    }
    return results;
}

void BatchClient::streamResults(const QString &url, const QString &what, std::function<void(Result<Results>)> done)
{
    // Read as it arrives, a line at a time: the file (hundreds of MB for a large batch) is never
    // held whole, only the line being received and the answers read so far.
    QNetworkReply *reply = m_nam->get(request(url));
    struct State
    {
        QByteArray partial; ///< the start of a line whose end has not arrived
        Results results;
        int lineNo = 0;
    };
    auto state = std::make_shared<State>();
    const ProviderKind kind = m_kind;
    const auto ok = [reply] {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        return status >= 200 && status < 300;
    };
    connect(reply, &QNetworkReply::readyRead, this, [reply, state, kind, ok] {
        if (!ok()) // an error's body is read whole when the reply finishes
            return;
        state->partial += reply->readAll();
        qsizetype from = 0;
        for (qsizetype to; (to = state->partial.indexOf('\n', from)) >= 0; from = to + 1)
            readLine(kind, state->partial.constData() + from, state->partial.constData() + to, ++state->lineNo,
                     state->results);
        state->partial.remove(0, from);
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, what, state, kind, done] {
        reply->deleteLater();
        state->partial += reply->readAll();
        if (auto error = failure(reply, what, state->partial))
            return done(*error);
        if (!state->partial.isEmpty()) {
            qsizetype from = 0;
            while (from < state->partial.size()) {
                qsizetype to = state->partial.indexOf('\n', from);
                if (to < 0)
                    to = state->partial.size();
                readLine(kind, state->partial.constData() + from, state->partial.constData() + to, ++state->lineNo,
                         state->results);
                from = to + 1;
            }
        }
        done(std::move(state->results));
    });
}

bool BatchClient::sameOrigin(const QUrl &url, const QUrl &base)
{
    const auto port = [](const QUrl &u) { return u.port(u.scheme() == QLatin1String("https") ? 443 : 80); };
    return url.isValid() && url.scheme().compare(base.scheme(), Qt::CaseInsensitive) == 0
           && url.host().compare(base.host(), Qt::CaseInsensitive) == 0 && port(url) == port(base);
}

void BatchClient::results(const Poll &poll, std::function<void(Result<Results>)> done)
{
    const ProviderKind kind = m_kind;
    if (kind == ProviderKind::Anthropic) {
        if (poll.output.isEmpty())
            return done(Results());
        // The key goes only where the profile says: a results_url on another host (or plain http
        // where the endpoint is https) is not fetched with it.
        if (!sameOrigin(QUrl(poll.output), QUrl(m_base)))
            return done(makeError(
                    m_redact(tr("the batch's results_url %1 is not on the endpoint's origin %2; the key "
                                "is not sent there")
                                     .arg(QUrl(poll.output).toString(QUrl::RemoveUserInfo),
                                          QUrl(m_base).adjusted(QUrl::RemovePath | QUrl::RemoveUserInfo).toString()))));
        streamResults(poll.output, tr("downloading the batch results"), done);
        return;
    }
    // OpenAI: the output file (answers) and the error file (failed lines), either may be missing.
    auto collected = std::make_shared<Results>();
    QStringList files;
    for (const QString &file : {poll.output, poll.errors})
        if (!file.isEmpty())
            files << file;
    auto remaining = std::make_shared<int>(int(files.size()));
    auto failed = std::make_shared<bool>(false);
    if (files.isEmpty())
        return done(Results());
    for (const QString &file : files)
        streamResults(m_base + QStringLiteral("/files/") + file + QStringLiteral("/content"),
                      tr("downloading the batch file %1").arg(file),
                      [done, collected, remaining, failed](Result<Results> lines) {
                          if (*failed)
                              return;
                          if (!lines) {
                              *failed = true;
                              return done(lines.error());
                          }
                          collected->outcomes += lines->outcomes;
                          collected->unreadable += lines->unreadable;
                          if (--*remaining == 0)
                              done(*collected);
                      });
}

} // namespace rubric
