// The CLI's checklist commands on a real project file: `rubric agreement --questions` (agreement
// between judges on one checklist, against the Python reference of tests/methods) and
// `rubric export --judge NAME --criteria` (per-criterion scores of any method as CSV).
#include "../methods/ChecklistFixture.h"
#include "methods/checkeval/QuestionAgreement.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

namespace {

struct Run
{
    int code = -1;
    QByteArray out, err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

Run rubricCli(const QStringList &args)
{
    QProcess p;
    p.start(qEnvironmentVariable("RUBRIC_CLI"), args);
    Run r;
    if (!p.waitForFinished(120000))
        return r;
    r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

bool near(const QJsonValue &a, const QJsonValue &b)
{
    if (a.isNull() || b.isNull())
        return a.isNull() && b.isNull();
    return std::abs(a.toDouble() - b.toDouble()) < 1e-12;
}

QStringList readLines(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
}

} // namespace

class TestChecklistCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void agreementQuestionsJson();
    void agreementQuestionsTable();
    void agreementQuestionsOnASplit();
    void agreementQuestionsRefuses();
    void exportCriteriaOfAChecklist();
    void exportCriteriaOfAnotherMethod();
    void exportCriteriaRefuses();
    void showRubricJsonCarriesQuestionFlags();
    void importAnswersAgreesLikeRunAnswers();
    void importAnswersRefuses();

private:
    QStringList agreementArgs(const QStringList &judges) const;
    QTemporaryDir m_dir;
    QString m_project;
    QJsonObject m_ref;
};

void TestChecklistCli::initTestCase()
{
    QVERIFY(!qEnvironmentVariable("RUBRIC_CLI").isEmpty());
    m_ref = checklistReference();
    QVERIFY2(!m_ref.isEmpty(), "tests/methods/checkeval_reference.json is missing");
    m_project = m_dir.filePath(QStringLiteral("p.rubric"));
    auto p = Project::open(m_project);
    QVERIFY2(p, qPrintable(p.errorString()));
    Project &project = **p;
    QVERIFY(project.upsertAspect({QStringLiteral("coherence"), QStringLiteral("d"), 1, 6}));
    QVector<Item> items;
    QVector<Annotation> ann;
    QHash<QString, SplitRole> split;
    const QJsonArray ids = m_ref.value(QStringLiteral("items")).toArray();
    const QJsonObject human = m_ref.value(QStringLiteral("human")).toObject();
    for (int i = 0; i < ids.size(); ++i) {
        Item it;
        it.id = ids.at(i).toString();
        it.output = QStringLiteral("summary, \"quoted\" %1").arg(i);
        it.position = i;
        items.append(it);
        // Two annotators: the reference score and one more on even items (mean = score + 0.5).
        const double h = human.value(it.id).toDouble();
        ann.append({it.id, QStringLiteral("coherence"), QStringLiteral("a1"), h, {}, {}});
        if (i % 2 == 0)
            ann.append({it.id, QStringLiteral("coherence"), QStringLiteral("a2"), h + 1, {}, {}});
        if (i < 20)
            split.insert(it.id, i < 12 ? SplitRole::Train : SplitRole::Test);
    }
    QVERIFY(project.addItems(items));
    const auto added = project.addAnnotations(ann);
    QVERIFY2(added, qPrintable(added.errorString()));
    QVERIFY(project.setSplit(split));
    RubricStore store(&project);
    for (const QString &j : {QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")}) {
        QVERIFY(project.ensureJudge(j, QStringLiteral("checkeval")));
        QVERIFY(store.saveVersion(j, fixtureChecklist()));
        QVERIFY(store.writeCriterionScores(j, fixtureScores(m_ref, j)));
    }
    // J4 reworded q4.
    Rubric reworded = fixtureChecklist();
    reworded.find(QStringLiteral("q4"))->text = QStringLiteral("Are all numbers right?");
    QVERIFY(project.ensureJudge(QStringLiteral("J4"), QStringLiteral("checkeval")));
    QVERIFY(store.saveVersion(QStringLiteral("J4"), reworded));

    // A HypoEval-style judge: h1 scored with two samples, h2 disabled, h3 never scored.
    Rubric hypo(QStringLiteral("hypoeval"), QStringLiteral("coherence"));
    hypo.add({QStringLiteral("h1"), {}, CriterionKind::Hypothesis, QStringLiteral("Clear order")});
    hypo.add({QStringLiteral("h2"), {}, CriterionKind::Hypothesis, QStringLiteral("Dropped")});
    hypo.add({QStringLiteral("h3"), {}, CriterionKind::Hypothesis, QStringLiteral("Never scored")});
    hypo.add({QStringLiteral("h0"), {}, CriterionKind::Hypothesis, QStringLiteral("Placed last, scored")});
    hypo.find(QStringLiteral("h2"))->enabled = false;
    QVERIFY(project.ensureJudge(QStringLiteral("H"), QStringLiteral("hypoeval")));
    QVERIFY(store.saveVersion(QStringLiteral("H"), hypo));
    QVector<CriterionScore> hs;
    for (int i = 0; i < 3; ++i) {
        const QString id = ids.at(i).toString();
        hs.append({id, QStringLiteral("h1"), 0, 2.0 + i, QStringLiteral("ok")});
        hs.append({id, QStringLiteral("h1"), 1, 4.0 + i, QStringLiteral("ok")});
        hs.append({id, QStringLiteral("h2"), 0, 1.0, QStringLiteral("ok")});
        hs.append({id, QStringLiteral("h0"), 0, 3.5, QStringLiteral("ok")});
    }
    hs.append({ids.at(3).toString(), QStringLiteral("h1"), 0, std::nan(""), QStringLiteral("failed")});
    QVERIFY(store.writeCriterionScores(QStringLiteral("H"), hs));
}

QStringList TestChecklistCli::agreementArgs(const QStringList &judges) const
{
    QStringList args{QStringLiteral("agreement"), QStringLiteral("--project"), m_project,
                     QStringLiteral("--aspect"),  QStringLiteral("coherence"), QStringLiteral("--questions")};
    for (const QString &j : judges)
        args << QStringLiteral("--judge") << j;
    return args;
}

void TestChecklistCli::agreementQuestionsJson()
{
    const Run r = rubricCli(agreementArgs({QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")})
                            << QStringLiteral("--json"));
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = r.json();
    const QJsonObject exp = m_ref.value(QStringLiteral("agreement")).toObject();
    QVERIFY(near(j.value(QStringLiteral("alpha")), exp.value(QStringLiteral("alpha"))));
    QVERIFY(near(j.value(QStringLiteral("kappa")), exp.value(QStringLiteral("kappa"))));
    QCOMPARE(j.value(QStringLiteral("pairs")).toInt(), exp.value(QStringLiteral("pairs")).toInt());
    QCOMPARE(j.value(QStringLiteral("kappa_units")).toInt(), exp.value(QStringLiteral("kappa_units")).toInt());
    QCOMPARE(j.value(QStringLiteral("questions")).toInt(), 6);
    QCOMPARE(j.value(QStringLiteral("split")).toString(), QStringLiteral("all"));
    const QJsonObject per = j.value(QStringLiteral("per_sub_aspect")).toObject();
    QCOMPARE(per.keys(), (QStringList{QStringLiteral("Facts"), QStringLiteral("Flow")}));
    for (const QString &s : per.keys()) {
        const QJsonObject e = exp.value(QStringLiteral("per_sub_aspect")).toObject().value(s).toObject();
        QVERIFY(near(per.value(s).toObject().value(QStringLiteral("alpha")), e.value(QStringLiteral("alpha"))));
        QVERIFY(near(per.value(s).toObject().value(QStringLiteral("kappa")), e.value(QStringLiteral("kappa"))));
        QCOMPARE(per.value(s).toObject().value(QStringLiteral("pairs")).toInt(),
                 e.value(QStringLiteral("pairs")).toInt());
    }
    const QJsonArray dis = j.value(QStringLiteral("disagreements")).toArray();
    QCOMPARE(dis.size(), 6);
    double last = 2;
    for (const QJsonValue &v : dis) {
        const QJsonObject d = v.toObject();
        const QString q = d.value(QStringLiteral("question")).toString();
        QVERIFY(near(d.value(QStringLiteral("share")), exp.value(QStringLiteral("disagreements"))
                                                               .toObject()
                                                               .value(q)
                                                               .toObject()
                                                               .value(QStringLiteral("share"))));
        QCOMPARE(d.value(QStringLiteral("text")).toString(), fixtureChecklist().find(q)->text);
        QCOMPARE(d.value(QStringLiteral("sub_aspect")).toString(),
                 q.mid(1).toInt() <= 3 ? QStringLiteral("Flow") : QStringLiteral("Facts"));
        QVERIFY(d.value(QStringLiteral("share")).toDouble() <= last);
        last = d.value(QStringLiteral("share")).toDouble();
    }
}

void TestChecklistCli::agreementQuestionsTable()
{
    const Run r = rubricCli(agreementArgs({QStringLiteral("J1"), QStringLiteral("J2"), QStringLiteral("J3")}));
    QVERIFY2(r.code == 0, r.err.constData());
    const QString out = QString::fromUtf8(r.out);
    const QJsonObject exp = m_ref.value(QStringLiteral("agreement")).toObject();
    QVERIFY2(out.contains(QStringLiteral("Krippendorff's alpha (nominal) %1 on %2 (item, question) pairs")
                                  .arg(QString::number(exp.value(QStringLiteral("alpha")).toDouble(), 'f', 4))
                                  .arg(exp.value(QStringLiteral("pairs")).toInt())),
             r.out.constData());
    QVERIFY2(out.contains(QStringLiteral("Fleiss' kappa                  %1")
                                  .arg(QString::number(exp.value(QStringLiteral("kappa")).toDouble(), 'f', 4))),
             r.out.constData());
    QVERIFY(out.contains(QStringLiteral("Flow")));
    // The most disputed question comes first: q6, the one J1 always answers "yes".
    const QString afterHeading = out.section(QStringLiteral("most disagreement"), 1);
    QVERIFY2(afterHeading.section(QLatin1Char('\n'), 1, 1).trimmed().startsWith(QStringLiteral("q6")),
             r.out.constData());
}

void TestChecklistCli::agreementQuestionsOnASplit()
{
    const Run r = rubricCli(agreementArgs({QStringLiteral("J1"), QStringLiteral("J2")})
                            << QStringLiteral("--split") << QStringLiteral("train") << QStringLiteral("--json"));
    QVERIFY2(r.code == 0, r.err.constData());
    // The same computed in-process on the train items (the first 12).
    QStringList train;
    for (int i = 0; i < 12; ++i)
        train << m_ref.value(QStringLiteral("items")).toArray().at(i).toString();
    const auto a = QuestionAgreement::compute(
            {{QStringLiteral("J1"), fixtureChecklist(), fixtureScores(m_ref, QStringLiteral("J1"))},
             {QStringLiteral("J2"), fixtureChecklist(), fixtureScores(m_ref, QStringLiteral("J2"))}},
            train);
    QVERIFY(a);
    QCOMPARE(r.json().value(QStringLiteral("pairs")).toInt(), a->overall.pairs);
    QVERIFY(a->overall.pairs <= 12 * 6);
    QVERIFY(std::abs(r.json().value(QStringLiteral("alpha")).toDouble() - a->overall.alpha) < 1e-12);
    QCOMPARE(r.json().value(QStringLiteral("split")).toString(), QStringLiteral("train"));
}

void TestChecklistCli::agreementQuestionsRefuses()
{
    Run r = rubricCli(agreementArgs({QStringLiteral("J1"), QStringLiteral("J4")}));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("judge 'J4' asks \"Are all numbers right?\""), r.err.constData());
    QVERIFY(r.err.contains("question q4"));
    r = rubricCli(agreementArgs({QStringLiteral("J1")}));
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("at least two --judge"), r.err.constData());
    r = rubricCli(agreementArgs({QStringLiteral("J1"), QStringLiteral("H")}));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("judge 'H' (method hypoeval) has no checklist questions"), r.err.constData());
    r = rubricCli(agreementArgs({QStringLiteral("J1"), QStringLiteral("J2")})
                  << QStringLiteral("--metric") << QStringLiteral("fleiss"));
    QCOMPARE(r.code, 2);
}

void TestChecklistCli::exportCriteriaOfAChecklist()
{
    const QString csv = m_dir.filePath(QStringLiteral("j1.csv"));
    const Run r
            = rubricCli({QStringLiteral("export"), QStringLiteral("--project"), m_project, QStringLiteral("--judge"),
                         QStringLiteral("J1"), QStringLiteral("--criteria"), QStringLiteral("--out"), csv});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(r.out.contains("exported 24 items x 6 criteria"));
    const QStringList lines = readLines(csv);
    QCOMPARE(lines.size(), 25);
    // issue 30: a checklist judge's coverage and how an unanswered question counts
    QCOMPARE(lines.first(), QStringLiteral("id,split,human.coherence,q1,q2,q3,q4,q5,q6,answered,asked,missing"));
    const QJsonObject answers
            = m_ref.value(QStringLiteral("answers")).toObject().value(QStringLiteral("J1")).toObject();
    const QJsonObject human = m_ref.value(QStringLiteral("human")).toObject();
    int empty = 0;
    for (int i = 0; i < 24; ++i) {
        const QStringList cells = lines.at(i + 1).split(QLatin1Char(','));
        QCOMPARE(cells.size(), 12);
        const QString id = m_ref.value(QStringLiteral("items")).toArray().at(i).toString();
        QCOMPARE(cells.at(0), id);
        QCOMPARE(cells.at(1), i >= 20 ? QString() : i < 12 ? QStringLiteral("train") : QStringLiteral("test"));
        const double h = human.value(id).toDouble() + (i % 2 == 0 ? 0.5 : 0.0);
        QCOMPARE(cells.at(2).toDouble(), h);
        int answered = 0;
        for (int q = 0; q < 6; ++q) {
            const QJsonValue a = answers.value(QStringLiteral("q%1").arg(q + 1)).toObject().value(id);
            // Sample 0's answer (i00's q1 also has a contrary sample 1 that must not show).
            QCOMPARE(cells.at(3 + q), a.isNull() ? QString() : QString::number(a.toInt()));
            empty += a.isNull() ? 1 : 0;
            answered += a.isNull() ? 0 : 1;
        }
        QCOMPARE(cells.at(9), QString::number(answered));
        QCOMPARE(cells.at(10), QStringLiteral("6"));
        QCOMPARE(cells.at(11), QStringLiteral("skip")); // no run configuration: the importer's policy
    }
    QVERIFY(empty > 0);
}

void TestChecklistCli::exportCriteriaOfAnotherMethod()
{
    const QString csv = m_dir.filePath(QStringLiteral("h.csv"));
    const Run r
            = rubricCli({QStringLiteral("export"), QStringLiteral("--project"), m_project, QStringLiteral("--judge"),
                         QStringLiteral("H"), QStringLiteral("--criteria"), QStringLiteral("--out"), csv});
    QVERIFY2(r.code == 0, r.err.constData());
    const QStringList lines = readLines(csv);
    QCOMPARE(lines.size(), 25);
    // Tree (position) order; h2 is disabled, h3 has no scores.
    QCOMPARE(lines.first(), QStringLiteral("id,split,human.coherence,h1,h0"));
    QVERIFY(lines.at(1).endsWith(QStringLiteral(",3,3.5"))); // mean of samples 2 and 4
    QVERIFY(lines.at(3).endsWith(QStringLiteral(",5,3.5"))); // 4 and 6
    QVERIFY(lines.at(4).endsWith(QStringLiteral(",,")));     // refused call: no score
    QVERIFY(lines.at(24).endsWith(QStringLiteral(",,")));
}

void TestChecklistCli::exportCriteriaRefuses()
{
    const QString csv = m_dir.filePath(QStringLiteral("x.csv"));
    Run r = rubricCli({QStringLiteral("export"), QStringLiteral("--project"), m_project, QStringLiteral("--criteria"),
                       QStringLiteral("--out"), csv});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("--criteria and --judge go together"));
    r = rubricCli({QStringLiteral("export"), QStringLiteral("--project"), m_project, QStringLiteral("--judge"),
                   QStringLiteral("nobody"), QStringLiteral("--criteria"), QStringLiteral("--out"), csv});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("no judge named 'nobody'"));
    r = rubricCli({QStringLiteral("export"), QStringLiteral("--project"), m_project, QStringLiteral("--judge"),
                   QStringLiteral("J1"), QStringLiteral("--criteria"), QStringLiteral("--out"),
                   m_dir.filePath(QStringLiteral("x.jsonl"))});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains(".csv"));
    // J4 has a rubric but no scores.
    r = rubricCli({QStringLiteral("export"), QStringLiteral("--project"), m_project, QStringLiteral("--judge"),
                   QStringLiteral("J4"), QStringLiteral("--criteria"), QStringLiteral("--out"), csv});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("no criterion scores"));
    QVERIFY(!QFile::exists(csv));
}

void TestChecklistCli::showRubricJsonCarriesQuestionFlags()
{
    // Issue 30, acceptance: scripts see what the Rubric pane shows on each question.
    Rubric r = fixtureChecklist();
    r.find(QStringLiteral("q2"))->text = QStringLiteral("Are there any run-on sentences that should be split?");
    r.find(QStringLiteral("q3"))->text = QStringLiteral("Does the summary contain factual errors?");
    r.find(QStringLiteral("q3"))->origin.insert(QStringLiteral("inverted"), true);
    r.find(QStringLiteral("q5"))->stats.insert(QStringLiteral("constant"), QStringLiteral("yes"));
    r.find(QStringLiteral("q6"))->stats.insert(QStringLiteral("near_duplicate_of"), QStringLiteral("q4"));
    {
        auto p = Project::open(m_project);
        QVERIFY(p);
        QVERIFY((*p)->ensureJudge(QStringLiteral("F"), QStringLiteral("checkeval")));
        QVERIFY(RubricStore(p->get()).saveVersion(QStringLiteral("F"), r));
    }
    const Run run = rubricCli({QStringLiteral("show-rubric"), QStringLiteral("--project"), m_project,
                               QStringLiteral("--judge"), QStringLiteral("F"), QStringLiteral("--json")});
    QVERIFY2(run.code == 0, run.err.constData());
    QHash<QString, QJsonObject> flags;
    for (const QJsonValue &v : run.json().value(QStringLiteral("criteria")).toArray())
        flags.insert(v.toObject().value(QStringLiteral("id")).toString(),
                     v.toObject().value(QStringLiteral("flags")).toObject());
    QCOMPARE(flags.size(), 9);
    QVERIFY(flags.value(QStringLiteral("q1")).value(QStringLiteral("polarity")).isNull());
    QVERIFY(!flags.value(QStringLiteral("q1")).value(QStringLiteral("inverted")).toBool());
    QVERIFY(flags.value(QStringLiteral("q2"))
                    .value(QStringLiteral("polarity"))
                    .toString()
                    .contains(QLatin1String("yes")));
    QVERIFY(flags.value(QStringLiteral("q3")).value(QStringLiteral("inverted")).toBool());
    QVERIFY(flags.value(QStringLiteral("q3")).value(QStringLiteral("polarity")).isNull()); // inverted already
    QCOMPARE(flags.value(QStringLiteral("q5")).value(QStringLiteral("constant")).toString(), QStringLiteral("yes"));
    QCOMPARE(flags.value(QStringLiteral("q6")).value(QStringLiteral("near_duplicate_of")).toString(),
             QStringLiteral("q4"));
    QVERIFY(flags.value(QStringLiteral("q6")).value(QStringLiteral("asked")).toBool());
}

void TestChecklistCli::importAnswersAgreesLikeRunAnswers()
{
    // J2's answers of the reference as a CSV made elsewhere (keys for most rows, the question's
    // text for q2; a missing answer as an empty cell).
    const QString csv = m_dir.filePath(QStringLiteral("j2-answers.csv"));
    {
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const Rubric r = fixtureChecklist();
        QByteArray text = "item,question,answer\n";
        const QJsonObject byQ
                = m_ref.value(QStringLiteral("answers")).toObject().value(QStringLiteral("J2")).toObject();
        for (auto q = byQ.begin(); q != byQ.end(); ++q) {
            const QString question = q.key() == QLatin1String("q2")
                                             ? QLatin1Char('"') + r.find(q.key())->text + QLatin1Char('"')
                                             : q.key();
            const QJsonObject byItem = q.value().toObject();
            for (auto it = byItem.begin(); it != byItem.end(); ++it)
                text += QStringLiteral("%1,%2,%3\n")
                                .arg(it.key(), question,
                                     it.value().isNull()           ? QString()
                                     : it.value().toDouble() > 0.5 ? QStringLiteral("yes")
                                                                   : QStringLiteral("no"))
                                .toUtf8();
        }
        f.write(text);
    }
    // A new judge needs the checklist.
    Run r = rubricCli({QStringLiteral("import-answers"), csv, QStringLiteral("--project"), m_project,
                       QStringLiteral("--judge"), QStringLiteral("J2csv")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("judge 'J2csv' has no checklist yet: give --checklist"), r.err.constData());
    // An existing checklist judge without answers: its latest checklist is used.
    {
        auto p = Project::open(m_project);
        QVERIFY(p);
        QVERIFY((*p)->ensureJudge(QStringLiteral("J2csv"), QStringLiteral("checkeval")));
        QVERIFY(RubricStore(p->get()).saveVersion(QStringLiteral("J2csv"), fixtureChecklist()));
    }
    r = rubricCli({QStringLiteral("import-answers"), csv, QStringLiteral("--project"), m_project,
                   QStringLiteral("--judge"), QStringLiteral("J2csv"), QStringLiteral("--json")});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.json().value(QStringLiteral("items")).toInt(), 24);
    QCOMPARE(r.json().value(QStringLiteral("questions")).toInt(), 6);
    QCOMPARE(r.json().value(QStringLiteral("answers")).toInt() + r.json().value(QStringLiteral("unanswered")).toInt(),
             24 * 6);
    // The imported judge in J2's place gives the reference's agreement (computed in Python).
    const Run a = rubricCli(agreementArgs({QStringLiteral("J1"), QStringLiteral("J2csv"), QStringLiteral("J3")})
                            << QStringLiteral("--json"));
    QVERIFY2(a.code == 0, a.err.constData());
    const QJsonObject exp = m_ref.value(QStringLiteral("agreement")).toObject();
    QVERIFY(near(a.json().value(QStringLiteral("alpha")), exp.value(QStringLiteral("alpha"))));
    QVERIFY(near(a.json().value(QStringLiteral("kappa")), exp.value(QStringLiteral("kappa"))));
    QCOMPARE(a.json().value(QStringLiteral("pairs")).toInt(), exp.value(QStringLiteral("pairs")).toInt());
}

void TestChecklistCli::importAnswersRefuses()
{
    const QString csv = m_dir.filePath(QStringLiteral("bad-answers.csv"));
    {
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("item,question,answer\ni00,q1,yes\ni01,q1,maybe\n");
    }
    Run r = rubricCli({QStringLiteral("import-answers"), csv, QStringLiteral("--project"), m_project,
                       QStringLiteral("--judge"), QStringLiteral("Jbad"), QStringLiteral("--checklist"),
                       QStringLiteral("preset:summeval/coherence")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("bad-answers.csv"), r.err.constData());
    r = rubricCli({QStringLiteral("import-answers"), csv, QStringLiteral("--project"), m_project});
    QCOMPARE(r.code, 2);
    r = rubricCli({QStringLiteral("import-answers"), csv, QStringLiteral("--project"), m_project,
                   QStringLiteral("--judge"), QStringLiteral("Jbad"), QStringLiteral("--checklist"),
                   QStringLiteral("preset:nowhere/none")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("--checklist"), r.err.constData());
    // nothing was written for the refused judge
    auto p = Project::open(m_project);
    QVERIFY(p);
    const auto j = (*p)->readJudge(QStringLiteral("Jbad"));
    QVERIFY(j);
    QVERIFY(!*j);
}

QTEST_GUILESS_MAIN(TestChecklistCli)
#include "TestChecklistCli.moc"
