#include "HypoEvalMethod.h"

#include "AnswerText.h"
#include "Rescore.h"
#include "judge/AnswerParser.h"
#include "runs/RunContext.h"
#include "stats/Correlation.h"
#include "store/Project.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSet>

#include <cmath>

namespace rubric {
namespace {

constexpr const char *kRootKey = "aspect";

JudgeRole roleOf(HypoTask::Kind kind)
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

} // namespace

HypoEvalMethod::HypoEvalMethod(RunContext *context, QObject *parent)
    : Method(context, parent)
{
}

HypoEvalMethod::~HypoEvalMethod() = default;

Result<void> HypoEvalMethod::readParams()
{
    auto p = HypoEvalParams::fromSettings(m_ctx->spec().settings);
    if (!p)
        return p.error();
    m_params = *p;
    m_params.scaleMin = m_ctx->aspect().min;
    m_params.scaleMax = m_ctx->aspect().max;
    if (m_ctx->spec().settings.contains(QStringLiteral("scale_min")))
        m_params.scaleMin = p->scaleMin;
    if (m_ctx->spec().settings.contains(QStringLiteral("scale_max")))
        m_params.scaleMax = p->scaleMax;
    if (auto lit = readLiterature(m_ctx->spec().literatureDir); !lit)
        return lit.error();
    auto loaded = m_ctx->store().load(m_ctx->spec().judge);
    if (loaded)
        m_rubric = *loaded;
    return {};
}

Result<void> HypoEvalMethod::readLiterature(const QString &dir)
{
    m_papers.clear();
    m_literature.clear();
    if (dir.isEmpty())
        return {};
    const QDir d(dir);
    if (!d.exists())
        return makeError(tr("no literature folder '%1'").arg(dir), {}, 0, QStringLiteral("literature"));
    const QStringList files = d.entryList({QStringLiteral("*.txt"), QStringLiteral("*.md")}, QDir::Files, QDir::Name);
    if (files.isEmpty())
        return makeError(tr("the literature folder '%1' has no .txt or .md files").arg(dir), {}, 0,
                         QStringLiteral("literature"));
    QMap<QString, Paper> byTitle; // sorted by title: the literature's order does not depend on the file system
    for (const QString &f : files) {
        QFile file(d.filePath(f));
        if (!file.open(QIODevice::ReadOnly))
            return makeError(tr("cannot read %1: %2").arg(file.fileName(), file.errorString()), {}, 0,
                             QStringLiteral("literature"));
        const QString text = QString::fromUtf8(file.readAll()).trimmed();
        if (text.isEmpty())
            return makeError(tr("%1 is empty").arg(file.fileName()), {}, 0, QStringLiteral("literature"));
        QString title = f.left(f.lastIndexOf(QLatin1Char('.')));
        const bool isSummary = title.endsWith(QLatin1String(".summary"));
        if (isSummary)
            title.chop(int(qstrlen(".summary")));
        Paper &p = byTitle[title];
        if (!p.title.isEmpty() && (isSummary ? p.userSummary : !p.text.isEmpty()))
            return makeError(tr("%1: two files for '%2' (use one .txt or .md per paper and per summary)")
                                     .arg(d.filePath(f), title),
                             {}, 0, QStringLiteral("literature"));
        p.title = title;
        if (isSummary) {
            p.summary = text;
            p.userSummary = true;
            if (p.file.isEmpty())
                p.file = f;
        } else {
            p.text = text;
            p.file = f;
        }
    }
    m_papers = byTitle.values().toVector();
    assembleLiterature();
    return {};
}

void HypoEvalMethod::assembleLiterature()
{
    QStringList parts;
    for (const Paper &p : std::as_const(m_papers))
        if (!p.summary.isEmpty())
            parts.append(QStringLiteral("Paper: %1\n%2").arg(p.title, p.summary));
    m_literature = parts.join(QStringLiteral("\n\n"));
}

Result<JudgeRequest> HypoEvalMethod::request(const QString &templateName, const QVariantMap &context)
{
    auto prompt = m_ctx->prompts().render(templateName, context);
    if (!prompt)
        return prompt.error();
    m_ctx->noteTemplate(*prompt);
    JudgeRequest r;
    r.messages = prompt->messages;
    r.temperature = m_params.temperature;
    r.maxTokens = m_params.maxTokens;
    return r;
}

Result<JudgeRequest> HypoEvalMethod::summaryRequest(const Paper &paper)
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
    return request(QStringLiteral("hypoeval_score"), c);
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

namespace {

double price(const ProviderProfile &p, qint64 in, qint64 out)
{
    return (double(in) * p.pricePerMillionIn + double(out) * p.pricePerMillionOut) / 1e6;
}

QString summaryText(const QString &answer)
{
    QString text = answer.trimmed();
    if (text.startsWith(QLatin1String("Summary:"), Qt::CaseInsensitive))
        text = text.mid(int(qstrlen("Summary:"))).trimmed();
    return text;
}

} // namespace

Result<void> HypoEvalMethod::estimatePreparation(RunEstimate &e, QVector<Criterion> &selected, int &evalMin,
                                                 int &evalMax)
{
    const RunSpec &spec = m_ctx->spec();
    QVector<HypoEvalAlgorithm::Sample> train;
    for (const Item &it : m_ctx->trainItems())
        train.append({it.id, m_ctx->human(it.id)});
    if (train.size() < 2)
        return makeError(tr("HypoEval needs at least 2 human-scored training items"), {}, 0, QStringLiteral("items"));

    // §2.1: papers without a summary are summarised first, one generator call each. A summary
    // in the cache is the one the run will use.
    int summaries = 0;
    for (Paper &p : m_papers) {
        if (!p.summary.isEmpty())
            continue;
        auto req = summaryRequest(p);
        if (!req)
            return req.error();
        if (const auto hit = m_ctx->cached(JudgeRole::Generator, *req); hit && !summaryText(hit->text()).isEmpty()) {
            ++e.cached;
            p.summary = summaryText(hit->text());
            continue;
        }
        ++summaries;
        const qint64 in = RunContext::approxTokens(*req);
        e.tokensIn += in;
        e.tokensOut += 600;
        e.cost += price(spec.generator, in, 600);
    }
    if (!m_papers.isEmpty()) {
        e.calls += summaries;
        e.callsMin += summaries;
        e.perPhase.insert(QStringLiteral("literature-summary"), summaries);
    }
    assembleLiterature();

    // The preparation is deterministic for its answers: replay it through the judge cache (a
    // resumed run, or the same settings under another judge name, finds its answers there) up
    // to the first batch with a call not answered yet. From there on, the calls depend on the
    // answers still to come: the algorithm's bounds (HypoEvalAlgorithm::remaining).
    HypoEvalAlgorithm algo(m_params, train, !m_papers.isEmpty());
    HypoCallBounds rest;
    QString partialPhase;
    int partialHits = 0;
    if (summaries > 0) {
        rest = algo.remaining(); // the prompts need the summaries: nothing to replay
    } else {
        for (;;) {
            const HypoCallBounds before = algo.remaining();
            const QVector<HypoTask> batch = algo.nextBatch();
            if (batch.isEmpty()) {
                if (algo.failed())
                    return makeError(tr("the preparation fails on the answers in the cache: %1").arg(algo.error()), {},
                                     0, {});
                break;
            }
            QVector<HypoAnswer> answers;
            int hits = 0;
            for (const HypoTask &t : batch) {
                auto req = requestFor(algo, t);
                if (!req)
                    return req.error();
                if (const auto hit = m_ctx->cached(roleOf(t.kind), *req)) {
                    ++hits;
                    answers.append(answerOf(t, hit->text()));
                }
            }
            e.cached += hits;
            if (answers.size() < batch.size()) {
                rest = before;
                partialPhase = batch.first().phase;
                partialHits = hits;
                break;
            }
            algo.deliver(answers);
        }
    }
    if (algo.finished()) { // every call of the preparation is in the cache: the selection is known
        const QStringList keys = algo.selected();
        for (const QString &key : keys)
            for (const HypoHypothesis &h : algo.hypotheses())
                if (h.key == key) {
                    Criterion c;
                    c.key = h.key;
                    c.kind = CriterionKind::Hypothesis;
                    c.text = h.text;
                    selected.append(c);
                }
        return {};
    }
    const qint64 scoreIn = 700, genIn = 3000, scoreOut = 300, genOut = 800; // typical sizes (inferred)
    for (auto it = rest.phases.begin(); it != rest.phases.end(); ++it) {
        int lo = it->min, hi = it->max;
        if (it.key() == partialPhase) { // the calls of the interrupted batch that are answered already
            lo = std::max(0, lo - partialHits);
            hi = std::max(0, hi - partialHits);
        }
        e.perPhase.insert(it.key(), QVariantMap{{QStringLiteral("min"), lo}, {QStringLiteral("max"), hi}});
        const bool scoring = it.key().contains(QLatin1String("score")) || it.key() == QLatin1String("update")
                             || it.key() == QLatin1String("selection");
        const bool redundancy = it.key() == QLatin1String("redundancy");
        const qint64 in = scoring ? scoreIn : (redundancy ? 400 : genIn);
        const qint64 out = scoring ? scoreOut : (redundancy ? 120 : genOut);
        e.calls += hi;
        e.callsMin += lo;
        e.tokensIn += hi * in;
        e.tokensOut += hi * out;
        e.cost += price(scoring ? spec.evaluator : spec.generator, hi * in, hi * out);
    }
    evalMin = std::min(m_params.hEv, rest.bankMin);
    evalMax = std::min(m_params.hEv, rest.bankMax);
    return {};
}

Result<RunEstimate> HypoEvalMethod::estimate()
{
    if (auto r = readParams(); !r)
        return r.error();
    RunEstimate e;
    const RunSpec &spec = m_ctx->spec();
    QVector<Criterion> hyps = m_rubric.enabled(CriterionKind::Hypothesis);
    int evalHypsMin = int(hyps.size()), evalHypsMax = int(hyps.size());
    if (hyps.isEmpty())
        if (auto r = estimatePreparation(e, hyps, evalHypsMin, evalHypsMax); !r)
            return r.error();
    const bool prepared = !hyps.isEmpty(); // saved, or every preparation call in the cache
    if (prepared) {
        int evalCalls = 0;
        QSet<QString> keys; // identical requests (e.g. duplicate outputs) are sent once
        for (const Item &item : m_ctx->targetItems())
            for (const Criterion &h : std::as_const(hyps)) {
                auto req = scoreRequest(h.text, item);
                if (!req)
                    return req.error();
                const QString key = m_ctx->cacheKey(JudgeRole::Evaluator, *req);
                if (keys.contains(key)) {
                    ++e.cached; // sent once; the run answers the copy from the cache
                    continue;
                }
                keys.insert(key);
                if (m_ctx->isCached(JudgeRole::Evaluator, *req)) {
                    ++e.cached;
                    continue;
                }
                ++evalCalls;
                const qint64 in = RunContext::approxTokens(*req);
                e.tokensIn += in;
                e.tokensOut += 300;
                e.cost += price(spec.evaluator, in, 300);
            }
        e.calls += evalCalls;
        e.callsMin += evalCalls;
        e.perPhase.insert(QStringLiteral("evaluate"), evalCalls);
    } else {
        // One call per target item and selected hypothesis; an item whose texts equal another's
        // asks the same prompts (sent once), and one equal to a train item's may be answered by
        // the selection's calls already.
        QSet<QPair<QString, QString>> trainTexts, seen;
        for (const Item &it : m_ctx->trainItems())
            trainTexts.insert({it.source, it.output});
        int distinct = 0, fresh = 0;
        for (const Item &item : m_ctx->targetItems()) {
            const QPair<QString, QString> texts{item.source, item.output};
            if (seen.contains(texts))
                continue;
            seen.insert(texts);
            ++distinct;
            if (!trainTexts.contains(texts))
                ++fresh;
            auto req = scoreRequest(QString(600, QLatin1Char('x')), item); // a typical hypothesis length
            if (!req)
                return req.error();
            const qint64 in = RunContext::approxTokens(*req) * evalHypsMax;
            e.tokensIn += in;
            e.tokensOut += 300 * evalHypsMax;
            e.cost += price(spec.evaluator, in, 300 * evalHypsMax);
        }
        e.calls += distinct * evalHypsMax;
        e.callsMin += fresh * evalHypsMin;
        e.perPhase.insert(QStringLiteral("evaluate"), QVariantMap{{QStringLiteral("min"), fresh * evalHypsMin},
                                                                  {QStringLiteral("max"), distinct * evalHypsMax}});
    }
    e.exact = e.calls == e.callsMin;
    return e;
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
        evaluateNextChunk();
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
                          Paper &p = m_papers[papers[k]];
                          const QString text = summaryText(rs[k].text());
                          if (text.isEmpty()) {
                              m_ctx->fail(tr("the generator's summary of %1 was empty; write one yourself as "
                                             "%2.summary.txt beside it")
                                                  .arg(p.file, p.title));
                              return;
                          }
                          p.summary = text;
                      }
                      assembleLiterature();
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
    m_ctx->submit(roleOf(tasks.first().kind), tasks.first().phase, requests,
                  [this, tasks](const QVector<JudgeResponse> &rs) { onBatchAnswered(tasks, rs); });
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
    for (const Paper &p : std::as_const(m_papers))
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
    evaluateNextChunk();
}

void HypoEvalMethod::evaluateNextChunk()
{
    const QVector<Item> &items = m_ctx->targetItems();
    if (m_next >= items.size()) {
        if (m_rescore)
            if (auto r = finishRescore(); !r) {
                m_ctx->fail(r.errorString());
                return;
            }
        emit completed({{QStringLiteral("rubric_version"), m_rubric.version()},
                        {QStringLiteral("hypotheses"), int(m_evalHyps.size())},
                        {QStringLiteral("scored"), m_scored},
                        {QStringLiteral("missing"), m_missing}});
        return;
    }
    m_ctx->setOutlook(m_ctx->newTargetTexts(m_next) * int(m_evalHyps.size()));
    const int chunkCalls = std::max(40, m_ctx->spec().evaluator.concurrency * 4);
    QVector<JudgeRequest> requests;
    m_chunkItems.clear();
    while (m_next < items.size() && requests.size() < chunkCalls) {
        for (const Criterion &h : std::as_const(m_evalHyps)) {
            auto r = scoreRequest(h.text, items[m_next]);
            if (!r) {
                m_ctx->fail(r.errorString());
                return;
            }
            requests.append(*r);
        }
        m_chunkItems.append(items[m_next].id);
        ++m_next;
    }
    m_ctx->submit(JudgeRole::Evaluator, QStringLiteral("evaluate"), requests,
                  [this](const QVector<JudgeResponse> &rs) { onEvaluated(rs); });
}

void HypoEvalMethod::onEvaluated(const QVector<JudgeResponse> &responses)
{
    QVector<CriterionScore> rows;
    QHash<QString, double> itemScores;
    int at = 0;
    for (const QString &itemId : std::as_const(m_chunkItems)) {
        double sum = 0;
        int n = 0;
        for (const Criterion &h : std::as_const(m_evalHyps)) {
            const JudgeResponse &r = responses[at++];
            const ParsedAnswer p = AnswerParser::parseScore(r.text());
            const bool ok = p.ok && p.score >= m_params.scaleMin && p.score <= m_params.scaleMax;
            if (ok) {
                sum += p.score;
                ++n;
            }
            rows.append({itemId, h.key, 0, ok ? p.score : std::numeric_limits<double>::quiet_NaN(),
                         ok ? QStringLiteral("ok") : QStringLiteral("unparsed"), r.text(),
                         answer::reasoningBeforeScore(r.text()), r.cacheKey});
        }
        // The unweighted mean of the hypotheses that gave a score; none → missing, never zero.
        const double score = n > 0 ? sum / n : std::numeric_limits<double>::quiet_NaN();
        itemScores.insert(itemId, score);
        (n > 0 ? m_scored : m_missing)++;
    }
    if (auto w = m_ctx->store().writeCriterionScores(m_ctx->spec().judge, rows); !w) {
        m_ctx->fail(w.errorString());
        return;
    }
    if (auto w = m_ctx->project()->setJudgeScores(m_ctx->spec().judge, m_ctx->spec().aspect, itemScores); !w) {
        m_ctx->fail(w.errorString());
        return;
    }
    evaluateNextChunk();
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
        auto request = scoreRequest(*text, *item);
        if (!request) {
            error = request.errorString();
            return true;
        }
        return m_ctx->cacheKey(JudgeRole::Evaluator, *request) == s.callKey;
    });
    if (!error.isEmpty())
        return makeError(error, {}, 0, {});
    if (!pruned)
        return pruned.error();
    return rescore::recordAlignment(*m_ctx, m_rubric.version());
}

} // namespace rubric
