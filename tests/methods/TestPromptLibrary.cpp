#include "PostgresServer.h"
#include "ProjectTestAccess.h"
#include "data/Aspect.h"
#include "methods/PromptLibrary.h"
#include "store/Project.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace rubric;

class TestPromptLibrary : public QObject
{
    Q_OBJECT
private slots:
    void builtinsEmbedded();
    void builtinsRender_data();
    void builtinsRender();
    void rendersListsWithoutEscaping();
    void projectOverrideWins();
    void unreadableProjectIsAnErrorNotTheBuiltin();
    void rejectsBadTemplates_data();
    void rejectsBadTemplates();
};

void TestPromptLibrary::builtinsEmbedded()
{
    const QStringList names = PromptLibrary::builtinNames();
    for (const char *n : {"geval_steps", "geval_score", "hypoeval_generate", "hypoeval_refine", "hypoeval_literature",
                          "hypoeval_redundancy", "hypoeval_score", "hypoeval_summarize"})
        QVERIFY2(names.contains(QString::fromLatin1(n)), n);
    for (const QString &n : names) {
        auto t = PromptLibrary::builtin(n);
        QVERIFY2(t.ok(), qPrintable(n));
        QVERIFY2(PromptLibrary::validate(t->body).ok(), qPrintable(n));
        QCOMPARE(t->hash.size(), 16);
        QCOMPARE(t->source, QStringLiteral("builtin"));
    }
    QVERIFY(!PromptLibrary::builtin(QStringLiteral("nope")).ok());
}

void TestPromptLibrary::builtinsRender_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("mustContain");
    QTest::newRow("hypoeval score, summary") << "hypoeval_score"
                                             << "summarization"
                                             << "Summary: OUT";
    QTest::newRow("hypoeval score, story") << "hypoeval_score"
                                           << "story"
                                           << "Story: OUT";
    QTest::newRow("generate names count") << "hypoeval_generate"
                                          << "summarization"
                                          << "Propose 5 possible hypotheses";
    QTest::newRow("geval score has steps") << "geval_score"
                                           << "summarization"
                                           << "1. Read it.\n2. Judge it.";
    QTest::newRow("geval steps has definition") << "geval_steps"
                                                << "summarization"
                                                << "Coherence (1-5) - fits together";
}

void TestPromptLibrary::builtinsRender()
{
    QFETCH(QString, name);
    QFETCH(QString, task);
    QFETCH(QString, mustContain);
    QVariantMap c = PromptLibrary::taskContext(
            task, Aspect{QStringLiteral("coherence"), QStringLiteral("fits together"), 1, 5});
    c.insert(QStringLiteral("source"), QStringLiteral("SRC"));
    c.insert(QStringLiteral("output"), QStringLiteral("OUT"));
    c.insert(QStringLiteral("hypothesis"), QStringLiteral("H"));
    c.insert(QStringLiteral("num_hypotheses"), 5);
    c.insert(QStringLiteral("has_observations"), true);
    c.insert(QStringLiteral("observations"), QVariantList{QVariantMap{{QStringLiteral("source"), QStringLiteral("s")},
                                                                      {QStringLiteral("output"), QStringLiteral("o")},
                                                                      {QStringLiteral("score"), 3.5}}});
    c.insert(QStringLiteral("steps"),
             QVariantList{
                     QVariantMap{{QStringLiteral("index"), 1}, {QStringLiteral("text"), QStringLiteral("Read it.")}},
                     QVariantMap{{QStringLiteral("index"), 2}, {QStringLiteral("text"), QStringLiteral("Judge it.")}}});
    auto r = PromptLibrary().render(name, c);
    QVERIFY2(r.ok(), qPrintable(r.errorString()));
    QCOMPARE(r->messages.size(), 2);
    QCOMPARE(r->messages[0].role, QStringLiteral("system"));
    QCOMPARE(r->messages[1].role, QStringLiteral("user"));
    const QString all = r->messages[0].content + QLatin1Char('\n') + r->messages[1].content;
    QVERIFY2(all.contains(mustContain), qPrintable(all));
    QVERIFY2(!all.contains(QLatin1String("{{")), qPrintable(all));
    QCOMPARE(r->templateName, name);
}

void TestPromptLibrary::rendersListsWithoutEscaping()
{
    PromptTemplate t{
            QStringLiteral("t"),
            QStringLiteral("=== system ===\nS {{a}}\n=== user ===\n{{#xs}}[{{i}}:{{t}}]{{/xs}}{{^none}} none{{/none}}"),
            QStringLiteral("builtin"), QStringLiteral("h")};
    auto r = PromptLibrary::render(
            t, {{QStringLiteral("a"), QStringLiteral("<b>&\"x\"")},
                {QStringLiteral("xs"),
                 QVariantList{QVariantMap{{QStringLiteral("i"), 1}, {QStringLiteral("t"), QStringLiteral("x")}},
                              QVariantMap{{QStringLiteral("i"), 2}, {QStringLiteral("t"), QStringLiteral("y")}}}},
                {QStringLiteral("none"), false}});
    QVERIFY2(r.ok(), qPrintable(r.errorString()));
    QCOMPARE(r->messages[0].content, QStringLiteral("S <b>&\"x\""));
    QCOMPARE(r->messages[1].content, QStringLiteral("[1:x][2:y] none"));
}

void TestPromptLibrary::projectOverrideWins()
{
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(location, dir, QStringLiteral("p.rubric"));
    auto p = Project::open(location);
    QVERIFY(p.ok());
    PromptLibrary lib(p->get());
    const QString builtinHash = lib.get(QStringLiteral("hypoeval_score"))->hash;
    QVERIFY(lib.setOverride(QStringLiteral("hypoeval_score"),
                            QStringLiteral("=== system ===\nmine\n=== user ===\n{{output}}")));
    auto t = lib.get(QStringLiteral("hypoeval_score"));
    QCOMPARE(t->source, QStringLiteral("project"));
    QVERIFY(t->hash != builtinHash);
    auto r = lib.render(QStringLiteral("hypoeval_score"), {{QStringLiteral("output"), QStringLiteral("O")}});
    QCOMPARE(r->messages[1].content, QStringLiteral("O"));
    QCOMPARE(r->templateSource, QStringLiteral("project"));
    QVERIFY(lib.removeOverride(QStringLiteral("hypoeval_score")));
    QCOMPARE(lib.get(QStringLiteral("hypoeval_score"))->hash, builtinHash);
}

void TestPromptLibrary::unreadableProjectIsAnErrorNotTheBuiltin()
{
    QTemporaryDir dir;
    RUBRIC_PROJECT_LOCATION(location, dir, QStringLiteral("p.rubric"));
    auto p = Project::open(location);
    QVERIFY(p.ok());
    QSqlQuery q(ProjectTestAccess::database(*(*p)));
    QVERIFY2(q.exec(QStringLiteral("DROP TABLE prompt_templates")), qPrintable(q.lastError().text()));
    PromptLibrary lib(p->get());
    auto t = lib.get(QStringLiteral("hypoeval_score"));
    QVERIFY(!t.ok());
    QVERIFY2(t.errorString().contains(QLatin1String("prompt_templates")), qPrintable(t.errorString()));
    QVERIFY(!lib.render(QStringLiteral("hypoeval_score"), {}).ok());

    // The task type picks the prompts' wording: an unreadable setting is an error, not the
    // default task (issue 18.8).
    QVERIFY((*p)->setMeta(QStringLiteral("task"), QStringLiteral("dialogue")).ok());
    QCOMPARE(PromptLibrary::projectTask(p->get()).value(), QStringLiteral("dialogue"));
    QVERIFY(q.exec(QStringLiteral("DROP TABLE meta")));
    const auto task = PromptLibrary::projectTask(p->get());
    QVERIFY(!task.ok());
    QVERIFY2(task.errorString().contains(rubric::test::missingTableMessage(QStringLiteral("meta"))),
             qPrintable(task.errorString()));
}

void TestPromptLibrary::rejectsBadTemplates_data()
{
    QTest::addColumn<QString>("body");
    QTest::newRow("no sections") << "just text";
    QTest::newRow("no user") << "=== system ===\nx";
    QTest::newRow("unclosed section") << "=== system ===\n{{#a}}x\n=== user ===\ny";
}

void TestPromptLibrary::rejectsBadTemplates()
{
    QFETCH(QString, body);
    QVERIFY(!PromptLibrary::validate(body).ok());
    QVERIFY(!PromptLibrary::render(PromptTemplate{QStringLiteral("t"), body, {}, {}}, {}).ok());
}

QTEST_GUILESS_MAIN(TestPromptLibrary)
#include "TestPromptLibrary.moc"
