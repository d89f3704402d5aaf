#include "CheckEvalParams.h"

#include <QCoreApplication>

namespace rubric {

QStringList CheckEvalParams::keys()
{
    return {QStringLiteral("group"),         QStringLiteral("augment"),        QStringLiteral("filter"),
            QStringLiteral("elaborate_min"), QStringLiteral("elaborate_max"),  QStringLiteral("temperature"),
            QStringLiteral("max_tokens"),    QStringLiteral("weights"),        QStringLiteral("missing"),
            QStringLiteral("checklist"),     QStringLiteral("checklist_from"), QStringLiteral("seed"),
            QStringLiteral("benchmark")};
}

QString CheckEvalParams::groupName() const
{
    switch (group) {
    case Group::Aspect:
        return QStringLiteral("aspect");
    case Group::Question:
        return QStringLiteral("question");
    case Group::SubAspect:
        break;
    }
    return QStringLiteral("sub-aspect");
}

QString CheckEvalParams::augmentName() const
{
    if (diversify && elaborate)
        return QStringLiteral("both");
    if (diversify)
        return QStringLiteral("diversify");
    return elaborate ? QStringLiteral("elaborate") : QStringLiteral("none");
}

QVariantMap CheckEvalParams::toMap() const
{
    return {{QStringLiteral("group"), groupName()},
            {QStringLiteral("augment"), augmentName()},
            {QStringLiteral("filter"), filter ? QStringLiteral("on") : QStringLiteral("off")},
            {QStringLiteral("elaborate_min"), elaborateMin},
            {QStringLiteral("elaborate_max"), elaborateMax},
            {QStringLiteral("temperature"), temperature},
            {QStringLiteral("max_tokens"), maxTokens},
            {QStringLiteral("weights"), regression ? QStringLiteral("regression") : QStringLiteral("uniform")},
            {QStringLiteral("missing"), missingIsNo ? QStringLiteral("no") : QStringLiteral("skip")},
            {QStringLiteral("checklist"), checklist},
            {QStringLiteral("checklist_from"), checklistFrom},
            {QStringLiteral("seed"), seed ? QVariant(*seed) : QVariant(QStringLiteral("none"))},
            {QStringLiteral("benchmark"), benchmark}};
}

Result<CheckEvalParams> CheckEvalParams::fromSettings(const QVariantMap &settings)
{
    CheckEvalParams p;
    const auto bad = [](const QString &key, const QString &why) {
        return makeError(QCoreApplication::translate("CheckEvalParams", "CheckEval parameter %1: %2").arg(key, why), {},
                         0, key);
    };
    bool filterSet = false;
    for (auto it = settings.begin(); it != settings.end(); ++it) {
        QString key = it.key();
        if (key.startsWith(QLatin1String("checkeval.")))
            key = key.mid(10);
        const QString text = it.value().toString().trimmed();
        bool ok = true;
        const auto oneOf = [&](std::initializer_list<const char *> values) {
            for (const char *v : values)
                if (text == QLatin1String(v))
                    return true;
            ok = false;
            return false;
        };
        const auto toInt = [&](int min, int max) {
            const int v = text.toInt(&ok);
            if (ok && (v < min || v > max))
                ok = false;
            return v;
        };
        if (key == QLatin1String("group")) {
            if (oneOf({"sub-aspect", "aspect", "question"}))
                p.group = text == QLatin1String("aspect")     ? Group::Aspect
                          : text == QLatin1String("question") ? Group::Question
                                                              : Group::SubAspect;
        } else if (key == QLatin1String("augment")) {
            if (oneOf({"none", "diversify", "elaborate", "both"})) {
                p.diversify = text == QLatin1String("diversify") || text == QLatin1String("both");
                p.elaborate = text == QLatin1String("elaborate") || text == QLatin1String("both");
            }
        } else if (key == QLatin1String("filter")) {
            if (oneOf({"auto", "on", "off"}) && text != QLatin1String("auto")) {
                p.filter = text == QLatin1String("on");
                filterSet = true;
            }
        } else if (key == QLatin1String("elaborate_min"))
            p.elaborateMin = toInt(1, 50);
        else if (key == QLatin1String("elaborate_max"))
            p.elaborateMax = toInt(1, 50);
        else if (key == QLatin1String("temperature")) {
            p.temperature = text.toDouble(&ok);
            ok = ok && p.temperature >= 0 && p.temperature <= 2;
        } else if (key == QLatin1String("max_tokens"))
            p.maxTokens = toInt(1, 100000);
        else if (key == QLatin1String("weights")) {
            if (oneOf({"uniform", "regression"}))
                p.regression = text == QLatin1String("regression");
        } else if (key == QLatin1String("missing")) {
            if (oneOf({"skip", "no"}))
                p.missingIsNo = text == QLatin1String("no");
        } else if (key == QLatin1String("checklist"))
            p.checklist = text;
        else if (key == QLatin1String("checklist_from"))
            p.checklistFrom = text;
        else if (key == QLatin1String("seed")) {
            if (text == QLatin1String("none"))
                p.seed.reset();
            else
                p.seed = text.toLongLong(&ok);
        } else if (key == QLatin1String("benchmark"))
            p.benchmark = text;
        else
            return bad(it.key(), QCoreApplication::translate("CheckEvalParams", "unknown (known: %1)")
                                         .arg(keys().join(QStringLiteral(", "))));
        if (!ok)
            return bad(it.key(), QCoreApplication::translate("CheckEvalParams", "bad value '%1'").arg(text));
    }
    if (!filterSet)
        p.filter = p.augmenting();
    if (p.elaborateMax < p.elaborateMin)
        return bad(QStringLiteral("elaborate_max"),
                   QCoreApplication::translate("CheckEvalParams", "must be at least elaborate_min (%1)")
                           .arg(p.elaborateMin));
    if (!p.checklist.isEmpty() && !p.checklistFrom.isEmpty())
        return bad(QStringLiteral("checklist_from"),
                   QCoreApplication::translate("CheckEvalParams", "give either checklist or checklist_from, not both"));
    return p;
}

} // namespace rubric
