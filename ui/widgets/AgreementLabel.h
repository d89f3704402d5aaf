#pragma once

#include "data/Aspect.h"

#include <QLabel>
#include <QVector>

namespace rubric {

class Project;

/// The annotate pane's agreement table: per aspect, Krippendorff's α (interval) between the
/// people who scored it and, unless judge scores are hidden (blind mode), between each judge and
/// the people's mean — on the train split, or on all items when there is no split yet.
class AgreementLabel : public QLabel
{
    Q_OBJECT
public:
    explicit AgreementLabel(QWidget *parent = nullptr);

    /// Recomputes from the project (null clears).
    void refresh(const Project *project, const QVector<Aspect> &aspects, bool trainOnly, bool blind);
};

} // namespace rubric
