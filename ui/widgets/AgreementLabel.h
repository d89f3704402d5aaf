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

    /// The table for the project (empty for none, or no aspects): reads every score of the split,
    /// so the Annotate pane calls it on a worker thread (any thread with the project will do).
    static QString compute(const Project *project, const QVector<Aspect> &aspects, bool trainOnly, bool blind);
    /// Says that the table is being computed (the last one stays until the new one comes).
    void showComputing();
};

} // namespace rubric
