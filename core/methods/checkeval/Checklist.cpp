#include "Checklist.h"

#include "store/RubricStore.h"

#include <QRegularExpression>
#include <QSet>
#include <QStringList>

#include <array>
#include <cmath>

namespace rubric {

namespace {

/// Words that name a flaw: asked about directly, "yes" means the text is worse. A word matches
/// when a token equals it or starts with it (so "error" covers "errors", "erroneous").
constexpr std::array<const char *, 33> kNegativeStems{
        "error",      "erroneous", "mistake",   "typo",        "contradict", "inconsisten", "repetiti",
        "repeated",   "redundan",  "irrelevan", "hallucinat",  "missing",    "unnecessar",  "confusing",
        "confuse",    "awkward",   "inaccura",  "incorrect",   "ambigu",     "unclear",     "vague",
        "fragment",   "verbose",   "dull",      "boring",      "offensive",  "rude",        "unrelated",
        "misleading", "incoheren", "off-topic", "ungrammatic", "flaw"};

/// Words that negate a flaw named after them in the same clause ("free of errors", "avoid
/// repetition", "no fragments", "without deviating").
constexpr std::array<const char *, 18> kNegators{
        "no",  "not",  "without", "free",     "avoid",     "avoids",   "avoiding",  "never",   "none",
        "nor", "lack", "lacks",   "minimize", "minimizes", "minimise", "minimises", "prevent", "eliminate"};

/// Words that end a negator's scope: "free of errors, but awkward".
constexpr std::array<const char *, 6> kContrasts{"but", "however", "although", "though", "yet", "whereas"};

bool isNegative(const QString &token)
{
    for (const char *stem : kNegativeStems)
        if (token.startsWith(QLatin1String(stem)))
            return true;
    return false;
}

bool isContrast(const QString &token)
{
    for (const char *c : kContrasts)
        if (token == QLatin1String(c))
            return true;
    return false;
}

bool isNegator(const QString &token)
{
    if (token.endsWith(QLatin1String("n't")))
        return true;
    for (const char *n : kNegators)
        if (token == QLatin1String(n))
            return true;
    return false;
}

} // namespace

StageCounts Checklist::stageCounts(const Rubric &rubric)
{
    StageCounts out;
    for (const Criterion &q : rubric.ofKind(CriterionKind::Question)) {
        const QString stage = q.origin.value(QStringLiteral("stage")).toString();
        if (stage == QLatin1String("seed"))
            ++out.seeds;
        else if (stage == QLatin1String("diversification"))
            ++out.diversification;
        else if (stage == QLatin1String("elaboration"))
            ++out.elaboration;
        else
            ++out.other;
        if (q.enabled)
            ++out.final;
        else if (q.origin.contains(QStringLiteral("filtered")))
            ++out.removed;
    }
    return out;
}

QString Checklist::normaliseQuestion(const QString &text)
{
    QString out;
    out.reserve(text.size());
    bool space = false;
    for (const QChar ch : text) {
        if (ch.isLetterOrNumber()) {
            if (space && !out.isEmpty())
                out += QLatin1Char(' ');
            space = false;
            out += ch.toLower();
        } else {
            space = true;
        }
    }
    return out;
}

std::optional<QString> Checklist::negativePolarity(const QString &question)
{
    // Sentences end at ? ! . ; inside one the tokens are the words (apostrophes and hyphens
    // kept, so "isn't" and "error-free" stay one token). A negator negates every flaw after it
    // in its sentence until a contrast word ("but", "however", …) ends its scope.
    static const QRegularExpression sentenceBreak(QStringLiteral(R"([?!.;])"));
    static const QRegularExpression word(QStringLiteral(R"([\p{L}\p{N}'’-]+)"));
    for (const QString &sentence : question.toLower().split(sentenceBreak)) {
        QStringList tokens;
        for (auto it = word.globalMatch(sentence); it.hasNext();)
            tokens << it.next().captured().replace(QChar(0x2019), QLatin1Char('\''));
        bool negated = false;
        for (int i = 0; i < tokens.size(); ++i) {
            const QString &t = tokens.at(i);
            if (isContrast(t)) {
                negated = false;
                continue;
            }
            if (isNegator(t) || (t == QLatin1String("than") && i > 0 && tokens.at(i - 1) == QLatin1String("rather"))) {
                negated = true;
                continue;
            }
            if (!isNegative(t) || negated || t.endsWith(QLatin1String("-free")))
                continue;
            if (i + 1 < tokens.size() && tokens.at(i + 1) == QLatin1String("free"))
                continue;
            return tr("asks about a flaw ('%1'): \"yes\" would mean worse").arg(t);
        }
    }
    return std::nullopt;
}

bool Checklist::isInverted(const Criterion &question)
{
    return question.origin.value(QStringLiteral("inverted")).toBool();
}

void Checklist::invert(Criterion &question)
{
    if (isInverted(question))
        question.origin.remove(QStringLiteral("inverted"));
    else
        question.origin.insert(QStringLiteral("inverted"), true);
}

QHash<QString, QHash<QString, double>> Checklist::subAspectShares(const Rubric &checklist,
                                                                  const QVector<ItemCriterionScores> &answers)
{
    QHash<QString, QString> subAspectOf;
    QSet<QString> inverted;
    for (const Criterion &q : checklist.ofKind(CriterionKind::Question)) {
        if (!q.enabled)
            continue;
        subAspectOf.insert(q.key, q.parentKey);
        if (isInverted(q))
            inverted.insert(q.key);
    }
    QHash<QString, QHash<QString, QPair<int, int>>> counts; // item → sub-aspect → (met, answered)
    for (const ItemCriterionScores &s : answers) {
        const auto sub = subAspectOf.constFind(s.criterionKey);
        if (sub == subAspectOf.constEnd() || std::isnan(s.mean))
            continue;
        QPair<int, int> &n = counts[s.itemId][*sub];
        ++n.second;
        if ((s.mean >= 0.5) != inverted.contains(s.criterionKey))
            ++n.first;
    }
    QHash<QString, QHash<QString, double>> out;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        for (auto n = it->cbegin(); n != it->cend(); ++n)
            out[it.key()].insert(n.key(), double(n->first) / n->second);
    return out;
}

} // namespace rubric
