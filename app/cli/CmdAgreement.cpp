#include "CliUtil.h"
#include "methods/checkeval/QuestionAgreement.h"
#include "stats/ProjectData.h"

namespace rubric::cli {
namespace {

using namespace rubric::stats;

QString number(double v)
{
    return v == v ? QString::number(v, 'f', 4) : QStringLiteral("n/a");
}

QVariantMap figuresJson(const ChecklistAgreementFigures &f)
{
    return {{QStringLiteral("alpha"), jsonNumber(f.alpha)},
            {QStringLiteral("kappa"), jsonNumber(f.kappa)},
            {QStringLiteral("pairs"), f.pairs},
            {QStringLiteral("kappa_units"), f.kappaUnits}};
}

/// --questions: agreement between judges on one checklist, unit = (item, question).
int runQuestions(const QCommandLineParser &parser, SplitFilter split, Io &io)
{
    const QStringList judges = parser.values(QStringLiteral("judge"));
    if (judges.size() < 2) {
        io.err << "rubric agreement: --questions needs at least two --judge\n";
        return 2;
    }
    if (parser.isSet(QStringLiteral("metric")) || parser.isSet(QStringLiteral("level"))) {
        io.err << "rubric agreement: --questions reports nominal alpha and Fleiss' kappa; leave out --metric and "
                  "--level\n";
        return 2;
    }
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    QStringList items;
    if (split != SplitFilter::All) {
        auto ids = project->readItemIds(split);
        if (!ids) {
            io.err << "rubric agreement: " << ids.errorString() << '\n';
            return 1;
        }
        items = *ids;
        if (items.isEmpty()) {
            io.err << "rubric agreement: the " << splitFilterName(split) << " split has no items\n";
            return 1;
        }
    }
    const auto a = QuestionAgreement::fromProject(*project, parser.value(QStringLiteral("aspect")), judges, items);
    if (!a) {
        io.err << "rubric agreement: " << a.errorString() << '\n';
        return 1;
    }
    if (a->overall.pairs == 0) {
        io.err << "rubric agreement: no (item, question) pair has answers from two judges\n";
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        QVariantMap json = figuresJson(a->overall);
        QVariantMap per;
        for (const SubAspectAgreement &s : a->perSubAspect)
            per.insert(s.name, figuresJson(s.figures));
        QVariantList dis;
        for (const QuestionDisagreement &d : a->disagreements)
            dis.append(QVariantMap{{QStringLiteral("question"), d.key},
                                   {QStringLiteral("text"), d.text},
                                   {QStringLiteral("sub_aspect"), d.subAspect},
                                   {QStringLiteral("share"), d.share},
                                   {QStringLiteral("items"), d.items},
                                   {QStringLiteral("disagreeing"), d.disagreeing}});
        json.insert(QStringLiteral("per_sub_aspect"), per);
        json.insert(QStringLiteral("disagreements"), dis);
        json.insert(QStringLiteral("judges"), a->judges);
        json.insert(QStringLiteral("questions"), a->questions);
        json.insert(QStringLiteral("split"), splitFilterName(split));
        json.insert(QStringLiteral("level"), alphaLevelName(AlphaLevel::Nominal));
        printJson(io, json);
        return 0;
    }
    io.out << "checklist agreement of " << a->judges.size() << " judges (" << a->judges.join(QStringLiteral(", "))
           << ") on " << a->questions << " questions, split " << splitFilterName(split) << '\n';
    io.out << "  Krippendorff's alpha (nominal) " << number(a->overall.alpha) << " on " << a->overall.pairs
           << " (item, question) pairs\n";
    io.out << "  Fleiss' kappa                  " << number(a->overall.kappa) << " on " << a->overall.kappaUnits
           << " pairs every judge answered\n";
    io.out << "per sub-aspect:\n";
    int width = 12;
    for (const SubAspectAgreement &s : a->perSubAspect)
        width = std::max(width, int(s.name.size()) + 2);
    for (const SubAspectAgreement &s : a->perSubAspect)
        io.out << "  " << s.name.leftJustified(width) << "alpha " << number(s.figures.alpha) << "  kappa "
               << number(s.figures.kappa) << "  pairs " << s.figures.pairs << '\n';
    io.out << "most disagreement (share of items on which the judges' answers differ):\n";
    constexpr int kShown = 10;
    for (int i = 0; i < std::min(kShown, int(a->disagreements.size())); ++i) {
        const QuestionDisagreement &d = a->disagreements.at(i);
        io.out << "  " << d.key.leftJustified(5) << QString::number(d.share, 'f', 3) << ' '
               << QStringLiteral("(%1/%2)").arg(d.disagreeing).arg(d.items).leftJustified(10) << d.subAspect << ": "
               << d.text << '\n';
    }
    if (a->disagreements.size() > kShown)
        io.out << "  … " << (a->disagreements.size() - kShown) << " more (--json lists all)\n";
    return 0;
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
            "Agreement between annotators on one aspect: Krippendorff's alpha (missing data allowed) or\n"
            "Fleiss' kappa (items scored by every coder only), plus the human ceiling: each annotator\n"
            "correlated with the mean of the others. --judge adds a judge as one more coder."));
    parser.addOption(
            {QStringLiteral("project"), QStringLiteral("Project file or postgresql:// URL."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("aspect"), QStringLiteral("Aspect."), QStringLiteral("A")});
    parser.addOption({QStringLiteral("metric"), QStringLiteral("alpha (default) or fleiss."), QStringLiteral("M"),
                      QStringLiteral("alpha")});
    parser.addOption(
            {QStringLiteral("level"),
             QStringLiteral("Alpha's metric: nominal, ordinal, interval (default) or ratio. Fleiss is nominal."),
             QStringLiteral("L")});
    parser.addOption({QStringLiteral("split"), QStringLiteral("all (default), train or test."), QStringLiteral("S"),
                      QStringLiteral("all")});
    parser.addOption({QStringLiteral("judge"), QStringLiteral("Also count this judge as a coder (repeatable)."),
                      QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("questions"),
                      QStringLiteral("Agreement between two or more --judge on one checklist: units are (item, "
                                     "question) pairs, values the yes/no answers; nominal alpha, Fleiss' kappa, per "
                                     "sub-aspect, and the questions the judges disagree on most.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one line of JSON.")});
    if (auto rc = parse(parser, QStringLiteral("agreement"), args, io))
        return *rc;
    if (!require(parser, QStringLiteral("aspect"), io))
        return 2;
    if (parser.isSet(QStringLiteral("questions"))) {
        const auto split = parseSplitFilter(parser.value(QStringLiteral("split")));
        if (!split) {
            io.err << "rubric agreement: --split must be all, train or test\n";
            return 2;
        }
        return runQuestions(parser, *split, io);
    }
    const QString metric = parser.value(QStringLiteral("metric"));
    if (metric != QLatin1String("alpha") && metric != QLatin1String("fleiss")) {
        io.err << "rubric agreement: --metric must be alpha or fleiss\n";
        return 2;
    }
    const bool alpha = metric == QLatin1String("alpha");
    AlphaLevel level = alpha ? AlphaLevel::Interval : AlphaLevel::Nominal;
    if (parser.isSet(QStringLiteral("level"))) {
        const auto l = parseAlphaLevel(parser.value(QStringLiteral("level")));
        if (!l || (!alpha && *l != AlphaLevel::Nominal)) {
            io.err << (alpha ? "rubric agreement: --level must be nominal, ordinal, interval or ratio\n"
                             : "rubric agreement: Fleiss' kappa is nominal only\n");
            return 2;
        }
        level = *l;
    }
    const auto split = parseSplitFilter(parser.value(QStringLiteral("split")));
    if (!split) {
        io.err << "rubric agreement: --split must be all, train or test\n";
        return 2;
    }
    auto project = openProject(parser, io);
    if (!project)
        return 1;
    const QString aspect = parser.value(QStringLiteral("aspect"));
    const auto m = gatherCoders(*project, aspect, *split, parser.values(QStringLiteral("judge")));
    if (!m) {
        io.err << "rubric agreement: " << m.errorString() << '\n';
        return 1;
    }
    if (m->coders.size() < 2) {
        io.err << "rubric agreement: aspect '" << aspect << "' has " << m->coders.size()
               << " coder(s); agreement needs at least two\n";
        return 1;
    }
    double value;
    int items;
    int coders = int(m->coders.size());
    if (alpha) {
        const AlphaResult r = krippendorffAlpha(m->data, level);
        value = r.alpha;
        items = r.units;
    } else {
        const KappaResult r = fleissKappa(m->data);
        value = r.kappa;
        items = r.items;
        if (items == 0) {
            io.err << "rubric agreement: no item is scored by all " << coders
                   << " coders; Fleiss' kappa needs complete data\n";
            return 1;
        }
    }
    const HumanCeiling ceiling = humanCeiling(m->data, m->coders);

    if (parser.isSet(QStringLiteral("json"))) {
        QVariantList per;
        for (const CeilingEntry &e : ceiling.annotators)
            per.append(QVariantMap{{QStringLiteral("annotator"), e.annotator},
                                   {QStringLiteral("n"), e.n},
                                   {QStringLiteral("pearson"), jsonNumber(e.pearson)},
                                   {QStringLiteral("spearman"), jsonNumber(e.spearman)},
                                   {QStringLiteral("kendall"), jsonNumber(e.kendall)}});
        printJson(io, QVariantMap{{QStringLiteral("metric"), metric},
                                  {QStringLiteral("level"), alphaLevelName(level)},
                                  {alpha ? QStringLiteral("alpha") : QStringLiteral("kappa"), jsonNumber(value)},
                                  {QStringLiteral("items"), items},
                                  {QStringLiteral("annotators"), coders},
                                  {QStringLiteral("coders"), m->coders},
                                  {QStringLiteral("split"), splitFilterName(*split)},
                                  {QStringLiteral("ceiling"),
                                   QVariantMap{{QStringLiteral("pearson"), jsonNumber(ceiling.pearson)},
                                               {QStringLiteral("spearman"), jsonNumber(ceiling.spearman)},
                                               {QStringLiteral("kendall"), jsonNumber(ceiling.kendall)},
                                               {QStringLiteral("annotators"), per}}}});
        return 0;
    }
    io.out << (alpha ? QStringLiteral("Krippendorff's alpha (%1)").arg(alphaLevelName(level))
                     : QStringLiteral("Fleiss' kappa"))
           << " = " << number(value) << " on " << items << " items, " << coders << " coders\n";
    io.out << "human ceiling (each coder vs mean of the others):\n";
    for (const CeilingEntry &e : ceiling.annotators)
        io.out << "  " << e.annotator.leftJustified(16) << " n " << QString::number(e.n).rightJustified(5)
               << "  pearson " << number(e.pearson) << "  spearman " << number(e.spearman) << "  kendall "
               << number(e.kendall) << '\n';
    io.out << "  " << QStringLiteral("mean").leftJustified(16) << "          pearson " << number(ceiling.pearson)
           << "  spearman " << number(ceiling.spearman) << "  kendall " << number(ceiling.kendall) << '\n';
    return 0;
}

const Registration
        reg({QStringLiteral("agreement"),
             QStringLiteral("Agreement among annotators: Krippendorff's alpha, Fleiss' kappa, human ceiling."), &run});

} // namespace
} // namespace rubric::cli
