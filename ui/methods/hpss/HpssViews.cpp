// HPSS's views: its pane (search, leaderboard, prompt inspector) in the main window.
#include "methods/MethodViews.h"
#include "methods/hpss/HpssPane.h"

#include <QCoreApplication>

namespace rubric {
namespace {

class HpssViews : public MethodViews
{
public:
    QList<MethodPane> createPanes(const WindowContext &context, QWidget *window) const override
    {
        auto *pane = new HpssPane(window);
        pane->setRunController(context.runs);
        QObject::connect(pane, &HpssPane::testRunRequested, pane,
                         [start = context.startRun](const RunSpec &spec) { start(spec); });
        return {MethodPane{pane, QCoreApplication::translate("rubric::MainWindow", "HPSS"), method(),
                           [pane](Project *project) { pane->setProject(project); }}};
    }
};

} // namespace

std::unique_ptr<MethodViews> hpssViews()
{
    return std::make_unique<HpssViews>();
}

} // namespace rubric
