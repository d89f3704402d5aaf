// checklist-shot OUT_DIR [--size WxH]
//
// Screenshots of a CheckEval checklist in the studio, for docs/screenshots: builds a small
// SummEval-like project in a temporary folder (16 items, coherence 1–5 with human scores), the
// published SummEval coherence checklist (preset, two of its elaboration questions marked as
// removed by the filter) under two judges with synthetic answers written through RubricStore
// (half the questions follow the human score, the others answer at random; the second judge
// disagrees on about one answer in eight; a few answers missing), the question figures from
// QuestionAnalytics saved as version 2, and grabs the main window with
//   OUT_DIR/checklist.png    the Rubric pane, sorted by discrimination, with the stage counts;
//   OUT_DIR/answer-grid.png  the Heatmap pane with one item's answer grid (question × judge);
//   OUT_DIR/iea.png          Judge agreement… (JudgeAgreementDialog) on the three coherence judges
//                            (a third judge, like the second, mostly agrees with the first) and
//                            three fluency judges on the published fluency checklist;
//   OUT_DIR/prune.png        Prune… (PruneQuestionsDialog) on the first judge's checklist, k = 4.
// Test tooling only: the answers are synthetic, no endpoint is called.

#include "MainWindow.h"
#include "methods/checkeval/AnswerGridModel.h"
#include "methods/checkeval/Checklist.h"
#include "methods/checkeval/ChecklistIo.h"
#include "methods/checkeval/JudgeAgreementDialog.h"
#include "methods/checkeval/QuestionAnalytics.h"
#include "models/RubricTreeModel.h"
#include "models/ScoreModel.h"
#include "panes/HeatmapPane.h"
#include "panes/RubricPane.h"
#include "store/Project.h"
#include "store/RubricStore.h"
#include "widgets/HeatmapView.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QHeaderView>
#include <QRandomGenerator>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>

#include <cmath>
#include <cstdio>

using namespace rubric;

namespace {

int fail(const QString &what)
{
    std::fprintf(stderr, "%s\n", qPrintable(what));
    return 1;
}

/// The answers of one judge: per item, per enabled question, yes / no / none, and the raw text
/// of each sub-aspect call ("Q1: yes" lines, as CheckEval's prompt asks).
QVector<CriterionScore> answer(const Rubric &checklist, const QHash<QString, double> &human, quint32 seed,
                               const QVector<CriterionScore> *agreeWith)
{
    QRandomGenerator rng(seed);
    QVector<CriterionScore> out;
    const QVector<Criterion> questions = checklist.enabled(CriterionKind::Question);
    QStringList items = human.keys();
    items.sort();
    for (const QString &item : std::as_const(items)) {
        const double h = (human.value(item) - 1) / 4; // 0 … 1
        QHash<QString, QStringList> lines;            // sub-aspect → "Qn: answer"
        QVector<CriterionScore> rows;
        for (int k = 0; k < questions.size(); ++k) {
            const Criterion &q = questions[k];
            CriterionScore s;
            s.itemId = item;
            s.criterionKey = q.key;
            double p = (k % 2 == 0) ? 0.1 + 0.8 * h : 0.5; // informative and noise questions
            bool yes = rng.generateDouble() < p;
            if (agreeWith) { // the second judge mostly agrees with the first
                for (const CriterionScore &a : *agreeWith)
                    if (a.itemId == item && a.criterionKey == q.key && !std::isnan(a.score))
                        yes = (a.score > 0.5) != (rng.generateDouble() < 0.125);
            }
            const int n = int(lines[q.parentKey].size()) + 1;
            if (rng.generateDouble() < 0.04) {
                s.parseStatus = QStringLiteral("unparsed");
                lines[q.parentKey] << QStringLiteral("Q%1: (not answered)").arg(n);
            } else {
                s.score = yes ? 1 : 0;
                s.parseStatus = QStringLiteral("ok");
                lines[q.parentKey] << QStringLiteral("Q%1: %2").arg(n).arg(yes ? QStringLiteral("yes")
                                                                               : QStringLiteral("no"));
            }
            rows.append(s);
        }
        for (CriterionScore &s : rows) {
            const Criterion *q = checklist.find(s.criterionKey);
            s.raw = lines.value(q->parentKey).join(QLatin1Char('\n'));
            s.callKey = QStringLiteral("%1/%2/%3").arg(seed).arg(item, q->parentKey);
        }
        out += rows;
    }
    return out;
}

bool writeJudge(Project &project, const QString &judge, const Rubric &checklist, const QVector<CriterionScore> &rows,
                const QHash<QString, double> &human)
{
    if (!project.ensureJudge(judge, QStringLiteral("checkeval")))
        return false;
    RubricStore store(&project);
    if (!store.saveVersion(judge, checklist, QStringLiteral("SummEval coherence checklist (preset)")))
        return false;
    if (!store.writeCriterionScores(judge, rows))
        return false;
    QHash<QString, QPair<int, int>> perItem;
    for (const CriterionScore &s : rows)
        if (!std::isnan(s.score)) {
            ++perItem[s.itemId].second;
            perItem[s.itemId].first += s.score > 0.5 ? 1 : 0;
        }
    QHash<QString, double> scores;
    for (auto it = perItem.cbegin(); it != perItem.cend(); ++it)
        scores.insert(it.key(), double(it->first) / it->second);
    if (!project.setJudgeScores(judge, checklist.aspect(), scores))
        return false;
    // the figures a run writes into the questions, saved as version 2
    Rubric measured = checklist;
    QuestionAnalytics::writeStats(
            measured, QuestionAnalytics::analyse(QuestionAnalytics::answersFromScores(measured, rows), human),
            QuestionAnalytics::nearDuplicates(measured));
    return store.saveVersion(judge, measured, QStringLiteral("question figures from the run")).ok();
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("RubricStudioShots"));
    QApplication::setApplicationName(QStringLiteral("checklist-shot"));
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("out-dir"), QStringLiteral("Folder for the PNGs."));
    parser.addOption(
            {QStringLiteral("size"), QStringLiteral("WxH."), QStringLiteral("size"), QStringLiteral("1600x900")});
    parser.process(app);
    if (parser.positionalArguments().size() != 1) {
        std::fprintf(stderr, "usage: checklist-shot OUT_DIR [--size WxH]\n");
        return 2;
    }
    const QDir out(parser.positionalArguments().first());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("checklist.rubric"));
    {
        auto opened = Project::open(path);
        if (!opened)
            return fail(opened.errorString());
        Project &p = **opened;
        QVector<Item> items;
        QHash<QString, double> human;
        QRandomGenerator rng(7);
        for (int k = 0; k < 16; ++k) {
            Item it;
            it.id = QStringLiteral("summ-%1").arg(k + 1, 2, 10, QLatin1Char('0'));
            it.group = QStringLiteral("doc%1").arg(k / 4 + 1);
            it.system = QStringLiteral("M%1").arg(k % 4 + 8);
            it.source
                    = QStringLiteral("(CNN) The city council approved the new budget on Tuesday after a long debate.");
            it.output = QStringLiteral("The council approved the budget. The debate was long.");
            items.append(it);
            human.insert(it.id, 1 + std::round(rng.generateDouble() * 16) / 4);
        }
        if (!p.addItems(items)
            || !p.upsertAspect(Aspect{QStringLiteral("coherence"),
                                      QStringLiteral("The collective quality of all sentences."), 1, 5}))
            return fail(QStringLiteral("cannot build the project"));
        for (auto it = human.cbegin(); it != human.cend(); ++it)
            if (!p.setAnnotation(
                        Annotation{it.key(), QStringLiteral("coherence"), QStringLiteral("expert"), *it, {}, {}}))
                return fail(QStringLiteral("cannot annotate"));
        auto preset = ChecklistIo::preset(QStringLiteral("summeval/coherence"));
        if (!preset)
            return fail(preset.errorString());
        Rubric checklist = *preset;
        // two elaboration questions as the filter would leave them: disabled, with the reason
        int marked = 0;
        for (Criterion &c : checklist.criteria())
            if (c.kind == CriterionKind::Question
                && c.origin.value(QStringLiteral("stage")).toString() == QLatin1String("elaboration") && marked < 2) {
                c.enabled = false;
                c.origin.insert(QStringLiteral("filtered"),
                                marked == 0 ? QStringLiteral("duplicate of an earlier question")
                                            : QStringLiteral("off the sub-aspect's definition"));
                ++marked;
            }
        const QVector<CriterionScore> first = answer(checklist, human, 11, nullptr);
        const QVector<CriterionScore> second = answer(checklist, human, 12, &first);
        if (!writeJudge(p, QStringLiteral("checkeval-gpt4o"), checklist, first, human)
            || !writeJudge(p, QStringLiteral("checkeval-llama70b"), checklist, second, human)
            || !writeJudge(p, QStringLiteral("checkeval-gemma27b"), checklist, answer(checklist, human, 13, &first),
                           human))
            return fail(QStringLiteral("cannot write the judges"));
        // a second dimension for the agreement's average: fluency, three judges
        auto fluency = ChecklistIo::preset(QStringLiteral("summeval/fluency"));
        if (!fluency
            || !p.upsertAspect(
                    Aspect{QStringLiteral("fluency"), QStringLiteral("The quality of each sentence."), 1, 5}))
            return fail(QStringLiteral("cannot read the fluency preset"));
        const QVector<CriterionScore> f1 = answer(*fluency, human, 21, nullptr);
        if (!writeJudge(p, QStringLiteral("fluency-gpt4o"), *fluency, f1, human)
            || !writeJudge(p, QStringLiteral("fluency-llama70b"), *fluency, answer(*fluency, human, 22, &f1), human)
            || !writeJudge(p, QStringLiteral("fluency-gemma27b"), *fluency, answer(*fluency, human, 23, &f1), human))
            return fail(QStringLiteral("cannot write the fluency judges"));
    }

    MainWindow window;
    if (!window.openProject(path))
        return 1;
    const QStringList size = parser.value(QStringLiteral("size")).split(QLatin1Char('x'));
    if (size.size() == 2)
        window.resize(size[0].toInt(), size[1].toInt());
    window.show();

    window.showPane(QStringLiteral("rubric"));
    auto *rubricPane = window.findChild<RubricPane *>(QStringLiteral("rubricPane"));
    rubricPane->setJudge(QStringLiteral("checkeval-gpt4o"));
    // room for the questions: the detail panel at its narrowest
    if (auto *split = rubricPane->findChild<QSplitter *>(QStringLiteral("rubricSplitter")))
        split->setSizes({1100, 300});
    QTimer::singleShot(300, &window, [&] {
        // sorted by discrimination: the questions that carry the judge first in each sub-aspect
        emit rubricPane->view()->header()->sectionClicked(RubricTreeModel::DiscriminationColumn);
        QTreeView *tree = rubricPane->view();
        tree->setCurrentIndex(rubricPane->model()->indexOfKey(
                rubricPane->model()
                        ->childKeys(rubricPane->model()->childKeys(QStringLiteral("aspect")).value(0))
                        .value(0)));
        QTimer::singleShot(300, &window, [&] {
            if (!window.grab().save(out.filePath(QStringLiteral("checklist.png"))))
                QApplication::exit(fail(QStringLiteral("cannot write checklist.png")));
            window.showPane(QStringLiteral("heatmap"));
            auto *heatmap = window.findChild<HeatmapPane *>();
            if (auto *split = heatmap->findChild<QSplitter *>(QStringLiteral("heatmapSplitter")))
                split->setSizes({760, 620});
            ScoreModel::of(window.project())->setJudge(QStringLiteral("checkeval-gpt4o"));
            QTimer::singleShot(300, &window, [&, heatmap] {
                HeatmapView *view = heatmap->view();
                emit view->cellActivated(view->model()->index(2, ScoreModel::FirstCriterionColumn + 3));
                auto *grid = heatmap->findChild<QTableView *>(QStringLiteral("heatmapAnswerGrid"));
                const QModelIndex cell = grid->model()->index(2, 2);
                grid->setCurrentIndex(cell);
                emit grid->clicked(cell);
                QTimer::singleShot(300, &window, [&] {
                    if (!window.grab().save(out.filePath(QStringLiteral("answer-grid.png"))))
                        QApplication::exit(fail(QStringLiteral("cannot write answer-grid.png")));
                    auto *dialog
                            = new JudgeAgreementDialog(window.project(), QStringLiteral("checkeval-gpt4o"), &window);
                    dialog->setChosen({QStringLiteral("checkeval-gpt4o"), QStringLiteral("checkeval-llama70b"),
                                       QStringLiteral("checkeval-gemma27b"), QStringLiteral("fluency-gpt4o"),
                                       QStringLiteral("fluency-llama70b"), QStringLiteral("fluency-gemma27b")});
                    dialog->show();
                    QTimer::singleShot(300, &window, [&, dialog] {
                        if (!dialog->grab().save(out.filePath(QStringLiteral("iea.png"))))
                            QApplication::exit(fail(QStringLiteral("cannot write iea.png")));
                        dialog->close();
                        // Prune… on the first judge's checklist in the Rubric pane
                        window.showPane(QStringLiteral("rubric"));
                        rubricPane->findChild<QAction *>(QStringLiteral("rubricPrune"))->trigger();
                        auto *prune = rubricPane->findChild<QDialog *>(QStringLiteral("pruneQuestionsDialog"));
                        if (!prune)
                            QApplication::exit(fail(QStringLiteral("no prune dialog")));
                        prune->findChild<QSpinBox *>(QStringLiteral("pruneCount"))->setValue(4);
                        QTimer::singleShot(300, &window, [&, prune] {
                            const bool ok = prune->grab().save(out.filePath(QStringLiteral("prune.png")));
                            QApplication::exit(ok ? 0 : fail(QStringLiteral("cannot write prune.png")));
                        });
                    });
                });
            });
        });
    });
    return app.exec();
}
