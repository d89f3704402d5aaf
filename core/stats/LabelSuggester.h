#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>

namespace rubric {

/// Picks which items to label next: a seeded random order, stratified so that every group (or
/// system) gets its turn before any gets a second item; or the items the project's judges disagree
/// on most ("most informative next"). Pure functions of their inputs.
class LabelSuggester
{
public:
    enum class Stratum { None, Group, System, Disagreement };

    struct Candidate
    {
        QString id;
        QString group;
        QString system;
        double disagreement = std::numeric_limits<double>::quiet_NaN(); ///< see disagreement()
    };

    /// One judge score: (item, judge, aspect) → score.
    struct JudgeScore
    {
        QString item;
        QString judge;
        QString aspect;
        double score;
    };

    /// How much the judges disagree on each item: every (judge, aspect) column is standardised
    /// over the items (z-scores, so judges on different scales compare), then per item and aspect
    /// the standard deviation across judges, averaged over the aspects. Items with fewer than two
    /// judges on every aspect get none (absent from the result).
    static QHash<QString, double> disagreement(const QVector<JudgeScore> &scores);

    static Stratum stratumFromName(const QString &name);
    static QString stratumName(Stratum stratum);

    /// Up to `count` ids from `candidates` (in the order to label them), round-robin over the
    /// strata in a random order, each stratum's items shuffled; the same seed gives the same list.
    /// With Stratum::Disagreement: the most disputed first (ties and items without a figure in
    /// the seeded random order, after those with one).
    static QStringList suggest(const QVector<Candidate> &candidates, Stratum stratum, int count, quint32 seed);
};

} // namespace rubric
