#include "QuestionSimilarity.h"

#include "Checklist.h"

#include <QSet>

#include <cmath>

namespace rubric {
namespace {

const QSet<QString> &stopWords()
{
    static const QSet<QString> words = [] {
        QSet<QString> s;
        for (const QString &w :
             QStringLiteral(
                     "a an the is are was were be been being do does did of in on at to for from by with and or "
                     "but if then than that this these those it its as any all each every there their they them "
                     "what which who whom how whether not no yes into over under about between such so very more "
                     "most much many can could should would will may might must has have had he she his her we "
                     "our you your i me my up out also only other own same too just while during through within "
                     "without")
                     .split(QLatin1Char(' ')))
            s.insert(w);
        return s;
    }();
    return words;
}

QString stem(const QString &w)
{
    static const char *const suffixes[]
            = {"ingly", "edly", "ness", "ment", "ations", "ation", "ities", "ity", "ies", "ing", "ed", "es", "ly", "s"};
    for (const char *suf : suffixes) {
        const QLatin1String s(suf);
        if (w.endsWith(s) && w.size() - s.size() >= 3)
            return w.left(w.size() - s.size());
    }
    return w;
}

QHash<QString, int> grams(const QString &question)
{
    const QString s = QLatin1Char(' ') + Checklist::normaliseQuestion(question) + QLatin1Char(' ');
    QHash<QString, int> out;
    for (qsizetype i = 0; i + 4 <= s.size(); ++i)
        ++out[s.mid(i, 4)];
    return out;
}

template <typename Map> double cosine(const Map &a, const Map &b)
{
    double dot = 0, na = 0, nb = 0;
    for (auto it = a.cbegin(); it != a.cend(); ++it) {
        na += double(it.value()) * it.value();
        const auto o = b.constFind(it.key());
        if (o != b.cend())
            dot += double(it.value()) * o.value();
    }
    for (auto it = b.cbegin(); it != b.cend(); ++it)
        nb += double(it.value()) * it.value();
    return na > 0 && nb > 0 ? dot / std::sqrt(na * nb) : 0.0;
}

} // namespace

QuestionSimilarity::QuestionSimilarity(const QStringList &questions)
    : m_n(int(questions.size()))
{
    for (const QString &q : questions) {
        const QStringList stems = contentStems(q);
        for (const QString &w : QSet<QString>(stems.begin(), stems.end()))
            ++m_df[w];
    }
}

QStringList QuestionSimilarity::contentStems(const QString &question)
{
    QStringList out;
    for (const QString &w : Checklist::normaliseQuestion(question).split(QLatin1Char(' '), Qt::SkipEmptyParts))
        if (!stopWords().contains(w))
            out << stem(w);
    return out;
}

double QuestionSimilarity::charGramCosine(const QString &a, const QString &b)
{
    return cosine(grams(a), grams(b));
}

QHash<QString, double> QuestionSimilarity::vector(const QString &question) const
{
    QHash<QString, double> tf;
    for (const QString &w : contentStems(question))
        tf[w] += 1;
    for (auto it = tf.begin(); it != tf.end(); ++it)
        it.value() *= std::log((1.0 + m_n) / (1.0 + m_df.value(it.key())));
    return tf;
}

double QuestionSimilarity::tfIdfCosine(const QString &a, const QString &b) const
{
    return cosine(vector(a), vector(b));
}

double QuestionSimilarity::similarity(const QString &a, const QString &b) const
{
    return (charGramCosine(a, b) + tfIdfCosine(a, b)) / 2;
}

} // namespace rubric
