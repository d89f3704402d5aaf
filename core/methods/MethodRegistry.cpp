#include "MethodRegistry.h"

#include "methods/Method.h"
#include "store/Project.h"

namespace rubric {

const MethodParam *MethodInfo::param(const QString &key) const
{
    for (const MethodParam &p : params)
        if (p.key == key)
            return &p;
    return nullptr;
}

bool MethodParam::accepts(const QString &text) const
{
    bool ok = false;
    switch (type) {
    case Type::Int: {
        const int v = text.toInt(&ok);
        return ok && v >= min && v <= max;
    }
    case Type::Double: {
        const double v = text.toDouble(&ok);
        return ok && v >= min && v <= max;
    }
    case Type::Choice:
        return choices.contains(text);
    case Type::Bool:
        return QStringList{QStringLiteral("true"), QStringLiteral("false"), QStringLiteral("on"),
                           QStringLiteral("off"),  QStringLiteral("1"),     QStringLiteral("0")}
                .contains(text);
    default:
        return true;
    }
}

CriterionKind MethodInfo::childKind(CriterionKind parent) const
{
    const auto at = kinds.indexOf(parent);
    if (at < 0)
        return kinds.isEmpty() ? CriterionKind::Criterion : kinds.last();
    return kinds.value(at + 1, kinds.last());
}

namespace MethodRegistry {

const QVector<MethodInfo> &all()
{
    static const QVector<MethodInfo> methods = registeredMethods();
    return methods;
}

const MethodInfo *find(const QString &name)
{
    for (const MethodInfo &m : all())
        if (m.name == name)
            return &m;
    return nullptr;
}

QStringList names()
{
    QStringList out;
    for (const MethodInfo &m : all())
        out << m.name;
    return out;
}

QStringList exportedRootStats(const QString &name)
{
    const MethodInfo *m = find(name);
    return m ? m->exportedStats : QStringList();
}

ScoreNotesFor scoreNotesFor(Project &project)
{
    return [&project](const QString &judge) -> Result<std::optional<ScoreNotes>> {
        const auto info = project.readJudge(judge, Project::JudgeCounts::Skip);
        if (!info)
            return info.error();
        const MethodInfo *m = *info ? find((*info)->method) : nullptr;
        if (!m || !m->scoreNotes)
            return std::optional<ScoreNotes>();
        return m->scoreNotes(project, judge);
    };
}

} // namespace MethodRegistry

QVariant methodParamValue(const RunSpec &spec, const MethodParam &param)
{
    return spec.settings.value(param.key, param.unsetOrDefault());
}

void setMethodParamValue(RunSpec &spec, const MethodParam &param, const QVariant &value)
{
    if (param.type == MethodParam::Type::Double)
        spec.settings.insert(param.key, QString::number(value.toDouble(), 'g', 10));
    else if (param.type == MethodParam::Type::Folder)
        spec.settings.insert(param.key, value.toString().trimmed());
    else
        spec.settings.insert(param.key, value.toString());
}

} // namespace rubric
