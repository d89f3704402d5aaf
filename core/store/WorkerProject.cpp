#include "store/WorkerProject.h"

#include "store/ScoreColumns.h"

namespace rubric {

Result<std::unique_ptr<Project>> openForWorker(const QString &path)
{
    auto project = Project::open(path, Project::OpenMode::OpenExisting);
    if (!project)
        return project.error();
    if (auto r = ScoreColumnStore(project->get()).readWithoutMapping(); !r)
        return r.error();
    return project;
}

} // namespace rubric
