#include "methods/MethodViews.h"

#include "methods/MethodRegistry.h"
#include "models/RubricTreeModel.h"

namespace rubric {

/// The registered views by method name, and the default views (built on first use).
struct MethodViewsRegistry
{
    std::vector<std::pair<QString, std::unique_ptr<MethodViews>>> views = registeredMethodViews();
    MethodViews none;

    MethodViewsRegistry()
    {
        for (auto &[name, v] : views)
            v->m_method = name;
    }
    static const MethodViewsRegistry &instance()
    {
        static const MethodViewsRegistry registry;
        return registry;
    }
};

MethodViews::~MethodViews() = default;

const MethodViews &MethodViews::forMethod(const QString &method)
{
    const MethodViewsRegistry &r = MethodViewsRegistry::instance();
    for (const auto &[name, v] : r.views)
        if (name == method)
            return *v;
    return r.none;
}

QList<const MethodViews *> MethodViews::all()
{
    QList<const MethodViews *> out;
    for (const auto &entry : MethodViewsRegistry::instance().views)
        out << entry.second.get();
    return out;
}

QList<int> MethodViews::treeColumns(const MethodInfo *info) const
{
    using M = RubricTreeModel;
    const bool questions = info && info->kinds.contains(CriterionKind::Question);
    // A checklist's kinds are its levels (aspect → sub-aspect → question): no kind column.
    QList<int> out{M::TextColumn, M::EnabledColumn, M::OriginColumn};
    if (!questions)
        out.insert(1, M::KindColumn);
    const bool hypotheses = info && info->kinds.contains(CriterionKind::Hypothesis);
    if (hypotheses)
        out << M::RewardColumn << M::TrainPearsonColumn << M::RankColumn;
    else if (!questions)
        out << M::RankColumn; // a criterion's weight
    if (questions)
        out << M::YesRateColumn << M::DiscriminationColumn << M::AnsweredColumn << M::FlagsColumn;
    return out;
}

QVariant MethodViews::treeData(const Rubric &, const Criterion &, int, int, const QString &) const
{
    return {};
}

bool MethodViews::isTreeCheckable(const Rubric &, const Criterion &, int) const
{
    return false;
}

QUndoCommand *MethodViews::treeCheckCommand(RubricTreeModel *, const Criterion &, int, bool) const
{
    return nullptr;
}

QStringList MethodViews::criterionFlags(const Criterion &) const
{
    return {};
}

QString MethodViews::criterionWarning(const Criterion &) const
{
    return {};
}

QStringList MethodViews::scoreColumnSets() const
{
    return {};
}

QString MethodViews::scoreColumnSetsTip() const
{
    return {};
}

std::optional<Result<ScoreColumns>> MethodViews::readScoreColumns(const RubricStore &, const QString &, const Rubric &,
                                                                  int) const
{
    return std::nullopt;
}

int MethodViews::scoreLayer(const Rubric &, const Criterion &) const
{
    return 0;
}

QVariant MethodViews::layerColour(int) const
{
    return {};
}

bool MethodViews::yesNoScores() const
{
    return false;
}

RubricPanePart *MethodViews::createRubricPart(const RubricPaneContext &) const
{
    return nullptr;
}

HeatmapPanePart *MethodViews::createHeatmapPart(const HeatmapPaneContext &) const
{
    return nullptr;
}

QList<MethodPane> MethodViews::createPanes(const WindowContext &, QWidget *) const
{
    return {};
}

} // namespace rubric
