#pragma once

#include <QString>

namespace rubric::csv {

/// One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. A text a
/// spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return, and
/// not a plain number such as -0.25) is written with a leading apostrophe, as OWASP advises, so
/// that a judge named "=HYPERLINK(…)" opens as text.
QString field(const QString &text);

} // namespace rubric::csv
