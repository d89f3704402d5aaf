#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace rubric {

/// Picks which items to label next: a seeded random order, stratified so that every group (or
/// system) gets its turn before any gets a second item. Pure function of its inputs.
class LabelSuggester
{
public:
    enum class Stratum { None, Group, System };

    struct Candidate
    {
        QString id;
        QString group;
        QString system;
    };

    static Stratum stratumFromName(const QString &name);
    static QString stratumName(Stratum stratum);

    /// Up to `count` ids from `candidates` (in the order to label them), round-robin over the
    /// strata in a random order, each stratum's items shuffled; the same seed gives the same list.
    static QStringList suggest(const QVector<Candidate> &candidates, Stratum stratum, int count, quint32 seed);
};

} // namespace rubric
