#pragma once

#include "util/Result.h"

#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <QVector>

#include <array>

namespace rubric::hpss {

/// The eight factors of an HPSS evaluation prompt (spec hpss.md §3, paper Table 1), in Table 1 order.
/// The numeric order is the product order the search enumerates in (first factor varies slowest).
enum class Factor { Scale = 0, Examples, Criteria, Reference, Cot, AutoCot, Metrics, Order };
inline constexpr int kFactorCount = 8;
/// The size of the full space: 5·4·3·3·3·2·2·6 (spec §3).
inline constexpr qint64 kFullSpaceSize = 12960;

/// The CLI/JSON name of a factor ("scale", "examples", …, "order").
QString factorName(Factor f);
/// The names of a factor's values in Table 1 order ("3","5","10","50","100" for scale; "TEI",… for order).
const QStringList &factorValues(Factor f);
/// The factor with this name; an error naming the factor and the valid names otherwise.
Result<Factor> factorFromName(const QString &name);
inline Factor factorAt(int i)
{
    return Factor(i);
}

/// One prompting strategy: one value per factor, held as value indices into factorValues().
/// A plain value type; equality and ordering compare the eight indices (product order).
class PromptStrategy
{
public:
    /// The MT-Bench origin of the paper (App. B, Table 17) for SummEval:
    /// scale:5,examples:0,criteria:human,reference:none,cot:prefix,autocot:off,metrics:off,order:TEI.
    static PromptStrategy mtBenchOrigin();
    /// The MT-Bench origin on another scale (3 for Topical-Chat, whose human scale it is).
    static PromptStrategy mtBenchOrigin(int scaleMax);

    /// Parses "scale:5,examples:0,…": every factor exactly once, in any order. Errors name the factor or value.
    static Result<PromptStrategy> parse(const QString &text);
    /// {factor: value} with every factor; errors name the missing or unknown factor/value.
    static Result<PromptStrategy> fromVariant(const QVariant &value);

    /// "scale:5,examples:0,criteria:human,…" in Table 1 order.
    QString format() const;
    QVariantMap toVariant() const;

    int index(Factor f) const { return m_values[size_t(f)]; }
    QString valueName(Factor f) const { return factorValues(f).at(index(f)); }
    /// A copy with factor f set to value index j.
    PromptStrategy with(Factor f, int j) const;
    /// A copy with factor f set to the named value; an error names the factor and the valid values.
    Result<PromptStrategy> with(Factor f, const QString &value) const;

    int scaleMax() const;     ///< 3, 5, 10, 50 or 100
    int exampleCount() const; ///< 0, 3, 5 or 10

    /// The first factor in which the two differ, or -1 when they are equal.
    int firstDifference(const PromptStrategy &other) const;

    bool operator==(const PromptStrategy &o) const { return m_values == o.m_values; }
    bool operator!=(const PromptStrategy &o) const { return m_values != o.m_values; }
    bool operator<(const PromptStrategy &o) const { return m_values < o.m_values; }

private:
    std::array<int, kFactorCount> m_values{};
};

/// The strategies a search may visit: per factor, which values are enabled. The full space has
/// every value; a user can disable values; the pairwise preset (App. I) keeps one scale value
/// (Scale is not a factor there) and drops Self-Generated Criteria, 1,728 strategies.
class StrategySpace
{
public:
    static StrategySpace full();
    static StrategySpace pairwise();

    /// Disables one value. Error when the factor or value is unknown or it is the factor's last enabled value.
    Result<void> disable(Factor f, const QString &value);
    /// Enables one value again. Error when the factor or value is unknown.
    Result<void> enable(Factor f, const QString &value);
    bool isEnabled(Factor f, int j) const { return m_enabled[size_t(f)].value(j, false); }
    bool contains(const PromptStrategy &s) const;
    /// The enabled value indices of a factor, in Table 1 order.
    QVector<int> enabledValues(Factor f) const;

    /// The number of strategies (the product of the enabled counts).
    qint64 size() const;
    /// The one-factor neighbours of s inside the space: factor by factor in Table 1 order, values
    /// in Table 1 order, skipping s's own value. 20 in the full space.
    QVector<PromptStrategy> neighbours(const PromptStrategy &s) const;
    /// Every strategy of the space in product order (first factor slowest).
    QVector<PromptStrategy> all() const;

    /// {"disabled": {factor: [values]}}; fromVariant reports an unknown factor/value by name.
    QVariantMap toVariant() const;
    static Result<StrategySpace> fromVariant(const QVariant &value);

    bool operator==(const StrategySpace &o) const { return m_enabled == o.m_enabled; }

private:
    std::array<QVector<bool>, kFactorCount> m_enabled;
};

} // namespace rubric::hpss
