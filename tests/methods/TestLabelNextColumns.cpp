// "Label next by expected gain" reads columns (readGainColumns: ids, the aspect's
// human means, the judges' scores) instead of every item's row, the split and a string-keyed table
// per judge. This test keeps the old reads, written out here from the store's row readers, and
// checks that the new path gives the same state bit for bit: the same labelled rows, features,
// cross-validated r, suggestion, spread, density and ranking.

#include "PipelineFixture.h"
#include "StackFixture.h"
#include "learn/CrossValidation.h"
#include "methods/JudgeFeatures.h"
#include "methods/LabelNext.h"
#include "store/RubricStore.h"

#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>

using namespace rubric;
using namespace rubric::test;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool sameBits(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

/// The computation as it read the store before the columns: every item row, the split and the
/// human scores by external id, and readJudgeFeatures' table. The fit is the same learn:: code.
Result<LabelNextState> oldPath(Project *project, const QString &aspect)
{
    const learn::AcquisitionSettings settings;
    auto features = availableJudgeFeatures(project, aspect);
    if (!features)
        return features.error();
    features->removeIf([](const JudgeFeature &f) { return f.fitted; });
    auto items = project->readItemRows();
    auto split = project->readSplit();
    auto human = project->readHumanScores(aspect);
    if (!items || !split || !human)
        return makeError(QStringLiteral("cannot read"));
    QStringList ids;
    for (const ItemRow &it : std::as_const(*items))
        if (split->value(it.id) != SplitRole::Test)
            ids << it.id;
    auto table = readJudgeFeatures(project, aspect, *features, ids);
    if (!table)
        return table.error();
    QVector<int> labelled;
    Eigen::VectorXd y(ids.size());
    for (int r = 0; r < ids.size(); ++r) {
        y[r] = human->value(ids[r], kNaN);
        if (std::isfinite(y[r]))
            labelled.append(r);
    }
    const QVector<JudgeFeature> usable = usableFeatures(*table, labelled);
    if (usable.isEmpty() || labelled.size() < 3)
        return makeError(QStringLiteral("too few"));
    Eigen::MatrixXd x(ids.size(), usable.size());
    QSet<QString> judges;
    for (int c = 0; c < usable.size(); ++c) {
        x.col(c) = table->x.col(int(table->features.indexOf(usable[c])));
        judges.insert(usable[c].judge);
    }
    LabelNextState state;
    state.labelled = int(labelled.size());
    state.features = int(usable.size());
    state.judges = int(judges.size());
    Eigen::MatrixXd xl(labelled.size(), usable.size()), yl(labelled.size(), 1);
    for (int i = 0; i < labelled.size(); ++i) {
        xl.row(i) = x.row(labelled[i]);
        yl(i, 0) = y[labelled[i]];
    }
    learn::CvSettings cv;
    cv.folds = std::min(5, int(labelled.size()));
    cv.seed = settings.seed;
    state.cv = QStringLiteral("%1-fold").arg(cv.folds);
    state.cvR = kNaN;
    if (auto validated = learn::crossValidate(settings.aggregator, xl, yl, cv); validated)
        state.cvR = validated->cvR.value(0, kNaN);
    QVector<int> rows;
    for (int r = 0; r < ids.size(); ++r)
        if (std::isfinite(y[r]) || x.row(r).array().isFinite().any())
            rows.append(r);
    Eigen::MatrixXd xr(rows.size(), usable.size());
    Eigen::VectorXd yr(rows.size());
    for (int i = 0; i < rows.size(); ++i) {
        xr.row(i) = x.row(rows[i]);
        yr[i] = y[rows[i]];
    }
    auto ranked = learn::rankByExpectedGain(xr, yr, settings);
    if (!ranked)
        return ranked.error();
    for (const learn::AcquisitionScore &s : std::as_const(*ranked))
        state.next.ranked << ids[rows[s.row]];
    if (!ranked->isEmpty()) {
        state.next.item = ids[rows[ranked->first().row]];
        state.next.spread = ranked->first().spread;
        state.next.density = ranked->first().density;
    }
    return state;
}

} // namespace

class TestLabelNextColumns : public QObject
{
    Q_OBJECT
private slots:
    void columnsGiveTheOldState();
    void columnsMatchTheStore();

private:
    std::unique_ptr<Fixture> judged(const QString &name);
    QTemporaryDir m_dir;
};

std::unique_ptr<Fixture> TestLabelNextColumns::judged(const QString &name)
{
    auto fx = makeProject(m_dir.filePath(name), 12);
    if (!fx)
        return nullptr;
    Project &p = *fx->project;
    const QStringList all = p.itemIds();
    // Two judges (a judge score and three yes/no criteria), one that scored only part of the items.
    if (!addJudge(p, QStringLiteral("g"), QStringLiteral("geval"), {QStringLiteral("aspect")}, all, false)
        || !addJudge(p, QStringLiteral("c"), QStringLiteral("checkeval"),
                     {QStringLiteral("q1"), QStringLiteral("q2"), QStringLiteral("q3")}, all.mid(0, 25), true))
        return nullptr;
    const QStringList train = p.itemIds(SplitFilter::Train);
    // Ten train items without a label (the candidates), a second annotator on five others (the mean
    // of two), and a criterion with a second sample, one of them unscored.
    for (int i = 0; i < 10; ++i)
        if (!p.removeAnnotation(train[i], QStringLiteral("coherence"), QStringLiteral("experts")))
            return nullptr;
    for (int i = 10; i < 15; ++i)
        if (!p.setAnnotationScore(train[i], QStringLiteral("coherence"), QStringLiteral("second"), 1.0 + i % 5,
                                  std::nullopt))
            return nullptr;
    QVector<CriterionScore> extra;
    for (int i = 0; i < 6; ++i) {
        CriterionScore s;
        s.itemId = train[i];
        s.criterionKey = QStringLiteral("q2");
        s.sample = 1;
        s.score = i == 3 ? kNaN : double(i % 2);
        s.parseStatus = i == 3 ? QStringLiteral("unparsed") : QStringLiteral("ok");
        extra.append(s);
    }
    if (!RubricStore(&p).writeCriterionScores(QStringLiteral("c"), extra).ok())
        return nullptr;
    return fx;
}

void TestLabelNextColumns::columnsGiveTheOldState()
{
    auto fx = judged(QStringLiteral("gain.rubric"));
    QVERIFY(fx);
    const auto before = oldPath(fx->project.get(), QStringLiteral("coherence"));
    const auto now = labelNextByExpectedGain(fx->project.get(), QStringLiteral("coherence"));
    QVERIFY2(before, qPrintable(before.errorString()));
    QVERIFY2(now, qPrintable(now.errorString()));
    QCOMPARE(now->labelled, 20);
    QCOMPARE(now->labelled, before->labelled);
    QCOMPARE(now->features, before->features);
    QVERIFY(now->features >= 4); // g's score, c's q1…q3 and its score
    QCOMPARE(now->judges, before->judges);
    QCOMPARE(now->cv, before->cv);
    QVERIFY2(sameBits(now->cvR, before->cvR), qPrintable(QStringLiteral("%1 vs %2").arg(now->cvR).arg(before->cvR)));
    QCOMPARE(now->next.ranked, before->next.ranked);
    QCOMPARE(now->next.ranked.size(), 10);
    QCOMPARE(now->next.item, before->next.item);
    QVERIFY(sameBits(now->next.spread, before->next.spread));
    QVERIFY(sameBits(now->next.density, before->next.density));
}

void TestLabelNextColumns::columnsMatchTheStore()
{
    // The columns themselves, against the row readers: ids in import order without the test split,
    // the human mean, the judge's score and a criterion's mean of its scored samples.
    auto fx = judged(QStringLiteral("columns.rubric"));
    QVERIFY(fx);
    Project &p = *fx->project;
    JudgeFeature g, q2Feature;
    g.judge = QStringLiteral("g");
    q2Feature.judge = QStringLiteral("c");
    q2Feature.criterionKey = QStringLiteral("q2");
    auto columns = readGainColumns(&p, QStringLiteral("coherence"), {g, q2Feature});
    QVERIFY2(columns, qPrintable(columns.errorString()));
    const QStringList train = p.itemIds(SplitFilter::Train);
    QCOMPARE(columns->ids, train); // no unassigned items in this project: the train split
    const QHash<QString, double> human = p.humanScores(QStringLiteral("coherence"));
    const QHash<QString, double> judge = p.judgeScores(QStringLiteral("g"), QStringLiteral("coherence"));
    QHash<QString, double> q2;
    for (const ItemCriterionScores &s : RubricStore(&p).criterionScores(QStringLiteral("c")))
        if (s.criterionKey == QLatin1String("q2"))
            q2.insert(s.itemId, s.mean);
    for (int r = 0; r < train.size(); ++r) {
        const QString &id = train[r];
        QVERIFY(sameBits(columns->y[r], human.value(id, kNaN)));
        QVERIFY(sameBits(columns->x(r, 0), judge.value(id, kNaN)));
        QVERIFY2(sameBits(columns->x(r, 1), q2.value(id, kNaN)),
                 qPrintable(QStringLiteral("%1: %2 vs %3").arg(id).arg(columns->x(r, 1)).arg(q2.value(id, kNaN))));
    }
    QCOMPARE(columns->y[10], (human.value(train[10])));   // the mean of two annotators
    QVERIFY(std::isnan(columns->y[0]));                   // unlabelled
    QVERIFY(std::isnan(columns->x(train.size() - 1, 1))); // c did not score it
}

QTEST_GUILESS_MAIN(TestLabelNextColumns)
#include "TestLabelNextColumns.moc"
