#include "judge/EndpointJson.h"

#include <QCoreApplication>

#include <algorithm>
#include <climits>
#include <cmath>

namespace rubric::endpointJson {

int nesting(const char *begin, const char *end, int limit)
{
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    for (const char *p = begin; p < end; ++p) {
        const char c = *p;
        if (inString) {
            if (c == '\\')
                ++p; // the escaped character, whatever it is
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest) {
                deepest = depth;
                if (deepest > limit)
                    return limit + 1;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

nlohmann::json parse(const char *begin, const char *end, bool *tooDeep)
{
    const bool deep = nesting(begin, end) > maxDepth;
    if (tooDeep)
        *tooDeep = deep;
    if (deep)
        return nlohmann::json(nlohmann::json::value_t::discarded);
    return nlohmann::json::parse(begin, end, nullptr, false);
}

QString refusal(bool tooDeep)
{
    return tooDeep ? QCoreApplication::translate("rubric::Provider", "the answer nests deeper than %1 levels")
                             .arg(maxDepth)
                   : QCoreApplication::translate("rubric::Provider", "the answer is not valid JSON");
}

namespace {

std::int64_t integer(const nlohmann::json &object, const char *key, std::int64_t most)
{
    if (!object.is_object())
        return 0;
    const auto it = object.find(key);
    if (it == object.end())
        return 0;
    if (it->is_number_unsigned())
        return std::min<std::uint64_t>(it->get<std::uint64_t>(), std::uint64_t(most));
    if (it->is_number_integer())
        return std::clamp<std::int64_t>(it->get<std::int64_t>(), 0, most);
    return 0;
}

} // namespace

int tokens(const nlohmann::json &object, const char *key)
{
    return int(integer(object, key, maxTokens));
}

int count(const nlohmann::json &object, const char *key)
{
    return int(integer(object, key, INT_MAX / 4));
}

int retryAfterMs(const QByteArray &header)
{
    bool ok = false;
    const double seconds = header.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(seconds) || seconds < 0)
        return -1;
    return int(std::min(seconds, 3600.0) * 1000.0);
}

} // namespace rubric::endpointJson
