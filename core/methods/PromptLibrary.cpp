#include "PromptLibrary.h"

#include "data/Aspect.h"
#include "store/Project.h"
#include "store/PromptStore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QRegularExpression>

#include <cmath>
#include <kainjow/mustache.hpp>

namespace rubric {
namespace {

namespace mus = kainjow::mustache;

QString tr(const char *text)
{
    return QCoreApplication::translate("PromptLibrary", text);
}

QString hashOf(const QString &body)
{
    return QString::fromLatin1(QCryptographicHash::hash(body.toUtf8(), QCryptographicHash::Sha256).toHex().left(16));
}

mus::data toData(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::QVariantMap: {
        mus::data obj{mus::data::type::object};
        const QVariantMap m = v.toMap();
        for (auto it = m.begin(); it != m.end(); ++it)
            obj.set(it.key().toStdString(), toData(it.value()));
        return obj;
    }
    case QMetaType::QVariantList:
    case QMetaType::QStringList: {
        mus::data list{mus::data::type::list};
        for (const QVariant &x : v.toList())
            list.push_back(toData(x));
        return list;
    }
    case QMetaType::Bool:
        return mus::data(v.toBool());
    case QMetaType::Double:
    case QMetaType::Float: {
        const double d = v.toDouble();
        return mus::data(QString::number(d, 'g', 6).toStdString());
    }
    default:
        return mus::data(v.toString().toStdString());
    }
}

struct Sections
{
    QString system;
    QString user;
};

std::optional<Sections> split(const QString &body)
{
    static const QRegularExpression marker(QStringLiteral("^=== (system|user) ===[ \\t]*$"),
                                           QRegularExpression::MultilineOption);
    Sections s;
    bool seenSystem = false, seenUser = false;
    auto it = marker.globalMatch(body);
    QString current;
    qsizetype start = -1;
    auto flush = [&](qsizetype end) {
        if (start < 0)
            return;
        QString text = body.mid(start, end - start);
        if (text.startsWith(QLatin1Char('\n')))
            text.remove(0, 1);
        (current == QLatin1String("system") ? s.system : s.user) = text.trimmed();
    };
    while (it.hasNext()) {
        const auto m = it.next();
        flush(m.capturedStart());
        current = m.captured(1);
        (current == QLatin1String("system") ? seenSystem : seenUser) = true;
        start = m.capturedEnd();
    }
    flush(body.size());
    if (!seenSystem || !seenUser)
        return std::nullopt;
    return s;
}

} // namespace

PromptLibrary::PromptLibrary(Project *project)
    : m_project(project)
{
}

QStringList PromptLibrary::builtinNames()
{
    QStringList out;
    const QStringList files
            = QDir(QStringLiteral(":/prompts")).entryList({QStringLiteral("*.mustache")}, QDir::Files, QDir::Name);
    for (const QString &f : files)
        out.append(f.chopped(int(qstrlen(".mustache"))));
    return out;
}

Result<PromptTemplate> PromptLibrary::builtin(const QString &name)
{
    // The built-in templates are part of the program: read and hashed once (a run asks for its
    // template once per request).
    static QMutex mutex;
    static QHash<QString, PromptTemplate> known;
    QMutexLocker lock(&mutex);
    if (const auto it = known.constFind(name); it != known.constEnd())
        return *it;
    QFile f(QStringLiteral(":/prompts/%1.mustache").arg(name));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(tr("no built-in prompt template named '%1'").arg(name), {}, 0, QStringLiteral("template"));
    PromptTemplate t;
    t.name = name;
    t.body = QString::fromUtf8(f.readAll());
    t.source = QStringLiteral("builtin");
    t.hash = hashOf(t.body);
    known.insert(name, t);
    return t;
}

Result<PromptTemplate> PromptLibrary::get(const QString &name) const
{
    if (m_project) {
        // A failed read (locked or damaged file) is an error, not "no edited copy": falling back to
        // the built-in template would silently run a prompt the user did not choose.
        const auto body = PromptStore(m_project).readOverride(name);
        if (!body)
            return makeError(tr("cannot read the project's prompt template '%1': %2").arg(name, body.errorString()),
                             m_project->path());
        if (*body) {
            PromptTemplate t;
            t.name = name;
            t.body = **body;
            t.source = QStringLiteral("project");
            t.hash = hashOf(t.body);
            return t;
        }
    }
    return builtin(name);
}

Result<void> PromptLibrary::validate(const QString &body)
{
    const auto sections = split(body);
    if (!sections)
        return makeError(tr("a prompt template needs a '=== system ===' and a '=== user ===' line"), {}, 0,
                         QStringLiteral("template"));
    for (const QString &part : {sections->system, sections->user}) {
        mus::mustache tmpl{part.toStdString()};
        if (!tmpl.is_valid())
            return makeError(tr("template syntax: %1").arg(QString::fromStdString(tmpl.error_message())), {}, 0,
                             QStringLiteral("template"));
    }
    return {};
}

Result<void> PromptLibrary::setOverride(const QString &name, const QString &body)
{
    if (!m_project)
        return makeError(tr("no project to store the template in"));
    if (auto v = validate(body); !v)
        return v;
    return PromptStore(m_project).setOverride(name, body);
}

Result<void> PromptLibrary::removeOverride(const QString &name)
{
    if (!m_project)
        return makeError(tr("no project to store the template in"));
    return PromptStore(m_project).removeOverride(name);
}

struct PromptLibrary::Compiled
{
    QString error; ///< the template cannot be used (no sections, bad syntax)
    bool noSections = false;
    std::unique_ptr<mus::mustache> system;
    std::unique_ptr<mus::mustache> user;
};

std::shared_ptr<PromptLibrary::Compiled> PromptLibrary::compile(const PromptTemplate &tmpl)
{
    auto c = std::make_shared<Compiled>();
    const auto sections = split(tmpl.body);
    if (!sections) {
        c->error = tr("prompt template '%1' needs a '=== system ===' and a '=== user ===' line").arg(tmpl.name);
        c->noSections = true;
        return c;
    }
    for (const auto &[text, slot] : {std::pair{&sections->system, &c->system}, std::pair{&sections->user, &c->user}}) {
        *slot = std::make_unique<mus::mustache>(text->toStdString());
        if (!(*slot)->is_valid()) {
            c->error = tr("prompt template '%1': %2").arg(tmpl.name, QString::fromStdString((*slot)->error_message()));
            return c;
        }
        (*slot)->set_custom_escape([](const std::string &x) { return x; });
    }
    return c;
}

Result<RenderedPrompt> PromptLibrary::fill(const PromptTemplate &tmpl, Compiled &compiled, const QVariantMap &context)
{
    if (!compiled.error.isEmpty())
        return compiled.noSections ? makeError(compiled.error, {}, 0, QStringLiteral("template"))
                                   : makeError(compiled.error);
    const mus::data data = toData(context);
    RenderedPrompt out;
    out.templateName = tmpl.name;
    out.templateHash = tmpl.hash;
    out.templateSource = tmpl.source;
    QString texts[2];
    mus::mustache *parts[2] = {compiled.system.get(), compiled.user.get()};
    for (int i = 0; i < 2; ++i) {
        const std::string text = parts[i]->render(data);
        if (!parts[i]->is_valid())
            return makeError(
                    tr("prompt template '%1': %2").arg(tmpl.name, QString::fromStdString(parts[i]->error_message())));
        texts[i] = QString::fromStdString(text);
    }
    if (!texts[0].trimmed().isEmpty())
        out.messages.append(ChatMessage{QStringLiteral("system"), texts[0].trimmed()});
    out.messages.append(ChatMessage{QStringLiteral("user"), texts[1].trimmed()});
    return out;
}

Result<RenderedPrompt> PromptLibrary::render(const PromptTemplate &tmpl, const QVariantMap &context)
{
    return fill(tmpl, *compile(tmpl), context);
}

Result<RenderedPrompt> PromptLibrary::render(const QString &name, const QVariantMap &context) const
{
    auto t = get(name);
    if (!t)
        return t.error();
    const QString key = t->name + QLatin1Char('\n') + t->body; // the name is in its error messages
    QMutexLocker lock(&m_mutex);
    std::shared_ptr<Compiled> &compiled = m_compiled[key];
    if (!compiled) {
        if (m_compiled.size() > 64) { // templates edited over and over in one session
            m_compiled.clear();
            return render(*t, context);
        }
        compiled = compile(*t);
    }
    auto out = fill(*t, *compiled, context);
    if (!out)
        m_compiled.remove(key); // a failed render leaves its error in the parsed template
    return out;
}

QVariantMap PromptLibrary::taskContext(const QString &task, const Aspect &aspect)
{
    QVariantMap c;
    auto set = [&c](const char *key, const char *value) {
        c.insert(QString::fromLatin1(key), QString::fromLatin1(value));
    };
    if (task == QLatin1String("story")) {
        set("task_description", "a written story of a given prompt");
        set("output_noun", "story");
        set("outputs_noun", "stories");
        set("items_noun", "stories and their prompts");
        set("source_noun", "prompt");
        set("source_label", "Prompt");
        set("output_label", "Story");
        set("source_article", "a writing prompt");
    } else if (task == QLatin1String("dialogue")) {
        set("task_description", "a response in a conversation");
        set("output_noun", "response");
        set("outputs_noun", "responses");
        set("items_noun", "responses and their conversation contexts");
        set("source_noun", "conversation");
        set("source_label", "Conversation");
        set("output_label", "Response");
        set("source_article", "a conversation");
    } else {
        set("task_description", "a summary of a passage");
        set("output_noun", "summary");
        set("outputs_noun", "summaries");
        set("items_noun", "summaries and their source texts");
        set("source_noun", "source text");
        set("source_label", "Source Text");
        set("output_label", "Summary");
        set("source_article", "a news article");
    }
    QString title = aspect.name;
    if (!title.isEmpty())
        title[0] = title[0].toUpper();
    c.insert(QStringLiteral("aspect"), aspect.name);
    c.insert(QStringLiteral("aspect_title"), title);
    c.insert(QStringLiteral("definition"), aspect.definition.isEmpty() ? aspect.name : aspect.definition);
    c.insert(QStringLiteral("scale_min"), QString::number(aspect.min, 'g', 6));
    c.insert(QStringLiteral("scale_max"), QString::number(aspect.max, 'g', 6));
    c.insert(QStringLiteral("scale_points"), scalePoints(aspect.min, aspect.max));
    return c;
}

QVariantList PromptLibrary::scalePoints(double min, double max)
{
    static const char *const words[]
            = {"zero",     "one",     "two",     "three",     "four",     "five",     "six",
               "seven",    "eight",   "nine",    "ten",       "eleven",   "twelve",   "thirteen",
               "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"};
    const int lo = int(std::ceil(min)), hi = int(std::floor(max));
    QVector<int> values;
    if (hi - lo > 20) // a wide scale (0–100): its two ends
        values = {lo, hi};
    else
        for (int v = lo; v <= hi; ++v)
            values.append(v);
    QVariantList out;
    for (int i = 0; i < values.size(); ++i) {
        const int v = values[i];
        const bool last = i == values.size() - 1 && i > 0;
        const bool two = values.size() == 2;
        out.append(QVariantMap{
                {QStringLiteral("value"), QString::number(v)},
                {QStringLiteral("word"), v >= 0 && v <= 20 ? QString::fromLatin1(words[v]) : QString::number(v)},
                {QStringLiteral("first"), i == 0},
                {QStringLiteral("sep"), i == 0 ? QString()
                                        : last ? (two ? QStringLiteral(" and ") : QStringLiteral(", and "))
                                               : QStringLiteral(", ")},
                {QStringLiteral("sep_or"), i == 0 ? QString()
                                           : last ? (two ? QStringLiteral(" or ") : QStringLiteral(", or "))
                                                  : QStringLiteral(", ")}});
    }
    return out;
}

Result<QString> PromptLibrary::projectTask(const Project *project)
{
    if (!project)
        return QStringLiteral("summarization");
    return project->readMeta(QStringLiteral("task"), QStringLiteral("summarization"));
}

} // namespace rubric
