// The method registry: every method the CLI and the panes offer comes from one list, with
// parameters whose defaults the method itself accepts.

#include "methods/MethodRegistry.h"
#include "methods/checkeval/CheckEvalParams.h"
#include "methods/hdeval/HdEvalParams.h"
#include "methods/hypoeval/HypoEvalParams.h"
#include "runs/Phases.h"
#include "runs/Run.h"

#include <QtTest>

using namespace rubric;

class TestMethodRegistry : public QObject
{
    Q_OBJECT
private slots:
    void everyMethodIsComplete();
    void hypoEvalDefaultsAreTheParamsDefaults();
    void checkEvalDefaultsAreTheParamsDefaults();
    void hdEvalDefaultsAreTheParamsDefaults();
    void paramsMapToTheRunSpec();
    void childKindsFollowTheTree();
    void phasesKeepEachMethodsOrder();
};

void TestMethodRegistry::everyMethodIsComplete()
{
    QVERIFY(MethodRegistry::names().contains(QStringLiteral("geval")));
    QVERIFY(MethodRegistry::names().contains(QStringLiteral("hypoeval")));
    QCOMPARE(Run::methods(), MethodRegistry::names());
    QVERIFY(!MethodRegistry::find(QStringLiteral("nonsense")));
    for (const MethodInfo &m : MethodRegistry::all()) {
        QVERIFY2(!m.title.isEmpty() && m.summary && m.create, qPrintable(m.name));
        // The tree starts at the aspect; a method without a rubric (the direct score) has that alone.
        QVERIFY2(!m.kinds.isEmpty() && m.kinds.first() == CriterionKind::Aspect, qPrintable(m.name));
        QVERIFY2(!m.phases.isEmpty(), qPrintable(m.name));
        QSet<QString> keys;
        for (const MethodParam &p : m.params) {
            QVERIFY2(p.label && p.help, qPrintable(m.name + QLatin1Char('.') + p.key));
            QVERIFY2(!keys.contains(p.key), qPrintable(QStringLiteral("duplicate ") + p.key));
            keys.insert(p.key);
            if (p.type == MethodParam::Type::Int || p.type == MethodParam::Type::Double)
                QVERIFY2(p.min <= p.defaultValue.toDouble() && p.defaultValue.toDouble() <= p.max,
                         qPrintable(m.name + QLatin1Char('.') + p.key));
            if (p.type == MethodParam::Type::Choice)
                QVERIFY2(p.choices.contains(p.defaultValue.toString()), qPrintable(p.key));
            if (!p.unusedWhen.isEmpty())
                QVERIFY(m.param(p.unusedWhen) && m.param(p.unusedWhen)->type == MethodParam::Type::Bool);
        }
    }
}

void TestMethodRegistry::hypoEvalDefaultsAreTheParamsDefaults()
{
    const MethodInfo *m = MethodRegistry::find(QStringLiteral("hypoeval"));
    QVERIFY(m);
    RunSpec spec;
    spec.method = m->name;
    for (const MethodParam &p : m->params)
        setMethodParamValue(spec, p, p.defaultValue);
    // Every settings key the form writes is one HypoEval accepts, and the defaults are its own.
    const auto params = HypoEvalParams::fromSettings(spec.settings);
    QVERIFY2(params, qPrintable(params ? QString() : params.errorString()));
    const QVariantMap own = HypoEvalParams{}.toMap();
    for (auto it = spec.settings.begin(); it != spec.settings.end(); ++it)
        QCOMPARE(it.value().toString(), own.value(it.key()).toString());
    QVERIFY(spec.settings.value(QStringLiteral("literature")).toString().isEmpty()); // the folder is a setting
}

void TestMethodRegistry::hdEvalDefaultsAreTheParamsDefaults()
{
    const MethodInfo *m = MethodRegistry::find(QStringLiteral("hdeval"));
    QVERIFY(m);
    QCOMPARE(m->kinds.last(), CriterionKind::Criterion);
    RunSpec spec;
    spec.method = m->name;
    for (const MethodParam &p : m->params)
        setMethodParamValue(spec, p, p.defaultValue);
    const auto params = HdEvalParams::fromSettings(spec.settings);
    QVERIFY2(params, qPrintable(params ? QString() : params.errorString()));
    const QVariantMap own = HdEvalParams{}.toMap();
    for (auto it = spec.settings.begin(); it != spec.settings.end(); ++it)
        QCOMPARE(it.value().toString(), own.value(it.key()).toString());
    QCOMPARE(spec.settings.value(QStringLiteral("aggregator")).toString(), QStringLiteral("mlp"));
}

void TestMethodRegistry::paramsMapToTheRunSpec()
{
    const MethodInfo *m = MethodRegistry::find(QStringLiteral("geval"));
    QVERIFY(m && m->param(QStringLiteral("logprobs")) && m->param(QStringLiteral("samples")));
    RunSpec spec;
    spec.method = m->name;
    setMethodParamValue(spec, *m->param(QStringLiteral("logprobs")), false);
    setMethodParamValue(spec, *m->param(QStringLiteral("samples")), 7);
    setMethodParamValue(spec, *m->param(QStringLiteral("temperature")), 0.5);
    QCOMPARE(spec.settings.value(QStringLiteral("logprobs")).toBool(), false);
    QCOMPARE(spec.settings.value(QStringLiteral("samples")).toInt(), 7);
    QCOMPARE(spec.settings.value(QStringLiteral("temperature")).toString(), QStringLiteral("0.5"));
    QCOMPARE(methodParamValue(spec, *m->param(QStringLiteral("samples"))).toInt(), 7);
    QCOMPARE(methodParamValue(spec, *m->param(QStringLiteral("max_tokens"))).toInt(), 5); // unset: the default
}

void TestMethodRegistry::checkEvalDefaultsAreTheParamsDefaults()
{
    const MethodInfo *m = MethodRegistry::find(QStringLiteral("checkeval"));
    QVERIFY(m);
    RunSpec spec;
    spec.method = m->name;
    for (const MethodParam &p : m->params)
        setMethodParamValue(spec, p, p.defaultValue);
    // What the run pane writes with every field at its default is what CheckEval takes by default
    // (filter "auto" = on only when augmenting).
    const auto params = CheckEvalParams::fromSettings(spec.settings);
    QVERIFY2(params, qPrintable(params ? QString() : params.errorString()));
    const QVariantMap own = CheckEvalParams{}.toMap();
    QCOMPARE(params->toMap(), own);
    for (auto it = spec.settings.begin(); it != spec.settings.end(); ++it)
        if (it.key() != QLatin1String("filter"))
            QCOMPARE(it.value().toString(), own.value(it.key()).toString());
}

void TestMethodRegistry::childKindsFollowTheTree()
{
    const MethodInfo *c = MethodRegistry::find(QStringLiteral("checkeval"));
    QVERIFY(c);
    QCOMPARE(c->childKind(CriterionKind::Aspect), CriterionKind::SubAspect);
    QCOMPARE(c->childKind(CriterionKind::SubAspect), CriterionKind::Question);
    QCOMPARE(c->childKind(CriterionKind::Question), CriterionKind::Question);
    const MethodInfo *h = MethodRegistry::find(QStringLiteral("hypoeval"));
    QCOMPARE(h->childKind(CriterionKind::Aspect), CriterionKind::Hypothesis);
    QCOMPARE(h->childKind(CriterionKind::Hypothesis), CriterionKind::Hypothesis);
    const MethodInfo *g = MethodRegistry::find(QStringLiteral("geval"));
    QCOMPARE(g->childKind(CriterionKind::Aspect), CriterionKind::Step);
}

void TestMethodRegistry::phasesKeepEachMethodsOrder()
{
    for (const MethodInfo &m : MethodRegistry::all()) {
        QStringList shuffled = m.phases;
        std::reverse(shuffled.begin(), shuffled.end());
        QCOMPARE(phases::inRunOrder(shuffled), m.phases);
    }
    // Unknown phases follow, alphabetically.
    QCOMPARE(phases::inRunOrder({QStringLiteral("zeta"), QStringLiteral("evaluate"), QStringLiteral("alpha")}),
             QStringList({QStringLiteral("evaluate"), QStringLiteral("alpha"), QStringLiteral("zeta")}));
}

QTEST_GUILESS_MAIN(TestMethodRegistry)
#include "TestMethodRegistry.moc"
