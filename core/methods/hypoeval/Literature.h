#pragma once

#include "util/Result.h"

#include <QCoreApplication>
#include <QString>
#include <QVector>

namespace rubric {

/// One paper of a literature folder, or a summary without its paper.
struct LiteraturePaper
{
    QString title;   ///< file name without extension(s)
    QString file;    ///< the paper's file, or the summary's when there is no paper
    QString text;    ///< the paper's text (empty for a summary without a paper)
    QString summary; ///< the summary file's text, or (once asked) the generator's summary
    bool userSummary = false;
};

/// HypoEval's literature (specs/hypoeval.md §2.1): a folder of papers as text (*.txt, *.md) and
/// of summaries (NAME.summary.txt, NAME.summary.md). A paper with no summary beside it is for the
/// generator to summarise; a summary file is taken as written.
class Literature
{
    Q_DECLARE_TR_FUNCTIONS(Literature)
public:
    /// The papers by title; none for an empty `dir`. Errors name the file: a missing or empty
    /// folder, an unreadable or empty file, two files for one title.
    static Result<QVector<LiteraturePaper>> read(const QString &dir);
    /// L, the prompts' relevant-papers slot: "Paper: TITLE\nSUMMARY" of every paper with a summary.
    static QString relevantPapers(const QVector<LiteraturePaper> &papers);
    /// The summary in a generator's answer (a leading "Summary:" dropped); empty when there is none.
    static QString summaryOf(const QString &answer);
};

} // namespace rubric
