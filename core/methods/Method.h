#pragma once

#include "methods/RunTypes.h"
#include "util/Result.h"

#include <QObject>
#include <QVariantMap>

namespace rubric {

class RunContext;

/// A judge-building method (G-Eval, HypoEval …): builds or loads the rubric, scores the items
/// per criterion through the context's judge engines, aggregates, and stores everything as it
/// goes (rubric versions, criterion scores, judge scores), so that running it again under the
/// same judge name resumes from the store and the judge cache.
///
/// Lives in the context's thread; asynchronous. Ends with `completed` or with the context's
/// `failed` signal (an endpoint error or a store error); never stores a score it did not get.
class Method : public QObject
{
    Q_OBJECT
public:
    explicit Method(RunContext *context, QObject *parent = nullptr)
        : QObject(parent)
        , m_ctx(context)
    {
    }

    /// Calls, tokens and cost of a run from the current state (cache and store); sends nothing.
    virtual Result<RunEstimate> estimate() = 0;
    /// What can be refused before the run records anything in the project (its parameters, a
    /// checklist file that does not parse): Run::start calls it before the judge is created, so
    /// bad input leaves the project as it was. The default refuses nothing.
    virtual Result<void> check() { return {}; }
    /// Starts (or resumes) the run.
    virtual void start() = 0;

signals:
    /// The run finished; `summary` holds what the method wants recorded in runs.config.
    void completed(const QVariantMap &summary);

protected:
    RunContext *m_ctx;
};

} // namespace rubric
