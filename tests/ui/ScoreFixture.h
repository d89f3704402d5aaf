#pragma once
// Test fixture for the analysis panes: a project with items, one aspect, human scores, a
// train/test split and one judge with a rubric version, criterion scores (with reasoning and
// raw answers) and aggregated scores. Deterministic (fixed seed).

#include "store/Project.h"
#include "store/RubricStore.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QtTest>

#include <cmath>
#include <memory>

namespace rubric::fixture {

struct Criterion
{
    QString key;
    QString text;
};

inline std::unique_ptr<Project> openProject(const QString &path)
{
    auto p = Project::open(path);
    if (!p)
        qFatal("cannot open fixture project: %s", qPrintable(p.errorString()));
    return std::move(p).value();
}

/// Writes a rubric version with `criteria` and the criterion answers of `judge`
/// (`scores[item][k]` for criteria[k]; NaN = unparseable answer), then the aggregated judge
/// score (mean of the parsed criterion scores) through Project::setJudgeScores.
inline void writeJudge(Project &project, const QString &judge, const QString &aspect,
                       const QVector<Criterion> &criteria, const QHash<QString, QVector<double>> &scores)
{
    const auto run = project.ensureJudge(judge, QStringLiteral("hypoeval"));
    QVERIFY2(run.ok(), qPrintable(run.errorString()));
    RubricStore store(&project);
    Rubric rubric(QStringLiteral("hypoeval"), aspect);
    for (const Criterion &c : criteria) {
        rubric::Criterion node;
        node.key = c.key;
        node.kind = CriterionKind::Hypothesis;
        node.text = c.text;
        node.origin = {{QStringLiteral("source"), QStringLiteral("data")}};
        node.stats = {{QStringLiteral("reward"), 0.8}, {QStringLiteral("train_pearson"), 0.5}};
        rubric.add(node);
    }
    const auto saved = store.saveVersion(judge, rubric, QStringLiteral("fixture"), 0.5);
    QVERIFY2(saved.ok(), qPrintable(saved.errorString()));
    QHash<QString, double> aggregated;
    QVector<CriterionScore> rows;
    for (auto it = scores.begin(); it != scores.end(); ++it) {
        double sum = 0;
        int n = 0;
        for (int k = 0; k < criteria.size(); ++k) {
            const double s = it.value().value(k, std::nan(""));
            const bool parsed = !std::isnan(s);
            CriterionScore row;
            row.itemId = it.key();
            row.criterionKey = criteria[k].key;
            row.score = s;
            row.parseStatus = parsed ? QStringLiteral("ok") : QStringLiteral("unparsed");
            row.raw = parsed ? QStringLiteral("Step 1: trait.\nStep 2: assessment.\nScore: %1").arg(s)
                             : QStringLiteral("I cannot rate this.");
            row.reasoning = QStringLiteral("Reasoning of %1 on %2").arg(criteria[k].key, it.key());
            rows.append(row);
            if (parsed) {
                sum += s;
                ++n;
            }
        }
        aggregated.insert(it.key(), n ? sum / n : std::nan(""));
    }
    const auto written = store.writeCriterionScores(judge, rows);
    QVERIFY2(written.ok(), qPrintable(written.errorString()));
    const auto s = project.setJudgeScores(judge, aspect, aggregated);
    QVERIFY2(s.ok(), qPrintable(s.errorString()));
}

/// A synthetic project: `items` items in groups of 16 over 16 systems, aspect "coherence"
/// (1–5), a human score for every item but every 10th, items 0..29 train and the rest test,
/// and judge "hypo" with `criteria` criteria scoring near the human score (seeded noise);
/// every 7th item × criterion answer is unparseable.
inline void fillSynthetic(Project &project, int items, int criteria, quint32 seed = 42)
{
    QRandomGenerator rng(seed);
    QVector<Item> list;
    for (int i = 0; i < items; ++i) {
        Item it;
        it.id = QStringLiteral("item-%1").arg(i, 4, 10, QLatin1Char('0'));
        it.group = QStringLiteral("doc-%1").arg(i / 16);
        it.system = QStringLiteral("M%1").arg(i % 16);
        it.source = QStringLiteral("source %1").arg(i);
        it.output = QStringLiteral("output %1").arg(i);
        it.reference = QStringLiteral("reference %1").arg(i);
        list.append(it);
    }
    const auto added = project.addItems(list);
    QVERIFY2(added.ok(), qPrintable(added.errorString()));
    {
        const auto r = project.upsertAspect(
                {QStringLiteral("coherence"), QStringLiteral("How well it hangs together."), 1, 5});
        QVERIFY2(r.ok(), qPrintable(r.errorString()));
    }
    QVector<Annotation> annotations;
    QHash<QString, SplitRole> split;
    QHash<QString, QVector<double>> scores;
    QVector<Criterion> crit;
    for (int k = 0; k < criteria; ++k)
        crit.append({QStringLiteral("h%1").arg(k + 1), QStringLiteral("Hypothesis %1 about coherence").arg(k + 1)});
    for (int i = 0; i < items; ++i) {
        const QString id = list[i].id;
        const double human = 1 + rng.bounded(4.0);
        if (i % 10 != 9)
            annotations.append({id, QStringLiteral("coherence"), QStringLiteral("alice"), std::round(human * 3) / 3,
                                QStringLiteral(""), QDateTime::currentDateTimeUtc()});
        split.insert(id, i < 30 ? SplitRole::Train : SplitRole::Test);
        QVector<double> row;
        for (int k = 0; k < criteria; ++k) {
            const double s = std::clamp(std::round(human + rng.bounded(2.0) - 1.0), 1.0, 5.0);
            row.append(((i + k) % 7 == 6) ? std::nan("") : s);
        }
        scores.insert(id, row);
    }
    {
        const auto r = project.addAnnotations(annotations);
        QVERIFY2(r.ok(), qPrintable(r.errorString()));
    }
    {
        const auto r = project.setSplit(split);
        QVERIFY2(r.ok(), qPrintable(r.errorString()));
    }
    writeJudge(project, QStringLiteral("hypo"), QStringLiteral("coherence"), crit, scores);
}

} // namespace rubric::fixture
