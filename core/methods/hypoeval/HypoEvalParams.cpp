#include "HypoEvalParams.h"

#include <QCoreApplication>

#include <algorithm>

namespace rubric {

QStringList HypoEvalParams::keys()
{
    return {QStringLiteral("init_samples"),
            QStringLiteral("init_hypotheses"),
            QStringLiteral("per_call"),
            QStringLiteral("k"),
            QStringLiteral("theta"),
            QStringLiteral("alpha"),
            QStringLiteral("a"),
            QStringLiteral("b"),
            QStringLiteral("w_hyp"),
            QStringLiteral("w_max"),
            QStringLiteral("refine_rounds"),
            QStringLiteral("h_max"),
            QStringLiteral("h_ev"),
            QStringLiteral("seed"),
            QStringLiteral("merge"),
            QStringLiteral("scale_min"),
            QStringLiteral("scale_max"),
            QStringLiteral("temperature"),
            QStringLiteral("max_tokens"),
            QStringLiteral("min_parsed"),
            QStringLiteral("min_hypotheses")};
}

int HypoEvalParams::minParsedFor(int trainSize) const
{
    if (minParsed > 0)
        return minParsed;
    return std::min(trainSize, std::max(5, (trainSize + 1) / 2));
}

int HypoEvalParams::minHypothesesFor(int count) const
{
    if (minHypotheses > 0)
        return std::min(count, minHypotheses);
    return count / 2 + 1;
}

void HypoEvalParams::fitScale()
{
    const double range = scaleMax - scaleMin;
    if (range <= 0)
        return;
    theta = theta * range / 4.0;
    b = b * 16.0 / (range * range);
}

QVariantMap HypoEvalParams::toMap() const
{
    return {{QStringLiteral("init_samples"), initSamples},
            {QStringLiteral("init_hypotheses"), initHypotheses},
            {QStringLiteral("per_call"), hypothesesPerCall},
            {QStringLiteral("k"), topK},
            {QStringLiteral("theta"), theta},
            {QStringLiteral("alpha"), alpha},
            {QStringLiteral("a"), a},
            {QStringLiteral("b"), b},
            {QStringLiteral("w_hyp"), wHyp},
            {QStringLiteral("w_max"), wMax},
            {QStringLiteral("refine_rounds"), refineRounds},
            {QStringLiteral("h_max"), hMax},
            {QStringLiteral("h_ev"), hEv},
            {QStringLiteral("seed"), qint64(seed)},
            {QStringLiteral("merge"), mergeWholeBank ? QStringLiteral("all") : QStringLiteral("top")},
            {QStringLiteral("scale_min"), scaleMin},
            {QStringLiteral("scale_max"), scaleMax},
            {QStringLiteral("temperature"), temperature},
            {QStringLiteral("max_tokens"), maxTokens},
            {QStringLiteral("min_parsed"), minParsed},
            {QStringLiteral("min_hypotheses"), minHypotheses}};
}

Result<HypoEvalParams> HypoEvalParams::fromSettings(const QVariantMap &settings)
{
    HypoEvalParams p;
    const auto bad = [](const QString &key, const QString &why) {
        return makeError(QCoreApplication::translate("HypoEvalParams", "HypoEval parameter %1: %2").arg(key, why), {},
                         0, key);
    };
    for (auto it = settings.begin(); it != settings.end(); ++it) {
        QString key = it.key();
        if (key.startsWith(QLatin1String("hypoeval.")))
            key = key.mid(9);
        const QString text = it.value().toString();
        bool ok = true;
        auto toInt = [&](int min) {
            const int v = text.toInt(&ok);
            if (ok && v < min)
                ok = false;
            return v;
        };
        auto toDouble = [&]() { return text.toDouble(&ok); };
        if (key == QLatin1String("init_samples"))
            p.initSamples = toInt(1);
        else if (key == QLatin1String("init_hypotheses"))
            p.initHypotheses = toInt(1);
        else if (key == QLatin1String("per_call"))
            p.hypothesesPerCall = toInt(1);
        else if (key == QLatin1String("k"))
            p.topK = toInt(1);
        else if (key == QLatin1String("theta"))
            p.theta = toDouble();
        else if (key == QLatin1String("alpha"))
            p.alpha = toDouble();
        else if (key == QLatin1String("a"))
            p.a = toDouble();
        else if (key == QLatin1String("b"))
            p.b = toDouble();
        else if (key == QLatin1String("w_hyp"))
            p.wHyp = toInt(1);
        else if (key == QLatin1String("w_max"))
            p.wMax = toInt(1);
        else if (key == QLatin1String("refine_rounds"))
            p.refineRounds = toInt(0);
        else if (key == QLatin1String("h_max"))
            p.hMax = toInt(2);
        else if (key == QLatin1String("h_ev"))
            p.hEv = toInt(1);
        else if (key == QLatin1String("seed"))
            p.seed = quint32(text.toUInt(&ok));
        else if (key == QLatin1String("merge")) {
            ok = text == QLatin1String("top") || text == QLatin1String("all");
            p.mergeWholeBank = text == QLatin1String("all");
        } else if (key == QLatin1String("scale_min"))
            p.scaleMin = toDouble();
        else if (key == QLatin1String("scale_max"))
            p.scaleMax = toDouble();
        else if (key == QLatin1String("temperature"))
            p.temperature = toDouble();
        else if (key == QLatin1String("max_tokens"))
            p.maxTokens = toInt(1);
        else if (key == QLatin1String("min_parsed"))
            p.minParsed = toInt(0);
        else if (key == QLatin1String("min_hypotheses"))
            p.minHypotheses = toInt(0);
        else if (key == QLatin1String("literature")) {
            // the literature folder (--literature), read by the method
        } else
            return bad(it.key(), QCoreApplication::translate("HypoEvalParams", "unknown (known: %1)")
                                         .arg(keys().join(QStringLiteral(", "))));
        if (!ok)
            return bad(it.key(), QCoreApplication::translate("HypoEvalParams", "bad value '%1'").arg(text));
    }
    if (p.scaleMax <= p.scaleMin)
        return bad(QStringLiteral("scale_max"),
                   QCoreApplication::translate("HypoEvalParams", "must be above scale_min"));
    return p;
}

} // namespace rubric
