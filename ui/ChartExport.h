#pragma once

#include "util/Result.h"

#include <QString>
#include <QStringList>

class QWidget;

namespace rubric {

/// A pane that shows a chart worth handing to somebody (File → Export Chart…): the widget to
/// draw and a one-line title that says what it shows (judge, aspect, level, split).
class ChartSource
{
public:
    virtual ~ChartSource() = default;
    /// The widget holding the chart(s) as shown, or null when there is nothing to export.
    virtual QWidget *chartWidget() const = 0;
    virtual QString chartTitle() const = 0;
    /// A file name stem for the save dialog, e.g. "correlation-hypoeval-coherence".
    virtual QString chartFileStem() const = 0;
};

/// File → Export Chart: draws a chart widget under its title into a PNG (twice the screen
/// resolution) or an SVG (vector: text stays text, lines stay lines), chosen by the suffix.
/// The file is replaced atomically; a failure leaves an existing file untouched.
class ChartExport
{
public:
    /// Save-dialog filters, PNG first.
    static QStringList fileFilters();
    static Result<void> write(QWidget *chart, const QString &title, const QString &path);
};

} // namespace rubric
