// Test helper for scripts/kill-test.sh: writes to a project the way the studio does, without end,
// printing a line after each write that came back saved (what the studio would then show as
// saved), until it is SIGKILLed. The script then checks that every printed write is in the file.
//
//   kill_child annotate PROJECT ANNOTATOR SEED
//       The Annotate pane's saves: a score for a random item and aspect (AnnotatePane::setScore:
//       Project::setAnnotation with the note in the box), now and then the note saved with the
//       item's scores (AnnotatePane::saveNote: Project::addAnnotations). Prints
//       "saving<TAB>ITEM<TAB>ASPECT<TAB>SCORE<TAB>NOTE" before each write and "saved<TAB>…" with the
//       same fields once it came back.
//   kill_child save-rubric PROJECT JUDGE SEED [COUNT]
//       The Rubric pane's "Save version": the judge's latest rubric with an edit (a step's text
//       changed, a step added now and then) saved as a new version (RubricStore::saveVersion).
//       Prints "version N<TAB>CRITERIA" after each save; COUNT saves, then exits 0 (default: no end).
#include "rubric/Rubric.h"
#include "store/Project.h"
#include "store/RubricStore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QTextStream>

#include <cstdio>
#include <random>

using namespace rubric;

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "kill_child: " << message << '\n';
    return 1;
}

/// Printed and flushed: a line the parent may read after a SIGKILL.
void say(const QString &line)
{
    const QByteArray bytes = line.toUtf8() + '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

int annotate(Project *project, const QString &annotator, quint32 seed)
{
    const auto items = project->readItemIds(SplitFilter::All);
    if (!items)
        return fail(items.errorString());
    const auto aspects = project->readAspects();
    if (!aspects)
        return fail(aspects.errorString());
    if (items->isEmpty() || aspects->isEmpty())
        return fail(QStringLiteral("the project has no items or no aspects"));
    std::mt19937 rng(seed);
    // Each write is announced ("saving …") before it starts and confirmed ("saved …") once it came
    // back: a killed write may or may not be in the file, a confirmed one must be.
    const auto write = [&](const QVector<Annotation> &list, bool single) -> bool {
        const Annotation &a = list.first();
        const QString fields = QStringLiteral("%1\t%2\t%3\t%4").arg(a.itemId, a.aspect).arg(a.score).arg(a.note);
        say(QStringLiteral("saving\t") + fields);
        const Result<void> r = single ? project->setAnnotation(a) : project->addAnnotations(list);
        if (!r) {
            fail(r.errorString());
            return false;
        }
        say(QStringLiteral("saved\t") + fields);
        return true;
    };
    for (int n = 0;; ++n) {
        const QString item = items->at(int(rng() % items->size()));
        const Aspect &aspect = aspects->at(int(rng() % aspects->size()));
        const double score = aspect.min + double(rng() % int(aspect.max - aspect.min + 1));
        const QString note = n % 3 == 0 ? QStringLiteral("note %1").arg(n) : QString();
        if (!write({Annotation{item, aspect.name, annotator, score, note, QDateTime::currentDateTimeUtc()}}, true))
            return 1;
        // Now and then the note box is left: the note goes with the annotator's scores of the item.
        if (n % 5 == 4
            && !write({Annotation{item, aspect.name, annotator, score, QStringLiteral("note %1").arg(n),
                                  QDateTime::currentDateTimeUtc()}},
                      false))
            return 1;
    }
}

int saveRubric(Project *project, const QString &judge, quint32 seed, int count)
{
    RubricStore store(project);
    std::mt19937 rng(seed);
    for (int n = 0; count <= 0 || n < count; ++n) {
        auto rubric = store.load(judge);
        if (!rubric)
            return fail(rubric.errorString());
        QVector<Criterion> &criteria = rubric->criteria();
        QVector<int> steps;
        for (int i = 0; i < criteria.size(); ++i)
            if (criteria[i].kind == CriterionKind::Step)
                steps.append(i);
        if (steps.isEmpty())
            return fail(QStringLiteral("judge '%1' has no evaluation steps").arg(judge));
        const QString mark = QStringLiteral(" (edit %1-%2)").arg(seed).arg(n);
        if (rng() % 4 == 0) {
            Criterion added = criteria[steps.last()];
            added.key = QStringLiteral("step-%1-%2").arg(seed).arg(n);
            added.text = QStringLiteral("Check the output once more") + mark;
            rubric->add(added);
        } else {
            Criterion &edited = criteria[steps[int(rng() % steps.size())]];
            edited.text += mark;
        }
        auto saved = store.saveVersion(judge, *rubric, QStringLiteral("edited") + mark);
        if (!saved)
            return fail(saved.errorString());
        say(QStringLiteral("version %1\t%2").arg(*saved).arg(rubric->criteria().size()));
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.size() < 4)
        return fail(QStringLiteral("usage: kill_child annotate PROJECT ANNOTATOR SEED | save-rubric PROJECT JUDGE "
                                   "SEED [COUNT]"));
    auto project = Project::open(args[1], Project::OpenMode::OpenExisting);
    if (!project)
        return fail(project.errorString());
    if (args[0] == QLatin1String("annotate"))
        return annotate(project->get(), args[2], args[3].toUInt());
    if (args[0] == QLatin1String("save-rubric"))
        return saveRubric(project->get(), args[2], args[3].toUInt(), args.value(4).toInt());
    return fail(QStringLiteral("unknown mode '%1'").arg(args[0]));
}
