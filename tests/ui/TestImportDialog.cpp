#include "UiTestProject.h"
#include "dialogs/ImportDialog.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
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

private:
    void addHuman(ImportDialog &dialog, const QString &aspect, const QString &field);

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
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
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
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
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
    QVERIFY2(dialog.errorText().contains(where), qPrintable(dialog.errorText()));
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

QTEST_MAIN(TestImportDialog)
#include "TestImportDialog.moc"
