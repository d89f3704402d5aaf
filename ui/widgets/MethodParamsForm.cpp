#include "widgets/MethodParamsForm.h"

#include "methods/HypoEvalParams.h"
#include "widgets/SpinBoxes.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>

namespace rubric {
namespace {

struct ParamInfo
{
    const char *key;
    const char *label;
    const char *tip;
    bool integer;
    double min, max;
    int decimals;
};

// HypoEval's hyperparameters (specs/hypoeval.md §2.8); defaults come from HypoEvalParams.
const ParamInfo hypoParams[] = {
        {"init_samples", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "|S_init|"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm",
                           "Annotated train samples shown to the generator to propose the first hypotheses "
                           "(paper: 5)."),
         true, 1, 1000, 0},
        {"init_hypotheses", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "|H_init|"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "Hypotheses proposed from the initial samples (paper: 5)."),
         true, 1, 100, 0},
        {"per_call", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "Hypotheses per call"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm",
                           "Hypotheses asked for in one generation or refinement call (inferred from the "
                           "upstream prompts: 5)."),
         true, 1, 50, 0},
        {"k", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "k"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm",
                           "Top-k hypotheses by UCB reward that score each train sample during the update "
                           "(paper: 10)."),
         true, 1, 100, 0},
        {"theta", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "θ"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm",
                           "Wrong-prediction threshold: a hypothesis's score counts as wrong when it is "
                           "further than θ from the human score (paper: 0.5)."),
         false, 0, 10, 3},
        {"alpha", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "α"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm",
                           "UCB exploration coefficient: larger values try rarely used hypotheses more "
                           "(paper: 0.5)."),
         false, 0, 10, 3},
        {"a", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "a"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "Reward of a prediction is a − b·error² (paper: a = 1)."), false,
         -100, 100, 3},
        {"b", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "b"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "Reward of a prediction is a − b·error² (paper: b = 1/16)."),
         false, 0, 100, 4},
        {"w_hyp", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "w_hyp"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm",
                           "Wrong top-k predictions after which a sample goes to the wrong-sample bank "
                           "(not in the paper; inferred: 3)."),
         true, 1, 100, 0},
        {"w_max", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "w_max"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm",
                           "Size of the wrong-sample bank that triggers generating new hypotheses from it "
                           "(paper: 10)."),
         true, 1, 1000, 0},
        {"refine_rounds", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "N_refine"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm",
                           "Refinement rounds; odd rounds refine from data, even rounds from the literature "
                           "(paper: 6)."),
         true, 0, 100, 0},
        {"h_max", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "H_max"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "Largest hypothesis bank kept during training (paper: 20)."),
         true, 2, 1000, 0},
        {"h_ev", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "H_ev"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm",
                           "Hypotheses (the best by train correlation) used to score the test items "
                           "(paper: 5)."),
         true, 1, 100, 0},
        {"min_parsed", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "Min. parsed"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm",
                           "Training items a hypothesis must have a parsed score on to be selected, so that a "
                           "correlation on two points cannot win (not in the paper). 0: automatic, the larger of 5 "
                           "and half the training items."),
         true, 0, 100000, 0},
        {"seed", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "Seed"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm",
                           "Seed of the random draws (initial samples, update order); the same seed "
                           "repeats the run."),
         true, 0, 2147483647, 0},
        {"temperature", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "Temperature"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "Sampling temperature of every call (upstream code: 1e-5)."),
         false, 0, 2, 5},
        {"max_tokens", QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "Max tokens"),
         QT_TRANSLATE_NOOP("rubric::MethodParamsForm", "Largest answer of one call (upstream code: 4000)."), true, 1,
         100000, 0},
};

} // namespace

MethodParamsForm::MethodParamsForm(QWidget *parent)
    : QStackedWidget(parent)
{
    setObjectName(QStringLiteral("methodParameters"));
    // G-Eval
    auto *geval = new QWidget(this);
    m_gevalLogprobs = new QCheckBox(tr("Weight the scale by &logprobs"), geval);
    m_gevalLogprobs->setObjectName(QStringLiteral("gevalLogprobs"));
    m_gevalLogprobs->setChecked(true);
    m_gevalLogprobs->setToolTip(tr("Ask for top_logprobs and score the probability-weighted mean of the scale tokens "
                                   "(one call per item). Off: sample n answers and average them, as the paper does for "
                                   "models without logprobs."));
    m_gevalSamples = makeSpinBox(geval, QStringLiteral("gevalSamples"), 1, 100,
                                 tr("Answers sampled per item without logprobs (paper: n = 20)."));
    m_gevalSamples->setValue(20);
    m_gevalTemperature = makeDoubleSpinBox(geval, QStringLiteral("gevalTemperature"), 0, 2, 2,
                                           tr("Sampling temperature of the scoring calls (paper: 1 with n = 20 "
                                              "samples)."));
    m_gevalTemperature->setValue(1.0);
    connect(m_gevalLogprobs, &QCheckBox::toggled, m_gevalSamples, [this](bool on) { m_gevalSamples->setEnabled(!on); });
    m_gevalSamples->setEnabled(false);
    auto *gform = new QFormLayout(geval);
    gform->setContentsMargins(0, 0, 0, 0);
    gform->addRow(m_gevalLogprobs);
    gform->addRow(tr("&Samples n:"), m_gevalSamples);
    gform->addRow(tr("&Temperature:"), m_gevalTemperature);
    addWidget(geval);
    // HypoEval
    auto *hypo = new QWidget(this);
    auto *hform = new QFormLayout(hypo);
    hform->setContentsMargins(0, 0, 0, 0);
    const QVariantMap defaults = HypoEvalParams{}.toMap();
    for (const ParamInfo &p : hypoParams) {
        const QString key = QString::fromLatin1(p.key);
        const QString tip = tr(p.tip);
        const QString name = QStringLiteral("param_") + key;
        QWidget *w;
        if (p.integer) {
            auto *s = makeSpinBox(hypo, name, int(p.min), int(p.max), tip);
            s->setValue(defaults.value(key).toInt());
            w = s;
        } else {
            auto *s = makeDoubleSpinBox(hypo, name, p.min, p.max, p.decimals, tip);
            s->setValue(defaults.value(key).toDouble());
            w = s;
        }
        w->setProperty("paramKey", key);
        auto *label = new QLabel(tr(p.label), hypo);
        label->setToolTip(tip);
        label->setBuddy(w);
        hform->addRow(label, w);
        m_hypoParams.append(w);
    }
    m_literature = new QLineEdit(hypo);
    m_literature->setObjectName(QStringLiteral("literatureDir"));
    m_literature->setToolTip(tr("Literature folder for the literature-based hypotheses and refinements: papers as text "
                                "(*.txt, *.md), which the generator summarises first, and summaries you wrote or "
                                "edited (NAME.summary.txt, NAME.summary.md), used as written; empty: data only."));
    auto *browse = new QToolButton(hypo);
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(tr("Choose the literature folder"));
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Literature folder"), m_literature->text());
        if (!dir.isEmpty())
            m_literature->setText(dir);
    });
    auto *lit = new QHBoxLayout;
    lit->addWidget(m_literature, 1);
    lit->addWidget(browse);
    auto *litLabel = new QLabel(tr("Li&terature:"), hypo); // a row of a layout gets no buddy by itself
    litLabel->setBuddy(m_literature);
    hform->addRow(litLabel, lit);
    addWidget(hypo);
}

void MethodParamsForm::writeTo(RunSpec &s) const
{
    if (s.method == QLatin1String("geval")) {
        s.logprobs = m_gevalLogprobs->isChecked();
        s.samples = m_gevalSamples->value();
        s.settings.insert(QStringLiteral("temperature"), QString::number(m_gevalTemperature->value()));
    } else {
        for (QWidget *w : m_hypoParams) {
            const QString key = w->property("paramKey").toString();
            if (auto *i = qobject_cast<QSpinBox *>(w))
                s.settings.insert(key, QString::number(i->value()));
            else if (auto *d = qobject_cast<QDoubleSpinBox *>(w))
                s.settings.insert(key, QString::number(d->value(), 'g', 10));
        }
        s.literatureDir = m_literature->text().trimmed();
    }
}

void MethodParamsForm::readFrom(const RunSpec &s)
{
    if (s.method == QLatin1String("geval")) {
        m_gevalLogprobs->setChecked(s.logprobs);
        m_gevalSamples->setValue(s.samples);
        bool ok = false;
        const double t = s.settings.value(QStringLiteral("temperature")).toString().toDouble(&ok);
        if (ok)
            m_gevalTemperature->setValue(t);
    } else {
        for (QWidget *w : m_hypoParams) {
            const QString key = w->property("paramKey").toString();
            if (!s.settings.contains(key))
                continue;
            const QString v = s.settings.value(key).toString();
            if (auto *i = qobject_cast<QSpinBox *>(w))
                i->setValue(v.toInt());
            else if (auto *d = qobject_cast<QDoubleSpinBox *>(w))
                d->setValue(v.toDouble());
        }
        m_literature->setText(s.literatureDir);
    }
}

} // namespace rubric
