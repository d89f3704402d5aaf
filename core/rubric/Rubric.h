#pragma once

#include "rubric/Criterion.h"

#include <QDateTime>
#include <QVector>

#include <optional>

namespace rubric {

/// One saved version of a judge's rubric (without its criteria), as listed by RubricStore.
struct RubricVersionInfo
{
    int version = 0;
    QString aspect;
    QString method;
    QDateTime created;
    QString note;
    /// Pearson with the human scores on the train split (every version is measured there, so
    /// versions compare on one basis); the note says on how many items.
    std::optional<double> alignment;
    /// The same on the test split, measured when the version scored the test items; shown only
    /// on request (tuning a rubric on it would make the test figure meaningless).
    std::optional<double> testAlignment;
    QString testBasis; ///< e.g. "Pearson … on the test split, n = 40"
    /// The version it was edited from (0 for a first version): not always the one before it,
    /// when a teammate saved a version meanwhile.
    int parentVersion = 0;
};

/// A rubric: the criteria tree of one version, in position order. A value type; the store
/// (RubricStore) persists it, methods build it, the editor edits a copy.
class Rubric
{
public:
    Rubric() = default;
    Rubric(QString method, QString aspect, QVector<Criterion> criteria = {});

    QString method() const { return m_method; }
    QString aspect() const { return m_aspect; }
    int version() const { return m_version; }
    void setVersion(int version) { m_version = version; }

    const QVector<Criterion> &criteria() const { return m_criteria; }
    QVector<Criterion> &criteria() { return m_criteria; }

    /// Appends `c` with the next position (and the given key, or "<prefix><n>" when empty).
    Criterion &add(Criterion c);
    const Criterion *find(const QString &key) const;
    Criterion *find(const QString &key);
    /// Children of `parentKey` ("" = roots), in position order.
    QVector<Criterion> children(const QString &parentKey) const;
    /// Enabled criteria of `kind`, in position order.
    QVector<Criterion> enabled(CriterionKind kind) const;
    QVector<Criterion> ofKind(CriterionKind kind) const;

private:
    QString m_method;
    QString m_aspect;
    int m_version = 0;
    QVector<Criterion> m_criteria;
};

} // namespace rubric
