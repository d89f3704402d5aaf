#include "HpssAuxiliary.h"

#include "stats/Correlation.h"
#include "store/Project.h"
#include "util/Json.h"
#include "util/Shuffle.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>
#include <cmath>
#include <vector>

namespace rubric::hpss {
namespace {

QVariantMap hashToVariant(const QHash<QString, QString> &h)
{
    QVariantMap m;
    for (auto it = h.begin(); it != h.end(); ++it)
        m.insert(it.key(), it.value());
    return m;
}

QHash<QString, QString> hashFromVariant(const QVariant &v)
{
    QHash<QString, QString> h;
    const QVariantMap m = v.toMap();
    for (auto it = m.begin(); it != m.end(); ++it)
        h.insert(it.key(), it.value().toString());
    return h;
}

} // namespace

QString Auxiliaries::autocotKey(const PromptStrategy &s)
{
    const bool self = s.valueName(Factor::Criteria) == QLatin1String("self");
    return QStringLiteral("%1/%2").arg(s.scaleMax()).arg(self ? QStringLiteral("self") : QStringLiteral("human"));
}

QVariantMap Auxiliaries::toVariant() const
{
    QVariantMap autocots;
    for (auto it = autocot.begin(); it != autocot.end(); ++it)
        autocots.insert(it.key(), it.value());
    QVariantMap edits;
    for (auto it = edited.begin(); it != edited.end(); ++it)
        edits.insert(it.key(), it.value());
    return {{QStringLiteral("criteria"), criteria},
            {QStringLiteral("autocot"), autocots},
            {QStringLiteral("references"), hashToVariant(references)},
            {QStringLiteral("metrics"), hashToVariant(metrics)},
            {QStringLiteral("edited"), edits}};
}

Auxiliaries Auxiliaries::fromVariant(const QVariant &value)
{
    const QVariantMap m = value.toMap();
    Auxiliaries a;
    a.criteria = m.value(QStringLiteral("criteria")).toString();
    const QVariantMap autocots = m.value(QStringLiteral("autocot")).toMap();
    for (auto it = autocots.begin(); it != autocots.end(); ++it)
        a.autocot.insert(it.key(), it.value().toString());
    a.references = hashFromVariant(m.value(QStringLiteral("references")));
    a.metrics = hashFromVariant(m.value(QStringLiteral("metrics")));
    const QVariantMap edits = m.value(QStringLiteral("edited")).toMap();
    for (auto it = edits.begin(); it != edits.end(); ++it)
        a.edited.insert(it.key(), it.value().toString());
    return a;
}

namespace state {

QString metaKey(const QString &judge)
{
    return QStringLiteral("hpss.state.") + judge;
}

Result<QVariantMap> load(const Project &project, const QString &judge)
{
    const auto read = project.readMeta(metaKey(judge));
    if (!read)
        return read.error();
    const QString &text = *read;
    if (text.isEmpty())
        return QVariantMap{};
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(QStringLiteral("the stored HPSS state of judge '%1' (project meta '%2') is not a JSON "
                                        "object: %3")
                                 .arg(judge, metaKey(judge), err.errorString()),
                         project.path(), 0, metaKey(judge));
    return doc.object().toVariantMap();
}

Result<void> save(Project &project, const QString &judge, const QVariantMap &state)
{
    return project.setMeta(metaKey(judge), json::stringify(state));
}

} // namespace state

PromptBuilder::PromptBuilder(TaskWording task, Aspect aspect, QVector<Item> validation, QHash<QString, double> human,
                             quint64 exampleSeed)
    : m_task(std::move(task))
    , m_aspect(std::move(aspect))
    , m_validation(std::move(validation))
    , m_human(std::move(human))
    , m_exampleSeed(exampleSeed)
{
}

QString itemFact(const Item &item)
{
    const QString fact = item.context.value(QStringLiteral("fact")).toString();
    return fact.isEmpty() ? item.context.value(QStringLiteral("knowledge")).toString() : fact;
}

QVector<int> PromptBuilder::exampleTargets(double hMin, double hMax, int n)
{
    const int lo = int(std::ceil(hMin));
    const int hi = int(std::floor(hMax));
    QVector<int> targets;
    if (n <= 0 || hi < lo)
        return targets;
    const int values = hi - lo + 1;
    for (int j = 0; j < n; ++j) {
        // A position on the centre of an even number of ratings (halfway between the middle two:
        // 0.5 of a 0-1 scale) is left out, as the official files do: groundedness shows 0 1 for
        // three examples and 0 0 1 1 for five (issue 32, point 5).
        if ((values - 1) % 2 == 1 && 2 * j == n - 1)
            continue;
        const double pos = n == 1 ? 0.0 : double(j) * (values - 1) / double(n - 1);
        targets.append(lo + int(std::nearbyint(pos))); // halves to even, as Python's round
    }
    return targets;
}

int PromptBuilder::scaleMin() const
{
    return m_aspect.min <= 0 ? 0 : 1;
}

const QMap<int, QVector<int>> &PromptBuilder::candidates() const
{
    if (m_candidatesMade)
        return m_candidates;
    m_candidatesMade = true;
    // The validation items per integer rating: those whose score is that integer; for a rating no
    // score equals, those whose score rounds to it (a mean of raters). In id order, then shuffled
    // with the example seed, so the draw depends on the seed alone.
    QMap<int, QVector<int>> exact, rounded;
    for (int i = 0; i < m_validation.size(); ++i) {
        const double h = m_human.value(m_validation[i].id, std::nan(""));
        if (!std::isfinite(h))
            continue;
        (std::abs(h - std::round(h)) < 1e-9 ? exact : rounded)[int(std::round(h))].append(i);
    }
    for (auto it = rounded.begin(); it != rounded.end(); ++it)
        if (!exact.contains(it.key()))
            exact.insert(it.key(), it.value());
    SeededRng rng(m_exampleSeed * 1000003ull + 17);
    for (auto it = exact.begin(); it != exact.end(); ++it) {
        std::sort(it->begin(), it->end(), [this](int a, int b) { return m_validation[a].id < m_validation[b].id; });
        seededShuffle(*it, rng);
    }
    m_candidates = exact;
    return m_candidates;
}

QVector<int> PromptBuilder::exampleSet(int n) const
{
    return exampleSetFor(n, {});
}

QVector<int> PromptBuilder::exampleSetFor(int n, const QString &itemId) const
{
    if (n <= 0)
        return {};
    const auto &byRating = candidates();
    QVector<int> picked;
    QHash<int, int> used;
    for (int target : exampleTargets(m_aspect.min, m_aspect.max, n)) {
        const QVector<int> list = byRating.value(target);
        int k = used.value(target);
        // The item being scored is never its own example: the next item of its rating stands in.
        while (k < list.size() && m_validation[list[k]].id == itemId)
            ++k;
        if (k >= list.size())
            continue; // no (further) item with this rating: left out, as the official files leave it
        picked.append(list[k]);
        used[target] = k + 1;
    }
    return picked;
}

Result<PromptInputs> PromptBuilder::inputs(const PromptStrategy &strategy, const Item &item,
                                           const Auxiliaries &aux) const
{
    PromptInputs in;
    in.task = m_task;
    in.aspect = m_aspect.name;
    in.source = item.source;
    in.output = item.output;
    in.fact = itemFact(item);
    in.humanMin = m_aspect.min;
    in.humanMax = m_aspect.max;
    in.scaleMin = scaleMin();
    const QString criteria = strategy.valueName(Factor::Criteria);
    if (criteria == QLatin1String("self")) {
        if (aux.criteria.isEmpty())
            return makeError(QStringLiteral("the self-generated criteria of aspect '%1' have not been made yet")
                                     .arg(m_aspect.name),
                             {}, 0, QStringLiteral("criteria"));
        in.criteria = aux.criteria;
    } else if (criteria == QLatin1String("human")) {
        in.criteria = rescaleAnchors(m_aspect.definition, m_aspect.min, m_aspect.max, in.scaleMin, strategy.scaleMax(),
                                     m_task.nativeScale);
    }
    if (strategy.valueName(Factor::Reference) == QLatin1String("self")) {
        in.reference = aux.references.value(item.id);
        if (in.reference.isEmpty())
            return makeError(
                    QStringLiteral("the self-generated reference of item '%1' has not been made yet").arg(item.id), {},
                    0, QStringLiteral("reference"));
    }
    if (strategy.valueName(Factor::AutoCot) == QLatin1String("on")) {
        in.autocot = aux.autocot.value(Auxiliaries::autocotKey(strategy));
        if (in.autocot.isEmpty())
            return makeError(QStringLiteral("the AutoCoT steps for %1 have not been made yet")
                                     .arg(Auxiliaries::autocotKey(strategy)),
                             {}, 0, QStringLiteral("autocot"));
    }
    if (strategy.valueName(Factor::Metrics) == QLatin1String("on")) {
        in.metrics = aux.metrics.value(item.id);
        if (in.metrics.isEmpty())
            return makeError(QStringLiteral("the metrics questions of item '%1' have not been made yet").arg(item.id),
                             {}, 0, QStringLiteral("metrics"));
    }
    for (int k : exampleSetFor(strategy.exampleCount(), item.id)) {
        const Item &e = m_validation[k];
        in.examples.append({e.source, e.output, m_human.value(e.id), itemFact(e)});
    }
    return in;
}

Result<RenderedPrompt> PromptBuilder::render(const PromptStrategy &strategy, const Item &item,
                                             const Auxiliaries &aux) const
{
    auto in = inputs(strategy, item, aux);
    if (!in)
        return in.error();
    return renderPrompt(strategy, *in);
}

MissingAux missingAux(const PromptStrategy &strategy, const QVector<Item> &items, const Auxiliaries &aux)
{
    MissingAux m;
    const bool selfCriteria = strategy.valueName(Factor::Criteria) == QLatin1String("self");
    m.criteria = selfCriteria && aux.criteria.isEmpty();
    if (strategy.valueName(Factor::AutoCot) == QLatin1String("on")
        && !aux.autocot.contains(Auxiliaries::autocotKey(strategy)))
        m.autocot.append(Auxiliaries::autocotKey(strategy));
    const bool refs = strategy.valueName(Factor::Reference) == QLatin1String("self");
    const bool metrics = strategy.valueName(Factor::Metrics) == QLatin1String("on");
    for (const Item &item : items) {
        if (refs && !aux.references.contains(item.id))
            m.references.append(item.id);
        if (metrics && !aux.metrics.contains(item.id))
            m.metrics.append(item.id);
    }
    return m;
}

MissingAux missingAux(const StrategySpace &space, const QVector<Item> &items, const Auxiliaries &aux)
{
    const auto enabled = [&space](Factor f, const char *value) {
        return space.isEnabled(f, int(factorValues(f).indexOf(QLatin1String(value))));
    };
    MissingAux m;
    const bool selfCriteria = enabled(Factor::Criteria, "self");
    m.criteria = selfCriteria && aux.criteria.isEmpty();
    if (enabled(Factor::AutoCot, "on")) {
        QStringList variants;
        if (enabled(Factor::Criteria, "human") || enabled(Factor::Criteria, "none"))
            variants.append(QStringLiteral("human")); // [code]: the human criteria's steps also serve none
        if (selfCriteria)
            variants.append(QStringLiteral("self"));
        for (int j : space.enabledValues(Factor::Scale))
            for (const QString &variant : std::as_const(variants))
                if (const QString key = factorValues(Factor::Scale)[j] + QLatin1Char('/') + variant;
                    !aux.autocot.contains(key))
                    m.autocot.append(key);
    }
    const bool refs = enabled(Factor::Reference, "self");
    const bool metrics = enabled(Factor::Metrics, "on");
    for (const Item &item : items) {
        if (refs && !aux.references.contains(item.id))
            m.references.append(item.id);
        if (metrics && !aux.metrics.contains(item.id))
            m.metrics.append(item.id);
    }
    return m;
}

double searchSpearman(const QVector<double> &scores, const QVector<double> &human, bool *constant)
{
    std::vector<double> x(scores.begin(), scores.end()), y(human.begin(), human.end());
    const double r = x.size() >= 3 ? stats::spearman(x, y) : std::nan("");
    if (constant)
        *constant = !std::isfinite(r);
    return std::isfinite(r) ? r : 0.0;
}

} // namespace rubric::hpss

namespace rubric::hpss {

double levelSpearman(const QVector<double> &scores, const QVector<double> &human, const QStringList &groups,
                     CorrelationLevel level, bool *constant)
{
    if (level == CorrelationLevel::Dataset)
        return searchSpearman(scores, human, constant);
    QMap<QString, std::pair<std::vector<double>, std::vector<double>>> byGroup;
    for (qsizetype i = 0; i < scores.size(); ++i) {
        auto &g = byGroup[groups.value(i)];
        g.first.push_back(scores[i]);
        g.second.push_back(human[i]);
    }
    double sum = 0;
    int defined = 0;
    for (const auto &g : std::as_const(byGroup)) {
        if (g.first.size() < 2)
            continue;
        const double r = stats::spearman(g.first, g.second);
        if (!std::isfinite(r))
            continue;
        sum += r;
        ++defined;
    }
    if (constant)
        *constant = defined == 0;
    return defined > 0 ? sum / defined : 0.0;
}

CorrelationLevel taskLevel(const TaskWording &task)
{
    return task.name == QLatin1String("summeval") ? CorrelationLevel::Summary : CorrelationLevel::Dataset;
}

} // namespace rubric::hpss
