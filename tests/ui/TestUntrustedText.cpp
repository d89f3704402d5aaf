// Untrusted text (issue #19): dataset fields, human notes, judge answers, rubric text and issue
// messages that look like markup, carry a right-to-left override or are one 1 MB line, fed
// through the panes and models that show them. Everything must be shown literally: a label or
// tooltip that interprets `<a href>` shows "click me" without its tags, which is what the test
// looks for. Set RUBRIC_SHOT_DIR to also save screenshots of two panes (docs/screenshots).
#include "PlainText.h"
#include "ScoreFixture.h"
#include "UiTestProject.h"
#include "dialogs/ImportDialog.h"
#include "models/IssuesModel.h"
#include "models/ItemsModel.h"
#include "models/RubricTreeModel.h"
#include "models/ScoreModel.h"
#include "panes/AnnotatePane.h"
#include "panes/DatasetPane.h"
#include "panes/HeatmapPane.h"
#include "panes/IssuesPane.h"
#include "store/RubricStore.h"
#include "widgets/HeatmapView.h"
#include "widgets/MessageBar.h"
#include "widgets/RubricVersionList.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTextDocument>
#include <QtTest>

using namespace rubric;

namespace {

const QString kImg = QStringLiteral("<img src=x onerror=alert(1)>");
const QString kLink = QStringLiteral("<a href=\"http://evil.example/\">click me</a>");
const QString kScript = QStringLiteral("<script>alert(2)</script>");
const QString kRtl = QStringLiteral("abc\u202Edef");

/// Each hostile string and a fragment that survives when it is interpreted as markup.
const QVector<QPair<QString, QString>> kTells{
        {kImg, QStringLiteral("onerror=alert(1)")},
        {kLink, QStringLiteral("click me")},
        {kScript, QStringLiteral("alert(2)")},
};

QString bigLine()
{
    return QStringLiteral("x").repeated(1024 * 1024);
}

/// What a person sees for `text` shown in `format` (Qt's own rule for AutoText).
QString rendered(const QString &text, Qt::TextFormat format)
{
    const bool rich = format == Qt::RichText || (format == Qt::AutoText && Qt::mightBeRichText(text));
    QString shown = text;
    if (rich) {
        QTextDocument doc;
        doc.setHtml(text);
        shown = doc.toPlainText();
    }
    return shown.remove(QChar(0x2068)).remove(QChar(0x2069));
}

/// Empty when `shown` shows every hostile string it shows a part of literally; else what went wrong.
QString interpreted(const QString &shown, const QString &where)
{
    for (const auto &[hostile, tell] : kTells)
        if (shown.contains(tell) && !shown.contains(hostile))
            return where + QStringLiteral(" interprets ") + hostile + QStringLiteral(": shows \"") + shown.left(300)
                   + QLatin1Char('"');
    return {};
}

/// Every label, text view and tooltip under `root`; returns the problems found.
QStringList checkWidgets(QWidget *root)
{
    QStringList problems;
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *w : std::as_const(widgets)) {
        const QString name = QString::fromLatin1(w->metaObject()->className()) + QLatin1Char('#') + w->objectName();
        if (auto *label = qobject_cast<QLabel *>(w)) {
            // A plain-text label shows its text as it is (a cut tag included): nothing to interpret.
            if (label->textFormat() != Qt::PlainText)
                problems << interpreted(rendered(label->text(), label->textFormat()), name);
        } else if (auto *edit = qobject_cast<QTextEdit *>(w))
            problems << interpreted(edit->toPlainText(), name);
        else if (auto *plain = qobject_cast<QPlainTextEdit *>(w))
            problems << interpreted(plain->toPlainText(), name);
        problems << interpreted(rendered(w->toolTip(), Qt::AutoText), name + QStringLiteral(" tooltip"));
    }
    problems.removeAll(QString());
    return problems;
}

/// Every cell's tooltip in `model`: shown literally, and never a 1 MB tooltip.
QStringList checkToolTips(const QAbstractItemModel &model, const QString &name, const QModelIndex &parent = {})
{
    QStringList problems;
    for (int r = 0; r < model.rowCount(parent); ++r)
        for (int c = 0; c < model.columnCount(parent); ++c) {
            const QModelIndex index = model.index(r, c, parent);
            const QString tip = index.data(Qt::ToolTipRole).toString();
            const QString where = QStringLiteral("%1 (%2, %3) tooltip").arg(name).arg(r).arg(c);
            problems << interpreted(rendered(tip, Qt::AutoText), where);
            if (tip.size() > 10000)
                problems << where + QStringLiteral(" is %1 characters long").arg(tip.size());
            if (c == 0 && model.hasChildren(index))
                problems << checkToolTips(model, name, index);
        }
    problems.removeAll(QString());
    return problems;
}

void saveShot(QWidget &w, const QString &name)
{
    const QString dir = qEnvironmentVariable("RUBRIC_SHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(w.grab().save(dir + QLatin1Char('/') + name));
}

} // namespace

class TestUntrustedText : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void renderedDetectsInterpretation();
    void plainHelpers_data();
    void plainHelpers();
    void elideKeepsSurrogatePairs();
    void datasetPane();
    void annotatePane();
    void heatmapPaneAndScoreModel();
    void issuesPaneAndMessageBar();
    void rubricTreeToolTips();
    void importPreviewAndVersionNotes();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Project> m_project;
    QString m_hostileId;
};

void TestUntrustedText::initTestCase()
{
    testing::isolateSettings();
    m_project = fixture::openProject(m_dir.filePath(QStringLiteral("u.rubric")));
    m_hostileId = kImg + kRtl;
    QVector<Item> items;
    for (int i = 0; i < 3; ++i) {
        Item it;
        it.id = i == 0 ? m_hostileId : QStringLiteral("plain-%1").arg(i);
        it.group = kLink;
        it.system = kScript + kRtl;
        it.source = kImg + QLatin1Char('\n') + kLink + QLatin1Char('\n') + bigLine();
        it.output = kRtl + QLatin1Char(' ') + kScript + QLatin1Char(' ') + kLink;
        it.reference = kImg;
        it.context.insert(QStringLiteral("fact"), kLink);
        items.append(it);
    }
    QVERIFY(m_project->addItems(items).ok());
    QVERIFY(m_project->upsertAspect({QStringLiteral("coherence"), kLink, 1, 5}).ok());
    QVector<Annotation> notes;
    for (const Item &it : items)
        notes.append({it.id, QStringLiteral("coherence"), kImg, 3, kLink + kScript, QDateTime::currentDateTimeUtc()});
    QVERIFY(m_project->addAnnotations(notes).ok());
    QHash<QString, SplitRole> split;
    for (const Item &it : items)
        split.insert(it.id, SplitRole::Test);
    QVERIFY(m_project->setSplit(split).ok());
    QHash<QString, QVector<double>> scores;
    for (const Item &it : items)
        scores.insert(it.id, {4, std::nan("")});
    fixture::writeJudge(*m_project, QStringLiteral("judge"), QStringLiteral("coherence"),
                        {{QStringLiteral("h1"), kLink + kRtl}, {QStringLiteral("h2"), kScript + bigLine()}}, scores);
    QVERIFY(m_project
                    ->addIssue(QStringLiteral("parse"), QStringLiteral("cannot read the answer ") + kImg + kLink,
                               QStringLiteral("judge"), m_hostileId)
                    .ok());
}

void TestUntrustedText::renderedDetectsInterpretation()
{
    // The check itself: interpreted markup is caught, escaped markup passes.
    QVERIFY(!interpreted(rendered(kLink, Qt::AutoText), QStringLiteral("x")).isEmpty());
    QVERIFY(!interpreted(rendered(kImg + QStringLiteral(" <b>onerror=alert(1)</b>"), Qt::AutoText), QStringLiteral("x"))
                     .isEmpty());
    QVERIFY(interpreted(rendered(kLink, Qt::PlainText), QStringLiteral("x")).isEmpty());
    QVERIFY(interpreted(rendered(QStringLiteral("<p>") + kLink.toHtmlEscaped() + QStringLiteral("</p>"), Qt::AutoText),
                        QStringLiteral("x"))
                    .isEmpty());
}

void TestUntrustedText::plainHelpers_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("img") << kImg;
    QTest::newRow("link") << kLink;
    QTest::newRow("script") << kScript;
    QTest::newRow("ampersand entity") << QStringLiteral("&lt;b&gt; stays &amp;");
    QTest::newRow("rtl override") << kRtl;
    QTest::newRow("newlines") << QStringLiteral("line 1\n  line 2");
}

void TestUntrustedText::plainHelpers()
{
    QFETCH(QString, text);
    const QString tip = plain::toolTip(text);
    QVERIFY(Qt::mightBeRichText(tip)); // taken as rich text by QToolTip, so its own text is never guessed
    QTextDocument doc;
    doc.setHtml(tip);
    QCOMPARE(doc.toPlainText().remove(QChar(0x2068)).remove(QChar(0x2069)), text);
    QCOMPARE(plain::isolate(text), QChar(0x2068) + text + QChar(0x2069));
    QCOMPARE(plain::isolate(QString()), QString());
    QCOMPARE(plain::toolTip(QString()), QString());
}

void TestUntrustedText::elideKeepsSurrogatePairs()
{
    const QString emoji = QString::fromUtf8("\xF0\x9F\x98\x80"); // one character, two UTF-16 units
    const QString text = QStringLiteral("abcd") + emoji + QStringLiteral("efgh");
    QCOMPARE(plain::elide(text, 5), QStringLiteral("abcd") + QChar(0x2026)); // not half the emoji
    QCOMPARE(plain::elide(text, 6), QStringLiteral("abcd") + emoji + QChar(0x2026));
    QCOMPARE(plain::elide(text, 100), text);
    QCOMPARE(plain::toolTip(bigLine()).size() < 2100, true);
}

void TestUntrustedText::datasetPane()
{
    DatasetPane pane;
    pane.setProject(m_project.get());
    pane.resize(1100, 700);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    pane.selectItem(m_hostileId);
    QCOMPARE(pane.currentItemId(), m_hostileId);
    auto *title = pane.findChild<QLabel *>(QStringLiteral("itemTitle"));
    QVERIFY(title);
    // The id is shown literally and isolated: its override cannot reorder "group …" after it.
    QVERIFY2(rendered(title->text(), title->textFormat()).contains(m_hostileId), qPrintable(title->text()));
    QVERIFY(title->text().contains(QChar(0x2068) + m_hostileId + QChar(0x2069)));
    auto *source = pane.findChild<QTextBrowser *>(QStringLiteral("sourceView"));
    QVERIFY(source->toPlainText().contains(kLink));
    // the 1 MB line is cut for the viewer (laid out whole it froze the pane for minutes)
    QVERIFY(source->toPlainText().size() < 30000);
    QVERIFY(source->toPlainText().contains(QLatin1String("characters not shown]")));
    const QStringList problems = checkWidgets(&pane);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));

    ItemsModel model;
    model.setProject(m_project.get());
    const QStringList tips = checkToolTips(model, QStringLiteral("ItemsModel"));
    QVERIFY2(tips.isEmpty(), qPrintable(tips.join(QLatin1Char('\n'))));
    // the source column's tooltip is cut, not 1 MB
    QVERIFY(model.index(0, ItemsModel::SourceColumn).data(Qt::ToolTipRole).toString().size() < 10000);
    // shrink the viewer so that the screenshot shows the hostile text, not the 1 MB line
    pane.selectItem(QStringLiteral("plain-1"));
    pane.selectItem(m_hostileId);
    saveShot(pane, QStringLiteral("untrusted-dataset.png"));
}

void TestUntrustedText::annotatePane()
{
    AnnotatePane pane;
    pane.setProject(m_project.get());
    pane.setAnnotator(kImg);
    pane.resize(1000, 700);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QTRY_VERIFY_WITH_TIMEOUT(!pane.isBusy(), 20000); // the queue and the footer are read on a worker
    auto *title = pane.findChild<QLabel *>(QStringLiteral("itemTitle"));
    QVERIFY(title);
    QVERIFY2(rendered(title->text(), title->textFormat()).contains(QStringLiteral("alert(1)")),
             qPrintable(title->text()));
    const QStringList problems = checkWidgets(&pane);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TestUntrustedText::heatmapPaneAndScoreModel()
{
    HeatmapPane pane;
    pane.resize(1100, 700);
    pane.setProject(m_project.get());
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    auto *view = pane.findChild<HeatmapView *>(QStringLiteral("heatmapView"));
    QVERIFY(view && view->model()->rowCount() == 3);
    int hostileRow = -1;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        if (view->model()->index(r, 0).data(ScoreModel::ItemIdRole).toString() == m_hostileId)
            hostileRow = r;
    QVERIFY(hostileRow >= 0);
    auto *reasoning = pane.findChild<QTextBrowser *>(QStringLiteral("heatmapReasoning"));
    auto *detail = pane.findChild<QLabel *>(QStringLiteral("heatmapDetailTitle"));
    // the human cell: the notes in the reasoning view
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(view->model()->index(hostileRow, ScoreModel::HumanColumn)).center());
    QVERIFY2(reasoning->toPlainText().contains(kLink + kScript), qPrintable(reasoning->toPlainText()));
    QVERIFY(rendered(detail->text(), detail->textFormat()).contains(m_hostileId));
    QStringList problems = checkWidgets(&pane);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    // a criterion cell: the judge's reasoning (which quotes the item id) and the criterion's text
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(view->model()->index(hostileRow, ScoreModel::FirstCriterionColumn)).center());
    QVERIFY2(reasoning->toPlainText().contains(m_hostileId), qPrintable(reasoning->toPlainText()));
    QVERIFY2(rendered(detail->text(), detail->textFormat()).contains(kLink), qPrintable(detail->text()));
    problems = checkWidgets(&pane);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    saveShot(pane, QStringLiteral("untrusted-heatmap.png"));
    // the long criterion (1 MB text): its column shows, the detail title is cut
    QTest::mouseClick(
            view->viewport(), Qt::LeftButton, {},
            view->visualRect(view->model()->index(hostileRow, ScoreModel::FirstCriterionColumn + 1)).center());
    QVERIFY(detail->text().size() < 20000);

    const QStringList tips = checkToolTips(*view->model(), QStringLiteral("ScoreModel"));
    QVERIFY2(tips.isEmpty(), qPrintable(tips.join(QLatin1Char('\n'))));
}

void TestUntrustedText::issuesPaneAndMessageBar()
{
    IssuesPane pane;
    pane.setProject(m_project.get());
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    auto *view = pane.findChild<QTableView *>(QStringLiteral("issuesView"));
    QVERIFY(view && view->model()->rowCount() >= 1);
    const QStringList tips = checkToolTips(*view->model(), QStringLiteral("IssuesModel"));
    QVERIFY2(tips.isEmpty(), qPrintable(tips.join(QLatin1Char('\n'))));
    QStringList problems = checkWidgets(&pane);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));

    MessageBar bar;
    bar.showError(QStringLiteral("data.json:3: output: ") + kLink + kImg + bigLine());
    bar.show();
    auto *text = bar.findChild<QLabel *>(QStringLiteral("messageText"));
    QCOMPARE(text->textFormat(), Qt::PlainText);
    problems = checkWidgets(&bar);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TestUntrustedText::rubricTreeToolTips()
{
    Rubric rubric(QStringLiteral("checkeval"), QStringLiteral("coherence"));
    Criterion root;
    root.key = QStringLiteral("aspect");
    root.kind = CriterionKind::Aspect;
    root.text = kLink;
    root.definition = kScript + bigLine();
    rubric.add(root);
    Criterion q;
    q.key = QStringLiteral("q1");
    q.parentKey = QStringLiteral("aspect");
    q.kind = CriterionKind::Question;
    q.text = kImg + kRtl;
    q.origin = {{QStringLiteral("edited_from"), kLink}, {QStringLiteral("edited_by"), kScript}};
    q.stats = {{QStringLiteral("constant"), kImg}};
    rubric.add(q);
    RubricTreeModel model;
    model.setRubric(rubric);
    const QStringList tips = checkToolTips(model, QStringLiteral("RubricTreeModel"));
    QVERIFY2(tips.isEmpty(), qPrintable(tips.join(QLatin1Char('\n'))));
    // the tooltip still carries the text, literally
    const QModelIndex first = model.index(0, RubricTreeModel::TextColumn);
    QVERIFY(rendered(first.data(Qt::ToolTipRole).toString(), Qt::AutoText).contains(kLink));
}

void TestUntrustedText::importPreviewAndVersionNotes()
{
    // Issue 33.12: the import preview's cells and a version's note carry the file's text.
    const QString file = m_dir.filePath(QStringLiteral("hostile.jsonl"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(QJsonObject{{QStringLiteral("id"), kImg},
                                      {QStringLiteral("source"), kLink},
                                      {QStringLiteral("output"), kScript}})
                    .toJson(QJsonDocument::Compact)
            + '\n');
    f.close();
    ImportDialog dialog(m_project.get());
    dialog.setFile(file);
    auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("previewTable"));
    QVERIFY(table);
    QTRY_VERIFY(table->rowCount() > 0);
    QStringList tips = checkToolTips(*table->model(), QStringLiteral("import preview"));
    QVERIFY2(tips.isEmpty(), qPrintable(tips.join(QLatin1Char('\n'))));

    Rubric rubric(QStringLiteral("geval"), QStringLiteral("coherence"));
    Criterion root;
    root.key = QStringLiteral("aspect");
    root.kind = CriterionKind::Aspect;
    root.text = QStringLiteral("coherence");
    rubric.add(root);
    QVERIFY(m_project->ensureJudge(QStringLiteral("noted"), QStringLiteral("geval")).ok());
    QVERIFY(RubricStore(m_project.get()).saveVersion(QStringLiteral("noted"), rubric, kImg + kLink).ok());
    RubricVersionList list;
    QVERIFY(list.fill(m_project.get(), QStringLiteral("noted")).ok());
    tips = checkToolTips(*list.model(), QStringLiteral("version list"));
    QVERIFY2(tips.isEmpty(), qPrintable(tips.join(QLatin1Char('\n'))));
}

QTEST_MAIN(TestUntrustedText)
#include "TestUntrustedText.moc"
