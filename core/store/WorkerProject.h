#pragma once

#include "store/Project.h"
#include "util/Result.h"

#include <QString>

#include <memory>

namespace rubric {

/// Opens an existing project for a worker thread that reads it once (the studio's statistics):
/// a connection of its own, without memory-mapped reads and with a small page cache. The
/// studio's own connection maps up to 256 MiB of the file; a worker's scan of a million items
/// mapped as much again, and that counts in the studio's memory until the worker ends.
Result<std::unique_ptr<Project>> openForWorker(const QString &path);

} // namespace rubric
