#include "util/Markup.h"

namespace rubric::markup {

QString markdown(const QString &text)
{
    static const QString special = QStringLiteral("\\`*_[]<>|~#&");
    QString out;
    out.reserve(text.size() + 8);
    for (const QChar c : text) {
        if (c == QLatin1Char('\r'))
            continue;
        if (c == QLatin1Char('\n')) {
            out += QLatin1Char(' ');
            continue;
        }
        if (special.contains(c))
            out += QLatin1Char('\\');
        out += c;
    }
    return out;
}

} // namespace rubric::markup
