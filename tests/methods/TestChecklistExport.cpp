// Issue 30: the score exports of a checklist judge state how an unanswered question counts and
// the coverage per item (answered / asked): Exporter's CSV and JSONL with the methods' notes
// (MethodRegistry::scoreNotesFor), for a judge scored with missing=skip and one with missing=no.
// Expected counts are taken from the fixture's answers (tests/methods/checkeval_reference.json).
#include "ChecklistFixture.h"
#include "io/Exporter.h"
#include "io/RecordSource.h"
#include "methods/MethodRegistry.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

class TestChecklistExport : public QObject
{
    Q_OBJECT
private slots:
    void exportsStateThePolicyAndCoverage();
};

void TestChecklistExport::exportsStateThePolicyAndCoverage()
{
    const QJsonObject ref = checklistReference();
    QVERIFY(!ref.isEmpty());
    QTemporaryDir dir;
    auto p = Project::open(dir.filePath(QStringLiteral("p.rubric")));
    QVERIFY2(p, qPrintable(p.errorString()));
    Project &project = **p;
    QVERIFY(project.upsertAspect({QStringLiteral("coherence"), QStringLiteral("d"), 1, 5}));
    QVector<Item> items;
    const QJsonArray ids = ref.value(QStringLiteral("items")).toArray();
    for (int i = 0; i < ids.size(); ++i) {
        Item it;
        it.id = ids.at(i).toString();
        it.position = i;
        items.append(it);
    }
    QVERIFY(project.addItems(items));
    RubricStore store(&project);
    for (const QString &j : {QStringLiteral("J1"), QStringLiteral("J2")}) {
        QVERIFY(project.ensureJudge(j, QStringLiteral("checkeval")));
        QVERIFY(store.saveVersion(j, fixtureChecklist()));
        QVERIFY(store.writeCriterionScores(j, fixtureScores(ref, j)));
        QHash<QString, double> scores;
        for (const QJsonValue &id : ids)
            scores.insert(id.toString(), 0.5);
        QVERIFY(project.setJudgeScores(j, QStringLiteral("coherence"), scores));
    }
    // J2 was run with the strict policy
    QVERIFY(store.setRunConfig(
            QStringLiteral("J2"),
            {{QStringLiteral("method"), QStringLiteral("checkeval")},
             {QStringLiteral("settings"), QVariantMap{{QStringLiteral("missing"), QStringLiteral("no")}}}}));
    // the expected coverage from the fixture: answers that are not null, of the six questions
    QHash<QString, QHash<QString, int>> answered; // judge → item → answered
    for (const QString &j : {QStringLiteral("J1"), QStringLiteral("J2")}) {
        const QJsonObject byQ = ref.value(QStringLiteral("answers")).toObject().value(j).toObject();
        for (auto q = byQ.begin(); q != byQ.end(); ++q) {
            const QJsonObject byItem = q.value().toObject();
            for (auto it = byItem.begin(); it != byItem.end(); ++it)
                answered[j][it.key()] += it.value().isNull() ? 0 : 1;
        }
    }

    const QString csvPath = dir.filePath(QStringLiteral("scores.csv"));
    auto n = Exporter::write(project, csvPath, MethodRegistry::scoreNotesFor(project));
    QVERIFY2(n, qPrintable(n.errorString()));
    auto rows = RecordSource::read(csvPath, ImportFormat::Csv);
    QVERIFY2(rows, qPrintable(rows.errorString()));
    QCOMPARE(rows->size(), ids.size());
    int partly = 0;
    for (const Record &r : std::as_const(*rows)) {
        const QString id = r.fields.value(QStringLiteral("id")).toString();
        for (const QString &j : {QStringLiteral("J1"), QStringLiteral("J2")}) {
            const QString col = QStringLiteral("judge.%1.coherence.").arg(j);
            QCOMPARE(r.fields.value(col + QStringLiteral("answered")).toString().toInt(), answered[j][id]);
            QCOMPARE(r.fields.value(col + QStringLiteral("asked")).toString(), QStringLiteral("6"));
            QCOMPARE(r.fields.value(col + QStringLiteral("missing")).toString(),
                     j == QLatin1String("J2") ? QStringLiteral("no") : QStringLiteral("skip"));
            partly += answered[j][id] < 6;
        }
    }
    QVERIFY(partly > 0); // the fixture has unanswered questions: coverage below 1 is shown

    const QString jsonlPath = dir.filePath(QStringLiteral("scores.jsonl"));
    n = Exporter::write(project, jsonlPath, MethodRegistry::scoreNotesFor(project));
    QVERIFY2(n, qPrintable(n.errorString()));
    QFile f(jsonlPath);
    QVERIFY(f.open(QIODevice::ReadOnly));
    int lines = 0;
    while (!f.atEnd()) {
        const QJsonObject o = QJsonDocument::fromJson(f.readLine()).object();
        const QString id = o.value(QStringLiteral("id")).toString();
        const QJsonObject cov = o.value(QStringLiteral("coverage")).toObject();
        QCOMPARE(cov.value(QStringLiteral("J1")).toObject().value(QStringLiteral("answered")).toInt(),
                 answered[QStringLiteral("J1")][id]);
        QCOMPARE(cov.value(QStringLiteral("J2")).toObject().value(QStringLiteral("asked")).toInt(), 6);
        QCOMPARE(cov.value(QStringLiteral("J2")).toObject().value(QStringLiteral("missing")).toString(),
                 QStringLiteral("no"));
        ++lines;
    }
    QCOMPARE(lines, ids.size());

    // without notes (another method's judges only) the export is as before: no coverage columns
    n = Exporter::write(project, csvPath);
    QVERIFY(n);
    rows = RecordSource::read(csvPath, ImportFormat::Csv);
    QVERIFY(!rows->first().columns.contains(QStringLiteral("judge.J1.coherence.missing")));
}

QTEST_GUILESS_MAIN(TestChecklistExport)
#include "TestChecklistExport.moc"
