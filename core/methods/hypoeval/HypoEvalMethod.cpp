#include "HypoEvalMethod.h"

#include "Literature.h"
#include "judge/AnswerParser.h"
#include "judge/CacheKey.h"
#include "methods/AnswerText.h"
#include "methods/Rescore.h"
#include "methods/RunContext.h"
#include "stats/Correlation.h"
#include "store/Project.h"

#include <QCoreApplication>

#include <cmath>

namespace rubric {
namespace {

constexpr const char *kRootKey = "aspect";

} // namespace

HypoEvalMethod::HypoEvalMethod(RunContext *context, QObject *parent)
    : Method(context, parent)
{
}

HypoEvalMethod::~HypoEvalMethod() = default;

JudgeRole HypoEvalMethod::roleOf(HypoTask::Kind kind)
{
    switch (kind) {
    case HypoTask::Kind::RefineData:
    case HypoTask::Kind::RefineLiterature:
        return JudgeRole::Refiner;
    case HypoTask::Kind::Score:
        return JudgeRole::Evaluator;
    case HypoTask::Kind::Generate:
    case HypoTask::Kind::Redundancy:
        break;
    }
    return JudgeRole::Generator;
}

Result<void> HypoEvalMethod::readParams()
{
    auto p = HypoEvalParams::fromSettings(m_ctx->methodSettings());
    if (!p)
        return p.error();
    m_params = *p;
    m_params.scaleMin = m_ctx->aspect().min;
    m_params.scaleMax = m_ctx->aspect().max;
    if (m_ctx->spec().settings.contains(QStringLiteral("scale_min")))
        m_params.scaleMin = p->scaleMin;
    if (m_ctx->spec().settings.contains(QStringLiteral("scale_max")))
        m_params.scaleMax = p->scaleMax;
    m_params.fitScale();
    auto papers = Literature::read(m_ctx->spec().settings.value(QStringLiteral("literature")).toString());
    if (!papers)
        return papers.error();
    m_papers = std::move(papers).value();
    m_literature = Literature::relevantPapers(m_papers);
    auto loaded = m_ctx->store().loadLatest(m_ctx->spec().judge);
    if (!loaded)
        return loaded.error(); // an unreadable rubric must not look like none (the preparation would run again)
    if (*loaded)
        m_rubric = **loaded;
    return {};
}

Result<JudgeRequest> HypoEvalMethod::request(const QString &templateName, const QVariantMap &context)
{
    return m_ctx->templateRequest(templateName, context, m_params.temperature, m_params.maxTokens);
}

Result<JudgeRequest> HypoEvalMethod::summaryRequest(const LiteraturePaper &paper)
{
    QVariantMap c = m_ctx->baseContext();
    c.insert(QStringLiteral("paper_title"), paper.title);
    c.insert(QStringLiteral("paper_text"), paper.text);
    return request(QStringLiteral("hypoeval_summarize"), c);
}

QVariantList HypoEvalMethod::observations(const QStringList &itemIds) const
{
    QVariantList out;
    for (const QString &id : itemIds) {
        const Item *it = m_ctx->item(id);
        if (!it)
            continue;
        out.append(QVariantMap{{QStringLiteral("source"), it->source},
                               {QStringLiteral("output"), it->output},
                               {QStringLiteral("score"), QString::number(m_ctx->human(id), 'f', 2)}});
    }
    return out;
}

Result<JudgeRequest> HypoEvalMethod::scoreRequest(const QString &hypothesis, const Item &item)
{
    QVariantMap c = m_ctx->baseContext();
    c.insert(QStringLiteral("source"), item.source);
    c.insert(QStringLiteral("output"), item.output);
    c.insert(QStringLiteral("hypothesis"), hypothesis);
    auto r = request(QStringLiteral("hypoeval_score"), c);
    if (r)
        r->shape = AnswerShape::score(m_params.scaleMin, m_params.scaleMax);
    return r;
}

Result<JudgeRequest> HypoEvalMethod::requestFor(const HypoEvalAlgorithm &algo, const HypoTask &task)
{
    if (task.kind == HypoTask::Kind::Score) {
        const Item *item = m_ctx->item(task.itemId);
        QString text;
        for (const HypoHypothesis &h : algo.hypotheses())
            if (h.key == task.hypothesisKey)
                text = h.text;
        return scoreRequest(text, *item);
    }
    QVariantMap c = m_ctx->baseContext();
    QString name;
    QVariantList hyps;
    for (int i = 0; i < task.hypotheses.size(); ++i)
        hyps.append(QVariantMap{{QStringLiteral("index"), i + 1}, {QStringLiteral("text"), task.hypotheses[i]}});
    c.insert(QStringLiteral("hypotheses"), hyps);
    c.insert(QStringLiteral("num_hypotheses"), task.count);
    c.insert(QStringLiteral("relevant_papers"), m_literature);
    switch (task.kind) {
    case HypoTask::Kind::Generate:
        name = QStringLiteral("hypoeval_generate");
        c.insert(QStringLiteral("has_observations"), task.withData && !task.items.isEmpty());
        c.insert(QStringLiteral("observations"), observations(task.items));
        c.insert(QStringLiteral("has_literature"), task.withLiterature && !m_literature.isEmpty());
        break;
    case HypoTask::Kind::RefineData:
        name = QStringLiteral("hypoeval_refine");
        c.insert(QStringLiteral("observations"), observations(task.items));
        break;
    case HypoTask::Kind::RefineLiterature:
        name = QStringLiteral("hypoeval_literature");
        break;
    case HypoTask::Kind::Redundancy:
        name = QStringLiteral("hypoeval_redundancy");
        break;
    case HypoTask::Kind::Score:
        break;
    }
    return request(name, c);
}

void HypoEvalMethod::start()
{
    if (auto r = readParams(); !r) {
        m_ctx->fail(r.errorString());
        return;
    }
    if (!m_rubric.enabled(CriterionKind::Hypothesis).isEmpty()) {
        // A stored (possibly edited) version: score its enabled hypotheses. Unchanged prompts
        // are answered from the judge cache, so only edited or added hypotheses cost calls.
        m_rescore = true;
        m_evalHyps = m_rubric.enabled(CriterionKind::Hypothesis);
        evaluate();
        return;
    }
    QVector<JudgeRequest> requests;
    QVector<int> papers;
    for (int i = 0; i < m_papers.size(); ++i) {
        if (!m_papers[i].summary.isEmpty())
            continue;
        auto r = summaryRequest(m_papers[i]);
        if (!r) {
            m_ctx->fail(r.errorString());
            return;
        }
        requests.append(*r);
        papers.append(i);
    }
    if (requests.isEmpty()) {
        startPreparation();
        return;
    }
    m_ctx->setOutlook(int(requests.size()));
    m_ctx->submit(JudgeRole::Generator, QStringLiteral("literature-summary"), requests,
                  [this, papers](const QVector<JudgeResponse> &rs) {
                      for (int k = 0; k < papers.size(); ++k) {
                          LiteraturePaper &p = m_papers[papers[k]];
                          const QString text = Literature::summaryOf(rs[k].text());
                          if (text.isEmpty()) {
                              m_ctx->fail(tr("the generator's summary of %1 was empty; write one yourself as "
                                             "%2.summary.txt beside it")
                                                  .arg(p.file, p.title));
                              return;
                          }
                          p.summary = text;
                      }
                      m_literature = Literature::relevantPapers(m_papers);
                      startPreparation();
                  });
}

void HypoEvalMethod::startPreparation()
{
    QVector<HypoEvalAlgorithm::Sample> train;
    for (const Item &it : m_ctx->trainItems())
        train.append({it.id, m_ctx->human(it.id)});
    m_algo = std::make_unique<HypoEvalAlgorithm>(m_params, train, !m_papers.isEmpty());
    runBatch();
}

void HypoEvalMethod::runBatch()
{
    if (m_algo->failed()) {
        m_ctx->fail(m_algo->error());
        return;
    }
    // The most this attempt still sends: the rest of the preparation, then one call per target
    // item and selected hypothesis.
    const HypoCallBounds rest = m_algo->remaining();
    m_ctx->setOutlook(rest.max() + m_ctx->newTargetTexts(0) * std::min(m_params.hEv, rest.bankMax));
    const QVector<HypoTask> tasks = m_algo->nextBatch();
    if (tasks.isEmpty()) {
        if (m_algo->failed()) {
            m_ctx->fail(m_algo->error());
            return;
        }
        savePreparedRubric();
        return;
    }
    QVector<JudgeRequest> requests;
    for (const HypoTask &t : tasks) {
        auto r = requestFor(*m_algo, t);
        if (!r) {
            m_ctx->fail(r.errorString());
            return;
        }
        requests.append(*r);
    }
    // A batch holds tasks of one kind, hence one role.
    RunContext::Readable readable;
    if (tasks.first().kind == HypoTask::Kind::Score)
        readable = [this](const JudgeResponse &r) { return readableScore(r); };
    m_ctx->submit(
            roleOf(tasks.first().kind), tasks.first().phase, requests,
            [this, tasks](const QVector<JudgeResponse> &rs) { onBatchAnswered(tasks, rs); }, readable);
}

void HypoEvalMethod::onBatchAnswered(const QVector<HypoTask> &tasks, const QVector<JudgeResponse> &responses)
{
    QVector<HypoAnswer> answers;
    for (int i = 0; i < tasks.size(); ++i) {
        const HypoTask &t = tasks[i];
        const QString text = responses[i].text();
        const HypoAnswer a = answerOf(t, text);
        if (t.kind == HypoTask::Kind::Score && t.phase == QLatin1String("selection"))
            m_selectionScores.insert(
                    t.hypothesisKey + QLatin1Char('|') + t.itemId,
                    CriterionScore{t.itemId, t.hypothesisKey, 0, a.score,
                                   std::isnan(a.score) ? QStringLiteral("unparsed") : QStringLiteral("ok"), text,
                                   answer::reasoningBeforeScore(text), responses[i].cacheKey});
        answers.append(a);
    }
    m_algo->deliver(answers);
    runBatch();
}

bool HypoEvalMethod::readableScore(const JudgeResponse &response) const
{
    const ParsedAnswer p = AnswerParser::parseScore(response.text());
    return p.ok && p.score >= m_params.scaleMin && p.score <= m_params.scaleMax;
}

HypoAnswer HypoEvalMethod::answerOf(const HypoTask &task, const QString &text) const
{
    HypoAnswer a;
    a.taskId = task.id;
    switch (task.kind) {
    case HypoTask::Kind::Score: {
        const ParsedAnswer p = AnswerParser::parseScore(text);
        if (p.ok && p.score >= m_params.scaleMin && p.score <= m_params.scaleMax)
            a.score = p.score;
        break;
    }
    case HypoTask::Kind::Redundancy:
        a.redundant = answer::finalYesNo(text).value_or(false);
        break;
    default:
        a.hypotheses = answer::hypotheses(text);
    }
    return a;
}

void HypoEvalMethod::savePreparedRubric()
{
    Rubric rubric(QStringLiteral("hypoeval"), m_ctx->spec().aspect);
    Criterion root;
    root.key = QString::fromLatin1(kRootKey);
    root.kind = CriterionKind::Aspect;
    root.text = m_ctx->aspect().name;
    root.definition = m_ctx->aspect().definition;
    root.origin = {{QStringLiteral("method"), QStringLiteral("hypoeval")}};
    QVariantList literature;
    for (const LiteraturePaper &p : std::as_const(m_papers))
        literature.append(QVariantMap{
                {QStringLiteral("title"), p.title},
                {QStringLiteral("file"), p.file},
                {QStringLiteral("summary"), p.summary},
                {QStringLiteral("written_by"), p.userSummary ? QStringLiteral("user") : QStringLiteral("generator")}});
    root.stats = {{QStringLiteral("params"), m_params.toMap()},
                  {QStringLiteral("calls"), m_ctx->phaseCalls()},
                  {QStringLiteral("log"), m_algo->log()},
                  {QStringLiteral("literature"), literature}};
    rubric.add(root);
    const QStringList selected = m_algo->selected();
    for (const HypoHypothesis &h : m_algo->hypotheses()) {
        Criterion c;
        c.key = h.key;
        c.parentKey = root.key;
        c.kind = CriterionKind::Hypothesis;
        c.text = h.text;
        c.enabled = h.selected;
        c.origin = h.origin;
        c.origin.insert(QStringLiteral("method"), QStringLiteral("hypoeval"));
        c.stats = {
                {QStringLiteral("reward"), h.reward},
                {QStringLiteral("reward_history"), h.rewardHistory},
                {QStringLiteral("samples_seen"), int(h.seen.size())},
                {QStringLiteral("train_pearson"), std::isnan(h.trainPearson) ? QVariant() : QVariant(h.trainPearson)},
                {QStringLiteral("train_spearman"),
                 std::isnan(h.trainSpearman) ? QVariant() : QVariant(h.trainSpearman)},
                {QStringLiteral("in_bank"), h.inBank},
                {QStringLiteral("selected_rank"), selected.indexOf(h.key) + 1},
                {QStringLiteral("dropped_because"), h.droppedBecause}};
        rubric.add(c);
    }
    // Alignment of the selected set on the train split: Pearson of the averaged scores.
    std::vector<double> x, y;
    for (const Item &it : m_ctx->trainItems()) {
        double sum = 0;
        int n = 0;
        for (const QString &key : selected) {
            const double v = m_selectionScores.value(key + QLatin1Char('|') + it.id).score;
            if (!std::isnan(v)) {
                sum += v;
                ++n;
            }
        }
        if (n > 0) {
            x.push_back(sum / n);
            y.push_back(m_ctx->human(it.id));
        }
    }
    const double alignment = stats::pearson(x, y);
    auto saved = m_ctx->store().saveVersion(
            m_ctx->spec().judge, rubric,
            tr("HypoEval bank of %1, %2 selected — alignment: Pearson of the selected hypotheses' mean score "
               "with the human scores on the train split, n = %3")
                    .arg(m_algo->hypotheses().size())
                    .arg(selected.size())
                    .arg(x.size()),
            std::isnan(alignment) ? std::nullopt : std::optional<double>(alignment));
    if (!saved) {
        m_ctx->fail(saved.errorString());
        return;
    }
    if (auto w = m_ctx->store().writeCriterionScores(m_ctx->spec().judge, m_selectionScores.values().toVector()); !w) {
        m_ctx->fail(w.errorString());
        return;
    }
    rubric.setVersion(*saved);
    m_rubric = rubric;
    m_evalHyps = rubric.enabled(CriterionKind::Hypothesis);
    evaluate();
}

void HypoEvalMethod::evaluate()
{
    // Every target item is one unit of the stream: its request per selected hypothesis.
    m_items = m_ctx->targetsToAsk(&m_failed);
    m_ctx->setOutlook(m_ctx->newTargetTexts(0) * int(m_evalHyps.size()));
    m_ctx->stream(
            JudgeRole::Evaluator, QStringLiteral("evaluate"), int(m_items.size()),
            [this](int unit) -> Result<QVector<JudgeRequest>> {
                QVector<JudgeRequest> requests;
                for (const Criterion &h : std::as_const(m_evalHyps)) {
                    auto r = scoreRequest(h.text, m_ctx->targetItems()[m_items[unit]]);
                    if (!r)
                        return r.error();
                    requests.append(*r);
                }
                return requests;
            },
            [this](int unit, const QVector<JudgeResponse> &rs) {
                onEvaluated(m_ctx->targetItems()[m_items[unit]].id, rs);
            },
            [this] {
                // A first run's version has its train figure from the selection; this adds the
                // test figure (shown on request only).
                if (auto r = m_rescore ? finishRescore() : rescore::recordAlignment(*m_ctx, m_rubric.version()); !r) {
                    m_ctx->fail(r.errorString());
                    return;
                }
                QVariantMap parsed;
                for (auto it = m_parsedCounts.cbegin(); it != m_parsedCounts.cend(); ++it)
                    parsed.insert(QString::number(it.key()), it.value());
                emit completed({{QStringLiteral("rubric_version"), m_rubric.version()},
                                {QStringLiteral("hypotheses"), int(m_evalHyps.size())},
                                {QStringLiteral("min_hypotheses"), m_params.minHypothesesFor(int(m_evalHyps.size()))},
                                {QStringLiteral("hypotheses_parsed"), parsed},
                                {QStringLiteral("too_few_hypotheses"), m_tooFew},
                                {QStringLiteral("scored"), m_scored},
                                {QStringLiteral("missing"), m_missing},
                                {QStringLiteral("failed"), m_failed}});
            },
            [this](const JudgeResponse &r) { return readableScore(r); });
}

void HypoEvalMethod::onEvaluated(const QString &itemId, const QVector<JudgeResponse> &responses)
{
    QVector<CriterionScore> rows;
    double sum = 0;
    int n = 0;
    bool refused = false;
    for (int i = 0; i < m_evalHyps.size(); ++i) {
        const Criterion &h = m_evalHyps[i];
        const JudgeResponse &r = responses[i];
        if (r.reasked.isEmpty()) // the key of the request built from the current text
            m_askedKeys.insert(h.key + QLatin1Char('|') + itemId, r.cacheKey);
        if (r.status == JudgeStatus::Failed) {
            refused = true;
            rows.append({itemId,
                         h.key,
                         0,
                         std::numeric_limits<double>::quiet_NaN(),
                         QStringLiteral("failed"),
                         RunContext::failureText(r),
                         {},
                         r.cacheKey});
            continue;
        }
        const ParsedAnswer p = AnswerParser::parseScore(r.text());
        const bool ok = readableScore(r);
        if (ok) {
            sum += p.score;
            ++n;
        }
        rows.append({itemId, h.key, 0, ok ? p.score : std::numeric_limits<double>::quiet_NaN(),
                     ok ? QStringLiteral("ok") : QStringLiteral("unparsed"), r.text(),
                     answer::reasoningBeforeScore(r.text()), r.cacheKey});
    }
    // The unweighted mean of the hypotheses that gave a score, when at least the minimum did
    // (a majority by default: one parsed answer of five is not the method's score); fewer (or a
    // refusal) → no score, never zero. The rows keep each hypothesis's parse status.
    const bool enough = n > 0 && n >= m_params.minHypothesesFor(int(m_evalHyps.size()));
    const double score = enough && !refused ? sum / n : std::numeric_limits<double>::quiet_NaN();
    m_ctx->recordScores(rows, {{itemId, score}});
    if (!refused) {
        ++m_parsedCounts[n];
        if (n > 0 && !enough)
            ++m_tooFew;
    }
    (refused ? m_failed : enough ? m_scored : m_missing)++;
}

Result<void> HypoEvalMethod::finishRescore()
{
    // A stored score stays only when it answers the prompt the current version asks: its
    // criterion is an enabled hypothesis and its call key is that of the hypothesis's current
    // text on that item. Scores of dropped, disabled or reworded hypotheses (on items this run
    // did not score, e.g. the train items of the selection phase) would mislead the heatmap.
    QHash<QString, QString> texts;
    for (const Criterion &h : std::as_const(m_evalHyps))
        texts.insert(h.key, h.text);
    QString error;
    auto pruned = m_ctx->store().pruneCriterionScores(m_ctx->spec().judge, [&](const CriterionScore &s) {
        const auto text = texts.constFind(s.criterionKey);
        const Item *item = m_ctx->item(s.itemId);
        if (text == texts.constEnd() || !item)
            return false;
        // This run asked it: its key is the current one, without rendering the prompt again
        // (1,500 renders and hashes at the end of an evaluation otherwise).
        if (const auto asked = m_askedKeys.constFind(s.criterionKey + QLatin1Char('|') + s.itemId);
            asked != m_askedKeys.constEnd() && *asked == s.callKey)
            return true;
        auto request = scoreRequest(*text, *item);
        if (!request) {
            error = request.errorString();
            return true;
        }
        // A score stored before cache keys stopped naming the base URL carries the old key.
        return m_ctx->cacheKey(JudgeRole::Evaluator, *request) == s.callKey
               || CacheKey::legacyKeys(m_ctx->spec().evaluator, *request).contains(s.callKey);
    });
    if (!error.isEmpty())
        return makeError(error, {}, 0, {});
    if (!pruned)
        return pruned.error();
    return rescore::recordAlignment(*m_ctx, m_rubric.version());
}

} // namespace rubric
