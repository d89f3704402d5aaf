#include "MethodRegistry.h"

#include "methods/Method.h"

namespace rubric {

const MethodParam *MethodInfo::param(const QString &key) const
{
    for (const MethodParam &p : params)
        if (p.key == key)
            return &p;
    return nullptr;
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

} // namespace MethodRegistry

// The parameters that are RunSpec fields of their own rather than settings entries.
QVariant methodParamValue(const RunSpec &spec, const MethodParam &param)
{
    if (param.key == QLatin1String("logprobs") && spec.method == QLatin1String("geval"))
        return spec.logprobs;
    if (param.key == QLatin1String("samples") && spec.method == QLatin1String("geval"))
        return spec.samples;
    if (param.key == QLatin1String("literature") && spec.method == QLatin1String("hypoeval"))
        return spec.literatureDir;
    return spec.settings.value(param.key, param.defaultValue);
}

void setMethodParamValue(RunSpec &spec, const MethodParam &param, const QVariant &value)
{
    if (param.key == QLatin1String("logprobs") && spec.method == QLatin1String("geval"))
        spec.logprobs = value.toBool();
    else if (param.key == QLatin1String("samples") && spec.method == QLatin1String("geval"))
        spec.samples = value.toInt();
    else if (param.key == QLatin1String("literature") && spec.method == QLatin1String("hypoeval"))
        spec.literatureDir = value.toString().trimmed();
    else if (param.type == MethodParam::Type::Double)
        spec.settings.insert(param.key, QString::number(value.toDouble(), 'g', 10));
    else
        spec.settings.insert(param.key, value.toString());
}

} // namespace rubric
