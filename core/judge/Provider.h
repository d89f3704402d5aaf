#pragma once

#include "data/JudgeTypes.h"
#include "judge/EndpointAdaptations.h"
#include "util/Result.h"

#include <QByteArray>
#include <QNetworkRequest>

#include <memory>
#include <optional>

namespace rubric {

/// A request ready to POST: the network request (URL and headers, the key included) and the body.
struct ProviderCall
{
    QNetworkRequest request;
    QByteArray body;
};

/// One wire protocol of an LLM endpoint. Stateless and cheap; the engine owns one per profile.
/// `buildRequest` is the only place that sees the key; it puts it into a header and nowhere else.
/// It sends the request as the endpoint's `adaptations` say (what the endpoint was found to refuse).
/// `parseResponse` turns a 2xx body into choices and usage, or an Error when the body is not the
/// expected JSON (the engine retries those).
class Provider
{
public:
    virtual ~Provider() = default;

    virtual ProviderKind kind() const = 0;
    virtual ProviderCall buildRequest(const ProviderProfile &profile, const QByteArray &apiKey,
                                      const JudgeRequest &request,
                                      const EndpointAdaptations &adaptations = {}) const = 0;
    /// Fills choices, tokensIn and tokensOut of a response from a successful body.
    virtual Result<JudgeResponse> parseResponse(const QByteArray &body) const = 0;
    /// The server's own message from an error body (JSON `error.message` or the text itself).
    virtual QString errorMessage(const QByteArray &body) const;
    /// Whether one call can return several choices (`n` > 1).
    virtual bool supportsChoices() const = 0;

    static std::unique_ptr<Provider> create(ProviderKind kind);
    static QString kindName(ProviderKind kind);
    static std::optional<ProviderKind> kindFromName(const QString &name);
};

} // namespace rubric
