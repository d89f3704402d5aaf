#include "methods/stack/StackMethod.h"

#include "learn/ValidatedFit.h"
#include "methods/MethodRegistry.h"
#include "methods/Rescore.h"
#include "methods/RunContext.h"
#include "store/Project.h"

#include <QSet>
#include <QTimer>

#include <cmath>
#include <limits>

namespace rubric {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QVariant jsonNumber(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant(); // NaN → null
}

QStringList listOf(const QString &text)
{
    QStringList out;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (const QString t = part.trimmed(); !t.isEmpty())
            out << t;
    return out;
}

/// "a, b, c and 4 more".
QString someOf(const QStringList &names, int shown = 3)
{
    if (names.size() <= shown)
        return names.join(QStringLiteral(", "));
    return names.mid(0, shown).join(QStringLiteral(", ")) + QStringLiteral(" … (%1)").arg(names.size());
}

} // namespace

StackMethod::StackMethod(RunContext *context, QObject *parent)
    : Method(context, parent)
{
}

Result<void> StackMethod::readParams()
{
    const MethodInfo *info = MethodRegistry::find(m_ctx->spec().method);
    const QVariantMap s = m_ctx->methodSettings();
    Params p;
    QVariantMap aggregator{{QStringLiteral("aggregator"), QStringLiteral("ridge")}};
    for (auto it = s.begin(); it != s.end(); ++it) {
        const QString key = it.key().startsWith(QLatin1String("stack.")) ? it.key().mid(6) : it.key();
        const QString text = it.value().toString();
        const MethodParam *declared = info ? info->param(key) : nullptr;
        if (!declared) {
            QStringList known;
            if (info)
                for (const MethodParam &m : info->params)
                    known << m.key;
            return makeError(tr("unknown parameter '%1' of the stacked judge (known: %2)")
                                     .arg(it.key(), known.join(QStringLiteral(", "))),
                             {}, 0, QStringLiteral("set"));
        }
        if (!declared->accepts(text))
            return makeError(tr("bad value '%1' for the stacked judge's parameter '%2'").arg(text, it.key()), {}, 0,
                             QStringLiteral("set"));
        if (key == QLatin1String("judges"))
            p.judges = listOf(text);
        else if (key == QLatin1String("criteria"))
            p.criteria = listOf(text);
        else if (key == QLatin1String("judge_scores"))
            p.judgeScores = text.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0
                            || text.compare(QLatin1String("on"), Qt::CaseInsensitive) == 0
                            || text == QLatin1String("1");
        else if (key == QLatin1String("cv_folds"))
            p.cvFolds = text.toInt();
        else if (key == QLatin1String("importance_repeats"))
            p.importanceRepeats = text.toInt();
        else if (key == QLatin1String("seed"))
            p.seed = text.toULongLong();
        else
            aggregator.insert(key, text); // aggregator, ridge_lambda
    }
    if (p.cvFolds == 1)
        return makeError(tr("cv_folds must be 0 (leave-one-out) or at least 2, not 1"), {}, 0,
                         QStringLiteral("cv_folds"));
    auto settings = learn::aggregatorSettingsFromMap(aggregator);
    if (!settings)
        return settings.error();
    p.aggregator = *settings;
    m_params = p;
    return {};
}

Result<QVector<JudgeFeature>> StackMethod::chooseFeatures(QStringList *leftOut)
{
    const QString self = m_ctx->spec().judge;
    auto all = availableJudgeFeatures(m_ctx->project(), m_ctx->spec().aspect, {self});
    if (!all)
        return all.error();
    QStringList judges; // the judges offering columns, in order
    for (const JudgeFeature &f : std::as_const(*all))
        if (!judges.contains(f.judge))
            judges << f.judge;
    QVector<JudgeFeature> chosen;
    if (!m_params.criteria.isEmpty()) {
        for (const QString &name : m_params.criteria) {
            const JudgeFeature *found = nullptr;
            for (const JudgeFeature &f : std::as_const(*all))
                if (f.name() == name)
                    found = &f;
            if (!found) {
                QStringList names;
                for (const JudgeFeature &f : std::as_const(*all))
                    names << f.name();
                return makeError(tr("no criterion '%1' on aspect '%2' (a name is judge/criterion, or judge/score "
                                    "for a judge's own score; there are: %3)")
                                         .arg(name, m_ctx->spec().aspect, someOf(names, 8)),
                                 {}, 0, QStringLiteral("criteria"));
            }
            chosen.append(*found);
        }
        return chosen;
    }
    QStringList sources = m_params.judges;
    for (const QString &j : std::as_const(sources))
        if (!judges.contains(j))
            return makeError(tr("judge '%1' has no scored criterion on aspect '%2' (judges with some: %3)")
                                     .arg(j, m_ctx->spec().aspect, judges.join(QStringLiteral(", "))),
                             {}, 0, QStringLiteral("judges"));
    if (sources.isEmpty()) // every judge but other stacked ones (their scores are fitted on the labels)
        for (const JudgeFeature &f : std::as_const(*all))
            if (f.method != m_ctx->spec().method && !sources.contains(f.judge))
                sources << f.judge;
    for (const JudgeFeature &f : std::as_const(*all)) {
        if (!sources.contains(f.judge))
            continue;
        if (f.isJudgeScore()) {
            if (!m_params.judgeScores)
                continue;
            // A score fitted on the train labels (an aggregator) is in-sample on the train items:
            // stacking it would trust it more than its test figures allow. Chosen by name only.
            const bool fitted = f.fitted;
            if (fitted) {
                *leftOut << f.name();
                continue;
            }
        }
        chosen.append(f);
    }
    if (chosen.isEmpty())
        return makeError(tr("nothing to stack: no other judge has scored criteria on aspect '%1'; run some judges "
                            "first")
                                 .arg(m_ctx->spec().aspect),
                         {}, 0, QStringLiteral("judges"));
    return chosen;
}

Result<JudgeFeatureTable> StackMethod::readTable(const QVector<JudgeFeature> &features)
{
    QStringList ids;
    QSet<QString> train;
    for (const Item &item : m_ctx->trainItems()) {
        ids << item.id;
        train.insert(item.id);
    }
    for (const Item &item : m_ctx->targetItems())
        if (!train.contains(item.id))
            ids << item.id;
    auto table = readJudgeFeatures(m_ctx->project(), m_ctx->spec().aspect, features, ids);
    if (!table)
        return table.error();
    // A criterion never asked on an item the fit or the scores need: refused, naming it.
    QStringList reasons;
    for (int c = 0; c < features.size(); ++c) {
        QStringList trainMissing, targetMissing;
        for (int r = 0; r < ids.size(); ++r)
            if (!table->asked(r, c))
                (train.contains(ids[r]) ? trainMissing : targetMissing) << ids[r];
        if (!trainMissing.isEmpty())
            reasons << tr("'%1' has no score on %2 of the %3 train items with a human score (%4)")
                               .arg(features[c].name())
                               .arg(trainMissing.size())
                               .arg(train.size())
                               .arg(someOf(trainMissing));
        if (!targetMissing.isEmpty())
            reasons << tr("'%1' has no score on %2 of the items to score (%3)")
                               .arg(features[c].name())
                               .arg(targetMissing.size())
                               .arg(someOf(targetMissing));
    }
    if (!reasons.isEmpty())
        return makeError(tr("the stacked judge cannot use these criteria: %1. Score those items with the source "
                            "judges first (rubric run --judge NAME --items all), or leave the criteria out "
                            "(--set criteria=…)")
                                 .arg(someOf(reasons, 4)),
                         {}, 0, QStringLiteral("criteria"));
    if (train.size() < 3)
        return makeError(tr("the stacked judge needs at least 3 train items with a human score on '%1' (has %2)")
                                 .arg(m_ctx->spec().aspect)
                                 .arg(train.size()),
                         {}, 0, QStringLiteral("split"));
    return table;
}

Result<RunEstimate> StackMethod::estimate()
{
    if (auto r = readParams(); !r)
        return r.error();
    RunEstimate e; // nothing to send: every figure comes from the store
    e.perPhase.insert(QString::fromLatin1(fitPhase), 0);
    return e;
}

Result<void> StackMethod::check()
{
    if (auto r = readParams(); !r)
        return r;
    QStringList leftOut;
    auto features = chooseFeatures(&leftOut);
    if (!features)
        return features.error();
    auto table = readTable(*features);
    if (!table)
        return table.error();
    return {};
}

void StackMethod::start()
{
    QTimer::singleShot(0, this, [this] { finish(); }); // completed never inside start()
}

void StackMethod::finish()
{
    if (m_ctx->stopped())
        return;
    auto summary = fitAndRecord();
    if (!summary) {
        m_ctx->fail(summary.errorString());
        return;
    }
    emit completed(*summary);
}

Result<QVariantMap> StackMethod::fitAndRecord()
{
    if (auto r = readParams(); !r)
        return r.error();
    QStringList leftOut;
    auto features = chooseFeatures(&leftOut);
    if (!features)
        return features.error();
    auto table = readTable(*features);
    if (!table)
        return table.error();
    const QString aspect = m_ctx->spec().aspect;
    const int nTrain = int(m_ctx->trainItems().size()), n = int(table->items.size()), p = int(features->size());

    Eigen::MatrixXd xTrain = table->x.topRows(nTrain);
    Eigen::MatrixXd yTrain(nTrain, 1);
    QStringList groups;
    bool repeated = false;
    QSet<QString> seenGroups;
    for (int r = 0; r < nTrain; ++r) {
        const Item &item = m_ctx->trainItems()[r];
        yTrain(r, 0) = m_ctx->human(item.id);
        groups << item.group;
        repeated = repeated || (!item.group.isEmpty() && seenGroups.contains(item.group));
        seenGroups.insert(item.group);
    }
    learn::ValidationSettings vs;
    vs.aggregator = m_params.aggregator;
    vs.seed = m_params.seed;
    vs.folds = m_params.cvFolds;
    vs.importanceRepeats = m_params.importanceRepeats;
    if (repeated && learn::groupCount(groups) >= 2)
        vs.groups = groups; // as HD-Eval's auto: by group when a group repeats among the train items
    auto fitted = learn::fitValidated(xTrain, yTrain, vs);
    if (!fitted)
        return makeError(tr("the stacked judge could not be fitted on %1 train items (%2): %3")
                                 .arg(nTrain)
                                 .arg(fitted.error().field, fitted.error().message),
                         {}, 0, QStringLiteral("fit"));
    auto predicted = fitted->aggregator.predict(table->x);
    if (!predicted)
        return predicted.error();

    // The test figure and the best single criterion (chosen on the train split) beside it.
    auto split = m_ctx->project()->readSplit();
    if (!split)
        return split.error();
    std::vector<double> testPred, testHuman;
    QVector<int> testRows;
    for (int r = 0; r < n; ++r)
        if (split->value(table->items[r]) == SplitRole::Test && std::isfinite(m_ctx->human(table->items[r]))) {
            testRows.append(r);
            testPred.push_back((*predicted)(r, 0));
            testHuman.push_back(m_ctx->human(table->items[r]));
        }
    const auto column = [&](const Eigen::MatrixXd &m, int c, const QVector<int> &rows) {
        Eigen::VectorXd v(rows.size());
        for (int i = 0; i < rows.size(); ++i)
            v[i] = m(rows[i], c);
        return v;
    };
    const Eigen::VectorXd yTest = Eigen::Map<const Eigen::VectorXd>(testHuman.data(), Eigen::Index(testHuman.size()));
    const double testR = testRows.size() >= 3 ? learn::pearsonPresent(column(*predicted, 0, testRows), yTest) : kNaN;
    QString best;
    double bestTrainR = kNaN, bestTestR = kNaN;
    QVector<double> columnTrainR(p, kNaN);
    for (int c = 0; c < p; ++c) {
        columnTrainR[c] = learn::pearsonPresent(xTrain.col(c), yTrain.col(0));
        if (std::isfinite(columnTrainR[c]) && (!std::isfinite(bestTrainR) || columnTrainR[c] > bestTrainR)) {
            bestTrainR = columnTrainR[c];
            best = (*features)[c].name();
            bestTestR = testRows.size() >= 3 ? learn::pearsonPresent(column(table->x, c, testRows), yTest) : kNaN;
        }
    }

    QStringList names, judges;
    for (const JudgeFeature &f : std::as_const(*features)) {
        names << f.name();
        if (!judges.contains(f.judge))
            judges << f.judge;
    }
    const QVariantMap model = fitted->aggregator.describe(names, {aspect});
    QVariantMap description{{QStringLiteral("kind"), learn::aggregatorKindName(m_params.aggregator.kind)},
                            {QStringLiteral("aspects"), model.value(QStringLiteral("aspects"))},
                            {QStringLiteral("features"), names},
                            {QStringLiteral("source_judges"), judges},
                            {QStringLiteral("left_out"), leftOut},
                            {QStringLiteral("train_r"), jsonNumber(fitted->cv.trainR.value(0, kNaN))},
                            {QStringLiteral("cv_r"), jsonNumber(fitted->cv.cvR.value(0, kNaN))},
                            {QStringLiteral("cv_warning"), fitted->cv.warning.value(0, false)},
                            {QStringLiteral("cv"), fitted->cvLabel},
                            {QStringLiteral("cv_by_group"), fitted->byGroup},
                            {QStringLiteral("test_r"), jsonNumber(testR)},
                            {QStringLiteral("n_train"), nTrain},
                            {QStringLiteral("n_test"), int(testRows.size())},
                            {QStringLiteral("seed"), qint64(m_params.seed)},
                            {QStringLiteral("best_criterion"), best},
                            {QStringLiteral("best_criterion_train_r"), jsonNumber(bestTrainR)},
                            {QStringLiteral("best_criterion_test_r"), jsonNumber(bestTestR)},
                            {QStringLiteral("best_chosen_on"), QStringLiteral("train")}};

    // The tree: the aspect → a node per source judge → a node per criterion, with its importance.
    Rubric rubric(m_ctx->spec().method, aspect);
    Criterion root;
    root.key = QString::fromLatin1(rootKey);
    root.kind = CriterionKind::Aspect;
    root.text = m_ctx->aspect().name;
    root.definition = m_ctx->aspect().definition;
    root.origin = {{QStringLiteral("method"), m_ctx->spec().method}};
    root.stats = {{QStringLiteral("aspect"), aspect},
                  {QStringLiteral("aggregator"), description},
                  {QStringLiteral("aggregator_model"), fitted->aggregator.toJson().toVariantMap()}};
    rubric.add(root);
    QHash<QString, double> judgeImportance;
    for (int c = 0; c < p; ++c)
        if (std::isfinite(fitted->importance.mean(c, 0)))
            judgeImportance[(*features)[c].judge] += fitted->importance.mean(c, 0);
    int position = 0;
    for (const QString &j : std::as_const(judges)) {
        Criterion node;
        node.key = QString::fromLatin1(judgeNodePrefix) + j;
        node.parentKey = root.key;
        node.kind = CriterionKind::SubAspect;
        node.text = j;
        node.position = position++;
        QString method;
        for (const JudgeFeature &f : std::as_const(*features))
            if (f.judge == j)
                method = f.method;
        const MethodInfo *info = MethodRegistry::find(method);
        node.definition = info ? info->title : method;
        node.origin = {{QStringLiteral("source_judge"), j}, {QStringLiteral("method"), method}};
        node.stats = {{QStringLiteral("importance"), QVariantMap{{aspect, jsonNumber(judgeImportance.value(j))}}}};
        rubric.add(node);
    }
    for (int c = 0; c < p; ++c) {
        const JudgeFeature &f = (*features)[c];
        Criterion leaf;
        leaf.key = f.name();
        leaf.parentKey = QString::fromLatin1(judgeNodePrefix) + f.judge;
        leaf.kind = CriterionKind::Criterion;
        leaf.text = f.text;
        leaf.definition = f.definition;
        leaf.position = c;
        leaf.origin
                = {{QStringLiteral("source_judge"), f.judge},
                   {QStringLiteral("source_criterion"), f.isJudgeScore() ? QStringLiteral("score") : f.criterionKey}};
        leaf.stats = {{QStringLiteral("importance"), QVariantMap{{aspect, jsonNumber(fitted->importance.mean(c, 0))}}},
                      {QStringLiteral("importance_sd"), jsonNumber(fitted->importance.sd(c, 0))},
                      {QStringLiteral("train_pearson"), jsonNumber(columnTrainR[c])}};
        rubric.add(leaf);
    }

    auto latest = m_ctx->store().loadLatest(m_ctx->spec().judge);
    if (!latest)
        return latest.error();
    int version = 0;
    if (latest->has_value() && (*latest)->criteria() == rubric.criteria()) {
        version = (*latest)->version(); // the same fit again: no new version
    } else {
        auto saved = m_ctx->store().saveVersion(m_ctx->spec().judge, rubric,
                                                tr("stacked from %1 criteria of %2 judges (%3)")
                                                        .arg(p)
                                                        .arg(judges.size())
                                                        .arg(learn::aggregatorKindName(m_params.aggregator.kind)));
        if (!saved)
            return saved.error();
        version = *saved;
    }

    QVector<CriterionScore> rows;
    QHash<QString, double> itemScores;
    for (int r = 0; r < n; ++r) {
        itemScores.insert(table->items[r], (*predicted)(r, 0));
        for (int c = 0; c < p; ++c) {
            CriterionScore s;
            s.itemId = table->items[r];
            s.criterionKey = names[c];
            s.score = table->x(r, c);
            s.parseStatus = std::isfinite(s.score) ? QStringLiteral("ok") : QStringLiteral("unparsed");
            rows.append(s);
        }
    }
    m_ctx->recordScores(rows, itemScores);
    if (auto r = m_ctx->flushScores(); !r)
        return r.error();
    if (auto r = rescore::recordAlignment(*m_ctx, version); !r)
        return r.error();
    return QVariantMap{{QStringLiteral("version"), version},
                       {QStringLiteral("criteria"), p},
                       {QStringLiteral("judges"), judges},
                       {QStringLiteral("left_out"), leftOut},
                       {QStringLiteral("scored"), n},
                       {QStringLiteral("train_r"), description.value(QStringLiteral("train_r"))},
                       {QStringLiteral("cv_r"), description.value(QStringLiteral("cv_r"))},
                       {QStringLiteral("cv_warning"), description.value(QStringLiteral("cv_warning"))},
                       {QStringLiteral("test_r"), description.value(QStringLiteral("test_r"))}};
}

} // namespace rubric
