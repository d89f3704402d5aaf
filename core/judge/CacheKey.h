#pragma once

#include "data/JudgeTypes.h"

#include <QString>
#include <QStringList>

namespace rubric {

/// The judge cache's keys: the canonical JSON of everything that changes an answer (provider,
/// model, messages, every sampling parameter, the sample index, a re-ask), and its SHA-256.
///
/// A key names the model, not a base URL, so the replicas of one model (ProviderProfile's
/// replicaUrls) share their answers whichever one gave them. Keys written before pools existed
/// also named the base URL; legacyKeys() gives them, so those answers are still found.
namespace CacheKey {

/// Canonical JSON (sorted keys) of `request` under `profile`'s provider and model; with
/// `legacyBase`, the form keys had when they named that base URL.
QString canonical(const ProviderProfile &profile, const JudgeRequest &request, const QString &legacyBase = {});
/// The key of a canonical text: its SHA-256 in hex.
QString hash(const QString &canonical);
/// The keys `request` had before keys stopped naming the URL, one per base URL of `profile`.
QStringList legacyKeys(const ProviderProfile &profile, const JudgeRequest &request);

} // namespace CacheKey
} // namespace rubric
