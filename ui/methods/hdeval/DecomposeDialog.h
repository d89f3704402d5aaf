#pragma once

#include "methods/hdeval/HdEvalTree.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QListWidget;

namespace rubric {

class Project;

/// HD-Eval's "Decompose" for one node in the studio: asks the judge's generator (its stored run
/// configuration) for about `children` sub-criteria of the node (hdeval::proposeChildren, one
/// call, cached in the project, so the run asking the same later costs nothing), lists each
/// proposal with a checkbox to accept or reject it, and adds the accepted ones under the node
/// (hdeval::addNode, a new rubric version each). Their scores come with the judge's next run.
class DecomposeDialog : public QDialog
{
    Q_OBJECT
public:
    DecomposeDialog(Project *project, const QString &judge, const QString &nodeKey, QWidget *parent = nullptr);

    /// The proposals shown (empty until the generator answered, or when it failed).
    const QVector<hdeval::ProposedChild> &proposals() const { return m_proposals; }
    /// The keys of the nodes added by "Add accepted".
    QStringList addedKeys() const { return m_added; }
    /// The failure shown (empty while waiting and after an answer).
    QString errorText() const { return m_error; }

signals:
    /// The generator answered (or failed): the list is filled (or the error shown).
    void proposalsReady();

private:
    void showProposals(const Result<QVector<hdeval::ProposedChild>> &proposals);
    void addAccepted();
    void fail(const QString &message);

    Project *m_project;
    QString m_judge;
    QString m_nodeKey;
    QVector<hdeval::ProposedChild> m_proposals;
    QStringList m_added;
    QString m_error;
    QLabel *m_status;
    QListWidget *m_list;
    QDialogButtonBox *m_buttons;
};

} // namespace rubric
