// CloserLook(+ICL) (Chiang and Lee 2023, "analyze-rate"), the HPSS paper's human-designed baseline
// (issue 32): a fixed prompt text, no search, sampled 20 times at temperature 1 and averaged (†) on
// the test split. The prompt each request carries is compared byte for byte with the authors' file
// (prompts/summeval/coh_analyze_rate.txt of d223302/A-Closer-Look-To-LLM-Evaluation, read as their
// script reads it: open().read(), then str.replace of {{Document}} and {{Summary}}); the resource
// files are checked against the SHA-1 of the authors' eight files; the test Spearman is recomputed
// here from the ratings the endpoint sent.

#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"
#include "store/RubricStore.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace rubric;
using namespace rubric::test;

namespace {

constexpr int kTestItems = 6;
constexpr int kSamples = 20;

// The authors' prompts/summeval/coh_analyze_rate.txt as Python's text-mode read gives it.
const char *const kOfficialCoherence
        = "You will be given one summary written for a news article.\n"
          "\n"
          "Your task is to rate the summary on one metric.\n"
          "\n"
          "Please make sure you read and understand these instructions carefully. Please keep this document open while "
          "reviewing, and refer to it as needed.\n"
          "\n"
          "Evaluation Criteria:\n"
          "\n"
          "Coherence (1-5) - the collective quality of all sentences. We align this dimension with the DUC quality "
          "question of structure and coherence whereby \"the summary should be well-structured and well-organized. The "
          "summary should not just be a heap of related information, but should build from sentence to a coherent body "
          "of information about a topic.\"\n"
          "\n"
          "\n"
          "Example:\n"
          "\n"
          "\n"
          "Source Text:\n"
          "\n"
          "{{Document}}\n"
          "\n"
          "Summary:\n"
          "\n"
          "{{Summary}}\n"
          "\n"
          "\n"
          "Evaluation Form (Answer by starting with \"Analysis:\" to analyze the given example regarding the "
          "evaluation criteria as concise as possible, and then give the numeric rating on the next line by "
          "\"Rating:):\n"
          "\n"
          "- Coherence:\n";

// SHA-1 of the authors' eight analyze-rate files as Python's text-mode read gives them (computed
// from the authors' repository, commit 5cafdc6).
const QHash<QString, QByteArray> kOfficialSha1{
        {QStringLiteral("summeval_coh"), QByteArrayLiteral("dc1da5b1ef6c40673114a14602f25e3581ca4df0")},
        {QStringLiteral("summeval_con"), QByteArrayLiteral("79d1a7d2b9efad564652b9c220cfffecb5301db5")},
        {QStringLiteral("summeval_flu"), QByteArrayLiteral("3a740f13b14ac5c8aa0df6f69cdd16e8e09d9021")},
        {QStringLiteral("summeval_rel"), QByteArrayLiteral("fd80f05fa4aad6d269727c5841a2bf3a3337bedb")},
        {QStringLiteral("topical_chat_coh"), QByteArrayLiteral("b663e6c95bdb778e7a40a6e18c540f7954e743de")},
        {QStringLiteral("topical_chat_eng"), QByteArrayLiteral("e5e22769d1e2f845ca06645b0553fd5848d7e540")},
        {QStringLiteral("topical_chat_gro"), QByteArrayLiteral("c0e38243f8bdf7ab26896b43cf8acc1ce6fe3a9f")},
        {QStringLiteral("topical_chat_nat"), QByteArrayLiteral("d7e36ad91f75d44cdce4f4c699169e42fbef0585")},
};

QString userMessage(const QJsonObject &body)
{
    for (const auto &m : body.value(QStringLiteral("messages")).toArray())
        if (m.toObject().value(QStringLiteral("role")).toString() == QLatin1String("user"))
            return m.toObject().value(QStringLiteral("content")).toString();
    return {};
}

// Spearman as the average-rank Pearson (scipy.stats.spearmanr), written here.
double spearman(const QVector<double> &x, const QVector<double> &y)
{
    const auto ranks = [](const QVector<double> &v) {
        QVector<int> order(v.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&v](int a, int b) { return v[a] < v[b]; });
        QVector<double> r(v.size());
        for (int i = 0; i < order.size();) {
            int j = i;
            while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
                ++j;
            for (int k = i; k <= j; ++k)
                r[order[k]] = (i + j) / 2.0 + 1;
            i = j + 1;
        }
        return r;
    };
    const QVector<double> a = ranks(x), b = ranks(y);
    const double ma = std::accumulate(a.begin(), a.end(), 0.0) / a.size();
    const double mb = std::accumulate(b.begin(), b.end(), 0.0) / b.size();
    double sab = 0, saa = 0, sbb = 0;
    for (int i = 0; i < a.size(); ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return sab / std::sqrt(saa * sbb);
}

} // namespace

class TestHpssCloserLook : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_projects.isValid()); }
    void resourcesAreTheAuthorsFiles();
    void closerLookDaggerIsTheOfficialPromptSampled();
    void closerLookIclShowsHumanExamples();
    void otherTasksAreRefused();

private:
    TempProjects m_projects;
};

void TestHpssCloserLook::resourcesAreTheAuthorsFiles()
{
    for (auto it = kOfficialSha1.begin(); it != kOfficialSha1.end(); ++it) {
        QFile f(QStringLiteral(RUBRIC_SOURCE_DIR "/resources/prompts/hpss_closerlook/%1.txt").arg(it.key()));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        QCOMPARE(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha1).toHex(), it.value());
    }
    QFile f(QStringLiteral(RUBRIC_SOURCE_DIR "/resources/prompts/hpss_closerlook/summeval_coh.txt"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), QString::fromUtf8(kOfficialCoherence));
}

void TestHpssCloserLook::closerLookDaggerIsTheOfficialPromptSampled()
{
    auto fx = makeProject(m_projects.next(), kTestItems);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    QVector<QJsonObject> bodies;
    QHash<QString, QVector<int>> ratings; // per user message, the ratings the endpoint sent
    FakeLlmServer server;
    server.setJudge([&](const QJsonObject &body) {
        bodies.append(body);
        FakeAnswer a = judge.answer(body);
        static const QRegularExpression rating(QStringLiteral("Rating: (\\d+)"));
        const auto m = rating.match(a.text);
        if (m.hasMatch())
            ratings[userMessage(body)].append(m.captured(1).toInt());
        return a;
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("cl"), QStringLiteral("hpss"), server.baseUrl());
    s.settings.insert(QStringLiteral("prompt"), QStringLiteral("closerlook"));
    s.settings.insert(QStringLiteral("samples"), QString::number(kSamples));
    s.settings.insert(QStringLiteral("level"), QStringLiteral("dataset"));
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));

    // Every request: HPSS's system message, the official text filled as the authors' script fills
    // it for one test item, temperature 1; 20 per item and nothing else (no search, no auxiliary).
    QHash<QString, Item> byId;
    for (const Item &item : fx->project->items())
        byId.insert(item.id, item);
    QHash<QString, QString> expected; // user message -> item id
    for (const QString &id : std::as_const(fx->testIds)) {
        const Item &item = byId.value(id);
        const QString text = QString::fromUtf8(kOfficialCoherence)
                                     .replace(QLatin1String("{{Document}}"), item.source)
                                     .replace(QLatin1String("{{Summary}}"), item.output);
        expected.insert(text, id);
    }
    QCOMPARE(bodies.size(), kTestItems * kSamples);
    for (const QJsonObject &body : std::as_const(bodies)) {
        QVERIFY2(expected.contains(userMessage(body)), qPrintable(userMessage(body).left(300)));
        QCOMPARE(body.value(QStringLiteral("temperature")).toDouble(), 1.0);
    }
    QCOMPARE(ratings.size(), kTestItems);
    for (auto it = ratings.begin(); it != ratings.end(); ++it)
        QCOMPARE(it.value().size(), kSamples);

    // The test Spearman: the mean of each item's 20 ratings against its human score.
    const auto human = fx->project->humanScores(QStringLiteral("coherence"));
    QVector<double> means, humans;
    for (auto it = ratings.begin(); it != ratings.end(); ++it) {
        means.append(std::accumulate(it.value().begin(), it.value().end(), 0.0) / it.value().size());
        humans.append(human.value(expected.value(it.key())));
    }
    const QVariantMap result = o.summary.value(QStringLiteral("result")).toMap();
    QCOMPARE(result.value(QStringLiteral("test_n")).toInt(), kTestItems);
    QVERIFY(std::abs(result.value(QStringLiteral("test_spearman")).toDouble() - spearman(means, humans)) < 1e-9);
    QCOMPARE(result.value(QStringLiteral("strategy")).toString(), QStringLiteral("closerlook"));
    QCOMPARE(result.value(QStringLiteral("prompt")).toString(), QStringLiteral("hpss_closerlook/summeval_coh.txt"));
    QVERIFY(!result.contains(QStringLiteral("transfer_from")));

    // The stored judge: the prompt text, not a strategy.
    auto rubric = RubricStore(fx->project.get()).loadLatest(QStringLiteral("cl"));
    QVERIFY(rubric && *rubric);
    const Criterion root = (*rubric)->criteria().first();
    QCOMPARE(root.stats.value(QStringLiteral("prompt")).toString(), QStringLiteral("closerlook"));
    QCOMPARE(root.stats.value(QStringLiteral("prompt_text")).toString(), QString::fromUtf8(kOfficialCoherence));
    QVERIFY(!root.stats.contains(QStringLiteral("strategy")));
    QCOMPARE((*rubric)->criteria().size(), 1);

    // Again: every answer from the cache.
    const int sent = server.requestCount();
    const Outcome again = runToEnd(fx->project.get(), s);
    QVERIFY2(again.ok, qPrintable(again.error));
    QCOMPARE(server.requestCount(), sent);
}

void TestHpssCloserLook::closerLookIclShowsHumanExamples()
{
    auto fx = makeProject(m_projects.next(), kTestItems);
    QVERIFY(fx);
    SyntheticJudge judge(fx->humanByOutput);
    QVector<QString> prompts;
    FakeLlmServer server;
    server.setJudge([&](const QJsonObject &body) {
        prompts.append(userMessage(body));
        return judge.answer(body);
    });
    QVERIFY(server.listen());
    RunSpec s = spec(QStringLiteral("icl"), QStringLiteral("hpss"), server.baseUrl());
    s.settings.insert(QStringLiteral("prompt"), QStringLiteral("closerlook-icl"));
    s.settings.insert(QStringLiteral("level"), QStringLiteral("dataset"));
    const Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY2(o.ok, qPrintable(o.error));
    QCOMPARE(prompts.size(), kTestItems);
    const QString official = QString::fromUtf8(kOfficialCoherence);
    const qsizetype exampleAt = official.indexOf(QLatin1String("\nExample:\n"));
    QVERIFY(exampleAt > 0);
    const auto human = fx->project->humanScores(QStringLiteral("coherence"));
    QHash<QString, double> humanBySummary;
    for (const Item &item : fx->project->items())
        humanBySummary.insert(item.output, human.value(item.id));
    for (const QString &p : std::as_const(prompts)) {
        // The official text before its "Example:" line, the examples block, the rest of it filled.
        QVERIFY(p.startsWith(official.left(exampleAt + 1) + QStringLiteral("Human evaluation examples:\n\n")));
        const qsizetype examplesEnd = p.indexOf(QLatin1String("Example:\n"), exampleAt);
        QVERIFY(examplesEnd > exampleAt);
        // Each example: "Source Text:\n\n…\n\nSummary:\n\n…\n\nRating: r", ratings ascending.
        static const QRegularExpression block(
                QStringLiteral("Source Text:\\n\\n(.*?)\\n\\nSummary:\\n\\n(.*?)\\n\\nRating: ([0-9.]+)\\n\\n\\n"),
                QRegularExpression::DotMatchesEverythingOption);
        QVector<double> shown;
        auto it = block.globalMatch(p.left(examplesEnd));
        while (it.hasNext()) {
            const auto m = it.next();
            QVERIFY2(humanBySummary.contains(m.captured(2)), qPrintable(m.captured(2).left(80)));
            QCOMPARE(m.captured(3).toDouble(), std::round(humanBySummary.value(m.captured(2)) * 100) / 100);
            shown.append(m.captured(3).toDouble());
        }
        QVERIFY2(shown.size() >= 3 && shown.size() <= 5, qPrintable(QString::number(shown.size())));
        QVERIFY(std::is_sorted(shown.begin(), shown.end()));
        QVERIFY(p.endsWith(official.mid(official.indexOf(QLatin1String("\n\nEvaluation Form")))));
    }
}

void TestHpssCloserLook::otherTasksAreRefused()
{
    auto fx = makeProject(m_projects.next(), kTestItems);
    QVERIFY(fx);
    RunSpec s = spec(QStringLiteral("x"), QStringLiteral("hpss"), QStringLiteral("http://127.0.0.1:9/v1"));
    s.settings.insert(QStringLiteral("prompt"), QStringLiteral("closerlook"));
    s.settings.insert(QStringLiteral("task"), QStringLiteral("hanna"));
    Outcome o = runToEnd(fx->project.get(), s);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("task 'hanna'")), qPrintable(o.error));
    s.settings.insert(QStringLiteral("task"), QStringLiteral("summeval"));
    s.settings.insert(QStringLiteral("prompt"), QStringLiteral("closer"));
    o = runToEnd(fx->project.get(), s);
    QVERIFY(!o.ok);
    QVERIFY2(o.error.contains(QLatin1String("'closer'")), qPrintable(o.error));
}

QTEST_GUILESS_MAIN(TestHpssCloserLook)
#include "TestHpssCloserLook.moc"
