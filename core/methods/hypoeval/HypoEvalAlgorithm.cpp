#include "HypoEvalAlgorithm.h"

#include "stats/Correlation.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <vector>

namespace rubric {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("HypoEval", text);
}

bool isNan(double v)
{
    return std::isnan(v);
}

} // namespace

HypoEvalAlgorithm::HypoEvalAlgorithm(HypoEvalParams params, QVector<Sample> train, bool hasLiterature)
    : m_p(std::move(params))
    , m_train(std::move(train))
    , m_hasLiterature(hasLiterature)
    , m_rng(m_p.seed)
{
    QVector<Sample> order = m_train;
    seededShuffle(order, m_rng);
    const int n = std::min<int>(m_p.initSamples, int(order.size()));
    m_init = order.mid(0, n);
    m_update = order.mid(n);
    if (m_train.size() < 2)
        fail(tr("HypoEval needs at least 2 human-scored training items, the train split has %1").arg(m_train.size()));
}

double HypoEvalAlgorithm::exploitation(const HypoEvalParams &p, double human, double predicted)
{
    const double err = human - predicted;
    return p.a - p.b * err * err;
}

QString HypoEvalAlgorithm::phase() const
{
    switch (m_phase) {
    case Phase::Init:
        return QStringLiteral("init");
    case Phase::InitScore:
        return QStringLiteral("init-score");
    case Phase::Update:
        return QStringLiteral("update");
    case Phase::WrongGenerate:
        return QStringLiteral("wrong-generate");
    case Phase::Refine:
        return QStringLiteral("refine");
    case Phase::WrongScore:
        return QStringLiteral("wrong-score");
    case Phase::LiteratureOnly:
        return QStringLiteral("literature-only");
    case Phase::RedundancyWithin:
    case Phase::RedundancyAcross:
        return QStringLiteral("redundancy");
    case Phase::Selection:
        return QStringLiteral("selection");
    case Phase::Done:
        return QStringLiteral("done");
    case Phase::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

void HypoEvalAlgorithm::fail(const QString &why)
{
    m_phase = Phase::Failed;
    m_error = why;
}

double HypoEvalAlgorithm::humanScore(const QString &itemId) const
{
    for (const Sample &s : m_train)
        if (s.itemId == itemId)
            return s.score;
    return std::numeric_limits<double>::quiet_NaN();
}

HypoTask HypoEvalAlgorithm::makeTask(HypoTask::Kind kind, const QString &phase)
{
    HypoTask t;
    t.kind = kind;
    t.id = m_nextTask++;
    t.phase = phase;
    return t;
}

QString HypoEvalAlgorithm::addHypothesis(const QString &text, const QString &source, const QVariantMap &origin)
{
    HypoHypothesis h;
    h.key = QStringLiteral("h%1").arg(m_hyps.size() + 1);
    h.text = text;
    h.source = source;
    h.origin = origin;
    h.origin.insert(QStringLiteral("source"), source);
    m_hyps.append(h);
    return h.key;
}

HypoHypothesis *HypoEvalAlgorithm::find(const QString &key)
{
    for (HypoHypothesis &h : m_hyps)
        if (h.key == key)
            return &h;
    return nullptr;
}

void HypoEvalAlgorithm::updateReward(HypoHypothesis &h, int t, int logCount, int n)
{
    double sum = 0;
    for (double l : std::as_const(h.seen))
        sum += l;
    const int seen = int(h.seen.size());
    const double exploit = seen > 0 ? sum / seen : 0.0;
    const int denom = std::max(1, n);
    const double explore = m_p.alpha * std::sqrt(std::log(double(std::max(1, logCount))) / denom);
    h.reward = exploit + explore;
    h.rewardHistory.append(QVariantMap{{QStringLiteral("t"), t},
                                       {QStringLiteral("reward"), h.reward},
                                       {QStringLiteral("exploit"), exploit},
                                       {QStringLiteral("explore"), explore},
                                       {QStringLiteral("n"), seen}});
}

QStringList HypoEvalAlgorithm::bank() const
{
    QStringList out;
    for (const HypoHypothesis &h : m_hyps)
        if (h.inBank && h.source != QLatin1String("literature"))
            out.append(h.key);
    return out;
}

QStringList HypoEvalAlgorithm::topK() const
{
    QVector<const HypoHypothesis *> b;
    for (const HypoHypothesis &h : m_hyps)
        if (h.inBank && h.source != QLatin1String("literature"))
            b.append(&h);
    std::stable_sort(b.begin(), b.end(),
                     [](const HypoHypothesis *x, const HypoHypothesis *y) { return x->reward > y->reward; });
    QStringList out;
    for (int i = 0; i < std::min<int>(m_p.topK, int(b.size())); ++i)
        out.append(b[i]->key);
    return out;
}

QVector<HypoTask> HypoEvalAlgorithm::nextBatch()
{
    m_batch.clear();
    for (;;) {
        switch (m_phase) {
        case Phase::Init: {
            HypoTask t = makeTask(HypoTask::Kind::Generate, QStringLiteral("init"));
            for (const Sample &s : std::as_const(m_init))
                t.items.append(s.itemId);
            t.count = m_p.initHypotheses;
            t.withLiterature = m_hasLiterature;
            m_batch.append(t);
            break;
        }
        case Phase::InitScore:
            for (const QString &key : bank())
                for (const Sample &s : std::as_const(m_init)) {
                    HypoTask t = makeTask(HypoTask::Kind::Score, QStringLiteral("init-score"));
                    t.hypothesisKey = key;
                    t.itemId = s.itemId;
                    m_batch.append(t);
                }
            break;
        case Phase::Update: {
            m_topAtEvent = topK();
            const QString item = m_update[m_t - 1].itemId;
            for (const QString &key : std::as_const(m_topAtEvent)) {
                HypoTask t = makeTask(HypoTask::Kind::Score, QStringLiteral("update"));
                t.hypothesisKey = key;
                t.itemId = item;
                m_batch.append(t);
            }
            break;
        }
        case Phase::WrongGenerate: {
            HypoTask t = makeTask(HypoTask::Kind::Generate, QStringLiteral("wrong-generate"));
            t.items = m_eventItems;
            t.count = m_p.hypothesesPerCall;
            m_batch.append(t);
            break;
        }
        case Phase::Refine: {
            if (m_refineStep > m_p.refineRounds) {
                m_phase = Phase::WrongScore;
                continue;
            }
            const bool data = (m_refineStep % 2) == 1;
            if (!data && !m_hasLiterature) { // no literature: the literature rounds are skipped
                m_chain.append(m_chain.last());
                ++m_refineStep;
                continue;
            }
            HypoTask t = makeTask(data ? HypoTask::Kind::RefineData : HypoTask::Kind::RefineLiterature,
                                  QStringLiteral("refine"));
            t.hypotheses = m_chain.last();
            if (data)
                t.items = m_eventItems;
            t.withLiterature = !data;
            t.count = int(m_chain.last().size());
            m_batch.append(t);
            break;
        }
        case Phase::WrongScore: {
            if (m_chainTexts.isEmpty()) { // first time here for this event: create the new hypotheses
                const QStringList finals = m_chain.last();
                for (int i = 0; i < finals.size(); ++i) {
                    QVariantList chain;
                    for (int step = 0; step < m_chain.size(); ++step)
                        chain.append(QVariantMap{
                                {QStringLiteral("step"), step},
                                {QStringLiteral("kind"),
                                 step == 0 ? QStringLiteral("generate")
                                           : (step % 2 ? QStringLiteral("data") : QStringLiteral("literature"))},
                                {QStringLiteral("text"), i < m_chain[step].size() ? m_chain[step][i] : QString()}});
                    m_chainTexts.append(addHypothesis(finals[i], QStringLiteral("wrong-bank"),
                                                      {{QStringLiteral("event"), m_event},
                                                       {QStringLiteral("t"), m_t},
                                                       {QStringLiteral("wrong_items"), m_eventItems},
                                                       {QStringLiteral("chain"), chain}}));
                }
            }
            for (const QString &key : std::as_const(m_chainTexts))
                for (const QString &item : std::as_const(m_eventItems)) {
                    HypoTask t = makeTask(HypoTask::Kind::Score, QStringLiteral("wrong-score"));
                    t.hypothesisKey = key;
                    t.itemId = item;
                    m_batch.append(t);
                }
            break;
        }
        case Phase::LiteratureOnly: {
            HypoTask t = makeTask(HypoTask::Kind::Generate, QStringLiteral("literature-only"));
            t.count = std::max(1, m_p.hMax / 2);
            t.withData = false;
            t.withLiterature = true;
            m_batch.append(t);
            break;
        }
        case Phase::RedundancyWithin:
        case Phase::RedundancyAcross: {
            const auto pairs = [&](const QStringList &a, const QStringList &b, bool within) {
                for (int i = 0; i < a.size(); ++i)
                    for (int j = within ? i + 1 : 0; j < b.size(); ++j) {
                        HypoTask t = makeTask(HypoTask::Kind::Redundancy, QStringLiteral("redundancy"));
                        t.keys = {a[i], b[j]};
                        t.hypotheses = {find(a[i])->text, find(b[j])->text};
                        m_batch.append(t);
                    }
            };
            if (m_phase == Phase::RedundancyWithin) {
                pairs(m_dataBank, m_dataBank, true);
                pairs(m_litBank, m_litBank, true);
                if (m_batch.isEmpty()) {
                    finishRedundancyWithin({}, {});
                    continue;
                }
            } else {
                pairs(m_dataBank, m_litBank, false);
                if (m_batch.isEmpty()) {
                    finishRedundancyAcross({}, {});
                    continue;
                }
            }
            break;
        }
        case Phase::Selection:
            for (const HypoHypothesis &h : std::as_const(m_hyps))
                if (h.inBank)
                    for (const Sample &s : std::as_const(m_train)) {
                        HypoTask t = makeTask(HypoTask::Kind::Score, QStringLiteral("selection"));
                        t.hypothesisKey = h.key;
                        t.itemId = s.itemId;
                        m_batch.append(t);
                    }
            break;
        case Phase::Done:
        case Phase::Failed:
            return {};
        }
        break;
    }
    for (const HypoTask &t : std::as_const(m_batch)) {
        ++m_calls[t.phase];
        if (t.kind == HypoTask::Kind::Score)
            m_scored[t.hypothesisKey].insert(t.itemId);
    }
    return m_batch;
}

void HypoEvalAlgorithm::deliver(const QVector<HypoAnswer> &answers)
{
    QHash<int, HypoAnswer> byId;
    for (const HypoAnswer &a : answers)
        byId.insert(a.taskId, a);
    for (const HypoTask &t : std::as_const(m_batch))
        if (!byId.contains(t.id)) {
            fail(tr("internal: task %1 (%2) was not answered").arg(t.id).arg(t.phase));
            return;
        }
    const QVector<HypoTask> batch = m_batch;
    m_batch.clear();

    switch (m_phase) {
    case Phase::Init: {
        const QStringList texts = byId.value(batch.first().id).hypotheses.mid(0, m_p.initHypotheses);
        if (texts.isEmpty()) {
            fail(tr("the generator's answer to the initial prompt contained no hypotheses "
                    "(expected 'hypothesis1. …', 'hypothesis2. …')"));
            return;
        }
        for (const QString &text : texts)
            addHypothesis(text, QStringLiteral("init"), {{QStringLiteral("t"), 0}});
        m_phase = Phase::InitScore;
        return;
    }
    case Phase::InitScore: {
        for (const HypoTask &t : batch) {
            const double s = byId.value(t.id).score;
            if (!isNan(s))
                find(t.hypothesisKey)->seen.insert(t.itemId, exploitation(m_p, humanScore(t.itemId), s));
        }
        const int n = int(m_init.size());
        for (const QString &key : bank())
            updateReward(*find(key), 0, n, n);
        m_t = 1;
        m_phase = m_update.isEmpty() ? Phase::Done : Phase::Update;
        if (m_update.isEmpty())
            advanceAfterUpdate();
        return;
    }
    case Phase::Update: {
        const QString item = m_update[m_t - 1].itemId;
        const double human = m_update[m_t - 1].score;
        int wrong = 0;
        for (const HypoTask &t : batch) {
            const double s = byId.value(t.id).score;
            HypoHypothesis *h = find(t.hypothesisKey);
            if (!isNan(s)) {
                h->seen.insert(item, exploitation(m_p, human, s));
                if (std::abs(s - human) > m_p.theta)
                    ++wrong;
            }
            updateReward(*h, m_t, m_t + int(m_init.size()), int(h->seen.size()));
        }
        if (wrong >= std::min<int>(m_p.wHyp, int(batch.size())) && !batch.isEmpty()) {
            m_wrongBank.append(item);
            m_log.append(QVariantMap{{QStringLiteral("t"), m_t},
                                     {QStringLiteral("event"), QStringLiteral("wrong")},
                                     {QStringLiteral("item"), item},
                                     {QStringLiteral("wrong"), wrong},
                                     {QStringLiteral("bank"), int(m_wrongBank.size())}});
        }
        if (m_wrongBank.size() >= m_p.wMax)
            startRefinement();
        else
            advanceAfterUpdate();
        return;
    }
    case Phase::WrongGenerate: {
        const QStringList texts = byId.value(batch.first().id).hypotheses.mid(0, m_p.hypothesesPerCall);
        if (texts.isEmpty()) {
            m_log.append(QVariantMap{{QStringLiteral("t"), m_t},
                                     {QStringLiteral("event"), QStringLiteral("generation-empty")}});
            advanceAfterUpdate();
            return;
        }
        m_chain = {texts};
        m_refineStep = 1;
        m_phase = Phase::Refine;
        return;
    }
    case Phase::Refine: {
        QStringList texts = byId.value(batch.first().id).hypotheses.mid(0, m_chain.last().size());
        if (texts.isEmpty()) {
            m_log.append(QVariantMap{{QStringLiteral("t"), m_t},
                                     {QStringLiteral("event"), QStringLiteral("refine-empty")},
                                     {QStringLiteral("step"), m_refineStep}});
            texts = m_chain.last();
        }
        m_chain.append(texts);
        ++m_refineStep;
        return;
    }
    case Phase::WrongScore: {
        for (const HypoTask &t : batch) {
            const double s = byId.value(t.id).score;
            if (!isNan(s))
                find(t.hypothesisKey)->seen.insert(t.itemId, exploitation(m_p, humanScore(t.itemId), s));
        }
        const int n = int(m_eventItems.size());
        for (const QString &key : std::as_const(m_chainTexts))
            updateReward(*find(key), m_t, n, n);
        mergeWrongBank();
        advanceAfterUpdate();
        return;
    }
    case Phase::LiteratureOnly: {
        const QStringList texts = byId.value(batch.first().id).hypotheses.mid(0, std::max(1, m_p.hMax / 2));
        for (const QString &text : texts)
            addHypothesis(text, QStringLiteral("literature"), {});
        m_log.append(QVariantMap{{QStringLiteral("event"), QStringLiteral("literature-only")},
                                 {QStringLiteral("count"), int(texts.size())}});
        startUnion();
        return;
    }
    case Phase::RedundancyWithin:
        finishRedundancyWithin(batch, byId);
        return;
    case Phase::RedundancyAcross:
        finishRedundancyAcross(batch, byId);
        return;
    case Phase::Selection:
        finishSelection(batch, byId);
        return;
    case Phase::Done:
    case Phase::Failed:
        return;
    }
}

void HypoEvalAlgorithm::startRefinement()
{
    ++m_event;
    m_eventItems = m_wrongBank;
    m_wrongBank.clear();
    m_chain.clear();
    m_chainTexts.clear();
    m_refineStep = 0;
    m_log.append(QVariantMap{{QStringLiteral("t"), m_t},
                             {QStringLiteral("event"), QStringLiteral("refinement")},
                             {QStringLiteral("number"), m_event},
                             {QStringLiteral("items"), m_eventItems}});
    m_phase = Phase::WrongGenerate;
}

void HypoEvalAlgorithm::mergeWrongBank()
{
    QStringList candidates = m_p.mergeWholeBank ? bank() : m_topAtEvent;
    for (const QString &k : std::as_const(m_chainTexts))
        if (!candidates.contains(k))
            candidates.append(k);
    std::stable_sort(candidates.begin(), candidates.end(),
                     [this](const QString &x, const QString &y) { return find(x)->reward > find(y)->reward; });
    const QStringList keep = candidates.mid(0, m_p.hMax);
    for (HypoHypothesis &h : m_hyps) {
        if (h.source == QLatin1String("literature") || !h.inBank)
            continue;
        if (!keep.contains(h.key)) {
            h.inBank = false;
            h.droppedBecause = candidates.contains(h.key)
                                       ? tr("ranked below the top %1 by reward at step %2").arg(m_p.hMax).arg(m_t)
                                       : tr("not in the top %1 at step %2").arg(m_p.topK).arg(m_t);
        }
    }
    m_log.append(QVariantMap{{QStringLiteral("t"), m_t},
                             {QStringLiteral("event"), QStringLiteral("merge")},
                             {QStringLiteral("bank"), keep}});
    m_chainTexts.clear();
}

void HypoEvalAlgorithm::advanceAfterUpdate()
{
    ++m_t;
    if (m_t <= m_update.size()) {
        m_phase = Phase::Update;
        return;
    }
    if (m_hasLiterature)
        m_phase = Phase::LiteratureOnly;
    else
        startUnion();
}

void HypoEvalAlgorithm::startUnion()
{
    auto byReward = [this](QStringList keys) {
        std::stable_sort(keys.begin(), keys.end(),
                         [this](const QString &x, const QString &y) { return find(x)->reward > find(y)->reward; });
        return keys;
    };
    m_dataBank = byReward(bank());
    m_litBank.clear();
    for (const HypoHypothesis &h : std::as_const(m_hyps))
        if (h.inBank && h.source == QLatin1String("literature"))
            m_litBank.append(h.key);
    // Texts that are the same but for spaces and case are one hypothesis: they merge here without
    // a call, before the judge is asked which pairs repeat each other and before the selection.
    // The one with the best reward stays (with its history); the others leave the bank.
    QHash<QString, QString> best; // normalised text → the key kept
    for (const QStringList *keys : {&m_dataBank, &m_litBank})
        for (const QString &k : *keys) {
            const QString norm = normalisedText(find(k)->text);
            const auto it = best.constFind(norm);
            if (it == best.constEnd() || find(k)->reward > find(*it)->reward)
                best.insert(norm, k);
        }
    const auto mergeSame = [this, &best](const QStringList &keys) {
        QStringList kept;
        for (const QString &k : keys) {
            HypoHypothesis *h = find(k);
            const QString twin = best.value(normalisedText(h->text));
            if (twin == k) {
                kept.append(k);
            } else {
                h->inBank = false;
                h->droppedBecause = tr("the same text as %1").arg(twin);
            }
        }
        return kept;
    };
    m_dataBank = mergeSame(m_dataBank);
    m_litBank = mergeSame(m_litBank);
    m_phase = Phase::RedundancyWithin;
}

QString HypoEvalAlgorithm::normalisedText(const QString &text)
{
    return text.simplified().toCaseFolded();
}

QStringList HypoEvalAlgorithm::dedup(const QStringList &keys, const QSet<QPair<QString, QString>> &redundant,
                                     const QString &why)
{
    QStringList kept;
    for (const QString &k : keys) {
        QString twin;
        for (const QString &j : std::as_const(kept))
            if (redundant.contains({j, k}) || redundant.contains({k, j}))
                twin = j;
        if (twin.isEmpty()) {
            kept.append(k);
        } else {
            HypoHypothesis *h = find(k);
            h->inBank = false;
            h->droppedBecause = why.arg(twin);
        }
    }
    return kept;
}

QSet<QPair<QString, QString>> HypoEvalAlgorithm::redundantPairs(const QVector<HypoTask> &batch,
                                                                const QHash<int, HypoAnswer> &answers)
{
    QSet<QPair<QString, QString>> out;
    for (const HypoTask &t : batch)
        if (t.kind == HypoTask::Kind::Redundancy && answers.value(t.id).redundant)
            out.insert({t.keys.value(0), t.keys.value(1)});
    return out;
}

void HypoEvalAlgorithm::finishRedundancyWithin(const QVector<HypoTask> &batch, const QHash<int, HypoAnswer> &answers)
{
    const QSet<QPair<QString, QString>> redundant = redundantPairs(batch, answers);
    const QString why = tr("repeats %1");
    m_dataBank = dedup(m_dataBank, redundant, why);
    m_litBank = dedup(m_litBank, redundant, why);
    // Union: at most H_max/2 from each source (HypoRefine's balance); without literature the
    // data bank alone fills up to H_max.
    const auto sample = [this](QStringList keys, int n, const QString &source) {
        if (keys.size() <= n)
            return keys;
        seededShuffle(keys, m_rng);
        for (int i = n; i < keys.size(); ++i) {
            HypoHypothesis *h = find(keys[i]);
            h->inBank = false;
            h->droppedBecause = tr("not drawn into the union (at most %1 from the %2 bank)").arg(n).arg(source);
        }
        return keys.mid(0, n);
    };
    const int half = std::max(1, m_p.hMax / 2);
    m_dataBank = sample(m_dataBank, m_litBank.isEmpty() ? m_p.hMax : half, QStringLiteral("data"));
    m_litBank = sample(m_litBank, half, QStringLiteral("literature"));
    m_phase = Phase::RedundancyAcross;
}

void HypoEvalAlgorithm::finishRedundancyAcross(const QVector<HypoTask> &batch, const QHash<int, HypoAnswer> &answers)
{
    const QSet<QPair<QString, QString>> redundant = redundantPairs(batch, answers);
    // data hypotheses first: a literature hypothesis that repeats one of them goes
    const QStringList all = dedup(m_dataBank + m_litBank, redundant, tr("repeats %1"));
    m_log.append(QVariantMap{{QStringLiteral("event"), QStringLiteral("union")}, {QStringLiteral("bank"), all}});
    startSelection();
}

void HypoEvalAlgorithm::startSelection()
{
    m_phase = Phase::Selection;
}

void HypoEvalAlgorithm::finishSelection(const QVector<HypoTask> &batch, const QHash<int, HypoAnswer> &answers)
{
    QHash<QString, QHash<QString, double>> scores; // hypothesis → item → score
    for (const HypoTask &t : batch)
        scores[t.hypothesisKey].insert(t.itemId, answers.value(t.id).score);
    // A Pearson on a handful of parsed items (two points: ±1) or a NaN one (constant scores) would
    // win the selection by accident; such hypotheses are kept in the bank but never selected.
    const int minParsed = m_p.minParsedFor(int(m_train.size()));
    QVector<HypoHypothesis *> ranked;
    int inBank = 0;
    for (HypoHypothesis &h : m_hyps) {
        if (!h.inBank)
            continue;
        ++inBank;
        std::vector<double> x, y;
        for (const Sample &s : std::as_const(m_train)) {
            const double v = scores.value(h.key).value(s.itemId, std::numeric_limits<double>::quiet_NaN());
            if (!isNan(v)) {
                x.push_back(v);
                y.push_back(s.score);
            }
        }
        h.trainPearson = stats::pearson(x, y);
        h.trainSpearman = stats::spearman(x, y);
        if (int(x.size()) < minParsed) {
            h.droppedBecause = tr("not selectable: scored on %1 of %2 training items, at least %3 needed")
                                       .arg(x.size())
                                       .arg(m_train.size())
                                       .arg(minParsed);
            continue;
        }
        if (isNan(h.trainPearson)) {
            h.droppedBecause = tr("not selectable: its training Pearson is undefined (constant scores)");
            continue;
        }
        ranked.append(&h);
    }
    if (inBank == 0) {
        fail(tr("no hypothesis survived to the selection"));
        return;
    }
    if (ranked.isEmpty()) {
        fail(tr("no hypothesis can be selected: none has a defined training Pearson on at least %1 of the %2 training "
                "items (setting min_parsed)")
                     .arg(minParsed)
                     .arg(m_train.size()));
        return;
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const HypoHypothesis *a, const HypoHypothesis *b) {
        return a->trainPearson > b->trainPearson;
    });
    for (int i = 0; i < ranked.size(); ++i)
        ranked[i]->selected = i < m_p.hEv;
    m_log.append(QVariantMap{{QStringLiteral("event"), QStringLiteral("selection")},
                             {QStringLiteral("min_parsed"), minParsed},
                             {QStringLiteral("selectable"), int(ranked.size())},
                             {QStringLiteral("bank"), inBank}});
    m_phase = Phase::Done;
}

QStringList HypoEvalAlgorithm::selected() const
{
    QVector<const HypoHypothesis *> sel;
    for (const HypoHypothesis &h : m_hyps)
        if (h.selected)
            sel.append(&h);
    std::stable_sort(sel.begin(), sel.end(), [](const HypoHypothesis *a, const HypoHypothesis *b) {
        const double pa = isNan(a->trainPearson) ? -2 : a->trainPearson;
        const double pb = isNan(b->trainPearson) ? -2 : b->trainPearson;
        return pa > pb;
    });
    QStringList out;
    for (const HypoHypothesis *h : sel)
        out.append(h->key);
    return out;
}

} // namespace rubric
