#include "AnnotatePane.h"

#include "PlainText.h"
#include "Settings.h"
#include "store/BrowseStore.h"
#include "store/ItemPageStore.h"
#include "store/Project.h"
#include "widgets/AgreementLabel.h"
#include "widgets/AspectScoreRow.h"
#include "widgets/ExpectedGainBox.h"
#include "widgets/SuggestionBox.h"

#include <QCheckBox>
#include <QDateTime>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace rubric {
namespace {

QTextBrowser *makeTextView(const QString &objectName, QWidget *parent)
{
    auto *view = new QTextBrowser(parent);
    view->setObjectName(objectName);
    view->setFocusPolicy(Qt::NoFocus);
    view->setLineWrapMode(QTextEdit::WidgetWidth);
    view->document()->setDocumentMargin(12);
    QFont f = view->font();
    f.setPointSizeF(f.pointSizeF() * 1.12);
    view->setFont(f);
    return view;
}

QWidget *titled(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    auto *label = new QLabel(title, box);
    QFont f = label->font();
    f.setBold(true);
    label->setFont(f);
    layout->addWidget(label);
    layout->addWidget(content, 1);
    return box;
}

QString cheatSheetText()
{
    const auto row = [](const QString &keys, const QString &what) {
        return QStringLiteral("<tr><td style='padding-right:16px'><b>%1</b></td><td>%2</td></tr>").arg(keys, what);
    };
    return QStringLiteral("<table>")
           + row(AnnotatePane::tr("1 … 9, 0"), AnnotatePane::tr("score the focused aspect, then go to the next aspect"))
           + row(AnnotatePane::tr("Tab / Shift+Tab, ↓ / ↑"), AnnotatePane::tr("next / previous aspect"))
           + row(AnnotatePane::tr("Enter"), AnnotatePane::tr("save the note and go to the next item"))
           + row(AnnotatePane::tr("→ / ←"), AnnotatePane::tr("next / previous item"))
           + row(AnnotatePane::tr("Backspace"), AnnotatePane::tr("clear the focused aspect's score"))
           + row(AnnotatePane::tr("N"), AnnotatePane::tr("write a note (Enter or Esc returns to scoring)"))
           + row(AnnotatePane::tr("?"), AnnotatePane::tr("show or hide this sheet")) + QStringLiteral("</table><p>")
           + AnnotatePane::tr("Every score is saved the moment you press the key.") + QStringLiteral("</p>");
}

} // namespace

AnnotatePane::AnnotatePane(QWidget *parent)
    : QWidget(parent)
    , m_pages(new QStackedWidget(this))
    , m_nameEdit(new QLineEdit(this))
    , m_start(new QPushButton(tr("Start annotating"), this))
    , m_surface(new QWidget(this))
    , m_who(new QLabel(this))
    , m_itemTitle(new QLabel(this))
    , m_progressLabel(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_blindCheck(new QCheckBox(tr("Blind (hide judge scores)"), this))
    , m_source(makeTextView(QStringLiteral("annotateSourceView"), this))
    , m_output(makeTextView(QStringLiteral("annotateOutputView"), this))
    , m_aspectBox(new QWidget(this))
    , m_note(new QLineEdit(this))
    , m_cheatSheet(new QFrame(this))
    , m_agreement(new AgreementLabel(this))
    , m_suggestions(new SuggestionBox(this))
    , m_expectedGain(new ExpectedGainBox(this))
    , m_footerDelay(new QTimer(this))
{
    setObjectName(QStringLiteral("annotatePane"));

    // --- start page: who is annotating
    auto *start = new QWidget(this);
    auto *startLayout = new QVBoxLayout(start);
    auto *startBox = new QWidget(start);
    startBox->setFixedWidth(480);
    auto *form = new QVBoxLayout(startBox);
    auto *hello = new QLabel(tr("<h2>Who is annotating?</h2><p>Your scores are saved under this name, so that "
                                "several people can label the same items and their agreement can be measured.</p>"),
                             startBox);
    hello->setWordWrap(true);
    m_nameEdit->setObjectName(QStringLiteral("annotatorEdit"));
    m_nameEdit->setPlaceholderText(tr("Your name"));
    m_start->setObjectName(QStringLiteral("startButton"));
    m_start->setDefault(true);
    form->addWidget(hello);
    form->addWidget(m_nameEdit);
    form->addWidget(m_start, 0, Qt::AlignRight);
    // Centred by stretches, not by alignment: an aligned widget gets its sizeHint height, and
    // the wrapped introduction would be cut to one line.
    auto *centred = new QHBoxLayout;
    centred->addStretch(1);
    centred->addWidget(startBox);
    centred->addStretch(1);
    startLayout->addStretch(1);
    startLayout->addLayout(centred);
    startLayout->addStretch(2);
    const auto startNow = [this] {
        if (!m_nameEdit->text().trimmed().isEmpty())
            setAnnotator(m_nameEdit->text().trimmed());
    };
    connect(m_start, &QPushButton::clicked, this, startNow);
    connect(m_nameEdit, &QLineEdit::returnPressed, this, startNow);

    // --- scoring page
    m_surface->setObjectName(QStringLiteral("annotateSurface"));
    m_surface->setFocusPolicy(Qt::StrongFocus);
    m_surface->installEventFilter(this);

    m_who->setObjectName(QStringLiteral("annotatorLabel"));
    auto *change = new QPushButton(tr("Change"), m_surface);
    change->setObjectName(QStringLiteral("changeAnnotatorButton"));
    change->setFocusPolicy(Qt::NoFocus);
    connect(change, &QPushButton::clicked, this, [this] {
        m_nameEdit->setText(m_annotator);
        m_pages->setCurrentIndex(0);
        m_nameEdit->setFocus();
    });
    m_itemTitle->setObjectName(QStringLiteral("itemTitle"));
    m_itemTitle->setTextFormat(Qt::PlainText); // ids, groups and systems come from the dataset
    QFont titleFont = m_itemTitle->font();
    titleFont.setBold(true);
    m_itemTitle->setFont(titleFont);
    m_itemTitle->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // long ids must not widen the window
    m_progressLabel->setObjectName(QStringLiteral("progressLabel"));
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(180);
    m_blindCheck->setObjectName(QStringLiteral("blindCheck"));
    m_blindCheck->setFocusPolicy(Qt::NoFocus);
    connect(m_blindCheck, &QCheckBox::toggled, this, &AnnotatePane::setBlind);
    auto *help = new QPushButton(tr("Keys (?)"), m_surface);
    help->setObjectName(QStringLiteral("helpButton"));
    help->setFocusPolicy(Qt::NoFocus);
    connect(help, &QPushButton::clicked, this, [this] { m_cheatSheet->setVisible(!m_cheatSheet->isVisible()); });

    auto *header = new QHBoxLayout;
    header->addWidget(m_who);
    header->addWidget(change);
    header->addSpacing(16);
    header->addWidget(m_itemTitle, 1);
    header->addWidget(m_progressLabel);
    header->addWidget(m_progress);
    header->addSpacing(12);
    header->addWidget(m_blindCheck);
    header->addWidget(help);

    m_cheatSheet->setObjectName(QStringLiteral("cheatSheet"));
    m_cheatSheet->setFrameShape(QFrame::StyledPanel);
    m_cheatSheet->setAutoFillBackground(true);
    {
        QPalette pal = m_cheatSheet->palette();
        pal.setColor(QPalette::Window, pal.color(QPalette::ToolTipBase));
        pal.setColor(QPalette::WindowText, pal.color(QPalette::ToolTipText));
        m_cheatSheet->setPalette(pal);
    }
    auto *cheatLayout = new QVBoxLayout(m_cheatSheet);
    auto *cheatText = new QLabel(cheatSheetText(), m_cheatSheet);
    cheatText->setTextFormat(Qt::RichText);
    cheatLayout->addWidget(cheatText);
    m_cheatSheet->hide();

    auto *aspectsLayout = new QVBoxLayout(m_aspectBox);
    aspectsLayout->setContentsMargins(0, 0, 0, 0);
    aspectsLayout->setSpacing(8);
    auto *scroll = new QScrollArea(m_surface);
    scroll->setWidgetResizable(true);
    scroll->setFocusPolicy(Qt::NoFocus);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_aspectBox);
    m_note->setObjectName(QStringLiteral("noteEdit"));
    m_note->setPlaceholderText(tr("Note (optional): N to write, Enter or Esc to return"));
    m_note->setFocusPolicy(Qt::ClickFocus);
    m_note->installEventFilter(this);
    auto *right = new QWidget(m_surface);
    right->setMinimumWidth(380); // room for the definitions to read as paragraphs
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(scroll, 1);
    rightLayout->addWidget(m_note);

    auto *texts = new QSplitter(Qt::Horizontal, m_surface);
    texts->setObjectName(QStringLiteral("annotateSplitter"));
    texts->addWidget(titled(tr("Source"), m_source, texts));
    texts->addWidget(titled(tr("Output to score"), m_output, texts));
    texts->addWidget(right);
    texts->setStretchFactor(0, 5);
    texts->setStretchFactor(1, 3);
    texts->setStretchFactor(2, 4);

    connect(m_suggestions, &SuggestionBox::itemChosen, this, [this](const QString &id) { goToItem(id); });
    connect(m_suggestions, &SuggestionBox::problem, this, &AnnotatePane::problem);
    connect(m_expectedGain, &ExpectedGainBox::itemChosen, this, [this](const QString &id) { goToItem(id); });
    connect(m_suggestions, &SuggestionBox::stratumChanged, this, [this] { refreshFooter(Suggestions); });
    connectWorkers();

    auto *footer = new QHBoxLayout;
    footer->addWidget(m_agreement, 1);
    footer->addSpacing(16);
    footer->addWidget(m_suggestions, 1);
    footer->addSpacing(16);
    footer->addWidget(m_expectedGain, 1);

    auto *surfaceLayout = new QVBoxLayout(m_surface);
    surfaceLayout->addLayout(header);
    surfaceLayout->addWidget(m_cheatSheet);
    surfaceLayout->addWidget(texts, 1);
    surfaceLayout->addLayout(footer);

    m_pages->addWidget(start);
    m_pages->addWidget(m_surface);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_pages);

    m_blind = Settings::flag(Settings::Key::BlindMode);
    m_blindCheck->setChecked(m_blind);
    setAnnotator(Settings::string(Settings::Key::AnnotatorName));
    setProject(nullptr);
}

void AnnotatePane::setProject(Project *project)
{
    if (m_project)
        disconnect(m_project, nullptr, this, nullptr);
    m_project = project;
    if (m_project) {
        connect(m_project, &Project::aspectsChanged, this, &AnnotatePane::reload);
        connect(m_project, &Project::splitChanged, this, &AnnotatePane::reload);
        connect(m_project, &Project::itemsChanged, this, &AnnotatePane::reload);
        connect(m_project, &Project::judgesChanged, this, [this] { updateJudges(); });
        connect(m_project, &Project::annotationsReset, this, &AnnotatePane::reload);
        // A score or note of the item shown, changed here or by a teammate: merged into what
        // is shown (a note being typed stays as typed).
        connect(m_project, &Project::annotationChanged, this, [this](const QString &itemId) {
            if (itemId == currentItemId())
                showMine(itemId);
        });
    }
    m_index = -1;
    m_currentId.clear();
    m_queue = {};
    m_scored.clear();
    m_done = 0;
    reload();
}

void AnnotatePane::setAnnotator(const QString &name)
{
    const QString trimmed = name.trimmed();
    const bool changed = trimmed != m_annotator;
    if (changed) {
        m_annotator = trimmed;
        if (!trimmed.isEmpty())
            Settings::setValue(Settings::Key::AnnotatorName, trimmed);
        emit annotatorChanged(trimmed);
    }
    m_who->setText(tr("Annotating as <b>%1</b>").arg(m_annotator.toHtmlEscaped()));
    m_nameEdit->setText(m_annotator);
    m_pages->setCurrentIndex(m_annotator.isEmpty() ? 0 : 1);
    if (m_annotator.isEmpty())
        m_nameEdit->setFocus();
    else
        m_surface->setFocus();
    if (changed && m_project)
        reload(); // another person's progress and suggestions
    else
        showCurrent();
}

void AnnotatePane::setBlind(bool blind)
{
    m_blind = blind;
    Settings::setValue(Settings::Key::BlindMode, blind);
    if (m_blindCheck->isChecked() != blind)
        m_blindCheck->setChecked(blind);
    updateJudges();
    refreshFooter(Agreement);
}

QString AnnotatePane::currentItemId() const
{
    return m_currentId;
}

void AnnotatePane::rebuildAspects()
{
    for (AspectScoreRow *row : std::as_const(m_rows))
        delete row;
    m_rows.clear();
    auto *layout = static_cast<QVBoxLayout *>(m_aspectBox->layout());
    while (QLayoutItem *item = layout->takeAt(0))
        delete item;
    for (int i = 0; i < m_aspects.size(); ++i) {
        auto *row = new AspectScoreRow(m_aspects[i], m_aspectBox);
        connect(row, &AspectScoreRow::scoreClicked, this, [this, i](double score) {
            setActiveAspect(i);
            setScore(i, score);
            m_surface->setFocus();
        });
        layout->addWidget(row);
        m_rows.append(row);
    }
    layout->addStretch(1);
    m_active = 0;
}

void AnnotatePane::readFailed(const QString &message)
{
    m_readError = message;
    const QString text = tr("Cannot read the project: %1").arg(message);
    m_itemTitle->setText(text);
    emit problem(text);
}

void AnnotatePane::showCurrent()
{
    // The item's key to its id, then the one item with its texts: two indexed look-ups.
    m_currentId.clear();
    QString error = m_readError;
    if (m_project && error.isEmpty() && m_index >= 0 && m_index < m_queue.keys.size()) {
        auto read = ItemPageStore(m_project).rows({m_queue.keys[m_index]}, {}, 0);
        if (read && !read->isEmpty())
            m_currentId = read->first().id;
        else if (!read)
            error = read.errorString();
    }
    const QString id = m_currentId;
    std::optional<Item> item;
    if (m_project && !id.isEmpty() && error.isEmpty()) {
        auto read = m_project->readItem(id);
        if (read)
            item = std::move(read).value();
        else
            error = read.errorString();
    }
    if (!item) {
        m_itemTitle->setText(!m_project               ? tr("No project open.")
                             : m_loading              ? tr("Reading the queue…")
                             : m_queue.keys.isEmpty() ? tr("The project has no items yet.")
                                                      : QString());
        if (!error.isEmpty())
            readFailed(error);
        m_source->clear();
        m_output->clear();
        for (AspectScoreRow *row : std::as_const(m_rows))
            row->setScore(std::nullopt);
        m_note->clear();
    } else {
        // Group ids are often long hashes: shortened here, whole in the tooltip. Isolated so that a
        // right-to-left override in an id cannot reorder the rest of the line.
        const auto shortId = [](const QString &s) { return plain::isolate(s.size() > 18 ? plain::elide(s, 17) : s); };
        QStringList meta{tr("Item %1 of %2").arg(m_index + 1).arg(m_queue.keys.size()),
                         tr("id %1").arg(plain::isolate(plain::elide(item->id, 200)))};
        if (!item->group.isEmpty())
            meta << tr("group %1").arg(shortId(item->group));
        if (!item->system.isEmpty())
            meta << tr("system %1").arg(shortId(item->system));
        m_itemTitle->setText(meta.join(QStringLiteral(" · ")));
        m_itemTitle->setToolTip(plain::toolTip(tr("group %1, system %2").arg(item->group, item->system)));
        QString source = item->source;
        for (auto it = item->context.begin(); it != item->context.end(); ++it)
            source += QStringLiteral("\n\n[") + it.key() + QStringLiteral("]\n") + it.value().toString();
        m_source->setPlainText(plain::forViewer(source));
        m_output->setPlainText(plain::forViewer(item->output));

        showMine(id);
    }
    setActiveAspect(std::clamp(m_active, 0, std::max(0, int(m_rows.size()) - 1)));
    updateJudges();
    updateProgress();
    // The expected gain ranks for the aspect active as an item is shown (the first, after a move).
    if (const QString aspect = m_aspects.isEmpty() ? QString() : m_aspects.value(m_active).name;
        aspect != m_gainAspect) {
        m_gainAspect = aspect;
        refreshFooter(Gain);
    }
}

void AnnotatePane::showMine(const QString &id)
{
    // This annotator's own scores and note for the item, as stored now.
    QHash<QString, double> mine;
    QString note;
    if (!m_annotator.isEmpty()) {
        const auto r = BrowseStore(m_project).itemAnnotations(id, m_annotator);
        if (r)
            for (const Annotation &a : *r) {
                mine.insert(a.aspect, a.score);
                if (note.isEmpty())
                    note = a.note;
            }
        if (!r)
            readFailed(tr("your scores of item %1: %2").arg(id, r.errorString()));
    }
    for (AspectScoreRow *row : std::as_const(m_rows)) {
        const auto it = mine.constFind(row->aspect().name);
        row->setScore(it == mine.cend() ? std::nullopt : std::optional<double>(*it));
    }
    // A note typed on this item and not saved yet is never replaced by what is stored.
    if (!(m_note->isModified() && m_noteItem == id)) {
        m_note->setText(note);
        m_note->setModified(false);
        m_noteItem = id;
    }
}

void AnnotatePane::setActiveAspect(int index)
{
    if (m_rows.isEmpty())
        return;
    m_active = (index + int(m_rows.size())) % int(m_rows.size());
    for (int i = 0; i < m_rows.size(); ++i)
        m_rows[i]->setActive(i == m_active);
}

void AnnotatePane::scoreActive(double score)
{
    if (m_active < 0 || m_active >= m_rows.size())
        return;
    setScore(m_active, score);
    if (m_rows[m_active]->score() == score && m_active + 1 < m_rows.size())
        setActiveAspect(m_active + 1);
}

void AnnotatePane::setScore(int aspectIndex, double score)
{
    const QString id = currentItemId();
    if (!m_project || id.isEmpty() || m_annotator.isEmpty())
        return;
    // Only this score is written (and the note, when one was typed and not saved yet): the
    // other aspects' scores and a note changed elsewhere are not written back stale.
    const bool typed = m_note->isModified() && m_noteItem == id;
    // Read before the write: the project's change signal shows the stored scores at once.
    const bool wasScored = m_rows[aspectIndex]->score().has_value();
    const std::optional<QString> note = typed ? std::optional<QString>(m_note->text().trimmed()) : std::nullopt;
    if (auto r = m_project->setAnnotationScore(id, m_aspects[aspectIndex].name, m_annotator, score, note); !r) {
        emit problem(tr("Could not save the score: %1").arg(r.errorString()));
        return;
    }
    if (typed)
        saveNote(); // the typed note goes to the item's other scores too
    m_rows[aspectIndex]->setScore(score);
    if (!wasScored) {
        const int before = m_scored.value(id);
        countScored(id, before, before + 1);
    }
    updateProgress();
    // Suggestions, agreement and the expected gain move with every label: computed again on a
    // worker, once a burst of keys has settled.
    refreshFooter(AllParts);
}

void AnnotatePane::clearScore(int aspectIndex)
{
    const QString id = currentItemId();
    if (!m_project || id.isEmpty() || m_annotator.isEmpty() || aspectIndex >= m_aspects.size())
        return;
    const bool wasScored = m_rows[aspectIndex]->score().has_value(); // before the change signal
    if (auto r = m_project->removeAnnotation(id, m_aspects[aspectIndex].name, m_annotator); !r) {
        emit problem(tr("Could not clear the score: %1").arg(r.errorString()));
        return;
    }
    m_rows[aspectIndex]->setScore(std::nullopt);
    if (wasScored) {
        const int before = m_scored.value(id);
        countScored(id, before, std::max(0, before - 1));
    }
    updateProgress();
    refreshFooter(AllParts);
}

void AnnotatePane::saveNote()
{
    const QString id = currentItemId();
    if (!m_project || id.isEmpty() || m_annotator.isEmpty())
        return;
    if (!m_note->isModified() || m_noteItem != id)
        return; // nothing typed: nothing to write (a stale note must not overwrite a newer one)
    // The note travels with each of this annotator's scores for the item; the scores are not
    // written. Before the first score it waits, typed, and goes with that score.
    const auto r = m_project->setAnnotationNote(id, m_annotator, m_note->text().trimmed());
    if (!r)
        emit problem(tr("Could not save the note: %1").arg(r.errorString()));
    else if (*r > 0)
        m_note->setModified(false);
}

void AnnotatePane::move(int delta)
{
    if (m_queue.keys.isEmpty())
        return;
    const int next = std::clamp(m_index + delta, 0, int(m_queue.keys.size()) - 1);
    if (next == m_index)
        return;
    m_index = next;
    m_active = 0;
    showCurrent();
}

bool AnnotatePane::goToItem(const QString &id)
{
    if (!m_project || m_queue.keys.isEmpty())
        return false;
    const auto key = ItemPageStore(m_project).keyOf(id);
    if (!key) {
        emit problem(tr("Cannot read the project: %1").arg(key.errorString()));
        return false;
    }
    const int i = *key < 0 ? -1 : int(m_queue.keys.indexOf(*key));
    if (i < 0)
        return false;
    m_index = i;
    m_active = 0;
    showCurrent();
    m_surface->setFocus();
    return true;
}

void AnnotatePane::updateJudges()
{
    const QString id = currentItemId();
    QHash<QString, QStringList> perAspect;
    QString judgeError;
    if (!m_blind && m_project && !id.isEmpty()) {
        const auto r = BrowseStore(m_project).itemJudgeScores(id);
        if (r)
            for (const ItemJudgeScore &s : *r)
                perAspect[s.aspect].append(tr("%1: %2").arg(s.judge, QString::number(s.score, 'f', 2)));
        if (!r)
            judgeError = tr("Cannot read the judges' scores: %1").arg(r.errorString());
    }
    for (AspectScoreRow *row : std::as_const(m_rows)) {
        const QStringList judges = perAspect.value(row->aspect().name);
        row->setJudgeText(!judgeError.isEmpty() ? judgeError
                          : judges.isEmpty()    ? QString()
                                                : tr("Judges — %1").arg(judges.join(QStringLiteral(", "))));
    }
}

void AnnotatePane::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_annotator.isEmpty())
        m_nameEdit->setFocus();
    else
        m_surface->setFocus();
}

bool AnnotatePane::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_note && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter || key->key() == Qt::Key_Escape) {
            saveNote();
            m_surface->setFocus();
            return true;
        }
        return false; // typing a note: no shortcut fires
    }
    if (watched == m_surface && (event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride)) {
        auto *key = static_cast<QKeyEvent *>(event);
        // Claim the keys the pane uses before the window's shortcuts see them.
        if (event->type() == QEvent::ShortcutOverride) {
            if (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
                return false;
            event->accept();
            return true;
        }
        return handleKey(key);
    }
    return QWidget::eventFilter(watched, event);
}

bool AnnotatePane::handleKey(QKeyEvent *event)
{
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    const QString text = event->text();
    switch (event->key()) {
    case Qt::Key_Tab:
    case Qt::Key_Down:
        setActiveAspect(m_active + 1);
        return true;
    case Qt::Key_Backtab:
    case Qt::Key_Up:
        setActiveAspect(m_active - 1);
        return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        saveNote();
        move(+1);
        return true;
    case Qt::Key_Right:
        move(+1);
        return true;
    case Qt::Key_Left:
        move(-1);
        return true;
    case Qt::Key_Backspace:
    case Qt::Key_Delete:
        clearScore(m_active);
        return true;
    case Qt::Key_Escape:
        m_cheatSheet->hide();
        return true;
    case Qt::Key_N:
        m_note->setFocus();
        return true;
    default:
        break;
    }
    if (text == QLatin1String("?")) {
        m_cheatSheet->setVisible(!m_cheatSheet->isVisible());
        return true;
    }
    if (text.size() == 1 && text[0].isDigit() && m_active < m_rows.size()) {
        if (const auto score = m_rows[m_active]->scoreForDigit(text[0].digitValue()))
            scoreActive(*score);
        return true;
    }
    return false;
}

} // namespace rubric
