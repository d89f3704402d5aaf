#include "util/Csv.h"

namespace rubric::csv {

QString field(const QString &text)
{
    QString v = text;
    if (!v.isEmpty()) {
        const QChar first = v.front();
        const bool formula = first == QLatin1Char('=') || first == QLatin1Char('+') || first == QLatin1Char('-')
                             || first == QLatin1Char('@') || first == QLatin1Char('\t') || first == QLatin1Char('\r');
        bool number = false;
        if (formula)
            (void)v.toDouble(&number);
        if (formula && !number)
            v.prepend(QLatin1Char('\''));
    }
    if (!v.contains(QLatin1Char(',')) && !v.contains(QLatin1Char('"')) && !v.contains(QLatin1Char('\n'))
        && !v.contains(QLatin1Char('\r')))
        return v;
    v.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + v + QLatin1Char('"');
}

} // namespace rubric::csv
