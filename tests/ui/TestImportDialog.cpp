#include "UiTestProject.h"
#include "dialogs/ImportDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

using namespace rubric;

namespace {

QString fixture(const char *name)
{
    return QStringLiteral(RUBRIC_TEST_DATA "/fixtures/") + QLatin1String(name);
}

void chooseData(QComboBox *combo, const QString &value)
{
    const int i = combo->findData(value);
    QVERIFY2(i >= 0, qPrintable(value));
    combo->setCurrentIndex(i);
}

} // namespace

class TestImportDialog : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { testing::isolateSettings(); }
    void init();
    void cleanup();
    void importsACsvThroughTheMapping();
    void importsNestedJsonlWithListScores();
    void refusedFilesShowTheirLine_data();
    void refusedFilesShowTheirLine();
    void presetFillsTheMapping();
    void scalesInferredInThePreview();
    void importsOnAWorkerWithProgress();
    void cancelLeavesTheProjectUntouched();

private:
    void addHuman(ImportDialog &dialog, const QString &aspect, const QString &field);
    /// A JSONL file of `n` items (id, doc, sys, article, summary, coherence) in the test's folder.
    QString writeLargeFile(int n);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Project> m_project;
};

void TestImportDialog::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    auto p = Project::open(m_dir->filePath(QStringLiteral("i.rubric")));
    QVERIFY(p);
    m_project = std::move(p).value();
}

void TestImportDialog::cleanup()
{
    m_project.reset();
    m_dir.reset();
}

void TestImportDialog::addHuman(ImportDialog &dialog, const QString &aspect, const QString &field)
{
    auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("humanTable"));
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("addHumanButton")), Qt::LeftButton);
    const int row = table->rowCount() - 1;
    table->item(row, 0)->setText(aspect);
    chooseData(dialog.findChild<QComboBox *>(QStringLiteral("humanField_%1").arg(row)), field);
}

void TestImportDialog::importsACsvThroughTheMapping()
{
    ImportDialog dialog(m_project.get());
    dialog.show();
    auto *file = dialog.findChild<QLineEdit *>(QStringLiteral("fileEdit"));
    QTest::keyClicks(file, fixture("small.csv"));
    QTest::keyClick(file, Qt::Key_Return);
    QVERIFY(dialog.isVisible()); // Enter previews, it does not import
    QCOMPARE(m_project->itemCount(), 0);
    auto *preview = dialog.findChild<QTableWidget *>(QStringLiteral("previewTable"));
    QCOMPARE(preview->columnCount(), 7);
    QCOMPARE(preview->rowCount(), 4);
    int article = -1;
    for (int c = 0; c < preview->columnCount(); ++c)
        if (preview->horizontalHeaderItem(c)->text() == QLatin1String("article"))
            article = c;
    QVERIFY(article >= 0);
    QCOMPARE(preview->item(2, article)->text(), QStringLiteral("Dogs bark. Loudly."));
    // Fields guessed from their names.
    QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("idField"))->currentData().toString(), QStringLiteral("id"));
    QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("groupField"))->currentData().toString(),
             QStringLiteral("doc"));
    QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("systemField"))->currentData().toString(),
             QStringLiteral("model"));
    QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("sourceField"))->currentData().toString(),
             QStringLiteral("article"));
    QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("outputField"))->currentData().toString(),
             QStringLiteral("summary"));
    addHuman(dialog, QStringLiteral("coherence"), QStringLiteral("coherence"));
    addHuman(dialog, QStringLiteral("fluency"), QStringLiteral("fluency"));
    QCOMPARE(dialog.spec().mapping.human.size(), 2);
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("importButton")), Qt::LeftButton);
    QTRY_COMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.summary().items, 4);
    QCOMPARE(dialog.summary().annotations, 8);
    QCOMPARE(m_project->itemCount(), 4);
    QCOMPARE(m_project->groups(), (QStringList{QStringLiteral("d1"), QStringLiteral("d2")}));
    QCOMPARE(m_project->humanScores(QStringLiteral("coherence")).value(QStringLiteral("a3")), 2.0);
    QCOMPARE(m_project->item(QStringLiteral("a1"))->source,
             QStringLiteral("The cat sat on the mat, and then it slept."));
}

void TestImportDialog::importsNestedJsonlWithListScores()
{
    ImportDialog dialog(m_project.get());
    dialog.setFile(fixture("nested.jsonl"));
    QVERIFY(dialog.errorText().isEmpty());
    chooseData(dialog.findChild<QComboBox *>(QStringLiteral("groupField")), QStringLiteral("meta.doc"));
    chooseData(dialog.findChild<QComboBox *>(QStringLiteral("systemField")), QStringLiteral("meta.sys"));
    QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("idField"))->currentData().toString(), QStringLiteral("uid"));
    QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("sourceField"))->currentData().toString(),
             QStringLiteral("src"));
    QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("outputField"))->currentData().toString(),
             QStringLiteral("out"));
    addHuman(dialog, QStringLiteral("quality"), QStringLiteral("scores.quality"));
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("importButton")), Qt::LeftButton);
    QTRY_COMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(m_project->itemCount(), 2);
    QCOMPARE(m_project->annotations(QStringLiteral("quality")).size(), 6);
    QCOMPARE(m_project->annotators(QStringLiteral("quality")).size(), 3);
    QCOMPARE(m_project->item(QStringLiteral("n2"))->group, QStringLiteral("d2"));
}

void TestImportDialog::refusedFilesShowTheirLine_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("where");
    QTest::newRow("unterminated quote") << fixture("broken.csv") << QStringLiteral("broken.csv:3");
    QTest::newRow("text for a score") << fixture("badscore.csv") << QStringLiteral("badscore.csv:3");
}

void TestImportDialog::refusedFilesShowTheirLine()
{
    QFETCH(QString, file);
    QFETCH(QString, where);
    ImportDialog dialog(m_project.get());
    dialog.show();
    dialog.setFile(file);
    if (dialog.errorText().isEmpty()) { // the preview may stop before the bad line
        addHuman(dialog, QStringLiteral("coherence"), QStringLiteral("coherence"));
        QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("importButton")), Qt::LeftButton);
    }
    QTRY_VERIFY2(dialog.errorText().contains(where), qPrintable(dialog.errorText()));
    QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("errorLabel"))->isVisible());
    QVERIFY(dialog.isVisible()); // stays open to fix the mapping
    QCOMPARE(m_project->itemCount(), 0);
    QCOMPARE(m_project->aspects().size(), 0);
}

void TestImportDialog::presetFillsTheMapping()
{
    const QString summeval = QStringLiteral(RUBRIC_SHARED_DATA "/summeval/summeval_bartscore_data.json");
    if (!QFileInfo::exists(summeval))
        QSKIP("the SummEval data is not beside the project");
    ImportDialog dialog(m_project.get());
    dialog.setFile(summeval);
    QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
    chooseData(dialog.findChild<QComboBox *>(QStringLiteral("presetCombo")), QStringLiteral("summeval"));
    QCOMPARE(dialog.findChild<QTableWidget *>(QStringLiteral("humanTable"))->rowCount(), 4);
    const ImportSpec spec = dialog.spec();
    QCOMPARE(spec.mapping.human.size(), 4);
    QVERIFY(!spec.mapping.output.isEmpty());
    QVERIFY(!spec.mapping.definitions.isEmpty());
}

void TestImportDialog::scalesInferredInThePreview()
{
    // Topical-Chat's groundedness runs 0-1, naturalness 1-3: a new row infers them and says so; an
    // explicit 1-5 is refused in the preview with the line, the field and the fix.
    const QString topical = QStringLiteral(RUBRIC_SHARED_DATA "/topical-chat/topical_chat.json");
    if (!QFileInfo::exists(topical))
        QSKIP("the Topical-Chat data is not beside the project");
    ImportDialog dialog(m_project.get());
    dialog.show();
    dialog.setFile(topical);
    QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
    chooseData(dialog.findChild<QComboBox *>(QStringLiteral("outputField")), QStringLiteral("system_output"));
    addHuman(dialog, QStringLiteral("groundedness"), QStringLiteral("scores.groundedness"));
    addHuman(dialog, QStringLiteral("naturalness"), QStringLiteral("scores.naturalness"));
    auto *scales = dialog.findChild<QLabel *>(QStringLiteral("scalesLabel"));
    QVERIFY(scales->isVisible());
    QCOMPARE(scales->text(), QStringLiteral("Scales: groundedness 0–1 (inferred from the data); naturalness 1–3 "
                                            "(inferred from the data)"));
    auto *lo = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("humanMin_0"));
    auto *hi = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("humanMax_0"));
    QCOMPARE(lo->value(), 0.0);
    QCOMPARE(hi->value(), 1.0);
    QVERIFY(!lo->isEnabled());
    QVERIFY(dialog.spec().mapping.scales.isEmpty());
    if (const QString dir = qEnvironmentVariable("RUBRIC_SCREENSHOT_DIR"); !dir.isEmpty()) {
        dialog.resize(1000, 720);
        QVERIFY(dialog.grab().save(dir + QStringLiteral("/import.png")));
    }

    // Unchecked: Min and Max count, and 1-5 does not hold 0.67 on line 2.
    auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("humanTable"));
    QTableWidgetItem *infer = table->item(0, 2);
    QCOMPARE(infer->checkState(), Qt::Checked);
    infer->setCheckState(Qt::Unchecked);
    QVERIFY(lo->isEnabled());
    lo->setValue(1.0);
    hi->setValue(5.0);
    QCOMPARE(dialog.spec().mapping.scales.value(QStringLiteral("groundedness")), (QPair<double, double>(1.0, 5.0)));
    QVERIFY2(scales->text().contains(QStringLiteral("topical_chat.json:2: scores.groundedness: the score "
                                                    "0.6666666667 is outside the scale 1–5 given for 'groundedness': "
                                                    "use --scale groundedness=0:1")),
             qPrintable(scales->text()));

    infer->setCheckState(Qt::Checked);
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("importButton")), Qt::LeftButton);
    QTRY_COMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(m_project->itemCount(), 360);
    QCOMPARE(m_project->aspect(QStringLiteral("groundedness"))->min, 0.0);
    QCOMPARE(m_project->aspect(QStringLiteral("groundedness"))->max, 1.0);
    QCOMPARE(m_project->aspect(QStringLiteral("naturalness"))->max, 3.0);
    QCOMPARE(dialog.summary().scales.size(), 2);
    QCOMPARE(int(dialog.summary().scales.at(0).origin), int(ScaleOrigin::Inferred));
}

QString TestImportDialog::writeLargeFile(int n)
{
    const QString path = m_dir->filePath(QStringLiteral("large.jsonl"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    const QByteArray article
            = QByteArray("An article that many summaries share, long enough to be a real one. ").repeated(6);
    for (int k = 0; k < n; ++k)
        f.write(QStringLiteral("{\"id\": \"big%1\", \"doc\": \"d%2\", \"sys\": \"s%3\", \"article\": \"%4 %2\", "
                               "\"summary\": \"Summary %1 of the article.\", \"coherence\": %5}\n")
                        .arg(k)
                        .arg(k / 16)
                        .arg(k % 16)
                        .arg(QString::fromLatin1(article))
                        .arg(k % 5 + 1)
                        .toUtf8());
    return path;
}

void TestImportDialog::importsOnAWorkerWithProgress()
{
    // Issue 34.3: the import ran on the GUI thread, kept alive by processEvents from its progress
    // callback. Now it runs on a worker: the click returns at once, the event loop turns while it
    // writes, and its progress (items, rate, time left) arrives as queued reports.
    // Large enough that the simdjson import (100,000+ items a second) reports before it is done.
    constexpr int n = 150000;
    const QString file = writeLargeFile(n);
    ImportDialog dialog(m_project.get());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.setFile(file);
    QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
    chooseData(dialog.findChild<QComboBox *>(QStringLiteral("idField")), QStringLiteral("id"));
    chooseData(dialog.findChild<QComboBox *>(QStringLiteral("sourceField")), QStringLiteral("article"));
    chooseData(dialog.findChild<QComboBox *>(QStringLiteral("outputField")), QStringLiteral("summary"));
    addHuman(dialog, QStringLiteral("coherence"), QStringLiteral("coherence"));
    QSignalSpy progressed(&dialog, &ImportDialog::importProgressed);
    QSignalSpy finished(&dialog, &ImportDialog::importFinished);
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("importButton")), Qt::LeftButton);
    QVERIFY(dialog.isImporting()); // the click returned before the import was done
    QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("importButton"))->isEnabled());
    QVERIFY(finished.wait(120000));
    QCOMPARE(finished.first().at(0).toBool(), true);
    QVERIFY2(progressed.size() >= 2, "no progress was reported while the import ran");
    const QString text = progressed.first().at(1).toString(); // a report from the middle of the run
    QVERIFY2(progressed.first().at(0).toInt() < n, qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("items/s")) && text.contains(QLatin1String("left")), qPrintable(text));
    int last = 0;
    for (const auto &report : std::as_const(progressed)) { // items only grow
        QVERIFY(report.at(0).toInt() >= last);
        last = report.at(0).toInt();
    }
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.summary().items, n);
    QCOMPARE(m_project->itemCount(), n);
    QCOMPARE(m_project->item(QStringLiteral("big29999"))->output, QStringLiteral("Summary 29999 of the article."));
}

void TestImportDialog::cancelLeavesTheProjectUntouched()
{
    // What the project held before stays, and nothing of the cancelled file is written.
    QVERIFY(m_project->addItems({Item{QStringLiteral("kept"), QStringLiteral("g"), QStringLiteral("s"),
                                      QStringLiteral("src"), QStringLiteral("out")}}));
    const QString file = writeLargeFile(60000);
    ImportDialog dialog(m_project.get());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.setFile(file);
    chooseData(dialog.findChild<QComboBox *>(QStringLiteral("idField")), QStringLiteral("id"));
    chooseData(dialog.findChild<QComboBox *>(QStringLiteral("outputField")), QStringLiteral("summary"));
    addHuman(dialog, QStringLiteral("coherence"), QStringLiteral("coherence"));
    QSignalSpy progressed(&dialog, &ImportDialog::importProgressed);
    QSignalSpy finished(&dialog, &ImportDialog::importFinished);
    QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("importButton")), Qt::LeftButton);
    QVERIFY(progressed.wait(60000)); // running: items are being written in its transaction
    auto *buttons = dialog.findChild<QDialogButtonBox *>();
    QTest::mouseClick(buttons->button(QDialogButtonBox::Cancel), Qt::LeftButton);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY2(finished.first().at(1).toString().contains(QLatin1String("cancelled")),
             qPrintable(finished.first().at(1).toString()));
    QVERIFY(dialog.isVisible()); // Cancel stopped the import, not the dialog
    QVERIFY(!dialog.isImporting());
    QVERIFY(dialog.findChild<QPushButton *>(QStringLiteral("importButton"))->isEnabled());
    QCOMPARE(m_project->itemCount(), 1);
    QCOMPARE(m_project->readItemIds().value(), QStringList{QStringLiteral("kept")});
    QVERIFY(m_project->aspects().isEmpty()); // written in the same transaction, rolled back with it
}

QTEST_MAIN(TestImportDialog)
#include "TestImportDialog.moc"
