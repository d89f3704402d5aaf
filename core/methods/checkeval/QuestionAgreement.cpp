#include "QuestionAgreement.h"

#include "methods/checkeval/Checklist.h"
#include "stats/Agreement.h"
#include "store/Project.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <functional>

namespace rubric {

namespace {

/// The questions a checklist asks, in tree order (a disabled sub-aspect's are not compared).
QVector<Criterion> enabledQuestions(const Rubric &rubric)
{
    return Checklist::askedQuestions(rubric);
}

ChecklistAgreementFigures figuresOf(const stats::ReliabilityData &data)
{
    ChecklistAgreementFigures f;
    if (data.empty())
        return f;
    const stats::AlphaResult a = stats::krippendorffAlpha(data, stats::AlphaLevel::Nominal);
    const stats::KappaResult k = stats::fleissKappa(data);
    f.alpha = a.alpha;
    f.pairs = a.units;
    f.kappa = k.items > 0 ? k.kappa : std::numeric_limits<double>::quiet_NaN();
    f.kappaUnits = k.items;
    return f;
}

} // namespace

Result<ChecklistAgreement> QuestionAgreement::compute(const QVector<JudgeChecklist> &judges, const QStringList &items)
{
    if (judges.size() < 2)
        return makeError(tr("agreement needs at least two judges (got %1)").arg(judges.size()), {}, 0,
                         QStringLiteral("judge"));
    const JudgeChecklist &ref = judges.first();
    const QVector<Criterion> questions = enabledQuestions(ref.rubric);
    if (questions.isEmpty())
        return makeError(tr("judge '%1' has no enabled checklist questions").arg(ref.judge), {}, 0,
                         QStringLiteral("judge"));
    // Same questions for everyone: matched by key, texts must agree.
    for (int j = 1; j < judges.size(); ++j) {
        const JudgeChecklist &other = judges.at(j);
        const QVector<Criterion> theirs = enabledQuestions(other.rubric);
        QHash<QString, QString> textOf;
        QSet<QString> invertedTheirs;
        for (const Criterion &q : theirs) {
            textOf.insert(q.key, q.text);
            if (Checklist::isInverted(q))
                invertedTheirs.insert(q.key);
        }
        for (const Criterion &q : questions) {
            if (!textOf.contains(q.key))
                return makeError(tr("judge '%1' has no (enabled) question %2 (\"%3\" for judge '%4')")
                                         .arg(other.judge, q.key, q.text, ref.judge),
                                 {}, 0, q.key);
            if (textOf.value(q.key).trimmed() != q.text.trimmed())
                return makeError(tr("question %1 differs: judge '%2' asks \"%3\", judge '%4' asks \"%5\"")
                                         .arg(q.key, other.judge, textOf.value(q.key), ref.judge, q.text),
                                 {}, 0, q.key);
            // The stored values are meets-criterion: under different polarities the same "yes"
            // is met for one judge and not for the other, so the figures would compare unlike things.
            if (invertedTheirs.contains(q.key) != Checklist::isInverted(q))
                return makeError(tr("question %1 (\"%2\") is inverted for judge '%3' but not for judge '%4': the "
                                    "checklists differ in polarity, so their answers cannot be compared; "
                                    "invert it the same way for both and score again")
                                         .arg(q.key, q.text, Checklist::isInverted(q) ? ref.judge : other.judge,
                                              Checklist::isInverted(q) ? other.judge : ref.judge),
                                 {}, 0, q.key);
        }
        if (theirs.size() != questions.size()) {
            QSet<QString> mine;
            for (const Criterion &q : questions)
                mine.insert(q.key);
            for (const Criterion &q : theirs)
                if (!mine.contains(q.key))
                    return makeError(tr("judge '%1' has question %2 (\"%3\") that judge '%4' does not have")
                                             .arg(other.judge, q.key, q.text, ref.judge),
                                     {}, 0, q.key);
        }
    }

    // answers[judge][question key][item] = 0/1
    QVector<QHash<QString, QHash<QString, double>>> answers(judges.size());
    QStringList itemOrder;
    QSet<QString> itemSeen;
    const QSet<QString> allowed(items.begin(), items.end());
    for (int j = 0; j < judges.size(); ++j)
        for (const CriterionScore &s : judges.at(j).scores) {
            if (s.sample != 0 || s.parseStatus != QLatin1String("ok") || std::isnan(s.score))
                continue;
            if (!allowed.isEmpty() && !allowed.contains(s.itemId))
                continue;
            answers[j][s.criterionKey].insert(s.itemId, s.score > 0.5 ? 1.0 : 0.0);
            if (!itemSeen.contains(s.itemId)) {
                itemSeen.insert(s.itemId);
                itemOrder.append(s.itemId);
            }
        }

    ChecklistAgreement out;
    for (const JudgeChecklist &j : judges)
        out.judges << j.judge;
    out.questions = int(questions.size());
    stats::ReliabilityData all;
    QHash<QString, stats::ReliabilityData> bySub;
    QStringList subOrder;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const Criterion &q : questions) {
        if (!subOrder.contains(q.parentKey))
            subOrder.append(q.parentKey);
        const Criterion *sub = ref.rubric.find(q.parentKey);
        QuestionDisagreement d{q.key, q.text, sub ? sub->text : QString(), 0, 0, 0};
        for (const QString &item : std::as_const(itemOrder)) {
            std::vector<double> row;
            row.reserve(judges.size());
            QSet<int> values;
            int n = 0;
            for (int j = 0; j < judges.size(); ++j) {
                const auto qa = answers.at(j).constFind(q.key);
                double v = nan;
                if (qa != answers.at(j).cend())
                    v = qa->value(item, nan);
                row.push_back(v);
                if (!std::isnan(v)) {
                    ++n;
                    values.insert(int(v));
                }
            }
            if (n == 0)
                continue;
            all.push_back(row);
            bySub[q.parentKey].push_back(row);
            if (n >= 2) {
                ++d.items;
                if (values.size() > 1)
                    ++d.disagreeing;
            }
        }
        if (d.items > 0) {
            d.share = double(d.disagreeing) / d.items;
            out.disagreements.append(d);
        }
    }
    out.overall = figuresOf(all);
    for (const QString &s : std::as_const(subOrder)) {
        const Criterion *sub = ref.rubric.find(s);
        out.perSubAspect.append({s, sub ? sub->text : s, figuresOf(bySub.value(s))});
    }
    std::stable_sort(out.disagreements.begin(), out.disagreements.end(),
                     [](const QuestionDisagreement &a, const QuestionDisagreement &b) { return a.share > b.share; });
    return out;
}

Result<ChecklistAgreement> QuestionAgreement::fromProject(Project &project, const QString &aspect,
                                                          const QStringList &judges, const QStringList &items)
{
    RubricStore store(&project);
    QVector<JudgeChecklist> in;
    QSet<QString> seen;
    for (const QString &name : judges) {
        if (seen.contains(name))
            return makeError(tr("judge '%1' is named twice").arg(name), {}, 0, QStringLiteral("judge"));
        seen.insert(name);
        const auto known = project.readJudge(name);
        if (!known)
            return known.error();
        if (!*known)
            return makeError(tr("no judge named '%1'").arg(name), {}, 0, QStringLiteral("judge"));
        auto rubric = store.load(name);
        if (!rubric)
            return makeError(tr("judge '%1' has no checklist: %2").arg(name, rubric.errorString()), {}, 0,
                             QStringLiteral("judge"));
        if (rubric->aspect() != aspect)
            return makeError(tr("judge '%1' scores aspect '%2', not '%3'").arg(name, rubric->aspect(), aspect), {}, 0,
                             QStringLiteral("judge"));
        if (rubric->ofKind(CriterionKind::Question).isEmpty())
            return makeError(tr("judge '%1' (method %2) has no checklist questions").arg(name, rubric->method()), {}, 0,
                             QStringLiteral("judge"));
        auto scores = store.readSampleScores(name);
        if (!scores)
            return scores.error();
        in.append({name, *rubric, std::move(scores).value()});
    }
    return compute(in, items);
}

} // namespace rubric
