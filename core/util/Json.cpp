#include "Json.h"

#include <nlohmann/json.hpp>

namespace rubric::json {
namespace {

nlohmann::json toJson(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::UnknownType:
    case QMetaType::Nullptr:
        return nullptr;
    case QMetaType::Bool:
        return v.toBool();
    case QMetaType::Int:
    case QMetaType::LongLong:
        return v.toLongLong();
    case QMetaType::UInt:
    case QMetaType::ULongLong:
        return v.toULongLong();
    case QMetaType::Double:
    case QMetaType::Float:
        return v.toDouble();
    case QMetaType::QVariantMap: {
        nlohmann::json obj = nlohmann::json::object();
        const QVariantMap m = v.toMap();
        for (auto it = m.begin(); it != m.end(); ++it)
            obj[it.key().toStdString()] = toJson(it.value());
        return obj;
    }
    case QMetaType::QVariantList:
    case QMetaType::QStringList: {
        nlohmann::json arr = nlohmann::json::array();
        for (const QVariant &e : v.toList())
            arr.push_back(toJson(e));
        return arr;
    }
    default:
        return v.toString().toStdString();
    }
}

/// Deeper JSON is refused: fromJson recurses once per level, and text from a file or a judge
/// ("[[[[…" a megabyte deep) must not be able to overflow the stack.
constexpr int kMaxDepth = 512;

struct TooDeep
{
};

QVariant fromJson(const nlohmann::json &j, int depth = 0)
{
    if (depth > kMaxDepth)
        throw TooDeep{};
    switch (j.type()) {
    case nlohmann::json::value_t::null:
        return QVariant::fromValue(nullptr);
    case nlohmann::json::value_t::boolean:
        return j.get<bool>();
    case nlohmann::json::value_t::number_integer:
        return QVariant::fromValue<qlonglong>(j.get<qlonglong>());
    case nlohmann::json::value_t::number_unsigned:
        return QVariant::fromValue<qulonglong>(j.get<qulonglong>());
    case nlohmann::json::value_t::number_float:
        return j.get<double>();
    case nlohmann::json::value_t::string:
        return QString::fromStdString(j.get<std::string>());
    case nlohmann::json::value_t::array: {
        QVariantList list;
        list.reserve(qsizetype(j.size()));
        for (const auto &e : j)
            list.append(fromJson(e, depth + 1));
        return list;
    }
    case nlohmann::json::value_t::object: {
        QVariantMap map;
        for (auto it = j.begin(); it != j.end(); ++it)
            map.insert(QString::fromStdString(it.key()), fromJson(it.value(), depth + 1));
        return map;
    }
    default:
        return {};
    }
}

} // namespace

QString stringify(const QVariant &value, bool pretty)
{
    return QString::fromStdString(toJson(value).dump(pretty ? 2 : -1));
}

// A failure is also a number beyond double's range (1e999) and nesting deeper than kMaxDepth.
QVariant parse(const QString &text, QString *error)
{
    try {
        return fromJson(nlohmann::json::parse(text.toStdString()));
    } catch (const nlohmann::json::exception &e) {
        // parse_error, and also out_of_range for a number beyond double's range (1e999)
        if (error)
            *error = QString::fromUtf8(e.what());
        return {};
    } catch (const TooDeep &) {
        if (error)
            *error = QStringLiteral("nested deeper than %1 levels").arg(kMaxDepth);
        return {};
    }
}

} // namespace rubric::json
