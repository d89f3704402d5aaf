#pragma once

#include <QString>

namespace rubric {

/// A quality dimension people score (coherence, fluency, …) with its definition and scale.
struct Aspect
{
    QString name;
    QString definition;
    double min = 1.0;
    double max = 5.0;
};

} // namespace rubric
