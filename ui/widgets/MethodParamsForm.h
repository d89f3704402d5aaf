#pragma once

#include "runs/RunTypes.h"

#include <QStackedWidget>
#include <QVector>

class QCheckBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace rubric {

/// The Judge & Run pane's method parameters, one page per method: G-Eval's logprobs / samples /
/// temperature, and every HypoEval hyperparameter (paper defaults from HypoEvalParams, each
/// explained in its tooltip) with the literature folder. Object names: "gevalLogprobs",
/// "gevalSamples", "gevalTemperature", "param_<key>" (property "paramKey"), "literatureDir".
class MethodParamsForm : public QStackedWidget
{
    Q_OBJECT
public:
    explicit MethodParamsForm(QWidget *parent = nullptr);

    /// Shows the page of the method at `index` in the pane's method list (0 G-Eval, 1 HypoEval).
    void showMethod(int index) { setCurrentIndex(index); }
    /// Writes the parameters of `spec.method` into the spec.
    void writeTo(RunSpec &spec) const;
    /// Shows the parameters `spec` was run with (keys it does not have keep their value).
    void readFrom(const RunSpec &spec);

private:
    QCheckBox *m_gevalLogprobs = nullptr;
    QSpinBox *m_gevalSamples = nullptr;
    QDoubleSpinBox *m_gevalTemperature = nullptr;
    QLineEdit *m_literature = nullptr;
    QVector<QWidget *> m_hypoParams;
};

} // namespace rubric
