#include "HdEvalActions.h"

#include "judge/JudgeEngine.h"
#include "methods/PromptLibrary.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QCoreApplication>
#include <QPointer>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace rubric::hdeval {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString trc(const char *text)
{
    return QCoreApplication::translate("HdEvalActions", text);
}

/// The judge's latest rubric, which must be an HD-Eval tree.
Result<Rubric> loadTree(Project *project, const QString &judge)
{
    auto tree = RubricStore(project).load(judge);
    if (!tree)
        return makeError(trc("judge '%1' has no criteria tree: %2").arg(judge, tree.errorString()), {}, 0,
                         QStringLiteral("judge"));
    if (tree->method() != QLatin1String("hdeval"))
        return makeError(trc("judge '%1' holds a %2 rubric, not an HD-Eval criteria tree").arg(judge, tree->method()),
                         {}, 0, QStringLiteral("judge"));
    return tree;
}

} // namespace

Result<StoredFitData> loadFitData(Project *project, const QString &judge, int layers)
{
    auto tree = loadTree(project, judge);
    if (!tree)
        return tree.error();
    RubricStore store(project);
    StoredFitData out;
    FitData &data = out.data;
    out.tree = *tree;
    for (const Criterion &root : tree->children(QString())) {
        const QString a = rootAspect(*tree, root);
        const auto aspect = project->aspect(a);
        if (!aspect)
            return makeError(trc("the layer-1 node '%1' stands for aspect '%2', which the project does not have")
                                     .arg(root.key, a),
                             {}, 0, QStringLiteral("aspect"));
        if (!data.aspects.contains(a))
            data.aspects.append(a);
        data.scales.insert(a, {aspect->min, aspect->max});
    }
    // The judge's own aspect first (its judge score is the run's).
    if (data.aspects.removeAll(tree->aspect()) > 0)
        data.aspects.prepend(tree->aspect());
    for (const Criterion &c : featureNodes(*tree))
        if (layerOf(*tree, c) <= layers)
            data.nodes.append(c);
    QVector<QHash<QString, double>> human;
    for (const QString &a : std::as_const(data.aspects)) {
        auto h = project->readHumanScores(a);
        if (!h)
            return h.error();
        human.append(*h);
    }
    auto rows = store.readSampleScores(judge);
    if (!rows)
        return rows.error();
    QHash<QString, QHash<QString, double>> scores;
    for (const CriterionScore &row : *rows)
        scores[row.itemId].insert(row.criterionKey, row.score);
    auto trainIds = project->readItemIds(SplitFilter::Train);
    auto testIds = project->readItemIds(SplitFilter::Test);
    auto allIds = project->readItemIds(SplitFilter::All);
    for (const QString &e : {trainIds.errorString(), testIds.errorString(), allIds.errorString()})
        if (!e.isEmpty())
            return makeError(e);
    const auto annotated = [&](const QString &id) {
        for (const auto &h : std::as_const(human))
            if (h.contains(id))
                return true;
        return false;
    };
    const auto matrices = [&](const QStringList &ids, Eigen::MatrixXd &x, Eigen::MatrixXd *y) {
        x.resize(ids.size(), data.nodes.size());
        if (y)
            y->resize(ids.size(), data.aspects.size());
        for (int r = 0; r < ids.size(); ++r) {
            const QHash<QString, double> have = scores.value(ids[r]);
            for (int c = 0; c < data.nodes.size(); ++c)
                x(r, c) = have.value(data.nodes[c].key, kNaN);
            for (int a = 0; y && a < data.aspects.size(); ++a)
                (*y)(r, a) = human[a].value(ids[r], kNaN);
        }
    };
    QStringList &train = out.train, &test = out.test, &all = out.all;
    for (const QString &id : std::as_const(*trainIds))
        if (annotated(id) && scores.contains(id))
            train << id;
    for (const QString &id : std::as_const(*testIds))
        if (annotated(id) && scores.contains(id))
            test << id;
    for (const QString &id : std::as_const(*allIds))
        if (scores.contains(id))
            all << id;
    if (train.size() < 2)
        return makeError(trc("judge '%1' has node scores for %2 annotated train item(s); a re-fit needs at least 2")
                                 .arg(judge)
                                 .arg(train.size()),
                         {}, 0, QStringLiteral("judge"));
    QHash<QString, QString> groupOf;
    bool anyGroup = false;
    for (const Item &it : project->items()) {
        groupOf.insert(it.id, it.group);
        anyGroup = anyGroup || !it.group.isEmpty();
    }
    if (anyGroup) {
        for (const QString &id : std::as_const(train))
            data.trainGroups << groupOf.value(id);
        for (const QString &id : std::as_const(test))
            data.testGroups << groupOf.value(id);
    }
    matrices(train, data.xTrain, &data.yTrain);
    matrices(test, data.xTest, &data.yTest);
    matrices(all, data.xAll, nullptr);
    return out;
}

Result<RefitOutcome> refit(Project *project, const QString &judge, const RefitOptions &options)
{
    auto loaded = loadFitData(project, judge, options.layers);
    if (!loaded)
        return loaded.error();
    RubricStore store(project);
    const Rubric *tree = &loaded->tree;
    FitData &data = loaded->data;
    const QStringList &train = loaded->train, &all = loaded->all;
    FitSettings settings;
    settings.aggregator = options.aggregator;
    settings.seed = options.seed;
    settings.cvFolds = options.cvFolds;
    settings.importanceRepeats = options.importanceRepeats;
    settings.layers = options.layers;
    settings.groupFolds = options.groupFolds;
    auto fit = fitAggregators(data, settings);
    if (!fit)
        return fit.error();
    Rubric next = *tree;
    if (auto stored = storeFit(next, *fit); !stored)
        return stored.error();
    auto version = store.saveVersion(judge, next,
                                     trc("HD-Eval re-fit: %1 aggregator on %2 nodes (layers ≤ %3), %4 train items")
                                             .arg(learn::aggregatorKindName(options.aggregator.kind))
                                             .arg(data.nodes.size())
                                             .arg(options.layers)
                                             .arg(train.size()));
    if (!version)
        return version.error();
    RefitOutcome out;
    out.version = *version;
    // An item without any node score has no judge score (as in the run): the aggregator would
    // predict it from the training means alone.
    QVector<bool> hasScore(all.size(), false);
    for (int i = 0; i < all.size(); ++i)
        for (int c = 0; c < data.nodes.size() && !hasScore[i]; ++c)
            hasScore[i] = std::isfinite(data.xAll(i, c));
    out.scoredItems = int(std::count(hasScore.cbegin(), hasScore.cend(), true));
    for (const QString &a : std::as_const(data.aspects)) {
        QHash<QString, double> itemScores;
        for (int i = 0; i < all.size(); ++i)
            itemScores.insert(all[i], hasScore[i] ? fit->aspects[a].predicted[i] : kNaN);
        if (auto w = project->setJudgeScores(judge, a, itemScores); !w)
            return w.error();
    }
    const AspectFit &own = fit->aspects[data.aspects.first()];
    if (std::isfinite(own.cvR))
        if (auto a = store.setAlignment(judge, *version, own.cvR,
                                        trc("cross-validated Pearson (%1) of the aggregator on the train split, n = %2")
                                                .arg(fit->description.value(QStringLiteral("cv")).toString())
                                                .arg(train.size()));
            !a)
            return a.error();
    if (std::isfinite(own.testR))
        if (auto a = store.setTestAlignment(
                    judge, *version, own.testR,
                    trc("Pearson with the human scores on the test split, n = %1 (the test items with a score)")
                            .arg(own.nTestScored));
            !a)
            return a.error();
    out.fit = std::move(fit).value();
    return out;
}

Result<int> setSelection(Project *project, const QString &judge, const QStringList &keys)
{
    auto tree = loadTree(project, judge);
    if (!tree)
        return tree.error();
    QStringList layer2;
    for (const Criterion &c : layerNodes(*tree, 2))
        layer2 << c.key;
    for (const QString &k : keys)
        if (!layer2.contains(k))
            return makeError(trc("'%1' is not a layer-2 node of judge '%2' (layer 2: %3)")
                                     .arg(k, judge, layer2.join(QStringLiteral(", "))),
                             {}, 0, QStringLiteral("select"));
    for (Criterion &c : tree->criteria())
        if (layer2.contains(c.key)) {
            c.stats.insert(QStringLiteral("selected"), keys.contains(c.key));
            c.stats.insert(QStringLiteral("selected_by"), QStringLiteral("hand"));
        }
    return RubricStore(project).saveVersion(
            judge, *tree,
            trc("HD-Eval: selected for expansion by hand: %1")
                    .arg(keys.isEmpty() ? trc("none") : keys.join(QStringLiteral(", "))));
}

Result<QString> addNode(Project *project, const QString &judge, const QString &parentKey, const ProposedChild &child,
                        const QVariantMap &origin)
{
    auto tree = loadTree(project, judge);
    if (!tree)
        return tree.error();
    const Criterion *parent = tree->find(parentKey);
    if (!parent)
        return makeError(trc("judge '%1' has no node '%2' to add a child under").arg(judge, parentKey), {}, 0,
                         QStringLiteral("parent"));
    if (child.name.trimmed().isEmpty())
        return makeError(trc("a node needs a name"), {}, 0, QStringLiteral("name"));
    QSet<QString> taken;
    for (const Criterion &c : tree->criteria())
        taken.insert(c.key);
    Criterion c;
    c.key = makeKey(child, taken);
    c.parentKey = parentKey;
    c.kind = CriterionKind::Criterion;
    c.text = child.name.trimmed();
    c.definition = child.definition.trimmed();
    c.position = int(tree->children(parentKey).size());
    c.stats = {{QStringLiteral("layer"), layerOf(*tree, *parent) + 1}};
    c.origin = {{QStringLiteral("method"), QStringLiteral("hdeval")},
                {QStringLiteral("parent"), parentKey},
                {QStringLiteral("step"), QStringLiteral("hand")}};
    for (auto it = origin.begin(); it != origin.end(); ++it)
        c.origin.insert(it.key(), it.value());
    tree->add(c);
    auto version = RubricStore(project).saveVersion(judge, *tree,
                                                    trc("HD-Eval: node '%1' added under '%2'").arg(c.key, parentKey));
    if (!version)
        return version.error();
    return c.key;
}

Result<JudgeRequest> decompositionRequest(Project *project, const QString &judge, const QVector<Criterion> &parents,
                                          int children, double temperature, int maxTokens)
{
    auto tree = loadTree(project, judge);
    if (!tree)
        return tree.error();
    const auto aspect = project->aspect(tree->aspect());
    if (!aspect)
        return makeError(trc("the project has no aspect '%1'").arg(tree->aspect()), {}, 0, QStringLiteral("aspect"));
    const auto task = PromptLibrary::projectTask(project);
    if (!task)
        return task.error();
    QVariantMap c = PromptLibrary::taskContext(*task, *aspect);
    QVariantList list;
    for (const Criterion &p : parents)
        list.append(QVariantMap{{QStringLiteral("name"), p.text},
                                {QStringLiteral("definition"), p.definition.isEmpty() ? p.text : p.definition}});
    c.insert(QStringLiteral("parents"), list);
    c.insert(QStringLiteral("children"), children);
    c.insert(QStringLiteral("batched"), parents.size() > 1);
    auto prompt = PromptLibrary(project).render(QStringLiteral("hdeval_decompose"), c);
    if (!prompt)
        return prompt.error();
    JudgeRequest r;
    r.messages = prompt->messages;
    r.temperature = temperature;
    r.maxTokens = maxTokens;
    return r;
}

void proposeChildren(Project *project, const QString &judge, const QString &nodeKey, const ProviderProfile &generator,
                     int children, QObject *context, std::function<void(Result<QVector<ProposedChild>>)> done)
{
    const auto later = [context, done](Result<QVector<ProposedChild>> r) {
        QMetaObject::invokeMethod(
                context, [done, r] { done(r); }, Qt::QueuedConnection);
    };
    auto tree = loadTree(project, judge);
    if (!tree) {
        later(tree.error());
        return;
    }
    const Criterion *node = tree->find(nodeKey);
    if (!node) {
        later(makeError(trc("judge '%1' has no node '%2'").arg(judge, nodeKey), {}, 0, QStringLiteral("node")));
        return;
    }
    auto request = decompositionRequest(project, judge, {*node}, children);
    if (!request) {
        later(request.error());
        return;
    }
    auto *engine = new JudgeEngine(generator, project, context);
    QObject::connect(engine, &JudgeEngine::answered, context,
                     [engine, done, children, name = node->text](const JudgeResponse &r) {
                         engine->deleteLater();
                         if (!r.ok()) {
                             done(makeError(trc("the generator did not answer: %1").arg(r.error)));
                             return;
                         }
                         QVector<ProposedChild> out;
                         for (const ProposedGroup &g : parseDecomposition(r.text()))
                             for (const ProposedChild &c : g.children)
                                 if (out.size() < children)
                                     out.append(c);
                         if (out.isEmpty()) {
                             done(makeError(trc("the generator's decomposition of '%1' held no criterion in the form "
                                                "'Name: definition': %2")
                                                    .arg(name, r.text().left(300))));
                             return;
                         }
                         done(out);
                     });
    engine->submit({*request});
}

} // namespace rubric::hdeval
