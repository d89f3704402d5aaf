#pragma once

#include <QLocale>
#include <QStringList>
#include <QVariantMap>

namespace rubric::phases {

/// Phase names (as in RunEstimate::perPhase and the runs' call counts) in the order a run goes
/// through them; names this list does not know follow in alphabetical order.
QStringList inRunOrder(const QStringList &names);

/// An estimate's calls per phase as one line, in run order: "init 1, init-score 5–25, …".
/// A phase's value is a number or a {"min", "max"} map; `dash` joins a range's ends.
QString estimateLine(const QVariantMap &perPhase, const QString &dash = QStringLiteral("–"),
                     const QString &separator = QStringLiteral(", "), const QLocale &locale = QLocale::c());

} // namespace rubric::phases
