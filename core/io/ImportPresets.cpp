// Importer::presetNames() and Importer::preset(): field mappings for the bundled datasets
// (see ../shared/data/*/SOURCE.md for their layouts).
#include "Importer.h"

#include <QCoreApplication>

namespace rubric {
namespace {

struct AspectSpec
{
    const char *name;
    double min, max;
    const char *definition;
};

void addHuman(FieldMapping &m, const QString &prefix, std::initializer_list<AspectSpec> aspects)
{
    for (const AspectSpec &a : aspects) {
        const QString name = QString::fromLatin1(a.name);
        m.human.append({name, prefix + name});
        m.scales.insert(name, {a.min, a.max});
        m.definitions.insert(name, QString::fromUtf8(a.definition));
    }
}

// SummEval: 100 CNN/DM documents x 16 systems; expert means on 1–5. Definitions as in the
// SummEval annotation guidelines quoted by G-Eval's prompts.
FieldMapping summeval()
{
    FieldMapping m;
    m.task = QStringLiteral("summarization");
    m.group = QStringLiteral("doc_id");
    m.system = QStringLiteral("system_id");
    m.source = QStringLiteral("source");
    m.output = QStringLiteral("system_output");
    m.reference = QStringLiteral("reference");
    addHuman(m, QStringLiteral("scores."),
             {{"coherence", 1, 5,
               "Coherence - the collective quality of all sentences. We align this dimension with the DUC quality "
               "question of structure and coherence whereby \"the summary should be well-structured and "
               "well-organized. The summary should not just be a heap of related information, but should build "
               "from sentence to a coherent body of information about a topic.\""},
              {"consistency", 1, 5,
               "Consistency - the factual alignment between the summary and the summarized source. A factually "
               "consistent summary contains only statements that are entailed by the source document. Annotators "
               "were also asked to penalize summaries that contained hallucinated facts."},
              {"fluency", 1, 5,
               "Fluency - the quality of individual sentences. Drawing again from the DUC quality guidelines, "
               "sentences in the summary \"should have no formatting problems, capitalization errors or obviously "
               "ungrammatical sentences (e.g., fragments, missing components) that make the text difficult to read.\""},
              {"relevance", 1, 5,
               "Relevance - selection of important content from the source. The summary should include only "
               "important information from the source document. Annotators were instructed to penalize summaries "
               "which contained redundancies and excess information."}});
    return m;
}

// Topical-Chat with the USR annotations (UniEval layout): 60 dialogue histories x 6 responses.
FieldMapping topicalChat()
{
    FieldMapping m;
    m.task = QStringLiteral("dialogue");
    m.group = QStringLiteral("source");
    m.system = QStringLiteral("system_id");
    m.source = QStringLiteral("source");
    m.output = QStringLiteral("system_output");
    // The fact the response is conditioned on, under the name HPSS and CheckEval read ("fact"; issue 32).
    m.context.append({QStringLiteral("fact"), QStringLiteral("context")});
    addHuman(m, QStringLiteral("scores."),
             {{"understandability", 0, 1,
               "Understandability (0-1): Is the response understandable in the context of the dialogue history? "
               "0 (no) means the response is not understandable; 1 (yes) means it is."},
              {"naturalness", 1, 3,
               "Naturalness (1-3): Is the response naturally written? 1 (bad) means that the response is "
               "unnatural; 2 (ok) means the response is strange, but not entirely unnatural; 3 (good) means that "
               "the response is natural."},
              {"coherence", 1, 3,
               "Coherence (1-3): Does the response serve as a valid continuation of the conversation history? "
               "1 (no) means that the response drastically changes topic or ignores the conversation history; "
               "2 (somewhat) means the response refers to the conversation history in a limited capacity (e.g., in "
               "a generic way) and shifts the conversation topic; 3 (yes) means the response is on topic and "
               "strongly acknowledges the conversation history."},
              {"engagingness", 1, 3,
               "Engagingness (1-3): Is the response dull/interesting? 1 (dull) means that the response is generic "
               "and dull; 2 (somewhat interesting) means the response is somewhat interesting and could engage you "
               "in the conversation (e.g., an opinion, thought); 3 (interesting) means the response is very "
               "interesting or presents an interesting fact."},
              {"groundedness", 0, 1,
               "Groundedness (0-1): Given the fact that this response is conditioned on, does the response use "
               "that fact? 0 (no) means the response does not mention or refer to the fact at all; 1 (yes) means "
               "the response uses the fact well."},
              {"overall", 1, 5,
               "Overall (1-5): the overall impression of the response: 1 (very bad), 2 (bad), 3 (neutral), "
               "4 (good), 5 (very good)."}});
    return m;
}

// HANNA stories in the HPSS layout. story_id 0-95 are the human stories, then 96 per system in
// the order of HANNA's CSV; the file does not name the systems, so they are labelled human,
// sys1 … sys10 by block.
FieldMapping hanna()
{
    FieldMapping m;
    m.task = QStringLiteral("story");
    m.id = QStringLiteral("story_id");
    m.group = QStringLiteral("prompt");
    m.source = QStringLiteral("prompt");
    m.output = QStringLiteral("story");
    m.systemFromIdBlock = 96;
    m.systemFromIdNames.append(QStringLiteral("human"));
    for (int i = 1; i <= 10; ++i)
        m.systemFromIdNames.append(QStringLiteral("sys%1").arg(i));
    addHuman(m, QStringLiteral("scores."),
             {{"relevance", 1, 5, "Relevance - measures how well the story matches its prompt."},
              {"coherence", 1, 5, "Coherence - measures whether the story makes sense."},
              {"empathy", 1, 5,
               "Empathy - measures how well you understood the characters' emotions (regardless of whether you "
               "agreed with them)."},
              {"surprise", 1, 5, "Surprise - measures how surprising the end of the story was."},
              {"engagement", 1, 5, "Engagement - measures how much you engaged with the story."},
              {"complexity", 1, 5, "Complexity - measures how elaborate the story is."}});
    return m;
}

} // namespace

QStringList Importer::presetNames()
{
    return {QStringLiteral("summeval"), QStringLiteral("topical-chat"), QStringLiteral("hanna")};
}

Result<FieldMapping> Importer::preset(const QString &name)
{
    const QString key = name.trimmed().toLower();
    if (key == QLatin1String("summeval"))
        return summeval();
    if (key == QLatin1String("topical-chat") || key == QLatin1String("topical_chat"))
        return topicalChat();
    if (key == QLatin1String("hanna"))
        return hanna();
    return makeError(QCoreApplication::translate("Importer", "unknown preset '%1' (known: %2)")
                             .arg(name, presetNames().join(QStringLiteral(", "))),
                     {}, 0, QStringLiteral("preset"));
}

} // namespace rubric
