#include "methods/hpss/ApeSearch.h"

#include <QFile>

#include <algorithm>
#include <cmath>

namespace rubric::hpss {

namespace {

QString resourceText(const QString &name)
{
    QFile f(QStringLiteral(":/prompts/hpss_ape/") + name);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

Result<QString> apeBasePrompt(const QString &task, const QString &aspect, const QString &criteria, int min, int max)
{
    const QString base = resourceText(task + QStringLiteral(".txt"));
    if (base.isEmpty())
        return makeError(QStringLiteral("the APE-style search has no base prompt for task '%1'").arg(task), {}, 0,
                         QStringLiteral("task"));
    return pythonFormat(base, {{QStringLiteral("aspect"), aspect},
                               {QStringLiteral("criteria"), criteria},
                               {QStringLiteral("min"), QString::number(min)},
                               {QStringLiteral("max"), QString::number(max)}});
}

Result<QString> apeResamplePrompt(const QString &prompt)
{
    return pythonFormat(resourceText(QStringLiteral("resample.txt")), {{QStringLiteral("prompt"), prompt}});
}

QHash<QString, QString> apeFields(const QString &task, const QString &aspect, const QString &source,
                                  const QString &output, const QString &fact, int min)
{
    QString sourceName = QStringLiteral("document"), outputName = QStringLiteral("summary");
    if (task == QLatin1String("topical_chat")) {
        sourceName = QStringLiteral("context");
        outputName = QStringLiteral("response");
    } else if (task == QLatin1String("hanna")) {
        sourceName = QStringLiteral("prompt");
        outputName = QStringLiteral("story");
    } else if (task == QLatin1String("sfhot") || task == QLatin1String("sfres")) {
        sourceName = QStringLiteral("expression");
        outputName = QStringLiteral("sentence");
    }
    QHash<QString, QString> f{{sourceName, source},
                              {outputName, output},
                              {QStringLiteral("reference"), QString()},
                              {QStringLiteral("criteria"), QString()},
                              {QStringLiteral("aspect"), aspect},
                              {QStringLiteral("example"), QString()},
                              {QStringLiteral("metrics"), QString()},
                              {QStringLiteral("autocot"), QString()},
                              {QStringLiteral("min"), QString::number(min)},
                              {QStringLiteral("max"), QStringLiteral("3")}};
    if (task == QLatin1String("topical_chat"))
        f.insert(QStringLiteral("fact"), fact);
    return f;
}

Result<QString> pythonFormat(const QString &text, const QHash<QString, QString> &values)
{
    QString out;
    out.reserve(text.size());
    const auto refuse = [](qsizetype at, const QString &why) -> Error {
        return makeError(QStringLiteral("at character %1: %2").arg(at + 1).arg(why), {}, 0, QStringLiteral("prompt"));
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char('}')) {
            if (i + 1 < text.size() && text[i + 1] == QLatin1Char('}')) {
                out += QLatin1Char('}');
                ++i;
                continue;
            }
            return refuse(i, QStringLiteral("a single '}' (Python: \"Single '}' encountered in format string\")"));
        }
        if (c != QLatin1Char('{')) {
            out += c;
            continue;
        }
        if (i + 1 < text.size() && text[i + 1] == QLatin1Char('{')) {
            out += QLatin1Char('{');
            ++i;
            continue;
        }
        const qsizetype close = text.indexOf(QLatin1Char('}'), i + 1);
        const qsizetype nested = text.indexOf(QLatin1Char('{'), i + 1);
        if (close < 0)
            return refuse(i, QStringLiteral("a '{' without its '}' (Python: \"expected '}' before end of string\")"));
        const QString field = text.mid(i + 1, close - i - 1);
        if (nested >= 0 && nested < close)
            return refuse(i, QStringLiteral("a field with a nested '{': {%1…").arg(field.left(40)));
        if (field.isEmpty())
            return refuse(i, QStringLiteral("a positional field {} (Python: IndexError)"));
        for (const QChar special : {QLatin1Char('.'), QLatin1Char('['), QLatin1Char('!'), QLatin1Char(':')})
            if (field.contains(special))
                return refuse(i, QStringLiteral("the field {%1} has an attribute, index, conversion or format "
                                                "spec (only plain fields are used)")
                                         .arg(field));
        if (field.front().isDigit())
            return refuse(i, QStringLiteral("a numbered field {%1} (Python: IndexError)").arg(field));
        const auto it = values.constFind(field);
        if (it == values.constEnd())
            return refuse(i, QStringLiteral("an unknown field {%1} (Python: KeyError)").arg(field));
        out += *it;
        i = close;
    }
    return out;
}

ApeSearch ApeSearch::create(const QString &basePrompt, int budget, int queueSize, int maxUnusable)
{
    ApeSearch s;
    s.m_candidates.append({basePrompt, -1, 0, std::nullopt});
    s.m_pending = 0;
    s.m_budget = std::max(0, budget);
    s.m_queueSize = std::max(1, queueSize);
    s.m_maxUnusable = std::max(0, maxUnusable);
    return s;
}

ApeSearch::Action ApeSearch::next() const
{
    if (m_done)
        return Action::Done;
    return m_pending >= 0 ? Action::Evaluate : Action::Resample;
}

int ApeSearch::resampleParent() const
{
    return next() == Action::Resample ? m_queue.value(m_passPos, -1) : -1;
}

int ApeSearch::winner() const
{
    return m_done && !m_queue.isEmpty() ? m_queue.last() : -1;
}

void ApeSearch::endPass()
{
    // [code]: items = items + new_items; items.sort(key=Spearman); items = items[-batch_size:]
    QVector<int> all = m_queue + m_passNew;
    std::stable_sort(all.begin(), all.end(),
                     [this](int a, int b) { return *m_candidates[a].spearman < *m_candidates[b].spearman; });
    m_queue = all.mid(std::max<qsizetype>(0, all.size() - m_queueSize));
    m_passNew.clear();
    m_passPos = 0;
    if (m_cost >= m_budget) {
        m_done = true;
        m_stopReason = QStringLiteral("budget");
    }
}

Result<void> ApeSearch::report(int candidate, double spearman)
{
    if (next() != Action::Evaluate || candidate != m_pending)
        return makeError(
                QStringLiteral("the APE-style search is not waiting for candidate %1's evaluation").arg(candidate), {},
                0, QStringLiteral("search"));
    if (!std::isfinite(spearman))
        return makeError(QStringLiteral("candidate %1's validation Spearman is not a number").arg(candidate), {}, 0,
                         QStringLiteral("search"));
    m_candidates[candidate].spearman = spearman;
    m_pending = -1;
    if (candidate == 0) { // the base prompt: the first queue, no cost
        m_queue = {0};
        if (m_budget <= 0) {
            m_done = true;
            m_stopReason = QStringLiteral("budget");
        }
        return {};
    }
    ++m_cost;
    m_candidates[candidate].step = m_cost;
    m_passNew.append(candidate);
    QVariantMap entry = m_log.last().toMap();
    entry.insert(QStringLiteral("step"), m_cost);
    entry.insert(QStringLiteral("validation_spearman"), spearman);
    m_log.last() = entry;
    ++m_passPos;
    if (m_cost >= m_budget || m_passPos >= m_queue.size())
        endPass();
    return {};
}

Result<void> ApeSearch::acceptVariation(const QString &text, const QString &unusable)
{
    if (next() != Action::Resample)
        return makeError(QStringLiteral("the APE-style search is not waiting for a variation"), {}, 0,
                         QStringLiteral("search"));
    const int parent = resampleParent();
    QVariantMap entry{{QStringLiteral("attempt"), int(m_log.size()) + 1}, {QStringLiteral("parent"), parent}};
    if (!unusable.isEmpty()) {
        ++m_unusable;
        entry.insert(QStringLiteral("outcome"), QStringLiteral("unusable"));
        entry.insert(QStringLiteral("reason"), unusable);
        entry.insert(QStringLiteral("text"), text.left(300));
        m_log.append(entry);
        ++m_passPos;
        if (m_unusable >= m_maxUnusable) {
            // [code] would go on asking; with every variation free it may never end.
            m_done = true;
            m_stopReason = QStringLiteral("%1 unusable variations (the official loop does not count them and may "
                                          "never end): stopped")
                                   .arg(m_unusable);
            QVector<int> all = m_queue + m_passNew; // the pass's evaluated prompts still count
            std::stable_sort(all.begin(), all.end(),
                             [this](int a, int b) { return *m_candidates[a].spearman < *m_candidates[b].spearman; });
            m_queue = all.mid(std::max<qsizetype>(0, all.size() - m_queueSize));
            m_passNew.clear();
            return {};
        }
        if (m_passPos >= m_queue.size())
            endPass();
        return {};
    }
    m_candidates.append({text, parent, 0, std::nullopt});
    m_pending = int(m_candidates.size()) - 1;
    entry.insert(QStringLiteral("outcome"), QStringLiteral("evaluated"));
    entry.insert(QStringLiteral("candidate"), m_pending);
    m_log.append(entry);
    return {};
}

QVariantMap ApeSearch::toVariant() const
{
    QVariantList candidates;
    for (const ApeCandidate &c : m_candidates) {
        QVariantMap m{{QStringLiteral("prompt"), c.prompt},
                      {QStringLiteral("parent"), c.parent},
                      {QStringLiteral("step"), c.step}};
        if (c.spearman)
            m.insert(QStringLiteral("validation_spearman"), *c.spearman);
        candidates.append(m);
    }
    const auto ints = [](const QVector<int> &v) {
        QVariantList out;
        for (int x : v)
            out.append(x);
        return out;
    };
    return {{QStringLiteral("candidates"), candidates},
            {QStringLiteral("queue"), ints(m_queue)},
            {QStringLiteral("pass_new"), ints(m_passNew)},
            {QStringLiteral("pass_position"), m_passPos},
            {QStringLiteral("pending"), m_pending},
            {QStringLiteral("budget"), m_budget},
            {QStringLiteral("queue_size"), m_queueSize},
            {QStringLiteral("max_unusable"), m_maxUnusable},
            {QStringLiteral("cost"), m_cost},
            {QStringLiteral("unusable"), m_unusable},
            {QStringLiteral("done"), m_done},
            {QStringLiteral("stop_reason"), m_stopReason},
            {QStringLiteral("log"), m_log}};
}

Result<ApeSearch> ApeSearch::fromVariant(const QVariant &state)
{
    const QVariantMap m = state.toMap();
    ApeSearch s;
    const QVariantList candidates = m.value(QStringLiteral("candidates")).toList();
    if (candidates.isEmpty())
        return makeError(QStringLiteral("the APE-style state has no candidates"), {}, 0, QStringLiteral("ape"));
    for (const QVariant &v : candidates) {
        const QVariantMap c = v.toMap();
        ApeCandidate a{c.value(QStringLiteral("prompt")).toString(), c.value(QStringLiteral("parent")).toInt(),
                       c.value(QStringLiteral("step")).toInt(), std::nullopt};
        if (c.contains(QStringLiteral("validation_spearman")))
            a.spearman = c.value(QStringLiteral("validation_spearman")).toDouble();
        s.m_candidates.append(a);
    }
    const int n = int(s.m_candidates.size());
    const auto ints = [n](const QVariant &v, QVector<int> *out) {
        for (const QVariant &x : v.toList()) {
            const int k = x.toInt();
            if (k < 0 || k >= n)
                return false;
            out->append(k);
        }
        return true;
    };
    if (!ints(m.value(QStringLiteral("queue")), &s.m_queue) || !ints(m.value(QStringLiteral("pass_new")), &s.m_passNew))
        return makeError(QStringLiteral("the APE-style state's queue names a candidate it lacks"), {}, 0,
                         QStringLiteral("ape"));
    for (int k : s.m_queue + s.m_passNew)
        if (!s.m_candidates[k].spearman)
            return makeError(QStringLiteral("the APE-style state's queue holds candidate %1, never evaluated").arg(k),
                             {}, 0, QStringLiteral("ape"));
    s.m_passPos = m.value(QStringLiteral("pass_position")).toInt();
    s.m_pending = m.value(QStringLiteral("pending"), -1).toInt();
    s.m_budget = m.value(QStringLiteral("budget")).toInt();
    s.m_queueSize = std::max(1, m.value(QStringLiteral("queue_size")).toInt());
    s.m_maxUnusable = m.value(QStringLiteral("max_unusable")).toInt();
    s.m_cost = m.value(QStringLiteral("cost")).toInt();
    s.m_unusable = m.value(QStringLiteral("unusable")).toInt();
    s.m_done = m.value(QStringLiteral("done")).toBool();
    s.m_stopReason = m.value(QStringLiteral("stop_reason")).toString();
    s.m_log = m.value(QStringLiteral("log")).toList();
    if (s.m_pending >= n || (!s.m_done && s.m_pending < 0 && s.m_passPos >= s.m_queue.size()))
        return makeError(QStringLiteral("the APE-style state's position is out of range"), {}, 0,
                         QStringLiteral("ape"));
    return s;
}

} // namespace rubric::hpss
