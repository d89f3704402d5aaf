#pragma once

#include "methods/RunTypes.h"
#include "util/Result.h"

#include <QVariantMap>

#include <optional>

namespace rubric {

class Project;

/// The run configuration stored in `runs.config` and the RunSpec it came from, both ways.
///
/// `toConfig` writes everything that defines the run — method, aspect, items, the method's
/// parameters (in "settings"; those a MethodParam marks topLevel, such as G-Eval's logprobs and
/// samples and HypoEval's literature, at the top level as older versions wrote them) and, per role, the endpoint (name,
/// provider, base URL, model, the *name* of the key's environment variable or the keychain flag, concurrency, rate
/// limits, prices, timeout, retries, the reasoning budget, extra headers as references NAME=env:VAR; for a pool of
/// replicas, "pool": {"urls": [every base URL], "weights": [one each]}). API keys and header values are never written,
/// nor a credential in a base URL (see EndpointSecrets). `fromConfig` rebuilds the spec so a run can be resumed or
/// re-scored later (the studio's "Resume" and "Re-score"); configs written before the endpoint details were stored get
/// the profile defaults for what is missing. Errors name the field that is missing or wrong.
namespace RunConfig {

QVariantMap toConfig(const RunSpec &spec);
QVariantMap profileToMap(const ProviderProfile &profile);
Result<ProviderProfile> profileFromMap(const QVariantMap &map, const QString &role);
QString itemsName(SplitFilter filter);
std::optional<SplitFilter> itemsFromName(const QString &name);

Result<RunSpec> fromConfig(const QString &judge, const QVariantMap &config);
/// The stored configuration of `judge` in `project`, as a spec (error when it has none).
Result<RunSpec> load(Project *project, const QString &judge);

/// How `spec` differs from the configuration stored for its judge in `project` — one line per
/// difference, naming the field and both values ("evaluator model: 'a' (stored) → 'b'"). One
/// judge name is one configuration: method, aspect, each role's provider, base URL and model (a
/// pool of replicas that shares a URL with the stored one is the same endpoint),
/// the method's parameters (G-Eval's samples not while logprobs are on: MethodParam::unusedWhen) and the prompt
/// templates the stored run used (their current hash in the project). What may change between
/// attempts is not compared: budget, concurrency, rate limits, prices, timeouts, retries, the
/// key's variable, the item set (another split scores other items with the same judge) and
/// `max_source_tokens` (a per-attempt truncation that `--retry-failed` pairs with). Empty when
/// the judge has no stored configuration; an error when the project cannot be read.
Result<QStringList> differences(Project *project, const RunSpec &spec);

} // namespace RunConfig
} // namespace rubric
