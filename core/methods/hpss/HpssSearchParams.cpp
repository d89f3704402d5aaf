#include "methods/hpss/HpssSearch.h"

#include <QVariantList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

namespace rubric::hpss {

namespace {

const QStringList &algorithmNames()
{
    static const QStringList names = {QStringLiteral("hpss"),     QStringLiteral("greedy"), QStringLiteral("stepwise"),
                                      QStringLiteral("mutation"), QStringLiteral("random"), QStringLiteral("opro"),
                                      QStringLiteral("ape")};
    return names;
}

const QStringList &moveNames()
{
    static const QStringList names = {QStringLiteral("init"),   QStringLiteral("explore"), QStringLiteral("exploit"),
                                      QStringLiteral("mutate"), QStringLiteral("greedy"),  QStringLiteral("stepwise"),
                                      QStringLiteral("random"), QStringLiteral("opro")};
    return names;
}

Error settingError(const QString &key, const QString &message)
{
    return makeError(message, {}, 0, key);
}

Result<int> readInt(const QString &key, const QString &value, int min)
{
    bool ok = false;
    const int v = value.trimmed().toInt(&ok);
    if (!ok || v < min)
        return settingError(key, QStringLiteral("'%1' is not a whole number ≥ %2").arg(value).arg(min));
    return v;
}

Result<double> readDouble(const QString &key, const QString &value, double min, double max, bool openMin)
{
    bool ok = false;
    const double v = value.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < min || v > max || (openMin && v == min))
        return settingError(key, QStringLiteral("'%1' is not a number in %2%3, %4]")
                                         .arg(value, openMin ? QStringLiteral("(") : QStringLiteral("["))
                                         .arg(min)
                                         .arg(max));
    return v;
}

} // namespace

QString searchAlgorithmName(SearchAlgorithm a)
{
    return algorithmNames().at(int(a));
}

QString searchMoveName(SearchMove m)
{
    return moveNames().at(int(m));
}

// --- SearchParams -------------------------------------------------------------------------------

Result<void> SearchParams::set(const QString &rawKey, const QString &value)
{
    const QString key = rawKey.trimmed().toLower();
    auto assignInt = [&](int &target, int min) -> Result<void> {
        auto v = readInt(key, value, min);
        if (!v)
            return v.error();
        target = *v;
        return {};
    };
    auto assignDouble = [&](double &target, double min, double max, bool openMin) -> Result<void> {
        auto v = readDouble(key, value, min, max, openMin);
        if (!v)
            return v.error();
        target = *v;
        return {};
    };
    const double inf = std::numeric_limits<double>::max();
    if (key == QLatin1String("search")) {
        const int a = algorithmNames().indexOf(value.trimmed().toLower());
        if (a < 0)
            return settingError(key, QStringLiteral("unknown search '%1' (expected %2)")
                                             .arg(value, algorithmNames().join(QLatin1Char('|'))));
        algorithm = SearchAlgorithm(a);
        return {};
    }
    if (key == QLatin1String("budget"))
        return assignInt(budget, 1);
    if (key == QLatin1String("population"))
        return assignInt(population, 1);
    if (key == QLatin1String("mutations"))
        return assignInt(mutations, 1);
    if (key == QLatin1String("greedy_batch"))
        return assignInt(greedyBatch, 1);
    if (key == QLatin1String("max_rounds"))
        return assignInt(maxRounds, 1);
    if (key == QLatin1String("opro_shown"))
        return assignInt(oproShown, 1);
    if (key == QLatin1String("ape_queue"))
        return assignInt(apeQueue, 1);
    if (key == QLatin1String("exploit"))
        return assignDouble(exploit, 0, 1, false);
    if (key == QLatin1String("temperature"))
        return assignDouble(temperature, 0, inf, true);
    if (key == QLatin1String("ucb"))
        return assignDouble(ucb, 0, inf, false);
    if (key == QLatin1String("score_scale"))
        return assignDouble(scoreScale, 0, inf, true);
    if (key == QLatin1String("seed") || key == QLatin1String("example_seed")) {
        bool ok = false;
        const quint64 v = value.trimmed().toULongLong(&ok);
        if (!ok)
            return settingError(key, QStringLiteral("'%1' is not a whole number ≥ 0").arg(value));
        (key == QLatin1String("seed") ? seed : exampleSeed) = v;
        return {};
    }
    if (key == QLatin1String("level")) {
        if (value.trimmed() == QLatin1String("dataset"))
            level = CorrelationLevel::Dataset;
        else if (value.trimmed() == QLatin1String("summary"))
            level = CorrelationLevel::Summary;
        else
            return settingError(key, QStringLiteral("unknown level '%1' (expected dataset|summary)").arg(value));
        return {};
    }
    if (key == QLatin1String("unparsed")) {
        const QString v = value.trimmed();
        if (v == QLatin1String("fallback"))
            unparsed = UnparsedPolicy::Fallback;
        else if (v == QLatin1String("drop"))
            unparsed = UnparsedPolicy::Drop;
        else if (v == QLatin1String("reask"))
            unparsed = UnparsedPolicy::Reask;
        else
            return settingError(key, QStringLiteral("unknown policy '%1' (expected fallback|drop|reask)").arg(value));
        return {};
    }
    if (key == QLatin1String("origin")) {
        auto s = PromptStrategy::parse(value);
        if (!s)
            return settingError(key, s.error().toString());
        origin = *s;
        return {};
    }
    if (key == QLatin1String("space")) {
        if (value.trimmed() == QLatin1String("full"))
            space = StrategySpace::full();
        else if (value.trimmed() == QLatin1String("pairwise"))
            space = StrategySpace::pairwise();
        else
            return settingError(key, QStringLiteral("unknown space '%1' (expected full|pairwise)").arg(value));
        return {};
    }
    if (key == QLatin1String("disable")) {
        // "disable=scale:3;reference:dialectic": values the search never visits
        for (const QString &item : value.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
            const qsizetype colon = item.indexOf(QLatin1Char(':'));
            if (colon < 0)
                return settingError(key, QStringLiteral("'%1' is not factor:value").arg(item));
            auto f = factorFromName(item.left(colon));
            if (!f)
                return settingError(key, f.error().toString());
            if (auto r = space.disable(*f, item.mid(colon + 1).trimmed()); !r)
                return settingError(key, r.error().toString());
        }
        return {};
    }
    return settingError(key, QStringLiteral("unknown setting (expected search, budget, population, mutations, "
                                            "exploit, temperature, ucb, seed, example_seed, level, unparsed, origin, "
                                            "space, disable, score_scale, "
                                            "greedy_batch, max_rounds, opro_shown, ape_queue)"));
}

QString correlationLevelName(CorrelationLevel level)
{
    return level == CorrelationLevel::Summary ? QStringLiteral("summary") : QStringLiteral("dataset");
}

QString unparsedPolicyName(UnparsedPolicy policy)
{
    switch (policy) {
    case UnparsedPolicy::Fallback:
        return QStringLiteral("fallback");
    case UnparsedPolicy::Drop:
        return QStringLiteral("drop");
    case UnparsedPolicy::Reask:
        return QStringLiteral("reask");
    }
    return {};
}

Result<void> SearchParams::validate() const
{
    if (!space.contains(origin))
        return settingError(QStringLiteral("origin"), QStringLiteral("%1 uses a disabled value").arg(origin.format()));
    const qint64 init = 1 + space.neighbours(origin).size();
    if ((algorithm == SearchAlgorithm::Hpss || algorithm == SearchAlgorithm::Mutation
         || algorithm == SearchAlgorithm::Opro)
        && budget < init)
        return settingError(QStringLiteral("budget"),
                            QStringLiteral("%1 does not cover the %2 initial evaluations").arg(budget).arg(init));
    if (budget > space.size() && algorithm != SearchAlgorithm::Ape) // APE's candidates are texts, not strategies
        return settingError(
                QStringLiteral("budget"),
                QStringLiteral("%1 is larger than the space (%2 strategies)").arg(budget).arg(space.size()));
    if (population < 1 || mutations < 1 || greedyBatch < 1 || maxRounds < 1 || budget < 1 || oproShown < 1)
        return settingError(QStringLiteral("population"), QStringLiteral("counts must be at least 1"));
    if (!(temperature > 0) || !(ucb >= 0) || !(exploit >= 0 && exploit <= 1) || !(scoreScale > 0))
        return settingError(QStringLiteral("temperature"), QStringLiteral("a real setting is out of range"));
    return {};
}

QVariantMap SearchParams::toVariant() const
{
    QVariantMap m{{QStringLiteral("search"), searchAlgorithmName(algorithm)},
                  {QStringLiteral("budget"), budget},
                  {QStringLiteral("population"), population},
                  {QStringLiteral("mutations"), mutations},
                  {QStringLiteral("exploit"), exploit},
                  {QStringLiteral("temperature"), temperature},
                  {QStringLiteral("ucb"), ucb},
                  {QStringLiteral("seed"), QString::number(seed)},
                  {QStringLiteral("example_seed"), QString::number(exampleSeed)},
                  {QStringLiteral("level"), correlationLevelName(level)},
                  {QStringLiteral("unparsed"), unparsedPolicyName(unparsed)},
                  {QStringLiteral("score_scale"), scoreScale},
                  {QStringLiteral("greedy_batch"), greedyBatch},
                  {QStringLiteral("max_rounds"), maxRounds},
                  {QStringLiteral("origin"), origin.format()},
                  {QStringLiteral("space"), space.toVariant()}};
    if (algorithm == SearchAlgorithm::Opro) // only there: the other searches' stored states stay equal
        m.insert(QStringLiteral("opro_shown"), oproShown);
    if (algorithm == SearchAlgorithm::Ape)
        m.insert(QStringLiteral("ape_queue"), apeQueue);
    return m;
}

Result<SearchParams> SearchParams::fromVariant(const QVariant &value)
{
    const QVariantMap map = value.toMap();
    SearchParams p;
    for (auto it = map.cbegin(); it != map.cend(); ++it) {
        if (it.key() == QLatin1String("space")) {
            auto space = StrategySpace::fromVariant(it.value());
            if (!space)
                return space.error();
            p.space = *space;
            continue;
        }
        // Doubles go through text with every digit, so a restored search computes the same.
        const QString text = it.value().typeId() == QMetaType::Double ? QString::number(it.value().toDouble(), 'g', 17)
                                                                      : it.value().toString();
        if (auto r = p.set(it.key(), text); !r)
            return r.error();
    }
    if (auto r = p.validate(); !r)
        return r.error();
    return p;
}

} // namespace rubric::hpss
