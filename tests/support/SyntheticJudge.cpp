#include "SyntheticJudge.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace rubric::test {
namespace {

// FNV-1a: qHash is seeded per process in Qt 6, and the fixture must be the same in every run.
quint64 stableHash(const QString &text, quint64 salt)
{
    quint64 h = 1469598103934665603ull ^ salt;
    for (const QChar c : text) {
        h ^= c.unicode();
        h *= 1099511628211ull;
    }
    return h;
}

const QStringList &numberWords()
{
    static const QStringList words{QStringLiteral("zero"),  QStringLiteral("one"),  QStringLiteral("two"),
                                   QStringLiteral("three"), QStringLiteral("four"), QStringLiteral("five"),
                                   QStringLiteral("six"),   QStringLiteral("seven")};
    return words;
}

int numberOf(const QString &text)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    return ok ? v : int(numberWords().indexOf(text.toLower()));
}

} // namespace

SyntheticJudge::SyntheticJudge(QHash<QString, double> humanByOutput)
    : m_human(std::move(humanByOutput))
{
}

QString SyntheticJudge::outputIn(const QString &prompt) const
{
    // The output sits after the last "Summary:" (dialogue: "Response:") label, up to the next
    // blank line + label.
    qsizetype at = prompt.lastIndexOf(QLatin1String("Summary:"));
    qsizetype label = 8;
    if (at < 0) {
        at = prompt.lastIndexOf(QLatin1String("Response:"));
        label = 9;
    }
    if (at >= 0) {
        QString rest = prompt.mid(at + label);
        for (const char *end : {"\n\nPattern:", "\n\nEvaluation Form"}) {
            const qsizetype e = rest.indexOf(QLatin1String(end));
            if (e >= 0)
                rest = rest.left(e);
        }
        rest = rest.trimmed();
        if (m_human.contains(rest))
            return rest;
    }
    QString best;
    for (auto it = m_human.begin(); it != m_human.end(); ++it)
        if (prompt.contains(it.key()) && it.key().size() > best.size())
            best = it.key();
    return best;
}

double SyntheticJudge::hypothesisScore(const QString &hypothesis, const QString &output, int lo, int hi) const
{
    // The hypothesis's own rubric decides the scale of the answer, as with a real judge: a
    // hypothesis written for "one … five" is answered on 1–5 whatever the prompt's range says.
    static const QRegularExpression rubric(QStringLiteral("a rubric from (\\w+) to (\\w+)"));
    int rlo = lo, rhi = hi;
    if (const auto m = rubric.match(hypothesis);
        m.hasMatch() && numberOf(m.captured(1)) >= 0 && numberOf(m.captured(2)) > numberOf(m.captured(1))) {
        rlo = numberOf(m.captured(1));
        rhi = numberOf(m.captured(2));
    }
    if (hypothesis.startsWith(QLatin1String("SIGNAL"))) {
        // The human score, taken from the prompt's scale to the rubric's.
        const double h = std::clamp(m_human.value(output), double(lo), double(hi));
        const double mapped = hi > lo ? rlo + (h - lo) * (rhi - rlo) / double(hi - lo) : h;
        return std::clamp(std::round(mapped), double(rlo), double(rhi));
    }
    return double(rlo + int(stableHash(hypothesis + QLatin1Char('|') + output, 11u) % quint64(rhi - rlo + 1)));
}

QHash<int, double> SyntheticJudge::gevalDistribution(const QString &output) const
{
    const int peak = int(std::clamp(std::round(m_human.value(output)), 1.0, 5.0));
    QHash<int, double> p;
    double rest = 0;
    for (int v = 1; v <= 5; ++v) {
        const int d = std::abs(v - peak);
        p[v] = d == 0 ? 0.6 : d == 1 ? 0.15 : 0.04;
        rest += p[v];
    }
    for (int v = 1; v <= 5; ++v)
        p[v] /= rest;
    return p;
}

double SyntheticJudge::hpssNoise(const QString &prompt)
{
    const bool dialectic = prompt.contains(QLatin1String("Please generate your own"));
    const bool metrics = prompt.contains(QLatin1String("[Questions about "));
    const qsizetype target = prompt.lastIndexOf(QLatin1String("[The Start of the "));
    const qsizetype rules = prompt.indexOf(QLatin1String("Here are some rules of the evaluation"));
    const qsizetype instruction = prompt.indexOf(QLatin1String("[Instruction]"));
    const bool iet = target >= 0 && rules > target && instruction > rules;
    return 1.2 - 0.45 * (dialectic ? 1 : 0) - 0.35 * (metrics ? 1 : 0) - 0.35 * (iet ? 1 : 0);
}

std::optional<int> SyntheticJudge::hpssScore(const QString &prompt) const
{
    static const QRegularExpression scale(QStringLiteral("on a scale of (\\d+) to (\\d+)"));
    const auto m = scale.match(prompt);
    const qsizetype start = prompt.lastIndexOf(QLatin1String("[The Start of the "));
    if (!m.hasMatch() || start < 0)
        return std::nullopt;
    const qsizetype open = prompt.indexOf(QLatin1Char('\n'), start);
    const qsizetype close = prompt.indexOf(QLatin1String("\n[The End of the "), open);
    if (open < 0 || close < 0)
        return std::nullopt;
    const QString output = prompt.mid(open + 1, close - open - 1);
    if (!m_human.contains(output))
        return std::nullopt;
    const int lo = m.captured(1).toInt(), hi = m.captured(2).toInt();
    // The item's own draw (two hash-uniforms of the output: triangular on [-1, 1]) and a small
    // draw of the whole prompt, scaled by the factors' noise size: strategies with the same
    // size differ a little, a smaller size is a better strategy.
    const auto uniform = [](const QString &text, quint64 salt) {
        quint64 h = stableHash(text, salt); // splitmix64's finaliser: salts give independent draws
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        h *= 0xc4ceb9fe1a85ec53ull;
        h ^= h >> 33;
        return double(h % 1000003ull) / 1000003.0;
    };
    const double itemDraw = uniform(output, 21u) + uniform(output, 22u) - 1.0;
    const double promptDraw = uniform(prompt, 23u) - 0.5;
    const double value = m_human.value(output) + 1.7 * hpssNoise(prompt) * (0.85 * itemDraw + 0.3 * promptDraw);
    const double mapped = lo + (value - 1.0) * (hi - lo) / 4.0;
    return int(std::clamp(std::round(mapped), double(lo), double(hi)));
}

FakeAnswer SyntheticJudge::answer(const QJsonObject &body) const
{
    QString prompt;
    const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
    for (const auto &m : messages)
        prompt += m.toObject().value(QStringLiteral("content")).toString() + QLatin1Char('\n');
    // The messages alone (an Anthropic-shaped body carries its system prompt apart).
    const QString userPrompt = prompt;
    if (body.contains(QStringLiteral("system")))
        prompt += body.value(QStringLiteral("system")).toString();
    FakeAnswer a;
    const QString tag = QString::number(stableHash(prompt, 3u) % 100000);

    // HPSS: the auxiliary generations, then the scoring prompt of a strategy.
    if (userPrompt.contains(QLatin1String("Please write a high-quality reference"))) {
        a.text = QStringLiteral("A reference that keeps the main event of the source and its cause (%1).").arg(tag);
        return a;
    }
    if (userPrompt.contains(QLatin1String("Please propose at most three concise questions"))) {
        a.text = QStringLiteral("1. Does it name the main event (%1)?\n2. Do its sentences follow one another?\n3. Is "
                                "the cause stated?")
                         .arg(tag);
        return a;
    }
    if (userPrompt.contains(QLatin1String("Please write the evaluation criteria for rating"))) {
        a.text = QStringLiteral("coherence: the sentences build one logical whole; 1 = a heap of unrelated "
                                "statements, the top score = a clear, well-ordered text (%1).")
                         .arg(tag);
        return a;
    }
    if (userPrompt.contains(QLatin1String("Please generate the evaluation steps for this task"))) {
        a.text = QStringLiteral("1. Read the source and note its main points.\n2. Check that the sentences follow "
                                "one another.\n3. Rate on the scale the task names (%1).")
                         .arg(tag);
        return a;
    }
    if (userPrompt.contains(QLatin1String("Please act as an impartial judge and evaluate the quality of"))
        && userPrompt.contains(QLatin1String("[[rating]]"))) {
        const auto score = hpssScore(userPrompt);
        if (!score) {
            a.httpStatus = 400;
            a.errorMessage = QStringLiteral("synthetic judge: an HPSS prompt without a known output or scale");
            return a;
        }
        a.text = QStringLiteral("The text is judged on its own merits (%1). Rating: [[%2]]").arg(tag).arg(*score);
        return a;
    }

    if (prompt.contains(QLatin1String("Evaluation Form (scores ONLY)"))) {
        const auto dist = gevalDistribution(outputIn(prompt));
        QVector<TokenLogprob> alts;
        int best = 1;
        for (int v = 1; v <= 5; ++v) {
            alts.append({QString::number(v), std::log(dist.value(v))});
            if (dist.value(v) > dist.value(best))
                best = v;
        }
        std::stable_sort(alts.begin(), alts.end(),
                         [](const TokenLogprob &x, const TokenLogprob &y) { return x.logprob > y.logprob; });
        a.text = QString::number(best);
        a.topLogprobs = {alts};
        return a;
    }
    if (userPrompt.trimmed().endsWith(QLatin1String("Evaluation Steps:"))) {
        a.text = QStringLiteral(
                "1. Read the source text and note its main points.\n2. Read the output and check that its "
                "sentences follow one another logically.\n3. Assign a score from 1 to 5.");
        return a;
    }
    if (userPrompt.trimmed().endsWith(QLatin1String("Summary:"))) { // HypoEval: summarise a literature paper
        a.text = QStringLiteral("Summary: the paper finds that coherent texts keep one topic (%1).").arg(tag);
        return a;
    }
    if (prompt.contains(QLatin1String("Pattern: "))) { // hypothesis-guided score
        static const QRegularExpression pattern(QStringLiteral("Pattern: (.*)\n"));
        const QString hyp = pattern.match(prompt).captured(1).trimmed();
        // The range the prompt names: "a score (ranging from 1 to 3)".
        static const QRegularExpression range(QStringLiteral("ranging from (-?\\d+) to (-?\\d+)"));
        const auto r = range.match(prompt);
        const int lo = r.hasMatch() ? r.captured(1).toInt() : 1, hi = r.hasMatch() ? r.captured(2).toInt() : 5;
        const double s = hypothesisScore(hyp, outputIn(prompt), lo, hi);
        a.text = QStringLiteral("Step 1: the trait. Step 2: looked at it. Step 3: {Final score: %1}").arg(s);
        return a;
    }
    if (prompt.contains(QLatin1String("repetitive"))) {
        a.text = prompt.count(QLatin1String("TWIN")) >= 2 ? QStringLiteral("They say the same. Final answer: yes")
                                                          : QStringLiteral("They differ. Final answer: no");
        return a;
    }
    if (prompt.contains(QLatin1String("Refined hypotheses:"))) {
        static const QRegularExpression line(QStringLiteral("^hypothesis(\\d+)\\. (.*)$"),
                                             QRegularExpression::MultilineOption);
        auto it = line.globalMatch(prompt);
        QString out;
        while (it.hasNext()) {
            const auto m = it.next();
            out += QStringLiteral("hypothesis%1. %2 refined-%3\n").arg(m.captured(1), m.captured(2), tag);
        }
        a.text = out;
        return a;
    }
    if (prompt.contains(QLatin1String("Proposed hypotheses:"))) {
        // From the 5 initial samples: 2 informative of 5; from a bank of wrongly predicted
        // samples (10 observations): 4 of 5.
        const int signal = prompt.count(QLatin1String("Score on ")) >= 10 ? 4 : 2;
        // Each hypothesis states its rubric on the scale the prompt's instructions name ("…
        // when giving a score of one, two, or three.").
        static const QRegularExpression giving(QStringLiteral("when giving a score of ([^.]*)\\."));
        QString from = QStringLiteral("1"), to = QStringLiteral("5");
        if (const auto m = giving.match(prompt); m.hasMatch()) {
            static const QRegularExpression word(QStringLiteral("\\w+"));
            QStringList named;
            for (auto it = word.globalMatch(m.captured(1)); it.hasNext();) {
                const QString w = it.next().captured(0);
                if (numberOf(w) >= 0)
                    named.append(w);
            }
            if (named.size() >= 2) {
                from = named.first();
                to = named.last();
            }
        }
        const char *traits[5] = {"flow", "order", "links", "focus", "names"};
        for (int i = 0; i < 5; ++i)
            a.text += QStringLiteral("hypothesis%1. %2 %3 %4: a rubric from %5 to %6.\n")
                              .arg(i + 1)
                              .arg(i < signal ? QStringLiteral("SIGNAL") : QStringLiteral("NOISE"),
                                   QString::fromLatin1(traits[i]), tag, from, to);
        return a;
    }
    if (prompt.contains(QLatin1String("Answer with the number only."))) { // the connection test's probe
        a.text = QStringLiteral("5");
        return a;
    }
    a.httpStatus = 400;
    a.errorMessage = QStringLiteral("synthetic judge: unrecognised prompt");
    return a;
}

} // namespace rubric::test
