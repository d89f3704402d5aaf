#pragma once
// A project for the run pane tests: SummEval coherence (resources/example/summeval.json), 30
// annotated train items and `testItems` test items, every 3rd row with distinct outputs, for
// the synthetic judge on a loopback fake server that knows their human scores.

#include "FakeLlmServer.h"
#include "SummEvalFixture.h"
#include "SyntheticJudge.h"

namespace rubric::fixture {

using RunProject = test::SummEvalProject;

/// Every 3rd row of the example (see test::makeSummEvalProject); fatal when it cannot be made.
inline RunProject makeRunProject(const QString &path, int testItems)
{
    auto fx = test::makeSummEvalProject(path, testItems, 3);
    if (!fx)
        qFatal("cannot make the run fixture in %s", qPrintable(path));
    return std::move(*fx);
}

} // namespace rubric::fixture
