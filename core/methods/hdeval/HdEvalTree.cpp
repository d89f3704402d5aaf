#include "HdEvalTree.h"

#include "judge/AnswerParser.h"

#include <QRegularExpression>

#include <functional>

namespace rubric::hdeval {
namespace {

QString stripEmphasis(QString s)
{
    s.remove(QLatin1String("**"));
    s.remove(QLatin1Char('`'));
    s.remove(QLatin1String("__"));
    return s.trimmed();
}

/// A header line: "## Name", "**Name**" or "Name:" with nothing after it. Returns the name or "".
QString headerOf(const QString &line)
{
    static const QRegularExpression hashes(QStringLiteral("^#{1,6}\\s*(.+)$"));
    if (const auto m = hashes.match(line); m.hasMatch())
        return stripEmphasis(m.captured(1)).remove(QRegularExpression(QStringLiteral(":\\s*$"))).trimmed();
    static const QRegularExpression bold(QStringLiteral("^\\*\\*([^*]+)\\*\\*:?$"));
    if (const auto m = bold.match(line); m.hasMatch())
        return m.captured(1).trimmed().remove(QRegularExpression(QStringLiteral(":\\s*$"))).trimmed();
    static const QRegularExpression colon(QStringLiteral("^([A-Za-z][^:.]{0,60}):$"));
    if (const auto m = colon.match(line); m.hasMatch())
        return m.captured(1).trimmed();
    return {};
}

bool usableKey(const QString &key)
{
    static const QRegularExpression re(QStringLiteral("^[a-z0-9][a-z0-9_-]{0,15}$"));
    return re.match(key).hasMatch();
}

} // namespace

QVector<ProposedGroup> parseDecomposition(const QString &answer)
{
    QVector<ProposedGroup> groups{ProposedGroup{}};
    static const QRegularExpression marker(QStringLiteral("^(?:\\d+\\s*[.)]|[-*•+])\\s*"));
    static const QRegularExpression keyed(QStringLiteral("^([A-Za-z0-9_-]{1,24})\\s*\\|\\s*(.+)$"));
    static const QRegularExpression parenKey(QStringLiteral("^(.+?)\\s*\\(([A-Za-z0-9_-]{1,16})\\)$"));
    for (QString line : answer.split(QLatin1Char('\n'))) {
        line = line.trimmed();
        if (line.isEmpty())
            continue;
        const bool listed = marker.match(line).hasMatch();
        if (!listed) {
            if (const QString h = headerOf(line); !h.isEmpty()) {
                groups.append(ProposedGroup{h, {}});
                continue;
            }
        }
        QString body = stripEmphasis(line.mid(marker.match(line).capturedLength()));
        ProposedChild c;
        if (const auto m = keyed.match(body); m.hasMatch()) {
            c.key = m.captured(1).toLower();
            body = m.captured(2).trimmed();
        }
        qsizetype split = body.indexOf(QLatin1Char(':'));
        qsizetype sepLen = 1;
        if (split < 0) {
            for (const QString &dash : {QStringLiteral(" - "), QStringLiteral(" – "), QStringLiteral(" — ")}) {
                split = body.indexOf(dash);
                if (split >= 0) {
                    sepLen = dash.size();
                    break;
                }
            }
        }
        if (split <= 0)
            continue; // no name and definition: an introduction or a remark
        c.name = body.left(split).trimmed();
        c.definition = body.mid(split + sepLen).trimmed();
        if (const auto m = parenKey.match(c.name); m.hasMatch() && c.key.isEmpty()) {
            c.name = m.captured(1).trimmed();
            c.key = m.captured(2).toLower();
        }
        if (c.name.isEmpty() || c.definition.isEmpty() || c.name.size() > 80)
            continue;
        groups.last().children.append(c);
    }
    // Drop an empty leading group (an answer that starts with a header) and empty sections.
    QVector<ProposedGroup> out;
    for (const ProposedGroup &g : std::as_const(groups))
        if (!g.children.isEmpty())
            out.append(g);
    return out;
}

QString makeKey(const ProposedChild &child, const QSet<QString> &taken)
{
    QString base = child.key.toLower();
    if (!usableKey(base)) {
        const QString word = child.name.toLower().section(QRegularExpression(QStringLiteral("[^a-z0-9]+")), 0, 0,
                                                          QString::SectionSkipEmpty);
        base = word.left(8);
        if (base.isEmpty())
            base = QStringLiteral("c");
    }
    QString key = base;
    for (int i = 2; taken.contains(key); ++i)
        key = base + QString::number(i);
    return key;
}

std::optional<double> firstScore(const QString &answer, double lo, double hi)
{
    ScoreRules rules;
    rules.min = lo;
    rules.max = hi;
    rules.firstLone = true;
    const ParsedAnswer p = AnswerParser::readScore(answer, rules);
    if (!p.ok)
        return std::nullopt;
    return p.score;
}

int layerOf(const Rubric &rubric, const Criterion &node)
{
    int layer = 1;
    const Criterion *c = &node;
    while (!c->parentKey.isEmpty()) {
        c = rubric.find(c->parentKey);
        if (!c || ++layer > 64)
            break;
    }
    return layer;
}

QVector<Criterion> layerNodes(const Rubric &rubric, int layer)
{
    QVector<Criterion> out;
    const std::function<void(const QString &, int)> walk = [&](const QString &parent, int depth) {
        for (const Criterion &c : rubric.children(parent)) {
            if (!c.enabled)
                continue; // a disabled node and its subtree are not part of the judge
            if (depth == layer)
                out.append(c);
            else if (depth < layer)
                walk(c.key, depth + 1);
        }
    };
    walk(QString(), 1);
    return out;
}

QVector<Criterion> featureNodes(const Rubric &rubric)
{
    QVector<Criterion> out;
    for (int layer = 1;; ++layer) {
        const QVector<Criterion> nodes = layerNodes(rubric, layer);
        if (nodes.isEmpty())
            break;
        out += nodes;
    }
    return out;
}

} // namespace rubric::hdeval
