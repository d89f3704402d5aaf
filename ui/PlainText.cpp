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

QString forViewer(const QString &text, int maxLine)
{
    if (text.size() <= maxLine)
        return text;
    QString out;
    qsizetype start = 0;
    while (start <= text.size()) {
        qsizetype end = text.indexOf(QLatin1Char('\n'), start);
        if (end < 0)
            end = text.size();
        const qsizetype length = end - start;
        if (length > maxLine)
            out += elide(text.mid(start, maxLine), maxLine)
                   + QStringLiteral(" [%1 characters not shown]").arg(length - maxLine);
        else
            out += QStringView(text).mid(start, length);
        if (end < text.size())
            out += QLatin1Char('\n');
        start = end + 1;
    }
    return out;
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
