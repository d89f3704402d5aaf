#include "ImportDialog.h"

#include "PlainText.h"
#include "Settings.h"
#include "store/Project.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace rubric {
namespace {

enum HumanColumn { AspectCol, FieldCol, InferCol, MinCol, MaxCol };

QComboBox *fieldCombo(const QString &name, QWidget *parent)
{
    auto *c = new QComboBox(parent);
    c->setObjectName(name);
    c->setMinimumContentsLength(14);
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    return c;
}

void fillCombo(QComboBox *combo, const QStringList &fields, const QString &keep, const QString &none)
{
    QSignalBlocker block(combo);
    combo->clear();
    combo->addItem(none, QString());
    for (const QString &f : fields)
        combo->addItem(f, f);
    if (!keep.isEmpty() && combo->findData(keep) < 0)
        combo->addItem(keep, keep); // a preset's field the preview did not show (yet)
    const int i = combo->findData(keep);
    combo->setCurrentIndex(i < 0 ? 0 : i);
}

QString guess(const QStringList &fields, std::initializer_list<const char *> names)
{
    for (const char *n : names)
        for (const QString &f : fields)
            if (f.compare(QLatin1String(n), Qt::CaseInsensitive) == 0)
                return f;
    return {};
}

} // namespace

ImportDialog::ImportDialog(Project *project, QWidget *parent)
    : QDialog(parent)
    , m_project(project)
    , m_file(new QLineEdit(this))
    , m_browse(new QPushButton(tr("Browse…"), this))
    , m_format(new QComboBox(this))
    , m_preset(new QComboBox(this))
    , m_id(fieldCombo(QStringLiteral("idField"), this))
    , m_group(fieldCombo(QStringLiteral("groupField"), this))
    , m_system(fieldCombo(QStringLiteral("systemField"), this))
    , m_source(fieldCombo(QStringLiteral("sourceField"), this))
    , m_output(fieldCombo(QStringLiteral("outputField"), this))
    , m_reference(fieldCombo(QStringLiteral("referenceField"), this))
    , m_human(new QTableWidget(0, 5, this))
    , m_previewTable(new QTableWidget(this))
    , m_error(new QLabel(this))
    , m_extras(new QLabel(this))
    , m_scales(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
    , m_progress(new QProgressBar(this))
    , m_progressText(new QLabel(this))
{
    setObjectName(QStringLiteral("importDialog"));
    setWindowTitle(tr("Import a dataset"));
    resize(1000, 720);

    m_file->setObjectName(QStringLiteral("fileEdit"));
    m_file->setPlaceholderText(tr("A JSON, JSONL, CSV or TSV file"));
    m_browse->setObjectName(QStringLiteral("browseButton"));
    m_format->setObjectName(QStringLiteral("formatCombo"));
    m_format->addItem(tr("From the file name"), int(ImportFormat::Auto));
    m_format->addItem(QStringLiteral("JSON"), int(ImportFormat::Json));
    m_format->addItem(QStringLiteral("JSONL"), int(ImportFormat::Jsonl));
    m_format->addItem(QStringLiteral("CSV"), int(ImportFormat::Csv));
    m_format->addItem(QStringLiteral("TSV"), int(ImportFormat::Tsv));
    m_preset->setObjectName(QStringLiteral("presetCombo"));
    m_preset->addItem(tr("None: map the fields below"), QString());
    for (const QString &p : Importer::presetNames())
        m_preset->addItem(p, p);

    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(m_browse);
    auto *top = new QFormLayout;
    // Labels of layout rows get no buddy from QFormLayout: set them so the mnemonics work.
    auto *fileLabel = new QLabel(tr("&File:"), this);
    fileLabel->setBuddy(m_file);
    top->addRow(fileLabel, fileRow);
    auto *fmtRow = new QHBoxLayout;
    fmtRow->addWidget(m_format);
    fmtRow->addSpacing(16);
    fmtRow->addWidget(new QLabel(tr("&Preset:"), this));
    fmtRow->addWidget(m_preset);
    fmtRow->addStretch(1);
    static_cast<QLabel *>(fmtRow->itemAt(2)->widget())->setBuddy(m_preset);
    auto *formatLabel = new QLabel(tr("F&ormat:"), this);
    formatLabel->setBuddy(m_format);
    top->addRow(formatLabel, fmtRow);

    auto *mapping = new QGroupBox(tr("Fields"), this);
    auto *grid = new QFormLayout(mapping);
    grid->addRow(tr("Id:"), m_id);
    grid->addRow(tr("Group (document, prompt):"), m_group);
    grid->addRow(tr("System:"), m_system);
    grid->addRow(tr("Source:"), m_source);
    grid->addRow(tr("Output to judge:"), m_output);
    grid->addRow(tr("Reference:"), m_reference);
    m_extras->setObjectName(QStringLiteral("extrasLabel"));
    m_extras->setTextFormat(Qt::PlainText); // field names come from the file
    m_extras->setWordWrap(true);
    grid->addRow(m_extras);

    auto *humans = new QGroupBox(tr("Human scores"), this);
    auto *humanLayout = new QVBoxLayout(humans);
    m_human->setObjectName(QStringLiteral("humanTable"));
    m_human->setHorizontalHeaderLabels({tr("Aspect"), tr("Field"), tr("Scale"), tr("Min"), tr("Max")});
    m_human->horizontalHeader()->setSectionResizeMode(FieldCol, QHeaderView::Stretch);
    m_human->verticalHeader()->hide();
    auto *add = new QPushButton(tr("Add"), humans);
    add->setObjectName(QStringLiteral("addHumanButton"));
    auto *remove = new QPushButton(tr("Remove"), humans);
    remove->setObjectName(QStringLiteral("removeHumanButton"));
    auto *humanButtons = new QHBoxLayout;
    humanButtons->addStretch(1);
    humanButtons->addWidget(add);
    humanButtons->addWidget(remove);
    m_scales->setObjectName(QStringLiteral("scalesLabel"));
    m_scales->setTextFormat(Qt::PlainText); // refusals quote the file
    m_scales->setWordWrap(true);
    m_scales->setTextInteractionFlags(Qt::TextSelectableByMouse);
    humanLayout->addWidget(m_human, 1);
    humanLayout->addWidget(m_scales);
    humanLayout->addLayout(humanButtons);
    connect(add, &QPushButton::clicked, this, [this] { addHumanRow({}, {}, std::nullopt); });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_human->currentRow() >= 0)
            m_human->removeRow(m_human->currentRow());
        updateScales();
    });
    connect(m_human, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (item->column() == InferCol) {
            const bool infer = item->checkState() == Qt::Checked;
            for (int c : {MinCol, MaxCol})
                if (QWidget *spin = m_human->cellWidget(item->row(), c))
                    spin->setEnabled(!infer);
        }
        updateScales();
    });

    auto *middle = new QHBoxLayout;
    middle->addWidget(mapping, 2);
    middle->addWidget(humans, 3);

    m_previewTable->setObjectName(QStringLiteral("previewTable"));
    m_previewTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_previewTable->setWordWrap(false);
    m_previewTable->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    auto *previewBox = new QGroupBox(tr("First rows"), this);
    auto *previewLayout = new QVBoxLayout(previewBox);
    previewLayout->addWidget(m_previewTable);

    m_error->setObjectName(QStringLiteral("errorLabel"));
    m_error->setTextFormat(Qt::PlainText); // refusals quote the file
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(
            QStringLiteral("#errorLabel { color: #a01010; background: #fde8e8; padding: 6px; border-radius: 4px; }"));
    m_error->hide();

    auto *importButton = m_buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    importButton->setObjectName(QStringLiteral("importButton"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ImportDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ImportDialog::cancelImport);

    m_progress->setObjectName(QStringLiteral("importProgress"));
    m_progress->setRange(0, 1000);
    m_progress->hide();
    m_progressText->setObjectName(QStringLiteral("importProgressText"));
    m_progressText->setTextFormat(Qt::PlainText);
    m_progressText->hide();
    connect(&m_worker, &QFutureWatcher<void>::finished, this, &ImportDialog::onImportDone);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(middle);
    layout->addWidget(previewBox, 1);
    layout->addWidget(m_error);
    layout->addWidget(m_progressText);
    layout->addWidget(m_progress);
    layout->addWidget(m_buttons);

    connect(m_browse, &QPushButton::clicked, this, &ImportDialog::browse);
    connect(m_file, &QLineEdit::editingFinished, this, &ImportDialog::loadPreview);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ImportDialog::loadPreview);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &ImportDialog::applyPreset);
    connect(m_output, &QComboBox::currentIndexChanged, this, &ImportDialog::updateButtons);
    connect(m_output, &QComboBox::currentIndexChanged, this, &ImportDialog::updateScales);
    for (QPushButton *b : findChildren<QPushButton *>())
        b->setAutoDefault(false);
    updateButtons();
}

ImportDialog::~ImportDialog()
{
    // Hiding the dialog takes the focus from the file field, whose editingFinished would
    // otherwise reload the preview into half-destroyed widgets.
    disconnect(m_file, nullptr, this, nullptr);
    // Destroyed mid-import (its window went away): the worker is told to stop and, since it
    // writes to the project the dialog was given, waited for (it stops at its next record).
    if (m_running) {
        m_cancel->store(true);
        disconnect(&m_worker, nullptr, this, nullptr);
        m_worker.waitForFinished();
    }
}

void ImportDialog::keyPressEvent(QKeyEvent *event)
{
    // Enter in the file field loads the preview; it must never start the import by itself.
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        event->accept();
        return;
    }
    QDialog::keyPressEvent(event);
}

void ImportDialog::setFile(const QString &path)
{
    m_file->setText(path);
    loadPreview();
}

void ImportDialog::browse()
{
    const QString start = m_file->text().isEmpty() ? Settings::string(Settings::Key::LastDirectory)
                                                   : QFileInfo(m_file->text()).absolutePath();
    const QString file
            = QFileDialog::getOpenFileName(this, tr("Import a dataset"), start,
                                           tr("Datasets (*.json *.jsonl *.ndjson *.csv *.tsv *.tab);;All files (*)"));
    if (file.isEmpty())
        return;
    Settings::setValue(Settings::Key::LastDirectory, QFileInfo(file).absolutePath());
    setFile(file);
}

void ImportDialog::showError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

QString ImportDialog::errorText() const
{
    return m_error->isVisible() ? m_error->text() : QString();
}

void ImportDialog::loadPreview()
{
    const QString file = m_file->text().trimmed();
    m_preview = {};
    m_previewTable->clear();
    m_previewTable->setRowCount(0);
    m_previewTable->setColumnCount(0);
    if (file.isEmpty()) {
        showError({});
        fillFieldCombos();
        return;
    }
    auto preview = Importer::preview(file, ImportFormat(m_format->currentData().toInt()));
    if (!preview) {
        showError(preview.errorString());
        fillFieldCombos();
        return;
    }
    showError({});
    m_preview = std::move(preview).value();
    m_previewTable->setColumnCount(int(m_preview.fields.size()));
    m_previewTable->setHorizontalHeaderLabels(m_preview.fields);
    m_previewTable->setRowCount(int(m_preview.rows.size()));
    for (int r = 0; r < m_preview.rows.size(); ++r)
        for (int c = 0; c < m_preview.fields.size(); ++c) {
            const QVariant v = m_preview.rows[r].value(m_preview.fields[c]);
            QString text
                    = v.typeId() == QMetaType::QVariantList
                              ? QStringLiteral("[") + v.toStringList().join(QStringLiteral(", ")) + QStringLiteral("]")
                              : v.toString();
            auto *cell = new QTableWidgetItem(text.simplified().left(200));
            cell->setToolTip(plain::toolTip(text)); // the file's text, shown as written (never as markup)
            m_previewTable->setItem(r, c, cell);
        }
    m_previewTable->resizeColumnsToContents();
    for (int c = 0; c < m_previewTable->columnCount(); ++c)
        m_previewTable->setColumnWidth(c, std::clamp(m_previewTable->columnWidth(c), 80, 240));
    fillFieldCombos();
}

void ImportDialog::fillFieldCombos()
{
    const QStringList &f = m_preview.fields;
    const auto keepOr = [&](QComboBox *c, std::initializer_list<const char *> names) {
        const QString cur = c->currentData().toString();
        return (!cur.isEmpty() && f.contains(cur)) ? cur : guess(f, names);
    };
    const QString none = tr("(not mapped)");
    fillCombo(m_id, f, keepOr(m_id, {"id", "item_id", "uid"}), tr("(position in the file)"));
    fillCombo(m_group, f, keepOr(m_group, {"group", "doc", "doc_id", "document_id", "prompt_id", "dialogue_id"}), none);
    fillCombo(m_system, f, keepOr(m_system, {"system", "system_id", "model", "model_id"}), none);
    fillCombo(m_source, f, keepOr(m_source, {"source", "src", "article", "document", "input", "prompt", "context"}),
              none);
    fillCombo(m_output, f,
              keepOr(m_output, {"output", "out", "summary", "response", "hypothesis", "story", "generation"}), none);
    fillCombo(m_reference, f, keepOr(m_reference, {"reference", "ref", "target"}), none);
    for (int r = 0; r < m_human->rowCount(); ++r)
        if (auto *c = qobject_cast<QComboBox *>(m_human->cellWidget(r, FieldCol)))
            fillCombo(c, f, c->currentData().toString(), none);
    updateButtons();
    updateScales();
}

void ImportDialog::applyPreset()
{
    const QString name = m_preset->currentData().toString();
    m_presetExtras = {};
    m_extras->clear();
    if (name.isEmpty())
        return;
    auto preset = Importer::preset(name);
    if (!preset) {
        showError(preset.errorString());
        return;
    }
    const FieldMapping &m = preset.value();
    const auto set = [&](QComboBox *c, const QString &field) { fillCombo(c, m_preview.fields, field, c->itemText(0)); };
    set(m_id, m.id);
    set(m_group, m.group);
    set(m_system, m.system);
    set(m_source, m.source);
    set(m_output, m.output);
    set(m_reference, m.reference);
    m_human->setRowCount(0);
    {
        const QScopedValueRollback quiet(m_updatingScales, true); // one dry run below, not one per row
        for (const auto &[aspect, field] : m.human)
            addHumanRow(aspect, field,
                        m.scales.contains(aspect) ? std::optional(m.scales.value(aspect)) : std::nullopt);
    }
    m_presetExtras = m;
    QStringList extras;
    for (const auto &[ctx, field] : m.context)
        extras << tr("context %1 ← %2").arg(ctx, field);
    if (!m.definitions.isEmpty())
        extras << tr("the definition(s) of %n aspect(s)", nullptr, int(m.definitions.size()));
    m_extras->setText(extras.isEmpty() ? QString()
                                       : tr("The preset also maps: %1").arg(extras.join(QStringLiteral("; "))));
    updateButtons();
    updateScales();
}

void ImportDialog::addHumanRow(const QString &aspect, const QString &field, std::optional<QPair<double, double>> scale)
{
    const QSignalBlocker block(m_human);
    const int r = m_human->rowCount();
    m_human->insertRow(r);
    m_human->setItem(r, AspectCol, new QTableWidgetItem(aspect));
    auto *combo = new QComboBox(m_human);
    combo->setObjectName(QStringLiteral("humanField_%1").arg(r));
    fillCombo(combo, m_preview.fields, field, tr("(not mapped)"));
    m_human->setCellWidget(r, FieldCol, combo);
    connect(combo, &QComboBox::currentIndexChanged, this, &ImportDialog::updateScales);
    auto *infer = new QTableWidgetItem(tr("from the data"));
    infer->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    infer->setCheckState(scale ? Qt::Unchecked : Qt::Checked);
    infer->setToolTip(tr("Checked: the smallest and largest score in the file, widened to 0–1, 1–3, 1–5 or 1–10 "
                         "when one holds them (an aspect already in the project keeps its scale). Unchecked: Min "
                         "and Max; a score outside them refuses the import."));
    m_human->setItem(r, InferCol, infer);
    const QPair<double, double> range = scale.value_or(QPair<double, double>(1.0, 5.0));
    for (int c : {MinCol, MaxCol}) {
        auto *spin = new QDoubleSpinBox(m_human);
        spin->setObjectName(QStringLiteral("%1_%2")
                                    .arg(c == MinCol ? QLatin1String("humanMin") : QLatin1String("humanMax"))
                                    .arg(r));
        spin->setRange(-1000, 1000);
        spin->setDecimals(2);
        spin->setValue(c == MinCol ? range.first : range.second);
        spin->setEnabled(scale.has_value());
        connect(spin, &QDoubleSpinBox::valueChanged, this, &ImportDialog::updateScales);
        m_human->setCellWidget(r, c, spin);
    }
    if (aspect.isEmpty())
        m_human->setCurrentCell(r, AspectCol); // typing names the aspect
    updateScales();
}

void ImportDialog::updateScales()
{
    if (m_updatingScales)
        return;
    const ImportSpec s = spec();
    if (!m_project || s.file.isEmpty() || s.mapping.human.isEmpty() || m_preview.fields.isEmpty()) {
        m_scales->clear();
        return;
    }
    auto checked = Importer::check(*m_project, s);
    if (!checked) {
        m_scales->setText(tr("The import would be refused: %1").arg(checked.errorString()));
        return;
    }
    QStringList parts;
    for (const AspectScale &a : std::as_const(checked->scales)) {
        const QString range = Importer::scaleText(a.min, a.max);
        switch (a.origin) {
        case ScaleOrigin::Inferred:
            parts << tr("%1 %2 (inferred from the data)").arg(a.aspect, range);
            break;
        case ScaleOrigin::Project:
            parts << tr("%1 %2 (as in the project)").arg(a.aspect, range);
            break;
        case ScaleOrigin::Given:
            parts << tr("%1 %2 (as set)").arg(a.aspect, range);
            break;
        }
        // Show an inferred or kept scale in the row's (disabled) Min and Max.
        if (a.origin == ScaleOrigin::Given)
            continue;
        for (int r = 0; r < m_human->rowCount(); ++r) {
            const QTableWidgetItem *name = m_human->item(r, AspectCol);
            if (!name || name->text().trimmed() != a.aspect)
                continue;
            m_updatingScales = true;
            if (auto *lo = qobject_cast<QDoubleSpinBox *>(m_human->cellWidget(r, MinCol)))
                lo->setValue(a.min);
            if (auto *hi = qobject_cast<QDoubleSpinBox *>(m_human->cellWidget(r, MaxCol)))
                hi->setValue(a.max);
            m_updatingScales = false;
        }
    }
    m_scales->setText(tr("Scales: %1").arg(parts.join(QStringLiteral("; "))));
}

ImportSpec ImportDialog::spec() const
{
    ImportSpec s;
    s.file = m_file->text().trimmed();
    s.format = ImportFormat(m_format->currentData().toInt());
    // Start from the preset so that what the dialog has no widget for (context fields,
    // definitions, derived fields) is kept; the widgets then set the rest.
    s.mapping = m_presetExtras;
    FieldMapping &m = s.mapping;
    m.human.clear();
    m.scales.clear();
    m.id = m_id->currentData().toString();
    m.group = m_group->currentData().toString();
    m.system = m_system->currentData().toString();
    m.source = m_source->currentData().toString();
    m.output = m_output->currentData().toString();
    m.reference = m_reference->currentData().toString();
    for (int r = 0; r < m_human->rowCount(); ++r) {
        const QString aspect = m_human->item(r, AspectCol) ? m_human->item(r, AspectCol)->text().trimmed() : QString();
        const auto *field = qobject_cast<QComboBox *>(m_human->cellWidget(r, FieldCol));
        if (aspect.isEmpty() || !field || field->currentData().toString().isEmpty())
            continue;
        m.human.append({aspect, field->currentData().toString()});
        const QTableWidgetItem *infer = m_human->item(r, InferCol);
        if (infer && infer->checkState() == Qt::Checked)
            continue;
        const auto *lo = qobject_cast<QDoubleSpinBox *>(m_human->cellWidget(r, MinCol));
        const auto *hi = qobject_cast<QDoubleSpinBox *>(m_human->cellWidget(r, MaxCol));
        if (lo && hi)
            m.scales.insert(aspect, {lo->value(), hi->value()});
    }
    return s;
}

void ImportDialog::updateButtons()
{
    if (auto *b = findChild<QPushButton *>(QStringLiteral("importButton")))
        b->setEnabled(m_project && !m_file->text().trimmed().isEmpty());
}

void ImportDialog::accept()
{
    if (!m_project)
        return;
    ImportSpec s = spec();
    if (s.mapping.output.isEmpty() && s.mapping.source.isEmpty()) {
        showError(tr("Map at least the output (or the source) field."));
        return;
    }
    // The import runs on a worker thread with its own connection (Project::database() is per
    // thread); the GUI thread stays free and hears of the progress through queued calls.
    m_importFile = QFileInfo(s.file).fileName();
    m_cancel = std::make_shared<std::atomic_bool>(false);
    m_outcome = std::make_shared<std::optional<Result<ImportSummary>>>();
    // The dialog outlives the worker (its destructor waits): it is the context of the queued
    // reports, which Qt drops if it goes first.
    ImportDialog *dialog = this;
    s.progress = [dialog, cancel = m_cancel](const ImportProgress &p) {
        const int permille = p.bytesTotal > 0 ? int(1000 * p.bytesRead / p.bytesTotal) : 0;
        const QString text = p.text();
        QMetaObject::invokeMethod(
                dialog,
                [dialog, permille, items = p.items, text] {
                    if (!dialog->m_running)
                        return;
                    dialog->m_progress->setValue(permille);
                    dialog->m_progressText->setText(tr("Importing %1: %2").arg(dialog->m_importFile, text));
                    emit dialog->importProgressed(items, text);
                },
                Qt::QueuedConnection);
        return !cancel->load();
    };
    s.cancelled = [cancel = m_cancel] { return cancel->load(); };
    setImporting(true);
    m_progressText->setText(tr("Importing %1…").arg(m_importFile));
    Project *project = m_project;
    m_worker.setFuture(
            QtConcurrent::run([project, s, outcome = m_outcome] { outcome->emplace(Importer::run(*project, s)); }));
}

void ImportDialog::setImporting(bool running)
{
    m_running = running;
    showError({});
    m_progress->setValue(0);
    m_progress->setVisible(running);
    m_progressText->setVisible(running);
    // Nothing of the spec changes while it is imported; Cancel stays.
    for (QWidget *w : std::initializer_list<QWidget *>{m_file, m_browse, m_format, m_preset, m_id, m_group, m_system,
                                                       m_source, m_output, m_reference, m_human, m_previewTable})
        w->setEnabled(!running);
    if (auto *b = findChild<QPushButton *>(QStringLiteral("importButton")))
        b->setEnabled(!running);
    if (!running)
        updateButtons();
}

void ImportDialog::cancelImport()
{
    if (!m_running) {
        QDialog::reject();
        return;
    }
    // The worker stops at its next progress report (a quarter of a second at most) and rolls
    // back; the dialog stays open with the spec as it was.
    m_cancel->store(true);
    m_progressText->setText(tr("Cancelling the import of %1…").arg(m_importFile));
}

void ImportDialog::reject()
{
    // Escape or the window's close button: during an import, cancel it and close once it stopped.
    if (m_running)
        m_closeWhenDone = true;
    cancelImport();
}

void ImportDialog::onImportDone()
{
    const bool cancelled = m_cancel && m_cancel->load();
    Result<ImportSummary> r = m_outcome && m_outcome->has_value()
                                      ? std::move(**m_outcome)
                                      : Result<ImportSummary>(makeError(tr("the import stopped without a result")));
    setImporting(false);
    if (!r) {
        const QString message = cancelled ? tr("The import was cancelled; nothing was written.")
                                          : tr("Nothing was imported: %1").arg(r.errorString());
        showError(message);
        emit importFinished(false, message);
        if (m_closeWhenDone)
            QDialog::reject();
        m_closeWhenDone = false;
        return;
    }
    m_summary = r.value();
    Settings::setValue(Settings::Key::LastDirectory, QFileInfo(spec().file).absolutePath());
    emit importFinished(true, {});
    QDialog::accept();
}

} // namespace rubric
