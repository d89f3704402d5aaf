#pragma once

#include "data/JudgeTypes.h"
#include "util/Result.h"

#include <QHash>
#include <QMutex>
#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <QVector>

#include <memory>

namespace rubric {

class Project;
struct Aspect;

/// A prompt template: mustache text with a `=== system ===` and a `=== user ===` section.
struct PromptTemplate
{
    QString name;
    QString body;
    QString source; ///< "builtin" (resources/prompts) or "project" (the project's edited copy)
    QString hash;   ///< first 16 hex digits of SHA-256 of the body, recorded by runs
};

/// A template filled in: the chat messages plus which template (and version) made them.
struct RenderedPrompt
{
    QVector<ChatMessage> messages;
    QString templateName;
    QString templateHash;
    QString templateSource;
};

/// The prompt templates of the methods: the built-in ones embedded from resources/prompts
/// (Qt resource `:/prompts/<name>.mustache`) and the project's own edited copies
/// (table prompt_templates), which take precedence. Rendering uses kainjow mustache with
/// HTML escaping off (prompts are plain text). Holds the project pointer (not owned, may be
/// null) and the templates it parsed (a run renders one template for every request: it is
/// parsed once, not per request); usable from any thread.
class PromptLibrary
{
public:
    explicit PromptLibrary(Project *project = nullptr);

    static QStringList builtinNames();
    /// The built-in template, or an error naming the missing resource.
    static Result<PromptTemplate> builtin(const QString &name);
    /// The project's copy when it has one, else the built-in one; an error when the project's
    /// templates cannot be read (never the built-in one in its place).
    Result<PromptTemplate> get(const QString &name) const;
    /// Saves the project's copy after checking that it parses and has both sections.
    Result<void> setOverride(const QString &name, const QString &body);
    Result<void> removeOverride(const QString &name);

    /// Checks a template body: both sections present, mustache syntax valid.
    static Result<void> validate(const QString &body);
    /// Fills `tmpl` with `context` (QVariantMap / QVariantList / bool / scalars).
    static Result<RenderedPrompt> render(const PromptTemplate &tmpl, const QVariantMap &context);
    Result<RenderedPrompt> render(const QString &name, const QVariantMap &context) const;

    /// The task-dependent nouns and the aspect fields every template uses: task_description,
    /// output_noun, outputs_noun, items_noun, source_noun, source_label, output_label,
    /// source_article, aspect, aspect_title, definition, scale_min, scale_max. `task` is
    /// "summarization" (default), "story" or "dialogue".
    static QVariantMap taskContext(const QString &task, const Aspect &aspect);
    /// The project's task type (meta key "task"), "summarization" when unset; an error (never
    /// the default in its place) when the project cannot be read.
    static Result<QString> projectTask(const Project *project);
    /// The integer points of a scale for templates (`scale_points`, see resources/prompts/README.md).
    static QVariantList scalePoints(double min, double max);

private:
    struct Compiled;
    static std::shared_ptr<Compiled> compile(const PromptTemplate &tmpl);
    static Result<RenderedPrompt> fill(const PromptTemplate &tmpl, Compiled &compiled, const QVariantMap &context);

    Project *m_project;
    mutable QMutex m_mutex;
    mutable QHash<QString, std::shared_ptr<Compiled>> m_compiled; ///< by template name and body
};

} // namespace rubric
