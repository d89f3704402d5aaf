// CheckEval's augmentation (diversification, elaboration) and filter (specs/checkeval.md §1.2,
// §2.3, §2.4): generator calls that grow the checklist from its seeds and then prune it.
#include "CheckEvalMethod.h"
#include "judge/AnswerParser.h"
#include "methods/RunContext.h"
#include "methods/checkeval/Checklist.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

namespace rubric {
namespace {

/// Questions a seed stands for: stage "seed", or none (a person's own question).
bool isSeed(const Criterion &q)
{
    const QString stage = q.origin.value(QStringLiteral("stage")).toString();
    return q.enabled && q.kind == CriterionKind::Question && (stage.isEmpty() || stage == QLatin1String("seed"));
}

QVector<Criterion> seedsOf(const Rubric &r, const QString &subKey)
{
    QVector<Criterion> out;
    for (const Criterion &q : r.children(subKey))
        if (isSeed(q))
            out.append(q);
    return out;
}

QString nextQuestionKey(const Rubric &r)
{
    int most = 0;
    for (const Criterion &c : r.criteria())
        if (c.key.startsWith(QLatin1Char('q')))
            most = std::max(most, c.key.mid(1).toInt());
    return QStringLiteral("q%1").arg(most + 1);
}

/// A generated line's question text without list markers, placeholders dropped.
QString cleanQuestion(QString text)
{
    text = text.trimmed();
    if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']')))
        return {};
    if (text.size() >= 2 && text.startsWith(QLatin1Char('"')) && text.endsWith(QLatin1Char('"')))
        text = text.mid(1, text.size() - 2).trimmed();
    return text;
}

/// The key components the diversification prompt numbers 1, 2, …: the enabled sub-aspects.
QVector<Criterion> diversifiedComponents(const Rubric &r)
{
    QVector<Criterion> out;
    for (const Criterion &sub : r.ofKind(CriterionKind::SubAspect))
        if (sub.enabled)
            out.append(sub);
    return out;
}

} // namespace

Result<JudgeRequest> CheckEvalMethod::diversifyRequest(const Rubric &rubric)
{
    QVariantMap c = context();
    QVariantList components;
    int i = 0;
    for (const Criterion &sub : diversifiedComponents(rubric)) {
        QVariantList seeds;
        for (const Criterion &q : seedsOf(rubric, sub.key))
            seeds.append(QVariantMap{{QStringLiteral("text"), q.text}});
        components.append(QVariantMap{
                {QStringLiteral("index"), ++i}, {QStringLiteral("name"), sub.text}, {QStringLiteral("seeds"), seeds}});
    }
    c.insert(QStringLiteral("components"), components);
    return request(QStringLiteral("checkeval_diversify"), c, JudgeRole::Generator);
}

Result<QVector<JudgeRequest>> CheckEvalMethod::elaborateRequests(const Rubric &rubric, QStringList *subAspects)
{
    QVector<JudgeRequest> out;
    int i = 0;
    for (const Criterion &sub : rubric.ofKind(CriterionKind::SubAspect)) {
        ++i;
        const QVector<Criterion> seeds = seedsOf(rubric, sub.key);
        if (seeds.isEmpty() || !sub.enabled) // a disabled sub-aspect is not elaborated
            continue;
        QVariantMap c = context();
        QVariantList list;
        int k = 0;
        for (const Criterion &q : seeds)
            list.append(QVariantMap{{QStringLiteral("index"), ++k}, {QStringLiteral("text"), q.text}});
        c.insert(QStringLiteral("component"), sub.text);
        c.insert(QStringLiteral("component_index"), i);
        c.insert(QStringLiteral("seeds"), list);
        c.insert(QStringLiteral("min"), m_params.elaborateMin);
        c.insert(QStringLiteral("max"), m_params.elaborateMax);
        auto r = request(QStringLiteral("checkeval_elaborate"), c, JudgeRole::Generator);
        if (!r)
            return r.error();
        out.append(*r);
        subAspects->append(sub.key);
    }
    return out;
}

Result<JudgeRequest> CheckEvalMethod::filterRequest(const Rubric &rubric)
{
    QVariantMap c = context();
    QVariantList components;
    for (const Criterion &sub : rubric.ofKind(CriterionKind::SubAspect)) {
        if (!sub.enabled) // not asked, not filtered
            continue;
        QVariantList qs;
        for (const Criterion &q : rubric.children(sub.key))
            if (q.enabled && q.kind == CriterionKind::Question)
                qs.append(QVariantMap{{QStringLiteral("text"), q.text}});
        if (!qs.isEmpty())
            components.append(QVariantMap{{QStringLiteral("name"), sub.text}, {QStringLiteral("questions"), qs}});
    }
    c.insert(QStringLiteral("components"), components);
    return request(QStringLiteral("checkeval_filter"), c, JudgeRole::Generator);
}

int CheckEvalMethod::addDiversified(const QString &answer, const QString &callKey)
{
    // The outline as the shared reader reads it: a header (markdown, bold, "2. Name:") opens a
    // key component, found by its name or else by its number in the prompt; the entries under it
    // are its new questions.
    const QVector<Criterion> components = diversifiedComponents(m_rubric);
    QHash<QString, QString> subByName;
    for (const Criterion &sub : components)
        subByName.insert(Checklist::normaliseQuestion(sub.text), sub.key);
    QSet<QString> known;
    for (const Criterion &q : m_rubric.ofKind(CriterionKind::Question))
        known.insert(Checklist::normaliseQuestion(q.text));
    QString current;
    int added = 0;
    for (const OutlineEntry &e : AnswerParser::parseOutline(answer)) {
        const QString named = subByName.value(Checklist::normaliseQuestion(e.text));
        if (!named.isEmpty() && !e.text.contains(QLatin1Char('?'))) {
            current = named;
            continue;
        }
        if (e.heading) {
            // By its number ("### 3. Clearness" for the third component, renamed by the model);
            // a header without a number that names no component ("Here are the questions:") is prose.
            if (e.label.isEmpty())
                continue;
            const int k = e.label.contains(QLatin1Char('-')) ? 0 : e.label.toInt();
            current = k >= 1 && k <= components.size() ? components[k - 1].key : QString();
            continue;
        }
        const QString text = cleanQuestion(e.text);
        if (text.isEmpty())
            continue;
        const QString norm = Checklist::normaliseQuestion(text);
        if (current.isEmpty() || known.contains(norm)) {
            ++m_unplaced; // under no sub-aspect of the checklist, or a copy of a question it has
            continue;
        }
        known.insert(norm);
        QVariantList seeds;
        for (const Criterion &sd : seedsOf(m_rubric, current))
            seeds.append(sd.key);
        Criterion q;
        q.key = nextQuestionKey(m_rubric);
        q.parentKey = current;
        q.kind = CriterionKind::Question;
        q.text = text;
        q.position = int(m_rubric.criteria().size());
        q.origin = {{QStringLiteral("method"), QStringLiteral("checkeval")},
                    {QStringLiteral("stage"), QStringLiteral("diversification")},
                    {QStringLiteral("source"), QStringLiteral("generator")},
                    {QStringLiteral("seeds"), seeds},
                    {QStringLiteral("generator"), m_ctx->spec().generator.model},
                    {QStringLiteral("prompt"), QStringLiteral("checkeval_diversify")},
                    {QStringLiteral("call_key"), callKey}};
        m_rubric.add(q);
        ++added;
    }
    return added;
}

int CheckEvalMethod::addElaborated(const QString &subAspect, const QString &answer, const QString &callKey)
{
    // Read by the shared outline reader: "1-2. seed" (depth 2, bold or bulleted or not) names the
    // seed; "1-2-3. question" (depth 3) is one of its new questions; the component line is skipped.
    const QVector<Criterion> seeds = seedsOf(m_rubric, subAspect);
    QSet<QString> known;
    for (const Criterion &q : m_rubric.ofKind(CriterionKind::Question))
        known.insert(Checklist::normaliseQuestion(q.text));
    QString seed;
    QHash<QString, int> perSeed;
    int added = 0;
    for (const OutlineEntry &e : AnswerParser::parseOutline(answer)) {
        const QStringList parts = e.label.split(QLatin1Char('-'));
        if (e.label.isEmpty() || parts.size() < 2)
            continue;
        const QString text = cleanQuestion(e.text);
        if (parts.size() == 2) {
            // The seed by its text, else by its number within the sub-aspect.
            seed.clear();
            const QString norm = Checklist::normaliseQuestion(text);
            for (const Criterion &s : seeds)
                if (Checklist::normaliseQuestion(s.text) == norm)
                    seed = s.key;
            if (seed.isEmpty()) {
                const int k = parts[1].toInt();
                if (k >= 1 && k <= seeds.size())
                    seed = seeds[k - 1].key;
            }
            continue;
        }
        if (parts.size() != 3 || text.isEmpty())
            continue;
        const QString norm = Checklist::normaliseQuestion(text);
        if (seed.isEmpty() || known.contains(norm) || perSeed.value(seed) >= m_params.elaborateMax) {
            ++m_unplaced; // no seed above it, a copy, or more than elaborate_max for its seed
            continue;
        }
        known.insert(norm);
        ++perSeed[seed];
        Criterion q;
        q.key = nextQuestionKey(m_rubric);
        q.parentKey = subAspect;
        q.kind = CriterionKind::Question;
        q.text = text;
        q.position = int(m_rubric.criteria().size());
        q.origin = {{QStringLiteral("method"), QStringLiteral("checkeval")},
                    {QStringLiteral("stage"), QStringLiteral("elaboration")},
                    {QStringLiteral("source"), QStringLiteral("generator")},
                    {QStringLiteral("seed"), seed},
                    {QStringLiteral("generator"), m_ctx->spec().generator.model},
                    {QStringLiteral("prompt"), QStringLiteral("checkeval_elaborate")},
                    {QStringLiteral("call_key"), callKey}};
        m_rubric.add(q);
        ++added;
    }
    return added;
}

Result<int> CheckEvalMethod::applyFilter(const QString &answer)
{
    const qsizetype open = answer.indexOf(QLatin1Char('{')), close = answer.lastIndexOf(QLatin1Char('}'));
    if (open < 0 || close < open)
        return makeError(tr("the filter's answer holds no JSON object"), {}, 0, QStringLiteral("filter"));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(answer.mid(open, close - open + 1).toUtf8(), &error);
    if (!doc.isObject())
        return makeError(tr("the filter's answer is not valid JSON: %1").arg(error.errorString()), {}, 0,
                         QStringLiteral("filter"));
    const QJsonObject o = doc.object();
    QHash<QString, QString> subByName;
    for (const Criterion &sub : m_rubric.ofKind(CriterionKind::SubAspect))
        subByName.insert(Checklist::normaliseQuestion(sub.text), sub.key);
    QHash<QString, QSet<QString>> kept; // sub-aspect key → retained question texts
    for (auto it = o.begin(); it != o.end(); ++it) {
        // A sub-aspect name as given, up to case and punctuation ("Logical flow" for "Logical Flow").
        const QString sub = subByName.value(Checklist::normaliseQuestion(it.key()));
        if (sub.isEmpty())
            return makeError(
                    tr("the filter's answer names a sub-aspect the checklist does not have: '%1'").arg(it.key()), {}, 0,
                    QStringLiteral("filter"));
        if (!it.value().isArray())
            return makeError(tr("the filter's answer for '%1' is not a list").arg(it.key()), {}, 0,
                             QStringLiteral("filter"));
        QSet<QString> texts;
        for (const Criterion &q : m_rubric.children(sub))
            if (q.enabled && q.kind == CriterionKind::Question)
                texts.insert(q.text.trimmed());
        for (const auto &v : it.value().toArray()) {
            const QString t = v.toString().trimmed();
            if (!texts.contains(t))
                return makeError(tr("the filter returned a question that is not among those of '%1' as asked: '%2'")
                                         .arg(it.key(), t),
                                 {}, 0, QStringLiteral("filter"));
            kept[sub].insert(t);
        }
    }
    for (const Criterion &sub : m_rubric.ofKind(CriterionKind::SubAspect)) {
        if (!sub.enabled)
            continue;
        bool hasQuestions = false;
        for (const Criterion &q : m_rubric.children(sub.key))
            hasQuestions = hasQuestions || (q.enabled && q.kind == CriterionKind::Question);
        if (hasQuestions && !kept.contains(sub.key))
            return makeError(tr("the filter's answer leaves out the sub-aspect '%1' (an empty list removes all of "
                                "its questions)")
                                     .arg(sub.text),
                             {}, 0, QStringLiteral("filter"));
    }
    int removed = 0;
    const QString reason = tr("removed by the filter (generator %1)").arg(m_ctx->spec().generator.model);
    for (Criterion &q : m_rubric.criteria()) {
        if (q.kind != CriterionKind::Question || !q.enabled || kept.value(q.parentKey).contains(q.text.trimmed()))
            continue;
        if (const Criterion *sub = m_rubric.find(q.parentKey); sub && !sub->enabled)
            continue; // under a disabled sub-aspect: not shown to the filter, so not removed by it
        q.enabled = false;
        q.origin.insert(QStringLiteral("filtered"), reason);
        ++removed;
    }
    return removed;
}

void CheckEvalMethod::runPipeline()
{
    m_pipelineRan = true;
    if (!m_params.diversify) {
        runElaborate();
        return;
    }
    auto req = diversifyRequest(m_rubric);
    if (!req) {
        m_ctx->fail(req.errorString());
        return;
    }
    m_ctx->submit(JudgeRole::Generator, kPhaseDiversify, {*req}, [this](const QVector<JudgeResponse> &rs) {
        if (!rs.first().ok()) {
            m_ctx->fail(RunContext::failureText(rs.first()));
            return;
        }
        m_added[0] = addDiversified(rs.first().text(), rs.first().cacheKey);
        if (m_added[0] == 0) {
            m_ctx->fail(tr("diversify: the generator's answer gave no new question under a sub-aspect of the "
                           "checklist: %1")
                                .arg(rs.first().text().left(300)));
            return;
        }
        runElaborate();
    });
}

void CheckEvalMethod::runElaborate()
{
    if (!m_params.elaborate) {
        runFilter(false);
        return;
    }
    // From the seeds alone (the paper runs the two strategies independently): the requests are
    // built before the diversified questions could change anything they show (seeds only).
    m_elaborateSubs.clear();
    auto reqs = elaborateRequests(m_rubric, &m_elaborateSubs);
    if (!reqs) {
        m_ctx->fail(reqs.errorString());
        return;
    }
    m_ctx->submit(JudgeRole::Generator, kPhaseElaborate, *reqs, [this](const QVector<JudgeResponse> &rs) {
        for (int i = 0; i < rs.size(); ++i) {
            if (!rs[i].ok()) {
                m_ctx->fail(RunContext::failureText(rs[i]));
                return;
            }
            m_added[1] += addElaborated(m_elaborateSubs[i], rs[i].text(), rs[i].cacheKey);
        }
        if (m_added[1] == 0) {
            m_ctx->fail(tr("elaborate: the generator's answers gave no sub-sub-question (an outline with items "
                           "such as '- 1-1-1. question' under each seed): %1")
                                .arg(rs.first().text().left(300)));
            return;
        }
        runFilter(false);
    });
}

void CheckEvalMethod::runFilter(bool reask)
{
    if (!m_params.filter) {
        savePipelineVersion();
        return;
    }
    auto req = filterRequest(m_rubric);
    if (!req) {
        m_ctx->fail(req.errorString());
        return;
    }
    if (reask)
        req->reask = 1; // asked again after an answer that could not be used: its own cache key
    m_ctx->submit(JudgeRole::Generator, kPhaseFilter, {*req}, [this, reask](const QVector<JudgeResponse> &rs) {
        if (!rs.first().ok()) {
            m_ctx->fail(RunContext::failureText(rs.first()));
            return;
        }
        const Rubric before = m_rubric;
        auto removed = applyFilter(rs.first().text());
        if (!removed) {
            m_rubric = before;
            if (!reask) {
                runFilter(true);
                return;
            }
            m_ctx->fail(tr("filter: %1 (asked twice); the checklist is left unfiltered").arg(removed.errorString()));
            return;
        }
        m_removed = *removed;
        savePipelineVersion();
    });
}

void CheckEvalMethod::savePipelineVersion()
{
    if (Criterion *root = m_rubric.find(QStringLiteral("aspect")))
        root->origin.insert(QStringLiteral("pipeline"),
                            QVariantMap{{QStringLiteral("augment"), m_params.augmentName()},
                                        {QStringLiteral("filter"), m_params.filter},
                                        {QStringLiteral("generator"), m_ctx->spec().generator.model},
                                        {QStringLiteral("elaborate_min"), m_params.elaborateMin},
                                        {QStringLiteral("elaborate_max"), m_params.elaborateMax}});
    auto saved = m_ctx->store().saveVersion(
            m_ctx->spec().judge, m_rubric,
            tr("CheckEval augmentation: +%1 by diversification, +%2 by elaboration, %3 removed by the filter")
                    .arg(m_added[0])
                    .arg(m_added[1])
                    .arg(m_removed));
    if (!saved) {
        m_ctx->fail(saved.errorString());
        return;
    }
    m_rubric.setVersion(*saved);
    evaluate();
}

} // namespace rubric
