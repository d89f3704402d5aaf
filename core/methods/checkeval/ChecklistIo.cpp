#include "ChecklistIo.h"

#include "Checklist.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <array>
#include <yaml-cpp/yaml.h>

namespace rubric {

namespace {

const QString kMethod = QStringLiteral("checkeval");
const QString kRootKey = QStringLiteral("aspect");
constexpr std::array<const char *, 3> kStages{"seed", "diversification", "elaboration"};

QString stageFromFileName(const QString &baseName, QString *aspect)
{
    for (const char *stage : kStages) {
        const QString suffix = QLatin1Char('_') + QLatin1String(stage);
        if (baseName.endsWith(suffix)) {
            *aspect = baseName.chopped(int(suffix.size()));
            return QLatin1String(stage);
        }
    }
    *aspect = baseName;
    return {};
}

/// Upstream's make_question_list: strip, split on '?', keep the non-empty parts, each + '?'.
/// Runs of white space inside a question become one space (a folded YAML scalar has none).
QStringList splitQuestions(const QString &text)
{
    QStringList out;
    for (const QString &part : text.trimmed().split(QLatin1Char('?'))) {
        const QString q = part.simplified();
        if (!q.isEmpty())
            out.append(q + QLatin1Char('?'));
    }
    return out;
}

QString str(const std::string &s)
{
    return QString::fromStdString(s);
}

int lineOf(const YAML::Node &node)
{
    return node.Mark().line >= 0 ? node.Mark().line + 1 : 0;
}

Criterion question(const QString &key, const QString &parent, const QString &text, const QVariantMap &origin)
{
    Criterion c;
    c.key = key;
    c.parentKey = parent;
    c.kind = CriterionKind::Question;
    c.text = text;
    c.origin = origin;
    return c;
}

} // namespace

Result<Rubric> ChecklistIo::readYaml(const QByteArray &text, const QString &fileName, const QString &aspect,
                                     const QString &stage, const QString &source)
{
    YAML::Node doc;
    try {
        doc = YAML::Load(text.toStdString());
    } catch (const YAML::Exception &e) {
        return makeError(tr("not valid YAML: %1 (column %2)").arg(str(e.msg)).arg(e.mark.column + 1), fileName,
                         e.mark.line >= 0 ? e.mark.line + 1 : 0);
    }
    try {
        if (!doc.IsMap())
            return makeError(tr("a CheckEval checklist is a map with 'definition' and 'sub_aspect'"), fileName,
                             lineOf(doc));
        const YAML::Node def = doc["definition"];
        if (!def)
            return makeError(tr("the aspect definition is missing"), fileName, 0, QStringLiteral("definition"));
        QString definition;
        if (def.IsScalar()) {
            definition = str(def.as<std::string>());
        } else if (def.IsMap() && def.size() == 1) {
            const auto it = def.begin();
            if (!it->second.IsScalar())
                return makeError(tr("the definition must be text"), fileName, lineOf(it->second),
                                 QStringLiteral("definition.") + str(it->first.as<std::string>()));
            definition = str(it->second.as<std::string>());
        } else {
            return makeError(tr("the definition must be text or one {dataset: text} entry"), fileName, lineOf(def),
                             QStringLiteral("definition"));
        }
        definition = definition.simplified();
        if (definition.isEmpty())
            return makeError(tr("the aspect definition is empty"), fileName, lineOf(def), QStringLiteral("definition"));

        const YAML::Node subs = doc["sub_aspect"];
        if (!subs)
            return makeError(tr("there are no questions ('sub_aspect' is missing)"), fileName, 0,
                             QStringLiteral("sub_aspect"));
        if (!subs.IsMap() || subs.size() == 0)
            return makeError(tr("'sub_aspect' must map each sub-aspect name to its questions"), fileName, lineOf(subs),
                             QStringLiteral("sub_aspect"));

        Rubric r(kMethod, aspect);
        Criterion root;
        root.key = kRootKey;
        root.kind = CriterionKind::Aspect;
        root.text = aspect;
        root.definition = definition;
        root.origin = {{QStringLiteral("method"), kMethod}, {QStringLiteral("source"), source}};
        r.add(root);
        QVector<Criterion> questions;
        QSet<QString> names;
        int s = 0;
        for (const auto &entry : subs) {
            const QString name = str(entry.first.as<std::string>()).simplified();
            const QString field = QStringLiteral("sub_aspect.") + name;
            if (name.isEmpty())
                return makeError(tr("a sub-aspect has no name"), fileName, lineOf(entry.first),
                                 QStringLiteral("sub_aspect"));
            if (names.contains(name))
                return makeError(tr("the sub-aspect appears twice"), fileName, lineOf(entry.first), field);
            names.insert(name);
            QStringList texts;
            if (entry.second.IsScalar()) {
                texts = splitQuestions(str(entry.second.as<std::string>()));
            } else if (entry.second.IsSequence()) {
                for (const auto &item : entry.second) {
                    if (!item.IsScalar())
                        return makeError(tr("each question must be text"), fileName, lineOf(item), field);
                    texts += splitQuestions(str(item.as<std::string>()));
                }
            } else if (!entry.second.IsNull()) {
                return makeError(tr("the questions must be text (separated by '?') or a list"), fileName,
                                 lineOf(entry.second), field);
            }
            if (texts.isEmpty())
                return makeError(tr("the sub-aspect has no questions"), fileName, lineOf(entry.first), field);
            const QString sKey = QStringLiteral("s%1").arg(++s);
            Criterion sub;
            sub.key = sKey;
            sub.parentKey = kRootKey;
            sub.kind = CriterionKind::SubAspect;
            sub.text = name;
            sub.origin = {{QStringLiteral("method"), kMethod}, {QStringLiteral("source"), source}};
            r.add(sub);
            for (const QString &t : std::as_const(texts)) {
                QVariantMap origin{{QStringLiteral("method"), kMethod}, {QStringLiteral("source"), source}};
                if (!stage.isEmpty())
                    origin.insert(QStringLiteral("stage"), stage);
                questions.append(question(QStringLiteral("q%1").arg(questions.size() + 1), sKey, t, origin));
            }
        }
        for (const Criterion &q : std::as_const(questions))
            r.add(q);
        return r;
    } catch (const YAML::Exception &e) {
        return makeError(tr("unexpected YAML content: %1").arg(str(e.msg)), fileName,
                         e.mark.line >= 0 ? e.mark.line + 1 : 0);
    }
}

Result<Rubric> ChecklistIo::readJson(const QByteArray &text, const QString &fileName)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &pe);
    if (pe.error != QJsonParseError::NoError) {
        const int line = int(text.left(pe.offset).count('\n')) + 1;
        return makeError(tr("not valid JSON: %1").arg(pe.errorString()), fileName, line);
    }
    if (!doc.isObject())
        return makeError(tr("a rubric export is a JSON object"), fileName);
    const QJsonObject o = doc.object();
    const auto needString
            = [&](const QJsonObject &obj, const QString &key, const QString &field, bool required) -> Result<QString> {
        const QJsonValue v = obj.value(key);
        if (v.isUndefined() || v.isNull()) {
            if (required)
                return makeError(tr("missing"), fileName, 0, field);
            return QString();
        }
        if (!v.isString())
            return makeError(tr("must be a string"), fileName, 0, field);
        return v.toString();
    };
    auto method = needString(o, QStringLiteral("method"), QStringLiteral("method"), true);
    if (!method)
        return method.error();
    auto aspect = needString(o, QStringLiteral("aspect"), QStringLiteral("aspect"), true);
    if (!aspect)
        return aspect.error();
    Rubric r(*method, *aspect);
    const QJsonValue version = o.value(QStringLiteral("version"));
    if (!version.isUndefined()) {
        if (!version.isDouble() || version.toDouble() < 0 || version.toDouble() != double(version.toInt()))
            return makeError(tr("must be a whole number ≥ 0"), fileName, 0, QStringLiteral("version"));
        r.setVersion(version.toInt());
    }
    const QJsonValue list = o.value(QStringLiteral("criteria"));
    if (!list.isArray() || list.toArray().isEmpty())
        return makeError(tr("must be a non-empty list of criteria"), fileName, 0, QStringLiteral("criteria"));
    QSet<QString> keys;
    const QJsonArray arr = list.toArray();
    for (qsizetype i = 0; i < arr.size(); ++i) {
        const QString at = QStringLiteral("criteria[%1]").arg(i);
        if (!arr.at(i).isObject())
            return makeError(tr("must be an object"), fileName, 0, at);
        const QJsonObject c = arr.at(i).toObject();
        Criterion crit;
        auto id = needString(c, QStringLiteral("id"), at + QStringLiteral(".id"), true);
        if (!id)
            return id.error();
        if (id->isEmpty() || keys.contains(*id))
            return makeError(id->isEmpty() ? tr("empty") : tr("'%1' is used twice").arg(*id), fileName, 0,
                             at + QStringLiteral(".id"));
        auto parent = needString(c, QStringLiteral("parent"), at + QStringLiteral(".parent"), false);
        if (!parent)
            return parent.error();
        if (!parent->isEmpty() && !keys.contains(*parent))
            return makeError(tr("'%1' is not a criterion listed before this one").arg(*parent), fileName, 0,
                             at + QStringLiteral(".parent"));
        auto kind = needString(c, QStringLiteral("kind"), at + QStringLiteral(".kind"), true);
        if (!kind)
            return kind.error();
        if (!parseCriterionKind(*kind, &crit.kind))
            return makeError(tr("unknown kind '%1'").arg(*kind), fileName, 0, at + QStringLiteral(".kind"));
        auto txt = needString(c, QStringLiteral("text"), at + QStringLiteral(".text"), true);
        if (!txt)
            return txt.error();
        auto definition = needString(c, QStringLiteral("definition"), at + QStringLiteral(".definition"), false);
        if (!definition)
            return definition.error();
        const QJsonValue enabled = c.value(QStringLiteral("enabled"));
        if (!enabled.isUndefined() && !enabled.isBool())
            return makeError(tr("must be true or false"), fileName, 0, at + QStringLiteral(".enabled"));
        const QJsonValue weight = c.value(QStringLiteral("weight"));
        if (!weight.isUndefined() && !weight.isDouble())
            return makeError(tr("must be a number"), fileName, 0, at + QStringLiteral(".weight"));
        for (const char *mapField : {"origin", "stats"}) {
            const QJsonValue v = c.value(QLatin1String(mapField));
            if (!v.isUndefined() && !v.isNull() && !v.isObject())
                return makeError(tr("must be an object"), fileName, 0, at + QLatin1Char('.') + QLatin1String(mapField));
        }
        crit.key = *id;
        crit.parentKey = *parent;
        crit.text = *txt;
        crit.definition = *definition;
        crit.enabled = enabled.isUndefined() || enabled.toBool();
        crit.weight = weight.isUndefined() ? 1.0 : weight.toDouble();
        crit.origin = c.value(QStringLiteral("origin")).toObject().toVariantMap();
        crit.stats = c.value(QStringLiteral("stats")).toObject().toVariantMap();
        keys.insert(crit.key);
        r.add(crit);
    }
    return r;
}

Result<Rubric> ChecklistIo::readMarkdown(const QString &text, const QString &fileName)
{
    // What RubricExport::toMarkdown writes: "# <method> rubric for <aspect> (version N)", then
    // "## <aspect>", the definition paragraph, and the criteria as a nested list (two spaces per
    // level) of "- **key** (kind[, not used]): text", disabled texts in ~~…~~, each optionally
    // followed by an indented "<br>*stats*" line.
    static const QRegularExpression header(QStringLiteral(R"(^#\s+(\S+)\s.*\((?:\D*)(\d+)\)\s*$)"));
    static const QRegularExpression item(QStringLiteral(R"(^( *)- \*\*(.+?)\*\* \(([a-z-]+)(?:, [^)]*)?\): (.*)$)"));
    static const QRegularExpression statsLine(QStringLiteral(R"(^ *<br>\*.*\*\s*$)"));
    // RubricExport escapes what would start markup (markup::markdown): undone here.
    static const QRegularExpression escaped(QStringLiteral(R"(\\([\\`*_\[\]<>|~#&]))"));
    const auto unescape = [](QString s) { return s.replace(escaped, QStringLiteral("\\1")); };
    const QStringList lines = text.split(QLatin1Char('\n'));
    QString method;
    int version = 0;
    Rubric r;
    bool haveRoot = false;
    bool inList = false;
    QStringList definition;
    QVector<QString> parents; // parents[d] = key of the last item at depth d
    QSet<QString> keys;
    QVector<Criterion> items;
    Criterion root;
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed().isEmpty() ? QString() : lines.at(i);
        const int lineNo = i + 1;
        if (line.isEmpty())
            continue;
        if (method.isEmpty()) {
            const auto m = header.match(line);
            if (!m.hasMatch())
                return makeError(tr("expected the export's title line '# <method> rubric for <aspect> (version N)'"),
                                 fileName, lineNo);
            method = unescape(m.captured(1));
            version = m.captured(2).toInt();
            continue;
        }
        if (line.startsWith(QLatin1String("## "))) {
            if (haveRoot)
                return makeError(tr("a second aspect heading; a checklist has one aspect"), fileName, lineNo);
            haveRoot = true;
            root.key = kRootKey;
            root.kind = CriterionKind::Aspect;
            root.text = unescape(line.mid(3).trimmed());
            continue;
        }
        if (const auto m = item.match(line); m.hasMatch()) {
            if (!haveRoot)
                return makeError(tr("a list item before the aspect heading"), fileName, lineNo);
            inList = true;
            const int indent = int(m.captured(1).size());
            if (indent % 2 != 0 || indent / 2 > parents.size())
                return makeError(tr("the list item is indented by %1 spaces; expected a multiple of 2 at most one "
                                    "level deeper than the item above")
                                         .arg(indent),
                                 fileName, lineNo);
            const int depth = indent / 2;
            Criterion c;
            c.key = unescape(m.captured(2));
            if (keys.contains(c.key))
                return makeError(tr("the key '%1' is used twice").arg(c.key), fileName, lineNo);
            if (!parseCriterionKind(m.captured(3), &c.kind))
                return makeError(tr("unknown kind '%1'").arg(m.captured(3)), fileName, lineNo);
            QString t = m.captured(4);
            if (t.size() >= 4 && t.startsWith(QLatin1String("~~")) && t.endsWith(QLatin1String("~~"))) {
                c.enabled = false;
                t = t.mid(2, t.size() - 4);
            }
            c.text = unescape(t);
            c.parentKey = depth == 0 ? kRootKey : parents.at(depth - 1);
            parents.resize(depth + 1);
            parents[depth] = c.key;
            keys.insert(c.key);
            items.append(c);
            continue;
        }
        if (inList && statsLine.match(line).hasMatch())
            continue;
        if (haveRoot && !inList) {
            definition.append(unescape(line.trimmed()));
            continue;
        }
        return makeError(tr("unexpected line: '%1'").arg(line.trimmed().left(60)), fileName, lineNo);
    }
    if (method.isEmpty())
        return makeError(tr("the file is empty"), fileName);
    if (!haveRoot)
        return makeError(tr("no aspect heading ('## <aspect>')"), fileName);
    root.definition = definition.join(QLatin1Char(' '));
    r = Rubric(method, root.text);
    r.setVersion(version);
    r.add(root);
    for (const Criterion &c : std::as_const(items))
        r.add(c);
    return r;
}

Result<void> ChecklistIo::validate(const Rubric &rubric, const QString &fileName)
{
    const QVector<Criterion> roots = rubric.children(QString());
    if (roots.size() != 1 || roots.first().kind != CriterionKind::Aspect)
        return makeError(tr("a checklist has exactly one root, of kind aspect"), fileName, 0,
                         QStringLiteral("criteria"));
    const Criterion &root = roots.first();
    if (root.text.trimmed().isEmpty())
        return makeError(tr("the aspect has no name"), fileName, 0, root.key);
    QSet<QString> keys;
    int questions = 0;
    for (const Criterion &c : rubric.criteria()) {
        if (keys.contains(c.key))
            return makeError(tr("the key is used twice"), fileName, 0, c.key);
        keys.insert(c.key);
        if (c.text.trimmed().isEmpty())
            return makeError(tr("empty text"), fileName, 0, c.key);
        const Criterion *parent = c.parentKey.isEmpty() ? nullptr : rubric.find(c.parentKey);
        if (c.kind == CriterionKind::SubAspect && (!parent || parent->kind != CriterionKind::Aspect))
            return makeError(tr("a sub-aspect must sit under the aspect"), fileName, 0, c.key);
        if (c.kind == CriterionKind::Question) {
            if (!parent || parent->kind != CriterionKind::SubAspect)
                return makeError(tr("a question must sit under a sub-aspect"), fileName, 0, c.key);
            ++questions;
        }
        if (c.kind != CriterionKind::Aspect && c.kind != CriterionKind::SubAspect && c.kind != CriterionKind::Question)
            return makeError(tr("a checklist holds aspect, sub-aspect and question only, not '%1'")
                                     .arg(criterionKindName(c.kind)),
                             fileName, 0, c.key);
    }
    if (questions == 0)
        return makeError(tr("the checklist has no questions"), fileName, 0, QStringLiteral("criteria"));
    return {};
}

Result<Rubric> ChecklistIo::readFile(const QString &path, const QString &aspect)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(tr("cannot read the file: %1").arg(f.errorString()), path);
    const QByteArray bytes = f.readAll();
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    Result<Rubric> r = makeError(QString());
    if (suffix == QLatin1String("yaml") || suffix == QLatin1String("yml")) {
        QString fromName;
        QString stage = stageFromFileName(info.completeBaseName(), &fromName);
        if (stage.isEmpty())
            stage = QStringLiteral("seed");
        r = readYaml(bytes, path, aspect.isEmpty() ? fromName : aspect, stage, path);
    } else if (suffix == QLatin1String("json")) {
        r = readJson(bytes, path);
    } else if (suffix == QLatin1String("md") || suffix == QLatin1String("markdown")) {
        r = readMarkdown(QString::fromUtf8(bytes), path);
    } else {
        return makeError(tr("unknown checklist format '.%1' (expected .yaml, .yml, .json or .md)").arg(suffix), path);
    }
    if (!r)
        return r;
    if (auto v = validate(*r, path); !v)
        return v.error();
    return r;
}

Result<Rubric> ChecklistIo::load(const QString &spec, const QString &aspect)
{
    if (spec.startsWith(QLatin1String("preset:")))
        return preset(spec.mid(int(qstrlen("preset:"))));
    if (spec.trimmed().isEmpty())
        return makeError(tr("no checklist given (a file, or preset:<dataset>/<aspect>[/<stage>])"), {}, 0,
                         QStringLiteral("checklist"));
    return readFile(spec, aspect);
}

// --- presets

QStringList ChecklistIo::presetNames()
{
    QStringList out;
    const QDir base(QStringLiteral(":/checklists"));
    for (const QString &dataset : base.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        for (const QString &file : QDir(base.filePath(dataset)).entryList({QStringLiteral("*.yaml")}, QDir::Files)) {
            QString aspect;
            const QString stage = stageFromFileName(QFileInfo(file).completeBaseName(), &aspect);
            if (stage.isEmpty())
                continue;
            out.append(dataset + QLatin1Char('/') + aspect + QLatin1Char('/') + stage);
            if (!out.contains(dataset + QLatin1Char('/') + aspect))
                out.append(dataset + QLatin1Char('/') + aspect);
        }
    }
    out.sort();
    return out;
}

int ChecklistIo::paperFinalCount(const QString &name)
{
    // Lee et al., Tables 17 (SummEval) and 18 (Topical-Chat), row "Final Checklist".
    static const QHash<QString, int> finals{
            {QStringLiteral("summeval/coherence"), 23},        {QStringLiteral("summeval/consistency"), 29},
            {QStringLiteral("summeval/fluency"), 35},          {QStringLiteral("summeval/relevance"), 26},
            {QStringLiteral("topical_chat/naturalness"), 28},  {QStringLiteral("topical_chat/coherence"), 20},
            {QStringLiteral("topical_chat/engagingness"), 31}, {QStringLiteral("topical_chat/groundedness"), 26}};
    return finals.value(name, 0);
}

QString ChecklistIo::presetDescription(const QString &name)
{
    const auto r = preset(name);
    if (!r)
        return {};
    const int n = int(r->ofKind(CriterionKind::Question).size());
    if (name.count(QLatin1Char('/')) == 2)
        return tr("the published %1 file alone: %2 questions").arg(name.section(QLatin1Char('/'), 2)).arg(n);
    const int paper = paperFinalCount(name);
    const QString what = tr("unfiltered union of the seed, diversification and elaboration files: %1 questions").arg(n);
    if (paper == 0)
        return what;
    if (paper == n)
        return tr("%1 (the paper's final checklist also has %2)").arg(what).arg(paper);
    return tr("%1; the paper's final checklist has %2 (Tables 17–18: after its filter; that list is not published)")
            .arg(what)
            .arg(paper);
}

QByteArray ChecklistIo::presetYaml(const QString &name)
{
    const QStringList parts = name.split(QLatin1Char('/'));
    if (parts.size() != 3)
        return {};
    QFile f(QStringLiteral(":/checklists/%1/%2_%3.yaml").arg(parts.at(0), parts.at(1), parts.at(2)));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

Result<Rubric> ChecklistIo::preset(const QString &name)
{
    const QStringList parts = name.split(QLatin1Char('/'));
    if ((parts.size() != 2 && parts.size() != 3) || !presetNames().contains(name))
        return makeError(
                tr("no checklist preset named '%1' (known: %2)").arg(name, presetNames().join(QStringLiteral(", "))),
                {}, 0, QStringLiteral("preset"));
    const QString dataset = parts.at(0);
    const QString aspect = parts.at(1);
    const auto load = [&](const QString &stage) {
        const QString stageName = dataset + QLatin1Char('/') + aspect + QLatin1Char('/') + stage;
        return readYaml(presetYaml(stageName), QStringLiteral(":/checklists/%1/%2_%3.yaml").arg(dataset, aspect, stage),
                        aspect, stage, QStringLiteral("preset:") + stageName);
    };
    const Result<Rubric> seed = load(QStringLiteral("seed"));
    if (!seed)
        return seed.error();
    // The seed questions by normalised text, and the single seed of each sub-aspect (by name)
    // where it has one: augmented questions point to it as their parent seed.
    QHash<QString, QString> seedTexts;
    for (const Criterion &q : seed->ofKind(CriterionKind::Question))
        seedTexts.insert(Checklist::normaliseQuestion(q.text), q.key);
    QStringList stages;
    if (parts.size() == 3)
        stages << parts.at(2);
    else
        for (const char *s : kStages)
            stages << QLatin1String(s);

    struct Entry
    {
        QString text;
        QVariantMap origin;
        QString seedText; ///< normalised text of its parent seed, when known
    };
    QStringList subNames;
    QHash<QString, QVector<Entry>> bySub;
    QHash<QString, QString> seedOfSub; // sub-aspect name -> normalised text of its only seed
    for (const Criterion &s : seed->ofKind(CriterionKind::SubAspect)) {
        const QVector<Criterion> qs = seed->children(s.key);
        if (qs.size() == 1)
            seedOfSub.insert(s.text, Checklist::normaliseQuestion(qs.first().text));
    }
    QSet<QString> seen;
    QString definition = seed->children(QString()).first().definition;
    for (const QString &stage : std::as_const(stages)) {
        const Result<Rubric> file = stage == QLatin1String("seed") ? seed : load(stage);
        if (!file)
            return file.error();
        if (parts.size() == 3)
            definition = file->children(QString()).first().definition;
        for (const Criterion &s : file->ofKind(CriterionKind::SubAspect)) {
            if (!subNames.contains(s.text))
                subNames.append(s.text);
            for (const Criterion &q : file->children(s.key)) {
                const QString norm = Checklist::normaliseQuestion(q.text);
                if (seen.contains(norm))
                    continue; // the same question again (augmented files repeat their seeds)
                seen.insert(norm);
                Entry e{q.text, q.origin, {}};
                if (seedTexts.contains(norm))
                    e.origin.insert(QStringLiteral("stage"), QStringLiteral("seed"));
                else
                    e.seedText = seedOfSub.value(s.text);
                bySub[s.text].append(e);
            }
        }
    }

    Rubric r(kMethod, aspect);
    Criterion root;
    root.key = kRootKey;
    root.kind = CriterionKind::Aspect;
    root.text = aspect;
    root.definition = definition;
    root.origin = {{QStringLiteral("method"), kMethod},
                   {QStringLiteral("source"), QString(QStringLiteral("preset:") + name)}};
    r.add(root);
    QHash<QString, QString> keyOfText; // normalised seed text -> its key in the new rubric
    QVector<Criterion> questions;
    for (int i = 0; i < subNames.size(); ++i) {
        Criterion sub;
        sub.key = QStringLiteral("s%1").arg(i + 1);
        sub.parentKey = kRootKey;
        sub.kind = CriterionKind::SubAspect;
        sub.text = subNames.at(i);
        sub.origin = root.origin;
        r.add(sub);
        for (const Entry &e : bySub.value(subNames.at(i))) {
            Criterion q = question(QStringLiteral("q%1").arg(questions.size() + 1), sub.key, e.text, e.origin);
            if (e.origin.value(QStringLiteral("stage")).toString() == QLatin1String("seed"))
                keyOfText.insert(Checklist::normaliseQuestion(e.text), q.key);
            questions.append(q);
        }
    }
    // Link augmented questions to their sub-aspect's only seed (when that seed is in this rubric).
    int qi = 0;
    for (int i = 0; i < subNames.size(); ++i)
        for (const Entry &e : bySub.value(subNames.at(i))) {
            Criterion &q = questions[qi++];
            if (!e.seedText.isEmpty() && keyOfText.contains(e.seedText))
                q.origin.insert(QStringLiteral("seed"), keyOfText.value(e.seedText));
        }
    for (const Criterion &q : std::as_const(questions))
        r.add(q);
    return r;
}

} // namespace rubric
