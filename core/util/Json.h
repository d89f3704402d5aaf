#pragma once

#include <QString>
#include <QVariant>

namespace rubric::json {

/// Converts between QVariant trees (QVariantMap / QVariantList / scalars) and JSON text.
/// nlohmann/json stays inside core .cpp files; public headers use Qt value types (STYLE.md 5).
QString stringify(const QVariant &value, bool pretty = false);

/// Parses JSON text; on failure returns an invalid QVariant and sets *error (with byte offset).
QVariant parse(const QString &text, QString *error = nullptr);

} // namespace rubric::json
