#pragma once

#include "util/Result.h"

#include <QJsonArray>
#include <QJsonObject>

#include <Eigen/Dense>

namespace rubric::learn {

/// Eigen ↔ JSON for the saved models (internal to core/learn). Matrices are arrays of rows.
inline QJsonArray toJsonArray(const Eigen::VectorXd &v)
{
    QJsonArray a;
    for (Eigen::Index i = 0; i < v.size(); ++i)
        a.append(v[i]);
    return a;
}

inline QJsonArray toJsonArray(const Eigen::MatrixXd &m)
{
    QJsonArray rows;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        rows.append(toJsonArray(Eigen::VectorXd(m.row(i).transpose())));
    return rows;
}

inline Result<Eigen::VectorXd> vectorFromJson(const QJsonObject &json, const QString &key, Eigen::Index size = -1)
{
    const QJsonValue value = json.value(key);
    if (!value.isArray())
        return makeError(QStringLiteral("missing or not an array"), {}, 0, key);
    const QJsonArray a = value.toArray();
    if (size >= 0 && a.size() != size)
        return makeError(QStringLiteral("has %1 values, expected %2").arg(a.size()).arg(size), {}, 0, key);
    Eigen::VectorXd v(a.size());
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!a[i].isDouble())
            return makeError(QStringLiteral("value %1 is not a number").arg(i), {}, 0, key);
        v[i] = a[i].toDouble();
    }
    return v;
}

inline Result<Eigen::MatrixXd> matrixFromJson(const QJsonObject &json, const QString &key, Eigen::Index rows,
                                              Eigen::Index cols)
{
    const QJsonArray a = json.value(key).toArray();
    if (a.size() != rows)
        return makeError(QStringLiteral("has %1 rows, expected %2").arg(a.size()).arg(rows), {}, 0, key);
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < rows; ++i) {
        auto row = vectorFromJson(QJsonObject{{key, a[i]}}, key, cols);
        if (!row)
            return makeError(QStringLiteral("row %1: %2").arg(i).arg(row.error().message), {}, 0, key);
        m.row(i) = row->transpose();
    }
    return m;
}

inline Result<double> numberFromJson(const QJsonObject &json, const QString &key)
{
    if (!json.value(key).isDouble())
        return makeError(QStringLiteral("missing or not a number"), {}, 0, key);
    return json.value(key).toDouble();
}

} // namespace rubric::learn
