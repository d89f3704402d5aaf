#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

namespace rubric {

/// How alike two questions of one checklist read, for the near-duplicate flag: the mean of
///  (a) the cosine of their character 4-gram counts (Checklist::normaliseQuestion text, padded
///      with a space at each end), and
///  (b) the cosine of their TF-IDF vectors of content-word stems: stop words removed, one suffix
///      stripped (ingly, edly, ness, ment, ations, ation, ities, ity, ies, ing, ed, es, ly, s; at
///      least three letters left), idf = ln((1 + N) / (1 + df)) over the checklist's N questions.
/// Calibrated on hand-labelled pairs of the published CheckEval checklists
/// (tests/methods/checkeval_near_duplicates.tsv; README "CheckEval"). Pure functions.
class QuestionSimilarity
{
public:
    /// The document frequencies of the questions' content-word stems.
    explicit QuestionSimilarity(const QStringList &questions);

    double similarity(const QString &a, const QString &b) const;

    /// The content-word stems of a question (stop words removed, one suffix stripped).
    static QStringList contentStems(const QString &question);
    /// Cosine of the character 4-gram counts of the normalised questions.
    static double charGramCosine(const QString &a, const QString &b);
    /// Cosine of the TF-IDF vectors of the content-word stems (idf from the constructor's questions).
    double tfIdfCosine(const QString &a, const QString &b) const;

private:
    QHash<QString, double> vector(const QString &question) const;
    QHash<QString, int> m_df;
    int m_n = 0;
};

} // namespace rubric
