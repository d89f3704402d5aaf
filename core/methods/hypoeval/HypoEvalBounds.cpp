#include "HypoEvalAlgorithm.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <tuple>
#include <utility>

// HypoEvalAlgorithm::remaining(): bounds on the calls the preparation still makes from where it
// stands (specs/hypoeval.md §2.8). The state machine itself is in HypoEvalAlgorithm.cpp.

namespace rubric {

int HypoCallBounds::min() const
{
    int n = 0;
    for (const Range &r : phases)
        n += r.min;
    return n;
}

int HypoCallBounds::max() const
{
    int n = 0;
    for (const Range &r : phases)
        n += r.max;
    return n;
}

HypoCallBounds HypoEvalAlgorithm::remaining() const
{
    HypoCallBounds out;
    const auto add = [&out](const char *phase, qint64 lo, qint64 hi) {
        HypoCallBounds::Range &r = out.phases[QString::fromLatin1(phase)];
        r.min += int(lo);
        r.max += int(hi);
    };
    const auto inBank = [this](bool literature) {
        QStringList keys;
        for (const HypoHypothesis &h : m_hyps)
            if (h.inBank && (h.source == QLatin1String("literature")) == literature)
                keys.append(h.key);
        return keys;
    };
    if (m_phase == Phase::Failed)
        return out;
    if (m_phase == Phase::Done) {
        out.bankMin = out.bankMax = int(inBank(false).size() + inBank(true).size());
        return out;
    }
    const int trainN = int(m_train.size());
    const int refineMax = (m_p.refineRounds + 1) / 2 + (m_hasLiterature ? m_p.refineRounds / 2 : 0);
    const int half = std::max(1, m_p.hMax / 2);
    const auto pairs = [](qint64 n) { return n * (n - 1) / 2; };
    // New calls of a hypothesis in the selection: the train items it was not scored on yet.
    const auto selectionCalls = [&](const QString &key) {
        int seen = 0;
        for (const QString &item : m_scored.value(key))
            if (!std::isnan(humanScore(item)))
                ++seen;
        return trainN - seen;
    };

    // The rest of the online update (stage B) from step `from`, with `wrong` samples in W and a
    // data bank of [bankLo, bankHi] hypotheses. The most: every sample is filed as wrong, so a
    // refinement comes as early and as often as it can and asks for all it can. A refinement
    // merges its new hypotheses into the bank (top-H_max of the top-k and the new ones), which
    // can grow the bank or, when it held more than k, shrink it: the bank's bounds follow both.
    struct Sim
    {
        qint64 update = 0, generate = 0, refine = 0, wrongScore = 0;
        int bank = 0;
    };
    const auto merged = [this](int bank, int top, int fresh) {
        return std::min(m_p.hMax, (m_p.mergeWholeBank ? bank : top) + fresh);
    };
    const auto simulate = [&](int from, int wrong, int bankLo, int bankHi) {
        Sim lo, hi;
        lo.bank = bankLo;
        hi.bank = bankHi;
        for (int t = from; t <= int(m_update.size()); ++t) {
            const int askedLo = std::min(m_p.topK, lo.bank), askedHi = std::min(m_p.topK, hi.bank);
            lo.update += askedLo;
            hi.update += askedHi;
            if (++wrong < m_p.wMax)
                continue;
            wrong = 0;
            hi.generate += 1;
            hi.refine += refineMax;
            hi.wrongScore += qint64(m_p.hypothesesPerCall) * m_p.wMax;
            lo.bank = std::min(lo.bank, merged(lo.bank, askedLo, 1));
            hi.bank = std::max(hi.bank, merged(hi.bank, askedHi, m_p.hypothesesPerCall));
        }
        return std::pair{lo, hi};
    };

    const int bankNow = int(inBank(false).size());
    const int eventItems = int(m_eventItems.size());
    const int topNow = int(m_topAtEvent.size());
    Sim lo, hi;
    bool updating = true; // stage B not over yet
    switch (m_phase) {
    case Phase::Init: {
        const int n = std::max(1, m_p.initHypotheses);
        add("init", 1, 1);
        add("init-score", qint64(m_init.size()), qint64(m_init.size()) * n);
        std::tie(lo, hi) = simulate(1, 0, 1, n);
        break;
    }
    case Phase::InitScore:
        add("init-score", qint64(m_init.size()) * bankNow, qint64(m_init.size()) * bankNow);
        std::tie(lo, hi) = simulate(1, 0, bankNow, bankNow);
        break;
    case Phase::Update:
        std::tie(lo, hi) = simulate(m_t, int(m_wrongBank.size()), bankNow, bankNow);
        break;
    case Phase::WrongGenerate:
        // least: the generation returns nothing and the event ends there, the bank unchanged
        add("wrong-generate", 1, 1);
        add("refine", 0, refineMax);
        add("wrong-score", 0, qint64(m_p.hypothesesPerCall) * eventItems);
        std::tie(lo, hi) = simulate(m_t + 1, 0, std::min(bankNow, merged(bankNow, topNow, 1)),
                                    std::max(bankNow, merged(bankNow, topNow, m_p.hypothesesPerCall)));
        break;
    case Phase::Refine: {
        int rounds = 0;
        for (int i = m_refineStep; i <= m_p.refineRounds; ++i)
            if (i % 2 == 1 || m_hasLiterature)
                ++rounds;
        // A refinement that returned nothing keeps the previous texts, so a later round may ask
        // a prompt already answered: only the first round is surely new.
        add("refine", m_refineStep == 1 ? std::min(1, rounds) : 0, rounds);
        const int c = int(m_chain.last().size()); // refinements keep or shrink the count
        add("wrong-score", eventItems, qint64(c) * eventItems);
        std::tie(lo, hi) = simulate(m_t + 1, 0, merged(bankNow, topNow, 1), merged(bankNow, topNow, c));
        break;
    }
    case Phase::WrongScore: {
        const int c = int(m_chainTexts.isEmpty() ? m_chain.last().size() : m_chainTexts.size());
        add("wrong-score", qint64(c) * eventItems, qint64(c) * eventItems);
        const int after = merged(bankNow, topNow, c);
        std::tie(lo, hi) = simulate(m_t + 1, 0, after, after);
        break;
    }
    default:
        updating = false;
        break;
    }
    if (updating) {
        add("update", lo.update, hi.update);
        add("wrong-generate", lo.generate, hi.generate);
        add("refine", lo.refine, hi.refine);
        add("wrong-score", lo.wrongScore, hi.wrongScore);
    }

    // Stage C and D. The data bank: D hypotheses; the literature bank: L.
    const int dataLo = updating ? lo.bank : bankNow, dataHi = updating ? hi.bank : bankNow;
    int litLo = 0, litHi = 0;
    if (updating || m_phase == Phase::LiteratureOnly) {
        if (m_hasLiterature) {
            add("literature-only", 1, 1);
            litHi = half; // an empty answer leaves no literature bank
        }
    } else {
        litLo = litHi = int(inBank(true).size());
    }
    if (updating || m_phase == Phase::LiteratureOnly || m_phase == Phase::RedundancyWithin) {
        add("redundancy", pairs(dataLo) + pairs(litLo), pairs(dataHi) + pairs(litHi));
        // After removing repeats (at least one of each non-empty bank stays) and drawing at most
        // half of H_max from each (all H_max from the data bank when no literature is left):
        // the pairs across, then the union that the selection scores. The data bank always
        // survives the check across (a literature hypothesis repeating one of it goes).
        const int crossLo = litLo > 0 ? 1 : 0;
        const int withLit = std::min(dataHi, half) * std::min(litHi, half);
        add("redundancy", crossLo, withLit);
        const int dataCap = std::min(dataHi, litHi > 0 ? half : m_p.hMax);
        out.bankMin = std::min(1, dataLo);
        out.bankMax = std::max(litLo == 0 ? std::min(dataHi, m_p.hMax) : 0, dataCap + std::min(litHi, half));
        // New selection calls per hypothesis: a data hypothesis was scored on at least its |S_init| or
        // w_max items already (init or wrong-bank), a literature one on none. Known banks give their
        // exact figures.
        QVector<int> dataCalls, litCalls;
        if (!updating && m_phase == Phase::RedundancyWithin) {
            for (const QString &k : m_dataBank)
                dataCalls.append(selectionCalls(k));
            for (const QString &k : m_litBank)
                litCalls.append(selectionCalls(k));
        } else {
            const int seen = std::min<int>(int(m_init.size()), m_p.wMax);
            dataCalls.fill(trainN - seen, dataHi);
            litCalls.fill(trainN, litHi);
        }
        std::sort(dataCalls.begin(), dataCalls.end(), std::greater<>());
        std::sort(litCalls.begin(), litCalls.end(), std::greater<>());
        const auto sumFirst = [](const QVector<int> &v, int n) {
            return std::accumulate(v.begin(), v.begin() + std::min<int>(n, int(v.size())), qint64(0));
        };
        const qint64 noLit = litLo == 0 ? sumFirst(dataCalls, std::min(dataHi, m_p.hMax)) : 0;
        const qint64 withLitCalls = litHi > 0 ? sumFirst(dataCalls, half) + sumFirst(litCalls, half) : 0;
        // least: every data hypothesis may already have been scored on every train item (known
        // banks: at least the cheapest data hypothesis is scored)
        const qint64 least = !dataCalls.isEmpty() && !updating && m_phase == Phase::RedundancyWithin
                                     ? *std::min_element(dataCalls.begin(), dataCalls.end())
                                     : 0;
        add("selection", least, std::max(noLit, withLitCalls));
    } else if (m_phase == Phase::RedundancyAcross) {
        add("redundancy", qint64(m_dataBank.size()) * m_litBank.size(), qint64(m_dataBank.size()) * m_litBank.size());
        qint64 dataCalls = 0, litCalls = 0;
        for (const QString &k : m_dataBank)
            dataCalls += selectionCalls(k);
        for (const QString &k : m_litBank)
            litCalls += selectionCalls(k);
        add("selection", dataCalls, dataCalls + litCalls);
        out.bankMin = int(m_dataBank.size());
        out.bankMax = int(m_dataBank.size() + m_litBank.size());
    } else { // Phase::Selection
        qint64 calls = 0;
        int bankSize = 0;
        for (const HypoHypothesis &h : m_hyps)
            if (h.inBank) {
                calls += selectionCalls(h.key);
                ++bankSize;
            }
        add("selection", calls, calls);
        out.bankMin = out.bankMax = bankSize;
    }
    return out;
}

} // namespace rubric
