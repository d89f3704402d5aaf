// The stacked judge (issue 36): an aggregator over the criteria other judges scored on the same
// aspect. Its fit is checked against scikit-learn (tests/methods/stack_reference.py: Ridge on the
// train rows, its predictions, its train and cross-validated r), it sends no call, it refuses (and
// leaves the project as it was) when a chosen criterion was never scored on an item it needs, and
// `rubric explain` adds an item's stacked score up criterion by criterion.

#include "PipelineFixture.h"
#include "StackFixture.h"
#include "learn/CrossValidation.h"
#include "methods/MethodRegistry.h"
#include "methods/stack/StackExplain.h"
#include "store/RubricStore.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

namespace {

RunSpec stackSpec(const QString &judge)
{
    // No endpoint is ever asked: the address is one nothing listens on.
    RunSpec s = spec(judge, QStringLiteral("stack"), QStringLiteral("http://127.0.0.1:9/v1"));
    return s;
}

QString python()
{
    // Debian's python3 (python3-sklearn), not a pyenv shim without it.
    QString py = QStandardPaths::findExecutable(QStringLiteral("python3"), {QStringLiteral("/usr/bin")});
    return py.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("python3")) : py;
}

} // namespace

class TestStackMethod : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void fitEqualsSklearnAndSendsNothing();
    void refusesCriterionWithoutScores();
    void explainAddsUp();

private:
    std::unique_ptr<Fixture> project(const QString &name, bool allItems = true);
    QTemporaryDir m_dir;
};

void TestStackMethod::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(MethodRegistry::find(QStringLiteral("stack")));
}

std::unique_ptr<Fixture> TestStackMethod::project(const QString &name, bool allItems)
{
    auto fx = makeProject(m_dir.filePath(name), 12);
    if (!fx)
        return nullptr;
    const QStringList all = fx->project->itemIds();
    const QStringList some = allItems ? all : all.mid(3); // the first train items never asked
    if (!addJudge(*fx->project, QStringLiteral("g"), QStringLiteral("geval"), {QStringLiteral("aspect")}, all, false)
        || !addJudge(*fx->project, QStringLiteral("c"), QStringLiteral("checkeval"),
                     {QStringLiteral("q1"), QStringLiteral("q2"), QStringLiteral("q3")}, some, true)
        || !addJudge(*fx->project, QStringLiteral("h"), QStringLiteral("hdeval"), {QStringLiteral("n1")}, all, false,
                     true))
        return nullptr;
    return fx;
}

void TestStackMethod::fitEqualsSklearnAndSendsNothing()
{
    const QString py = python();
    if (py.isEmpty())
        QSKIP("python3 is not installed (scripts/install-deps.sh installs it with sklearn)");
    auto fx = project(QStringLiteral("fit.rubric"));
    QVERIFY(fx);
    RunSpec s = stackSpec(QStringLiteral("stacked"));
    s.items = SplitFilter::Test;
    s.settings.insert(QStringLiteral("ridge_lambda"), QStringLiteral("2.5"));
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(o.summary.value(QStringLiteral("sent")).toInt(), 0);
    QCOMPARE(o.summary.value(QStringLiteral("cache_hits")).toInt(), 0);

    RubricStore store(fx->project.get());
    auto rubric = store.load(QStringLiteral("stacked"));
    QVERIFY(rubric.ok());
    const Criterion *root = rubric->find(QStringLiteral("aspect"));
    QVERIFY(root);
    const QVariantMap agg = root->stats.value(QStringLiteral("aggregator")).toMap();
    const QStringList features = agg.value(QStringLiteral("features")).toStringList();
    // Default choice: every scored criterion and each judge's score, but HD-Eval's fitted score.
    QCOMPARE(features.join(QLatin1Char(',')), QStringLiteral("g/aspect,g/score,c/q1,c/q2,c/q3,c/score,h/n1"));
    QCOMPARE(agg.value(QStringLiteral("left_out")).toStringList(), QStringList{QStringLiteral("h/score")});
    // The tree: a node per source judge holding its criteria, each with its importance.
    QVERIFY(rubric->find(QStringLiteral("judge:c")));
    QCOMPARE(rubric->find(QStringLiteral("c/q2"))->parentKey, QStringLiteral("judge:c"));
    QVERIFY(rubric->find(QStringLiteral("c/q2"))
                    ->stats.value(QStringLiteral("importance"))
                    .toMap()
                    .contains(QStringLiteral("coherence")));

    // The CSV the reference reads: the train and test rows, their folds, the stacked criteria.
    const QHash<QString, double> human = fx->project->humanScores(QStringLiteral("coherence"));
    const QHash<QString, SplitRole> split = fx->project->split();
    QStringList train, groups;
    for (const Item &it : fx->project->items())
        if (split.value(it.id) == SplitRole::Train) {
            train << it.id;
            groups << it.group;
        }
    const QStringList distinct(QSet<QString>(groups.begin(), groups.end()).values());
    const bool byGroup = distinct.size() < groups.size();
    const QVector<int> folds = byGroup ? learn::groupFoldAssignment(groups, std::min(5, int(distinct.size())), 1)
                                       : learn::foldAssignment(int(train.size()), 5, 1);
    QCOMPARE(agg.value(QStringLiteral("cv_by_group")).toBool(), byGroup);
    QHash<QString, QHash<QString, double>> x;
    for (const CriterionScore &row : store.sampleScores(QStringLiteral("stacked")))
        x[row.itemId].insert(row.criterionKey, row.score);
    const QString csv = m_dir.filePath(QStringLiteral("stack.csv"));
    {
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QTextStream out(&f);
        out << "id,split,fold,human," << features.join(QLatin1Char(',')) << '\n';
        for (const QString &id : fx->project->itemIds()) {
            if (!x.contains(id))
                continue;
            const int t = int(train.indexOf(id));
            out << id << ',' << (t >= 0 ? "train" : "test") << ',' << (t >= 0 ? folds[t] : -1) << ','
                << QString::number(human.value(id), 'g', 17);
            for (const QString &c : features)
                out << ',' << QString::number(x[id].value(c), 'g', 17);
            out << '\n';
        }
    }
    QProcess p;
    p.start(py, {QStringLiteral(RUBRIC_SOURCE_DIR "/tests/methods/stack_reference.py"), csv, QStringLiteral("2.5")});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    const QJsonObject ref = QJsonDocument::fromJson(p.readAllStandardOutput()).object();

    const QVariantMap model = agg.value(QStringLiteral("aspects")).toMap().value(QStringLiteral("coherence")).toMap();
    QVERIFY2(std::abs(model.value(QStringLiteral("intercept")).toDouble()
                      - ref.value(QLatin1String("intercept")).toDouble())
                     < 1e-6,
             qPrintable(QStringLiteral("intercept %1 vs sklearn %2")
                                .arg(model.value(QStringLiteral("intercept")).toDouble())
                                .arg(ref.value(QLatin1String("intercept")).toDouble())));
    const QVariantMap weights = model.value(QStringLiteral("weights")).toMap();
    for (const QString &c : features)
        QVERIFY2(std::abs(weights.value(c).toDouble()
                          - ref.value(QLatin1String("weights")).toObject().value(c).toDouble())
                         < 1e-6,
                 qPrintable(QStringLiteral("%1: %2 vs sklearn %3")
                                    .arg(c)
                                    .arg(weights.value(c).toDouble())
                                    .arg(ref.value(QLatin1String("weights")).toObject().value(c).toDouble())));
    QVERIFY(std::abs(agg.value(QStringLiteral("train_r")).toDouble() - ref.value(QLatin1String("train_r")).toDouble())
            < 1e-9);
    QVERIFY2(std::abs(agg.value(QStringLiteral("cv_r")).toDouble() - ref.value(QLatin1String("cv_r")).toDouble())
                     < 1e-9,
             qPrintable(QStringLiteral("cv r %1 vs sklearn %2")
                                .arg(agg.value(QStringLiteral("cv_r")).toDouble())
                                .arg(ref.value(QLatin1String("cv_r")).toDouble())));
    // Every stored judge score is the reference's prediction; the train and test items are scored.
    const QHash<QString, double> stored
            = fx->project->judgeScores(QStringLiteral("stacked"), QStringLiteral("coherence"));
    QCOMPARE(stored.size(), int(fx->project->itemIds().size()));
    const QJsonObject predictions = ref.value(QLatin1String("predictions")).toObject();
    for (auto it = stored.begin(); it != stored.end(); ++it)
        QVERIFY2(std::abs(it.value() - predictions.value(it.key()).toDouble()) < 1e-6, qPrintable(it.key()));
    // The Compare pane's figure (the test alignment) is recorded like any judge's.
    const auto versions = store.versions(QStringLiteral("stacked"));
    QVERIFY(!versions.isEmpty() && versions.last().testAlignment.has_value());
}

void TestStackMethod::refusesCriterionWithoutScores()
{
    auto fx = project(QStringLiteral("refuse.rubric"), false); // judge c never asked 3 train items
    QVERIFY(fx);
    RunSpec s = stackSpec(QStringLiteral("stacked"));
    s.settings.insert(QStringLiteral("criteria"), QStringLiteral("g/aspect, c/q2"));
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("'c/q2' has no score on 3 of the 30 train items")), qPrintable(o.error));
    QVERIFY2(!o.error.contains(QLatin1String("g/aspect")), qPrintable(o.error));
    QVERIFY(!fx->project->judge(QStringLiteral("stacked")).has_value()); // refused before anything was recorded
    // Left out, the rest stacks.
    s.settings.insert(QStringLiteral("criteria"), QStringLiteral("g/aspect,g/score"));
    const Outcome ok = runToEnd(fx->project.get(), s);
    QVERIFY2(ok.ok, qPrintable(ok.error));
    // An unknown name is refused with the names there are.
    s.judge = QStringLiteral("stacked2");
    s.settings.insert(QStringLiteral("criteria"), QStringLiteral("g/nothing"));
    const Outcome unknown = runToEnd(fx->project.get(), s);
    QVERIFY(!unknown.ok);
    QVERIFY2(unknown.error.contains(QLatin1String("no criterion 'g/nothing'")), qPrintable(unknown.error));
}

void TestStackMethod::explainAddsUp()
{
    auto fx = project(QStringLiteral("explain.rubric"));
    QVERIFY(fx);
    const Outcome o = runToEnd(fx->project.get(), stackSpec(QStringLiteral("stacked")));
    QVERIFY2(o.ok, qPrintable(o.error));
    const QString item = fx->testIds.first();
    auto e = stack::explainItem(fx->project.get(), QStringLiteral("stacked"), item);
    QVERIFY2(e.ok(), qPrintable(e.errorString()));
    QCOMPARE(e->parts.size(), 7);
    double sum = e->base;
    for (const stack::CriterionPart &c : e->parts)
        sum += c.contribution;
    QVERIFY(std::abs(sum - e->stored) < 1e-9);
    QVERIFY(std::abs(e->prediction - e->stored) < 1e-9);
    QVERIFY(std::abs(e->parts.first().contribution) >= std::abs(e->parts.last().contribution));
    QVERIFY(!e->parts.first().judge.isEmpty());
    // Through the CLI, criterion by criterion.
    if (qEnvironmentVariableIsEmpty("RUBRIC_CLI"))
        return;
    QProcess p;
    p.start(qEnvironmentVariable("RUBRIC_CLI"),
            {QStringLiteral("explain"), QStringLiteral("--project"), fx->project->path(), QStringLiteral("--judge"),
             QStringLiteral("stacked"), QStringLiteral("--item"), item});
    QVERIFY(p.waitForFinished(60000));
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY2(out.contains(QLatin1String("stacked, ridge aggregator")) && out.contains(QLatin1String("c/q1")),
             qPrintable(out));
}

QTEST_GUILESS_MAIN(TestStackMethod)
#include "TestStackMethod.moc"
