#include "SpinBoxes.h"

#include <QDoubleSpinBox>
#include <QSpinBox>

namespace rubric {

QSpinBox *makeSpinBox(QWidget *parent, const QString &objectName, int min, int max, const QString &toolTip)
{
    auto *s = new QSpinBox(parent);
    s->setObjectName(objectName);
    s->setRange(min, max);
    s->setToolTip(toolTip);
    return s;
}

QDoubleSpinBox *makeDoubleSpinBox(QWidget *parent, const QString &objectName, double min, double max, int decimals,
                                  const QString &toolTip)
{
    auto *s = new QDoubleSpinBox(parent);
    s->setObjectName(objectName);
    // Decimals first: setRange rounds the bounds to the current decimals.
    s->setDecimals(decimals);
    s->setRange(min, max);
    s->setToolTip(toolTip);
    return s;
}

} // namespace rubric
