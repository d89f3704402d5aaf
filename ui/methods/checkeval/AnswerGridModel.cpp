#include "AnswerGridModel.h"

#include "PlainText.h"
#include "methods/checkeval/Checklist.h"
#include "store/RubricStore.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QSet>

#include <cmath>

namespace rubric {
namespace {

const QString kCheckEval = QStringLiteral("checkeval");

QSet<QString> questionKeys(const Rubric &r)
{
    QSet<QString> out;
    for (const Criterion &c : r.ofKind(CriterionKind::Question))
        out.insert(c.key);
    return out;
}

} // namespace

AnswerGridModel::AnswerGridModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void AnswerGridModel::setProject(Project *project)
{
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    m_project = project;
    if (m_project)
        connect(m_project, &Project::judgesChanged, this, [this](const QString &judge) {
            if (judge.isEmpty() || judges().contains(judge))
                reload();
        });
    setItem({}, {});
}

void AnswerGridModel::setItem(const QString &judge, const QString &itemId)
{
    m_judge = judge;
    m_itemId = itemId;
    reload();
}

QStringList AnswerGridModel::judges() const
{
    QStringList out;
    for (const Column &c : m_columns)
        out << c.judge;
    return out;
}

double AnswerGridModel::coverage(int index) const
{
    if (index < 0 || index >= m_columns.size() || m_columns[index].enabled == 0)
        return std::nan("");
    return double(m_columns[index].answered) / m_columns[index].enabled;
}

int AnswerGridModel::rowOfKey(const QString &key) const
{
    for (int r = 0; r < m_rows.size(); ++r)
        if (m_rows[r].node.key == key)
            return r;
    return -1;
}

Result<QStringList> AnswerGridModel::sharingJudges(Project *project, const QString &judge)
{
    if (!project || judge.isEmpty())
        return QStringList();
    const RubricStore store(project);
    const auto own = store.loadLatest(judge);
    if (!own)
        return own.error();
    if (!*own || (*own)->method() != kCheckEval)
        return QStringList();
    const QSet<QString> keys = questionKeys(**own);
    const auto judges = project->readJudges();
    if (!judges)
        return judges.error();
    QStringList out{judge};
    for (const JudgeInfo &j : *judges) {
        if (j.name == judge || j.method != kCheckEval)
            continue;
        const auto other = store.loadLatest(j.name);
        if (!other)
            return other.error();
        if (*other && (*other)->method() == kCheckEval && (*other)->aspect() == (*own)->aspect()
            && questionKeys(**other) == keys)
            out << j.name;
    }
    return out;
}

Result<void> AnswerGridModel::read()
{
    const auto shown = sharingJudges(m_project, m_judge);
    if (!shown)
        return shown.error();
    if (shown->isEmpty() || m_itemId.isEmpty())
        return {};
    const RubricStore store(m_project);
    // Rows from the given judge's checklist: each enabled sub-aspect, then the questions it asks.
    const auto rubric = store.load(m_judge);
    if (!rubric)
        return rubric.error();
    QString groupKey;
    for (const Criterion &q : Checklist::askedQuestions(*rubric)) {
        if (const Criterion *s = rubric->find(q.parentKey);
            s && s->kind == CriterionKind::SubAspect && s->key != groupKey) {
            m_rows.append({*s, true});
            groupKey = s->key;
        }
        m_rows.append({q, false});
    }
    for (const QString &judge : *shown) {
        Column column;
        column.judge = judge;
        const auto own = store.load(judge);
        if (!own)
            return own.error();
        QSet<QString> enabled;
        for (const Criterion &q : Checklist::askedQuestions(*own)) {
            enabled.insert(q.key);
            if (Checklist::isInverted(q))
                column.inverted.insert(q.key);
        }
        column.enabled = int(enabled.size());
        const auto scores = store.readSampleScores(judge);
        if (!scores)
            return scores.error();
        for (const CriterionScore &s : *scores) {
            if (s.itemId != m_itemId || s.sample != 0)
                continue;
            column.answers.insert(s.criterionKey, {s.score, s.answer, s.parseStatus, s.raw, s.reasoning});
            if (enabled.contains(s.criterionKey) && !std::isnan(s.score))
                ++column.answered;
        }
        m_columns.append(std::move(column));
    }
    return {};
}

void AnswerGridModel::reload()
{
    beginResetModel();
    m_rows.clear();
    m_columns.clear();
    m_error.clear();
    if (auto r = read(); !r) {
        // Nothing half-read is shown: an empty grid, and the reason for whoever shows it.
        m_rows.clear();
        m_columns.clear();
        m_error = r.errorString();
    }
    endResetModel();
}

int AnswerGridModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AnswerGridModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : 1 + int(m_columns.size());
}

QString AnswerGridModel::cellText(const Row &row, const Column &column) const
{
    if (row.group) {
        // The sub-aspect's share of met questions (yes, or no for an inverted one).
        int met = 0, answered = 0;
        for (const Row &q : m_rows) {
            if (q.group || q.node.parentKey != row.node.key)
                continue;
            const auto it = column.answers.constFind(q.node.key);
            if (it == column.answers.constEnd() || std::isnan(it->score))
                continue;
            ++answered;
            if (it->score >= 0.5) // stored as meets-criterion: the polarity is applied once, when read
                ++met;
        }
        return answered == 0 ? tr("—") : tr("%1/%2").arg(met).arg(answered);
    }
    const auto it = column.answers.constFind(row.node.key);
    if (it == column.answers.constEnd() || std::isnan(it->score))
        return tr("—");
    const bool meets = it->score >= 0.5;
    const QString said = literal(*it);
    if (said.isEmpty()) // an answer stored without its literal form: only whether it is met is known
        return meets ? tr("met") : tr("not met");
    return meets ? tr("%1 · met").arg(said == QLatin1String("yes") ? tr("yes") : tr("no"))
                 : tr("%1 · not met").arg(said == QLatin1String("yes") ? tr("yes") : tr("no"));
}

QString AnswerGridModel::literal(const Answer &a)
{
    if (std::isnan(a.score) || std::isnan(a.answer))
        return {};
    return a.answer >= 0.5 ? QStringLiteral("yes") : QStringLiteral("no");
}

QVariant AnswerGridModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[index.row()];
    if (role == GroupRowRole)
        return row.group;
    if (role == CriterionKeyRole)
        return row.node.key;
    if (role == Qt::FontRole && row.group) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (index.column() == 0) {
        switch (role) {
        case Qt::DisplayRole:
            return row.group ? row.node.text : tr("%1  %2").arg(row.node.key, row.node.text);
        case Qt::ToolTipRole:
            return plain::toolTip(row.node.definition.isEmpty()
                                          ? row.node.text
                                          : tr("%1\n\n%2").arg(row.node.text, row.node.definition));
        case Qt::BackgroundRole:
            return row.group ? QBrush(QColor(0xe8, 0xea, 0xf0)) : QVariant();
        default:
            return {};
        }
    }
    const Column &column = m_columns[index.column() - 1];
    const auto it = column.answers.constFind(row.node.key);
    const bool has = !row.group && it != column.answers.constEnd();
    const bool answered = has && !std::isnan(it->score);
    switch (role) {
    case Qt::DisplayRole:
        return cellText(row, column);
    case Qt::TextAlignmentRole:
        return int(Qt::AlignCenter);
    case Qt::BackgroundRole:
        if (row.group)
            return QBrush(QColor(0xe8, 0xea, 0xf0));
        if (!answered)
            return QBrush(QColor(0xe0, 0xe0, 0xe0));
        // green where the answer meets the criterion, red where it does not
        return it->score >= 0.5 ? QBrush(QColor(0xa5, 0xd6, 0xa7)) : QBrush(QColor(0xef, 0x9a, 0x9a));
    case Qt::ToolTipRole: {
        if (row.group)
            return plain::toolTip(tr("%1: questions of \"%2\" met / answered").arg(column.judge, row.node.text));
        QString tip = !has ? tr("%1: no answer stored").arg(column.judge)
                      : it->status == QLatin1String("failed")
                              ? tr("%1: the endpoint refused the call").arg(column.judge)
                      : !answered ? tr("%1: the answer did not cover this question (unanswered)").arg(column.judge)
                                  : tr("%1 answered %2").arg(column.judge, cellText(row, column));
        if (column.inverted.contains(row.node.key))
            tip += QLatin1Char('\n') + tr("Polarity inverted: \"no\" meets the criterion");
        // Answered under the other polarity (inverted or restored since): the item score counted
        // it as stored; a re-score counts it with the checklist's polarity.
        if (answered && !literal(*it).isEmpty()
            && ((it->answer >= 0.5) != column.inverted.contains(row.node.key)) != (it->score >= 0.5))
            tip += QLatin1Char('\n')
                   + tr("Answered before the question's polarity changed: counted as stored until the judge is "
                        "scored again");
        return plain::toolTip(tip + QLatin1Char('\n') + tr("Click to read the judge's answer"));
    }
    case AnswerRole:
        return answered ? literal(*it) : QString();
    case MeetsRole:
        return answered ? QVariant(it->score >= 0.5) : QVariant();
    case RawRole:
        return has ? it->raw : QString();
    case ReasoningRole:
        return has ? it->reasoning : QString();
    case StatusRole:
        return has ? it->status : QString();
    default:
        return {};
    }
}

QVariant AnswerGridModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    if (section == 0)
        return role == Qt::DisplayRole ? QVariant(tr("Question")) : QVariant();
    const Column &c = m_columns[section - 1];
    const double cov = coverage(section - 1);
    switch (role) {
    case Qt::DisplayRole:
        return std::isnan(cov) ? c.judge : tr("%1\ncoverage %2%").arg(c.judge).arg(std::lround(100 * cov));
    case Qt::ToolTipRole:
        return tr("%1 answered %2 of the %3 questions it asks on this item")
                .arg(c.judge)
                .arg(c.answered)
                .arg(c.enabled);
    default:
        return {};
    }
}

} // namespace rubric
