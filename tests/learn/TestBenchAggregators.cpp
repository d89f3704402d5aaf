#include "learn/Aggregator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace rubric::learn;

/// `rubric bench aggregators` through the real CLI (RUBRIC_CLI).
class TestBenchAggregators : public QObject
{
    Q_OBJECT

private slots:
    void printsEveryKind();
    void badSettingIsRefused();
};

void TestBenchAggregators::printsEveryKind()
{
    QVERIFY(!qEnvironmentVariable("RUBRIC_CLI").isEmpty());
    QProcess p;
    p.start(qEnvironmentVariable("RUBRIC_CLI"),
            {QStringLiteral("bench"), QStringLiteral("aggregators"), QStringLiteral("--sizes"), QStringLiteral("30,60"),
             QStringLiteral("--set"), QStringLiteral("forest_trees=20"), QStringLiteral("--json")});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    const QJsonArray rows = QJsonDocument::fromJson(p.readAllStandardOutput()).array();
    QCOMPARE(rows.size(), 2 * aggregatorKindNames().size());
    QStringList kinds;
    for (const QJsonValue &v : rows) {
        const QJsonObject row = v.toObject();
        kinds.append(row.value(QStringLiteral("kind")).toString());
        QCOMPARE(row.value(QStringLiteral("features")).toInt(), 40);
        QCOMPARE(row.value(QStringLiteral("folds")).toInt(), 5);
        QVERIFY(row.value(QStringLiteral("fit_ms")).toDouble() >= 0);
        QVERIFY(row.value(QStringLiteral("cv_ms")).toDouble() > 0);
        QVERIFY(row.value(QStringLiteral("cv_r")).isDouble());
    }
    QCOMPARE(kinds.mid(0, aggregatorKindNames().size()), aggregatorKindNames());
    QCOMPARE(rows[0].toObject().value(QStringLiteral("items")).toInt(), 30);
    QCOMPARE(rows.last().toObject().value(QStringLiteral("items")).toInt(), 60);
}

void TestBenchAggregators::badSettingIsRefused()
{
    QProcess p;
    p.start(qEnvironmentVariable("RUBRIC_CLI"), {QStringLiteral("bench"), QStringLiteral("aggregators"),
                                                 QStringLiteral("--set"), QStringLiteral("boost_eta=fast")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 2);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("boost_eta")) && err.contains(QStringLiteral("'fast'")), qPrintable(err));
}

QTEST_GUILESS_MAIN(TestBenchAggregators)
#include "TestBenchAggregators.moc"
