#include "methods/hpss/HpssSearch.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QVariantList>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace rubric::hpss {

// The OPRO-style search (HPSS paper App. F; [code] baseline/opro.py and opro_prompts/opro_prompt.py):
// the initialisation's strategies are the history; each iteration shows the evaluator the best
// oproShown of them with their validation Spearman and asks for a new strategy as
// {"Part 0": x, …, "Part 7": x} in [code]'s factor and value order.

namespace {

constexpr int kParts = 8;
constexpr qsizetype kLogAnswerChars = 300;

// [code] factors.py: FACTORS = [SCALE, CRITERIA, COT, AUTOCOT, METRICS, EXAMPLE, REFERENCE, ORDER].
const std::array<Factor, kParts> &partFactors()
{
    static const std::array<Factor, kParts> f = {Factor::Scale,   Factor::Criteria, Factor::Cot,       Factor::AutoCot,
                                                 Factor::Metrics, Factor::Examples, Factor::Reference, Factor::Order};
    return f;
}

// Each part's values in [code]'s order, as our value names.
const std::array<QStringList, kParts> &partValueNames()
{
    static const std::array<QStringList, kParts> v = {
            QStringList{QStringLiteral("3"), QStringLiteral("5"), QStringLiteral("10"), QStringLiteral("50"),
                        QStringLiteral("100")},
            QStringList{QStringLiteral("human"), QStringLiteral("none"),
                        QStringLiteral("self")}, // Human, NoCriteria, LLM
            QStringList{QStringLiteral("prefix"), QStringLiteral("suffix"),
                        QStringLiteral("none")}, // Prefix, Suffix, Free
            QStringList{QStringLiteral("off"), QStringLiteral("on")},
            QStringList{QStringLiteral("off"), QStringLiteral("on")},
            QStringList{QStringLiteral("0"), QStringLiteral("3"), QStringLiteral("5"), QStringLiteral("10")},
            QStringList{QStringLiteral("none"), QStringLiteral("self"), QStringLiteral("dialectic")},
            QStringList{QStringLiteral("TEI"), QStringLiteral("TIE"), QStringLiteral("ITE"), QStringLiteral("IET"),
                        QStringLiteral("EIT"), QStringLiteral("ETI")},
    };
    return v;
}

int partOf(Factor f)
{
    for (int p = 0; p < kParts; ++p)
        if (partFactors()[size_t(p)] == f)
            return p;
    return -1;
}

// [code]'s official value index of our value j of factor f.
int officialIndex(Factor f, int j)
{
    return int(partValueNames()[size_t(partOf(f))].indexOf(factorValues(f).at(j)));
}

// Python's repr of a float: the shortest text that reads back to it, with ".0" when integral.
QString pythonFloat(double x)
{
    char buffer[64];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, x);
    QString text = QString::fromLatin1(buffer, int(r.ptr - buffer));
    if (!text.contains(QLatin1Char('.')) && !text.contains(QLatin1Char('e')) && !text.contains(QLatin1String("inf"))
        && !text.contains(QLatin1String("nan")))
        text += QLatin1String(".0");
    return text;
}

// [code] item_2_str: str() of {"Part 0": i, …}: "{'Part 0': 1, 'Part 1': 0, …}".
QString partsText(const PromptStrategy &s)
{
    QStringList parts;
    for (int p = 0; p < kParts; ++p) {
        const Factor f = partFactors()[size_t(p)];
        parts << QStringLiteral("'Part %1': %2").arg(p).arg(officialIndex(f, s.index(f)));
    }
    return QLatin1Char('{') + parts.join(QLatin1String(", ")) + QLatin1Char('}');
}

} // namespace

Factor HpssSearch::oproFactor(int part)
{
    return partFactors()[size_t(part)];
}

const QVector<int> &HpssSearch::oproValueOrder(int part)
{
    static const std::array<QVector<int>, kParts> orders = [] {
        std::array<QVector<int>, kParts> o;
        for (int p = 0; p < kParts; ++p)
            for (const QString &name : partValueNames()[size_t(p)])
                o[size_t(p)].append(int(factorValues(partFactors()[size_t(p)]).indexOf(name)));
        return o;
    }();
    return orders[size_t(part)];
}

int HpssSearch::oproIterationsLeft() const
{
    if (m_params.algorithm != SearchAlgorithm::Opro || m_phase == Phase::Done)
        return 0;
    return std::max(0, m_params.budget - initCount() - int(m_oproLog.size()));
}

bool HpssSearch::awaitingProposal() const
{
    return m_params.algorithm == SearchAlgorithm::Opro && m_phase == Phase::Search && !m_pending
           && oproIterationsLeft() > 0;
}

std::optional<SearchProposal> HpssSearch::advanceOpro()
{
    if (oproIterationsLeft() <= 0)
        stop(QStringLiteral("budget"));
    return std::nullopt; // the next strategy comes from the evaluator (acceptProposal)
}

QString HpssSearch::oproRange(int part) const
{
    QStringList values;
    const QVector<int> &order = oproValueOrder(part);
    for (int k = 0; k < order.size(); ++k)
        if (m_params.space.isEnabled(oproFactor(part), order[k]))
            values << QString::number(k);
    return QLatin1Char('[') + values.join(QLatin1Char(',')) + QLatin1Char(']');
}

QString HpssSearch::oproHistory() const
{
    struct Entry
    {
        PromptStrategy strategy;
        double spearman;
    };
    // [code] load_initiation lists the initialisation factor by factor in Table 1 order, each
    // factor's values in its own order, the origin ("baseline") at its scale's place.
    QVector<Entry> init;
    for (const SearchRecord &r : m_records)
        if (r.proposal.move == SearchMove::Init)
            init.append({r.proposal.strategy, r.spearman});
    const auto key = [this](const PromptStrategy &s) {
        const int f = std::max(0, m_params.origin.firstDifference(s));
        return std::pair{f, officialIndex(Factor(f), s.index(Factor(f)))};
    };
    std::stable_sort(init.begin(), init.end(),
                     [&key](const Entry &x, const Entry &y) { return key(x.strategy) < key(y.strategy); });
    QVector<Entry> steps = init;
    for (const QVariant &v : m_oproLog) {
        const QString text = v.toMap().value(QStringLiteral("strategy")).toString();
        if (text.isEmpty())
            continue;
        const auto s = PromptStrategy::parse(text);
        if (s && isEvaluated(*s))
            steps.append({*s, m_scores.at(*s)});
    }
    // sorted(steps, key=Spearman)[-show_num:]: ascending, stable, the last oproShown.
    std::stable_sort(steps.begin(), steps.end(),
                     [](const Entry &x, const Entry &y) { return x.spearman < y.spearman; });
    const qsizetype from = std::max<qsizetype>(0, steps.size() - m_params.oproShown);
    QString out;
    for (qsizetype k = from; k < steps.size(); ++k)
        out += QStringLiteral("Prompt: %1\nScore: %2\n\n")
                       .arg(partsText(steps[k].strategy), pythonFloat(steps[k].spearman));
    return out;
}

Result<void> HpssSearch::acceptProposal(const QString &answer)
{
    if (!awaitingProposal())
        return makeError(QStringLiteral("the search is not waiting for a proposal"), {}, 0, QStringLiteral("search"));
    QVariantMap entry{{QStringLiteral("iteration"), int(m_oproLog.size()) + 1},
                      {QStringLiteral("answer"), answer.left(kLogAnswerChars)}};
    const auto spent = [&](const QString &outcome, const QString &strategy) {
        entry.insert(QStringLiteral("outcome"), outcome);
        entry.insert(QStringLiteral("strategy"), strategy);
        m_oproLog.append(entry);
        if (oproIterationsLeft() <= 0)
            stop(QStringLiteral("budget"));
    };
    const qsizetype open = answer.indexOf(QLatin1Char('{'));
    const qsizetype close = answer.lastIndexOf(QLatin1Char('}'));
    const QJsonDocument doc = open >= 0 && close > open
                                      ? QJsonDocument::fromJson(answer.mid(open, close - open + 1).toUtf8())
                                      : QJsonDocument();
    if (!doc.isObject()) {
        spent(QStringLiteral("unreadable"), {});
        return {};
    }
    const QJsonObject o = doc.object();
    PromptStrategy s = m_params.origin;
    for (int p = 0; p < kParts; ++p) {
        const QJsonValue v = o.value(QStringLiteral("Part %1").arg(p));
        const QVector<int> &order = oproValueOrder(p);
        if (!v.isDouble() || v.toDouble() != std::floor(v.toDouble()) || v.toDouble() < 0
            || v.toDouble() >= order.size()) {
            spent(QStringLiteral("unreadable"), {});
            return {};
        }
        s = s.with(oproFactor(p), order[qsizetype(v.toDouble())]);
    }
    if (!m_params.space.contains(s)) {
        spent(QStringLiteral("outside"), s.format());
        return {};
    }
    if (isEvaluated(s)) {
        spent(QStringLiteral("repeat"), s.format());
        return {};
    }
    entry.insert(QStringLiteral("outcome"), QStringLiteral("new"));
    entry.insert(QStringLiteral("strategy"), s.format());
    m_oproLog.append(entry);
    m_pending = propose(s, SearchMove::Opro, std::nullopt, -1);
    return {};
}

} // namespace rubric::hpss
