// File → Export Chart: the heatmap and correlation panes saved as PNG and SVG through the main
// window, what the files hold, and the refusals (no chart on the pane, unknown format).
#include "ChartExport.h"
#include "ChartLayout.h"
#include "MainWindow.h"
#include "ScoreFixture.h"
#include "UiTestProject.h"

#include <QAction>
#include <QChartView>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

using namespace rubric;

class TestChartExport : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void actionFollowsThePane();
    void png_data();
    void png();
    void svgIsVectorWithTitle_data();
    void svgIsVectorWithTitle();
    void refusals();
    void quitWhileBootstrapRuns();

private:
    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<MainWindow> m_window;
};

void TestChartExport::initTestCase()
{
    testing::isolateSettings();
    m_path = m_dir.filePath(QStringLiteral("charts.rubric"));
    auto project = fixture::openProject(m_path);
    fixture::fillSynthetic(*project, 160, 5);
}

void TestChartExport::init()
{
    m_window = std::make_unique<MainWindow>();
    QVERIFY(m_window->openProject(m_path));
    m_window->resize(1200, 800);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestChartExport::cleanup()
{
    m_window.reset();
}

void TestChartExport::actionFollowsThePane()
{
    auto *action = m_window->findChild<QAction *>(QStringLiteral("exportChartAction"));
    QVERIFY(action);
    QVERIFY(m_window->showPane(QStringLiteral("dataset")));
    QVERIFY(!action->isEnabled());
    QVERIFY(m_window->showPane(QStringLiteral("heatmap")));
    QVERIFY(action->isEnabled());
    QVERIFY(m_window->showPane(QStringLiteral("correlation")));
    QVERIFY(action->isEnabled());
    QVERIFY(m_window->showPane(QStringLiteral("issues")));
    QVERIFY(!action->isEnabled());
}

void TestChartExport::png_data()
{
    QTest::addColumn<QString>("pane");
    QTest::newRow("heatmap") << QStringLiteral("heatmap");
    QTest::newRow("correlation") << QStringLiteral("correlation");
}

void TestChartExport::png()
{
    QFETCH(QString, pane);
    QVERIFY(m_window->showPane(pane));
    const QString file = m_dir.filePath(pane + QStringLiteral(".png"));
    const auto r = m_window->exportChart(file);
    QVERIFY2(r.ok(), qPrintable(r.errorString()));
    QImage image(file);
    QVERIFY(!image.isNull());
    // Twice the widget's size plus the title: far larger than the pane's chart area on screen.
    QVERIFY2(image.width() > 800 && image.height() > 400,
             qPrintable(QStringLiteral("%1x%2").arg(image.width()).arg(image.height())));
    // A drawn chart has many colours (the heatmap's palette, the scatter's points), not a blank page.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
}

void TestChartExport::svgIsVectorWithTitle_data()
{
    QTest::addColumn<QString>("pane");
    QTest::addColumn<QString>("expectedText");
    QTest::newRow("heatmap") << QStringLiteral("heatmap") << QStringLiteral("Human");
    QTest::newRow("correlation") << QStringLiteral("correlation") << QStringLiteral("Human score");
}

void TestChartExport::svgIsVectorWithTitle()
{
    QFETCH(QString, pane);
    QFETCH(QString, expectedText);
    QVERIFY(m_window->showPane(pane));
    // A pane that computes its chart on a worker (a busy property) is exported once it is drawn.
    if (QObject *shown = m_window->findChild<QWidget *>(pane + QStringLiteral("Pane"));
        shown && shown->property("busy").isValid())
        QTRY_VERIFY_WITH_TIMEOUT(!shown->property("busy").toBool(), 60000);
    for (const QChartView *view : m_window->findChildren<QChartView *>())
        if (view->isVisible())
            QVERIFY(test::waitChartLaidOut(view)); // the chart's layout follows its new series in a later event
    const QString file = m_dir.filePath(pane + QStringLiteral(".svg"));
    const auto r = m_window->exportChart(file);
    QVERIFY2(r.ok(), qPrintable(r.errorString()));
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    QString title;
    QStringList texts;
    int shapes = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("title"))
            title = xml.readElementText();
        else if (xml.name() == QLatin1String("text"))
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
        else if (xml.name() == QLatin1String("path") || xml.name() == QLatin1String("rect")
                 || xml.name() == QLatin1String("polyline") || xml.name() == QLatin1String("ellipse"))
            ++shapes;
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    // The title names the judge and the aspect; labels stay text; the marks are shapes.
    QVERIFY2(title.contains(QLatin1String("hypo")) && title.contains(QLatin1String("coherence")), qPrintable(title));
    QVERIFY2(texts.contains(title), qPrintable(texts.join(QLatin1Char('|')).left(400)));
    QVERIFY2(texts.contains(expectedText), qPrintable(texts.join(QLatin1Char('|')).left(400)));
    QVERIFY2(shapes > 50, qPrintable(QString::number(shapes)));
}

void TestChartExport::refusals()
{
    // No chart on the dataset pane: a message, no file.
    QVERIFY(m_window->showPane(QStringLiteral("dataset")));
    const QString none = m_dir.filePath(QStringLiteral("none.png"));
    auto r = m_window->exportChart(none);
    QVERIFY(!r.ok());
    QVERIFY2(r.errorString().contains(QLatin1String("dataset")), qPrintable(r.errorString()));
    QVERIFY(!QFile::exists(none));

    // Unknown format: refused, and an existing file of that name is left as it was.
    QVERIFY(m_window->showPane(QStringLiteral("heatmap")));
    const QString jpg = m_dir.filePath(QStringLiteral("chart.jpg"));
    {
        QFile f(jpg);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep me");
    }
    r = m_window->exportChart(jpg);
    QVERIFY(!r.ok());
    QVERIFY2(r.errorString().contains(QLatin1String("jpg")), qPrintable(r.errorString()));
    QFile f(jpg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("keep me"));

    // A folder that does not exist: the error names the file.
    const QString missing = m_dir.filePath(QStringLiteral("no/such/dir/chart.png"));
    r = m_window->exportChart(missing);
    QVERIFY(!r.ok());
    QVERIFY2(r.errorString().contains(QLatin1String("chart.png")), qPrintable(r.errorString()));
}

void TestChartExport::quitWhileBootstrapRuns()
{
    // The correlation pane computes bootstrap intervals in the background; quitting while they
    // run (here: export at once, then exit) must end cleanly, not crash in the thread pool.
    const QString big = m_dir.filePath(QStringLiteral("big.rubric"));
    {
        auto project = fixture::openProject(big);
        fixture::fillSynthetic(*project, 1600, 10);
    }
    const QString studio
            = QFileInfo(qEnvironmentVariable("RUBRIC_CLI")).absoluteDir().filePath(QStringLiteral("rubric-studio"));
    QVERIFY2(QFileInfo::exists(studio), qPrintable(studio));
    for (int i = 0; i < 4; ++i) {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"),
                   m_dir.filePath(QStringLiteral("config"))); // not the user's settings
        p.setProcessEnvironment(env);
        p.start(studio, {big, QStringLiteral("--pane"), QStringLiteral("correlation"), QStringLiteral("--delay"),
                         QStringLiteral("0"), QStringLiteral("--export-chart"),
                         m_dir.filePath(QStringLiteral("quit%1.png").arg(i))});
        // Seconds in the normal build; minutes under TSan, whose run shares the machine with another test.
        QVERIFY(p.waitForFinished(180000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAll().constData());
    }
}

QTEST_MAIN(TestChartExport)
#include "TestChartExport.moc"
