#include "DecomposeDialog.h"

#include "methods/hdeval/HdEvalActions.h"
#include "methods/hdeval/HdEvalParams.h"
#include "runs/RunConfig.h"
#include "store/RubricStore.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSet>
#include <QVBoxLayout>

namespace rubric {

DecomposeDialog::DecomposeDialog(Project *project, const QString &judge, const QString &nodeKey, QWidget *parent)
    : QDialog(parent)
    , m_project(project)
    , m_judge(judge)
    , m_nodeKey(nodeKey)
    , m_status(new QLabel(this))
    , m_list(new QListWidget(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("decomposeDialog"));
    m_status->setObjectName(QStringLiteral("decomposeStatus"));
    m_list->setObjectName(QStringLiteral("decomposeProposals"));
    setWindowTitle(tr("Decompose %1").arg(nodeKey));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_list->setMinimumSize(560, 200);
    m_list->setWordWrap(true);
    QPushButton *add = m_buttons->button(QDialogButtonBox::Ok);
    add->setText(tr("Add accepted"));
    add->setEnabled(false);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &DecomposeDialog::addAccepted);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_buttons);

    // The generator and the child count the judge was built with.
    const auto spec = RunConfig::load(project, judge);
    if (!spec) {
        const QString message = tr("Cannot read the judge's run configuration: %1").arg(spec.errorString());
        QMetaObject::invokeMethod(
                this, [this, message] { fail(message); }, Qt::QueuedConnection);
        return;
    }
    const ProviderProfile generator = spec->generator.baseUrl.isEmpty() ? spec->evaluator : spec->generator;
    bool ok = false;
    int children = spec->settings.value(QStringLiteral("children")).toInt(&ok);
    if (!ok || children < 1)
        children = HdEvalParams().children;
    m_status->setText(tr("Asking %1 (%2) for about %3 sub-criteria of %4 …")
                              .arg(generator.model, generator.baseUrl)
                              .arg(children)
                              .arg(nodeKey));
    // A cached answer (the run asked the same) comes back inside this call: it is shown from the
    // event loop, after the dialog is set up, like a fresh one.
    hdeval::proposeChildren(project, judge, nodeKey, generator, children, this,
                            [this](Result<QVector<hdeval::ProposedChild>> r) {
                                QMetaObject::invokeMethod(
                                        this, [this, r] { showProposals(r); }, Qt::QueuedConnection);
                            });
}

void DecomposeDialog::showProposals(const Result<QVector<hdeval::ProposedChild>> &proposals)
{
    if (!proposals) {
        fail(tr("The generator gave no proposals for %1: %2").arg(m_nodeKey, proposals.errorString()));
        return;
    }
    m_proposals = *proposals;
    // A proposal the node already has as a child (the run decomposed it the same way) starts rejected.
    QSet<QString> existing;
    if (const auto rubric = RubricStore(m_project).load(m_judge))
        for (const Criterion &c : rubric->criteria())
            if (c.parentKey == m_nodeKey)
                existing.insert(c.text.trimmed().toLower());
    for (const hdeval::ProposedChild &c : std::as_const(m_proposals)) {
        const bool known = existing.contains(c.name.trimmed().toLower());
        // Plain text: a list item never interprets markup.
        auto *item = new QListWidgetItem(c.name + QStringLiteral(": ") + c.definition
                                                 + (known ? tr(" (already under this node)") : QString()),
                                         m_list);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(known ? Qt::Unchecked : Qt::Checked);
    }
    m_status->setText(tr("%n proposal(s) for %1. Uncheck those to reject, then add the accepted ones; their scores "
                         "come with the judge's next run (one call per item and node).",
                         nullptr, int(m_proposals.size()))
                              .arg(m_nodeKey));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_proposals.isEmpty());
    emit proposalsReady();
}

void DecomposeDialog::addAccepted()
{
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->checkState() != Qt::Checked)
            continue;
        auto key = hdeval::addNode(m_project, m_judge, m_nodeKey, m_proposals.at(i),
                                   {{QStringLiteral("step"), QStringLiteral("studio-decompose")}});
        if (!key) {
            fail(tr("Could not add %1: %2").arg(m_proposals.at(i).name, key.errorString()));
            return;
        }
        m_added << *key;
    }
    accept();
}

void DecomposeDialog::fail(const QString &message)
{
    m_error = message;
    m_status->setText(message);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    emit proposalsReady();
}

} // namespace rubric
