#pragma once

// A pipeline fixture project with the synthetic judge (tests/support) answering on a listening
// loopback endpoint: the three objects nearly every end-to-end method test starts with.

#include "FakeLlmServer.h"
#include "PipelineFixture.h"
#include "SyntheticJudge.h"

#include <memory>

namespace rubric::test {

struct JudgedProject
{
    explicit JudgedProject(std::unique_ptr<Fixture> project)
        : fx(std::move(project))
        , judge(fx->humanByOutput)
    {
        server.setJudge([this](const QJsonObject &body) { return judge.answer(body); });
    }

    std::unique_ptr<Fixture> fx;
    SyntheticJudge judge;
    FakeLlmServer server;
};

/// The project at path with testItems target items, its judge listening; null where either failed.
inline std::unique_ptr<JudgedProject> judgedProject(const QString &path, int testItems)
{
    auto fx = makeProject(path, testItems);
    if (!fx)
        return nullptr;
    auto env = std::make_unique<JudgedProject>(std::move(fx));
    if (!env->server.listen())
        return nullptr;
    return env;
}

} // namespace rubric::test
