#pragma once

#include <QString>

class QDoubleSpinBox;
class QSpinBox;
class QWidget;

namespace rubric {

/// A spin box set up in one call: object name (for tests and lookups), range and tooltip. The
/// caller adds a suffix, special value text or value where it needs one. Owned by `parent`.
QSpinBox *makeSpinBox(QWidget *parent, const QString &objectName, int min, int max, const QString &toolTip);
/// As makeSpinBox, with `decimals` places.
QDoubleSpinBox *makeDoubleSpinBox(QWidget *parent, const QString &objectName, double min, double max, int decimals,
                                  const QString &toolTip);

} // namespace rubric
