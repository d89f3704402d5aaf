#include "methods/hpss/HpssPromptInspector.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QSet>
#include <QSplitter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextEdit>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace rubric {

using namespace hpss;

namespace {

/// The line diff of a and b (longest common subsequence): "  " both, "- " a only, "+ " b only.
QVector<QPair<QChar, QString>> lineDiff(const QStringList &a, const QStringList &b)
{
    const int n = int(a.size()), m = int(b.size());
    std::vector<std::vector<int>> lcs(size_t(n + 1), std::vector<int>(size_t(m + 1), 0));
    for (int i = n - 1; i >= 0; --i)
        for (int j = m - 1; j >= 0; --j)
            lcs[size_t(i)][size_t(j)]
                    = a[i] == b[j] ? lcs[size_t(i + 1)][size_t(j + 1)] + 1
                                   : std::max(lcs[size_t(i + 1)][size_t(j)], lcs[size_t(i)][size_t(j + 1)]);
    QVector<QPair<QChar, QString>> out;
    int i = 0, j = 0;
    while (i < n && j < m) {
        if (a[i] == b[j]) {
            out.append({QLatin1Char(' '), a[i]});
            ++i, ++j;
        } else if (lcs[size_t(i + 1)][size_t(j)] >= lcs[size_t(i)][size_t(j + 1)]) {
            out.append({QLatin1Char('-'), a[i++]});
        } else {
            out.append({QLatin1Char('+'), b[j++]});
        }
    }
    while (i < n)
        out.append({QLatin1Char('-'), a[i++]});
    while (j < m)
        out.append({QLatin1Char('+'), b[j++]});
    return out;
}

QString strategyLabel(const SearchRecord &r)
{
    return QStringLiteral("#%1  ρ %2  %3")
            .arg(r.proposal.step)
            .arg(QLocale().toString(r.spearman, 'f', 3), r.proposal.strategy.format());
}

} // namespace

QColor HpssPromptInspector::factorColor(Factor f)
{
    static const std::array<QColor, kFactorCount> colors{
            QColor(0xff, 0xe0, 0x8a), // scale
            QColor(0xc8, 0xe6, 0xc9), // examples
            QColor(0xbb, 0xde, 0xfb), // criteria
            QColor(0xf8, 0xbb, 0xd0), // reference
            QColor(0xd1, 0xc4, 0xe9), // cot
            QColor(0xff, 0xcc, 0xbc), // autocot
            QColor(0xb2, 0xeb, 0xf2), // metrics
            QColor(0xe6, 0xee, 0x9c), // order
    };
    return colors[size_t(f)];
}

HpssPromptInspector::HpssPromptInspector(QWidget *parent)
    : QWidget(parent)
    , m_evaluated(new QComboBox(this))
    , m_item(new QComboBox(this))
    , m_compare(new QComboBox(this))
    , m_error(new QLabel(this))
    , m_split(new QSplitter(Qt::Horizontal, this))
    , m_prompt(new QTextEdit(this))
    , m_diff(new QTextEdit(this))
{
    setObjectName(QStringLiteral("hpssPromptInspector"));
    m_evaluated->setObjectName(QStringLiteral("hpssInspectorEvaluated"));
    m_item->setObjectName(QStringLiteral("hpssInspectorItem"));
    m_compare->setObjectName(QStringLiteral("hpssInspectorCompare"));
    m_error->setObjectName(QStringLiteral("hpssInspectorError"));
    m_prompt->setObjectName(QStringLiteral("hpssInspectorPrompt"));
    m_diff->setObjectName(QStringLiteral("hpssInspectorDiff"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #a02020;"));
    m_error->setVisible(false);
    for (QTextEdit *e : {m_prompt, m_diff}) {
        e->setReadOnly(true);
        e->setAcceptRichText(false);
        e->setLineWrapMode(QTextEdit::WidgetWidth);
    }
    m_prompt->viewport()->installEventFilter(this);
    m_diff->setToolTip(tr("Lines only in the strategy are marked −, lines only in the comparison +."));
    m_split->setObjectName(QStringLiteral("hpssInspectorSplitter"));

    auto *factors = new QGridLayout;
    for (int i = 0; i < kFactorCount; ++i) {
        const Factor f = factorAt(i);
        auto *combo = new QComboBox(this);
        combo->setObjectName(QStringLiteral("hpssInspectorFactor_%1").arg(factorName(f)));
        combo->addItems(factorValues(f));
        auto *label = new QLabel(factorName(f), this);
        label->setAutoFillBackground(true);
        label->setStyleSheet(
                QStringLiteral("background: %1; padding: 2px 6px; border-radius: 3px;").arg(factorColor(f).name()));
        label->setToolTip(tr("Snippets of the factor '%1' have this background").arg(factorName(f)));
        factors->addWidget(label, 0, i);
        factors->addWidget(combo, 1, i);
        m_factors[size_t(i)] = combo;
        connect(combo, &QComboBox::currentIndexChanged, this, &HpssPromptInspector::onFactorChanged);
    }
    auto *form = new QFormLayout;
    form->addRow(tr("Evaluated strategy:"), m_evaluated);
    form->addRow(tr("Item:"), m_item);
    form->addRow(tr("Compare with:"), m_compare);
    auto *promptBox = new QWidget(this);
    auto *pl = new QVBoxLayout(promptBox);
    pl->setContentsMargins(0, 0, 0, 0);
    pl->addWidget(new QLabel(tr("Prompt"), promptBox));
    pl->addWidget(m_prompt, 1);
    auto *diffBox = new QWidget(this);
    auto *dl = new QVBoxLayout(diffBox);
    dl->setContentsMargins(0, 0, 0, 0);
    dl->addWidget(new QLabel(tr("Diff (− the strategy, + the comparison)"), diffBox));
    dl->addWidget(m_diff, 1);
    m_split->addWidget(promptBox);
    m_split->addWidget(diffBox);
    m_split->setStretchFactor(0, 1);
    m_split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Strategy (the legend: each factor's snippets have its colour)"), this));
    layout->addLayout(factors);
    layout->addWidget(m_error);
    layout->addWidget(m_split, 1);

    connect(m_evaluated, &QComboBox::activated, this, [this](int i) {
        if (i < 0 || !m_view)
            return;
        if (auto s = PromptStrategy::parse(m_evaluated->itemData(i).toString()))
            setStrategy(*s);
    });
    connect(m_item, &QComboBox::currentIndexChanged, this, &HpssPromptInspector::render);
    connect(m_compare, &QComboBox::currentIndexChanged, this, &HpssPromptInspector::render);
    setView(nullptr);
}

void HpssPromptInspector::setView(const JudgeView *view)
{
    const std::optional<PromptStrategy> keep = strategy();
    const QString keepItem = itemId();
    const QString keepCompare = m_compare->currentData().toString();
    m_syncing = true;
    if (view)
        m_view = *view;
    else
        m_view.reset();
    m_evaluated->clear();
    m_compare->clear();
    m_item->clear();
    if (m_view) {
        for (const SearchRecord &r : m_view->search().evaluated()) {
            m_evaluated->addItem(strategyLabel(r), r.proposal.strategy.format());
            m_compare->addItem(strategyLabel(r), r.proposal.strategy.format());
        }
        QSet<QString> validation;
        for (const Item &item : m_view->builder().validation())
            validation.insert(item.id);
        if (m_view->isPairwise()) { // a pairwise judge's prompts are per pair
            for (qsizetype k = 0; k < m_view->pairs().size(); ++k) {
                const QString key = JudgeView::pairKey(m_view->pairs()[k]);
                m_item->addItem(k < m_view->validationPairCount() ? tr("%1 (validation)").arg(key) : key, key);
            }
        } else {
            for (const Item &item : m_view->items())
                m_item->addItem(validation.contains(item.id) ? tr("%1 (validation)").arg(item.id) : item.id, item.id);
        }
    }
    if (const int i = m_item->findData(keepItem); i >= 0)
        m_item->setCurrentIndex(i);
    if (const int i = m_compare->findData(keepCompare); i >= 0)
        m_compare->setCurrentIndex(i);
    else if (m_view && m_view->search().best())
        m_compare->setCurrentIndex(m_compare->findData(m_view->search().best()->proposal.strategy.format()));
    m_syncing = false;
    if (keep && m_view)
        setStrategy(*keep);
    else if (m_view && !m_view->search().evaluated().isEmpty())
        setStrategy(m_view->search().evaluated().first().proposal.strategy);
    else
        render();
}

void HpssPromptInspector::setStrategy(const PromptStrategy &strategy)
{
    m_syncing = true;
    for (int i = 0; i < kFactorCount; ++i)
        m_factors[size_t(i)]->setCurrentIndex(strategy.index(factorAt(i)));
    m_evaluated->setCurrentIndex(m_evaluated->findData(strategy.format()));
    m_syncing = false;
    render();
}

void HpssPromptInspector::setCompareStrategy(const PromptStrategy &strategy)
{
    const int i = m_compare->findData(strategy.format());
    if (i < 0)
        m_compare->addItem(strategy.format(), strategy.format());
    m_compare->setCurrentIndex(m_compare->findData(strategy.format()));
}

bool HpssPromptInspector::setItem(const QString &itemId)
{
    const int i = m_item->findData(itemId);
    if (i < 0)
        return false;
    m_item->setCurrentIndex(i);
    return true;
}

std::optional<PromptStrategy> HpssPromptInspector::strategy() const
{
    PromptStrategy s = PromptStrategy::mtBenchOrigin();
    for (int i = 0; i < kFactorCount; ++i) {
        const int j = m_factors[size_t(i)]->currentIndex();
        if (j < 0)
            return std::nullopt;
        s = s.with(factorAt(i), j);
    }
    return s;
}

QString HpssPromptInspector::itemId() const
{
    return m_item->currentData().toString();
}

void HpssPromptInspector::onFactorChanged()
{
    if (m_syncing)
        return;
    if (const auto s = strategy())
        m_evaluated->setCurrentIndex(m_evaluated->findData(s->format()));
    render();
}

void HpssPromptInspector::render()
{
    if (m_syncing)
        return;
    m_prompt->clear();
    m_diff->clear();
    m_spans.clear();
    QStringList errors;
    const auto s = strategy();
    if (!m_view || !s || itemId().isEmpty()) {
        m_error->setVisible(false);
        return;
    }
    auto prompt = m_view->render(*s, itemId());
    if (!prompt) {
        errors.append(tr("%1 for item '%2': %3").arg(s->format(), itemId(), prompt.errorString()));
    } else {
        m_spans = prompt->spans;
        // Plain text pieces with character formats: the dataset's text is never read as HTML.
        QTextCursor cursor(m_prompt->document());
        const QString &text = prompt->text;
        int at = 0;
        for (const PromptSpan &span : std::as_const(prompt->spans)) {
            if (span.start > at)
                cursor.insertText(text.mid(at, span.start - at), QTextCharFormat());
            QTextCharFormat format;
            format.setBackground(factorColor(span.factor));
            format.setToolTip(QStringLiteral("%1:%2").arg(factorName(span.factor), s->valueName(span.factor)));
            cursor.insertText(text.mid(span.start, span.length), format);
            at = span.start + span.length;
        }
        if (at < text.size())
            cursor.insertText(text.mid(at), QTextCharFormat());
        m_prompt->moveCursor(QTextCursor::Start);
    }
    const QString compareKey = m_compare->currentData().toString();
    if (!compareKey.isEmpty() && prompt) {
        auto other = PromptStrategy::parse(compareKey);
        auto otherPrompt = other ? m_view->render(*other, itemId()) : Result<RenderedPrompt>(other.error());
        if (!otherPrompt) {
            errors.append(tr("%1 for item '%2': %3").arg(compareKey, itemId(), otherPrompt.errorString()));
        } else {
            QTextCursor cursor(m_diff->document());
            QTextCharFormat removed, added, same;
            removed.setBackground(QColor(0xff, 0xd7, 0xd5));
            added.setBackground(QColor(0xd4, 0xf5, 0xd4));
            const auto lines
                    = lineDiff(prompt->text.split(QLatin1Char('\n')), otherPrompt->text.split(QLatin1Char('\n')));
            for (int i = 0; i < lines.size(); ++i) {
                const QChar kind = lines[i].first;
                const QTextCharFormat &f = kind == QLatin1Char('-') ? removed : kind == QLatin1Char('+') ? added : same;
                cursor.insertText(QString(kind) + QLatin1Char(' ') + lines[i].second, f);
                if (i + 1 < lines.size())
                    cursor.insertText(QStringLiteral("\n"), same);
            }
            m_diff->moveCursor(QTextCursor::Start);
        }
    }
    m_error->setText(errors.join(QLatin1Char('\n')));
    m_error->setVisible(!errors.isEmpty());
}

QString HpssPromptInspector::promptText() const
{
    return m_prompt->toPlainText();
}

QString HpssPromptInspector::diffText() const
{
    return m_diff->toPlainText();
}

QString HpssPromptInspector::errorText() const
{
    return m_error->text();
}

QString HpssPromptInspector::toolTipAt(int position) const
{
    QTextCursor c(m_prompt->document());
    c.setPosition(position + 1);
    return c.charFormat().toolTip();
}

QColor HpssPromptInspector::backgroundAt(int position) const
{
    QTextCursor c(m_prompt->document());
    c.setPosition(position + 1);
    const QBrush b = c.charFormat().background();
    return b.style() == Qt::NoBrush ? QColor() : b.color();
}

bool HpssPromptInspector::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_prompt->viewport() && event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = m_prompt->cursorForPosition(help->pos()).charFormat().toolTip();
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, m_prompt->viewport());
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace rubric
