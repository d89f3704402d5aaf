#pragma once

#include <QString>

#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

namespace rubric {

/// An error a user can act on: a message, plus where it happened when that is known
/// (file, 1-based line, column or field). Errors are values at module boundaries (STYLE.md 17).
struct Error
{
    QString message;
    QString file;
    int line = 0;
    QString field;

    /// "file:line: field: message" with the parts that are known.
    QString toString() const
    {
        QString out;
        if (!file.isEmpty())
            out += file + (line > 0 ? QStringLiteral(":%1").arg(line) : QString()) + QStringLiteral(": ");
        else if (line > 0)
            out += QStringLiteral("line %1: ").arg(line);
        if (!field.isEmpty())
            out += field + QStringLiteral(": ");
        return out + message;
    }
};

/// Either a value or an Error. A small stand-in for std::expected (C++23).
template <typename T> class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_v(std::move(value))
    {
    }
    Result(Error error)
        : m_v(std::move(error))
    {
    }

    bool ok() const { return m_v.index() == 0; }
    /// Whether it holds a value. Not for Result<bool>, where `if (r)` would read as the value:
    /// there, test `r.ok()` and read `*r`.
    explicit operator bool() const requires(!std::is_same_v<T, bool>) { return ok(); }

    T &value() & { return std::get<0>(m_v); }
    const T &value() const & { return std::get<0>(m_v); }
    T &&value() && { return std::get<0>(std::move(m_v)); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }

    const Error &error() const { return std::get<1>(m_v); }
    QString errorString() const { return ok() ? QString() : error().toString(); }

private:
    std::variant<T, Error> m_v;
};

template <> class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error)
        : m_error(std::move(error))
    {
    }

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }
    QString errorString() const { return ok() ? QString() : m_error->toString(); }

private:
    std::optional<Error> m_error;
};

inline Error makeError(QString message, QString file = {}, int line = 0, QString field = {})
{
    return Error{std::move(message), std::move(file), line, std::move(field)};
}

} // namespace rubric
