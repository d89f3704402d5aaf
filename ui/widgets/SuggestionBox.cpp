#include "SuggestionBox.h"

#include "Settings.h"
#include "io/Splitter.h"
#include "stats/LabelSuggester.h"
#include "store/BrowseStore.h"
#include "store/Project.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSet>
#include <QVBoxLayout>

namespace rubric {

namespace {

/// Every item of the project as a suggestion candidate, in import order.
QVector<LabelSuggester::Candidate> allCandidates(const Project &project)
{
    QVector<LabelSuggester::Candidate> out;
    if (const auto labels = BrowseStore(&project).itemLabels(); labels)
        for (const ItemLabel &l : *labels)
            out.append({l.id, l.group, l.system});
    return out;
}

/// Candidates with how much the project's judges disagree on them (LabelSuggester::disagreement).
QVector<LabelSuggester::Candidate> withDisagreement(const Project &project,
                                                    QVector<LabelSuggester::Candidate> candidates)
{
    QVector<LabelSuggester::JudgeScore> scores;
    if (const auto stored = BrowseStore(&project).judgeScores(); stored)
        for (const ItemJudgeScore &s : *stored)
            scores.append({s.itemId, s.judge, s.aspect, s.score});
    const QHash<QString, double> d = LabelSuggester::disagreement(scores);
    for (auto &c : candidates)
        c.disagreement = d.value(c.id, std::numeric_limits<double>::quiet_NaN());
    return candidates;
}

} // namespace

SuggestionBox::SuggestionBox(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget(this))
    , m_stratum(new QComboBox(this))
    , m_makeSplit(new QPushButton(tr("Use 30 suggestions as the train split"), this))
    , m_byGroup(new QCheckBox(tr("whole sources"), this))
{
    m_list->setObjectName(QStringLiteral("suggestionList"));
    m_list->setFocusPolicy(Qt::NoFocus);
    m_list->setFlow(QListView::LeftToRight);
    m_list->setWrapping(true);
    m_list->setMaximumHeight(64);
    m_stratum->setObjectName(QStringLiteral("stratumCombo"));
    m_stratum->setFocusPolicy(Qt::NoFocus);
    m_stratum->addItem(tr("stratified by group"), QStringLiteral("group"));
    m_stratum->addItem(tr("stratified by system"), QStringLiteral("system"));
    m_stratum->addItem(tr("random"), QStringLiteral("none"));
    m_stratum->addItem(tr("most informative (judges disagree)"), QStringLiteral("disagreement"));
    m_stratum->setToolTip(tr("Stratified: every group (or system) gets a turn before any gets a second item. "
                             "Most informative: the items the project's judges disagree on most come first."));
    {
        const int i = m_stratum->findData(Settings::string(Settings::Key::SuggestStratum));
        m_stratum->setCurrentIndex(i < 0 ? 0 : i);
    }
    m_makeSplit->setObjectName(QStringLiteral("makeSplitButton"));
    m_makeSplit->setFocusPolicy(Qt::NoFocus);
    m_makeSplit->hide();
    m_byGroup->setObjectName(QStringLiteral("splitByGroup"));
    m_byGroup->setFocusPolicy(Qt::NoFocus);
    m_byGroup->setToolTip(tr("Group-disjoint split: each suggestion brings its whole group (source) to the train "
                             "split, so that no source of the training side is tested on."));
    m_byGroup->hide();

    connect(m_stratum, &QComboBox::currentIndexChanged, this, [this] {
        Settings::setValue(Settings::Key::SuggestStratum, m_stratum->currentData());
        emit stratumChanged();
    });
    const auto choose = [this](QListWidgetItem *item) {
        if (const QString id = item->data(Qt::UserRole).toString(); !id.isEmpty())
            emit itemChosen(id);
    };
    connect(m_list, &QListWidget::itemActivated, this, choose);
    connect(m_list, &QListWidget::itemClicked, this, choose);
    connect(m_makeSplit, &QPushButton::clicked, this, &SuggestionBox::makeTrainSplit);

    auto *header = new QHBoxLayout;
    header->addWidget(new QLabel(tr("<b>Label next</b>"), this));
    header->addWidget(m_stratum);
    header->addStretch(1);
    header->addWidget(m_byGroup);
    header->addWidget(m_makeSplit);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(m_list);
}

QString SuggestionBox::stratum() const
{
    return m_stratum->currentData().toString();
}

Result<QStringList> SuggestionBox::compute(const Project &project, bool queueIsTrain, bool queueEmpty,
                                           const QHash<QString, int> &scoredAspects, int aspectCount,
                                           const QString &annotator, const QString &stratumName)
{
    if (queueEmpty)
        return QStringList();
    // The queue's items not fully scored, in import order, with their labels (no texts): the
    // queue is the train split, or every item while there is none.
    auto labels = BrowseStore(&project).itemLabels(queueIsTrain);
    if (!labels)
        return labels.error();
    QVector<LabelSuggester::Candidate> candidates;
    for (const ItemLabel &l : std::as_const(*labels))
        if (scoredAspects.value(l.id) < aspectCount)
            candidates.append({l.id, l.group, l.system});
    labels = QVector<ItemLabel>();
    const auto stratum = LabelSuggester::stratumFromName(stratumName);
    if (stratum == LabelSuggester::Stratum::Disagreement)
        candidates = withDisagreement(project, std::move(candidates));
    // Seeded by the annotator, so the order is stable for one person and differs between people.
    const quint32 seed = quint32(qHash(annotator));
    return LabelSuggester::suggest(candidates, stratum, 8, seed);
}

void SuggestionBox::showSplitButton(const Project *project, bool queueIsTrain, bool queueEmpty)
{
    m_project = const_cast<Project *>(project);
    const bool canSplit = project && !queueIsTrain && !queueEmpty;
    m_makeSplit->setVisible(canSplit);
    m_byGroup->setVisible(canSplit);
}

void SuggestionBox::showComputing(const Project *project, bool queueIsTrain, bool queueEmpty)
{
    showSplitButton(project, queueIsTrain, queueEmpty);
    m_list->clear();
    if (project && !queueEmpty)
        new QListWidgetItem(tr("drawing suggestions…"), m_list);
}

void SuggestionBox::showSuggestions(const Project *project, bool queueIsTrain, bool queueEmpty,
                                    const Result<QStringList> &ids)
{
    showSplitButton(project, queueIsTrain, queueEmpty);
    m_list->clear();
    if (!project || queueEmpty)
        return;
    if (!ids) {
        new QListWidgetItem(tr("Cannot draw suggestions: %1").arg(ids.errorString()), m_list);
        return;
    }
    for (const QString &id : *ids) {
        auto *item = new QListWidgetItem(tr("item %1").arg(id), m_list);
        item->setData(Qt::UserRole, id);
    }
}

void SuggestionBox::makeTrainSplit()
{
    if (!m_project)
        return;
    const auto stratum = LabelSuggester::stratumFromName(m_stratum->currentData().toString());
    const QVector<LabelSuggester::Candidate> all = stratum == LabelSuggester::Stratum::Disagreement
                                                           ? withDisagreement(*m_project, allCandidates(*m_project))
                                                           : allCandidates(*m_project);
    QHash<QString, SplitRole> roles;
    if (m_byGroup->isChecked()) {
        // Every suggestion in turn brings its whole source, so no source is on both sides.
        auto whole
                = Splitter::wholeGroupsFrom(*m_project, LabelSuggester::suggest(all, stratum, int(all.size()), 1), 30);
        if (!whole) {
            emit problem(tr("Could not make a group-disjoint split: %1").arg(whole.errorString()));
            return;
        }
        roles = std::move(whole).value();
    } else {
        const QStringList train = LabelSuggester::suggest(all, stratum, 30, 1);
        for (const auto &c : all)
            roles.insert(c.id, SplitRole::Test);
        for (const QString &id : train)
            roles.insert(id, SplitRole::Train);
    }
    if (auto r = m_project->setSplit(roles); !r)
        emit problem(tr("Could not save the split: %1").arg(r.errorString()));
}

} // namespace rubric
