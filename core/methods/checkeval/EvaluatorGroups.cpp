#include "EvaluatorGroups.h"

#include "stats/Correlation.h"
#include "stats/ProjectData.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <vector>

namespace rubric {

namespace {

QString metaKey(const QString &judge)
{
    return QStringLiteral("checkeval.evaluator:") + judge;
}

const QStringList &sizes()
{
    static const QStringList s{QStringLiteral("large"), QStringLiteral("medium"), QStringLiteral("small")};
    return s;
}

double nan()
{
    return std::numeric_limits<double>::quiet_NaN();
}

} // namespace

EvaluatorProfile EvaluatorGroups::infer(const QString &model)
{
    EvaluatorProfile p;
    p.model = model;
    QString name = model.trimmed().toLower();
    const qsizetype slash = name.lastIndexOf(QLatin1Char('/'));
    if (slash >= 0)
        name = name.mid(slash + 1);

    double billions = nan();
    // "8x7b" (mixture of experts): every expert's parameters counted
    static const QRegularExpression moe(QStringLiteral("(?<![a-z0-9.])(\\d+)x(\\d+(?:\\.\\d+)?)b(?![a-z])"));
    static const QRegularExpression count(QStringLiteral("(?<![a-z0-9.])(\\d+(?:\\.\\d+)?)b(?![a-z])"));
    if (const auto m = moe.match(name); m.hasMatch()) {
        billions = m.captured(1).toDouble() * m.captured(2).toDouble();
    } else {
        auto it = count.globalMatch(name);
        while (it.hasNext()) {
            const double v = it.next().captured(1).toDouble();
            if (std::isnan(billions) || v > billions)
                billions = v;
        }
    }
    QString source = tr("%1B in the model name").arg(billions);
    if (std::isnan(billions)) {
        if (name.contains(QLatin1String("mistral-large"))) {
            billions = 123;
            source = tr("mistral-large: 123B as the paper lists it");
        } else if (name.contains(QLatin1String("mistral-small"))) {
            billions = 22;
            source = tr("mistral-small: 22B as the paper lists it");
        }
    }
    if (std::isnan(billions)) {
        p.sizeWhy = tr("no parameter count in the model name: size unknown (set it if you know it)");
    } else {
        p.size = billions >= 60   ? QStringLiteral("large")
                 : billions >= 15 ? QStringLiteral("medium")
                                  : QStringLiteral("small");
        p.sizeWhy = tr("%1: %2 (large from 60B, medium from 15B, small below)").arg(source, p.size);
    }

    static const QRegularExpression word(QStringLiteral("[a-z]+"));
    auto words = word.globalMatch(name);
    QString first;
    while (words.hasNext()) {
        const QString w = words.next().captured(0);
        if (w == QLatin1String("meta"))
            continue;
        first = w;
        break;
    }
    static const QHash<QString, QString> known{{QStringLiteral("llama"), QStringLiteral("Llama")},
                                               {QStringLiteral("mistral"), QStringLiteral("Mistral")},
                                               {QStringLiteral("mixtral"), QStringLiteral("Mistral")},
                                               {QStringLiteral("qwen"), QStringLiteral("Qwen")},
                                               {QStringLiteral("gemma"), QStringLiteral("Gemma")},
                                               {QStringLiteral("gpt"), QStringLiteral("GPT")},
                                               {QStringLiteral("o"), QStringLiteral("GPT")},
                                               {QStringLiteral("claude"), QStringLiteral("Claude")},
                                               {QStringLiteral("gemini"), QStringLiteral("Gemini")},
                                               {QStringLiteral("deepseek"), QStringLiteral("DeepSeek")},
                                               {QStringLiteral("phi"), QStringLiteral("Phi")}};
    if (first == QLatin1String("o") && !QRegularExpression(QStringLiteral("^o\\d")).match(name).hasMatch())
        first.clear(); // "o" only as in o1, o3, o4
    if (known.contains(first))
        p.family = known.value(first);
    else if (!first.isEmpty())
        p.family = first.left(1).toUpper() + first.mid(1);
    return p;
}

Result<EvaluatorProfile> EvaluatorGroups::read(const Project &project, const QString &judge, const QString &aspect,
                                               const QString &runModel)
{
    const auto stored = project.readMeta(metaKey(judge));
    if (!stored)
        return stored.error();
    QJsonObject o;
    if (!stored->isEmpty()) {
        QJsonParseError err{};
        const QJsonDocument doc = QJsonDocument::fromJson(stored->toUtf8(), &err);
        if (!doc.isObject())
            return makeError(tr("judge '%1': the stored evaluator profile is not a JSON object (%2)")
                                     .arg(judge, err.errorString()),
                             {}, 0, metaKey(judge));
        o = doc.object();
    }
    const QString model = o.value(QStringLiteral("model")).toString();
    EvaluatorProfile p = infer(!model.isEmpty() ? model : !runModel.isEmpty() ? runModel : judge);
    p.judge = judge;
    p.aspect = aspect;
    p.modelSet = !model.isEmpty();
    if (o.contains(QStringLiteral("person"))) {
        p.person = o.value(QStringLiteral("person")).toBool();
        p.personSet = true;
    }
    if (o.contains(QStringLiteral("size"))) {
        const QString size = o.value(QStringLiteral("size")).toString();
        if (!size.isEmpty() && !sizes().contains(size))
            return makeError(tr("judge '%1': stored size '%2' is not large, medium, small or empty").arg(judge, size),
                             {}, 0, metaKey(judge) + QStringLiteral(".size"));
        p.size = size;
        p.sizeSet = true;
        p.sizeWhy = tr("set by hand");
    }
    if (o.contains(QStringLiteral("family"))) {
        p.family = o.value(QStringLiteral("family")).toString().trimmed();
        p.familySet = true;
    }
    return p;
}

Result<void> EvaluatorGroups::write(Project &project, const EvaluatorProfile &profile)
{
    if (profile.sizeSet && !profile.size.isEmpty() && !sizes().contains(profile.size))
        return makeError(tr("size '%1' is not large, medium, small or empty").arg(profile.size), {}, 0,
                         QStringLiteral("size"));
    QJsonObject o;
    if (profile.modelSet && !profile.model.trimmed().isEmpty())
        o.insert(QStringLiteral("model"), profile.model.trimmed());
    if (profile.personSet)
        o.insert(QStringLiteral("person"), profile.person);
    if (profile.sizeSet)
        o.insert(QStringLiteral("size"), profile.size);
    if (profile.familySet)
        o.insert(QStringLiteral("family"), profile.family.trimmed());
    return project.setMeta(metaKey(profile.judge),
                           o.isEmpty() ? QString()
                                       : QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
}

Result<EvaluatorGroupTable> EvaluatorGroups::compute(Project &project, const QVector<EvaluatorProfile> &evaluators,
                                                     bool withPeople)
{
    EvaluatorGroupTable out;
    RubricStore store(&project);
    QHash<QString, JudgeChecklist> loaded;
    for (const EvaluatorProfile &e : evaluators) {
        if (loaded.contains(e.judge))
            return makeError(tr("judge '%1' is named twice").arg(e.judge), {}, 0, QStringLiteral("judge"));
        auto rubric = store.load(e.judge);
        if (!rubric)
            return makeError(tr("judge '%1' has no checklist: %2").arg(e.judge, rubric.errorString()), {}, 0,
                             QStringLiteral("judge"));
        auto scores = store.readSampleScores(e.judge);
        if (!scores)
            return scores.error();
        loaded.insert(e.judge, {e.judge, *rubric, std::move(scores).value()});
        if (!out.aspects.contains(e.aspect))
            out.aspects << e.aspect;
    }

    // Correlation with people per LLM evaluator model (Top-3), on the default split's items.
    const auto filter = stats::defaultSplitFilter(project);
    if (!filter)
        return filter.error();
    const auto itemIds = project.readItemIds(*filter);
    if (!itemIds)
        return itemIds.error();
    QHash<QString, QHash<QString, double>> humanByAspect;
    QHash<QString, std::pair<double, int>> rhoSum;
    QStringList models;
    for (const EvaluatorProfile &e : evaluators) {
        if (e.person)
            continue;
        if (!models.contains(e.model))
            models << e.model;
        if (!humanByAspect.contains(e.aspect)) {
            auto h = project.readHumanScores(e.aspect);
            if (!h)
                return h.error();
            humanByAspect.insert(e.aspect, *h);
        }
        const auto judged = project.readJudgeScores(e.judge, e.aspect);
        if (!judged)
            return judged.error();
        const QHash<QString, double> &human = humanByAspect[e.aspect];
        std::vector<double> x, y;
        for (const QString &id : *itemIds) {
            const auto h = human.constFind(id);
            const auto j = judged->constFind(id);
            if (h == human.cend() || j == judged->cend() || std::isnan(*h) || std::isnan(*j))
                continue;
            x.push_back(*j);
            y.push_back(*h);
        }
        const double rho = x.size() >= 3 ? stats::spearman(x, y) : nan();
        if (!std::isnan(rho)) {
            rhoSum[e.model].first += rho;
            rhoSum[e.model].second += 1;
        }
    }
    QStringList ranked;
    for (const QString &m : std::as_const(models)) {
        const auto s = rhoSum.value(m, {0.0, 0});
        out.modelRho.insert(m, s.second ? s.first / s.second : nan());
        if (s.second)
            ranked << m;
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](const QString &a, const QString &b) { return out.modelRho.value(a) > out.modelRho.value(b); });
    out.top3 = ranked.mid(0, 3);

    QStringList people;
    for (const EvaluatorProfile &e : evaluators)
        if (e.person)
            people << e.judge;

    auto makeRow = [&](const QString &id, const QString &label, const std::function<bool(const EvaluatorProfile &)> &in,
                       bool addPeople) -> std::optional<GroupRow> {
        GroupRow row{id, label, {}, {}, nan(), nan(), {}};
        bool any = false;
        for (const EvaluatorProfile &e : evaluators)
            if (!e.person && in(e)) {
                any = true;
                if (!row.models.contains(e.model))
                    row.models << e.model;
            }
        if (!any && id != QLatin1String("people"))
            return std::nullopt;
        double alphaSum = 0, kappaSum = 0;
        int alphaN = 0, kappaN = 0;
        for (const QString &aspect : std::as_const(out.aspects)) {
            GroupCell cell{aspect, {}, {}, {}};
            QVector<JudgeChecklist> coders;
            for (const EvaluatorProfile &e : evaluators) {
                if (e.aspect != aspect)
                    continue;
                if ((e.person && addPeople) || (!e.person && in(e))) {
                    cell.judges << e.judge;
                    coders.append(loaded.value(e.judge));
                }
            }
            if (coders.size() < 2) {
                cell.error = tr("fewer than two judges of this group score %1").arg(aspect);
            } else {
                const auto a = QuestionAgreement::compute(coders);
                if (!a)
                    cell.error = a.errorString();
                else if (a->overall.pairs == 0)
                    cell.error = tr("no (item, question) unit has answers from two of the judges");
                else
                    cell.figures = a->overall;
            }
            if (!std::isnan(cell.figures.alpha)) {
                alphaSum += cell.figures.alpha;
                ++alphaN;
            }
            if (!std::isnan(cell.figures.kappa)) {
                kappaSum += cell.figures.kappa;
                ++kappaN;
            }
            if (cell.error.isEmpty())
                row.averaged << aspect;
            row.cells.append(cell);
        }
        row.alpha = alphaN ? alphaSum / alphaN : nan();
        row.kappa = kappaN ? kappaSum / kappaN : nan();
        return row;
    };
    const QString plus = withPeople ? tr(" + people") : QString();
    auto add = [&](const QString &id, const QString &label, const std::function<bool(const EvaluatorProfile &)> &in) {
        if (auto row = makeRow(id, label + plus, in, withPeople))
            out.rows.append(*row);
    };
    add(QStringLiteral("all"), tr("All"), [](const EvaluatorProfile &) { return true; });
    add(QStringLiteral("large"), tr("Large"),
        [](const EvaluatorProfile &e) { return e.size == QLatin1String("large"); });
    add(QStringLiteral("medium"), tr("Medium"),
        [](const EvaluatorProfile &e) { return e.size == QLatin1String("medium"); });
    add(QStringLiteral("small"), tr("Small"),
        [](const EvaluatorProfile &e) { return e.size == QLatin1String("small"); });
    QStringList families;
    for (const EvaluatorProfile &e : evaluators)
        if (!e.person && !e.family.isEmpty() && !families.contains(e.family))
            families << e.family;
    std::sort(families.begin(), families.end(),
              [](const QString &a, const QString &b) { return QString::compare(a, b, Qt::CaseInsensitive) < 0; });
    for (const QString &f : std::as_const(families))
        add(QStringLiteral("family:") + f, f, [f](const EvaluatorProfile &e) { return e.family == f; });
    const QSet<QString> top(out.top3.begin(), out.top3.end());
    if (!top.isEmpty()) {
        add(QStringLiteral("top3"), tr("Top-3"), [top](const EvaluatorProfile &e) { return top.contains(e.model); });
        out.rows.last().models = out.top3; // highest correlation first
    }
    if (withPeople && !people.isEmpty())
        if (auto row = makeRow(
                    QStringLiteral("people"), tr("People"), [](const EvaluatorProfile &) { return false; }, true))
            out.rows.append(*row);
    return out;
}

} // namespace rubric
