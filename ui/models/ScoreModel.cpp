#include "ScoreModel.h"

#include "PlainText.h"
#include "methods/MethodViews.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QSet>

#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
const QString sharedName = QStringLiteral("rubric-shared-score-model");

/// The judge's criteria and per-item criterion scores (mean over samples), read from the
/// project's rubric store, and the views of the judge's method.
struct CriterionData
{
    ScoreColumns columns;
    const MethodViews *views = &MethodViews::forMethod(QString());
};

Result<CriterionData> readCriteria(Project *project, const QString &judge, int columnSet)
{
    CriterionData out;
    if (judge.isEmpty())
        return out;
    const RubricStore store(project);
    const auto rubric = store.load(judge);
    if (rubric) {
        out.views = &MethodViews::forMethod(rubric->method());
        // another set of columns the method offers (CheckEval's sub-aspects)
        if (columnSet > 0 && columnSet < out.views->scoreColumnSets().size())
            if (auto own = out.views->readScoreColumns(store, judge, *rubric, columnSet)) {
                if (!*own)
                    return own->error();
                out.columns = std::move(*own).value();
                return out;
            }
    }
    const auto layerOf = [&](const Criterion &c) { return rubric ? out.views->scoreLayer(*rubric, c) : 0; };
    QSet<QString> scored;
    const auto rows = store.readCriterionScores(judge);
    if (!rows)
        return rows.error();
    ScoreColumns &cols = out.columns;
    for (const ItemCriterionScores &s : *rows) {
        if (std::isnan(s.mean))
            continue;
        cols.scores[s.itemId].insert(s.criterionKey, s.mean);
        scored.insert(s.criterionKey);
    }
    // Columns follow the order of the judge's latest rubric version: its enabled criteria, then
    // the disabled ones that have scores (e.g. hypotheses HypoEval tried on the train items and
    // did not select), then keys of older versions only, sorted. A method whose criteria have
    // layers (an HD-Eval tree) has them layer by layer (the aggregator's feature order).
    const auto read = store.readCriteria(judge);
    if (!read)
        return read.error();
    QVector<Criterion> criteria = *read;
    std::stable_sort(criteria.begin(), criteria.end(),
                     [&](const Criterion &a, const Criterion &b) { return layerOf(a) < layerOf(b); });
    for (const bool enabled : {true, false})
        for (const Criterion &c : std::as_const(criteria)) {
            if (c.enabled != enabled || !scored.contains(c.key))
                continue;
            const int layer = layerOf(c);
            cols.keys << c.key;
            cols.labels << (enabled ? c.text : ScoreModel::tr("(not used) %1").arg(c.text));
            if (layer > 0)
                cols.labels.last() = ScoreModel::tr("layer %1 · %2").arg(layer).arg(cols.labels.last());
            cols.layers << layer;
            scored.remove(c.key);
        }
    QStringList rest(scored.begin(), scored.end());
    rest.sort();
    for (const QString &key : std::as_const(rest)) {
        cols.keys << key;
        cols.labels << key;
        cols.layers << 0;
    }
    return out;
}

double valueOr(const QHash<QString, double> &hash, const QString &key)
{
    const auto it = hash.constFind(key);
    return it == hash.constEnd() ? NaN : *it;
}

} // namespace

Result<ScoreColumns> ScoreModel::readCriterionColumns(Project *project, const QString &judge, int columnSet)
{
    auto read = readCriteria(project, judge, columnSet);
    if (!read)
        return read.error();
    return std::move(read->columns);
}

ScoreModel *ScoreModel::of(Project *project)
{
    if (!project)
        return nullptr;
    if (auto *existing = project->findChild<ScoreModel *>(sharedName, Qt::FindDirectChildrenOnly))
        return existing;
    auto *model = new ScoreModel(project);
    model->setObjectName(sharedName);
    model->setProject(project);
    return model;
}

ScoreModel::ScoreModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(100);
    connect(&m_refresh, &QTimer::timeout, this, [this] { apply(read(), false); });
}

ScoreModel::~ScoreModel() = default;

void ScoreModel::setProject(Project *project)
{
    if (project == m_project)
        return;
    for (const auto &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_project = project;
    m_judge.clear();
    m_aspect.clear();
    if (m_project) {
        // Unreadable aspects or judges select nothing here; read() then reports the error.
        const auto aspects = m_project->aspects();
        if (!aspects.isEmpty())
            m_aspect = aspects.constFirst().name;
        const auto judges = ScoreGridStore(m_project).judges();
        for (const JudgeInfo &j : judges ? *judges : QVector<JudgeInfo>()) {
            if (j.aspects.contains(m_aspect)) {
                m_judge = j.name;
                break;
            }
        }
        m_connections << connect(m_project, &Project::itemsChanged, this, &ScoreModel::scheduleRefresh)
                      << connect(m_project, &Project::splitChanged, this, &ScoreModel::scheduleRefresh)
                      << connect(m_project, &Project::annotationsReset, this, &ScoreModel::scheduleRefresh)
                      << connect(m_project, &Project::aspectsChanged, this,
                                 [this] {
                                     // With no aspect selected yet, the first one is taken.
                                     const auto aspects = m_project->aspects();
                                     if (m_aspect.isEmpty() && !aspects.isEmpty())
                                         setAspect(aspects.constFirst().name);
                                     else
                                         scheduleRefresh();
                                 })
                      << connect(m_project, &Project::annotationChanged, this, &ScoreModel::onAnnotationChanged)
                      << connect(m_project, &Project::judgesChanged, this, &ScoreModel::onJudgesChanged);
    }
    // Nothing is read until asked for: the studio opens a project without its scores.
    beginResetModel();
    Snapshot none;
    adopt(none);
    m_loadError.clear();
    m_loaded = false;
    endResetModel();
    emit judgeChanged(m_judge);
    emit aspectChanged(m_aspect);
}

void ScoreModel::setJudge(const QString &judge)
{
    if (judge == m_judge)
        return;
    m_judge = judge;
    if (m_loaded)
        apply(read(), true);
    emit judgeChanged(m_judge);
}

void ScoreModel::setAspect(const QString &aspect)
{
    if (aspect == m_aspect)
        return;
    m_aspect = aspect;
    if (m_loaded)
        apply(read(), true);
    emit aspectChanged(m_aspect);
}

void ScoreModel::setColumnSet(int set)
{
    if (set == m_columnSet)
        return;
    m_columnSet = set;
    if (m_loaded)
        apply(read(), true);
}

bool ScoreModel::isChecklist() const
{
    ensureLoaded();
    return m_views->yesNoScores();
}

QStringList ScoreModel::columnSets() const
{
    ensureLoaded();
    return m_views->scoreColumnSets();
}

QString ScoreModel::columnSetsTip() const
{
    ensureLoaded();
    return m_views->scoreColumnSetsTip();
}

void ScoreModel::ensureLoaded() const
{
    if (m_loaded || !m_project)
        return;
    // The first look reads: no row was shown before, so the rows simply are there (no reset).
    auto *self = const_cast<ScoreModel *>(this);
    self->m_loaded = true;
    auto snapshot = read();
    self->m_loadError = snapshot.errorString();
    if (snapshot)
        self->adopt(*snapshot);
    if (!m_loadError.isEmpty())
        emit self->loadFailed(m_loadError);
}

void ScoreModel::reload()
{
    m_refresh.stop();
    if (m_loaded) // else the first look reads the project as it is then
        apply(read(), false);
}

void ScoreModel::scheduleRefresh()
{
    if (m_loaded && !m_refresh.isActive())
        m_refresh.start();
}

void ScoreModel::onAnnotationChanged(const QString &, const QString &aspect)
{
    if (aspect.isEmpty() || aspect == m_aspect)
        scheduleRefresh();
}

void ScoreModel::onJudgesChanged(const QString &judge)
{
    // With no judge selected yet, the first one that scores the aspect is taken.
    if (m_judge.isEmpty() && !judge.isEmpty() && m_project) {
        // A judge that cannot be read is not taken; the refresh below reports the error.
        const auto judges = ScoreGridStore(m_project).judges();
        for (const JudgeInfo &j : judges ? *judges : QVector<JudgeInfo>())
            if (j.name == judge && j.aspects.contains(m_aspect)) {
                setJudge(judge);
                return;
            }
    }
    if (judge.isEmpty() || judge == m_judge)
        scheduleRefresh();
}

Result<ScoreModel::Snapshot> ScoreModel::read() const
{
    Snapshot s;
    if (!m_project)
        return s;
    // Nothing selected must mean nothing to select, not a table that could not be read.
    if (m_aspect.isEmpty())
        if (auto aspects = m_project->readAspects(); !aspects)
            return aspects.error();
    if (m_judge.isEmpty())
        if (auto judges = ScoreGridStore(m_project).judges(); !judges)
            return judges.error();
    const auto readCriterionData = readCriteria(m_project, m_judge, m_columnSet);
    if (!readCriterionData)
        return readCriterionData.error();
    const ScoreColumns &criteria = readCriterionData->columns;
    s.views = readCriterionData->views;
    s.keys = criteria.keys;
    s.labels = criteria.labels;
    s.layers = criteria.layers;
    const int columns = FirstCriterionColumn + int(s.keys.size());

    auto grid = ScoreGridStore(m_project).read(m_aspect, m_judge.isEmpty() || m_aspect.isEmpty() ? QString() : m_judge);
    if (!grid)
        return grid.error();
    s.grid = std::move(grid).value();

    double aspectMin = 1, aspectMax = 5; // no aspect selected (a project without aspects)
    if (!m_aspect.isEmpty()) {
        const auto a = m_project->readAspect(m_aspect);
        if (!a)
            return a.error();
        if (*a) {
            aspectMin = (*a)->min;
            aspectMax = (*a)->max;
        }
    }
    s.minima = QVector<double>(columns, std::numeric_limits<double>::infinity());
    s.maxima = QVector<double>(columns, -std::numeric_limits<double>::infinity());

    const qsizetype rows = s.grid.ids.size();
    s.values.resize(rows * columns);
    for (qsizetype r = 0; r < rows; ++r) {
        double *row = s.values.data() + r * columns;
        row[HumanColumn] = s.grid.human[r];
        row[JudgeColumn] = s.grid.judge[r];
        if (!s.keys.isEmpty()) {
            const auto perItem = criteria.scores.value(s.grid.ids[r]);
            for (int k = 0; k < s.keys.size(); ++k)
                row[FirstCriterionColumn + k] = valueOr(perItem, s.keys[k]);
        }
        for (int c = 0; c < columns; ++c) {
            const double v = row[c];
            if (std::isnan(v))
                continue;
            s.minima[c] = std::min(s.minima[c], v);
            s.maxima[c] = std::max(s.maxima[c], v);
        }
    }
    // The columns are in the values now.
    s.grid.human = {};
    s.grid.judge = {};
    // Human and judge columns are coloured on the aspect's scale; criteria on their observed
    // range widened to at least the aspect's scale, so one colour means one value across columns.
    // A judge that does not score on the aspect's scale (ROUGE and length baselines) is coloured
    // on its own observed range, or every cell would take the same end of the ramp.
    for (int c = 0; c < columns; ++c) {
        const bool offScale = c == JudgeColumn && std::isfinite(s.minima[c])
                              && (s.minima[c] < aspectMin || s.maxima[c] > aspectMax) && s.maxima[c] > s.minima[c];
        if (offScale)
            continue;
        if (c >= FirstCriterionColumn && s.views->yesNoScores()) {
            // answers and shares of met questions: 0 (no) … 1 (yes)
            s.minima[c] = 0;
            s.maxima[c] = 1;
        } else if (c < FirstCriterionColumn || !std::isfinite(s.minima[c])) {
            s.minima[c] = aspectMin;
            s.maxima[c] = aspectMax;
        } else {
            s.minima[c] = std::min(s.minima[c], aspectMin);
            s.maxima[c] = std::max(s.maxima[c], aspectMax);
        }
    }
    return s;
}

void ScoreModel::adopt(Snapshot &s)
{
    m_views = s.views;
    m_criterionKeys = std::move(s.keys);
    m_criterionLabels = std::move(s.labels);
    m_criterionLayers = std::move(s.layers);
    m_minima = std::move(s.minima);
    m_maxima = std::move(s.maxima);
    m_grid = std::move(s.grid);
    m_values = std::move(s.values);
    m_rowCount = int(m_grid.ids.size());
}

void ScoreModel::apply(Result<Snapshot> read, bool forceReset)
{
    m_loaded = true;
    // A project that cannot be read shows no rows and says why; it never passes for one
    // without scores.
    const QString error = read.errorString();
    const bool failedBefore = !m_loadError.isEmpty();
    m_loadError = error;
    Snapshot s = read ? std::move(read).value() : Snapshot();
    forceReset = forceReset || !error.isEmpty() || failedBefore;
    const bool sameColumns = s.keys == m_criterionKeys;
    const int oldRows = m_rowCount;
    const int newRows = int(s.grid.ids.size());
    bool prefix = sameColumns && !forceReset && newRows >= oldRows;
    for (int r = 0; prefix && r < oldRows; ++r)
        prefix = s.grid.ids[r] == m_grid.ids[r];

    if (!prefix) {
        beginResetModel();
        adopt(s);
        endResetModel();
    } else {
        // The existing rows' values change in place (one dataChanged for the batch); appended
        // items arrive as an insert.
        if (newRows > oldRows) {
            beginInsertRows({}, oldRows, newRows - 1);
            adopt(s);
            endInsertRows();
        } else {
            adopt(s);
        }
        if (oldRows > 0)
            emit dataChanged(index(0, 0), index(oldRows - 1, columnCount() - 1));
        emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    }
    if (!error.isEmpty())
        emit loadFailed(error);
    emit refreshed();
}

double ScoreModel::score(int row, int column) const
{
    ensureLoaded();
    const int columns = columnCount();
    if (row < 0 || row >= m_rowCount || column < 0 || column >= columns)
        return NaN;
    return m_values[qsizetype(row) * columns + column];
}

QString ScoreModel::itemId(int row) const
{
    ensureLoaded();
    return (row >= 0 && row < m_rowCount) ? m_grid.ids[row] : QString();
}

int ScoreModel::rowOfItem(const QString &itemId) const
{
    ensureLoaded();
    return int(m_grid.ids.indexOf(itemId));
}

SplitRole ScoreModel::splitRole(int row) const
{
    ensureLoaded();
    return (row >= 0 && row < m_rowCount) ? m_grid.split[row] : SplitRole::None;
}

QString ScoreModel::group(int row) const
{
    ensureLoaded();
    return (row >= 0 && row < m_rowCount) ? m_grid.groupNames.value(m_grid.group[row]) : QString();
}

QString ScoreModel::system(int row) const
{
    ensureLoaded();
    return (row >= 0 && row < m_rowCount) ? m_grid.systemNames.value(m_grid.system[row]) : QString();
}

int ScoreModel::rowCount(const QModelIndex &parent) const
{
    ensureLoaded();
    return parent.isValid() ? 0 : m_rowCount;
}

int ScoreModel::columnCount(const QModelIndex &parent) const
{
    ensureLoaded();
    return parent.isValid() ? 0 : FirstCriterionColumn + int(m_criterionKeys.size());
}

QVariant ScoreModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int r = index.row();
    const double v = score(r, index.column());
    switch (role) {
    case Qt::DisplayRole:
        return std::isnan(v) ? QVariant() : QVariant(QString::number(v, 'f', 2));
    case Qt::ToolTipRole: {
        const QString column = headerData(index.column(), Qt::Horizontal, Qt::ToolTipRole).toString();
        return plain::toolTip(
                tr("%1 — %2: %3")
                        .arg(m_grid.ids[r], column, std::isnan(v) ? tr("no score") : QString::number(v, 'f', 2)));
    }
    case ScoreRole:
        return std::isnan(v) ? QVariant() : QVariant(v);
    case ResidualRole: {
        if (index.column() == HumanColumn)
            return {};
        const double residual = v - score(r, HumanColumn);
        return std::isnan(residual) ? QVariant() : QVariant(residual);
    }
    case ItemIdRole:
        return m_grid.ids[r];
    case SplitRoleRole:
        return int(m_grid.split[r]);
    case GroupRole:
        return group(r);
    case SystemRole:
        return system(r);
    default:
        return {};
    }
}

QVariant ScoreModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    ensureLoaded();
    if (orientation == Qt::Vertical) {
        if (section < 0 || section >= m_rowCount)
            return {};
        if (role == Qt::DisplayRole || role == ItemIdRole)
            return m_grid.ids[section];
        return {};
    }
    if (section < 0 || section >= columnCount())
        return {};
    const int k = section - FirstCriterionColumn;
    switch (role) {
    case Qt::DisplayRole:
        if (section == HumanColumn)
            return tr("Human");
        if (section == JudgeColumn)
            return tr("Judge");
        return m_criterionKeys[k];
    case Qt::ToolTipRole:
        if (section == HumanColumn)
            return tr("Mean human score (%1)").arg(m_aspect);
        if (section == JudgeColumn)
            return tr("Aggregated judge score of %1 (%2)").arg(m_judge, m_aspect);
        return m_criterionLabels[k] == m_criterionKeys[k]
                       ? m_criterionKeys[k]
                       : m_criterionKeys[k] + QStringLiteral(": ") + m_criterionLabels[k];
    case ColumnKeyRole:
        if (section == HumanColumn)
            return QStringLiteral("human");
        if (section == JudgeColumn)
            return QStringLiteral("judge");
        return m_criterionKeys[k];
    case Qt::BackgroundRole:
        if (const int layer = m_criterionLayers.value(k); layer > 0)
            return m_views->layerColour(layer);
        return {};
    case ColumnGroupRole:
        return m_criterionLayers.value(k);
    case ColumnKindRole:
        return int(section == HumanColumn   ? ColumnKind::Human
                   : section == JudgeColumn ? ColumnKind::Judge
                                            : ColumnKind::Criterion);
    case ScaleMinRole:
        return m_minima.value(section, 1.0);
    case ScaleMaxRole:
        return m_maxima.value(section, 5.0);
    default:
        return {};
    }
}

QHash<int, QByteArray> ScoreModel::roleNames() const
{
    auto names = QAbstractTableModel::roleNames();
    names.insert(ScoreRole, "score");
    names.insert(ResidualRole, "residual");
    names.insert(ItemIdRole, "itemId");
    names.insert(SplitRoleRole, "split");
    names.insert(GroupRole, "group");
    names.insert(SystemRole, "system");
    return names;
}

} // namespace rubric
