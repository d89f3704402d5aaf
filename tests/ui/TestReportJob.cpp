#include "MainWindow.h"
#include "ReportJob.h"
#include "SummEvalFixture.h"

#include <QAction>
#include <QElapsedTimer>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QTranslator>
#include <QtTest>

#include <cmath>

using namespace rubric;
using namespace rubric::test;

/// File → Report…: the report is written off the GUI thread (the event loop keeps turning), with
/// progress, and its result reaches the window.
class TestReportJob : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void writesOffTheGuiThreadWithProgress();
    void mainWindowActionWritesThePdf();
    void germanWhenTheStudioIsGerman();

private:
    QTemporaryDir m_dir;
    QString m_project;
};

void TestReportJob::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_project = m_dir.filePath(QStringLiteral("job.rubric"));
    auto fx = makeSummEvalProject(m_project, 200, 3);
    QVERIFY(fx);
    // Two judges: one close to people, one loosely so.
    for (const auto &[name, noise] : {std::pair{QStringLiteral("close"), 0.3}, {QStringLiteral("loose"), 1.5}}) {
        QVERIFY(fx->project->ensureJudge(name, QStringLiteral("imported")));
        QHash<QString, double> scores;
        const auto human = fx->project->humanScores(QStringLiteral("coherence"));
        int i = 0;
        for (auto it = human.begin(); it != human.end(); ++it, ++i)
            scores.insert(it.key(), it.value() + noise * std::sin(i * 1.7));
        QVERIFY(fx->project->setJudgeScores(name, QStringLiteral("coherence"), scores));
    }
}

void TestReportJob::writesOffTheGuiThreadWithProgress()
{
    ReportJob job;
    QSignalSpy progressed(&job, &ReportJob::progressed);
    QSignalSpy finished(&job, &ReportJob::finished);
    // The event loop's longest pause while the report is written.
    QElapsedTimer clock;
    qint64 last = 0, worst = 0;
    QTimer tick;
    tick.setInterval(5);
    connect(&tick, &QTimer::timeout, this, [&] {
        const qint64 now = clock.elapsed();
        worst = std::max(worst, now - last);
        last = now;
    });
    const QString out = m_dir.filePath(QStringLiteral("job.html"));
    clock.start();
    tick.start();
    job.start(m_project, out, {});
    QVERIFY(job.isRunning());
    QVERIFY(finished.wait(240000));
    tick.stop();
    QCOMPARE(finished.first().at(1).toString(), QString());
    QCOMPARE(finished.first().at(0).toString(), out);
    QVERIFY(QFileInfo(out).size() > 5000);
    QVERIFY(!progressed.isEmpty());
    QCOMPARE(progressed.last().at(0).toInt(), progressed.last().at(1).toInt()); // done == total
    qInfo("report written in %lld ms; the event loop's longest pause %lld ms", clock.elapsed(), worst);
    QVERIFY2(worst < 1000, qPrintable(QString::number(worst)));
}

void TestReportJob::mainWindowActionWritesThePdf()
{
    MainWindow window;
    auto *action = window.findChild<QAction *>(QStringLiteral("reportAction"));
    QVERIFY(action);
    QVERIFY(!action->isEnabled()); // no project yet
    QVERIFY(window.openProject(m_project));
    QVERIFY(action->isEnabled());
    QSignalSpy done(&window, &MainWindow::reportFinished);
    const QString out = m_dir.filePath(QStringLiteral("window.pdf"));
    QVERIFY(window.writeReport(out));
    auto *bar = window.findChild<QProgressBar *>(QStringLiteral("reportProgress"));
    QVERIFY(bar && !bar->isHidden());
    QVERIFY(done.wait(240000));
    QCOMPARE(done.first().at(1).toString(), QString());
    QVERIFY(bar->isHidden());
    QFile pdf(out);
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    QVERIFY(pdf.read(5) == "%PDF-");
}

void TestReportJob::germanWhenTheStudioIsGerman()
{
    QTranslator german;
    QVERIFY(german.load(QStringLiteral(":/i18n/rubric_de.qm")));
    QCoreApplication::installTranslator(&german);
    ReportJob job;
    QSignalSpy finished(&job, &ReportJob::finished);
    const QString out = m_dir.filePath(QStringLiteral("de.html"));
    job.start(m_project, out, {});
    QVERIFY(finished.wait(240000));
    QCoreApplication::removeTranslator(&german);
    QCOMPARE(finished.first().at(1).toString(), QString());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString page = QString::fromUtf8(f.readAll());
    QVERIFY(page.contains(QStringLiteral("<html lang=\"de\">")));
    QVERIFY(page.contains(QStringLiteral("Bewerter im Vergleich")));
    QVERIFY(page.contains(QStringLiteral("Korrelation mit Menschen")));
    QVERIFY(page.contains(QStringLiteral("Inhalt")));
}

QTEST_MAIN(TestReportJob)
#include "TestReportJob.moc"
