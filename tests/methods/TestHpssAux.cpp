// HPSS's auxiliary texts edited by the user, transfer of a finished strategy, and the validation vs
// test report, on real projects against the loopback fake judge:
// - an edited reference / AutoCoT text is kept, never made again, and the next run sends exactly
//   the evaluations whose prompts contain it (counted at the endpoint); an edit nothing used sends none;
// - `--set transfer_from=JUDGE` (same or another project) and `--set strategy=…` score a strategy
//   on the test split without a search, making only the auxiliaries it needs;
// - `rubric run` prints validation and test Spearman side by side with the overfitting warning,
//   and show-rubric --json carries them.

#include "FakeLlmServer.h"
#include "HpssCli.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "methods/hpss/HpssArtefacts.h"
#include "methods/hpss/HpssAuxiliary.h"
#include "methods/hpss/HpssSearch.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;
namespace art = rubric::hpss::artefacts;

namespace {

constexpr int kTestItems = 6;
constexpr int kValidation = 30;

/// The strategies the judge's stored search evaluated.
QVector<hpss::PromptStrategy> storedStrategies(Project &project, const QString &judge)
{
    QVector<hpss::PromptStrategy> out;
    const auto state = hpss::state::load(project, judge);
    if (!state)
        return out;
    auto search = hpss::HpssSearch::fromVariant(state->value(QStringLiteral("search")));
    if (!search)
        return out;
    for (const hpss::SearchRecord &r : search->evaluated())
        out.append(r.proposal.strategy);
    return out;
}

hpss::Auxiliaries storedAux(Project &project, const QString &judge)
{
    const auto state = hpss::state::load(project, judge);
    return state ? hpss::Auxiliaries::fromVariant(state->value(QStringLiteral("aux"))) : hpss::Auxiliaries{};
}

QStringList baseArgs(const QString &project, const QString &judge, const QString &url)
{
    return {QStringLiteral("run"),
            QStringLiteral("--project"),
            project,
            QStringLiteral("--method"),
            QStringLiteral("hpss"),
            QStringLiteral("--aspect"),
            QStringLiteral("coherence"),
            QStringLiteral("--judge"),
            judge,
            QStringLiteral("--base-url"),
            url,
            QStringLiteral("--model"),
            QStringLiteral("synthetic")};
}

} // namespace

class TestHpssAux : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_projects.isValid()); }
    void editResendsOnlyTheEvaluationsThatUsedIt();
    void transferScoresAStrategyWithoutSearch();
    void validationAndTestSideBySide();

private:
    TempProjects m_projects;
};

void TestHpssAux::editResendsOnlyTheEvaluationsThatUsedIt()
{
    // Plain random search: the strategies it evaluates do not depend on their scores, so a second
    // run evaluates the same ones and the requests it sends are exactly the changed prompts.
    constexpr int budget = 16;
    auto fx = makeProject(m_projects.next(), kTestItems);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    server.setRecording(true);
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("a"), QStringLiteral("hpss"), server.baseUrl());
    s.settings.insert(QStringLiteral("budget"), QString::number(budget));
    s.settings.insert(QStringLiteral("search"), QStringLiteral("random"));
    s.settings.insert(QStringLiteral("seed"), QStringLiteral("3"));
    const Outcome first = runToEnd(fx->project.get(), s);
    QVERIFY2(first.ok, qPrintable(first.error));
    const QString winner
            = first.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("strategy")).toString();
    const QVector<hpss::PromptStrategy> evaluated = storedStrategies(*fx->project, QStringLiteral("a"));
    QCOMPARE(evaluated.size(), budget);
    const QString path = fx->project->path();
    const QString item = fx->project->itemIds(SplitFilter::Train).first();

    // The list: every text, with the strategies that used it.
    int rc = -1;
    const QJsonObject listed = cliJson({QStringLiteral("hpss-aux"), QStringLiteral("--project"), path,
                                        QStringLiteral("--judge"), QStringLiteral("a"), QStringLiteral("--json")},
                                       &rc);
    QCOMPARE(rc, 0);
    const QJsonArray entries = listed.value(QStringLiteral("entries")).toArray();
    QVERIFY(!entries.isEmpty());
    int refUsers = 0;
    for (const hpss::PromptStrategy &st : evaluated)
        refUsers += art::uses(st, art::Kind::Reference, item) ? 1 : 0;
    QVERIFY2(refUsers > 0 && refUsers < budget, qPrintable(QString::number(refUsers)));
    bool listedRef = false;
    for (const auto &e : entries) {
        const QJsonObject o = e.toObject();
        if (o.value(QStringLiteral("kind")).toString() == QLatin1String("reference")
            && o.value(QStringLiteral("key")).toString() == item) {
            listedRef = true;
            QCOMPARE(o.value(QStringLiteral("used_by_steps")).toArray().size(), refUsers);
            QCOMPARE(o.value(QStringLiteral("edited")).toBool(), false);
        }
    }
    QVERIFY(listedRef);
    const QString original = storedAux(*fx->project, QStringLiteral("a")).references.value(item);
    QVERIFY(!original.isEmpty());

    // Edit the reference of one validation item from a file.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("ref.txt"));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("An EDITED reference summary, written by the user.\n");
    }
    const QJsonObject edited
            = cliJson({QStringLiteral("hpss-aux"), QStringLiteral("--project"), path, QStringLiteral("--judge"),
                       QStringLiteral("a"), QStringLiteral("--kind"), QStringLiteral("reference"),
                       QStringLiteral("--item"), item, QStringLiteral("--set-file"), file, QStringLiteral("--json")},
                      &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(edited.value(QStringLiteral("stale_steps")).toArray().size(), refUsers);
    QCOMPARE(edited.value(QStringLiteral("search_repeats")).toBool(), true);
    QCOMPARE(edited.value(QStringLiteral("original")).toString(), original);
    QString shown;
    cliJson({QStringLiteral("hpss-aux"), QStringLiteral("--project"), path, QStringLiteral("--judge"),
             QStringLiteral("a"), QStringLiteral("--kind"), QStringLiteral("reference"), QStringLiteral("--item"),
             item},
            &rc, &shown);
    QCOMPARE(rc, 0);
    QVERIFY2(shown.contains(QLatin1String("(edited)")) && shown.contains(QLatin1String("An EDITED reference")),
             qPrintable(shown));

    // The next run: only the evaluations with that reference in a prompt are sent, nothing else.
    server.resetCounts();
    const int recordedBefore = int(server.recorded().size());
    const Outcome second = runToEnd(fx->project.get(), s);
    QVERIFY2(second.ok, qPrintable(second.error));
    QCOMPARE(second.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("evaluations")).toInt(),
             budget);
    QCOMPARE(phaseCalls(second.summary, QStringLiteral("search")), budget * kValidation);
    QCOMPARE(phaseCalls(second.summary, QStringLiteral("search"), "sent"), refUsers);
    QCOMPARE(phaseCalls(second.summary, QStringLiteral("auxiliary"), "sent"), 0); // the edit is not made again
    const int evaluateSent = phaseCalls(second.summary, QStringLiteral("evaluate"), "sent");
    const QString winner2
            = second.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("strategy")).toString();
    if (winner2 == winner)
        QCOMPARE(evaluateSent, 0);
    QCOMPARE(server.requestCount(), refUsers + evaluateSent);
    const auto recorded = server.recorded();
    for (qsizetype i = recordedBefore; i < recordedBefore + refUsers; ++i)
        QVERIFY(recorded[i].body.contains("An EDITED reference summary"));
    const hpss::Auxiliaries aux = storedAux(*fx->project, QStringLiteral("a"));
    QCOMPARE(aux.references.value(item), QStringLiteral("An EDITED reference summary, written by the user."));
    QCOMPARE(aux.edited.value(QStringLiteral("reference:") + item), original);
    qInfo("reference of %s edited: %d of %d strategies used it, the next run sent %d search request(s) and %d on the "
          "test split",
          qPrintable(item), refUsers, budget, phaseCalls(second.summary, QStringLiteral("search"), "sent"),
          evaluateSent);

    // An AutoCoT text is in every validation prompt of the strategies that show it.
    QString autocotKey;
    int autocotUsers = 0;
    for (auto it = aux.autocot.begin(); it != aux.autocot.end(); ++it) {
        int users = 0;
        for (const hpss::PromptStrategy &st : evaluated)
            users += art::uses(st, art::Kind::AutoCot, it.key()) ? 1 : 0;
        if (users > autocotUsers) {
            autocotKey = it.key();
            autocotUsers = users;
        }
    }
    QVERIFY(autocotUsers > 0);
    auto autocotEdit = art::edit(*fx->project, QStringLiteral("a"), art::Kind::AutoCot, autocotKey,
                                 QStringLiteral("1. Read the article.\n2. Read the summary.\n3. Rate it."));
    QVERIFY2(autocotEdit, qPrintable(autocotEdit ? QString() : autocotEdit.errorString()));
    QCOMPARE(autocotEdit->entry.usedBySteps.size(), autocotUsers);
    server.resetCounts();
    const Outcome third = runToEnd(fx->project.get(), s);
    QVERIFY2(third.ok, qPrintable(third.error));
    QCOMPARE(phaseCalls(third.summary, QStringLiteral("search"), "sent"), autocotUsers * kValidation);
    QCOMPARE(phaseCalls(third.summary, QStringLiteral("auxiliary"), "sent"), 0);
    qInfo("AutoCoT %s edited: %d strategies used it, the next run sent %d search requests (%d × %d items)",
          qPrintable(autocotKey), autocotUsers, phaseCalls(third.summary, QStringLiteral("search"), "sent"),
          autocotUsers, kValidation);

    // A text no evaluation used (a test item's reference): no search again, nothing sent for the search.
    const QString testItem = fx->testIds.last();
    auto unused = art::edit(*fx->project, QStringLiteral("a"), art::Kind::Reference, testItem,
                            QStringLiteral("A reference of a test item."));
    QVERIFY(unused);
    QVERIFY(unused->entry.usedBySteps.isEmpty());
    QVERIFY(!unused->searchRepeats);
    server.resetCounts();
    const Outcome fourth = runToEnd(fx->project.get(), s);
    QVERIFY2(fourth.ok, qPrintable(fourth.error));
    QCOMPARE(phaseCalls(fourth.summary, QStringLiteral("search")), 0); // the search is finished
    const bool winnerUsesIt = art::uses(*hpss::PromptStrategy::parse(fourth.summary.value(QStringLiteral("result"))
                                                                             .toMap()
                                                                             .value(QStringLiteral("strategy"))
                                                                             .toString()),
                                        art::Kind::Reference, testItem);
    QCOMPARE(server.requestCount(), winnerUsesIt ? 1 : 0);

    // --replace: a new judge; the user's edits stay and are not made again. The texts nobody
    // edited are made again (from the cache), except that an item sharing its source with the
    // edited item takes the edited reference as it took the generated one: the only new prompts.
    RunSpec replaced = s;
    replaced.replace = true;
    server.resetCounts();
    const Outcome fifth = runToEnd(fx->project.get(), replaced);
    QVERIFY2(fifth.ok, qPrintable(fifth.error));
    const hpss::Auxiliaries afterReplace = storedAux(*fx->project, QStringLiteral("a"));
    QCOMPARE(afterReplace.references.value(item), QStringLiteral("An EDITED reference summary, written by the user."));
    QCOMPARE(afterReplace.autocot.value(autocotKey),
             QStringLiteral("1. Read the article.\n2. Read the summary.\n3. Rate it."));
    QCOMPARE(afterReplace.edited.size(), 3);
    QCOMPARE(phaseCalls(fifth.summary, QStringLiteral("auxiliary"), "sent"), 0);
    int sameSource = 0;
    for (const QString &id : fx->project->itemIds(SplitFilter::Train))
        sameSource += id != item && fx->project->item(id)->source == fx->project->item(item)->source ? 1 : 0;
    QCOMPARE(phaseCalls(fifth.summary, QStringLiteral("search"), "sent"), refUsers * sameSource);

    // Bad edits name what is wrong.
    QString err;
    cliJson({QStringLiteral("hpss-aux"), QStringLiteral("--project"), path, QStringLiteral("--judge"),
             QStringLiteral("a"), QStringLiteral("--kind"), QStringLiteral("reference"), QStringLiteral("--item"),
             QStringLiteral("no-such-item"), QStringLiteral("--set-file"), file},
            &rc, nullptr, &err);
    QCOMPARE(rc, 1);
    QVERIFY2(err.contains(QLatin1String("no item 'no-such-item'")) && err.contains(file), qPrintable(err));
    cliJson({QStringLiteral("hpss-aux"), QStringLiteral("--project"), path, QStringLiteral("--judge"),
             QStringLiteral("a"), QStringLiteral("--kind"), QStringLiteral("steps")},
            &rc, nullptr, &err);
    QCOMPARE(rc, 2);
    QVERIFY2(err.contains(QLatin1String("unknown auxiliary kind 'steps'")), qPrintable(err));
    auto empty = art::edit(*fx->project, QStringLiteral("a"), art::Kind::Criteria, {}, QStringLiteral("  \n"));
    QVERIFY(!empty);
    QCOMPARE(empty.error().field, QStringLiteral("text"));
    auto badKey = art::edit(*fx->project, QStringLiteral("a"), art::Kind::AutoCot, QStringLiteral("7/human"),
                            QStringLiteral("steps"));
    QVERIFY(!badKey);
    QCOMPARE(badKey.error().field, QStringLiteral("key"));
}

void TestHpssAux::transferScoresAStrategyWithoutSearch()
{
    auto fx = makeProject(m_projects.next(), kTestItems);
    auto other = makeSummEvalProject(m_projects.next(), 8, 7); // another project, other items
    QVERIFY(fx && other);
    QHash<QString, double> human = fx->humanByOutput;
    for (auto it = other->humanByOutput.begin(); it != other->humanByOutput.end(); ++it)
        human.insert(it.key(), it.value());
    SyntheticJudge judge(human);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());

    // The source: a finished search (a short random one: the search is not the point here).
    RunSpec src = spec(QStringLiteral("src"), QStringLiteral("hpss"), server.baseUrl());
    src.settings.insert(QStringLiteral("budget"), QStringLiteral("6"));
    src.settings.insert(QStringLiteral("search"), QStringLiteral("random"));
    const Outcome searched = runToEnd(fx->project.get(), src);
    QVERIFY2(searched.ok, qPrintable(searched.error));
    const QString winner
            = searched.summary.value(QStringLiteral("result")).toMap().value(QStringLiteral("strategy")).toString();

    // To another project (the paper's Table 4), from the command line.
    server.resetCounts();
    int rc = -1;
    QStringList args = baseArgs(other->project->path(), QStringLiteral("t"), server.baseUrl());
    args << QStringLiteral("--set") << QStringLiteral("transfer_from=src") << QStringLiteral("--set")
         << QStringLiteral("transfer_project=") + fx->project->path();
    const QJsonObject estimate
            = cliJson(args + QStringList{QStringLiteral("--estimate"), QStringLiteral("--json")}, &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(server.requestCount(), 0);
    QVERIFY(estimate.value(QStringLiteral("exact")).toBool());
    QCOMPARE(estimate.value(QStringLiteral("phases")).toObject().value(QStringLiteral("search")).toInt(), 0);
    const QJsonObject ran = cliJson(args + QStringList{QStringLiteral("--json")}, &rc);
    QCOMPARE(rc, 0);
    const QJsonObject result = ran.value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("strategy")).toString(), winner);
    QCOMPARE(result.value(QStringLiteral("evaluations")).toInt(), 0);
    QVERIFY(result.value(QStringLiteral("transfer_from")).toString().contains(fx->project->path()));
    QCOMPARE(result.value(QStringLiteral("test_n")).toInt(), int(other->testIds.size()));
    QVERIFY(result.value(QStringLiteral("validation_spearman")).isNull());
    const QJsonObject calls = ran.value(QStringLiteral("calls")).toObject();
    QCOMPARE(calls.value(QStringLiteral("search")).toObject().value(QStringLiteral("calls")).toInt(), 0);
    QCOMPARE(calls.value(QStringLiteral("evaluate")).toObject().value(QStringLiteral("calls")).toInt(),
             int(other->testIds.size()));
    QCOMPARE(server.requestCount(), estimate.value(QStringLiteral("calls")).toInt());
    const QJsonObject shown
            = cliJson({QStringLiteral("show-rubric"), QStringLiteral("--project"), other->project->path(),
                       QStringLiteral("--judge"), QStringLiteral("t"), QStringLiteral("--json")},
                      &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(hpss::PromptStrategy::fromVariant(shown.value(QStringLiteral("strategy")).toVariant())->format(), winner);
    QVERIFY(!shown.contains(QStringLiteral("search")));
    QVERIFY(shown.contains(QStringLiteral("transfer_from")));
    QVERIFY(shown.value(QStringLiteral("test_spearman")).isDouble());
    qInfo("transfer of %s to another project: test Spearman %.3f (n = %d), %d requests", qPrintable(winner),
          result.value(QStringLiteral("test_spearman")).toDouble(), result.value(QStringLiteral("test_n")).toInt(),
          server.requestCount());

    // An explicit strategy that needs a reference and questions: made for the test items only.
    server.resetCounts();
    RunSpec given = spec(QStringLiteral("given"), QStringLiteral("hpss"), server.baseUrl());
    given.settings.insert(
            QStringLiteral("strategy"),
            QStringLiteral(
                    "scale:10,examples:3,criteria:human,reference:self,cot:none,autocot:off,metrics:on,order:IET"));
    const Outcome explicitRun = runToEnd(other->project.get(), given);
    QVERIFY2(explicitRun.ok, qPrintable(explicitRun.error));
    QSet<QString> sources;
    for (const QString &id : std::as_const(other->testIds))
        sources.insert(other->project->item(id)->source);
    QCOMPARE(phaseCalls(explicitRun.summary, QStringLiteral("auxiliary")), 2 * int(sources.size()));
    QCOMPARE(phaseCalls(explicitRun.summary, QStringLiteral("search")), 0);
    QCOMPARE(phaseCalls(explicitRun.summary, QStringLiteral("evaluate")), int(other->testIds.size()));
    // (questions the transfer above made for the same sources come from the cache)
    QCOMPARE(phaseCalls(explicitRun.summary, QStringLiteral("evaluate"), "sent"), int(other->testIds.size()));
    QCOMPARE(server.requestCount(),
             phaseCalls(explicitRun.summary, QStringLiteral("auxiliary"), "sent") + int(other->testIds.size()));

    // Bad transfers name the parameter.
    RunSpec bad = spec(QStringLiteral("bad"), QStringLiteral("hpss"), server.baseUrl());
    bad.settings.insert(QStringLiteral("transfer_from"), QStringLiteral("nosuch"));
    Outcome o = runToEnd(other->project.get(), bad);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("transfer_from")) && o.error.contains(QLatin1String("nosuch")),
             qPrintable(o.error));
    QVERIFY(!other->project->judge(QStringLiteral("bad"))); // refused before the judge was made
    bad.settings.insert(QStringLiteral("strategy"), winner);
    o = runToEnd(other->project.get(), bad);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("exclude each other")), qPrintable(o.error));
}

void TestHpssAux::validationAndTestSideBySide()
{
    auto fx = makeProject(m_projects.next(), kTestItems);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    FakeLlmServer server;
    server.setJudge([&judge](const QJsonObject &body) { return judge.answer(body); });
    QVERIFY(server.listen());
    // gap_warning = -1: any gap warns (the default 0.10 warns only on a large one).
    QStringList args = baseArgs(fx->project->path(), QStringLiteral("w"), server.baseUrl());
    args << QStringLiteral("--set") << QStringLiteral("budget=6") << QStringLiteral("--set")
         << QStringLiteral("search=random") << QStringLiteral("--set") << QStringLiteral("gap_warning=-1");
    int rc = -1;
    QString out;
    cliJson(args, &rc, &out);
    QCOMPARE(rc, 0);
    const QRegularExpression line(QStringLiteral("Spearman  validation (-?\\d\\.\\d{3}) \\(n = 30\\)  \\|  test "
                                                 "(-?\\d\\.\\d{3}) \\(n = %1\\)")
                                          .arg(kTestItems));
    const auto m = line.match(out);
    QVERIFY2(m.hasMatch(), qPrintable(out));
    QVERIFY2(out.contains(QLatin1String("warning: the winner's Spearman on the validation split")), qPrintable(out));
    const QJsonObject shown = cliJson({QStringLiteral("show-rubric"), QStringLiteral("--project"), fx->project->path(),
                                       QStringLiteral("--judge"), QStringLiteral("w"), QStringLiteral("--json")},
                                      &rc);
    QCOMPARE(rc, 0);
    QCOMPARE(QString::number(shown.value(QStringLiteral("validation_spearman")).toDouble(), 'f', 3), m.captured(1));
    QCOMPARE(QString::number(shown.value(QStringLiteral("test_spearman")).toDouble(), 'f', 3), m.captured(2));
    QCOMPARE(shown.value(QStringLiteral("validation_n")).toInt(), kValidation);
    QVERIFY(!shown.value(QStringLiteral("gap_warning")).toString().isEmpty());
    QCOMPARE(shown.value(QStringLiteral("search")).toObject().value(QStringLiteral("evaluated")).toArray().size(), 6);

    // The default threshold: no warning for this small gap, the same correlations (all cached).
    QStringList plain = baseArgs(fx->project->path(), QStringLiteral("w2"), server.baseUrl());
    plain << QStringLiteral("--set") << QStringLiteral("budget=6") << QStringLiteral("--set")
          << QStringLiteral("search=random");
    cliJson(plain, &rc, &out);
    QCOMPARE(rc, 0);
    const double gap = m.captured(1).toDouble() - m.captured(2).toDouble();
    QCOMPARE(out.contains(QLatin1String("warning:")), gap > 0.10);
    QVERIFY(out.contains(QLatin1String("Spearman  validation ") + m.captured(1)));
    qInfo("%s", qPrintable(out.trimmed()));

    QString err;
    QStringList badArgs = baseArgs(fx->project->path(), QStringLiteral("w3"), server.baseUrl());
    badArgs << QStringLiteral("--set") << QStringLiteral("gap_warning=lots");
    cliJson(badArgs, &rc, nullptr, &err);
    QVERIFY(rc != 0);
    QVERIFY2(err.contains(QLatin1String("gap_warning")), qPrintable(err));
}

QTEST_GUILESS_MAIN(TestHpssAux)
#include "TestHpssAux.moc"
