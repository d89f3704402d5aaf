#pragma once

#include <QString>
#include <QStringList>

namespace rubric::rouge {

/// Precision, recall and F1 of one ROUGE comparison.
struct Score
{
    double precision = 0;
    double recall = 0;
    double f1 = 0;
};

/// Lower-cases and splits on anything that is not a letter or digit (the usual ROUGE
/// tokenisation, without stemming or stop-word removal).
QStringList tokenize(const QString &text);

/// ROUGE-N: clipped n-gram overlap between candidate and reference. All zeros when either
/// side has no n-gram.
Score rougeN(const QStringList &candidate, const QStringList &reference, int n);
/// ROUGE-L: longest common subsequence of tokens (summary-level LCS is not used).
Score rougeL(const QStringList &candidate, const QStringList &reference);

} // namespace rubric::rouge
