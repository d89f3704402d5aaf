// CheckEval question analytics (yes-rate, point-biserial r, constant and near-duplicate
// questions) and agreement between judges on one checklist, against reference values computed
// independently in Python (tests/methods/make_checkeval_reference.py → checkeval_reference.json).
#include "ChecklistFixture.h"
#include "methods/checkeval/AnswerImport.h"
#include "methods/checkeval/CheckEvalMethod.h"
#include "methods/checkeval/Checklist.h"
#include "methods/checkeval/ChecklistAnswers.h"
#include "methods/checkeval/ChecklistIo.h"
#include "methods/checkeval/QuestionAgreement.h"
#include "methods/checkeval/QuestionAnalytics.h"
#include "methods/checkeval/QuestionSimilarity.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

namespace {

void compareNumber(const QJsonValue &expected, double actual, const char *what)
{
    if (expected.isNull()) {
        QVERIFY2(std::isnan(actual), what);
    } else {
        QVERIFY2(std::abs(actual - expected.toDouble()) < 1e-12,
                 qPrintable(
                         QStringLiteral("%1: %2 vs %3").arg(QLatin1String(what)).arg(actual).arg(expected.toDouble())));
    }
}

} // namespace

class TestQuestionAnalytics : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void pointBiserialMatchesScipy();
    void edgeCasesSayWhyThereIsNoCorrelation();
    void nearDuplicates();
    void nearDuplicatesOnTheLabels();
    void writesStatsPerContract();
    void agreementMatchesReference();
    void agreementOnRestrictedItems();
    void agreementRefusesDifferentChecklists();
    void agreementFromProject();
    void statsForAJudgeSurviveTheStore();
    void disabledSubAspectIsNotAskedCountedOrCompared();
    void agreementRefusesDifferentPolarity();
    void importedAnswersAgreeLikeRunAnswers();

private:
    QJsonObject m_ref;
};

void TestQuestionAnalytics::initTestCase()
{
    m_ref = checklistReference();
    QVERIFY2(!m_ref.isEmpty(), "tests/methods/checkeval_reference.json is missing");
}

void TestQuestionAnalytics::pointBiserialMatchesScipy()
{
    const Rubric r = fixtureChecklist();
    const QVector<QuestionAnswers> answers
            = QuestionAnalytics::answersFromScores(r, fixtureScores(m_ref, QStringLiteral("J1")));
    QHash<QString, double> human;
    const QJsonObject h = m_ref.value(QStringLiteral("human")).toObject();
    for (auto it = h.begin(); it != h.end(); ++it)
        human.insert(it.key(), it.value().toDouble());
    const QVector<QuestionStats> stats = QuestionAnalytics::analyse(answers, human);
    QCOMPARE(stats.size(), 6);
    const QJsonObject exp = m_ref.value(QStringLiteral("analytics")).toObject();
    for (const QuestionStats &s : stats) {
        const QJsonObject e = exp.value(s.key).toObject();
        QCOMPARE(s.answered, e.value(QStringLiteral("answered")).toInt());
        compareNumber(e.value(QStringLiteral("yes_rate")), s.yesRate, "yes_rate");
        compareNumber(e.value(QStringLiteral("point_biserial")), s.discrimination, "point-biserial");
        QCOMPARE(s.constant, e.value(QStringLiteral("constant")).toString());
        QCOMPARE(s.correlationN, s.answered);
        QCOMPARE(s.note.isEmpty(), !std::isnan(s.discrimination));
    }
    QCOMPARE(stats.at(5).constant, QStringLiteral("yes"));
    QVERIFY(stats.at(5).note.contains(QStringLiteral("constant")));
}

void TestQuestionAnalytics::edgeCasesSayWhyThereIsNoCorrelation()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const QHash<QString, double> human{{QStringLiteral("a"), 1}, {QStringLiteral("b"), 2}, {QStringLiteral("c"), 3}};
    const QVector<QuestionStats> s = QuestionAnalytics::analyse(
            {{QStringLiteral("none"), {{QStringLiteral("a"), nan}}},
             {QStringLiteral("no"), {{QStringLiteral("a"), 0}, {QStringLiteral("b"), 0}}},
             {QStringLiteral("one"), {{QStringLiteral("a"), 1}, {QStringLiteral("x"), 0}}},
             {QStringLiteral("perfect"),
              {{QStringLiteral("a"), 0}, {QStringLiteral("b"), 1}, {QStringLiteral("c"), 1}}}},
            human);
    QCOMPARE(s.at(0).answered, 0);
    QVERIFY(std::isnan(s.at(0).yesRate));
    QCOMPARE(s.at(0).note, QStringLiteral("no answers"));
    QCOMPARE(s.at(1).constant, QStringLiteral("no"));
    QCOMPARE(s.at(1).yesRate, 0.0);
    QVERIFY(std::isnan(s.at(1).discrimination));
    // "x" has no human score: one pair left.
    QCOMPARE(s.at(2).answered, 2);
    QCOMPARE(s.at(2).correlationN, 1);
    QVERIFY(std::isnan(s.at(2).discrimination));
    QVERIFY(s.at(2).note.contains(QStringLiteral("fewer than two")));
    // scipy.stats.pointbiserialr([0, 1, 1], [1, 2, 3]) = 0.8660254037844387
    QVERIFY(std::abs(s.at(3).discrimination - 0.8660254037844387) < 1e-12);
}

void TestQuestionAnalytics::nearDuplicates()
{
    Rubric r = fixtureChecklist();
    // A rewording (one word changed), and an exact duplicate up to case and punctuation.
    r.add({QStringLiteral("q7"), QStringLiteral("s1"), CriterionKind::Question,
           QStringLiteral("Is the order of the ideas sensible?")});
    r.add({QStringLiteral("q8"), QStringLiteral("s2"), CriterionKind::Question,
           QStringLiteral("are the names spelled as in the source")});
    const QVector<NearDuplicate> d = QuestionAnalytics::nearDuplicates(r);
    QCOMPARE(d.size(), 2);
    QCOMPARE(d.at(0).first, QStringLiteral("q1"));
    QCOMPARE(d.at(0).second, QStringLiteral("q7"));
    QCOMPARE(d.at(0).identical, false);
    // tests/methods/checkeval_near_duplicates_calibrate.py's functions on these eight questions
    QVERIFY2(std::abs(d.at(0).similarity - 0.5687924721470283) < 1e-12,
             qPrintable(QString::number(d.at(0).similarity, 'g', 17)));
    QCOMPARE(d.at(1).first, QStringLiteral("q5"));
    QCOMPARE(d.at(1).second, QStringLiteral("q8"));
    QCOMPARE(d.at(1).identical, true);
    QCOMPARE(QuestionAnalytics::jaccard(QStringLiteral("a b c"), QStringLiteral("c d")), 0.25);
    QCOMPARE(QuestionSimilarity::contentStems(QStringLiteral("Are the sentences flowing smoothly?")),
             (QStringList{QStringLiteral("sentenc"), QStringLiteral("flow"), QStringLiteral("smooth")}));
}

void TestQuestionAnalytics::nearDuplicatesOnTheLabels()
{
    // Issue 30: the flag on the published checklists against hand labels
    // (tests/methods/checkeval_near_duplicates.tsv; a pair not listed is not a near duplicate).
    // The counts equal those of tests/methods/checkeval_near_duplicates_calibrate.py.
    QFile f(QStringLiteral(RUBRIC_SOURCE_DIR "/tests/methods/checkeval_near_duplicates.tsv"));
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    QSet<QString> positives; // "dataset/aspect|a|b" with a < b, normalised
    auto key = [](const QString &aspect, QString a, QString b) -> QString {
        a = Checklist::normaliseQuestion(a);
        b = Checklist::normaliseQuestion(b);
        if (b < a)
            std::swap(a, b);
        return aspect + QLatin1Char('|') + a + QLatin1Char('|') + b;
    };
    int listed = 0;
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.startsWith(QLatin1Char('#')) || line.trimmed().isEmpty())
            continue;
        const QStringList c = line.split(QLatin1Char('\t'));
        QCOMPARE(c.size(), 4);
        ++listed;
        if (c.at(1) == QLatin1String("1"))
            positives.insert(key(c.at(0), c.at(2), c.at(3)));
    }
    QCOMPARE(listed, 199);
    QCOMPARE(positives.size(), 37);
    int tp = 0, fp = 0, questions = 0;
    QSet<QString> found;
    for (const QString &name : ChecklistIo::presetNames()) {
        if (name.count(QLatin1Char('/')) != 1)
            continue;
        const auto p = ChecklistIo::preset(name);
        QVERIFY(p);
        questions += int(p->ofKind(CriterionKind::Question).size());
        for (const NearDuplicate &n : QuestionAnalytics::nearDuplicates(*p)) {
            const Criterion *a = p->find(n.first);
            const Criterion *b = p->find(n.second);
            QVERIFY2(a && b, qPrintable(n.first + QLatin1Char(' ') + n.second));
            const QString k = key(name, a->text, b->text);
            if (positives.contains(k)) {
                ++tp;
                found.insert(k);
            } else {
                ++fp;
            }
        }
    }
    const int fn = int(positives.size()) - int(found.size());
    const double precision = double(tp) / (tp + fp), recall = double(tp) / positives.size();
    qInfo("near-duplicate flag on the %d published questions: %d flagged, %d labelled near duplicates; tp %d fp %d "
          "fn %d, precision %.3f, recall %.3f",
          questions, tp + fp, int(positives.size()), tp, fp, fn, precision, recall);
    QCOMPARE(tp, 20);
    QCOMPARE(fp, 56);
    QCOMPARE(fn, 17);
}

void TestQuestionAnalytics::writesStatsPerContract()
{
    Rubric r = fixtureChecklist();
    r.add({QStringLiteral("q7"), QStringLiteral("s1"), CriterionKind::Question,
           QStringLiteral("Is the order of the ideas logical?")});
    r.find(QStringLiteral("q2"))->stats
            = {{QStringLiteral("constant"), QStringLiteral("no")}, {QStringLiteral("train_pearson"), 0.3}};
    QVector<QuestionStats> stats(3);
    stats[0].key = QStringLiteral("q1");
    stats[0].answered = 10;
    stats[0].yesRate = 0.4;
    stats[0].discrimination = 0.25;
    stats[1].key = QStringLiteral("q2");
    stats[1].answered = 8;
    stats[1].yesRate = 1.0;
    stats[1].constant = QStringLiteral("yes");
    stats[2].key = QStringLiteral("q3");
    QuestionAnalytics::writeStats(r, stats, QuestionAnalytics::nearDuplicates(r));
    QCOMPARE(r.find(QStringLiteral("q1"))->stats, (QVariantMap{{QStringLiteral("answered"), 10},
                                                               {QStringLiteral("yes_rate"), 0.4},
                                                               {QStringLiteral("discrimination"), 0.25}}));
    // The old "constant" is replaced, a key of another method stays, no NaN is written.
    QCOMPARE(r.find(QStringLiteral("q2"))->stats, (QVariantMap{{QStringLiteral("answered"), 8},
                                                               {QStringLiteral("yes_rate"), 1.0},
                                                               {QStringLiteral("constant"), QStringLiteral("yes")},
                                                               {QStringLiteral("train_pearson"), 0.3}}));
    QCOMPARE(r.find(QStringLiteral("q3"))->stats, (QVariantMap{{QStringLiteral("answered"), 0}}));
    QCOMPARE(r.find(QStringLiteral("q7"))->stats,
             (QVariantMap{{QStringLiteral("near_duplicate_of"), QStringLiteral("q1")}}));
    QVERIFY(r.find(QStringLiteral("s1"))->stats.isEmpty());
}

void TestQuestionAnalytics::agreementMatchesReference()
{
    QVector<JudgeChecklist> judges;
    for (const QString &j : {QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")})
        judges.append({j, fixtureChecklist(), fixtureScores(m_ref, j)});
    const auto a = QuestionAgreement::compute(judges);
    QVERIFY2(a, qPrintable(a.errorString()));
    const QJsonObject exp = m_ref.value(QStringLiteral("agreement")).toObject();
    compareNumber(exp.value(QStringLiteral("alpha")), a->overall.alpha, "alpha");
    compareNumber(exp.value(QStringLiteral("kappa")), a->overall.kappa, "kappa");
    QCOMPARE(a->overall.pairs, exp.value(QStringLiteral("pairs")).toInt());
    QCOMPARE(a->overall.kappaUnits, exp.value(QStringLiteral("kappa_units")).toInt());
    QCOMPARE(a->questions, 6);
    QCOMPARE(a->judges, (QStringList{QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")}));
    QCOMPARE(a->perSubAspect.size(), 2);
    QCOMPARE(a->perSubAspect.at(0).name, QStringLiteral("Flow"));
    QCOMPARE(a->perSubAspect.at(1).name, QStringLiteral("Facts"));
    for (const SubAspectAgreement &s : a->perSubAspect) {
        const QJsonObject e = exp.value(QStringLiteral("per_sub_aspect")).toObject().value(s.name).toObject();
        compareNumber(e.value(QStringLiteral("alpha")), s.figures.alpha, "sub alpha");
        compareNumber(e.value(QStringLiteral("kappa")), s.figures.kappa, "sub kappa");
        QCOMPARE(s.figures.pairs, e.value(QStringLiteral("pairs")).toInt());
        QCOMPARE(s.figures.kappaUnits, e.value(QStringLiteral("kappa_units")).toInt());
    }
    QCOMPARE(a->disagreements.size(), 6);
    const QJsonObject shares = exp.value(QStringLiteral("disagreements")).toObject();
    for (int i = 0; i < a->disagreements.size(); ++i) {
        const QuestionDisagreement &d = a->disagreements.at(i);
        const QJsonObject e = shares.value(d.key).toObject();
        compareNumber(e.value(QStringLiteral("share")), d.share, "share");
        QCOMPARE(d.items, e.value(QStringLiteral("items")).toInt());
        QCOMPARE(d.subAspect, d.key.mid(1).toInt() <= 3 ? QStringLiteral("Flow") : QStringLiteral("Facts"));
        QCOMPARE(d.text, fixtureChecklist().find(d.key)->text);
        if (i > 0)
            QVERIFY(a->disagreements.at(i - 1).share >= d.share);
    }
    QCOMPARE(a->disagreements.first().key, QStringLiteral("q6"));
}

void TestQuestionAnalytics::agreementOnRestrictedItems()
{
    // Two judges, four items: on q1 they agree everywhere, on q2 they differ on one of three.
    Rubric r = fixtureChecklist();
    const auto score = [](const char *item, const char *q, double v) {
        return CriterionScore{QString::fromLatin1(item), QString::fromLatin1(q), 0, v, QStringLiteral("ok")};
    };
    const QVector<CriterionScore> a{score("a", "q1", 1), score("b", "q1", 0), score("c", "q1", 1), score("a", "q2", 1),
                                    score("b", "q2", 1), score("c", "q2", 0), score("d", "q2", 0)};
    const QVector<CriterionScore> b{score("a", "q1", 1), score("b", "q1", 0), score("c", "q1", 1), score("a", "q2", 1),
                                    score("b", "q2", 0), score("c", "q2", 0), score("d", "q2", 1)};
    const auto all = QuestionAgreement::compute({{QStringLiteral("A"), r, a}, {QStringLiteral("B"), r, b}});
    QVERIFY(all);
    QCOMPARE(all->overall.pairs, 7);
    QCOMPARE(all->disagreements.first().key, QStringLiteral("q2"));
    QCOMPARE(all->disagreements.first().share, 0.5);
    QCOMPARE(all->disagreements.last().share, 0.0);
    const auto some = QuestionAgreement::compute({{QStringLiteral("A"), r, a}, {QStringLiteral("B"), r, b}},
                                                 {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
    QVERIFY(some);
    QCOMPARE(some->overall.pairs, 6);
    QCOMPARE(some->disagreements.first().share, 1.0 / 3.0);
    // Hand-computed nominal alpha on these 6 units: o(0,0)=4, o(1,1)=6, o(0,1)=o(1,0)=1, n=12,
    // n0=5, n1=7: alpha = 1 - 11 * 2 / (2 * 5 * 7) = 1 - 22/70.
    QVERIFY(std::abs(some->overall.alpha - (1.0 - 22.0 / 70.0)) < 1e-12);
}

void TestQuestionAnalytics::agreementRefusesDifferentChecklists()
{
    const Rubric r = fixtureChecklist();
    Rubric reworded = r;
    reworded.find(QStringLiteral("q4"))->text = QStringLiteral("Are all numbers right?");
    auto e = QuestionAgreement::compute({{QStringLiteral("J1"), r, {}}, {QStringLiteral("J2"), reworded, {}}});
    QVERIFY(!e);
    QVERIFY2(e.errorString().contains(QStringLiteral("judge 'J2' asks \"Are all numbers right?\"")),
             qPrintable(e.errorString()));
    QCOMPARE(e.error().field, QStringLiteral("q4"));

    Rubric fewer = r;
    fewer.find(QStringLiteral("q6"))->enabled = false;
    e = QuestionAgreement::compute({{QStringLiteral("J1"), r, {}}, {QStringLiteral("J2"), fewer, {}}});
    QVERIFY(!e);
    QVERIFY2(e.errorString().contains(QStringLiteral("judge 'J2' has no (enabled) question q6")),
             qPrintable(e.errorString()));
    e = QuestionAgreement::compute({{QStringLiteral("J1"), fewer, {}}, {QStringLiteral("J2"), r, {}}});
    QVERIFY(!e);
    QVERIFY2(e.errorString().contains(QStringLiteral("judge 'J2' has question q6")), qPrintable(e.errorString()));
    e = QuestionAgreement::compute({{QStringLiteral("J1"), r, {}}});
    QVERIFY(!e);
    QVERIFY(e.errorString().contains(QStringLiteral("at least two judges")));
}

void TestQuestionAnalytics::agreementFromProject()
{
    QTemporaryDir dir;
    auto p = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY2(p, qPrintable(p.errorString()));
    Project &project = **p;
    QVERIFY(project.upsertAspect({QStringLiteral("coherence"), QStringLiteral("d"), 1, 5}));
    QVector<Item> items;
    const QJsonArray ids = m_ref.value(QStringLiteral("items")).toArray();
    for (int i = 0; i < ids.size(); ++i) {
        Item it;
        it.id = ids.at(i).toString();
        it.output = QStringLiteral("summary %1").arg(i);
        it.position = i;
        items.append(it);
    }
    QVERIFY(project.addItems(items));
    RubricStore store(&project);
    for (const QString &j : {QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")}) {
        QVERIFY(project.ensureJudge(j, QStringLiteral("checkeval")));
        QVERIFY(store.saveVersion(j, fixtureChecklist()));
        QVERIFY(store.writeCriterionScores(j, fixtureScores(m_ref, j)));
    }
    QVERIFY(project.ensureJudge(QStringLiteral("G"), QStringLiteral("geval")));
    const auto a = QuestionAgreement::fromProject(project, QStringLiteral("coherence"),
                                                  {QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")});
    QVERIFY2(a, qPrintable(a.errorString()));
    compareNumber(m_ref.value(QStringLiteral("agreement")).toObject().value(QStringLiteral("alpha")), a->overall.alpha,
                  "alpha from project");
    const auto wrongAspect = QuestionAgreement::fromProject(project, QStringLiteral("fluency"),
                                                            {QStringLiteral("J1"), QStringLiteral("J2")});
    QVERIFY(!wrongAspect);
    QVERIFY(wrongAspect.errorString().contains(QStringLiteral("judge 'J1' scores aspect 'coherence', not 'fluency'")));
    const auto noRubric = QuestionAgreement::fromProject(project, QStringLiteral("coherence"),
                                                         {QStringLiteral("J1"), QStringLiteral("G")});
    QVERIFY(!noRubric);
    QVERIFY(noRubric.errorString().contains(QStringLiteral("judge 'G' has no checklist")));
    const auto unknown = QuestionAgreement::fromProject(project, QStringLiteral("coherence"),
                                                        {QStringLiteral("J1"), QStringLiteral("nobody")});
    QVERIFY(!unknown);
    QVERIFY(unknown.errorString().contains(QStringLiteral("no judge named 'nobody'")));
}

void TestQuestionAnalytics::statsForAJudgeSurviveTheStore()
{
    QTemporaryDir dir;
    auto p = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY2(p, qPrintable(p.errorString()));
    Project &project = **p;
    QVERIFY(project.upsertAspect({QStringLiteral("coherence"), QStringLiteral("d"), 1, 5}));
    QVector<Item> items;
    QVector<Annotation> ann;
    const QJsonArray ids = m_ref.value(QStringLiteral("items")).toArray();
    const QJsonObject human = m_ref.value(QStringLiteral("human")).toObject();
    for (int i = 0; i < ids.size(); ++i) {
        Item it;
        it.id = ids.at(i).toString();
        it.output = QStringLiteral("summary %1").arg(i);
        it.position = i;
        items.append(it);
        ann.append({it.id, QStringLiteral("coherence"), QStringLiteral("a1"), human.value(it.id).toDouble(), {}, {}});
    }
    QVERIFY(project.addItems(items));
    QVERIFY(project.addAnnotations(ann));
    RubricStore store(&project);
    QVERIFY(project.ensureJudge(QStringLiteral("J1"), QStringLiteral("checkeval")));
    QVERIFY(store.saveVersion(QStringLiteral("J1"), fixtureChecklist()));
    QVERIFY(store.writeCriterionScores(QStringLiteral("J1"), fixtureScores(m_ref, QStringLiteral("J1"))));

    const auto r = QuestionAnalytics::forJudge(project, QStringLiteral("J1"));
    QVERIFY2(r, qPrintable(r.errorString()));
    QCOMPARE(*store.saveVersion(QStringLiteral("J1"), *r, QStringLiteral("question stats")), 2);
    const auto back = store.load(QStringLiteral("J1"));
    QVERIFY(back);
    const QJsonObject exp = m_ref.value(QStringLiteral("analytics")).toObject();
    for (const Criterion &q : back->ofKind(CriterionKind::Question)) {
        const QJsonObject e = exp.value(q.key).toObject();
        QCOMPARE(q.stats.value(QStringLiteral("answered")).toInt(), e.value(QStringLiteral("answered")).toInt());
        compareNumber(e.value(QStringLiteral("yes_rate")), q.stats.value(QStringLiteral("yes_rate")).toDouble(),
                      "yes_rate");
        const QVariant d = q.stats.value(QStringLiteral("discrimination"));
        compareNumber(e.value(QStringLiteral("point_biserial")), d.isValid() ? d.toDouble() : std::nan(""),
                      "discrimination");
        QCOMPARE(q.stats.value(QStringLiteral("constant")).toString(), e.value(QStringLiteral("constant")).toString());
        QVERIFY(!q.stats.contains(QStringLiteral("near_duplicate_of")));
    }
    // On the first 10 items only, fewer answers.
    QStringList first;
    for (int i = 0; i < 10; ++i)
        first << ids.at(i).toString();
    const auto part = QuestionAnalytics::forJudge(project, QStringLiteral("J1"), first);
    QVERIFY(part);
    QVERIFY(part->find(QStringLiteral("q1"))->stats.value(QStringLiteral("answered")).toInt() <= 10);
    QVERIFY(!QuestionAnalytics::forJudge(project, QStringLiteral("nobody")));
}

void TestQuestionAnalytics::disabledSubAspectIsNotAskedCountedOrCompared()
{
    // Issue 30.4: "Facts" (s2) disabled with its questions left enabled: they are not asked (in
    // any grouping), not counted in the item score, and not compared between judges.
    Rubric r = fixtureChecklist();
    r.find(QStringLiteral("s2"))->enabled = false;
    const auto keysOf = [](const QVector<Criterion> &qs) {
        QStringList out;
        for (const Criterion &q : qs)
            out << q.key;
        return out;
    };
    const QStringList flow{QStringLiteral("q1"), QStringLiteral("q2"), QStringLiteral("q3")};
    QCOMPARE(keysOf(Checklist::askedQuestions(r)), flow);
    QVERIFY(!Checklist::isAsked(r, *r.find(QStringLiteral("q4"))));
    for (auto mode :
         {CheckEvalParams::Group::Aspect, CheckEvalParams::Group::SubAspect, CheckEvalParams::Group::Question}) {
        QStringList asked;
        for (const CheckEvalMethod::Group &g : CheckEvalMethod::groupsOf(r, mode))
            asked << keysOf(g.questions);
        QCOMPARE(asked, flow);
    }
    const QHash<QString, double> answers{{QStringLiteral("q1"), 1.0}, {QStringLiteral("q2"), 1.0},
                                         {QStringLiteral("q3"), 0.0}, {QStringLiteral("q4"), 0.0},
                                         {QStringLiteral("q5"), 0.0}, {QStringLiteral("q6"), 0.0}};
    const auto item = checkeval::scoreItem(r, answers, false);
    QCOMPARE(item.questions, 3);
    QCOMPARE(item.score, 2.0 / 3.0);
    QVector<JudgeChecklist> judges;
    for (const QString &j : {QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")})
        judges.append({j, r, fixtureScores(m_ref, j)});
    const auto a = QuestionAgreement::compute(judges);
    QVERIFY2(a, qPrintable(a.errorString()));
    QCOMPARE(a->questions, 3);
    QCOMPARE(a->perSubAspect.size(), 1);
    QCOMPARE(a->perSubAspect.first().name, QStringLiteral("Flow"));
    for (const QuestionDisagreement &d : a->disagreements)
        QVERIFY2(flow.contains(d.key), qPrintable(d.key));
    // the Flow-only figures equal those of the checklist without the Facts questions at all
    Rubric flowOnly = fixtureChecklist();
    for (const char *k : {"q4", "q5", "q6"})
        flowOnly.find(QString::fromLatin1(k))->enabled = false;
    QVector<JudgeChecklist> same;
    for (const JudgeChecklist &j : std::as_const(judges))
        same.append({j.judge, flowOnly, j.scores});
    const auto b = QuestionAgreement::compute(same);
    QVERIFY(b.ok());
    QCOMPARE(a->overall.alpha, b->overall.alpha);
    QCOMPARE(a->overall.kappa, b->overall.kappa);
    QVector<ItemCriterionScores> rows;
    for (const CriterionScore &s : fixtureScores(m_ref, QStringLiteral("J1")))
        if (s.sample == 0)
            rows.append({s.itemId, s.criterionKey, {s.score}, s.score, s.parseStatus});
    for (const auto &perItem : Checklist::subAspectShares(r, rows))
        QVERIFY(!perItem.contains(QStringLiteral("s2")));
}

void TestQuestionAnalytics::agreementRefusesDifferentPolarity()
{
    // Issue 30.6: the same question text inverted for one judge only: the stored meets-criterion
    // values mean opposite answers, so the judges are not compared, and the message says why.
    const Rubric r = fixtureChecklist();
    Rubric inverted = r;
    inverted.find(QStringLiteral("q4"))->origin.insert(QStringLiteral("inverted"), true);
    auto e = QuestionAgreement::compute({{QStringLiteral("J1"), r, fixtureScores(m_ref, QStringLiteral("J1"))},
                                         {QStringLiteral("J2"), inverted, fixtureScores(m_ref, QStringLiteral("J2"))}});
    QVERIFY(!e);
    QVERIFY2(e.errorString().contains(QStringLiteral("inverted for judge 'J2' but not for judge 'J1'")),
             qPrintable(e.errorString()));
    QCOMPARE(e.error().field, QStringLiteral("q4"));
    // Inverted alike for both: compared, on the stored (meets-criterion) values as they are.
    auto same = QuestionAgreement::compute(
            {{QStringLiteral("J1"), inverted, fixtureScores(m_ref, QStringLiteral("J1"))},
             {QStringLiteral("J2"), inverted, fixtureScores(m_ref, QStringLiteral("J2"))}});
    QVERIFY2(same, qPrintable(same.errorString()));
    auto plain = QuestionAgreement::compute({{QStringLiteral("J1"), r, fixtureScores(m_ref, QStringLiteral("J1"))},
                                             {QStringLiteral("J2"), r, fixtureScores(m_ref, QStringLiteral("J2"))}});
    QVERIFY(plain.ok());
    QCOMPARE(same->overall.alpha, plain->overall.alpha);
}

void TestQuestionAnalytics::importedAnswersAgreeLikeRunAnswers()
{
    // Issue 30: per-question answers from a CSV give the same agreement figures as the same
    // answers stored by runs; a bad file is refused whole, naming file, line and field.
    QTemporaryDir dir;
    auto p = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY2(p, qPrintable(p.errorString()));
    Project &project = **p;
    QVERIFY(project.upsertAspect({QStringLiteral("coherence"), QStringLiteral("d"), 1, 5}));
    QVector<Item> items;
    const QJsonArray ids = m_ref.value(QStringLiteral("items")).toArray();
    for (int i = 0; i < ids.size(); ++i) {
        Item it;
        it.id = ids.at(i).toString();
        it.output = QStringLiteral("summary %1").arg(i);
        it.position = i;
        items.append(it);
    }
    QVERIFY(project.addItems(items));
    RubricStore store(&project);
    for (const QString &j : {QStringLiteral("J1"), QStringLiteral("J3")}) {
        QVERIFY(project.ensureJudge(j, QStringLiteral("checkeval")));
        QVERIFY(store.saveVersion(j, fixtureChecklist()));
        QVERIFY(store.writeCriterionScores(j, fixtureScores(m_ref, j)));
    }
    // J2's answers as another tool would write them: keys or texts, yes/no words, empty = none.
    QString csv = QStringLiteral("item,question,answer\r\n");
    int row = 0;
    for (const CriterionScore &s : fixtureScores(m_ref, QStringLiteral("J2"))) {
        if (s.sample != 0)
            continue;
        const QString question = ++row % 2
                                         ? s.criterionKey
                                         : QStringLiteral("\"%1\"").arg(fixtureChecklist().find(s.criterionKey)->text);
        const QString answer = std::isnan(s.score) ? QString()
                               : s.score > 0.5     ? QStringLiteral("Yes")
                                                   : QStringLiteral("no");
        csv += QStringLiteral("%1,%2,%3\r\n").arg(s.itemId, question, answer);
    }
    const QString path = dir.filePath(QStringLiteral("j2.csv"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(csv.toUtf8());
    }
    const auto imported = AnswerImport::importCsv(project, path, QStringLiteral("J2csv"), fixtureChecklist());
    QVERIFY2(imported, qPrintable(imported.errorString()));
    QCOMPARE(imported->questions, 6);
    const auto viaCsv
            = QuestionAgreement::fromProject(project, QStringLiteral("coherence"),
                                             {QStringLiteral("J1"), QStringLiteral("J2csv"), QStringLiteral("J3")});
    QVERIFY2(viaCsv, qPrintable(viaCsv.errorString()));
    QVector<JudgeChecklist> judges;
    for (const QString &j : {QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")})
        judges.append({j, fixtureChecklist(), fixtureScores(m_ref, j)});
    const auto viaRuns = QuestionAgreement::compute(judges);
    QVERIFY(viaRuns.ok());
    QCOMPARE(viaCsv->overall.alpha, viaRuns->overall.alpha);
    QCOMPARE(viaCsv->overall.kappa, viaRuns->overall.kappa);
    QCOMPARE(viaCsv->overall.pairs, viaRuns->overall.pairs);
    compareNumber(m_ref.value(QStringLiteral("agreement")).toObject().value(QStringLiteral("alpha")),
                  viaCsv->overall.alpha, "alpha with imported answers");
    // A bad answer on line 3: refused whole, nothing written.
    const QString bad = dir.filePath(QStringLiteral("bad.csv"));
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("item,question,answer\n%1,q1,yes\n%1,q2,maybe\n").arg(ids.at(0).toString()).toUtf8());
    }
    const auto refused = AnswerImport::importCsv(project, bad, QStringLiteral("Jbad"), fixtureChecklist());
    QVERIFY(!refused);
    QCOMPARE(refused.error().line, 3);
    QCOMPARE(refused.error().field, QStringLiteral("answer"));
    QVERIFY2(refused.errorString().contains(QLatin1String("bad.csv")), qPrintable(refused.errorString()));
    QVERIFY(!project.judge(QStringLiteral("Jbad")));
}

QTEST_GUILESS_MAIN(TestQuestionAnalytics)
#include "TestQuestionAnalytics.moc"
