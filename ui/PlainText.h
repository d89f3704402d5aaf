#pragma once

#include <QString>

/// Untrusted text (dataset fields, judge answers, rubric text from a method or a file) shown
/// where Qt would otherwise guess rich text: tooltips and Qt::AutoText labels and message boxes
/// interpret anything that starts like markup (`<img src=x>`, `<a href=…>`). These helpers make
/// such text show literally. Pure functions, any thread.
namespace rubric::plain {

/// Tooltip text that shows `text` exactly as written: escaped HTML in a pre-wrap paragraph
/// (so the tooltip machinery takes it as rich text and never interprets the text itself),
/// cut to `maxChars` characters with an ellipsis (a 1 MB answer is no tooltip), and isolated
/// (see isolate()).
QString toolTip(const QString &text, int maxChars = 2000);

/// `text` wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE (U+2068 … U+2069), for text
/// put into a composed sentence: a right-to-left override (U+202E) inside it then cannot reverse
/// the words of the sentence around it. Empty text stays empty.
QString isolate(const QString &text);

/// `text` for a text viewer: each line longer than `maxLine` characters is cut there and marked
/// "… [N characters not shown]". Qt lays a paragraph out as one block, and a 1 MB line froze
/// the dataset pane for minutes (test_untrusted_text); no reader reads past the cut anyway.
QString forViewer(const QString &text, int maxLine = 20000);

/// `text` cut to `maxChars` characters with an ellipsis, for one-line labels and titles.
QString elide(const QString &text, int maxChars);

} // namespace rubric::plain
