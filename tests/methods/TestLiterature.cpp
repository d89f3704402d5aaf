#include "methods/hypoeval/Literature.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

class TestLiterature : public QObject
{
    Q_OBJECT
private slots:
    void papersAndSummariesByTitle();
    void badFoldersNameTheFile_data();
    void badFoldersNameTheFile();
    void summaryOfAnAnswer();

private:
    static void write(const QTemporaryDir &dir, const char *name, const QByteArray &text)
    {
        QFile f(dir.filePath(QString::fromLatin1(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }
};

void TestLiterature::papersAndSummariesByTitle()
{
    QTemporaryDir dir;
    write(dir, "zeta.md", "A paper on coherence.\n");
    write(dir, "alpha.txt", "Entity grids.\n");
    write(dir, "alpha.summary.txt", "Entity grids predict coherence.\n");
    write(dir, "only.summary.md", "A summary without its paper.\n");
    write(dir, "notes.pdf", "ignored");
    auto papers = Literature::read(dir.path());
    QVERIFY2(papers.ok(), qPrintable(papers.errorString()));
    QCOMPARE(papers->size(), 3);
    const LiteraturePaper &alpha = papers->at(0);
    QCOMPARE(alpha.title, QStringLiteral("alpha"));
    QCOMPARE(alpha.file, QStringLiteral("alpha.txt"));
    QCOMPARE(alpha.text, QStringLiteral("Entity grids."));
    QCOMPARE(alpha.summary, QStringLiteral("Entity grids predict coherence."));
    QVERIFY(alpha.userSummary);
    QCOMPARE(papers->at(1).title, QStringLiteral("only"));
    QCOMPARE(papers->at(1).file, QStringLiteral("only.summary.md"));
    QVERIFY(papers->at(1).text.isEmpty());
    QCOMPARE(papers->at(2).title, QStringLiteral("zeta"));
    QVERIFY(papers->at(2).summary.isEmpty()); // the generator's to write
    // L holds only what has a summary, in title order
    QCOMPARE(Literature::relevantPapers(*papers),
             QStringLiteral(
                     "Paper: alpha\nEntity grids predict coherence.\n\nPaper: only\nA summary without its paper."));
    QVERIFY(Literature::read(QString()).ok());
    QVERIFY(Literature::read(QString())->isEmpty());
}

void TestLiterature::badFoldersNameTheFile_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no text files") << QStringList{QStringLiteral("a.pdf")}
                                   << QStringLiteral("has no .txt or .md files");
    QTest::newRow("empty file") << QStringList{QStringLiteral("a.txt=")} << QStringLiteral("a.txt is empty");
    QTest::newRow("two papers, one title")
            << QStringList{QStringLiteral("a.txt=x"), QStringLiteral("a.md=y")} << QStringLiteral("two files for 'a'");
    QTest::newRow("two summaries, one title")
            << QStringList{QStringLiteral("a.summary.txt=x"), QStringLiteral("a.summary.md=y")}
            << QStringLiteral("two files for 'a'");
}

void TestLiterature::badFoldersNameTheFile()
{
    QFETCH(QStringList, files);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    for (const QString &f : files) {
        const QStringList parts = f.split(QLatin1Char('='));
        write(dir, qPrintable(parts[0]), parts.value(1, QStringLiteral("text")).toUtf8());
    }
    auto papers = Literature::read(dir.path());
    QVERIFY(!papers.ok());
    QVERIFY2(papers.errorString().contains(expected), qPrintable(papers.errorString()));
    QVERIFY(!Literature::read(dir.filePath(QStringLiteral("missing"))).ok());
}

void TestLiterature::summaryOfAnAnswer()
{
    QCOMPARE(Literature::summaryOf(QStringLiteral("  Summary: Coherence matters.\n")),
             QStringLiteral("Coherence matters."));
    QCOMPARE(Literature::summaryOf(QStringLiteral("Coherence matters.")), QStringLiteral("Coherence matters."));
    QVERIFY(Literature::summaryOf(QStringLiteral("summary:   ")).isEmpty());
}

QTEST_GUILESS_MAIN(TestLiterature)
#include "TestLiterature.moc"
