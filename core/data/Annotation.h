#pragma once

#include <QDateTime>
#include <QString>

namespace rubric {

/// One human score: annotator × item × aspect.
struct Annotation
{
    QString itemId;
    QString aspect;
    QString annotator;
    double score = 0.0;
    QString note;
    QDateTime time;
};

/// Which side of the labelled/held-out split an item is on.
enum class SplitRole { None, Train, Test };

/// Which items a statistic or a run is restricted to.
enum class SplitFilter { All, Train, Test };

inline QString splitRoleName(SplitRole r)
{
    switch (r) {
    case SplitRole::Train:
        return QStringLiteral("train");
    case SplitRole::Test:
        return QStringLiteral("test");
    case SplitRole::None:
        break;
    }
    return {};
}

} // namespace rubric
