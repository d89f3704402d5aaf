#pragma once

#include "rubric/RubricDiff.h"

#include <QDialog>

class QPlainTextEdit;

namespace rubric {

/// Shows what changed between two versions of a judge's rubric (RubricDiff): one line per
/// change, added (+), removed (−) and changed (~) criteria, with the old and the new text.
class RubricDiffDialog : public QDialog
{
    Q_OBJECT
public:
    RubricDiffDialog(const QString &judge, const Rubric &before, const Rubric &after, QWidget *parent = nullptr);

    QString text() const;

private:
    QPlainTextEdit *m_text;
};

} // namespace rubric
