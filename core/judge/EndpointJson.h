#pragma once

// Reading what an endpoint sends: its JSON bodies and the figures in them. Internal to
// core/judge's sources (it names nlohmann::json, which public headers do not).

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <nlohmann/json.hpp>

namespace rubric::endpointJson {

/// No answer of a chat, messages or batch interface nests deeper than a dozen levels. Deeper
/// bodies are refused before they are parsed: copying or printing a parsed tree recurses once
/// per level, and a 100,000-deep answer (200 KB) would overflow the stack.
inline constexpr int maxDepth = 128;

/// The deepest nesting of arrays and objects in the JSON text [begin, end), strings skipped;
/// it stops counting once past `limit` (and returns limit + 1). Malformed text is measured as
/// far as it goes (the parser refuses it afterwards).
int nesting(const char *begin, const char *end, int limit = maxDepth);

/// Parses an endpoint's JSON body: a discarded value when it is not JSON, and when it nests
/// deeper than maxDepth (then `*tooDeep` is set, where given).
nlohmann::json parse(const char *begin, const char *end, bool *tooDeep = nullptr);
inline nlohmann::json parse(const QByteArray &body, bool *tooDeep = nullptr)
{
    return parse(body.constBegin(), body.constEnd(), tooDeep);
}

/// Why a body was refused: "nested deeper than 128 levels" or "not valid JSON".
QString refusal(bool tooDeep);

/// The most tokens one answer may report: an endpoint's figures are clamped to 0 … this, so
/// that a negative or absurd `usage` can neither lower the money spent nor overflow a sum.
inline constexpr std::int64_t maxTokens = 100'000'000;

/// A token count an endpoint reports under `key` of `object`: 0 when absent, not an integer or
/// negative, at most maxTokens.
int tokens(const nlohmann::json &object, const char *key);

/// A count (of requests, lines) under `key`: 0 when absent, not an integer or negative, at most
/// INT_MAX / 4 so that sums of a few stay in range.
int count(const nlohmann::json &object, const char *key);

/// A `Retry-After` header in milliseconds: seconds (fractions allowed) from 0 to an hour; -1 for
/// a value that is not a finite number of seconds (an HTTP date, "inf", "nan", negative).
int retryAfterMs(const QByteArray &header);

} // namespace rubric::endpointJson
