#pragma once

#include "util/Result.h"

#include <QString>

namespace rubric {

/// The example project the README and the studio's first start open. The build makes a template
/// (build/example/summeval.template.rubric, regenerated whenever the CLI changes); users work in
/// their own copy in the application data location, made once from the template and never
/// replaced afterwards, so scores given in it survive every rebuild and update.
/// Plain file work on the calling thread; failures come back as an Error naming the file.
class ExampleProject
{
public:
    /// The template the build makes: `example/summeval.template.rubric` beside the folder of the
    /// running executable (build/bin/../example/), or $RUBRIC_EXAMPLE_TEMPLATE when set.
    static QString templatePath();
    /// Where builds before the template put the example (build/example/summeval.rubric), which
    /// users annotated in place: when it exists, the copy is made from it instead of the template,
    /// so that those scores carry over. The build no longer writes there.
    static QString legacyPath();
    /// What a new copy is made from: legacyPath() when that file exists, else templatePath().
    static QString sourcePath();
    /// The user's copy: <AppDataLocation>/examples/summeval.rubric (on Linux
    /// ~/.local/share/RubricStudio/Rubric Studio/examples/summeval.rubric for the studio).
    static QString copyPath();

    /// Returns `copy`, first copying `templ` there when `copy` does not exist. An existing copy is
    /// never written to, whatever the template. The copy appears atomically (written beside it,
    /// then renamed), and only when the template exists and can be read.
    static Result<QString> ensureCopy(const QString &templ, const QString &copy);
};

} // namespace rubric
