#include "CheckEvalMethod.h"

#include "methods/EstimateTally.h"
#include "methods/Rescore.h"
#include "methods/RunContext.h"
#include "methods/checkeval/Checklist.h"
#include "methods/checkeval/ChecklistAnswers.h"
#include "methods/checkeval/ChecklistIo.h"
#include "methods/checkeval/QuestionAnalytics.h"
#include "store/CallStore.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "util/Json.h"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// λ of the ridge fit of weights=regression. The answers are 0/1, so λ = 0.1 is small against
/// XᵀX's diagonal (the yes count of a question over the train items) and only keeps constant or
/// collinear questions from getting arbitrary weights.
constexpr double kRidgeLambda = 0.1;

QString fact(const Item &item)
{
    for (const char *key : {"fact", "knowledge"})
        if (const QString v = item.context.value(QString::fromLatin1(key)).toString().trimmed(); !v.isEmpty())
            return v;
    return {};
}

/// The stored row of a parsed answer: `answer` the judge's yes (1) / no (0), `score` whether it
/// meets the question's criterion (the answer, or its opposite for an inverted question).
CriterionScore answerRow(const QString &itemId, const Criterion &q, bool yes, const JudgeResponse &r)
{
    CriterionScore row{itemId,   q.key, 0,         checkeval::meetsCriterion(q, yes) ? 1.0 : 0.0, QStringLiteral("ok"),
                       r.text(), {},    r.cacheKey};
    row.answer = yes ? 1.0 : 0.0;
    return row;
}

} // namespace

CheckEvalMethod::CheckEvalMethod(RunContext *context, QObject *parent)
    : Method(context, parent)
{
}

QVector<CheckEvalMethod::Group> CheckEvalMethod::groupsOf(const Rubric &rubric, CheckEvalParams::Group mode)
{
    // Only the asked questions: a disabled sub-aspect's questions are left out in every mode.
    const QVector<Criterion> asked = Checklist::askedQuestions(rubric);
    QVector<Group> out;
    if (mode == CheckEvalParams::Group::Aspect) {
        if (!asked.isEmpty())
            out.append(Group{QString(), asked});
        return out;
    }
    for (const Criterion &q : asked) {
        if (mode == CheckEvalParams::Group::Question || out.isEmpty() || out.last().subAspect != q.parentKey)
            out.append(Group{q.parentKey, {}});
        out.last().questions.append(q);
    }
    return out;
}

Result<void> CheckEvalMethod::readParams()
{
    auto p = CheckEvalParams::fromSettings(m_ctx->methodSettings());
    if (!p)
        return p.error();
    m_params = *p;
    auto loaded = m_ctx->store().loadLatest(m_ctx->spec().judge);
    if (!loaded)
        return loaded.error();
    if (*loaded) {
        if ((*loaded)->method() != QLatin1String("checkeval"))
            return makeError(tr("judge '%1' holds a %2 rubric, not a CheckEval checklist")
                                     .arg(m_ctx->spec().judge, (*loaded)->method()),
                             {}, 0, QStringLiteral("judge"));
        m_rubric = **loaded;
    }
    // The filter prompt's key metrics: the project's aspects, read once.
    m_keyMetrics.clear();
    auto aspects = m_ctx->project()->readAspects();
    if (!aspects)
        return aspects.error();
    for (const Aspect &a : std::as_const(*aspects))
        m_keyMetrics << a.name;
    // The items: the target items, then the annotated train items not among them.
    m_items.clear();
    QSet<QString> seen;
    for (const QVector<Item> *list : {&m_ctx->targetItems(), &m_ctx->trainItems()})
        for (const Item &it : *list) {
            if (seen.contains(it.id))
                continue;
            seen.insert(it.id);
            if (m_ctx->skipsFailed(it.id))
                continue;
            m_items.append(it);
        }
    return {};
}

Result<void> CheckEvalMethod::check()
{
    if (auto r = readParams(); !r)
        return r;
    if (m_rubric.criteria().isEmpty())
        if (auto loaded = loadChecklist(); !loaded)
            return loaded.error();
    return {};
}

Result<Rubric> CheckEvalMethod::loadChecklist() const
{
    Rubric source;
    QString from;
    if (!m_params.checklistFrom.isEmpty()) {
        const QString other = m_params.checklistFrom;
        auto latest = m_ctx->store().loadLatest(other);
        if (!latest)
            return latest.error();
        if (!*latest)
            return makeError(tr("checklist_from: judge '%1' has no checklist").arg(other), {}, 0,
                             QStringLiteral("checklist_from"));
        const Rubric &loaded = **latest;
        if (loaded.method() != QLatin1String("checkeval"))
            return makeError(tr("checklist_from: judge '%1' holds a %2 rubric, not a CheckEval checklist")
                                     .arg(other, loaded.method()),
                             {}, 0, QStringLiteral("checklist_from"));
        source = loaded;
        from = tr("judge %1, version %2").arg(other).arg(loaded.version());
    } else if (!m_params.checklist.isEmpty()) {
        // "preset:<dataset>/<aspect>[/<stage>]" or a file; errors name the preset or the file and line.
        auto read = ChecklistIo::load(m_params.checklist, m_ctx->aspect().name);
        if (!read)
            return read.error();
        source = *read;
        from = m_params.checklist;
    } else {
        return makeError(tr("CheckEval needs a checklist: --checklist FILE, --checklist preset:DATASET/ASPECT[/STAGE] "
                            "or --set checklist_from=JUDGE"),
                         {}, 0, QStringLiteral("checklist"));
    }
    Rubric r(QStringLiteral("checkeval"), m_ctx->aspect().name);
    for (Criterion c : source.criteria()) {
        if (c.kind == CriterionKind::Question) {
            // Measures belong to the run that made them; a copied checklist starts without them.
            for (const char *k : {"yes_rate", "discrimination", "answered", "constant", "near_duplicate_of"})
                c.stats.remove(QString::fromLatin1(k));
            c.weight = 1.0;
        }
        if (c.kind == CriterionKind::Aspect) {
            if (c.definition.trimmed().isEmpty())
                c.definition = m_ctx->aspect().definition;
            c.origin.insert(QStringLiteral("checklist"), from);
            c.origin.remove(QStringLiteral("pipeline"));
            c.stats.clear();
        }
        r.add(c);
    }
    if (Checklist::askedQuestions(r).isEmpty())
        return makeError(tr("checklist %1 has no enabled question").arg(from), {}, 0, QStringLiteral("checklist"));
    return r;
}

QVariantMap CheckEvalMethod::context() const
{
    QVariantMap c = m_ctx->baseContext();
    c.insert(QStringLiteral("dialogue"), m_ctx->task() == QLatin1String("dialogue"));
    if (const Criterion *root = m_rubric.find(QStringLiteral("aspect")); root && !root->definition.isEmpty())
        c.insert(QStringLiteral("definition"), root->definition);
    // The filter prompt's benchmark context (the paper's Figure 9: name, purpose, key metrics),
    // so that "closer to another dimension" can be judged: the project's aspects are the metrics.
    QString benchmark = m_params.benchmark;
    if (benchmark.isEmpty() && m_params.checklist.startsWith(QLatin1String("preset:"))) {
        const QString dataset = m_params.checklist.mid(7).section(QLatin1Char('/'), 0, 0);
        benchmark = dataset == QLatin1String("summeval")       ? QStringLiteral("SummEval")
                    : dataset == QLatin1String("topical_chat") ? QStringLiteral("Topical-Chat")
                                                               : dataset;
    }
    c.insert(QStringLiteral("benchmark"), benchmark);
    c.insert(QStringLiteral("key_metrics"), m_keyMetrics.join(QStringLiteral(", ")));
    c.insert(QStringLiteral("has_other_metrics"), m_keyMetrics.size() > 1);
    return c;
}

Result<JudgeRequest> CheckEvalMethod::request(const QString &templateName, const QVariantMap &context, JudgeRole role)
{
    auto r = role == JudgeRole::Evaluator
                     ? m_ctx->templateRequest(templateName, context, m_params.temperature, m_params.maxTokens)
                     : m_ctx->templateRequest(templateName, context, 0, CheckEvalParams::generatorMaxTokens);
    // The paper fixes the random seed (temperature 0, n = 1); providers whose API has none leave it out.
    if (r)
        r->seed = m_params.seed;
    return r;
}

Result<JudgeRequest> CheckEvalMethod::answerRequest(const QVector<Criterion> &questions, const Item &item, bool reask)
{
    QVariantMap c = context();
    QVariantList qs;
    int i = 0;
    for (const Criterion &q : questions)
        qs.append(QVariantMap{{QStringLiteral("index"), ++i}, {QStringLiteral("text"), q.text}});
    c.insert(QStringLiteral("questions"), qs);
    c.insert(QStringLiteral("has_source"), !item.source.trimmed().isEmpty());
    c.insert(QStringLiteral("source"), item.source);
    const QString f = fact(item);
    c.insert(QStringLiteral("has_fact"), !f.isEmpty());
    c.insert(QStringLiteral("fact"), f);
    c.insert(QStringLiteral("output"), item.output);
    c.insert(QStringLiteral("reask"), reask);
    auto r = request(QStringLiteral("checkeval_answer"), c, JudgeRole::Evaluator);
    if (r)
        r->shape = AnswerShape::yesNo(int(questions.size()));
    return r;
}

bool CheckEvalMethod::pipelinePending() const
{
    if (!m_params.augmenting() && !m_params.filter)
        return false;
    const Criterion *root = m_rubric.find(QStringLiteral("aspect"));
    return !root || !root->origin.contains(QStringLiteral("pipeline"));
}

Result<RunEstimate> CheckEvalMethod::estimate()
{
    if (auto r = readParams(); !r)
        return r.error();
    RunEstimate e;
    const RunSpec &spec = m_ctx->spec();
    if (m_rubric.version() == 0 && m_rubric.criteria().isEmpty()) {
        auto loaded = loadChecklist();
        if (!loaded)
            return loaded.error();
        m_rubric = *loaded;
    }
    const bool pipeline = pipelinePending();
    if (pipeline) {
        // Known from the checklist: diversify 1, elaborate 1 per sub-aspect with seeds, filter 1.
        QVector<JudgeRequest> gen;
        QVector<QString> phaseOf;
        if (m_params.diversify) {
            auto r = diversifyRequest(m_rubric);
            if (!r)
                return r.error();
            gen.append(*r);
            phaseOf.append(kPhaseDiversify);
        }
        if (m_params.elaborate) {
            QStringList subs;
            auto rs = elaborateRequests(m_rubric, &subs);
            if (!rs)
                return rs.error();
            for (const JudgeRequest &r : *rs) {
                gen.append(r);
                phaseOf.append(kPhaseElaborate);
            }
        }
        for (int i = 0; i < gen.size(); ++i) {
            const auto inCache = m_ctx->isCached(JudgeRole::Generator, gen[i]);
            if (!inCache.ok())
                return inCache.error();
            if (*inCache) {
                ++e.cached;
                continue;
            }
            ++e.calls;
            e.perPhase.insert(phaseOf[i], e.perPhase.value(phaseOf[i]).toInt() + 1);
            const qint64 in = RunContext::approxTokens(gen[i]);
            e.tokensIn += in;
            e.tokensOut += CheckEvalParams::generatorMaxTokens / 2;
            e.cost += RunContext::estimatedCost(spec.generator, in, CheckEvalParams::generatorMaxTokens / 2);
        }
        if (m_params.filter) {
            // Its prompt holds the augmented pool, unknown before the augmentation's answers.
            ++e.calls;
            e.perPhase.insert(kPhaseFilter, 1);
            e.tokensOut += CheckEvalParams::generatorMaxTokens / 2;
        }
        // The questions to answer are known only after the augmentation and the filter.
        e.exact = false;
    }
    const QVector<Group> groups = groupsOf(m_rubric, m_params.group);
    EstimateTally tally(*m_ctx, e);
    for (const Item &item : std::as_const(m_items))
        for (const Group &g : groups) {
            auto r = answerRequest(g.questions, item, false);
            if (!r)
                return r.error();
            // Before the augmentation the questions are the seeds': their answers are no cache's.
            if (auto counted = tally.add(JudgeRole::Evaluator, *r, 4 * qint64(g.questions.size()), !pipeline);
                !counted.ok())
                return counted.error();
        }
    const int answerCalls = tally.calls();
    e.calls += answerCalls;
    e.callsMin = e.calls;
    e.perPhase.insert(kPhaseEvaluate, answerCalls);
    return e;
}

void CheckEvalMethod::start()
{
    if (auto r = readParams(); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    if (m_rubric.version() == 0) {
        auto loaded = loadChecklist();
        if (!loaded) {
            m_ctx->fail(loaded.errorString());
            return;
        }
        const QString from
                = loaded->find(QStringLiteral("aspect"))
                          ? loaded->find(QStringLiteral("aspect"))->origin.value(QStringLiteral("checklist")).toString()
                          : QString();
        auto saved = m_ctx->store().saveVersion(m_ctx->spec().judge, *loaded, tr("checklist from %1").arg(from));
        if (!saved) {
            m_ctx->fail(saved.errorString());
            return;
        }
        m_rubric = *loaded;
        m_rubric.setVersion(*saved);
    }
    if (pipelinePending()) {
        runPipeline();
        return;
    }
    evaluate();
}

void CheckEvalMethod::evaluate()
{
    m_groups = groupsOf(m_rubric, m_params.group);
    if (m_groups.isEmpty()) {
        m_ctx->fail(tr("the checklist of judge '%1' has no enabled question").arg(m_ctx->spec().judge));
        return;
    }
    m_ctx->setOutlook(int(m_items.size() * m_groups.size()));
    m_ctx->stream(
            JudgeRole::Evaluator, kPhaseEvaluate, int(m_items.size()),
            [this](int unit) -> Result<QVector<JudgeRequest>> {
                QVector<JudgeRequest> requests;
                for (const Group &g : std::as_const(m_groups)) {
                    auto r = answerRequest(g.questions, m_items[unit], false);
                    if (!r)
                        return r.error();
                    requests.append(*r);
                }
                return requests;
            },
            [this](int unit, const QVector<JudgeResponse> &rs) { onItemAnswered(unit, rs); }, [this] { askMissing(); },
            // Every answer is read here: the questions it leaves out are asked again, alone.
            [](const JudgeResponse &) { return true; });
}

void CheckEvalMethod::onItemAnswered(int unit, const QVector<JudgeResponse> &responses)
{
    const Item &item = m_items[unit];
    Pending p{unit, {}, {}};
    bool refused = false;
    for (int g = 0; g < m_groups.size(); ++g) {
        const JudgeResponse &r = responses[g];
        const QVector<Criterion> &qs = m_groups[g].questions;
        if (r.status == JudgeStatus::Failed) {
            refused = true;
            for (const Criterion &q : qs)
                p.rows.insert(q.key, {item.id,
                                      q.key,
                                      0,
                                      kNaN,
                                      QStringLiteral("failed"),
                                      RunContext::failureText(r),
                                      {},
                                      r.cacheKey});
            continue;
        }
        const QHash<int, bool> answers = checkeval::parseAnswers(r.text(), int(qs.size()));
        QVector<Criterion> missing;
        for (int i = 0; i < qs.size(); ++i) {
            const Criterion &q = qs[i];
            if (!answers.contains(i + 1)) {
                missing.append(q);
                p.rows.insert(q.key, {item.id, q.key, 0, kNaN, QStringLiteral("unparsed"), r.text(), {}, r.cacheKey});
                continue;
            }
            p.rows.insert(q.key, answerRow(item.id, q, answers.value(i + 1), r));
        }
        if (!missing.isEmpty())
            p.missing.append(missing);
    }
    if (refused || p.missing.isEmpty()) {
        recordItem(item.id, p.rows.values().toVector());
        return;
    }
    m_pending.append(std::move(p));
}

void CheckEvalMethod::askMissing()
{
    if (m_pending.isEmpty()) {
        finish();
        return;
    }
    // One more request per group for the questions its answer left out, numbered anew; what this
    // answer leaves out too stays unanswered.
    auto pending = std::make_shared<QVector<Pending>>(std::exchange(m_pending, {}));
    int outlook = 0;
    for (const Pending &p : std::as_const(*pending))
        outlook += int(p.missing.size());
    m_ctx->setOutlook(outlook);
    m_ctx->stream(
            JudgeRole::Evaluator, kPhaseEvaluate, int(pending->size()),
            [this, pending](int unit) -> Result<QVector<JudgeRequest>> {
                QVector<JudgeRequest> requests;
                const Pending &p = (*pending)[unit];
                for (const QVector<Criterion> &qs : p.missing) {
                    auto r = answerRequest(qs, m_items[p.item], true);
                    if (!r)
                        return r.error();
                    requests.append(*r);
                }
                return requests;
            },
            [this, pending](int unit, const QVector<JudgeResponse> &rs) {
                Pending &p = (*pending)[unit];
                const Item &item = m_items[p.item];
                for (int g = 0; g < p.missing.size(); ++g) {
                    const JudgeResponse &r = rs[g];
                    const QVector<Criterion> &qs = p.missing[g];
                    ++m_reasked;
                    if (r.status == JudgeStatus::Failed) {
                        for (const Criterion &q : qs)
                            p.rows.insert(q.key, {item.id,
                                                  q.key,
                                                  0,
                                                  kNaN,
                                                  QStringLiteral("failed"),
                                                  RunContext::failureText(r),
                                                  {},
                                                  r.cacheKey});
                        continue;
                    }
                    const QHash<int, bool> answers = checkeval::parseAnswers(r.text(), int(qs.size()));
                    for (int i = 0; i < qs.size(); ++i) {
                        const Criterion &q = qs[i];
                        if (!answers.contains(i + 1)) {
                            // The first answer and the re-ask's, both kept for the record.
                            CriterionScore &row = p.rows[q.key];
                            row.raw += QStringLiteral("\n--- asked again ---\n") + r.text();
                            continue;
                        }
                        p.rows.insert(q.key, answerRow(item.id, q, answers.value(i + 1), r));
                    }
                }
                recordItem(item.id, p.rows.values().toVector());
            },
            [this] { finish(); }, [](const JudgeResponse &) { return true; });
}

void CheckEvalMethod::recordItem(const QString &itemId, const QVector<CriterionScore> &rows)
{
    QHash<QString, double> answers;
    bool refused = false;
    for (const CriterionScore &r : rows) {
        answers.insert(r.criterionKey, r.parseStatus == QLatin1String("ok") ? r.score : kNaN);
        refused = refused || r.parseStatus == QLatin1String("failed");
        if (r.parseStatus == QLatin1String("unparsed"))
            ++m_unanswered;
        m_written.insert(itemId + QLatin1Char('|') + r.criterionKey);
    }
    const auto s = checkeval::scoreItem(m_rubric, answers, m_params.missingIsNo);
    const double score = refused ? kNaN : s.score;
    m_ctx->recordScores(rows, {{itemId, score}});
    if (refused) {
        ++m_failed;
        return;
    }
    (std::isnan(score) ? m_missing : m_scored)++;
    if (!std::isnan(s.coverage)) {
        m_coverageSum += s.coverage;
        ++m_coverageN;
    }
}

Result<void> CheckEvalMethod::fitWeights(const QHash<QString, QHash<QString, double>> &answers,
                                         const QSet<QString> &refused)
{
    const QVector<Criterion> questions = Checklist::askedQuestions(m_rubric);
    // An item is scored, and fitted on, only where uniform weighting scores it: its calls were
    // answered (none refused) and at least one answer was read. A refused or unreadable item
    // stays without a score (NaN), never the train mean that imputing all its answers would give.
    const auto scorable = [&](const QString &id) {
        const auto it = answers.constFind(id);
        if (it == answers.constEnd() || refused.contains(id))
            return false;
        for (const Criterion &q : questions)
            if (!std::isnan(it->value(q.key, kNaN)))
                return true;
        return false;
    };
    QVector<QString> train;
    for (const Item &it : m_ctx->trainItems())
        if (scorable(it.id) && !std::isnan(m_ctx->human(it.id)))
            train.append(it.id);
    const int n = int(train.size()), p = int(questions.size());
    if (n < 3 || p == 0)
        return makeError(tr("weights=regression needs answers on at least 3 annotated train items (has %1)").arg(n), {},
                         0, QStringLiteral("weights"));
    // On a scored item, a question left unanswered takes the question's mean over the train items
    // that answered it (with missing=no: 0, as the uniform score counts it).
    Eigen::VectorXd mean = Eigen::VectorXd::Constant(p, 0.5);
    for (int j = 0; j < p; ++j) {
        double sum = 0;
        int k = 0;
        for (const QString &id : std::as_const(train))
            if (const double a = answers[id].value(questions[j].key, kNaN); !std::isnan(a)) {
                sum += a;
                ++k;
            }
        if (k > 0)
            mean[j] = sum / k;
    }
    const auto row = [&](const QHash<QString, double> &a) {
        Eigen::VectorXd x(p);
        for (int j = 0; j < p; ++j) {
            const double v = a.value(questions[j].key, kNaN);
            x[j] = std::isnan(v) ? (m_params.missingIsNo ? 0.0 : mean[j]) : v;
        }
        return x;
    };
    Eigen::MatrixXd X(n, p);
    Eigen::VectorXd y(n);
    for (int i = 0; i < n; ++i) {
        X.row(i) = row(answers[train[i]]).transpose();
        y[i] = m_ctx->human(train[i]);
    }
    const Eigen::RowVectorXd xMean = X.colwise().mean();
    const double yMean = y.mean();
    const Eigen::MatrixXd Xc = X.rowwise() - xMean;
    const Eigen::MatrixXd A = Xc.transpose() * Xc + kRidgeLambda * Eigen::MatrixXd::Identity(p, p);
    const Eigen::VectorXd w = A.ldlt().solve(Xc.transpose() * (y.array() - yMean).matrix());
    const double intercept = yMean - xMean.dot(w);
    for (int j = 0; j < p; ++j)
        if (Criterion *c = m_rubric.find(questions[j].key))
            c->weight = w[j];
    if (Criterion *root = m_rubric.find(QStringLiteral("aspect")))
        root->stats.insert(QStringLiteral("regression"), QVariantMap{{QStringLiteral("intercept"), intercept},
                                                                     {QStringLiteral("lambda"), kRidgeLambda},
                                                                     {QStringLiteral("train_items"), n}});
    // The weighted score: the fitted human score, intercept + Σ w·answer; NaN where the item has
    // no answer to weigh.
    QHash<QString, double> scores;
    for (const Item &it : std::as_const(m_items))
        if (answers.contains(it.id) || refused.contains(it.id))
            scores.insert(it.id, scorable(it.id) ? intercept + row(answers[it.id]).dot(w) : kNaN);
    m_ctx->recordScores({}, scores);
    return m_ctx->flushScores();
}

Result<void> CheckEvalMethod::writeMeasures()
{
    QVector<Criterion> measured;
    for (const Criterion &c : m_rubric.criteria())
        if (c.kind == CriterionKind::Question || c.kind == CriterionKind::Aspect)
            measured.append(c);
    return RubricStore(m_ctx->project()).setCriterionMeasures(m_ctx->spec().judge, m_rubric.version(), measured);
}

void CheckEvalMethod::finish()
{
    if (auto f = m_ctx->flushScores(); !f) {
        m_ctx->fail(f.errorString());
        return;
    }
    const QString judge = m_ctx->spec().judge;
    // Stale answers go: questions no longer asked (disabled, or under a disabled sub-aspect), and on the items this run
    // answered, every row it did not write (a reworded question's old answer, a question moved to another group).
    QSet<QString> enabled, runItems;
    for (const Criterion &q : Checklist::askedQuestions(m_rubric))
        enabled.insert(q.key);
    for (const Item &it : std::as_const(m_items))
        runItems.insert(it.id);
    auto pruned = m_ctx->store().pruneCriterionScores(judge, [&](const CriterionScore &s) {
        if (!enabled.contains(s.criterionKey))
            return false;
        return !runItems.contains(s.itemId) || m_written.contains(s.itemId + QLatin1Char('|') + s.criterionKey);
    });
    if (!pruned) {
        m_ctx->fail(pruned.errorString());
        return;
    }
    // Question analytics: yes-rate and answered over the run's items, discrimination on the
    // annotated train items.
    QVector<CriterionScore> scores;
    QHash<QString, QHash<QString, double>> byItem;
    QSet<QString> refusedItems;
    const auto stored = m_ctx->store().readSampleScores(judge);
    if (!stored) {
        m_ctx->fail(stored.errorString());
        return;
    }
    for (const CriterionScore &s : *stored)
        if (runItems.contains(s.itemId)) {
            scores.append(s);
            if (s.sample == 0)
                byItem[s.itemId].insert(s.criterionKey, s.parseStatus == QLatin1String("ok") ? s.score : kNaN);
            if (s.sample == 0 && s.parseStatus == QLatin1String("failed") && enabled.contains(s.criterionKey))
                refusedItems.insert(s.itemId);
        }
    QHash<QString, double> trainHuman;
    for (const Item &it : m_ctx->trainItems())
        if (!std::isnan(m_ctx->human(it.id)))
            trainHuman.insert(it.id, m_ctx->human(it.id));
    const auto stats = QuestionAnalytics::analyse(QuestionAnalytics::answersFromScores(m_rubric, scores), trainHuman);
    QuestionAnalytics::writeStats(m_rubric, stats, QuestionAnalytics::nearDuplicates(m_rubric));
    if (m_params.regression) {
        if (auto w = fitWeights(byItem, refusedItems); !w) {
            m_ctx->fail(w.errorString());
            return;
        }
    } else {
        for (Criterion &c : m_rubric.criteria())
            if (c.kind == CriterionKind::Question)
                c.weight = 1.0;
        if (Criterion *root = m_rubric.find(QStringLiteral("aspect")))
            root->stats.remove(QStringLiteral("regression"));
    }
    if (auto w = writeMeasures(); !w) {
        m_ctx->fail(w.errorString());
        return;
    }
    if (auto r = rescore::recordAlignment(*m_ctx, m_rubric.version()); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    const StageCounts counts = Checklist::stageCounts(m_rubric);
    QVariantMap summary{
            {QStringLiteral("rubric_version"), m_rubric.version()},
            {QStringLiteral("params"), m_params.toMap()},
            {QStringLiteral("group"), m_params.groupName()},
            {QStringLiteral("groups"), int(m_groups.size())},
            {QStringLiteral("questions"), int(Checklist::askedQuestions(m_rubric).size())},
            {QStringLiteral("items"), int(m_items.size())},
            {QStringLiteral("scored"), m_scored},
            {QStringLiteral("missing"), m_missing},
            {QStringLiteral("failed"), m_failed},
            {QStringLiteral("reasked_calls"), m_reasked},
            {QStringLiteral("unanswered"), m_unanswered},
            {QStringLiteral("coverage"), m_coverageN > 0 ? m_coverageSum / m_coverageN : kNaN},
            {QStringLiteral("missing_policy"),
             m_params.missingIsNo ? tr("strict: an unanswered question counts as no (score = yes / questions)")
                                  : tr("skip: unanswered questions leave the denominator (score = yes / answered)")},
            {QStringLiteral("scoring"),
             m_params.regression
                     ? tr("weighted: ridge regression (λ = %1) of the human score on the train split's answers "
                          "(appendix C.2); the score is the fitted human score")
                               .arg(kRidgeLambda)
                     : tr("uniform: the share of yes answers")},
            {QStringLiteral("stages"), QVariantMap{{QStringLiteral("seeds"), counts.seeds},
                                                   {QStringLiteral("diversification"), counts.diversification},
                                                   {QStringLiteral("elaboration"), counts.elaboration},
                                                   {QStringLiteral("removed"), counts.removed},
                                                   {QStringLiteral("final"), counts.final}}}};
    if (m_pipelineRan)
        summary.insert(QStringLiteral("augmentation"),
                       QVariantMap{{QStringLiteral("diversification_added"), m_added[0]},
                                   {QStringLiteral("elaboration_added"), m_added[1]},
                                   {QStringLiteral("dropped"), m_unplaced},
                                   {QStringLiteral("filter_removed"), m_removed}});
    emit completed(summary);
}

} // namespace rubric
