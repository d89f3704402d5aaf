#include "SyntheticJudge.h"

#include <QJsonArray>
#include <QJsonDocument>
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
        for (const char *end : {"\n\nPattern:", "\n\nEvaluation Form", "\n\n## Evaluation"}) {
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

double SyntheticJudge::hdevalNodeScore(const QString &node, const QString &output) const
{
    const double human = m_human.value(output, 3.0);
    const quint64 h = stableHash(node + QLatin1Char('|') + output, 17u);
    double s = 0;
    if (node.startsWith(QLatin1String("SIGNAL")))
        s = std::round(human + double(h % 1000) / 1000.0 - 0.5);
    else if (node.startsWith(QLatin1String("NOISE")))
        s = double(1 + h % 5);
    else
        s = std::round(human) + double(int(h % 3) - 1);
    return std::clamp(s, 1.0, 5.0);
}

double SyntheticJudge::hpssNoise(const QString &prompt)
{
    const bool dialectic = prompt.contains(QLatin1String("Please generate your own"));
    const bool metrics = prompt.contains(QLatin1String("[Questions about "));
    qsizetype target = prompt.lastIndexOf(QLatin1String("[The Start of the "));
    if (target < 0) // a pairwise prompt: "[The Start of Summary B]" ends its input content
        target = prompt.lastIndexOf(QLatin1String("[The Start of "));
    const qsizetype rules = prompt.indexOf(QLatin1String("Here are some rules of the evaluation"));
    const qsizetype instruction = prompt.indexOf(QLatin1String("[Instruction]"));
    const bool iet = target >= 0 && rules > target && instruction > rules;
    double ape = 0; // APE-style variations' graded sentences
    for (const auto &[sentence, effect] : apeSentences())
        ape += prompt.contains(sentence) ? effect : 0.0;
    const double size = 1.2 - 0.45 * (dialectic ? 1 : 0) - 0.35 * (metrics ? 1 : 0) - 0.35 * (iet ? 1 : 0);
    return ape == 0 ? size : std::max(0.3, size + ape);
}

std::optional<int> SyntheticJudge::hpssScore(const QString &prompt, int sample) const
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
    return gradedScore(output, prompt, hpssNoise(prompt), m.captured(1).toInt(), m.captured(2).toInt(), sample);
}

std::optional<int> SyntheticJudge::closerLookScore(const QString &prompt, int sample) const
{
    static const QRegularExpression scale(QStringLiteral("\\((\\d+)-(\\d+)\\)"));
    const auto m = scale.match(prompt);
    const QString output = outputIn(prompt);
    if (!m.hasMatch() || output.isEmpty())
        return std::nullopt;
    const bool examples = prompt.contains(QLatin1String("Human evaluation examples:"));
    return gradedScore(output, prompt, examples ? 0.9 : 1.0, m.captured(1).toInt(), m.captured(2).toInt(), sample);
}

std::optional<QChar> SyntheticJudge::hpssVerdict(const QString &prompt) const
{
    // The pair being judged: the last two "[The Start of … A]" / "[The Start of … B]" blocks (the
    // in-context example pairs come before them).
    const qsizetype bStart = prompt.lastIndexOf(QLatin1String("[The Start of "));
    const qsizetype aStart = bStart > 0 ? prompt.lastIndexOf(QLatin1String("[The Start of "), bStart - 1) : -1;
    const auto block = [&prompt](qsizetype start) {
        const qsizetype open = prompt.indexOf(QLatin1Char('\n'), start);
        const qsizetype close = open < 0 ? -1 : prompt.indexOf(QLatin1String("\n[The End of "), open);
        return close < 0 ? QString() : prompt.mid(open + 1, close - open - 1);
    };
    if (aStart < 0 || !prompt.mid(aStart).startsWith(QLatin1String("[The Start of ")))
        return std::nullopt;
    const QString a = block(aStart), b = block(bStart);
    if (!m_human.contains(a) || !m_human.contains(b))
        return std::nullopt;
    // Each output's graded value as a pointwise prompt of the same noise size would rate it (its
    // item draw and a prompt draw of its own), before rounding onto a scale.
    const double size = hpssNoise(prompt);
    const double qa = gradedValue(a, prompt, size, 23u, -1), qb = gradedValue(b, prompt, size, 24u, -1);
    return qa > qb ? QChar(u'A') : qb > qa ? QChar(u'B') : QChar(u'C');
}

double SyntheticJudge::gradedValue(const QString &output, const QString &prompt, double size, quint64 promptSalt,
                                   int sample) const
{
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
    const double promptDraw = uniform(prompt, promptSalt) - 0.5;
    // A sample's own draw (uniform on ±0.5 of the noise size), only when sampled.
    const double sampleDraw = sample < 0 ? 0.0 : uniform(prompt, 1000u + quint64(sample)) - 0.5;
    return m_human.value(output) + 1.7 * size * (0.85 * itemDraw + 0.3 * promptDraw + 0.6 * sampleDraw);
}

int SyntheticJudge::gradedScore(const QString &output, const QString &prompt, double size, int lo, int hi,
                                int sample) const
{
    const double value = gradedValue(output, prompt, size, 23u, sample);
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
        prompt += systemText(body);
    FakeAnswer a;
    const QString tag = QString::number(stableHash(prompt, 3u) % 100000);
    if (prompt.contains(QLatin1String("### Your Answer ###")) || prompt.contains(QLatin1String("### Task ###"))
        || prompt.contains(QLatin1String("sub-sub-questions considering")))
        return checkEval(prompt);

    if (prompt.contains(QLatin1String("fine-grained evaluation critics"))) { // HD-Eval decomposition
        static const QRegularExpression around(QStringLiteral("around (\\d+) fine-grained"));
        const int n = std::max(1, around.match(prompt).captured(1).toInt());
        QStringList parents;
        const qsizetype at = prompt.indexOf(QLatin1String("following criteria:"));
        for (const QString &line : prompt.mid(at).split(QLatin1Char('\n')).mid(1)) {
            if (!line.startsWith(QLatin1String("- ")))
                break;
            parents << line.mid(2).section(QLatin1Char(':'), 0, 0).trimmed();
        }
        static const QStringList words{QStringLiteral("clarity"),  QStringLiteral("order"), QStringLiteral("focus"),
                                       QStringLiteral("detail"),   QStringLiteral("flow"),  QStringLiteral("precision"),
                                       QStringLiteral("coverage"), QStringLiteral("style")};
        a.text = QStringLiteral("Here are the fine-grained critics:\n");
        for (const QString &parent : std::as_const(parents)) {
            if (parents.size() > 1)
                a.text += QStringLiteral("\n## %1\n").arg(parent);
            const int signalCount = std::max(1, n / 2);
            const int offset = int(stableHash(parent, 5u) % quint64(n));
            for (int i = 0; i < n; ++i) {
                const bool signal = (i + offset) % n < signalCount;
                const quint64 h = stableHash(parent + QLatin1Char('|') + QString::number(i), 7u);
                const QString word = words[int(h % quint64(words.size()))];
                const QString tag = QString::number(h % 1000);
                const QString name
                        = QStringLiteral("%1 %2 %3")
                                  .arg(signal ? QStringLiteral("SIGNAL") : QStringLiteral("NOISE"), word, tag);
                a.text += QStringLiteral("%1. %2%3 | %4: how well the summary shows %5.\n")
                                  .arg(i + 1)
                                  .arg(signal ? QStringLiteral("sig") : QStringLiteral("noi"), tag, name, word);
            }
        }
        return a;
    }
    if (prompt.contains(QLatin1String("Score (1-5):")) && prompt.contains(QLatin1String("following metric:"))) {
        static const QRegularExpression metric(QStringLiteral("following metric:\\s*\\n\\s*([^\\n]+?): "));
        const QString node = metric.match(prompt).captured(1).trimmed();
        a.text = QStringLiteral("%1\nThe summary was read against the metric %2.")
                         .arg(int(hdevalNodeScore(node, outputIn(prompt))))
                         .arg(node);
        return a;
    }
    // HPSS: the auxiliary generations, then the scoring prompt of a strategy.
    // The reference generation of the paper's four tasks (App. A), and the older generic prompt.
    if (userPrompt.contains(QLatin1String("Please write a high-quality reference"))
        || userPrompt.contains(QLatin1String("Please summarize the following text:"))
        || userPrompt.contains(QLatin1String("Please output the response for the next turn"))
        || userPrompt.contains(QLatin1String("Please generate a natural language sentence generated according"))
        || userPrompt.contains(QLatin1String("Please generate a story according to the given prompt:"))) {
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
    if (userPrompt.contains(QLatin1String("Generate a variation of the following instruction"))) {
        a.text = apeVariation(userPrompt, qint64(body.value(QStringLiteral("seed")).toDouble()));
        return a;
    }
    if (userPrompt.contains(QLatin1String("decide the selection strategy of different parts of a prompt"))) {
        a.text = oproProposal(userPrompt, qint64(body.value(QStringLiteral("seed")).toDouble()));
        return a;
    }
    if (userPrompt.contains(QLatin1String("Please act as an impartial judge and evaluate the quality of the two"))
        && userPrompt.contains(QLatin1String("\"[[A]]\""))) {
        const auto verdict = hpssVerdict(userPrompt);
        if (!verdict) {
            a.httpStatus = 400;
            a.errorMessage = QStringLiteral("synthetic judge: a pairwise HPSS prompt without two known outputs");
            return a;
        }
        a.text = QStringLiteral("Both are read on their own merits (%1). [[%2]]").arg(tag).arg(*verdict);
        return a;
    }
    if (userPrompt.contains(QLatin1String("Please act as an impartial judge and evaluate the quality of"))
        && userPrompt.contains(QLatin1String("[[rating]]"))) {
        // Sampled (temperature > 0, HPSS†): the k-th ask of the same prompt adds its own draw.
        int sample = -1;
        if (body.value(QStringLiteral("temperature")).toDouble() > 0)
            sample = m_samplesAsked[stableHash(userPrompt, 31u)]++;
        const auto score = hpssScore(userPrompt, sample);
        if (!score) {
            a.httpStatus = 400;
            a.errorMessage = QStringLiteral("synthetic judge: an HPSS prompt without a known output or scale");
            return a;
        }
        a.text = QStringLiteral("The text is judged on its own merits (%1). Rating: [[%2]]").arg(tag).arg(*score);
        return a;
    }

    // CloserLook (analyze-rate): "Analysis: …" then "Rating: n" on the criteria's "(lo-hi)" scale.
    if (userPrompt.contains(QLatin1String("Evaluation Form (Answer by starting with \"Analysis:\""))) {
        int sample = -1;
        if (body.value(QStringLiteral("temperature")).toDouble() > 0)
            sample = m_samplesAsked[stableHash(userPrompt, 31u)]++;
        const auto score = closerLookScore(userPrompt, sample);
        if (!score) {
            a.httpStatus = 400;
            a.errorMessage = QStringLiteral("synthetic judge: a CloserLook prompt without a known output or scale");
            return a;
        }
        a.text = QStringLiteral("Analysis: the text is read against the criteria (%1).\nRating: %2")
                         .arg(tag)
                         .arg(*score);
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
    if (prompt.contains(QLatin1String("Answer with the score only."))) { // the direct score (no rubric)
        // The output's human score with an item draw (triangular on ±1, from hashes of the output):
        // a judge without a rubric, noisier than the methods' SIGNAL criteria.
        const QString output = outputIn(prompt);
        const double human = m_human.value(output, 3.0);
        const double draw = double(stableHash(output, 31u) % 1001) / 1000.0
                            + double(stableHash(output, 32u) % 1001) / 1000.0 - 1.0;
        a.text = QStringLiteral("Score: %1").arg(int(std::clamp(std::round(human + draw), 1.0, 5.0)));
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

int SyntheticJudge::checklistAnswer(const QString &question, const QString &output) const
{
    if (question.contains(QLatin1String("SILENT")) || question.contains(QLatin1String("SHY")))
        return -1;
    if (question.contains(QLatin1String("SIGNAL"))) {
        static const QRegularExpression number(QStringLiteral("\\d+(?:\\.\\d+)?"));
        const auto m = number.match(question);
        const double threshold = m.hasMatch() ? m.captured(0).toDouble() : 3;
        return m_human.value(output) >= threshold ? 1 : 0;
    }
    return int(stableHash(question + QLatin1Char('|') + output, 17u) % 2);
}

FakeAnswer SyntheticJudge::checkEval(const QString &prompt) const
{
    FakeAnswer a;
    a.text.clear();
    const QString tag = QString::number(stableHash(prompt, 5u) % 100000);
    const QStringList lines = prompt.split(QLatin1Char('\n'));
    if (prompt.contains(QLatin1String("### Your Answer ###"))) {
        // The output sits between the quotes of the section before the questions.
        static const QRegularExpression out(
                QStringLiteral("### (?:Summary|Response) ###\n\"(.*)\"\n\n### Questions ###"),
                QRegularExpression::DotMatchesEverythingOption);
        const QString output = out.match(prompt).captured(1);
        const bool again = prompt.contains(QLatin1String("left unanswered before"));
        static const QRegularExpression question(QStringLiteral("^Q(\\d+): (.*)$"));
        const qsizetype from = prompt.indexOf(QLatin1String("### Questions ###"));
        for (const QString &line : prompt.mid(from).split(QLatin1Char('\n'))) {
            const auto m = question.match(line);
            if (!m.hasMatch())
                continue;
            const QString q = m.captured(2);
            int answer = checklistAnswer(q, output);
            if (again && q.contains(QLatin1String("SHY")))
                answer = 1;
            if (answer >= 0)
                a.text += QStringLiteral("Q%1: %2\n")
                                  .arg(m.captured(1), answer ? QStringLiteral("Yes") : QStringLiteral("No"));
        }
        return a;
    }
    if (prompt.contains(QLatin1String("Create additional sub-questions"))) {
        static const QRegularExpression component(QStringLiteral("^(\\d+)\\. (.+):$"));
        static const QRegularExpression seed(QStringLiteral("^- (.+)$"));
        const qsizetype start = lines.indexOf(QStringLiteral("### Key Components and Seed Questions ###"));
        QString firstSeed;
        for (qsizetype i = start + 1; i < lines.size() && !lines[i].startsWith(QLatin1String("###")); ++i) {
            if (const auto m = component.match(lines[i]); m.hasMatch()) {
                if (!firstSeed.isEmpty())
                    a.text += QStringLiteral("- %1\n").arg(firstSeed);
                firstSeed.clear();
                a.text += QStringLiteral("%1. %2:\n").arg(m.captured(1), m.captured(2));
                for (int k = 1; k <= 2; ++k)
                    a.text += QStringLiteral("- Does the summary cover view %1 of %2 (%3)?\n")
                                      .arg(k)
                                      .arg(m.captured(2), tag);
            } else if (const auto s = seed.match(lines[i]); s.hasMatch() && firstSeed.isEmpty()) {
                firstSeed = s.captured(1);
            }
        }
        if (!firstSeed.isEmpty())
            a.text += QStringLiteral("- %1\n").arg(firstSeed);
        return a;
    }
    if (prompt.contains(QLatin1String("sub-sub-questions considering"))) {
        static const QRegularExpression seed(QStringLiteral("^- (\\d+)-(\\d+)\\. (.+)$"));
        static const QRegularExpression head(QStringLiteral("^(\\d+)\\. (.+):$"));
        const qsizetype start = lines.indexOf(QStringLiteral("### Output Format ###"));
        for (qsizetype i = start + 1; i < lines.size(); ++i) {
            if (const auto h = head.match(lines[i]); h.hasMatch())
                a.text += lines[i] + QLatin1Char('\n');
            const auto m = seed.match(lines[i]);
            if (!m.hasMatch())
                continue;
            a.text += lines[i] + QLatin1Char('\n');
            for (int k = 1; k <= 3; ++k)
                a.text += QStringLiteral("- %1-%2-%3. Is detail %3 of seed %2 right (%4)?\n")
                                  .arg(m.captured(1), m.captured(2))
                                  .arg(k)
                                  .arg(tag);
        }
        return a;
    }
    if (prompt.contains(QLatin1String("Filter out questions from a list"))) {
        if (prompt.contains(QLatin1String("BADJSON"))) {
            a.text = QStringLiteral("I would keep most of them.");
            return a;
        }
        const qsizetype start = lines.indexOf(QStringLiteral("### Sub-aspects and Questions ###"));
        QJsonObject kept;
        QString current;
        QJsonArray list;
        for (qsizetype i = start + 1; i < lines.size() && !lines[i].startsWith(QLatin1String("###")); ++i) {
            const QString &line = lines[i];
            if (line.startsWith(QLatin1String("- "))) {
                const QString q = line.mid(2);
                if (!q.contains(QLatin1String("detail 3")) && !q.contains(QLatin1String("DROPME")))
                    list.append(q);
            } else if (line.endsWith(QLatin1Char(':'))) {
                if (!current.isEmpty())
                    kept.insert(current, list);
                current = line.chopped(1);
                list = {};
            }
        }
        if (!current.isEmpty())
            kept.insert(current, list);
        a.text = QStringLiteral("```json\n%1\n```").arg(QString::fromUtf8(QJsonDocument(kept).toJson()));
        return a;
    }
    a.httpStatus = 400;
    a.errorMessage = QStringLiteral("synthetic judge: unrecognised CheckEval prompt");
    return a;
}

} // namespace rubric::test
