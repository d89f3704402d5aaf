#include "PlainText.h"

namespace rubric::plain {

QString elide(const QString &text, int maxChars)
{
    if (maxChars <= 0 || text.size() <= maxChars)
        return text;
    // Never split a surrogate pair: half a character renders as a replacement box.
    qsizetype cut = maxChars;
    if (text.at(cut - 1).isHighSurrogate())
        --cut;
    return text.left(cut) + QChar(0x2026);
}

QString isolate(const QString &text)
{
    if (text.isEmpty())
        return text;
    return QChar(0x2068) + text + QChar(0x2069);
}

QString toolTip(const QString &text, int maxChars)
{
    if (text.isEmpty())
        return text;
    return QStringLiteral("<p style='white-space:pre-wrap'>") + isolate(elide(text, maxChars)).toHtmlEscaped()
           + QStringLiteral("</p>");
}

} // namespace rubric::plain
