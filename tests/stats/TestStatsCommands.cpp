#include "ProjectTestAccess.h"
#include "stats/Agreement.h"
#include "stats/Levels.h"
#include "stats/ProjectData.h"
#include "store/Project.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace rubric;

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

void writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

double human(int item, int annotator)
{
    // Deterministic 1–5 scores that people roughly agree on.
    return double(1 + (item * 7 + annotator * (item % 3)) % 5);
}

} // namespace

class TestStatsCommands : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void importScoresCsvAndJson();
    void importScoresIsAllOrNothing();
    void correlateMatchesLibrary_data();
    void correlateMatchesLibrary();
    void correlateDefaultSplitAndBootstrap();
    void compareTwoJudges();
    void agreement();
    void benchStats();
    void constantGroupsAgainstScipyOnSummEval_data();
    void constantGroupsAgainstScipyOnSummEval();
    void unreadableProjectIsAnErrorNotEmpty_data();
    void unreadableProjectIsAnErrorNotEmpty();

private:
    QTemporaryDir m_dir;
    QString m_project;
};

void TestStatsCommands::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(!qEnvironmentVariable("RUBRIC_CLI").isEmpty());
    m_project = m_dir.filePath(QStringLiteral("p.rubric"));
    auto p = Project::open(m_project);
    QVERIFY2(p, qPrintable(p.errorString()));
    QVERIFY((*p)->upsertAspect({QStringLiteral("coherence"), QStringLiteral("d"), 1, 5}));
    QVector<Item> items;
    QVector<Annotation> ann;
    for (int i = 0; i < 40; ++i) {
        Item it;
        it.id = QString::number(i);
        it.group = QStringLiteral("doc%1").arg(i / 4);
        it.system = QStringLiteral("M%1").arg(i % 4);
        it.output = QStringLiteral("summary %1").arg(i);
        it.position = i;
        items.append(it);
        for (int a = 0; a < 3; ++a) {
            if (a == 2 && i % 5 == 0)
                continue; // a3 skipped some items
            ann.append({it.id, QStringLiteral("coherence"), QStringLiteral("a%1").arg(a + 1), human(i, a), {}, {}});
        }
    }
    QVERIFY((*p)->addItems(items));
    QVERIFY((*p)->addAnnotations(ann));
}

void TestStatsCommands::importScoresCsvAndJson()
{
    // CSV without --id: row k scores item k. Judge "noisy" = a1's score plus a pattern; row 7 empty.
    QByteArray csv = "coh,other\n";
    for (int i = 0; i < 40; ++i)
        csv += (i == 7 ? QByteArray() : QByteArray::number(human(i, 0) + (i % 4) * 0.5)) + ",x\n";
    writeFile(m_dir.filePath(QStringLiteral("noisy.csv")), csv);
    Run r = rubricCli({QStringLiteral("import-scores"), m_dir.filePath(QStringLiteral("noisy.csv")),
                       QStringLiteral("--project"), m_project, QStringLiteral("--judge"), QStringLiteral("noisy"),
                       QStringLiteral("--score"), QStringLiteral("coherence=coh"), QStringLiteral("--json")});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.json().value(QStringLiteral("scores")).toInt(), 39);
    QCOMPARE(r.json().value(QStringLiteral("missing")).toInt(), 1);

    // JSON with --id and a nested field, in reverse order: judge "mean" = the human mean.
    QJsonArray arr;
    for (int i = 39; i >= 0; --i) {
        double sum = 0;
        int n = 0;
        for (int a = 0; a < 3; ++a)
            if (!(a == 2 && i % 5 == 0)) {
                sum += human(i, a);
                ++n;
            }
        arr.append(QJsonObject{{QStringLiteral("item"), QString::number(i)},
                               {QStringLiteral("scores"), QJsonObject{{QStringLiteral("c"), sum / n}}}});
    }
    writeFile(m_dir.filePath(QStringLiteral("mean.json")), QJsonDocument(arr).toJson());
    r = rubricCli({QStringLiteral("import-scores"), m_dir.filePath(QStringLiteral("mean.json")),
                   QStringLiteral("--project"), m_project, QStringLiteral("--judge"), QStringLiteral("mean"),
                   QStringLiteral("--id"), QStringLiteral("item"), QStringLiteral("--score"),
                   QStringLiteral("coherence=scores.c")});
    QVERIFY2(r.code == 0, r.err.constData());
    auto p = Project::open(m_project);
    QVERIFY(p);
    QCOMPARE((*p)->judge(QStringLiteral("mean"))->method, QStringLiteral("imported"));
    QCOMPARE((*p)->judgeScores(QStringLiteral("noisy"), QStringLiteral("coherence")).size(), 39);
    QCOMPARE((*p)->judgeScores(QStringLiteral("mean"), QStringLiteral("coherence")).value(QStringLiteral("3")),
             (*p)->humanScores(QStringLiteral("coherence")).value(QStringLiteral("3")));
}

void TestStatsCommands::importScoresIsAllOrNothing()
{
    writeFile(m_dir.filePath(QStringLiteral("bad.tsv")), "id\tcoh\n1\t3\n2\tgood\n");
    Run r = rubricCli({QStringLiteral("import-scores"), m_dir.filePath(QStringLiteral("bad.tsv")),
                       QStringLiteral("--project"), m_project, QStringLiteral("--judge"), QStringLiteral("bad"),
                       QStringLiteral("--id"), QStringLiteral("id"), QStringLiteral("--score"),
                       QStringLiteral("coherence=coh")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("bad.tsv:3: coh: not a number"), r.err.constData());
    writeFile(m_dir.filePath(QStringLiteral("unknown.jsonl")), "{\"id\": 1, \"coh\": 2}\n\n{\"id\": 99, \"coh\": 2}\n");
    r = rubricCli({QStringLiteral("import-scores"), m_dir.filePath(QStringLiteral("unknown.jsonl")),
                   QStringLiteral("--project"), m_project, QStringLiteral("--judge"), QStringLiteral("bad"),
                   QStringLiteral("--id"), QStringLiteral("id"), QStringLiteral("--score"),
                   QStringLiteral("coherence=coh")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("unknown.jsonl:3: id: no item with id '99'"), r.err.constData());
    r = rubricCli({QStringLiteral("import-scores"), m_dir.filePath(QStringLiteral("unknown.jsonl")),
                   QStringLiteral("--project"), m_project, QStringLiteral("--judge"), QStringLiteral("bad"),
                   QStringLiteral("--id"), QStringLiteral("id"), QStringLiteral("--score"),
                   QStringLiteral("coherence=missing_field")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("unknown.jsonl:1: missing_field: field not found"), r.err.constData());
    auto p = Project::open(m_project);
    QVERIFY(p);
    QVERIFY(!(*p)->judge(QStringLiteral("bad")));
}

void TestStatsCommands::correlateMatchesLibrary_data()
{
    QTest::addColumn<QString>("level");
    QTest::newRow("dataset") << QStringLiteral("dataset");
    QTest::newRow("group") << QStringLiteral("group");
    QTest::newRow("system") << QStringLiteral("system");
}

void TestStatsCommands::correlateMatchesLibrary()
{
    QFETCH(QString, level);
    const Run r = rubricCli({QStringLiteral("correlate"), QStringLiteral("--project"), m_project,
                             QStringLiteral("--aspect"), QStringLiteral("coherence"), QStringLiteral("--judge"),
                             QStringLiteral("noisy"), QStringLiteral("--level"), level, QStringLiteral("--json")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject o = r.json();
    for (const char *key : {"aspect", "judge", "level", "split", "n", "groups_used", "pearson", "spearman", "kendall"})
        QVERIFY2(o.contains(QLatin1String(key)), key);
    QVERIFY(!o.contains(QStringLiteral("ci")));
    QCOMPARE(o.value(QStringLiteral("split")).toString(), QStringLiteral("all")); // no split yet
    auto p = Project::open(m_project);
    QVERIFY(p);
    const auto items = stats::gatherScores(**p, QStringLiteral("coherence"), QStringLiteral("noisy"), SplitFilter::All);
    QVERIFY(items);
    QCOMPARE(items->size(), 39);
    const auto want = stats::correlateAtLevel(*items, *stats::parseLevel(level));
    QCOMPARE(o.value(QStringLiteral("n")).toInt(), want.n);
    QCOMPARE(o.value(QStringLiteral("groups_used")).toInt(), want.groupsUsed);
    QCOMPARE(o.value(QStringLiteral("pearson")).toDouble(), want.pearson);
    QCOMPARE(o.value(QStringLiteral("kendall")).toDouble(), want.kendall);
    QVERIFY(std::abs(o.value(QStringLiteral("spearman")).toDouble()) <= 1.0);
    if (level == QLatin1String("system"))
        QCOMPARE(want.groupsUsed, 4);
}

void TestStatsCommands::correlateDefaultSplitAndBootstrap()
{
    {
        auto p = Project::open(m_project);
        QVERIFY(p);
        QHash<QString, SplitRole> roles;
        for (int i = 0; i < 40; ++i)
            roles.insert(QString::number(i), i < 12 ? SplitRole::Train : SplitRole::Test);
        QVERIFY((*p)->setSplit(roles));
    }
    const QStringList base{QStringLiteral("correlate"), QStringLiteral("--project"), m_project,
                           QStringLiteral("--aspect"),  QStringLiteral("coherence"), QStringLiteral("--judge"),
                           QStringLiteral("mean"),      QStringLiteral("--json")};
    Run r = rubricCli(base);
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.json().value(QStringLiteral("split")).toString(), QStringLiteral("test"));
    QCOMPARE(r.json().value(QStringLiteral("n")).toInt(), 28);
    QCOMPARE(r.json().value(QStringLiteral("pearson")).toDouble(), 1.0); // the judge is the human mean

    r = rubricCli(base
                  + QStringList{QStringLiteral("--split"), QStringLiteral("train"), QStringLiteral("--judge"),
                                QStringLiteral("noisy")});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.json().value(QStringLiteral("n")).toInt(), 11); // item 7 has no score

    const QStringList boot
            = QStringList{QStringLiteral("correlate"), QStringLiteral("--project"), m_project,
                          QStringLiteral("--aspect"),  QStringLiteral("coherence"), QStringLiteral("--judge"),
                          QStringLiteral("noisy"),     QStringLiteral("--split"),   QStringLiteral("all"),
                          QStringLiteral("--level"),   QStringLiteral("group"),     QStringLiteral("--bootstrap"),
                          QStringLiteral("200"),       QStringLiteral("--seed"),    QStringLiteral("5"),
                          QStringLiteral("--json")};
    const Run a = rubricCli(boot), b = rubricCli(boot);
    QVERIFY2(a.code == 0, a.err.constData());
    QCOMPARE(a.out, b.out); // same seed, same intervals
    const QJsonObject ci = a.json().value(QStringLiteral("ci")).toObject();
    for (const char *k : {"pearson", "spearman", "kendall"}) {
        const QJsonArray iv = ci.value(QLatin1String(k)).toArray();
        QCOMPARE(iv.size(), 2);
        const double point = a.json().value(QLatin1String(k)).toDouble();
        QVERIFY(iv[0].toDouble() <= point && point <= iv[1].toDouble());
    }

    r = rubricCli({QStringLiteral("correlate"), QStringLiteral("--project"), m_project, QStringLiteral("--aspect"),
                   QStringLiteral("coherence"), QStringLiteral("--judge"), QStringLiteral("nobody")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("unknown judge 'nobody'"));
    r = rubricCli(base + QStringList{QStringLiteral("--level"), QStringLiteral("summary")});
    QCOMPARE(r.code, 2);
}

void TestStatsCommands::compareTwoJudges()
{
    const QStringList base{QStringLiteral("compare"),
                           QStringLiteral("--project"),
                           m_project,
                           QStringLiteral("--aspect"),
                           QStringLiteral("coherence"),
                           QStringLiteral("--split"),
                           QStringLiteral("all"),
                           QStringLiteral("--bootstrap"),
                           QStringLiteral("300"),
                           QStringLiteral("--permutations"),
                           QStringLiteral("300")};
    Run r = rubricCli(base
                      + QStringList{QStringLiteral("--judge"), QStringLiteral("mean"), QStringLiteral("--judge"),
                                    QStringLiteral("noisy"), QStringLiteral("--json")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject o = r.json();
    const QJsonArray judges = o.value(QStringLiteral("judges")).toArray();
    QCOMPARE(judges.size(), 2);
    const QJsonObject x = judges[0].toObject();
    const QJsonObject y = judges[1].toObject();
    QCOMPARE(x.value(QStringLiteral("judge")).toString(), QStringLiteral("mean"));
    QCOMPARE(x.value(QStringLiteral("n")).toInt(), 40);
    QCOMPARE(y.value(QStringLiteral("n")).toInt(), 39);           // "noisy" has no score for one item
    QCOMPARE(x.value(QStringLiteral("pearson")).toDouble(), 1.0); // "mean" is the human mean itself
    const double yp = y.value(QStringLiteral("pearson")).toDouble();
    QVERIFY(yp < 1.0);
    const QJsonArray ci = x.value(QStringLiteral("ci")).toArray();
    QCOMPARE(ci.size(), 2);
    QVERIFY(x.value(QStringLiteral("cost_per_item")).isNull()); // imported scores: what they cost is not known
    const QJsonArray pairs = o.value(QStringLiteral("pairs")).toArray();
    QCOMPARE(pairs.size(), 1);
    const QJsonObject pair = pairs[0].toObject();
    QCOMPARE(pair.value(QStringLiteral("a")).toString(), QStringLiteral("mean"));
    QCOMPARE(pair.value(QStringLiteral("b")).toString(), QStringLiteral("noisy"));
    QCOMPARE(pair.value(QStringLiteral("n")).toInt(), 39); // the items both scored
    // Both rounded to 3 decimals: the difference of the rounded values is within one rounding step.
    QVERIFY(std::abs(pair.value(QStringLiteral("difference")).toDouble() - (1.0 - yp)) <= 0.0010001);
    const QJsonArray dci = pair.value(QStringLiteral("ci")).toArray();
    QVERIFY(dci[0].toDouble() <= pair.value(QStringLiteral("difference")).toDouble());
    QVERIFY(pair.value(QStringLiteral("difference")).toDouble() <= dci[1].toDouble());
    const double p = pair.value(QStringLiteral("p")).toDouble();
    QVERIFY(p > 0 && p <= 1);
    QVERIFY(pair.value(QStringLiteral("williams_p")).isDouble());
    QVERIFY(o.value(QStringLiteral("human_ceiling")).toObject().contains(QStringLiteral("alpha")));

    // "item" is the dataset level under the contract's name: the same JSON.
    const Run item
            = rubricCli(base
                        + QStringList{QStringLiteral("--judge"), QStringLiteral("mean"), QStringLiteral("--judge"),
                                      QStringLiteral("noisy"), QStringLiteral("--level"), QStringLiteral("item"),
                                      QStringLiteral("--json")});
    QCOMPARE(item.code, 0);
    QCOMPARE(item.out, r.out);

    // No --judge: every judge that scored the aspect; the text output names each.
    r = rubricCli(base);
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(r.out.contains("mean") && r.out.contains("noisy"));
    QVERIFY(r.out.contains("human ceiling"));
    r = rubricCli(base + QStringList{QStringLiteral("--judge"), QStringLiteral("nobody")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("unknown judge 'nobody'"), r.err.constData());
    r = rubricCli(base + QStringList{QStringLiteral("--level"), QStringLiteral("summary")});
    QCOMPARE(r.code, 2);
}

void TestStatsCommands::agreement()
{
    auto p = Project::open(m_project);
    QVERIFY(p);
    const auto m = stats::gatherCoders(**p, QStringLiteral("coherence"), SplitFilter::All);
    QVERIFY(m);
    QCOMPARE(m->coders, (QStringList{QStringLiteral("a1"), QStringLiteral("a2"), QStringLiteral("a3")}));
    for (const QString &level :
         {QStringLiteral("nominal"), QStringLiteral("ordinal"), QStringLiteral("interval"), QStringLiteral("ratio")}) {
        const Run r = rubricCli({QStringLiteral("agreement"), QStringLiteral("--project"), m_project,
                                 QStringLiteral("--aspect"), QStringLiteral("coherence"), QStringLiteral("--level"),
                                 level, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = r.json();
        QCOMPARE(o.value(QStringLiteral("metric")).toString(), QStringLiteral("alpha"));
        QCOMPARE(o.value(QStringLiteral("level")).toString(), level);
        QCOMPARE(o.value(QStringLiteral("items")).toInt(), 40);
        QCOMPARE(o.value(QStringLiteral("annotators")).toInt(), 3);
        QCOMPARE(o.value(QStringLiteral("alpha")).toDouble(),
                 stats::krippendorffAlpha(m->data, *stats::parseAlphaLevel(level)).alpha);
    }
    const Run f = rubricCli({QStringLiteral("agreement"), QStringLiteral("--project"), m_project,
                             QStringLiteral("--aspect"), QStringLiteral("coherence"), QStringLiteral("--metric"),
                             QStringLiteral("fleiss"), QStringLiteral("--json")});
    QVERIFY2(f.code == 0, f.err.constData());
    QCOMPARE(f.json().value(QStringLiteral("items")).toInt(), 32); // a3 skipped every fifth item
    QCOMPARE(f.json().value(QStringLiteral("kappa")).toDouble(), stats::fleissKappa(m->data).kappa);
    QVERIFY(f.json().value(QStringLiteral("ceiling")).toObject().value(QStringLiteral("annotators")).toArray().size()
            == 3);
}

void TestStatsCommands::benchStats()
{
    const QStringList opts{QStringLiteral("--n"), QStringLiteral("2000"), QStringLiteral("--resamples"),
                           QStringLiteral("20"), QStringLiteral("--json")};
    const Run r = rubricCli(QStringList{QStringLiteral("bench"), QStringLiteral("stats")} + opts);
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject o = r.json();
    for (const char *key : {"n", "pearson_ms", "spearman_ms", "kendall_ms", "bootstrap_ms", "bootstrap_resamples"})
        QVERIFY2(o.contains(QLatin1String(key)), key);
    QCOMPARE(o.value(QStringLiteral("n")).toInt(), 2000);
    QCOMPARE(o.value(QStringLiteral("bootstrap_resamples")).toInt(), 20);
}

QTEST_GUILESS_MAIN(TestStatsCommands)
void TestStatsCommands::constantGroupsAgainstScipyOnSummEval_data()
{
    QTest::addColumn<QStringList>("flag");
    QTest::addColumn<QString>("rule");
    QTest::newRow("default is skip (G-Eval/UniEval)") << QStringList() << QStringLiteral("skip");
    QTest::newRow("skip") << QStringList{QStringLiteral("--constant-groups"), QStringLiteral("skip")}
                          << QStringLiteral("skip");
    QTest::newRow("one (PairS/HypoEval)")
            << QStringList{QStringLiteral("--constant-groups"), QStringLiteral("one")} << QStringLiteral("one");
}

void TestStatsCommands::constantGroupsAgainstScipyOnSummEval()
{
    // SummEval with expert consistency as the human side (4 documents constant) and expert fluency
    // standing in for a judge (2 more documents constant); expected values from scipy:
    // tests/stats/make_constant_groups.py → constant_groups.json.
    QFETCH(QStringList, flag);
    QFETCH(QString, rule);
    QFile ref(QStringLiteral(RUBRIC_TEST_DATA "/constant_groups.json"));
    QVERIFY(ref.open(QIODevice::ReadOnly));
    const QJsonObject want = QJsonDocument::fromJson(ref.readAll()).object().value(rule).toObject();
    QVERIFY(!want.isEmpty());
    QFile data(QStringLiteral(RUBRIC_SHARED_DATA "/summeval/summeval_bartscore_data.json"));
    if (!data.exists())
        QSKIP("SummEval data not present beside the project (../shared/data)");
    QVERIFY(data.open(QIODevice::ReadOnly));
    const QString path = m_dir.filePath(QStringLiteral("summeval-consistency.rubric"));
    if (!QFile::exists(path)) {
        auto p = Project::open(path);
        QVERIFY(p);
        QVERIFY((*p)->upsertAspect({QStringLiteral("consistency"), {}, 1, 5}));
        QVector<Item> items;
        QVector<Annotation> notes;
        QHash<QString, double> fluency;
        const QJsonArray rows = QJsonDocument::fromJson(data.readAll()).array();
        QCOMPARE(rows.size(), 1600);
        for (const QJsonValue &v : rows) {
            const QJsonObject o = v.toObject();
            const QJsonObject sc = o.value(QStringLiteral("scores")).toObject();
            Item it;
            it.id = QString::number(items.size());
            it.group = o.value(QStringLiteral("doc_id")).toString();
            it.system = o.value(QStringLiteral("system_id")).toString();
            it.position = int(items.size());
            items.append(it);
            notes.append({it.id,
                          QStringLiteral("consistency"),
                          QStringLiteral("experts"),
                          sc.value(QStringLiteral("consistency")).toDouble(),
                          {},
                          {}});
            fluency.insert(it.id, sc.value(QStringLiteral("fluency")).toDouble());
        }
        QVERIFY((*p)->addItems(items));
        QVERIFY((*p)->addAnnotations(notes));
        QVERIFY((*p)->ensureJudge(QStringLiteral("fluency"), QStringLiteral("imported")));
        QVERIFY((*p)->setJudgeScores(QStringLiteral("fluency"), QStringLiteral("consistency"), fluency));
    }
    const QStringList base{QStringLiteral("correlate"), QStringLiteral("--project"),   path,
                           QStringLiteral("--aspect"),  QStringLiteral("consistency"), QStringLiteral("--judge"),
                           QStringLiteral("fluency"),   QStringLiteral("--level"),     QStringLiteral("group")};
    const Run r = rubricCli(base + flag + QStringList{QStringLiteral("--json")});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject o = r.json();
    QCOMPARE(o.value(QStringLiteral("constant_groups")).toString(), rule);
    for (const char *key : {"n", "groups_used", "groups_skipped", "groups_human_constant", "groups_judge_constant"})
        QVERIFY2(o.value(QLatin1String(key)).toInt() == want.value(QLatin1String(key)).toInt(), key);
    for (const char *key : {"pearson", "spearman", "kendall"}) {
        const double got = o.value(QLatin1String(key)).toDouble(), w = want.value(QLatin1String(key)).toDouble();
        QVERIFY2(std::abs(got - w) < 1e-9, qPrintable(QStringLiteral("%1: %2 vs scipy %3")
                                                              .arg(QLatin1String(key))
                                                              .arg(got, 0, 'g', 17)
                                                              .arg(w, 0, 'g', 17)));
    }
    // The text output names the rule and what each side's constancy did.
    const Run text = rubricCli(base + flag);
    QVERIFY2(text.code == 0, text.err.constData());
    const QByteArray named = QByteArray("constant groups: ").append(rule.toUtf8());
    QVERIFY2(text.out.contains(named), text.out.constData());
    QVERIFY2(text.out.contains("human scores constant in 4"), text.out.constData());
    QVERIFY2(text.out.contains("judge scores constant in 2"), text.out.constData());
}

void TestStatsCommands::unreadableProjectIsAnErrorNotEmpty_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QStringList>("args");
    const QStringList correlate{QStringLiteral("correlate"), QStringLiteral("--aspect"), QStringLiteral("coherence"),
                                QStringLiteral("--judge"),   QStringLiteral("mean"),     QStringLiteral("--split"),
                                QStringLiteral("all")};
    QTest::newRow("correlate, judge scores gone") << QStringLiteral("judge_scores") << correlate;
    QTest::newRow("correlate, annotations gone") << QStringLiteral("annotations") << correlate;
    QTest::newRow("agreement, annotations gone")
            << QStringLiteral("annotations")
            << QStringList{QStringLiteral("agreement"), QStringLiteral("--aspect"), QStringLiteral("coherence"),
                           QStringLiteral("--split"), QStringLiteral("all")};
    QTest::newRow("info, runs gone") << QStringLiteral("runs") << QStringList{QStringLiteral("info")};
    // Without --split the default depends on the split: unreadable, it is not "all items".
    QTest::newRow("correlate, default split, splits gone")
            << QStringLiteral("splits") << correlate.mid(0, correlate.size() - 2);
    QTest::newRow("split, annotations gone")
            << QStringLiteral("annotations")
            << QStringList{QStringLiteral("split"), QStringLiteral("--train"), QStringLiteral("5")};
}

void TestStatsCommands::unreadableProjectIsAnErrorNotEmpty()
{
    QFETCH(QString, table);
    QFETCH(QStringList, args);
    // A copy of the project with one table gone reads as damaged, not as one without scores.
    const QString damaged = m_dir.filePath(QStringLiteral("damaged-%1.rubric").arg(table));
    {
        auto p = Project::open(m_project);
        QVERIFY(p);
        QSqlQuery q(ProjectTestAccess::database(*(*p)));
        QVERIFY(q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")));
    }
    QFile::remove(damaged);
    QVERIFY(QFile::copy(m_project, damaged));
    {
        auto p = Project::open(damaged);
        QVERIFY(p);
        QSqlQuery q(ProjectTestAccess::database(*(*p)));
        QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys = OFF")));
        QVERIFY2(q.exec(QStringLiteral("DROP TABLE ") + table), qPrintable(q.lastError().text()));
    }
    const Run r = rubricCli(args + QStringList{QStringLiteral("--project"), damaged});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("cannot read"), r.err.constData());
    QVERIFY2(r.err.contains(table.toUtf8()), r.err.constData());
}

#include "TestStatsCommands.moc"
