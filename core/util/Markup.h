#pragma once

#include <QString>

/// Text from a dataset, a judge or a user (judge and aspect names, criteria, captions) put into
/// files we write in a markup language, so that it shows as written and never becomes markup.
namespace rubric::markup {

/// For Markdown (a table cell, a list item, a heading's text): one line (line breaks become
/// spaces), with the characters that would start markup backslash-escaped — \ ` * _ [ ] < > |
/// ~ # & — so that "<script>", "[x](javascript:…)" or "**" show literally (CommonMark).
QString markdown(const QString &text);

} // namespace rubric::markup
