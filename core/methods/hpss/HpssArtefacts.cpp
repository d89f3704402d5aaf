#include "HpssArtefacts.h"

#include "methods/hpss/HpssSearch.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QSet>

#include <algorithm>

namespace rubric::hpss::artefacts {
namespace {

const QStringList &kindNames()
{
    static const QStringList names{QStringLiteral("criteria"), QStringLiteral("autocot"), QStringLiteral("reference"),
                                   QStringLiteral("metrics")};
    return names;
}

bool perItem(Kind k)
{
    return k == Kind::Reference || k == Kind::Metrics;
}

/// The judge's context: checks it is an HPSS judge, reads its state, the validation item ids
/// (train items with a human score on its aspect) and its latest winner.
struct JudgeView
{
    QVariantMap state;
    Auxiliaries aux;
    QVector<SearchRecord> evaluated;
    QSet<QString> validation;
    std::optional<PromptStrategy> winner;
};

Result<JudgeView> view(Project &project, const QString &judge)
{
    const auto info = project.judge(judge);
    if (!info)
        return makeError(QStringLiteral("no judge '%1' in %2").arg(judge, project.path()), project.path(), 0,
                         QStringLiteral("judge"));
    if (info->method != QLatin1String("hpss"))
        return makeError(QStringLiteral("judge '%1' was built by %2, not hpss: it has no auxiliary texts")
                                 .arg(judge, info->method),
                         project.path(), 0, QStringLiteral("judge"));
    JudgeView v;
    auto state = state::load(project, judge);
    if (!state)
        return state.error();
    v.state = *state;
    v.aux = Auxiliaries::fromVariant(v.state.value(QStringLiteral("aux")));
    if (v.state.contains(QStringLiteral("search"))) {
        auto search = HpssSearch::fromVariant(v.state.value(QStringLiteral("search")));
        if (!search)
            return makeError(QStringLiteral("the stored HPSS search of judge '%1' cannot be read: %2")
                                     .arg(judge, search.errorString()),
                             project.path(), 0, state::metaKey(judge));
        v.evaluated = search->evaluated();
    }
    RubricStore store(&project);
    const QString aspect = store.runConfig(judge).value(QStringLiteral("aspect")).toString();
    auto human = project.readHumanScores(aspect);
    if (!human)
        return human.error();
    auto train = project.readItemIds(SplitFilter::Train);
    if (!train)
        return train.error();
    for (const QString &id : std::as_const(*train))
        if (human->contains(id))
            v.validation.insert(id);
    if (auto rubric = store.load(judge); rubric)
        if (const Criterion *root = rubric->find(QStringLiteral("aspect")))
            if (auto s = PromptStrategy::fromVariant(root->stats.value(QStringLiteral("strategy"))); s)
                v.winner = *s;
    return v;
}

Entry entryOf(const JudgeView &v, Kind kind, const QString &key, const QString &text)
{
    Entry e;
    e.kind = kind;
    e.key = key;
    e.text = text;
    const QString id = entryId(kind, key);
    e.edited = v.aux.edited.contains(id);
    e.original = v.aux.edited.value(id);
    const bool inValidation = !perItem(kind) || v.validation.contains(key);
    if (inValidation)
        for (const SearchRecord &r : v.evaluated)
            if (uses(r.proposal.strategy, kind, key))
                e.usedBySteps.append(r.proposal.step);
    e.usedByWinner = v.winner && uses(*v.winner, kind, key);
    return e;
}

QString *slot(Auxiliaries &aux, Kind kind, const QString &key)
{
    switch (kind) {
    case Kind::Criteria:
        return &aux.criteria;
    case Kind::AutoCot:
        return &aux.autocot[key];
    case Kind::Reference:
        return &aux.references[key];
    case Kind::Metrics:
        return &aux.metrics[key];
    }
    return nullptr;
}

std::optional<QString> textOf(const Auxiliaries &aux, Kind kind, const QString &key)
{
    switch (kind) {
    case Kind::Criteria:
        return aux.criteria.isEmpty() ? std::nullopt : std::optional<QString>(aux.criteria);
    case Kind::AutoCot:
        return aux.autocot.contains(key) ? std::optional<QString>(aux.autocot.value(key)) : std::nullopt;
    case Kind::Reference:
        return aux.references.contains(key) ? std::optional<QString>(aux.references.value(key)) : std::nullopt;
    case Kind::Metrics:
        return aux.metrics.contains(key) ? std::optional<QString>(aux.metrics.value(key)) : std::nullopt;
    }
    return std::nullopt;
}

} // namespace

QString kindName(Kind k)
{
    return kindNames().at(int(k));
}

Result<Kind> kindFromName(const QString &name)
{
    const qsizetype i = kindNames().indexOf(name.trimmed().toLower());
    if (i < 0)
        return makeError(QStringLiteral("unknown auxiliary kind '%1' (known: %2)")
                                 .arg(name, kindNames().join(QStringLiteral(", "))),
                         {}, 0, QStringLiteral("kind"));
    return Kind(i);
}

QString entryId(Kind kind, const QString &key)
{
    return kind == Kind::Criteria ? kindName(kind) : kindName(kind) + QLatin1Char(':') + key;
}

bool uses(const PromptStrategy &strategy, Kind kind, const QString &key)
{
    switch (kind) {
    case Kind::Criteria:
        return strategy.valueName(Factor::Criteria) == QLatin1String("self");
    case Kind::AutoCot:
        return strategy.valueName(Factor::AutoCot) == QLatin1String("on") && Auxiliaries::autocotKey(strategy) == key;
    case Kind::Reference:
        return strategy.valueName(Factor::Reference) == QLatin1String("self");
    case Kind::Metrics:
        return strategy.valueName(Factor::Metrics) == QLatin1String("on");
    }
    return false;
}

QVariantMap Entry::toVariant() const
{
    QVariantList steps;
    for (int s : usedBySteps)
        steps.append(s);
    QVariantMap m{{QStringLiteral("kind"), kindName(kind)}, {QStringLiteral("key"), key},
                  {QStringLiteral("text"), text},           {QStringLiteral("edited"), edited},
                  {QStringLiteral("used_by_steps"), steps}, {QStringLiteral("used_by_winner"), usedByWinner}};
    if (edited)
        m.insert(QStringLiteral("original"), original);
    return m;
}

Result<QVector<Entry>> list(Project &project, const QString &judge)
{
    auto v = view(project, judge);
    if (!v)
        return v.error();
    QVector<Entry> out;
    if (!v->aux.criteria.isEmpty())
        out.append(entryOf(*v, Kind::Criteria, {}, v->aux.criteria));
    for (auto it = v->aux.autocot.begin(); it != v->aux.autocot.end(); ++it)
        out.append(entryOf(*v, Kind::AutoCot, it.key(), it.value()));
    for (const auto &[kind, texts] :
         {std::pair{Kind::Reference, &v->aux.references}, {Kind::Metrics, &v->aux.metrics}}) {
        QStringList keys = texts->keys();
        std::sort(keys.begin(), keys.end());
        for (const QString &key : std::as_const(keys))
            out.append(entryOf(*v, kind, key, texts->value(key)));
    }
    return out;
}

Result<Entry> read(Project &project, const QString &judge, Kind kind, const QString &key)
{
    auto v = view(project, judge);
    if (!v)
        return v.error();
    const auto text = textOf(v->aux, kind, key);
    if (!text)
        return makeError(QStringLiteral("judge '%1' has no %2 yet (the evaluator makes it when a strategy that needs "
                                        "it is evaluated)")
                                 .arg(judge, entryId(kind, key)),
                         project.path(), 0, perItem(kind) ? QStringLiteral("item") : QStringLiteral("key"));
    return entryOf(*v, kind, key, *text);
}

Result<EditOutcome> edit(Project &project, const QString &judge, Kind kind, const QString &key, const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return makeError(QStringLiteral("the new text of %1 is empty").arg(entryId(kind, key)), {}, 0,
                         QStringLiteral("text"));
    if (kind == Kind::Criteria && !key.isEmpty())
        return makeError(QStringLiteral("the criteria of a judge have no key (got '%1')").arg(key), {}, 0,
                         QStringLiteral("key"));
    if (kind == Kind::AutoCot) {
        const QString scale = key.section(QLatin1Char('/'), 0, 0);
        const QString variant = key.section(QLatin1Char('/'), 1);
        if (!factorValues(Factor::Scale).contains(scale)
            || (variant != QLatin1String("human") && variant != QLatin1String("self")))
            return makeError(QStringLiteral("bad AutoCoT key '%1': <scale>/<human|self> with a scale of %2")
                                     .arg(key, factorValues(Factor::Scale).join(QLatin1Char('|'))),
                             {}, 0, QStringLiteral("key"));
    }
    if (perItem(kind) && !project.item(key))
        return makeError(QStringLiteral("no item '%1' in %2").arg(key, project.path()), project.path(), 0,
                         QStringLiteral("item"));
    auto v = view(project, judge);
    if (!v)
        return v.error();
    const QString id = entryId(kind, key);
    const auto before = textOf(v->aux, kind, key);
    if (!v->aux.edited.contains(id))
        v->aux.edited.insert(id, before.value_or(QString()));
    *slot(v->aux, kind, key) = trimmed;
    if (v->aux.edited.value(id) == trimmed && before)
        v->aux.edited.remove(id); // back to the evaluator's text: no edit any more

    EditOutcome out;
    out.entry = entryOf(*v, kind, key, trimmed);
    QSet<int> stale;
    for (const QVariant &s : v->state.value(QStringLiteral("stale_steps")).toList())
        stale.insert(s.toInt());
    // An unchanged text leaves every answer valid.
    if (before != trimmed)
        for (int s : std::as_const(out.entry.usedBySteps))
            stale.insert(s);
    out.staleSteps = QVector<int>(stale.begin(), stale.end());
    std::sort(out.staleSteps.begin(), out.staleSteps.end());
    out.searchRepeats = !out.staleSteps.isEmpty();
    QVariantList steps;
    for (int s : std::as_const(out.staleSteps))
        steps.append(s);
    v->state.insert(QStringLiteral("aux"), v->aux.toVariant());
    if (steps.isEmpty())
        v->state.remove(QStringLiteral("stale_steps"));
    else
        v->state.insert(QStringLiteral("stale_steps"), steps);
    if (auto r = state::save(project, judge, v->state); !r)
        return r.error();
    return out;
}

Auxiliaries editedOnly(const Auxiliaries &aux)
{
    Auxiliaries out;
    out.edited = aux.edited;
    for (auto it = aux.edited.begin(); it != aux.edited.end(); ++it) {
        const QString kind = it.key().section(QLatin1Char(':'), 0, 0);
        const QString key = it.key().section(QLatin1Char(':'), 1);
        auto k = kindFromName(kind);
        if (!k)
            continue; // an id no version of this file wrote; its text is not kept
        if (const auto text = textOf(aux, *k, key))
            *slot(out, *k, key) = *text;
    }
    return out;
}

} // namespace rubric::hpss::artefacts
