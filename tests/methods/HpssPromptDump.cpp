// Assembles every strategy of the full HPSS space for one case with the product's renderPrompt and
// prints "strategy<TAB>sha1 of the user message" a line; tests/methods/hpss/official_assembly.py
// compares them with its own re-implementation of the official assembly.
//   hpss-prompt-dump CASE.json          all 12,960 hashes
//   hpss-prompt-dump --show STRATEGY    the text of one strategy, the case read from stdin
//   hpss-prompt-dump --targets MIN MAX N the integer ratings the product's example draw shows for N
//                                       examples of a MIN-MAX human scale, comma-separated
//   hpss-prompt-dump --ape              the APE-style texts for a JSON list of cases on stdin, each
//                                       {"kind": "base", task, aspect, criteria, min, max} |
//                                       {"kind": "resample", prompt} | {"kind": "fill", task, aspect,
//                                       source, output, fact, min, prompt}; prints a JSON list of
//                                       {"ok": true, "text"} or {"ok": false, "error"}
//                                       (tests/methods/hpss/official_ape.py)
//   hpss-prompt-dump --pairs            the pairwise setting's pairs and verdicts for a JSON object on
//                                       stdin {"seed", "per_group", "items": [{id, group, human|null}],
//                                       "answers": [text], "policy"}: prints {"pairs": [{group, a, b,
//                                       prefers_a}], "verdicts": ["A"|"B"|"C"|"?"], "accuracy", "counted"}
//                                       (the answers are read against the pairs in order;
//                                       tests/methods/hpss/pairwise_pairs.py)
//   hpss-prompt-dump --pairwise         every strategy of the pairwise space rendered with the pairwise
//                                       template for a case on stdin {task, aspect, criteria, reference,
//                                       autocot, metrics, source, fact, a, b, examples: {"3"|"5"|"10":
//                                       [{source, fact, a, b, prefers_a}]}}: prints a JSON object
//                                       {strategy: text} (tests/methods/hpss/pairwise_prompts.py)
// A case: {"task", "aspect", "human_min", "human_max", "scale_min", "item": {source, output, fact,
// reference, metrics}, "criteria": {"human"|"self": {scale: text}}, "autocot": {"human"|"self":
// {scale: text}}, "examples": {"3"|"5"|"10": [{source, output, fact, human}]}}.
#include "methods/hpss/ApeSearch.h"
#include "methods/hpss/HpssAuxiliary.h"
#include "methods/hpss/PairwiseData.h"
#include "methods/hpss/PairwisePrompt.h"
#include "methods/hpss/PromptAssembly.h"
#include "methods/hpss/PromptStrategy.h"
#include "util/Json.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QTextStream>

#include <cmath>
#include <cstdio>

using namespace rubric;
using namespace rubric::hpss;

namespace {

[[noreturn]] void fail(const QString &message)
{
    std::fprintf(stderr, "hpss-prompt-dump: %s\n", qPrintable(message));
    std::exit(2);
}

PromptInputs inputsFor(const QVariantMap &c, const PromptStrategy &s)
{
    PromptInputs in;
    auto task = TaskWording::preset(c.value(QStringLiteral("task")).toString());
    if (!task)
        fail(task.errorString());
    in.task = *task;
    in.aspect = c.value(QStringLiteral("aspect")).toString();
    const QVariantMap item = c.value(QStringLiteral("item")).toMap();
    in.source = item.value(QStringLiteral("source")).toString();
    in.output = item.value(QStringLiteral("output")).toString();
    in.fact = item.value(QStringLiteral("fact")).toString();
    in.humanMin = c.value(QStringLiteral("human_min")).toDouble();
    in.humanMax = c.value(QStringLiteral("human_max")).toDouble();
    in.scaleMin = c.value(QStringLiteral("scale_min")).toInt();
    const QString scale = s.valueName(Factor::Scale);
    const QString variant
            = s.valueName(Factor::Criteria) == QLatin1String("self") ? QStringLiteral("self") : QStringLiteral("human");
    if (s.valueName(Factor::Criteria) != QLatin1String("none"))
        in.criteria = c.value(QStringLiteral("criteria")).toMap().value(variant).toMap().value(scale).toString();
    if (s.valueName(Factor::AutoCot) == QLatin1String("on"))
        in.autocot = c.value(QStringLiteral("autocot")).toMap().value(variant).toMap().value(scale).toString();
    if (s.valueName(Factor::Reference) == QLatin1String("self"))
        in.reference = item.value(QStringLiteral("reference")).toString();
    if (s.valueName(Factor::Metrics) == QLatin1String("on"))
        in.metrics = item.value(QStringLiteral("metrics")).toString();
    if (s.exampleCount() > 0) {
        const QVariantList list
                = c.value(QStringLiteral("examples")).toMap().value(s.valueName(Factor::Examples)).toList();
        for (const QVariant &v : list) {
            const QVariantMap e = v.toMap();
            in.examples.append(
                    {e.value(QStringLiteral("source")).toString(), e.value(QStringLiteral("output")).toString(),
                     e.value(QStringLiteral("human")).toDouble(), e.value(QStringLiteral("fact")).toString()});
        }
    }
    return in;
}

QString render(const QVariantMap &c, const PromptStrategy &s)
{
    auto r = renderPrompt(s, inputsFor(c, s));
    if (!r)
        fail(QStringLiteral("%1: %2").arg(s.format(), r.errorString()));
    return r->text;
}

QVariantMap parseCase(const QByteArray &bytes, const QString &where)
{
    QString error;
    const QVariant v = json::parse(QString::fromUtf8(bytes), &error);
    if (!error.isEmpty() || !v.canConvert<QVariantMap>())
        fail(QStringLiteral("%1: not a JSON object: %2").arg(where, error));
    return v.toMap();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    QTextStream out(stdout);
    out.setEncoding(QStringConverter::Utf8);
    if (args.size() == 3 && args[1] == QLatin1String("--show")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            fail(QStringLiteral("cannot read stdin"));
        const auto s = PromptStrategy::parse(args[2]);
        if (!s)
            fail(s.errorString());
        out << render(parseCase(in.readAll(), QStringLiteral("stdin")), *s);
        return 0;
    }
    if (args.size() == 5 && args[1] == QLatin1String("--targets")) {
        QStringList ratings;
        for (int r : hpss::PromptBuilder::exampleTargets(args[2].toDouble(), args[3].toDouble(), args[4].toInt()))
            ratings << QString::number(r);
        out << ratings.join(QLatin1Char(',')) << '\n';
        return 0;
    }
    if (args.size() == 2 && args[1] == QLatin1String("--ape")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            fail(QStringLiteral("cannot read stdin"));
        QString error;
        const QVariantList cases = json::parse(QString::fromUtf8(in.readAll()), &error).toList();
        if (!error.isEmpty())
            fail(QStringLiteral("stdin: not JSON: %1").arg(error));
        QVariantList results;
        for (const QVariant &v : cases) {
            const QVariantMap c = v.toMap();
            const auto text = [&c](const char *key) { return c.value(QLatin1String(key)).toString(); };
            Result<QString> r = makeError(QStringLiteral("unknown kind '%1'").arg(text("kind")));
            if (text("kind") == QLatin1String("base"))
                r = apeBasePrompt(text("task"), text("aspect"), text("criteria"),
                                  c.value(QStringLiteral("min")).toInt(), c.value(QStringLiteral("max")).toInt());
            else if (text("kind") == QLatin1String("resample"))
                r = apeResamplePrompt(text("prompt"));
            else if (text("kind") == QLatin1String("fill"))
                r = pythonFormat(text("prompt"), apeFields(text("task"), text("aspect"), text("source"), text("output"),
                                                           text("fact"), c.value(QStringLiteral("min")).toInt()));
            results.append(r ? QVariantMap{{QStringLiteral("ok"), true}, {QStringLiteral("text"), *r}}
                             : QVariantMap{{QStringLiteral("ok"), false}, {QStringLiteral("error"), r.errorString()}});
        }
        out << json::stringify(results) << '\n';
        return 0;
    }
    if (args.size() == 2 && args[1] == QLatin1String("--pairs")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            fail(QStringLiteral("cannot read stdin"));
        QString error;
        const QVariantMap c = json::parse(QString::fromUtf8(in.readAll()), &error).toMap();
        if (!error.isEmpty())
            fail(QStringLiteral("stdin: not JSON: %1").arg(error));
        QVector<PairSourceItem> items;
        for (const QVariant &v : c.value(QStringLiteral("items")).toList()) {
            const QVariantMap m = v.toMap();
            const QVariant h = m.value(QStringLiteral("human"));
            items.append({m.value(QStringLiteral("id")).toString(), m.value(QStringLiteral("group")).toString(),
                          h.isNull() ? std::nan("") : h.toDouble()});
        }
        PairOptions options;
        options.seed = c.value(QStringLiteral("seed")).toULongLong();
        options.perGroup = c.value(QStringLiteral("per_group")).toInt();
        const QVector<PreferencePair> pairs = buildPairs(items, options);
        QVariantList pairList, verdictList;
        for (const PreferencePair &p : pairs)
            pairList.append(QVariantMap{{QStringLiteral("group"), p.group},
                                        {QStringLiteral("a"), p.a},
                                        {QStringLiteral("b"), p.b},
                                        {QStringLiteral("prefers_a"), p.humanPrefersA}});
        QVector<Verdict> verdicts;
        for (const QVariant &v : c.value(QStringLiteral("answers")).toList()) {
            verdicts.append(readVerdict(v.toString()));
            static const char *names[] = {"A", "B", "C", "?"};
            verdictList.append(QString::fromLatin1(names[int(verdicts.last())]));
        }
        if (verdicts.size() > pairs.size())
            fail(QStringLiteral("%1 answers for %2 pairs").arg(verdicts.size()).arg(pairs.size()));
        const QString policy = c.value(QStringLiteral("policy")).toString();
        const UnparsedPolicy p = policy == QLatin1String("drop")    ? UnparsedPolicy::Drop
                                 : policy == QLatin1String("reask") ? UnparsedPolicy::Reask
                                                                    : UnparsedPolicy::Fallback;
        int counted = 0;
        const double accuracy = pairAccuracy(verdicts, pairs.mid(0, verdicts.size()), p, &counted);
        out << json::stringify(QVariantMap{{QStringLiteral("pairs"), pairList},
                                           {QStringLiteral("verdicts"), verdictList},
                                           {QStringLiteral("accuracy"), std::isnan(accuracy) ? QVariant() : accuracy},
                                           {QStringLiteral("counted"), counted}})
            << '\n';
        return 0;
    }
    if (args.size() == 2 && args[1] == QLatin1String("--pairwise")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            fail(QStringLiteral("cannot read stdin"));
        QString error;
        const QVariantMap c = json::parse(QString::fromUtf8(in.readAll()), &error).toMap();
        if (!error.isEmpty())
            fail(QStringLiteral("stdin: not JSON: %1").arg(error));
        const auto text = [&c](const char *key) { return c.value(QLatin1String(key)).toString(); };
        auto task = TaskWording::preset(text("task"));
        if (!task)
            fail(task.errorString());
        QVariantMap results;
        for (const PromptStrategy &s : StrategySpace::pairwise().all()) {
            PairwiseInputs pin{*task,     text("aspect"),  text("source"),   text("fact"),
                               text("a"), text("b"),       text("criteria"), text("reference"),
                               {},        text("autocot"), text("metrics")};
            for (const QVariant &v :
                 c.value(QStringLiteral("examples")).toMap().value(s.valueName(Factor::Examples)).toList()) {
                const QVariantMap e = v.toMap();
                pin.examples.append({e.value(QStringLiteral("source")).toString(),
                                     e.value(QStringLiteral("fact")).toString(),
                                     e.value(QStringLiteral("a")).toString(), e.value(QStringLiteral("b")).toString(),
                                     e.value(QStringLiteral("prefers_a")).toBool()});
            }
            auto r = renderPairwisePrompt(s, pin);
            if (!r)
                fail(QStringLiteral("%1: %2").arg(s.format(), r.errorString()));
            results.insert(s.format(), r->text);
        }
        out << json::stringify(results) << '\n';
        return 0;
    }
    if (args.size() != 2)
        fail(QStringLiteral("usage: hpss-prompt-dump CASE.json | --show STRATEGY < CASE.json"));
    QFile f(args[1]);
    if (!f.open(QIODevice::ReadOnly))
        fail(QStringLiteral("cannot open %1").arg(args[1]));
    const QVariantMap c = parseCase(f.readAll(), args[1]);
    for (const PromptStrategy &s : StrategySpace::full().all())
        out << s.format() << '\t' << QCryptographicHash::hash(render(c, s).toUtf8(), QCryptographicHash::Sha1).toHex()
            << '\n';
    return 0;
}
