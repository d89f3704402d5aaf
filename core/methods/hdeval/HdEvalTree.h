#pragma once

#include "rubric/Rubric.h"
#include "util/Result.h"

#include <QSet>
#include <QString>
#include <QVector>

#include <optional>

namespace rubric::hdeval {

/// One child criterion the generator proposed: a short key (the feature label), a name and a
/// one-sentence definition (specs/hdeval.md §2, Tables 10–12 print nodes as `key | Name: definition`).
struct ProposedChild
{
    QString key; ///< as the generator wrote it; empty when it wrote none (see makeKey)
    QString name;
    QString definition;
};

/// The children of one parent in a batched answer: the parent's name as the section header wrote it.
struct ProposedGroup
{
    QString header;
    QVector<ProposedChild> children;
};

/// Reads a decomposition answer (spec §3.2: the paper prints no parser). Accepts one criterion per
/// line, numbered ("1.", "2)"), bulleted ("-", "*", "•") or bare, in the forms
/// `key | Name: definition`, `Name: definition`, `**Name**: definition`, `Name - definition`
/// (a spaced dash or en dash) and `Name (key): definition`; markdown emphasis is dropped. Lines
/// without a name and a definition (an introduction, a closing remark) are skipped. Section headers
/// (`## Name`, `Name:` alone on a line, or `**Name**` alone) start a new group: a per-node answer
/// has one group with an empty header.
QVector<ProposedGroup> parseDecomposition(const QString &answer);

/// A short lowercase key for a node: the generator's key when it gave a usable one (letters,
/// digits, '_' and '-', at most 16 characters), else the name's first word cut to 8 letters; a
/// number is appended when the key is taken (`taken` holds every key of the rubric).
QString makeKey(const ProposedChild &child, const QSet<QString> &taken);

/// The score of a node-scoring answer, read by the shared answer reader (AnswerParser::readScore)
/// with HD-Eval's variant: the prompt asks for the score first ("Score (1-5):"), so among lone
/// numbers the first counts; a labelled score ("Score (1-5): 4", "I would give this a 4") wins over
/// them. nullopt when there is none, the answer names two at once, or it lies outside lo…hi (never
/// clamped into the range: a 7 on a 1–5 scale is not a 5, it is an answer that did not follow the prompt).
std::optional<double> firstScore(const QString &answer, double lo = 1, double hi = 5);

/// A node's layer: the root aspect is layer 1, its children layer 2, and so on.
int layerOf(const Rubric &rubric, const Criterion &node);
/// The enabled nodes in feature order: layer by layer, each layer in tree order (parents in their
/// order, children in theirs).
QVector<Criterion> featureNodes(const Rubric &rubric);
/// The enabled nodes of one layer, in feature order.
QVector<Criterion> layerNodes(const Rubric &rubric, int layer);

} // namespace rubric::hdeval
