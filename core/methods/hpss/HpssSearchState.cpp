#include "methods/hpss/HpssSearch.h"

#include <QVariantList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

namespace rubric::hpss {

namespace {

QVariantList tableToVariant(const std::array<QVector<double>, kFactorCount> &t)
{
    QVariantList out;
    for (const QVector<double> &row : t) {
        QVariantList r;
        for (double v : row)
            r.append(v);
        out.append(QVariant(r));
    }
    return out;
}

Result<std::array<QVector<double>, kFactorCount>> tableFromVariant(const QVariant &v, const QString &field)
{
    std::array<QVector<double>, kFactorCount> t;
    const QVariantList rows = v.toList();
    if (rows.size() != kFactorCount)
        return makeError(QStringLiteral("expected %1 rows").arg(kFactorCount), {}, 0, field);
    for (int i = 0; i < kFactorCount; ++i) {
        const QVariantList row = rows[i].toList();
        if (row.size() != factorValues(Factor(i)).size())
            return makeError(QStringLiteral("row %1 has %2 values, expected %3")
                                     .arg(factorName(Factor(i)))
                                     .arg(row.size())
                                     .arg(factorValues(Factor(i)).size()),
                             {}, 0, field);
        for (const QVariant &x : row)
            t[size_t(i)].append(x.toDouble());
    }
    return t;
}

QVariantList strategiesToVariant(const QVector<PromptStrategy> &list)
{
    QVariantList out;
    for (const PromptStrategy &s : list)
        out.append(s.format());
    return out;
}

Result<QVector<PromptStrategy>> strategiesFromVariant(const QVariant &v, const QString &field)
{
    QVector<PromptStrategy> out;
    for (const QVariant &x : v.toList()) {
        auto s = PromptStrategy::parse(x.toString());
        if (!s)
            return makeError(s.error().toString(), {}, 0, field);
        out.append(*s);
    }
    return out;
}

QVariantMap proposalToVariant(const SearchProposal &p)
{
    QVariantMap m;
    m.insert(QStringLiteral("strategy"), p.strategy.toVariant());
    m.insert(QStringLiteral("move"), searchMoveName(p.move));
    m.insert(QStringLiteral("parent"), p.parent ? p.parent->format() : QString());
    m.insert(QStringLiteral("changed"), p.changedFactor >= 0 ? factorName(Factor(p.changedFactor)) : QString());
    m.insert(QStringLiteral("step"), p.step);
    return m;
}

Result<SearchProposal> proposalFromVariant(const QVariantMap &m, const QString &field)
{
    SearchProposal p;
    auto s = PromptStrategy::fromVariant(m.value(QStringLiteral("strategy")));
    if (!s)
        return makeError(s.error().toString(), {}, 0, field);
    p.strategy = *s;
    int move = -1;
    for (int k = 0; k <= int(SearchMove::Opro); ++k)
        if (searchMoveName(SearchMove(k)) == m.value(QStringLiteral("move")).toString())
            move = k;
    if (move < 0)
        return makeError(QStringLiteral("unknown move '%1'").arg(m.value(QStringLiteral("move")).toString()), {}, 0,
                         field);
    p.move = SearchMove(move);
    const QString parent = m.value(QStringLiteral("parent")).toString();
    if (!parent.isEmpty()) {
        auto ps = PromptStrategy::parse(parent);
        if (!ps)
            return makeError(ps.error().toString(), {}, 0, field);
        p.parent = *ps;
    }
    const QString changed = m.value(QStringLiteral("changed")).toString();
    if (!changed.isEmpty()) {
        auto f = factorFromName(changed);
        if (!f)
            return makeError(f.error().toString(), {}, 0, field);
        p.changedFactor = int(*f);
    }
    p.step = m.value(QStringLiteral("step")).toInt();
    return p;
}

} // namespace

// --- State --------------------------------------------------------------------------------------

QVariantMap HpssSearch::toVariant() const
{
    std::ostringstream rng;
    rng << m_rng; // the standard fixes the text of an engine's state, and reading it back restores it
    QVariantList records;
    for (const SearchRecord &rec : m_records) {
        QVariantMap m = proposalToVariant(rec.proposal);
        m.insert(QStringLiteral("validation_spearman"), rec.spearman);
        records.append(m);
    }
    QVariantMap out;
    out.insert(QStringLiteral("version"), 1);
    out.insert(QStringLiteral("params"), m_params.toVariant());
    out.insert(QStringLiteral("phase"), m_phase == Phase::Init     ? QStringLiteral("init")
                                        : m_phase == Phase::Search ? QStringLiteral("search")
                                                                   : QStringLiteral("done"));
    out.insert(QStringLiteral("stop_reason"), m_stopReason);
    out.insert(QStringLiteral("rng"), QString::fromStdString(rng.str()));
    out.insert(QStringLiteral("evaluated"), records);
    if (m_pending)
        out.insert(QStringLiteral("pending"), proposalToVariant(*m_pending));
    out.insert(QStringLiteral("A"), tableToVariant(m_a));
    out.insert(QStringLiteral("N"), tableToVariant(m_n));
    out.insert(QStringLiteral("M"), tableToVariant(m_m));
    out.insert(QStringLiteral("init_index"), m_initIndex);
    out.insert(QStringLiteral("population"), strategiesToVariant(m_pop));
    out.insert(QStringLiteral("new_population"), strategiesToVariant(m_newPop));
    out.insert(QStringLiteral("population_index"), m_popIndex);
    out.insert(QStringLiteral("repetition"), m_rep);
    out.insert(QStringLiteral("cost"), m_cost);
    out.insert(QStringLiteral("rounds"), m_rounds);
    out.insert(QStringLiteral("round_added"), m_roundAdded);
    out.insert(QStringLiteral("batch"), strategiesToVariant(m_batch));
    out.insert(QStringLiteral("batch_parent"), m_batchParent ? m_batchParent->format() : QString());
    out.insert(QStringLiteral("step_factor"), m_stepFactor);
    if (m_params.algorithm == SearchAlgorithm::Opro)
        out.insert(QStringLiteral("opro_log"), m_oproLog);
    return out;
}

Result<HpssSearch> HpssSearch::fromVariant(const QVariant &state)
{
    const QVariantMap map = state.toMap();
    if (map.value(QStringLiteral("version")).toInt() != 1)
        return makeError(QStringLiteral("unknown search state version '%1'")
                                 .arg(map.value(QStringLiteral("version")).toString()),
                         {}, 0, QStringLiteral("version"));
    auto params = SearchParams::fromVariant(map.value(QStringLiteral("params")));
    if (!params)
        return makeError(params.error().toString(), {}, 0, QStringLiteral("params"));
    auto created = create(*params);
    if (!created)
        return created.error();
    HpssSearch s = std::move(created).value();

    const QString phase = map.value(QStringLiteral("phase")).toString();
    if (phase == QLatin1String("init"))
        s.m_phase = Phase::Init;
    else if (phase == QLatin1String("search"))
        s.m_phase = Phase::Search;
    else if (phase == QLatin1String("done"))
        s.m_phase = Phase::Done;
    else
        return makeError(QStringLiteral("unknown phase '%1'").arg(phase), {}, 0, QStringLiteral("phase"));
    s.m_stopReason = map.value(QStringLiteral("stop_reason")).toString();

    std::istringstream rng(map.value(QStringLiteral("rng")).toString().toStdString());
    rng >> s.m_rng;
    if (rng.fail())
        return makeError(QStringLiteral("the generator state cannot be read"), {}, 0, QStringLiteral("rng"));

    const QVariantList records = map.value(QStringLiteral("evaluated")).toList();
    for (qsizetype k = 0; k < records.size(); ++k) {
        const QString field = QStringLiteral("evaluated[%1]").arg(k);
        const QVariantMap m = records[k].toMap();
        auto p = proposalFromVariant(m, field);
        if (!p)
            return p.error();
        bool ok = false;
        const double rho = m.value(QStringLiteral("validation_spearman")).toDouble(&ok);
        if (!ok || !std::isfinite(rho))
            return makeError(QStringLiteral("validation_spearman is not a number"), {}, 0, field);
        if (s.isEvaluated(p->strategy))
            return makeError(QStringLiteral("%1 is listed twice").arg(p->strategy.format()), {}, 0, field);
        s.m_records.append(SearchRecord{*p, rho});
        s.m_scores[p->strategy] = rho;
    }
    if (map.contains(QStringLiteral("pending"))) {
        auto p = proposalFromVariant(map.value(QStringLiteral("pending")).toMap(), QStringLiteral("pending"));
        if (!p)
            return p.error();
        s.m_pending = *p;
    }
    for (auto [key, table] : {std::pair{QStringLiteral("A"), &s.m_a}, std::pair{QStringLiteral("N"), &s.m_n},
                              std::pair{QStringLiteral("M"), &s.m_m}}) {
        auto t = tableFromVariant(map.value(key), key);
        if (!t)
            return t.error();
        *table = *t;
    }
    for (auto [key, list] :
         {std::pair{QStringLiteral("population"), &s.m_pop}, std::pair{QStringLiteral("new_population"), &s.m_newPop},
          std::pair{QStringLiteral("batch"), &s.m_batch}}) {
        auto l = strategiesFromVariant(map.value(key), key);
        if (!l)
            return l.error();
        *list = *l;
    }
    const QString parent = map.value(QStringLiteral("batch_parent")).toString();
    if (!parent.isEmpty()) {
        auto p = PromptStrategy::parse(parent);
        if (!p)
            return makeError(p.error().toString(), {}, 0, QStringLiteral("batch_parent"));
        s.m_batchParent = *p;
    }
    s.m_initIndex = map.value(QStringLiteral("init_index")).toInt();
    s.m_popIndex = map.value(QStringLiteral("population_index")).toInt();
    s.m_rep = map.value(QStringLiteral("repetition")).toInt();
    s.m_cost = map.value(QStringLiteral("cost")).toInt();
    s.m_rounds = map.value(QStringLiteral("rounds")).toInt();
    s.m_roundAdded = map.value(QStringLiteral("round_added")).toInt();
    s.m_stepFactor = map.value(QStringLiteral("step_factor")).toInt();
    s.m_oproLog = map.value(QStringLiteral("opro_log")).toList();
    for (qsizetype k = 0; k < s.m_oproLog.size(); ++k) {
        const QString strategy = s.m_oproLog[k].toMap().value(QStringLiteral("strategy")).toString();
        if (!strategy.isEmpty() && !PromptStrategy::parse(strategy))
            return makeError(QStringLiteral("'%1' is not a strategy").arg(strategy), {}, 0,
                             QStringLiteral("opro_log[%1]").arg(k));
    }
    if (s.m_initIndex < 0 || s.m_initIndex > s.initCount())
        return makeError(QStringLiteral("out of range"), {}, 0, QStringLiteral("init_index"));
    for (const PromptStrategy &p : std::as_const(s.m_pop) + s.m_newPop)
        if (!s.isEvaluated(p))
            return makeError(QStringLiteral("%1 is in the population but not evaluated").arg(p.format()), {}, 0,
                             QStringLiteral("population"));
    return s;
}

} // namespace rubric::hpss
