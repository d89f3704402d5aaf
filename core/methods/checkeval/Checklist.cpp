#include "Checklist.h"

#include "store/RubricStore.h"

#include <QRegularExpression>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace rubric {

namespace {

/// Words that name a flaw: asked about directly, "yes" means the text is worse. A word matches
/// when a token equals it or starts with it (so "error" covers "errors", "erroneous").
constexpr std::array<const char *, 34> kNegativeStems{
        "error",      "erroneous", "mistake",   "typo",        "contradict", "inconsisten", "repetiti",
        "repeated",   "redundan",  "irrelevan", "hallucinat",  "missing",    "unnecessar",  "confusing",
        "confuse",    "awkward",   "inaccura",  "incorrect",   "ambigu",     "unclear",     "vague",
        "fragment",   "verbose",   "dull",      "boring",      "offensive",  "rude",        "unrelated",
        "misleading", "incoheren", "off-topic", "ungrammatic", "flaw",       "run-on"};

/// Words that negate a flaw named after them in the same clause ("free of errors", "avoid
/// repetition", "no fragments", "without deviating").
constexpr std::array<const char *, 18> kNegators{
        "no",  "not",  "without", "free",     "avoid",     "avoids",   "avoiding",  "never",   "none",
        "nor", "lack", "lacks",   "minimize", "minimizes", "minimise", "minimises", "prevent", "eliminate"};

/// A remedy clause: "should be split", "needs to be corrected", "must be removed". A question
/// that asks whether something calls for a correction names a flaw whatever the flaw's own word
/// ("Are there any run-on sentences that should be split?"): these auxiliaries followed within
/// three words by one of the corrective verbs.
constexpr std::array<const char *, 6> kRemedyAuxiliaries{"should", "must", "needs", "need", "ought", "requires"};
constexpr std::array<const char *, 17> kCorrectiveStems{
        "split", "remov", "correct", "fix",     "rewrit", "rephras",    "reword", "shorten", "clarif",
        "delet", "cut",   "revis",   "simplif", "merg",   "restructur", "trimm",  "improv"};

/// Words that end a negator's scope: "free of errors, but awkward".
constexpr std::array<const char *, 6> kContrasts{"but", "however", "although", "though", "yet", "whereas"};

bool isNegative(const QString &token)
{
    for (const char *stem : kNegativeStems)
        if (token.startsWith(QLatin1String(stem)))
            return true;
    return false;
}

/// The corrective verb of a remedy clause that starts at `i` ("should" … "split"), else empty.
QString remedyAt(const QStringList &tokens, int i)
{
    if (std::find_if(kRemedyAuxiliaries.begin(), kRemedyAuxiliaries.end(),
                     [&](const char *a) { return tokens.at(i) == QLatin1String(a); })
        == kRemedyAuxiliaries.end())
        return {};
    for (int j = i + 1; j < tokens.size() && j <= i + 3; ++j)
        for (const char *stem : kCorrectiveStems)
            if (tokens.at(j).startsWith(QLatin1String(stem)))
                return tokens.at(i) + QStringLiteral(" … ") + tokens.at(j);
    return {};
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
            if (!negated)
                if (const QString remedy = remedyAt(tokens, i); !remedy.isEmpty())
                    return tr("asks whether something needs correcting ('%1'): \"yes\" would mean worse").arg(remedy);
            if (!isNegative(t) || negated || t.endsWith(QLatin1String("-free")))
                continue;
            if (i + 1 < tokens.size() && tokens.at(i + 1) == QLatin1String("free"))
                continue;
            return tr("asks about a flaw ('%1'): \"yes\" would mean worse").arg(t);
        }
    }
    return std::nullopt;
}

QVector<Criterion> Checklist::askedQuestions(const Rubric &checklist)
{
    QVector<Criterion> out;
    const std::function<void(const QString &)> walk = [&](const QString &parent) {
        for (const Criterion &c : checklist.children(parent)) {
            if (!c.enabled)
                continue; // a disabled node hides its subtree
            if (c.kind == CriterionKind::Question)
                out.append(c);
            walk(c.key);
        }
    };
    walk(QString());
    return out;
}

bool Checklist::isAsked(const Rubric &checklist, const Criterion &question)
{
    if (question.kind != CriterionKind::Question)
        return false;
    QSet<QString> seen;
    for (const Criterion *c = &question; c; c = c->parentKey.isEmpty() ? nullptr : checklist.find(c->parentKey)) {
        if (!c->enabled || seen.contains(c->key))
            return false;
        seen.insert(c->key);
    }
    return true;
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
    for (const Criterion &q : askedQuestions(checklist))
        subAspectOf.insert(q.key, q.parentKey);
    // A stored score is already whether the answer meets the criterion (polarity applied once,
    // when the answer was read): it is counted as it is.
    QHash<QString, QHash<QString, QPair<int, int>>> counts; // item → sub-aspect → (met, answered)
    for (const ItemCriterionScores &s : answers) {
        const auto sub = subAspectOf.constFind(s.criterionKey);
        if (sub == subAspectOf.constEnd() || std::isnan(s.mean))
            continue;
        QPair<int, int> &n = counts[s.itemId][*sub];
        ++n.second;
        if (s.mean >= 0.5)
            ++n.first;
    }
    QHash<QString, QHash<QString, double>> out;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        for (auto n = it->cbegin(); n != it->cend(); ++n)
            out[it.key()].insert(n.key(), double(n->first) / n->second);
    return out;
}

} // namespace rubric
