// libFuzzer target: every parser of a judge's free-text answer. The input is the answer's text
// (UTF-8, invalid sequences included). Run with -dict=answer.dict.
#include "FuzzSupport.h"
#include "judge/AnswerParser.h"
#include "methods/AnswerText.h"
#include "methods/checkeval/ChecklistAnswers.h"
#include "methods/hdeval/HdEvalTree.h"
#include "methods/hpss/PromptStrategy.h"

#include <cmath>
#include <cstdlib>

using namespace rubric;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz::initQt(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));

    const ParsedAnswer score = AnswerParser::parseScore(text);
    // An answer read as a score has a finite one; one not read says why.
    if (score.ok && !std::isfinite(score.score))
        std::abort();
    if (!score.ok && score.error.isEmpty())
        std::abort();
    const ParsedAnswer yesNo = AnswerParser::parseYesNo(text);
    if (yesNo.ok && yesNo.answers.isEmpty())
        std::abort();
    (void)AnswerParser::parseJson(text);
    (void)AnswerParser::parseJson(text, QStringLiteral("rating"));

    const QHash<int, bool> answers = checkeval::parseAnswers(text, 12);
    for (auto it = answers.begin(); it != answers.end(); ++it)
        if (it.key() < 1 || it.key() > 12)
            std::abort();

    (void)answer::hypotheses(text);
    (void)answer::steps(text);
    (void)answer::finalYesNo(text);
    (void)answer::reasoningBeforeScore(text);

    (void)hdeval::parseDecomposition(text);
    if (const auto first = hdeval::firstScore(text, 1, 5); first && (*first < 1 || *first > 5))
        std::abort();

    (void)hpss::PromptStrategy::parse(text);
    return 0;
}
