#include "FakeLlmServer.h"
#include "SummEvalFixture.h"
#include "SyntheticJudge.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;
using namespace rubric::test;

/// End to end: a project with two method runs (G-Eval and HypoEval) against the loopback fake
/// endpoint plus the offline baselines, reported through the built `rubric` ($RUBRIC_CLI) as PDF,
/// HTML and a paper bundle, and checked with poppler (pdftotext, pdfimages) and chromium.
class TestReport : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void pdfCarriesTheComparisonDigitForDigitAndVectorCharts();
    void htmlIsSelfContainedAndEscapesDatasetText();
    void htmlOpensInHeadlessChromium();
    void bundleListsEveryFile();
    void unknownJudgeIsNamed();
    void filesWrittenCarryNoMarkupFromNames();

private:
    /// Runs the CLI while this thread's event loop keeps serving the fake endpoint.
    int cli(const QStringList &args, QByteArray *out = nullptr, int timeoutMs = 300000);
    static QString tool(const char *name) { return QStandardPaths::findExecutable(QString::fromLatin1(name)); }

    QTemporaryDir m_dir;
    QString m_cli;
    QString m_project;
    std::unique_ptr<SummEvalProject> m_fx;
    std::unique_ptr<SyntheticJudge> m_judge;
    FakeLlmServer m_server;
    QJsonArray m_compared;
};

static const QString kHostile = QStringLiteral("<img src=x onerror=alert(1)> and <script>alert(2)</script>");

int TestReport::cli(const QStringList &args, QByteArray *out, int timeoutMs)
{
    QProcess p;
    QSignalSpy finished(&p, &QProcess::finished);
    p.start(m_cli, args);
    if (!p.waitForStarted())
        return -1;
    // Not waitForFinished: the fake server answers from this thread's event loop, which the
    // spy's wait runs.
    if (finished.isEmpty() && !finished.wait(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return -2;
    }
    if (out)
        *out = p.readAllStandardOutput();
    const QByteArray err = p.readAllStandardError();
    if (p.exitCode() != 0)
        qWarning("rubric %s: %s", qPrintable(args.value(0)), err.constData());
    return p.exitCode();
}

void TestReport::initTestCase()
{
    m_cli = qEnvironmentVariable("RUBRIC_CLI");
    if (m_cli.isEmpty())
        QSKIP("RUBRIC_CLI does not name the built rubric binary (run through ctest)");
    QVERIFY(m_dir.isValid());
    m_project = m_dir.filePath(QStringLiteral("report.rubric"));
    m_fx = makeSummEvalProject(m_project, 40, 7);
    QVERIFY(m_fx);
    // A test item whose output is markup: the report must show it as text.
    Item hostile;
    hostile.id = QStringLiteral("hostile");
    hostile.group = QStringLiteral("hostile-doc");
    hostile.system = QStringLiteral("M0");
    hostile.source = QStringLiteral("A source text about nothing in particular.");
    hostile.output = kHostile;
    hostile.position = m_fx->project->itemCount();
    QVERIFY(m_fx->project->addItems({hostile}));
    QVERIFY(m_fx->project->addAnnotations(
            {Annotation{hostile.id, QStringLiteral("coherence"), QStringLiteral("experts"), 5.0, {}, {}}}));
    auto roles = m_fx->project->split();
    roles.insert(hostile.id, SplitRole::Test);
    QVERIFY(m_fx->project->setSplit(roles));
    m_fx->humanByOutput.insert(kHostile, 5.0);

    m_judge = std::make_unique<SyntheticJudge>(m_fx->humanByOutput);
    m_server.setJudge([this](const QJsonObject &body) { return m_judge->answer(body); });
    QVERIFY(m_server.listen());
    for (const auto &[method, name] : {std::pair{QStringLiteral("geval"), QStringLiteral("g-eval")},
                                       {QStringLiteral("hypoeval"), QStringLiteral("hypo")}})
        QCOMPARE(cli({QStringLiteral("run"), QStringLiteral("--project"), m_project, QStringLiteral("--method"), method,
                      QStringLiteral("--aspect"), QStringLiteral("coherence"), QStringLiteral("--judge"), name,
                      QStringLiteral("--base-url"), m_server.baseUrl(), QStringLiteral("--model"),
                      QStringLiteral("synthetic"), QStringLiteral("--concurrency"), QStringLiteral("4")}),
                 0);
    QCOMPARE(cli({QStringLiteral("baseline"), QStringLiteral("--project"), m_project}), 0);

    QByteArray out;
    QCOMPARE(cli({QStringLiteral("compare"), QStringLiteral("--project"), m_project, QStringLiteral("--aspect"),
                  QStringLiteral("coherence"), QStringLiteral("--json")},
                 &out),
             0);
    m_compared = QJsonDocument::fromJson(out).object().value(QStringLiteral("judges")).toArray();
    QVERIFY2(m_compared.size() >= 6, out.constData()); // g-eval, hypo, rouge-1/2/l, length
}

void TestReport::pdfCarriesTheComparisonDigitForDigitAndVectorCharts()
{
    if (m_cli.isEmpty())
        QSKIP("no CLI");
    const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
    QCOMPARE(cli({QStringLiteral("report"), QStringLiteral("--project"), m_project, QStringLiteral("--out"), pdf}), 0);
    QVERIFY(QFileInfo(pdf).size() > 10000);
    if (tool("pdftotext").isEmpty() || tool("pdfimages").isEmpty())
        QSKIP("poppler-utils (pdftotext, pdfimages) are not installed: apt-get install poppler-utils");
    QProcess text;
    text.start(tool("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    QVERIFY(text.waitForFinished(60000));
    const QString body = QString::fromUtf8(text.readAllStandardOutput());
    QVERIFY(body.contains(QStringLiteral("page 1 of")));
    QVERIFY(body.contains(QStringLiteral("Contents")));
    for (const QJsonValue &v : m_compared) {
        const QJsonObject j = v.toObject();
        const QString judge = j.value(QStringLiteral("judge")).toString();
        for (const char *key : {"pearson", "spearman", "kendall"}) {
            const double r = j.value(QLatin1String(key)).toDouble();
            // The JSON's value (already rounded to 3 decimals) is what the table shows.
            const QString printed = QString::number(r, 'f', 3);
            QVERIFY2(QString::number(r).length() <= printed.length() && printed.startsWith(QString::number(r)),
                     qPrintable(printed));
            const QRegularExpression row(
                    QStringLiteral("%1\\s.*%2")
                            .arg(QRegularExpression::escape(judge), QRegularExpression::escape(printed)));
            QVERIFY2(row.match(body).hasMatch(),
                     qPrintable(judge + QLatin1Char(' ') + QLatin1String(key) + QLatin1Char(' ') + printed));
        }
    }
    // Vector charts: the PDF holds no raster image at all (pdfimages lists only its header).
    QProcess images;
    images.start(tool("pdfimages"), {QStringLiteral("-list"), pdf});
    QVERIFY(images.waitForFinished(60000));
    const QStringList lines
            = QString::fromUtf8(images.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
}

void TestReport::htmlIsSelfContainedAndEscapesDatasetText()
{
    if (m_cli.isEmpty())
        QSKIP("no CLI");
    const QString html = m_dir.filePath(QStringLiteral("report.html"));
    QCOMPARE(cli({QStringLiteral("report"), QStringLiteral("--project"), m_project, QStringLiteral("--out"), html}), 0);
    QFile f(html);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString page = QString::fromUtf8(f.readAll());
    // The hostile item is among the largest disagreements (people 5, the judges far lower or not).
    QVERIFY(page.contains(QStringLiteral("&lt;img src=x onerror=alert(1)&gt;")));
    QVERIFY(!page.contains(QStringLiteral("<img")));
    QVERIFY(!page.contains(QStringLiteral("<script")));
    QVERIFY(!page.contains(QStringLiteral("<link")));
    QVERIFY(!page.contains(QStringLiteral("url(")));
    // Every src/href stays inside the file: fragments only (the SVG namespace is a name, not a request).
    const QRegularExpression ref(QStringLiteral("(?:src|href)\\s*=\\s*\"([^\"]*)\""));
    for (auto it = ref.globalMatch(page); it.hasNext();) {
        const QString target = it.next().captured(1);
        QVERIFY2(target.startsWith(QLatin1Char('#')), qPrintable(target));
    }
    QVERIFY(page.contains(QStringLiteral("Content-Security-Policy")));
    QVERIFY(page.count(QStringLiteral("<svg")) >= 4);
}

void TestReport::htmlOpensInHeadlessChromium()
{
    if (m_cli.isEmpty())
        QSKIP("no CLI");
    const QString chromium = tool("chromium");
    if (chromium.isEmpty())
        QSKIP("chromium is not installed: apt-get install chromium");
    const QString html = m_dir.filePath(QStringLiteral("chromium.html"));
    QCOMPARE(cli({QStringLiteral("report"), QStringLiteral("--project"), m_project, QStringLiteral("--out"), html}), 0);
    const QString shot = m_dir.filePath(QStringLiteral("shot.png"));
    QProcess p;
    // Every host resolves to nothing: a request the page made would fail, and the page still draws.
    p.start(chromium, {QStringLiteral("--headless"), QStringLiteral("--no-sandbox"), QStringLiteral("--disable-gpu"),
                       QStringLiteral("--host-resolver-rules=MAP * ~NOTFOUND"), QStringLiteral("--screenshot=") + shot,
                       QStringLiteral("--window-size=1200,2000"), QStringLiteral("file://") + html});
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(QFileInfo(shot).size() > 20000, p.readAllStandardError().constData());
    if (qEnvironmentVariableIsSet("RUBRIC_REPORT_SHOTS")) {
        // Kept for docs/screenshots (the test's folder goes away).
        const QDir keep(qEnvironmentVariable("RUBRIC_REPORT_SHOTS"));
        QFile::remove(keep.filePath(QStringLiteral("report-html.png")));
        QFile::copy(shot, keep.filePath(QStringLiteral("report-html.png")));
        QFile::remove(keep.filePath(QStringLiteral("report.pdf")));
        QFile::copy(m_dir.filePath(QStringLiteral("report.pdf")), keep.filePath(QStringLiteral("report.pdf")));
    }
}

void TestReport::bundleListsEveryFile()
{
    if (m_cli.isEmpty())
        QSKIP("no CLI");
    const QString dir = m_dir.filePath(QStringLiteral("bundle"));
    QCOMPARE(cli({QStringLiteral("report"), QStringLiteral("--project"), m_project, QStringLiteral("--out"), dir}), 0);
    QFile readme(QDir(dir).filePath(QStringLiteral("README.md")));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    const QString listed = QString::fromUtf8(readme.readAll());
    int files = 0;
    QStringList suffixes;
    for (QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
        const QString rel = QDir(dir).relativeFilePath(it.next());
        QVERIFY2(listed.contains(QStringLiteral("`%1`").arg(rel)), qPrintable(rel));
        suffixes << rel.section(QLatin1Char('/'), 0, 0) + QLatin1Char(':') + QFileInfo(rel).suffix();
        ++files;
    }
    for (const char *kind : {"tables:csv", "tables:json", "tables:tex", "charts:svg", "charts:png", "rubrics:json",
                             "rubrics:md", "report.html:html", "report.pdf:pdf"})
        QVERIFY2(suffixes.contains(QString::fromLatin1(kind)), kind);
    QVERIFY(files > 20);
    // The comparison table as CSV has a row per judge.
    QFile csv(QDir(dir).filePath(QStringLiteral("tables/coherence-comparison.csv")));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll().count('\n'), m_compared.size() + 1);
}

void TestReport::unknownJudgeIsNamed()
{
    if (m_cli.isEmpty())
        QSKIP("no CLI");
    QProcess p;
    p.start(m_cli, {QStringLiteral("report"), QStringLiteral("--project"), m_project, QStringLiteral("--judge"),
                    QStringLiteral("nobody"), QStringLiteral("--out"), m_dir.filePath(QStringLiteral("x.html"))});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1);
    QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("'nobody'")));
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("x.html"))));
}

void TestReport::filesWrittenCarryNoMarkupFromNames()
{
    // Issue 33.10 and 33.11: a judge, an aspect and item texts that carry markup, LaTeX commands
    // and spreadsheet formulas. Every file `rubric report` writes (HTML, PDF, the bundle's SVG,
    // PNG, Markdown, LaTeX, CSV and JSON) shows them as text.
    if (m_cli.isEmpty())
        QSKIP("no CLI");
    const QString path = m_dir.filePath(QStringLiteral("markup.rubric"));
    const QString aspect = QStringLiteral("</title><script>alert(3)</script>");
    const QString judge = QStringLiteral("<script>alert(4)</script></title>\\input{/etc/passwd}");
    const QString formula = QStringLiteral("=HYPERLINK(\"http://x.invalid\",\"y\")");
    {
        auto fx = makeSummEvalProject(path, 20, 11);
        QVERIFY(fx);
        const auto notes = fx->project->readAnnotations(QStringLiteral("coherence"));
        QVERIFY(notes.ok());
        QVector<Annotation> more;
        QByteArray csv = "id,a,b\n";
        int i = 0;
        for (const Annotation &a : *notes) {
            more.append(Annotation{a.itemId, aspect, a.annotator, a.score, {}, {}});
            csv += a.itemId.toUtf8() + ',' + QByteArray::number(a.score + (i % 3) * 0.5) + ','
                   + QByteArray::number(5 - a.score + (i % 2)) + '\n';
            ++i;
        }
        QVERIFY(fx->project->upsertAspect(Aspect{aspect, QStringLiteral("<b>bold</b> definition"), 1, 5}));
        QVERIFY(fx->project->addAnnotations(more));
        QFile scores(m_dir.filePath(QStringLiteral("markup-scores.csv")));
        QVERIFY(scores.open(QIODevice::WriteOnly));
        scores.write(csv);
    }
    for (const auto &[name, column] : {std::pair{judge, QStringLiteral("a")}, std::pair{formula, QStringLiteral("b")}})
        QCOMPARE(cli({QStringLiteral("import-scores"), QStringLiteral("--project"), path, QStringLiteral("--judge"),
                      name, QStringLiteral("--id"), QStringLiteral("id"), QStringLiteral("--score"),
                      aspect + QLatin1Char('=') + column, m_dir.filePath(QStringLiteral("markup-scores.csv"))}),
                 0);
    const QString out = m_dir.filePath(QStringLiteral("markup-bundle"));
    QCOMPARE(cli({QStringLiteral("report"), QStringLiteral("--project"), path, QStringLiteral("--aspect"), aspect,
                  QStringLiteral("--out"), out}),
             0);
    int checked = 0;
    for (QDirIterator it(out, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
        const QString file = it.next();
        const QString suffix = QFileInfo(file).suffix();
        if (suffix == QLatin1String("png") || suffix == QLatin1String("pdf"))
            continue;
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        ++checked;
        if (suffix == QLatin1String("json")) { // data: the names as JSON strings, the document valid
            QJsonParseError error;
            QJsonDocument::fromJson(text.toUtf8(), &error);
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(file));
            continue;
        }
        if (suffix == QLatin1String("html") || suffix == QLatin1String("svg")) { // the names never become elements
            QVERIFY2(!text.contains(QStringLiteral("<script"), Qt::CaseInsensitive), qPrintable(file));
            QVERIFY2(!text.contains(QStringLiteral("</title><"), Qt::CaseInsensitive), qPrintable(file));
        }
        if (suffix == QLatin1String("md")) { // every '<' of a name backslash-escaped: shown, not HTML
            static const QRegularExpression raw(QStringLiteral(R"((?<!\\)<(script|/title))"),
                                                QRegularExpression::CaseInsensitiveOption);
            QVERIFY2(!raw.match(text).hasMatch(), qPrintable(file));
        }
        if (suffix == QLatin1String("tex"))
            QVERIFY2(!text.contains(QStringLiteral("\\input{")), qPrintable(file));
        if (suffix == QLatin1String("csv"))
            for (const QString &line : text.split(QLatin1Char('\n')))
                for (const QString &cell : line.split(QLatin1Char(','))) {
                    const QString c = cell.startsWith(QLatin1Char('"')) ? cell.mid(1) : cell;
                    QVERIFY2(!c.startsWith(QLatin1Char('=')) && !c.startsWith(QLatin1Char('+'))
                                     && !c.startsWith(QLatin1Char('@')),
                             qPrintable(file + QStringLiteral(": ") + line));
                }
    }
    QVERIFY(checked > 10);
}

QTEST_MAIN(TestReport)
#include "TestReport.moc"
