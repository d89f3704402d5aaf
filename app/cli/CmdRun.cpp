#include "CliUtil.h"
#include "judge/EndpointSecrets.h"
#include "judge/Provider.h"
#include "judge/StructuredAnswers.h"
#include "methods/MethodRegistry.h"
#include "runs/Phases.h"
#include "runs/Run.h"
#include "runs/RunConfig.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QRegularExpression>

#include <algorithm>

namespace rubric::cli {
namespace {

// --set keys that configure the endpoints rather than the method:
//   generator.KEY / refiner.KEY / evaluator.KEY with KEY = base_url, model, provider, api_key_env,
//   concurrency, price_in, price_out, price_cached (per million tokens; price_cached for input read
//   from the provider's prompt cache, the input price where unset), reasoning_budget (tokens a
//   reasoning model may think on top of max_tokens), structured (off, json_schema, guided_json,
//   llama_grammar), timeout_ms (a stall), deadline_ms (the most one call may take), max_response_mb
//   (the largest answer read); price.in / price.out / price.cached for every role.
bool applyProfileKey(ProviderProfile &p, const QString &key, const QString &value, QString *error)
{
    bool ok = true;
    if (key == QLatin1String("base_url")) {
        if (auto url = EndpointSecrets::checkBaseUrl(value); !url) {
            *error = url.errorString();
            return false;
        }
        p.baseUrl = value; // one endpoint for the role: the pool of --base-url is not its
        p.replicaUrls.clear();
        p.replicaWeights.clear();
    } else if (key == QLatin1String("model"))
        p.model = value;
    else if (key == QLatin1String("provider")) {
        const auto kind = Provider::kindFromName(value);
        ok = kind.has_value();
        if (kind)
            p.kind = *kind;
    } else if (key == QLatin1String("api_key_env"))
        p.apiKeyEnv = value;
    else if (key == QLatin1String("concurrency"))
        p.concurrency = value.toInt(&ok);
    else if (key == QLatin1String("price_in"))
        p.pricePerMillionIn = value.toDouble(&ok);
    else if (key == QLatin1String("price_out"))
        p.pricePerMillionOut = value.toDouble(&ok);
    else if (key == QLatin1String("price_cached"))
        p.pricePerMillionCached = value.toDouble(&ok);
    else if (key == QLatin1String("reasoning_budget")) {
        p.reasoningBudget = value.toInt(&ok);
        ok = ok && p.reasoningBudget >= 0;
    } else if (key == QLatin1String("structured")) {
        const auto mode = StructuredAnswers::modeFromName(value);
        ok = mode.has_value();
        if (mode)
            p.structuredAnswers = *mode;
    } else if (key == QLatin1String("timeout_ms")) {
        p.timeoutMs = value.toInt(&ok);
        ok = ok && p.timeoutMs > 0;
    } else if (key == QLatin1String("deadline_ms")) {
        p.deadlineMs = value.toInt(&ok);
        ok = ok && p.deadlineMs > 0;
    } else if (key == QLatin1String("max_response_mb")) {
        const double mb = value.toDouble(&ok);
        ok = ok && mb > 0 && mb <= 4096;
        p.maxResponseBytes = qint64(mb * 1024 * 1024);
    } else {
        *error = QStringLiteral("unknown endpoint setting '%1' (known: base_url, model, provider, api_key_env, "
                                "concurrency, price_in, price_out, price_cached, reasoning_budget, structured, "
                                "timeout_ms, deadline_ms, max_response_mb)")
                         .arg(key);
        return false;
    }
    if (!ok)
        *error = QStringLiteral("bad value '%1' for '%2'").arg(value, key);
    return ok;
}

/// A method that reports a validation and a test correlation (HPSS): both side by side, then the
/// overfitting warning when the method gave one.
void printCorrelations(Io &io, const QVariantMap &result)
{
    // A search judge's figure: Spearman for rated items, accuracy for a pairwise judge's verdicts
    // (the result names its metric; the keys are validation_<metric> and test_<metric>).
    const QString metric = result.value(QStringLiteral("metric"), QStringLiteral("spearman")).toString();
    const QByteArray validationKey = QStringLiteral("validation_%1").arg(metric).toLatin1();
    const QByteArray testKey = QStringLiteral("test_%1").arg(metric).toLatin1();
    if (!result.contains(QLatin1String(validationKey)) && !result.contains(QLatin1String(testKey)))
        return;
    const auto rho = [&result](const char *key, const char *n) -> QString { // not a QStringBuilder of temporaries
        const QVariant v = result.value(QLatin1String(key));
        return (v.isNull() || !v.isValid() ? QStringLiteral("—") : QString::number(v.toDouble(), 'f', 3))
               + QStringLiteral(" (n = %1)").arg(result.value(QLatin1String(n)).toInt());
    };
    if (result.contains(QStringLiteral("strategy")))
        io.out << "strategy: " << result.value(QStringLiteral("strategy")).toString();
    if (result.contains(QStringLiteral("prompt"))) // a fixed prompt text (HPSS's CloserLook baseline)
        io.out << " (prompt " << result.value(QStringLiteral("prompt")).toString() << ")";
    if (result.contains(QStringLiteral("transfer_from")))
        io.out << " (transferred from " << result.value(QStringLiteral("transfer_from")).toString() << ")";
    io.out << '\n';
    const bool pairs = metric == QLatin1String("accuracy");
    io.out << (pairs ? "Accuracy over pairs  validation " : "Spearman  validation ")
           << rho(validationKey.constData(), "validation_n") << "  |  test " << rho(testKey.constData(), "test_n")
           << '\n';
    if (const QString w = result.value(QStringLiteral("gap_warning")).toString(); !w.isEmpty())
        io.out << "warning: " << w << '\n';
}

QVariantMap estimateJson(const RunEstimate &e)
{
    return {{QStringLiteral("calls"), e.calls},
            {QStringLiteral("calls_min"), e.callsMin},
            {QStringLiteral("cached"), e.cached},
            {QStringLiteral("tokens_in"), e.tokensIn},
            {QStringLiteral("tokens_out"), e.tokensOut},
            {QStringLiteral("cost"), e.cost},
            {QStringLiteral("exact"), e.exact},
            {QStringLiteral("phases"), e.perPhase},
            {QStringLiteral("exact_phases"), e.exact ? e.perPhase.keys() : e.exactPhases}};
}

// --budget (per attempt, so also for a resumed run); false when it is not a positive amount.
bool readBudget(const QCommandLineParser &parser, Io &io, RunSpec &spec)
{
    if (!parser.isSet(QStringLiteral("budget")))
        return true;
    bool valid = false;
    spec.budget = parser.value(QStringLiteral("budget")).toDouble(&valid);
    if (!valid || spec.budget <= 0) {
        io.err << "rubric run: --budget must be a positive amount\n";
        return false;
    }
    return true;
}

// --aspect A,B or all (HD-Eval: layer 1 is several aspects): the run's own aspect is the first,
// the list goes to the method as the setting "aspects". 0 when done, else the exit code.
int resolveAspects(const Project &project, Io &io, RunSpec &spec)
{
    if (!spec.aspect.contains(QLatin1Char(',')) && spec.aspect != QLatin1String("all"))
        return 0;
    const MethodInfo *method = MethodRegistry::find(spec.method);
    if (!method || !method->multiAspect) {
        QStringList several;
        for (const MethodInfo &m : MethodRegistry::all())
            if (m.multiAspect)
                several << QStringLiteral("--method ") + m.name;
        io.err << "rubric run: --aspect " << spec.aspect << ": only " << several.join(QStringLiteral(" or "))
               << " judges several aspects at once\n";
        return 2;
    }
    QStringList aspects;
    if (spec.aspect == QLatin1String("all")) {
        for (const Aspect &a : project.aspects())
            aspects << a.name;
    } else {
        for (const QString &part : spec.aspect.split(QLatin1Char(','), Qt::SkipEmptyParts))
            if (!aspects.contains(part.trimmed()))
                aspects << part.trimmed();
    }
    if (aspects.isEmpty()) {
        io.err << "rubric run: --aspect " << spec.aspect << ": the project has no aspect\n";
        return 2;
    }
    if (spec.settings.contains(QStringLiteral("aspects"))) {
        io.err << "rubric run: give the aspects with --aspect A,B or with --set aspects=…, not both\n";
        return 2;
    }
    spec.aspect = aspects.first();
    spec.settings.insert(QStringLiteral("aspects"), aspects.join(QLatin1Char(',')));
    return 0;
}

// The methods' own options (MethodInfo::runOptions: G-Eval's --logprobs and --samples, HypoEval's
// --literature): each one given is checked, and those of the run's method set its parameters.
// false on a bad value (the error is printed).
bool readRunOptions(const QCommandLineParser &parser, Io &io, RunSpec &spec)
{
    const MethodInfo *own = MethodRegistry::find(spec.method);
    for (const MethodInfo &m : MethodRegistry::all())
        for (const RunOption &o : m.runOptions) {
            const MethodParam *param = m.param(o.param);
            if (!param)
                continue;
            QVariant value;
            if (!o.valueName) {
                if (!parser.isSet(o.name))
                    continue;
                value = true;
            } else {
                const QString text = parser.value(o.name); // the option's default when not given
                if (text.isEmpty())
                    continue;
                value = text;
                if (param->type == MethodParam::Type::Int) {
                    bool ok = false;
                    const int n = text.toInt(&ok);
                    if (!ok || n < param->min) {
                        io.err << "rubric run: --" << o.name << " must be "
                               << (param->min >= 1 ? QStringLiteral("a positive number")
                                                   : QStringLiteral("a number of at least %1").arg(param->min))
                               << '\n';
                        return false;
                    }
                    value = n;
                }
            }
            if (&m == own)
                setMethodParamValue(spec, *param, value);
        }
    return true;
}

// --batch and --set batch.KEY=VALUE (per attempt, so also for a resumed run); false on a bad value.
bool readBatch(const QCommandLineParser &parser, Io &io, RunSpec &spec)
{
    spec.batch.enabled = parser.isSet(QStringLiteral("batch"));
    for (const QString &text : parser.values(QStringLiteral("set"))) {
        if (!text.startsWith(QLatin1String("batch.")))
            continue;
        const auto kv = keyValue(text, QStringLiteral("set"), io);
        if (!kv)
            return false;
        const auto &[key, value] = *kv;
        bool ok = false;
        if (key == QLatin1String("batch.threshold")) {
            spec.batch.threshold = value.toInt(&ok);
            ok = ok && spec.batch.threshold >= 1;
        } else if (key == QLatin1String("batch.poll_seconds")) {
            const double seconds = value.toDouble(&ok);
            ok = ok && seconds > 0;
            spec.batch.pollMs = int(seconds * 1000);
        } else if (key == QLatin1String("batch.price_factor")) {
            spec.batch.priceFactor = value.toDouble(&ok);
            ok = ok && spec.batch.priceFactor >= 0;
        } else if (key == QLatin1String("batch.max_calls")) {
            spec.batch.maxPerBatch = value.toInt(&ok);
            ok = ok && spec.batch.maxPerBatch >= 1;
        } else {
            io.err << "rubric run: unknown batch setting '" << key
                   << "' (known: batch.threshold, batch.poll_seconds, batch.price_factor, batch.max_calls)\n";
            return false;
        }
        if (!ok) {
            io.err << "rubric run: bad value '" << value << "' for " << key << '\n';
            return false;
        }
        if (!spec.batch.enabled) {
            io.err << "rubric run: " << key << " needs --batch\n";
            return false;
        }
    }
    return true;
}

/// "batch_3: in_progress, 3400/10000 answered, waited 2 min 10 s" for each open batch.
QString batchLine(const RunProgress &p)
{
    QStringList parts;
    for (const BatchStatus &b : p.batches) {
        if (b.state != QLatin1String("submitted") && b.state != QLatin1String("preparing"))
            continue;
        const qint64 s = b.waitedMs / 1000;
        parts << QStringLiteral("%1: %2, %3/%4 answered, waited %5")
                         .arg(b.remoteId.isEmpty() ? QStringLiteral("(creating)") : b.remoteId,
                              b.remoteStatus.isEmpty() ? b.state : b.remoteStatus)
                         .arg(b.completed)
                         .arg(b.requests)
                         .arg(s >= 60 ? QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60)
                                      : QStringLiteral("%1 s").arg(s));
    }
    return parts.join(QStringLiteral("; "));
}

// Builds the spec from the command line; 0 when done, else the exit code (the error is printed).
int specFromOptions(const QCommandLineParser &parser, Io &io, RunSpec &spec)
{
    spec.judge = parser.value(QStringLiteral("judge"));
    spec.method = parser.value(QStringLiteral("method"));
    spec.aspect = parser.value(QStringLiteral("aspect"));
    const auto kind = Provider::kindFromName(parser.value(QStringLiteral("provider")));
    if (!kind) {
        io.err << "rubric run: --provider must be openai or anthropic\n";
        return 2;
    }
    spec.evaluator.name = QStringLiteral("evaluator");
    spec.evaluator.kind = *kind;
    spec.evaluator.model = parser.value(QStringLiteral("model"));
    spec.evaluator.apiKeyEnv = parser.value(QStringLiteral("api-key-env"));
    // Several --base-url: replicas of the model, weighted by --set pool.weights=2,1.
    QString weights;
    for (const QString &text : parser.values(QStringLiteral("set")))
        if (text.startsWith(QLatin1String("pool.weights=")))
            weights = text.mid(13);
    if (!poolFromOptions(parser, weights, spec.evaluator, io, QStringLiteral("run")))
        return 2;
    if (auto headers = headersFromOptions(parser, io, QStringLiteral("run"))) {
        spec.evaluator.headers = *headers;
    } else {
        return 2;
    }
    bool ok = false;
    spec.evaluator.concurrency = parser.value(QStringLiteral("concurrency")).toInt(&ok);
    if (!ok || spec.evaluator.concurrency < 1) {
        io.err << "rubric run: --concurrency must be a positive number\n";
        return 2;
    }
    if (!readRunOptions(parser, io, spec))
        return 2;
    spec.evaluator.reasoningBudget = parser.value(QStringLiteral("reasoning-budget")).toInt(&ok);
    if (!ok || spec.evaluator.reasoningBudget < 0) {
        io.err << "rubric run: --reasoning-budget must be a number of tokens, 0 or more\n";
        return 2;
    }
    if (const auto mode = StructuredAnswers::modeFromName(parser.value(QStringLiteral("structured")))) {
        spec.evaluator.structuredAnswers = *mode;
    } else {
        io.err << "rubric run: --structured must be one of "
               << StructuredAnswers::modeNames().join(QStringLiteral(", ")) << '\n';
        return 2;
    }
    if (!readBudget(parser, io, spec))
        return 2;
    const auto items = RunConfig::itemsFromName(parser.value(QStringLiteral("items")));
    if (!items) {
        io.err << "rubric run: --items must be all, test or train\n";
        return 2;
    }
    spec.items = *items;
    if (parser.isSet(QStringLiteral("checklist")))
        spec.settings.insert(QStringLiteral("checklist"), parser.value(QStringLiteral("checklist")));

    QHash<QString, QString> roleKeys[3];
    for (const QString &text : parser.values(QStringLiteral("set"))) {
        const auto kv = keyValue(text, QStringLiteral("set"), io);
        if (!kv)
            return 2;
        const auto &[key, value] = *kv;
        const QStringList roles{QStringLiteral("generator."), QStringLiteral("refiner."), QStringLiteral("evaluator.")};
        bool consumed = false;
        for (int r = 0; r < 3; ++r)
            if (key.startsWith(roles[r])) {
                roleKeys[r].insert(key.mid(roles[r].size()), value);
                consumed = true;
            }
        if (key == QLatin1String("price.in") || key == QLatin1String("price.out")
            || key == QLatin1String("price.cached")) {
            for (auto &rk : roleKeys)
                rk.insert(QStringLiteral("price_") + key.mid(6), value);
            consumed = true;
        }
        if (key == QLatin1String("pool.weights") || key.startsWith(QLatin1String("batch.")))
            consumed = true; // read with the --base-url list above, and by readBatch()
        if (!consumed)
            spec.settings.insert(key, value);
    }
    // generator and refiner start from the evaluator's endpoint; the refiner then follows the generator
    ProviderProfile *profiles[3] = {&spec.generator, &spec.refiner, &spec.evaluator};
    QString error;
    for (auto it = roleKeys[2].begin(); it != roleKeys[2].end(); ++it)
        if (!applyProfileKey(spec.evaluator, it.key(), it.value(), &error)) {
            io.err << "rubric run: evaluator: " << error << '\n';
            return 2;
        }
    spec.generator = spec.evaluator;
    spec.generator.name = QStringLiteral("generator");
    for (auto it = roleKeys[0].begin(); it != roleKeys[0].end(); ++it)
        if (!applyProfileKey(*profiles[0], it.key(), it.value(), &error)) {
            io.err << "rubric run: generator: " << error << '\n';
            return 2;
        }
    spec.refiner = spec.generator;
    spec.refiner.name = QStringLiteral("refiner");
    for (auto it = roleKeys[1].begin(); it != roleKeys[1].end(); ++it)
        if (!applyProfileKey(*profiles[1], it.key(), it.value(), &error)) {
            io.err << "rubric run: refiner: " << error << '\n';
            return 2;
        }
    return 0;
}

int run(const QStringList &args, Io &io)
{
    QCommandLineParser parser;
    // Each method's --set keys, from the method registry (the parameters with options of their
    // own, MethodInfo::runOptions such as --logprobs, --samples and --literature, are listed as options).
    QStringList perMethod;
    for (const MethodInfo &m : MethodRegistry::all()) {
        QStringList keys;
        for (const MethodParam &p : m.params) {
            if (std::any_of(m.runOptions.begin(), m.runOptions.end(),
                            [&](const RunOption &o) { return o.param == p.key; }))
                continue;
            keys << (p.type == MethodParam::Type::Choice ? p.key + QLatin1Char('=') + p.choices.join(QLatin1Char('|'))
                                                         : p.key);
        }
        perMethod << m.title + QStringLiteral(": ") + keys.join(QStringLiteral(", "));
    }
    parser.setApplicationDescription(
            QStringLiteral("Run (or resume) a judge-building method and store its rubric and scores under --judge.\n"
                           "Endpoint roles: --base-url/--model set all three; --set generator.model=M, "
                           "refiner.base_url=U, evaluator.provider=anthropic … set one (also api_key_env, concurrency, "
                           "price_in, price_out, price_cached, reasoning_budget, structured; "
                           "price.in/price.out/price.cached for all; "
                           "pool.weights=2,1 for "
                           "the replicas of several --base-url). Other --set "
                           "keys are method parameters "
                           "(")
            + perMethod.join(QStringLiteral("; ")) + QStringLiteral(")."));
    const auto opt = [&](const char *name, const char *help, const char *value = nullptr, const char *def = nullptr) {
        if (value)
            parser.addOption({QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(value),
                              def ? QString::fromLatin1(def) : QString()});
        else
            parser.addOption({QString::fromLatin1(name), QString::fromLatin1(help)});
    };
    opt("project", "Project file.", "P");
    parser.addOption({QStringLiteral("method"), MethodRegistry::names().join(QStringLiteral(", ")) + QLatin1Char('.'),
                      QStringLiteral("M")});
    opt("aspect", "Aspect to judge (hdeval: A,B,… or all for several; the first is the run's own).", "A");
    opt("judge", "Name of the judge (run); the same name resumes.", "NAME");
    opt("base-url",
        "Endpoint base URL (OpenAI-compatible or Anthropic). Repeat it for replicas of the same model: requests "
        "are spread over them by free capacity (weights with --set pool.weights=2,1), a failing one is drained "
        "and tried again later.",
        "URL");
    opt("model", "Model name.", "M");
    opt("provider", "openai (default) or anthropic.", "KIND", "openai");
    opt("api-key-env", "Environment variable holding the API key.", "VAR");
    opt("header",
        "NAME=env:VAR (repeatable): an extra HTTP header whose value is read from the environment variable VAR "
        "(the value itself is never stored).",
        "NAME=env:VAR");
    opt("concurrency", "Requests in flight per endpoint (per replica, times its weight).", "C", "16");
    opt("reasoning-budget",
        "Tokens a reasoning model may think on top of each request's max_tokens, once an answer shows the endpoint "
        "thinks (an empty answer cut off at the budget); 0 = never raise it. Per role: --set "
        "evaluator.reasoning_budget=N.",
        "TOKENS", "2048");
    opt("structured",
        "Ask for scores and yes/no answers as JSON of a schema where the endpoint offers it: off (default), "
        "json_schema (response_format, OpenAI and vLLM), guided_json (vLLM) or llama_grammar (llama.cpp server's "
        "json_schema). An endpoint that ignores it is read as text; one that refuses it is asked without it. Per "
        "role: --set evaluator.structured=MODE.",
        "MODE", "off");
    QStringList methodOptions; // the methods' own options, once each
    for (const MethodInfo &m : MethodRegistry::all())
        for (const RunOption &o : m.runOptions) {
            if (methodOptions.contains(o.name))
                continue;
            methodOptions << o.name;
            if (o.valueName)
                parser.addOption(
                        {o.name, QString::fromLatin1(o.help), QString::fromLatin1(o.valueName), o.defaultValue});
            else
                parser.addOption({o.name, QString::fromLatin1(o.help)});
        }
    opt("items", "Items to score: all, test (default) or train.", "SET", "test");
    opt("checklist",
        "CheckEval: the checklist of the judge's first run: a file (CheckEval YAML, our JSON or Markdown export) "
        "or preset:DATASET/ASPECT[/seed|/diversification|/elaboration] (sets --set checklist=…).",
        "FILE|preset:NAME");
    opt("budget", "Stop (resumable) before this attempt could cost more than AMOUNT (prices from price_in/price_out).",
        "AMOUNT");
    opt("set", "KEY=VALUE (repeatable): endpoint roles or method parameters.", "KEY=VALUE");
    opt("resume", "Continue (or re-score) the run of --judge with the configuration stored in the project "
                  "(endpoints, method, parameters; keys again from the environment).");
    opt("replace", "Delete the scores, rubric and run record of an existing --judge first and run afresh under the "
                   "name (with another model, endpoint, parameters or templates; the judge cache stays).");
    opt("retry-failed", "Ask again the items the endpoint refused in an earlier attempt of --judge (otherwise they "
                        "are skipped and counted as failed), e.g. after --set max_source_tokens=N.");
    opt("batch",
        "Send the calls through the provider's batch interface (OpenAI Batch API, Anthropic Message Batches) at the "
        "batch price: a step of at least batch.threshold uncached calls (--set batch.threshold=N, default 100) goes "
        "as one batch, smaller ones interactively; --set batch.poll_seconds=S (default 30), batch.price_factor=F "
        "(default 0.5), batch.max_calls=N (default 50000). Stopping leaves a batch at the provider: running the "
        "judge again (with or without --batch) picks its results up without submitting it again.");
    opt("estimate", "Print the calls, tokens and cost the run would need, and stop.");
    opt("json", "Print JSON.");
    if (auto rc = parse(parser, QStringLiteral("run"), args, io))
        return *rc;
    const bool resume = parser.isSet(QStringLiteral("resume"));
    if (resume) {
        if (!require(parser, QStringLiteral("judge"), io))
            return 2;
        QStringList owns{QStringLiteral("method"), QStringLiteral("aspect"),   QStringLiteral("base-url"),
                         QStringLiteral("model"),  QStringLiteral("provider"), QStringLiteral("api-key-env"),
                         QStringLiteral("header")};
        owns << methodOptions;
        owns << QStringList{
                QStringLiteral("items"),   QStringLiteral("checklist"),        QStringLiteral("set"),
                QStringLiteral("replace"), QStringLiteral("reasoning-budget"), QStringLiteral("structured")};
        for (const QString &own : std::as_const(owns))
            if (parser.isSet(own)
                && !(own == QLatin1String("set")
                     && parser.values(QStringLiteral("set"))
                                .filter(QRegularExpression(QStringLiteral("^(?!batch\\.)")))
                                .isEmpty())) {
                io.err << "rubric run: --resume takes the run's configuration from the project; leave out --" << own
                       << '\n';
                return 2;
            }
    } else {
        for (const char *required : {"method", "aspect", "judge", "base-url", "model"})
            if (!require(parser, QString::fromLatin1(required), io))
                return 2;
    }
    auto project = openProject(parser, io);
    if (!project)
        return 1;

    RunSpec spec;
    if (resume) {
        auto stored = RunConfig::load(project.get(), parser.value(QStringLiteral("judge")));
        if (!stored) {
            io.err << "rubric run: " << stored.errorString() << '\n';
            return 1;
        }
        spec = std::move(stored).value();
        // The budget is per attempt: a resumed run takes a new one from the command line.
        if (!readBudget(parser, io, spec))
            return 2;
    } else if (const int rc = specFromOptions(parser, io, spec)) {
        return rc;
    } else if (const int rc2 = resolveAspects(*project, io, spec)) {
        return rc2;
    }

    if (!readBatch(parser, io, spec))
        return 2;
    spec.retryFailed = parser.isSet(QStringLiteral("retry-failed"));
    spec.resume = resume;
    spec.replace = parser.isSet(QStringLiteral("replace"));
    Run runner(project.get(), spec);
    const bool json = parser.isSet(QStringLiteral("json"));
    if (parser.isSet(QStringLiteral("estimate"))) {
        auto e = runner.estimate();
        if (!e) {
            io.err << "rubric run: " << e.errorString() << '\n';
            return 1;
        }
        if (json) {
            printJson(io, estimateJson(*e));
        } else {
            io.out << (e->exact ? "calls:  " : "calls:  up to ") << e->calls;
            if (!e->exact)
                io.out << " (at least " << e->callsMin << "; how many depends on the judge's answers)";
            if (const QString line = phases::estimateLine(e->perPhase, QStringLiteral("-")); !line.isEmpty())
                io.out << "\nphases: " << line;
            if (!e->exact && !e->exactPhases.isEmpty())
                io.out << "\nexact:  " << phases::inRunOrder(e->exactPhases).join(QStringLiteral(", "));
            if (spec.batch.enabled) {
                QStringList batched;
                for (auto it = e->perPhase.cbegin(); it != e->perPhase.cend(); ++it)
                    if (it.value().toInt() >= spec.batch.threshold)
                        batched << it.key();
                io.out << "\nbatch:  "
                       << (batched.isEmpty() ? QStringLiteral("no phase reaches batch.threshold = %1; all interactive")
                                                       .arg(spec.batch.threshold)
                                             : phases::inRunOrder(batched).join(QStringLiteral(", "))
                                                       + QStringLiteral(" as provider batches, at %1 × the price")
                                                                 .arg(spec.batch.priceFactor));
            }
            io.out << "\ncached: " << e->cached << "\ntokens: ~" << e->tokensIn << " in, ~" << e->tokensOut
                   << " out\ncost:   " << QString::number(e->cost, 'f', 4) << '\n';
        }
        return 0;
    }

    int rc = 0;
    QString failure;
    QElapsedTimer sinceShown; // a line at most every 200 ms, and at every change of phase
    QString shownPhase;
    QObject::connect(&runner, &Run::progressed, [&io, json, &sinceShown, &shownPhase](const RunProgress &p) {
        const bool due = !sinceShown.isValid() || sinceShown.elapsed() >= 200 || p.phase != shownPhase;
        if (due) {
            sinceShown.start();
            shownPhase = p.phase;
        }
        if (!json && due) {
            io.err << "\r" << p.phase << ": " << p.done << "/" << p.total << " answered, " << p.sent << " sent"
                   << (p.sendMax >= 0 ? QStringLiteral(" (at most %1 in all)").arg(p.sendMax) : QString()) << ", "
                   << p.cacheHits << " cached";
            if (const QString batches = batchLine(p); !batches.isEmpty())
                io.err << "; " << p.batchWaiting << " waiting for batch " << batches;
            io.err << Qt::flush;
        }
    });
    QObject::connect(&runner, &Run::finished, [&](bool ok, const QString &err) {
        rc = ok ? 0 : 1;
        failure = err;
        QCoreApplication::quit();
    });
    if (auto started = runner.start(); !started) {
        io.err << "rubric run: " << started.errorString() << '\n';
        return 1;
    }
    if (!runner.summary().contains(QStringLiteral("resumable"))) // not finished synchronously
        QCoreApplication::exec();
    if (!json)
        io.err << '\n';
    const QVariantMap summary = runner.summary();
    if (json) {
        QVariantMap out = summary;
        out.insert(QStringLiteral("ok"), rc == 0);
        out.insert(QStringLiteral("judge"), spec.judge);
        printJson(io, out);
    } else if (rc == 0) {
        const QVariantMap result = summary.value(QStringLiteral("result")).toMap();
        const bool pairwise = result.value(QStringLiteral("setting")).toString() == QLatin1String("pairwise");
        io.out << "judge " << spec.judge << ": " << result.value(QStringLiteral("scored")).toInt()
               << (pairwise ? " pairs judged, " : " items scored, ") << result.value(QStringLiteral("missing")).toInt()
               << (pairwise ? " without a verdict, " : " without a score, ")
               << result.value(QStringLiteral("failed")).toInt() << " refused by the endpoint; "
               << summary.value(QStringLiteral("sent")).toInt() << " calls sent, "
               << summary.value(QStringLiteral("cache_hits")).toInt() << " from the cache\n";
        for (const QVariant &b : summary.value(QStringLiteral("batches")).toList()) {
            const QVariantMap batch = b.toMap();
            io.out << "provider batch " << batch.value(QStringLiteral("id")).toString() << ": "
                   << batch.value(QStringLiteral("state")).toString() << ", "
                   << batch.value(QStringLiteral("answered")).toInt() << " of "
                   << batch.value(QStringLiteral("calls")).toInt() << " calls answered at the batch price, "
                   << batch.value(QStringLiteral("failed")).toInt() << " sent again interactively\n";
        }
        if (result.contains(QStringLiteral("scoring")))
            io.out << "scoring: " << result.value(QStringLiteral("scoring")).toString() << " — "
                   << result.value(QStringLiteral("scoring_reason")).toString() << '\n';
        if (result.contains(QStringLiteral("too_few_hypotheses"))
            && result.value(QStringLiteral("too_few_hypotheses")).toInt() > 0)
            io.out << result.value(QStringLiteral("too_few_hypotheses")).toInt()
                   << " item(s) without a score: fewer than min_hypotheses = "
                   << result.value(QStringLiteral("min_hypotheses")).toInt() << " of "
                   << result.value(QStringLiteral("hypotheses")).toInt() << " hypotheses gave a score\n";
        printCorrelations(io, result);
        for (const QVariant &why : summary.value(QStringLiteral("adapted")).toList())
            io.out << "  adapted: " << why.toString() << '\n';
        if (const qint64 thinking = summary.value(QStringLiteral("tokens_reasoning")).toLongLong(); thinking > 0)
            io.out << "  reasoning: " << thinking << " output tokens spent thinking\n";
        const QVariantMap reasked = summary.value(QStringLiteral("reasked")).toMap();
        for (auto it = reasked.begin(); it != reasked.end(); ++it)
            io.out << "  re-asked " << it.value().toInt() << " answer(s): " << it.key() << '\n';
        const QVariantMap refused = summary.value(QStringLiteral("failed_items")).toMap();
        for (auto it = refused.begin(); it != refused.end(); ++it)
            io.out << "  refused " << it.key() << ": " << it.value().toString() << '\n';
        if (!refused.isEmpty())
            io.out << "the refused items are skipped when the run is repeated; --retry-failed asks them again "
                      "(e.g. with --set max_source_tokens=N or another model)\n";
        const QVariantMap calls = summary.value(QStringLiteral("calls")).toMap();
        for (auto it = calls.begin(); it != calls.end(); ++it) {
            const QVariantMap c = it.value().toMap();
            io.out << "  " << it.key().leftJustified(16) << c.value(QStringLiteral("calls")).toInt() << " calls ("
                   << c.value(QStringLiteral("sent")).toInt() << " sent, "
                   << c.value(QStringLiteral("cache_hits")).toInt() << " cached)\n";
        }
    }
    if (rc != 0) {
        for (const QVariant &why : summary.value(QStringLiteral("adapted")).toList())
            io.err << "  adapted: " << why.toString() << '\n';
        io.err << "rubric run: " << failure << "\nthe run is saved; run the same command again to resume it\n";
    }
    return rc;
}

const Registration reg({QStringLiteral("run"),
                        QStringLiteral("Build and run a judge (any method of `rubric run --help`); resumable."), &run});

} // namespace
} // namespace rubric::cli
