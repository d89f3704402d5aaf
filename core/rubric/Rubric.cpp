#include "Rubric.h"

#include <algorithm>

namespace rubric {

Rubric::Rubric(QString method, QString aspect, QVector<Criterion> criteria)
    : m_method(std::move(method))
    , m_aspect(std::move(aspect))
    , m_criteria(std::move(criteria))
{
}

Criterion &Rubric::add(Criterion c)
{
    int next = 0;
    for (const Criterion &x : std::as_const(m_criteria))
        next = std::max(next, x.position + 1);
    c.position = next;
    if (c.key.isEmpty())
        c.key = criterionKindName(c.kind).left(1) + QString::number(next + 1);
    m_criteria.append(std::move(c));
    return m_criteria.last();
}

const Criterion *Rubric::find(const QString &key) const
{
    for (const Criterion &c : m_criteria)
        if (c.key == key)
            return &c;
    return nullptr;
}

Criterion *Rubric::find(const QString &key)
{
    for (Criterion &c : m_criteria)
        if (c.key == key)
            return &c;
    return nullptr;
}

QVector<Criterion> Rubric::children(const QString &parentKey) const
{
    QVector<Criterion> out;
    for (const Criterion &c : m_criteria)
        if (c.parentKey == parentKey)
            out.append(c);
    std::stable_sort(out.begin(), out.end(),
                     [](const Criterion &a, const Criterion &b) { return a.position < b.position; });
    return out;
}

QVector<Criterion> Rubric::ofKind(CriterionKind kind) const
{
    QVector<Criterion> out;
    for (const Criterion &c : m_criteria)
        if (c.kind == kind)
            out.append(c);
    std::stable_sort(out.begin(), out.end(),
                     [](const Criterion &a, const Criterion &b) { return a.position < b.position; });
    return out;
}

QVector<Criterion> Rubric::enabled(CriterionKind kind) const
{
    QVector<Criterion> out = ofKind(kind);
    out.erase(std::remove_if(out.begin(), out.end(), [](const Criterion &c) { return !c.enabled; }), out.end());
    return out;
}

} // namespace rubric
