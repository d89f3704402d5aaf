// Sums that do not depend on the order of their terms (issue 34.4): `rubric info --json` printed a
// different human mean from one call to the next (3.412500000000007, then 3.412499999999996)
// because it summed a QHash, whose order changes with each process's random seed.
#include "stats/StableSum.h"
#include "store/Project.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace rubric;

namespace {

/// Distance of two doubles in units in the last place.
qint64 ulps(double a, double b)
{
    qint64 x, y;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    return std::llabs(x - y);
}

} // namespace

class TestStableSums : public QObject
{
    Q_OBJECT
private slots:
    void sumIgnoresOrder();
    void infoPrintsTheSameMeanEveryCall();
};

void TestStableSums::sumIgnoresOrder()
{
    // Thirds (means of three raters) do not add exactly: a plain sum's last digits follow the order.
    std::mt19937 rng(34);
    std::uniform_int_distribution<int> rater(1, 5);
    std::vector<double> values;
    qint64 thirds = 0; // the exact sum, in thirds
    for (int i = 0; i < 20000; ++i) {
        const int s = rater(rng) + rater(rng) + rater(rng);
        thirds += s;
        values.push_back(double(s) / 3.0);
    }
    // The exact mean, rounded once: thirds / (3 n) of two exactly representable integers.
    const double exact = double(thirds) / double(3 * qint64(values.size()));
    const double first = stats::stableMean(values);
    QSet<double> plain;
    for (int round = 0; round < 20; ++round) {
        std::shuffle(values.begin(), values.end(), rng);
        QCOMPARE(stats::stableMean(values), first);
        double naive = 0;
        for (double v : values)
            naive += v;
        plain.insert(naive / double(values.size()));
    }
    QVERIFY2(plain.size() > 1, "the data should make a plain sum depend on the order");
    QVERIFY2(ulps(first, exact) <= 1,
             qPrintable(QStringLiteral("%1 vs exact %2").arg(first, 0, 'g', 17).arg(exact, 0, 'g', 17)));
    QVERIFY(std::isnan(stats::stableMean({})));
}

void TestStableSums::infoPrintsTheSameMeanEveryCall()
{
    const QString cli = qEnvironmentVariable("RUBRIC_CLI");
    QVERIFY(!cli.isEmpty());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("p.rubric"));
    qint64 thirds = 0;
    int items = 0;
    {
        auto p = Project::open(path);
        QVERIFY2(p, qPrintable(p.errorString()));
        QVERIFY((*p)->upsertAspect({QStringLiteral("coherence"), QString(), 1, 5}));
        QVector<Item> list;
        QVector<Annotation> ann;
        std::mt19937 rng(7);
        std::uniform_int_distribution<int> rater(1, 5);
        for (int i = 0; i < 3000; ++i) {
            Item it;
            it.id = QStringLiteral("i%1").arg(i);
            list.append(it);
            for (int a = 0; a < 3; ++a) {
                const int s = rater(rng);
                thirds += s;
                ann.append({it.id, QStringLiteral("coherence"), QStringLiteral("r%1").arg(a), double(s), {}, {}});
            }
        }
        items = int(list.size());
        QVERIFY((*p)->addItems(list));
        QVERIFY((*p)->addAnnotations(ann));
    }
    const double exact = double(thirds) / double(3 * items);
    QSet<QString> printed;
    for (int call = 0; call < 8; ++call) {
        QProcess proc;
        proc.start(cli, {QStringLiteral("info"), QStringLiteral("--project"), path, QStringLiteral("--json")});
        QVERIFY(proc.waitForFinished(60000));
        QCOMPARE(proc.exitCode(), 0);
        const QByteArray out = proc.readAllStandardOutput();
        const QJsonObject aspect
                = QJsonDocument::fromJson(out).object().value(QStringLiteral("aspects")).toArray().at(0).toObject();
        const double mean = aspect.value(QStringLiteral("human_mean")).toDouble();
        QVERIFY2(ulps(mean, exact) <= 1,
                 qPrintable(QStringLiteral("%1 vs exact %2").arg(mean, 0, 'g', 17).arg(exact, 0, 'g', 17)));
        printed.insert(QString::number(mean, 'g', 17));
    }
    QVERIFY2(printed.size() == 1, qPrintable(QStringList(printed.values()).join(QStringLiteral(", "))));
}

QTEST_GUILESS_MAIN(TestStableSums)
#include "TestStableSums.moc"
