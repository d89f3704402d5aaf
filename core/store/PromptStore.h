#pragma once

#include "util/Result.h"

#include <QString>

#include <optional>

namespace rubric {

class Project;

/// The prompt templates a project keeps in place of the built-in ones (table prompt_templates).
/// A thin view over a Project (not owned; must outlive the store); any thread may use it (the
/// project gives each thread its own connection).
class PromptStore
{
public:
    explicit PromptStore(Project *project);

    /// The body of the project's copy of template `name`, none when it has none; an error (the
    /// database's own message) when the file cannot be read, never "none".
    Result<std::optional<QString>> readOverride(const QString &name) const;
    /// Stores (or replaces) the project's copy of template `name`.
    Result<void> setOverride(const QString &name, const QString &body);
    /// Removes the project's copy of template `name` (nothing to remove is not an error).
    Result<void> removeOverride(const QString &name);

private:
    Project *m_project;
};

} // namespace rubric
