#include "methods/hpss/PromptStrategy.h"

#include <QRegularExpression>

namespace rubric::hpss {

namespace {

const std::array<QStringList, kFactorCount> &allValues()
{
    static const std::array<QStringList, kFactorCount> values = {
            QStringList{QStringLiteral("3"), QStringLiteral("5"), QStringLiteral("10"), QStringLiteral("50"),
                        QStringLiteral("100")},
            QStringList{QStringLiteral("0"), QStringLiteral("3"), QStringLiteral("5"), QStringLiteral("10")},
            QStringList{QStringLiteral("none"), QStringLiteral("human"), QStringLiteral("self")},
            QStringList{QStringLiteral("none"), QStringLiteral("self"), QStringLiteral("dialectic")},
            QStringList{QStringLiteral("none"), QStringLiteral("prefix"), QStringLiteral("suffix")},
            QStringList{QStringLiteral("off"), QStringLiteral("on")},
            QStringList{QStringLiteral("off"), QStringLiteral("on")},
            QStringList{QStringLiteral("TEI"), QStringLiteral("TIE"), QStringLiteral("ETI"), QStringLiteral("EIT"),
                        QStringLiteral("ITE"), QStringLiteral("IET")},
    };
    return values;
}

const QStringList &factorNames()
{
    static const QStringList names
            = {QStringLiteral("scale"),     QStringLiteral("examples"), QStringLiteral("criteria"),
               QStringLiteral("reference"), QStringLiteral("cot"),      QStringLiteral("autocot"),
               QStringLiteral("metrics"),   QStringLiteral("order")};
    return names;
}

Error valueError(Factor f, const QString &value)
{
    return makeError(QStringLiteral("unknown value '%1' (expected one of %2)")
                             .arg(value, factorValues(f).join(QLatin1Char('|'))),
                     {}, 0, factorName(f));
}

} // namespace

QString factorName(Factor f)
{
    return factorNames().at(int(f));
}

const QStringList &factorValues(Factor f)
{
    return allValues()[size_t(f)];
}

Result<Factor> factorFromName(const QString &name)
{
    const int i = factorNames().indexOf(name.trimmed().toLower());
    if (i < 0)
        return makeError(QStringLiteral("unknown factor '%1' (expected one of %2)")
                                 .arg(name, factorNames().join(QLatin1Char('|'))));
    return Factor(i);
}

PromptStrategy PromptStrategy::mtBenchOrigin(int scaleMax)
{
    PromptStrategy s = mtBenchOrigin();
    const int j = int(factorValues(Factor::Scale).indexOf(QString::number(scaleMax)));
    return j < 0 ? s : s.with(Factor::Scale, j);
}

PromptStrategy PromptStrategy::mtBenchOrigin()
{
    PromptStrategy s;
    s.m_values = {1, 0, 1, 0, 1, 0, 0, 0};
    return s;
}

Result<PromptStrategy> PromptStrategy::parse(const QString &text)
{
    PromptStrategy s;
    std::array<bool, kFactorCount> seen{};
    const QStringList parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &raw : parts) {
        const QString part = raw.trimmed();
        const qsizetype colon = part.indexOf(QLatin1Char(':'));
        if (colon < 0)
            return makeError(QStringLiteral("'%1' is not factor:value").arg(part), {}, 0, QStringLiteral("strategy"));
        auto factor = factorFromName(part.left(colon));
        if (!factor)
            return factor.error();
        const Factor f = *factor;
        if (seen[size_t(f)])
            return makeError(QStringLiteral("given twice"), {}, 0, factorName(f));
        seen[size_t(f)] = true;
        const QString value = part.mid(colon + 1).trimmed();
        // Order names are upper case (TEI); every other value is lower case.
        const QString normal = f == Factor::Order ? value.toUpper() : value.toLower();
        const int j = factorValues(f).indexOf(normal);
        if (j < 0)
            return valueError(f, value);
        s.m_values[size_t(f)] = j;
    }
    for (int i = 0; i < kFactorCount; ++i)
        if (!seen[size_t(i)])
            return makeError(QStringLiteral("missing (a strategy gives all 8 factors)"), {}, 0, factorName(Factor(i)));
    return s;
}

Result<PromptStrategy> PromptStrategy::fromVariant(const QVariant &value)
{
    const QVariantMap map = value.toMap();
    if (map.isEmpty())
        return makeError(QStringLiteral("a strategy is an object {factor: value}"), {}, 0, QStringLiteral("strategy"));
    QStringList parts;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        parts.append(it.key() + QLatin1Char(':') + it.value().toString());
    return parse(parts.join(QLatin1Char(',')));
}

QString PromptStrategy::format() const
{
    QStringList parts;
    for (int i = 0; i < kFactorCount; ++i)
        parts.append(factorName(Factor(i)) + QLatin1Char(':') + valueName(Factor(i)));
    return parts.join(QLatin1Char(','));
}

QVariantMap PromptStrategy::toVariant() const
{
    QVariantMap map;
    for (int i = 0; i < kFactorCount; ++i)
        map.insert(factorName(Factor(i)), valueName(Factor(i)));
    return map;
}

PromptStrategy PromptStrategy::with(Factor f, int j) const
{
    Q_ASSERT(j >= 0 && j < factorValues(f).size());
    PromptStrategy s = *this;
    s.m_values[size_t(f)] = j;
    return s;
}

Result<PromptStrategy> PromptStrategy::with(Factor f, const QString &value) const
{
    const int j = factorValues(f).indexOf(value);
    if (j < 0)
        return valueError(f, value);
    return with(f, j);
}

int PromptStrategy::scaleMax() const
{
    return valueName(Factor::Scale).toInt();
}

int PromptStrategy::exampleCount() const
{
    return valueName(Factor::Examples).toInt();
}

int PromptStrategy::firstDifference(const PromptStrategy &other) const
{
    for (int i = 0; i < kFactorCount; ++i)
        if (m_values[size_t(i)] != other.m_values[size_t(i)])
            return i;
    return -1;
}

StrategySpace StrategySpace::full()
{
    StrategySpace s;
    for (int i = 0; i < kFactorCount; ++i)
        s.m_enabled[size_t(i)] = QVector<bool>(factorValues(Factor(i)).size(), true);
    return s;
}

StrategySpace StrategySpace::pairwise()
{
    StrategySpace s = full();
    // Scale is not a factor of a pairwise prompt: one value stays (the origin's 5) so that every
    // strategy still has eight values; the prompt for a pair does not use it.
    for (const QString &v : {QStringLiteral("3"), QStringLiteral("10"), QStringLiteral("50"), QStringLiteral("100")})
        (void)s.disable(Factor::Scale, v);
    (void)s.disable(Factor::Criteria, QStringLiteral("self"));
    return s;
}

Result<void> StrategySpace::disable(Factor f, const QString &value)
{
    const int j = factorValues(f).indexOf(value);
    if (j < 0)
        return valueError(f, value);
    QVector<bool> &enabled = m_enabled[size_t(f)];
    if (enabled[j] && enabled.count(true) == 1)
        return makeError(QStringLiteral("'%1' is the last enabled value; a factor keeps at least one").arg(value), {},
                         0, factorName(f));
    enabled[j] = false;
    return {};
}

Result<void> StrategySpace::enable(Factor f, const QString &value)
{
    const int j = factorValues(f).indexOf(value);
    if (j < 0)
        return valueError(f, value);
    m_enabled[size_t(f)][j] = true;
    return {};
}

bool StrategySpace::contains(const PromptStrategy &s) const
{
    for (int i = 0; i < kFactorCount; ++i)
        if (!isEnabled(Factor(i), s.index(Factor(i))))
            return false;
    return true;
}

QVector<int> StrategySpace::enabledValues(Factor f) const
{
    QVector<int> out;
    const QVector<bool> &enabled = m_enabled[size_t(f)];
    for (int j = 0; j < enabled.size(); ++j)
        if (enabled[j])
            out.append(j);
    return out;
}

qint64 StrategySpace::size() const
{
    qint64 n = 1;
    for (int i = 0; i < kFactorCount; ++i)
        n *= enabledValues(Factor(i)).size();
    return n;
}

QVector<PromptStrategy> StrategySpace::neighbours(const PromptStrategy &s) const
{
    QVector<PromptStrategy> out;
    for (int i = 0; i < kFactorCount; ++i)
        for (int j : enabledValues(Factor(i)))
            if (j != s.index(Factor(i)))
                out.append(s.with(Factor(i), j));
    return out;
}

QVector<PromptStrategy> StrategySpace::all() const
{
    QVector<PromptStrategy> out{PromptStrategy::mtBenchOrigin()};
    for (int i = 0; i < kFactorCount; ++i) {
        QVector<PromptStrategy> next;
        next.reserve(out.size() * enabledValues(Factor(i)).size());
        for (const PromptStrategy &prefix : out)
            for (int j : enabledValues(Factor(i)))
                next.append(prefix.with(Factor(i), j));
        out = std::move(next);
    }
    return out;
}

QVariantMap StrategySpace::toVariant() const
{
    QVariantMap disabled;
    for (int i = 0; i < kFactorCount; ++i) {
        QStringList off;
        for (int j = 0; j < m_enabled[size_t(i)].size(); ++j)
            if (!m_enabled[size_t(i)][j])
                off.append(factorValues(Factor(i)).at(j));
        if (!off.isEmpty())
            disabled.insert(factorName(Factor(i)), off);
    }
    return {{QStringLiteral("disabled"), disabled}};
}

Result<StrategySpace> StrategySpace::fromVariant(const QVariant &value)
{
    StrategySpace s = full();
    const QVariantMap disabled = value.toMap().value(QStringLiteral("disabled")).toMap();
    for (auto it = disabled.cbegin(); it != disabled.cend(); ++it) {
        auto factor = factorFromName(it.key());
        if (!factor)
            return factor.error();
        for (const QVariant &v : it.value().toList())
            if (auto r = s.disable(*factor, v.toString()); !r)
                return r.error();
    }
    return s;
}

} // namespace rubric::hpss
