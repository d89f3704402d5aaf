#pragma once

#include "store/Project.h"

#include <QSqlDatabase>

namespace rubric {

/// The tests' one door to a project's connection (Project::database() is the store's own), for
/// inspecting or damaging the file directly. Test code only.
struct ProjectTestAccess
{
    /// The calling thread's connection to the project.
    static QSqlDatabase database(const Project &project) { return project.database(); }
};

} // namespace rubric
