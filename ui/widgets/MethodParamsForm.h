#pragma once

#include "methods/RunTypes.h"

#include <QHash>
#include <QStackedWidget>
#include <QVector>

namespace rubric {

struct MethodParam;

/// The Judge & Run pane's method parameters: one page per method of MethodRegistry, in its
/// order, with a field per parameter (label, tooltip, range and the paper's default from the
/// method's descriptor). Object names "param_<key>" (property "paramKey"); a Folder parameter
/// is a line edit with a browse button.
class MethodParamsForm : public QStackedWidget
{
    Q_OBJECT
public:
    explicit MethodParamsForm(QWidget *parent = nullptr);

    /// Shows the page of the method at `index` in MethodRegistry::all().
    void showMethod(int index) { setCurrentIndex(index); }
    /// Writes the parameters of `spec.method` into the spec.
    void writeTo(RunSpec &spec) const;
    /// Shows the parameters `spec` was run with (keys it does not have keep their value).
    void readFrom(const RunSpec &spec);

private:
    QWidget *makeField(const MethodParam &p, QWidget *page);

    /// method name → its fields, in parameter order
    QHash<QString, QVector<QWidget *>> m_fields;
};

} // namespace rubric
