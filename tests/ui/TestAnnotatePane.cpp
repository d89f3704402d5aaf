#include "ProjectTestAccess.h"
#include "Settings.h"
#include "UiTestProject.h"
#include "panes/AnnotatePane.h"
#include "widgets/AspectScoreRow.h"
#include "widgets/ExpectedGainBox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QStackedWidget>
#include <QtTest>

using namespace rubric;

class TestAnnotatePane : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void asksForTheAnnotatorFirst();
    void keyboardAnnotatesFiveItems();
    void tabAndArrowsMove();
    void noShortcutWhileTypingANote();
    void outOfScaleDigitIsIgnored();
    void backspaceClearsAScore();
    void cheatSheetToggles();
    void blindModeHidesJudgeScores();
    void suggestionsAndTrainSplit();
    void groupDisjointTrainSplit();
    void suggestsWhereJudgesDisagree();
    void agreementBesideTheJudge();
    void unreadableProjectIsShown_data();
    void unreadableProjectIsShown();
    void changesElsewhereAreMergedNotOverwritten();
    void readsOnAWorkerAndAnnotatesMeanwhile();

private:
    QWidget *surface() const { return m_pane->findChild<QWidget *>(QStringLiteral("annotateSurface")); }
    int annotationCount(const QString &annotator) const;
    void start(const QString &name);
    /// Waits for the pane's workers (the queue, then the footer).
    void idle() const;

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    std::unique_ptr<Project> m_project;
    std::unique_ptr<AnnotatePane> m_pane;
};

void TestAnnotatePane::initTestCase()
{
    testing::isolateSettings();
}

void TestAnnotatePane::init()
{
    QSettings().clear();
    m_dir = std::make_unique<QTemporaryDir>();
    m_path = m_dir->filePath(QStringLiteral("a.rubric"));
    m_project = testing::makeProject(m_path, 10);
    QHash<QString, SplitRole> split;
    for (int k = 0; k < 10; ++k)
        split.insert(QStringLiteral("i%1").arg(k), k < 7 ? SplitRole::Train : SplitRole::Test);
    QVERIFY(m_project->setSplit(split));
    m_pane = std::make_unique<AnnotatePane>();
    m_pane->setProject(m_project.get());
    m_pane->resize(1200, 800);
    m_pane->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_pane.get()));
    m_pane->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_pane.get()));
    idle();
}

void TestAnnotatePane::cleanup()
{
    m_pane.reset();
    m_project.reset();
    m_dir.reset();
}

int TestAnnotatePane::annotationCount(const QString &annotator) const
{
    int n = 0;
    for (const Annotation &a : m_project->annotations())
        n += a.annotator == annotator ? 1 : 0;
    return n;
}

void TestAnnotatePane::idle() const
{
    QTRY_VERIFY_WITH_TIMEOUT(!m_pane->isBusy(), 20000);
}

void TestAnnotatePane::start(const QString &name)
{
    auto *edit = m_pane->findChild<QLineEdit *>(QStringLiteral("annotatorEdit"));
    QVERIFY(edit);
    edit->clear();
    QTest::keyClicks(edit, name);
    QTest::mouseClick(m_pane->findChild<QPushButton *>(QStringLiteral("startButton")), Qt::LeftButton);
    QCOMPARE(m_pane->annotator(), name);
    idle();
}

void TestAnnotatePane::asksForTheAnnotatorFirst()
{
    auto *pages = m_pane->findChild<QStackedWidget *>();
    QVERIFY(pages);
    QCOMPARE(pages->currentIndex(), 0);
    start(QStringLiteral("ann"));
    QCOMPARE(pages->currentIndex(), 1);
    QCOMPARE(Settings::string(Settings::Key::AnnotatorName), QStringLiteral("ann"));
    // Remembered: a new pane starts on the scoring page.
    AnnotatePane again;
    QCOMPARE(again.annotator(), QStringLiteral("ann"));
}

void TestAnnotatePane::keyboardAnnotatesFiveItems()
{
    start(QStringLiteral("ann"));
    QCOMPARE(m_pane->queueSize(), 7); // the train split
    QWidget *s = surface();
    const QList<Qt::Key> digits{Qt::Key_1, Qt::Key_2, Qt::Key_3, Qt::Key_4, Qt::Key_5};
    for (int item = 0; item < 5; ++item) {
        QCOMPARE(m_pane->currentIndex(), item);
        QCOMPARE(m_pane->activeAspect(), 0);
        QTest::keyClick(s, digits[item]);           // coherence
        QTest::keyClick(s, digits[(item + 1) % 5]); // fluency
        QTest::keyClick(s, digits[item % 3]);       // relevance (1–3)
        QTest::keyClick(s, Qt::Key_Return);
    }
    QCOMPARE(m_pane->currentIndex(), 5);
    QCOMPARE(annotationCount(QStringLiteral("ann")), 5 * 3);
    QCOMPARE(*m_pane->labelledCount(), 5);
    auto *progress = m_pane->findChild<QLabel *>(QStringLiteral("progressLabel"));
    QVERIFY(progress->text().contains(QLatin1String("5 of 7")));
    QCOMPARE(m_project->humanScores(QStringLiteral("coherence")).value(QStringLiteral("i3")), 4.0);
    QCOMPARE(m_project->humanScores(QStringLiteral("fluency")).value(QStringLiteral("i4")), 1.0);
    QCOMPARE(m_project->humanScores(QStringLiteral("relevance")).value(QStringLiteral("i2")), 3.0);

    // Kill the window and the project; reopen: nothing lost, and the pane shows the scores.
    m_pane.reset();
    m_project.reset();
    auto reopened = Project::open(m_path, Project::OpenMode::OpenExisting);
    QVERIFY(reopened);
    m_project = std::move(reopened).value();
    QCOMPARE(annotationCount(QStringLiteral("ann")), 15);
    m_pane = std::make_unique<AnnotatePane>();
    m_pane->setProject(m_project.get());
    QCOMPARE(m_pane->annotator(), QStringLiteral("ann"));
    idle();
    QVERIFY(m_pane->goToItem(QStringLiteral("i3")));
    const auto rows = m_pane->findChildren<AspectScoreRow *>();
    QCOMPARE(rows.size(), 3);
    QCOMPARE(rows[0]->score().value_or(-1), 4.0);
    QCOMPARE(rows[1]->score().value_or(-1), 5.0);
    QCOMPARE(rows[2]->score().value_or(-1), 1.0);
    QCOMPARE(*m_pane->labelledCount(), 5);
}

void TestAnnotatePane::tabAndArrowsMove()
{
    start(QStringLiteral("ann"));
    QWidget *s = surface();
    QTest::keyClick(s, Qt::Key_Tab);
    QCOMPARE(m_pane->activeAspect(), 1);
    QTest::keyClick(s, Qt::Key_Tab);
    QTest::keyClick(s, Qt::Key_Tab);
    QCOMPARE(m_pane->activeAspect(), 0); // wraps
    QTest::keyClick(s, Qt::Key_Backtab, Qt::ShiftModifier);
    QCOMPARE(m_pane->activeAspect(), 2);
    QTest::keyClick(s, Qt::Key_Right);
    QTest::keyClick(s, Qt::Key_Right);
    QCOMPARE(m_pane->currentItemId(), QStringLiteral("i2"));
    QTest::keyClick(s, Qt::Key_Left);
    QCOMPARE(m_pane->currentItemId(), QStringLiteral("i1"));
    QTest::keyClick(s, Qt::Key_Left);
    QTest::keyClick(s, Qt::Key_Left);
    QCOMPARE(m_pane->currentIndex(), 0); // stops at the first
    QCOMPARE(annotationCount(QStringLiteral("ann")), 0);
}

void TestAnnotatePane::noShortcutWhileTypingANote()
{
    start(QStringLiteral("ann"));
    QWidget *s = surface();
    auto *note = m_pane->findChild<QLineEdit *>(QStringLiteral("noteEdit"));
    auto *sheet = m_pane->findChild<QWidget *>(QStringLiteral("cheatSheet"));
    QTest::keyClick(s, Qt::Key_N);
    QTRY_VERIFY(note->hasFocus());
    QTest::keyClicks(note, QStringLiteral("5 is too high? maybe 4"));
    QTest::keyClick(note, Qt::Key_Tab);
    QTest::keyClick(note, Qt::Key_Right);
    QCOMPARE(annotationCount(QStringLiteral("ann")), 0);
    QVERIFY(!sheet->isVisible());
    QCOMPARE(m_pane->currentIndex(), 0);
    QCOMPARE(m_pane->activeAspect(), 0);
    QVERIFY(note->text().startsWith(QLatin1String("5 is too high? maybe 4")));

    // Enter leaves the note; the next score carries it.
    QTest::keyClick(note, Qt::Key_Return);
    QCOMPARE(m_pane->currentIndex(), 0);
    QTRY_VERIFY(s->hasFocus());
    QTest::keyClick(s, Qt::Key_4);
    const auto all = m_project->annotations(QStringLiteral("coherence"));
    QCOMPARE(all.size(), 1);
    QCOMPARE(all[0].score, 4.0);
    QVERIFY(all[0].note.startsWith(QLatin1String("5 is too high? maybe 4")));
}

void TestAnnotatePane::outOfScaleDigitIsIgnored()
{
    start(QStringLiteral("ann"));
    QWidget *s = surface();
    QTest::keyClick(s, Qt::Key_Tab);
    QTest::keyClick(s, Qt::Key_Tab); // relevance, 1–3
    QTest::keyClick(s, Qt::Key_5);
    QTest::keyClick(s, Qt::Key_0);
    QCOMPARE(annotationCount(QStringLiteral("ann")), 0);
    QTest::keyClick(s, Qt::Key_3);
    QCOMPARE(annotationCount(QStringLiteral("ann")), 1);
}

void TestAnnotatePane::backspaceClearsAScore()
{
    start(QStringLiteral("ann"));
    QWidget *s = surface();
    QTest::keyClick(s, Qt::Key_2);
    QCOMPARE(annotationCount(QStringLiteral("ann")), 1);
    QTest::keyClick(s, Qt::Key_Up); // back to coherence
    QTest::keyClick(s, Qt::Key_Backspace);
    QCOMPARE(annotationCount(QStringLiteral("ann")), 0);
    QVERIFY(!m_pane->findChildren<AspectScoreRow *>().first()->score().has_value());
}

void TestAnnotatePane::cheatSheetToggles()
{
    start(QStringLiteral("ann"));
    auto *sheet = m_pane->findChild<QWidget *>(QStringLiteral("cheatSheet"));
    QVERIFY(!sheet->isVisible());
    QTest::keyClick(surface(), Qt::Key_Question, Qt::ShiftModifier);
    QVERIFY(sheet->isVisible());
    QTest::keyClick(surface(), Qt::Key_Escape);
    QVERIFY(!sheet->isVisible());
}

void TestAnnotatePane::blindModeHidesJudgeScores()
{
    QVERIFY(m_project->ensureJudge(QStringLiteral("g-eval"), QStringLiteral("geval")));
    QVERIFY(m_project->setJudgeScores(QStringLiteral("g-eval"), QStringLiteral("coherence"),
                                      {{QStringLiteral("i0"), 4.25}}));
    start(QStringLiteral("ann"));
    auto *judges = m_pane->findChild<AspectScoreRow *>(QStringLiteral("aspect_coherence"))
                           ->findChild<QLabel *>(QStringLiteral("judgeScores"));
    QVERIFY(judges);
    m_pane->setBlind(true);
    QVERIFY(!judges->isVisible());
    m_pane->setBlind(false);
    QVERIFY(judges->isVisible());
    QVERIFY(judges->text().contains(QLatin1String("g-eval: 4.25")));
    QCOMPARE(Settings::flag(Settings::Key::BlindMode), false);
    QTest::keyClick(surface(), Qt::Key_Right); // i1 has no judge score
    QVERIFY(!judges->isVisible());
}

void TestAnnotatePane::suggestionsAndTrainSplit()
{
    start(QStringLiteral("ann"));
    auto *list = m_pane->findChild<QListWidget *>(QStringLiteral("suggestionList"));
    QVERIFY(list);
    QVERIFY(list->count() > 0);
    QVERIFY(list->count() <= 7);
    auto *make = m_pane->findChild<QPushButton *>(QStringLiteral("makeSplitButton"));
    QVERIFY(!make->isVisible()); // there is a train split
    // Without a split the queue is every item, and the button makes one.
    QVERIFY(m_project->setSplit({}));
    idle();
    QCOMPARE(m_pane->queueSize(), 10);
    QVERIFY(make->isVisible());
    QTest::mouseClick(make, Qt::LeftButton);
    QCOMPARE(m_project->itemIds(SplitFilter::Train).size(), 10); // 30 wanted, 10 there
    idle();
    QCOMPARE(m_pane->queueSize(), 10);
    // Clicking a suggestion opens it.
    const QString id = list->item(0)->data(Qt::UserRole).toString();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(0)).center());
    QCOMPARE(m_pane->currentItemId(), id);
}

void TestAnnotatePane::groupDisjointTrainSplit()
{
    // 40 items in 8 sources (groups doc0…doc7), no split yet.
    QVector<Item> more;
    for (int k = 10; k < 40; ++k) {
        Item it;
        it.id = QStringLiteral("i%1").arg(k);
        it.group = QStringLiteral("doc%1").arg(k % 8);
        it.system = QStringLiteral("sys%1").arg(k % 2);
        it.source = it.output = it.reference = QStringLiteral("text %1").arg(k);
        more.append(it);
    }
    QVERIFY(m_project->addItems(more));
    QVERIFY(m_project->setSplit({}));
    start(QStringLiteral("ann"));
    auto *make = m_pane->findChild<QPushButton *>(QStringLiteral("makeSplitButton"));
    auto *byGroup = m_pane->findChild<QCheckBox *>(QStringLiteral("splitByGroup"));
    QVERIFY(make && byGroup);
    QVERIFY(make->isVisible());
    QVERIFY(byGroup->isVisible());
    QTest::mouseClick(byGroup, Qt::LeftButton);
    QVERIFY(byGroup->isChecked());
    QTest::mouseClick(make, Qt::LeftButton);
    const QStringList train = m_project->itemIds(SplitFilter::Train);
    const QStringList test = m_project->itemIds(SplitFilter::Test);
    QVERIFY2(train.size() >= 30, qPrintable(QString::number(train.size())));
    QVERIFY(!test.isEmpty());
    QCOMPARE(train.size() + test.size(), 40);
    QSet<QString> trainGroups, testGroups;
    for (const QString &id : train)
        trainGroups.insert(m_project->item(id)->group);
    for (const QString &id : test)
        testGroups.insert(m_project->item(id)->group);
    QVERIFY(!trainGroups.intersects(testGroups));
}

void TestAnnotatePane::suggestsWhereJudgesDisagree()
{
    // Two judges that agree on every item but i6, where they are opposite.
    QVERIFY(m_project->setSplit({}));
    QHash<QString, double> a, b;
    for (int k = 0; k < 10; ++k) {
        const QString id = QStringLiteral("i%1").arg(k);
        a.insert(id, 1 + k % 5);
        b.insert(id, k == 6 ? 5 - k % 5 : 1 + k % 5);
    }
    for (const auto &[name, scores] : {std::pair{QStringLiteral("ja"), a}, std::pair{QStringLiteral("jb"), b}}) {
        QVERIFY(m_project->ensureJudge(name, QStringLiteral("imported")));
        QVERIFY(m_project->setJudgeScores(name, QStringLiteral("coherence"), scores));
    }
    start(QStringLiteral("ann"));
    auto *stratum = m_pane->findChild<QComboBox *>(QStringLiteral("stratumCombo"));
    QVERIFY(stratum);
    stratum->setCurrentIndex(stratum->findData(QStringLiteral("disagreement")));
    idle();
    auto *list = m_pane->findChild<QListWidget *>(QStringLiteral("suggestionList"));
    QVERIFY(list->count() > 0);
    QCOMPARE(list->item(0)->data(Qt::UserRole).toString(), QStringLiteral("i6"));
    QCOMPARE(Settings::string(Settings::Key::SuggestStratum), QStringLiteral("disagreement"));
}

void TestAnnotatePane::agreementBesideTheJudge()
{
    // Two people who agree perfectly on coherence, a judge that follows them exactly.
    QVector<Annotation> list;
    QHash<QString, double> judge;
    for (int k = 0; k < 5; ++k) {
        const QString id = QStringLiteral("i%1").arg(k);
        list.append({id, QStringLiteral("coherence"), QStringLiteral("bob"), double(k + 1)});
        list.append({id, QStringLiteral("coherence"), QStringLiteral("carol"), double(k + 1)});
        judge.insert(id, double(k + 1));
    }
    QVERIFY(m_project->addAnnotations(list));
    QVERIFY(m_project->ensureJudge(QStringLiteral("hypo"), QStringLiteral("hypoeval")));
    QVERIFY(m_project->setJudgeScores(QStringLiteral("hypo"), QStringLiteral("coherence"), judge));
    start(QStringLiteral("ann"));
    m_pane->setBlind(false);
    idle();
    auto *label = m_pane->findChild<QLabel *>(QStringLiteral("agreementLabel"));
    const QString text = label->text();
    QVERIFY2(text.contains(QLatin1String("<td>coherence&nbsp;&nbsp;</td><td>1.00 <small>(5 items)</small>")),
             qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("hypo vs people")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("needs a second annotator"))); // fluency has nobody yet
    // One disagreeing score from ann lowers the people's alpha at once.
    QTest::keyClick(surface(), Qt::Key_5); // ann: coherence of i0 = 5 (bob and carol said 1)
    idle();
    QVERIFY(!label->text().contains(QLatin1String("<td>coherence&nbsp;&nbsp;</td><td>1.00")));
    m_pane->setBlind(true);
    idle();
    QVERIFY(!label->text().contains(QLatin1String("hypo vs people")));
}

QTEST_MAIN(TestAnnotatePane)
void TestAnnotatePane::unreadableProjectIsShown_data()
{
    QTest::addColumn<QString>("table");
    QTest::newRow("aspects") << QStringLiteral("aspects");
    QTest::newRow("split") << QStringLiteral("splits");
    QTest::newRow("annotations") << QStringLiteral("annotations");
}

void TestAnnotatePane::unreadableProjectIsShown()
{
    // Issue 18.8: a damaged project is not shown as one without aspects, items or scores.
    QFETCH(QString, table);
    start(QStringLiteral("ann"));
    QSqlQuery q(ProjectTestAccess::database(*m_project));
    QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys = OFF")));
    QVERIFY2(q.exec(QStringLiteral("DROP TABLE ") + table), qPrintable(q.lastError().text()));
    QSignalSpy problems(m_pane.get(), &AnnotatePane::problem);
    m_pane->setProject(m_project.get());
    idle();
    auto *title = m_pane->findChild<QLabel *>(QStringLiteral("itemTitle"));
    QVERIFY(title);
    QVERIFY2(title->text().contains(QLatin1String("Cannot read the project")), qPrintable(title->text()));
    QVERIFY2(title->text().contains(table), qPrintable(title->text()));
    QVERIFY(!problems.isEmpty());
    QVERIFY2(problems.last().at(0).toString().contains(table), qPrintable(problems.last().at(0).toString()));
    if (table == QLatin1String("annotations")) {
        // The queue is readable; the annotator's progress is not, and says so.
        QCOMPARE(m_pane->queueSize(), 7);
        QVERIFY(!m_pane->labelledCount().ok());
        const auto *progress = m_pane->findChild<QLabel *>(QStringLiteral("progressLabel"));
        QVERIFY2(progress->text().contains(QLatin1String("Cannot read")), qPrintable(progress->text()));
    } else {
        QVERIFY2(m_pane->readError().contains(table), qPrintable(m_pane->readError()));
        QCOMPARE(m_pane->queueSize(), 0);
    }
}

void TestAnnotatePane::changesElsewhereAreMergedNotOverwritten()
{
    // Issue 33.8: the same annotator in another window (or a teammate merging) changes what
    // this pane shows. Before: saving a note rewrote every score shown, setting a score rewrote
    // the note shown, and a change announced from elsewhere wiped a note being typed.
    start(QStringLiteral("ann"));
    QWidget *s = surface();
    QTest::keyClick(s, Qt::Key_3); // coherence 3
    QTest::keyClick(s, Qt::Key_4); // fluency 4
    QCOMPARE(m_pane->currentItemId(), QStringLiteral("i0"));
    auto other = Project::open(m_path, Project::OpenMode::OpenExisting);
    QVERIFY(other);
    const auto stored = [this](const QString &aspect) {
        for (const Annotation &a : m_project->annotations(aspect))
            if (a.itemId == QLatin1String("i0") && a.annotator == QLatin1String("ann"))
                return a;
        return Annotation{};
    };

    // Elsewhere: fluency becomes 2. Here: a note is typed and saved; fluency stays 2.
    QVERIFY((*other)->setAnnotationScore(QStringLiteral("i0"), QStringLiteral("fluency"), QStringLiteral("ann"), 2));
    auto *note = m_pane->findChild<QLineEdit *>(QStringLiteral("noteEdit"));
    QTest::keyClick(s, Qt::Key_N);
    QTRY_VERIFY(note->hasFocus());
    QTest::keyClicks(note, QStringLiteral("the second paragraph drifts"));
    QTest::keyClick(note, Qt::Key_Return);
    QCOMPARE(stored(QStringLiteral("fluency")).score, 2.0);
    QCOMPARE(stored(QStringLiteral("fluency")).note, QStringLiteral("the second paragraph drifts"));
    QCOMPARE(stored(QStringLiteral("coherence")).score, 3.0);

    // Elsewhere: the note is reworded. Here: a score is set; the note stays as reworded.
    QVERIFY((*other)->setAnnotationNote(QStringLiteral("i0"), QStringLiteral("ann"), QStringLiteral("drifts in §2")));
    QTRY_VERIFY(s->hasFocus());
    while (m_pane->activeAspect() != 0)
        QTest::keyClick(s, Qt::Key_Tab);
    QTest::keyClick(s, Qt::Key_5);
    QCOMPARE(stored(QStringLiteral("coherence")).score, 5.0);
    QCOMPARE(stored(QStringLiteral("coherence")).note, QStringLiteral("drifts in §2"));
    QCOMPARE(stored(QStringLiteral("fluency")).score, 2.0);

    // A change announced from elsewhere while a note is being typed: the typing stays.
    QTest::keyClick(s, Qt::Key_N);
    QTRY_VERIFY(note->hasFocus());
    note->selectAll();
    QTest::keyClicks(note, QStringLiteral("half typed"));
    emit m_project->annotationsReset();
    emit m_project->annotationChanged(QStringLiteral("i0"), QStringLiteral("fluency"));
    QCOMPARE(note->text(), QStringLiteral("half typed"));
}

void TestAnnotatePane::readsOnAWorkerAndAnnotatesMeanwhile()
{
    // Issue 34: the queue, the progress and the footer (suggestions, agreement, the expected
    // gain over every item) are read on a worker; the pane says so and can be used meanwhile; a
    // save updates the progress in place, without reading the queue again.
    QHash<QString, double> judge;
    QVector<Annotation> bob;
    for (int k = 0; k < 10; ++k) {
        const QString id = QStringLiteral("i%1").arg(k);
        judge.insert(id, 1 + (k * 7) % 5);
        if (k >= 3 && k < 7)
            bob.append({id, QStringLiteral("coherence"), QStringLiteral("bob"), double(1 + (k * 3) % 5)});
    }
    QVERIFY(m_project->addAnnotations(bob));
    QVERIFY(m_project->ensureJudge(QStringLiteral("ja"), QStringLiteral("imported")));
    QVERIFY(m_project->setJudgeScores(QStringLiteral("ja"), QStringLiteral("coherence"), judge));
    Settings::setValue(Settings::Key::AnnotatorName, QStringLiteral("ann"));

    AnnotatePane pane;
    pane.resize(1200, 800);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    auto *title = pane.findChild<QLabel *>(QStringLiteral("itemTitle"));
    auto *gainTitle = pane.findChild<QLabel *>(QStringLiteral("expectedGainTitle"));
    QVERIFY(title && gainTitle);
    QString gainWhenLoaded;
    connect(&pane, &AnnotatePane::busyChanged, this, [&] {
        if (!pane.isLoading() && gainWhenLoaded.isNull() && !pane.currentItemId().isEmpty())
            gainWhenLoaded = gainTitle->text();
    });
    pane.setProject(m_project.get());
    // setProject returns at once: the queue is being read.
    QVERIFY(pane.isLoading());
    QVERIFY2(title->text().contains(QLatin1String("Reading the queue")), qPrintable(title->text()));
    QTRY_VERIFY_WITH_TIMEOUT(!pane.isLoading(), 20000);
    QCOMPARE(pane.queueSize(), 7);
    QCOMPARE(pane.currentItemId(), QStringLiteral("i0"));
    QVERIFY2(gainWhenLoaded.contains(QLatin1String("computing")), qPrintable(gainWhenLoaded));

    // Scored while the footer may still be computing: every key lands at once.
    QWidget *s = pane.findChild<QWidget *>(QStringLiteral("annotateSurface"));
    pane.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&pane));
    QTest::keyClick(s, Qt::Key_4); // coherence
    QTest::keyClick(s, Qt::Key_2); // fluency
    QTest::keyClick(s, Qt::Key_3); // relevance
    QVERIFY(!pane.isLoading());    // no second read of the queue
    QCOMPARE(*pane.labelledCount(), 1);
    QVERIFY(pane.findChild<QLabel *>(QStringLiteral("progressLabel"))->text().contains(QLatin1String("1 of 7")));
    // The stored labels, read back from the file by a connection of its own.
    {
        auto reader = Project::open(m_path, Project::OpenMode::OpenExisting);
        QVERIFY(reader);
        QHash<QString, double> mine;
        for (const Annotation &a : (*reader)->annotations())
            if (a.itemId == QLatin1String("i0") && a.annotator == QLatin1String("ann"))
                mine.insert(a.aspect, a.score);
        QCOMPARE(mine.value(QStringLiteral("coherence")), 4.0);
        QCOMPARE(mine.value(QStringLiteral("fluency")), 2.0);
        QCOMPARE(mine.value(QStringLiteral("relevance")), 3.0);
        QCOMPARE(mine.size(), 3);
    }
    QTest::keyClick(s, Qt::Key_Return);
    QCOMPARE(pane.currentItemId(), QStringLiteral("i1"));

    // The footer catches up: the next item by expected gain is one nobody has labelled (i1, i2;
    // i0 is ann's now, i3…i6 bob's), ranked over the 5 labelled train items.
    QTRY_VERIFY_WITH_TIMEOUT(!pane.isBusy(), 20000);
    auto *box = pane.findChild<ExpectedGainBox *>(QStringLiteral("expectedGainBox"));
    QVERIFY(box);
    QVERIFY2(QStringList({QStringLiteral("i1"), QStringLiteral("i2")}).contains(box->suggestedItem()),
             qPrintable(gainTitle->text() + QLatin1Char(' ') + box->reasonText()));
    QVERIFY2(box->reasonText().contains(QLatin1String("5 labelled items")), qPrintable(box->reasonText()));
    auto *list = pane.findChild<QListWidget *>(QStringLiteral("suggestionList"));
    QVERIFY(list->count() > 0);
    for (int i = 0; i < list->count(); ++i)
        QVERIFY(list->item(i)->data(Qt::UserRole).toString() != QLatin1String("i0")); // fully scored
}

#include "TestAnnotatePane.moc"
