#pragma once

#include <QString>
#include <QVector>

namespace rubric {

/// How a run sends its calls through a provider's batch interface (OpenAI's Batch API, Anthropic's
/// Message Batches): an execution mode of any run of any method, chosen per attempt.
struct BatchOptions
{
    bool enabled = false;
    /// A step with at least this many uncached calls goes as a batch; smaller ones (HypoEval's
    /// update rounds, HD-Eval's small layers) are sent interactively.
    int threshold = 100;
    /// How often an open batch's state is asked for.
    int pollMs = 30000;
    /// What a batch call costs against an interactive one (both providers bill batches at half price).
    double priceFactor = 0.5;
    /// The most calls in one batch (OpenAI takes 50,000 per file, Anthropic 100,000 per batch).
    int maxPerBatch = 50000;
};

/// One provider batch as the run pane and the CLI show it.
struct BatchStatus
{
    QString remoteId;     ///< the provider's batch id ("" while it is being created)
    QString state;        ///< "preparing", "submitted", "done", "expired", "failed", "cancelled"
    QString remoteStatus; ///< the provider's own word ("validating", "in_progress", "finalizing", "ended", …)
    int requests = 0;
    int completed = 0; ///< answered so far, as the provider counts them
    int failed = 0;
    qint64 waitedMs = 0; ///< since it was submitted
};

} // namespace rubric
