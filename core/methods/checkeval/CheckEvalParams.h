#pragma once

#include "util/Result.h"

#include <QString>
#include <QStringList>
#include <QVariantMap>

#include <optional>

namespace rubric {

/// CheckEval's settings (specs/checkeval.md §1.2–§1.3), the paper's values by default. Set from
/// `--set KEY=VALUE` pairs (an optional "checkeval." prefix) through fromSettings(); unknown keys
/// and bad values are errors naming the key.
struct CheckEvalParams
{
    /// How the questions are batched into answering calls (key group): one call per item and
    /// sub-aspect (the authors' script), per item for the whole aspect, or per item and question.
    enum class Group { SubAspect, Aspect, Question };
    Group group = Group::SubAspect;
    bool diversify = false; ///< key augment=none|diversify|elaborate|both (paper's full pipeline: both)
    bool elaborate = false;
    /// key filter=auto|on|off; auto (or unset): on when augmenting (the paper filters the augmented pool), else off.
    bool filter = false;
    int elaborateMin = 3;     ///< sub-sub-questions per seed the elaboration prompt asks for (key elaborate_min)
    int elaborateMax = 10;    ///< at most this many are kept per seed (key elaborate_max)
    double temperature = 0;   ///< answering calls (key temperature)
    int maxTokens = 200;      ///< answering calls' output cap (key max_tokens)
    bool regression = false;  ///< key weights=uniform|regression (appendix C.2; off in the paper's method)
    bool missingIsNo = false; ///< key missing=skip|no: an unanswered question counts as "no" (strict)
    QString checklist;        ///< key checklist: a file (.yaml/.yml/.json/.md) or preset:<dataset>/<aspect>[/<stage>]
    QString checklistFrom;    ///< key checklist_from: another judge whose latest version is copied
    /// key seed=N|none: sent with every call (the paper fixes the random seed; its value is not
    /// published, so 0 unless set). Endpoints whose API has no seed (Anthropic) do not get it.
    std::optional<qint64> seed = 0;
    /// key benchmark: the benchmark's name in the generator prompts ("SummEval"); unset, a
    /// preset's dataset names it, else the prompts leave it out.
    QString benchmark;
    /// Generator calls' output cap (augmentation and filter; not a --set key: long enough for a
    /// 35-question outline).
    static constexpr int generatorMaxTokens = 3000;

    bool augmenting() const { return diversify || elaborate; }
    QString groupName() const;
    QString augmentName() const;

    static Result<CheckEvalParams> fromSettings(const QVariantMap &settings);
    /// The settings as recorded in a run's summary.
    QVariantMap toMap() const;
    static QStringList keys();
};

} // namespace rubric
