#include "widgets/MethodParamsForm.h"

#include "methods/MethodRegistry.h"
#include "widgets/SpinBoxes.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
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

QString translated(const char *text)
{
    return text ? QCoreApplication::translate("rubric::MethodParams", text) : QString();
}

const MethodParam *paramOf(const QWidget *field)
{
    const MethodInfo *m = MethodRegistry::find(field->property("paramMethod").toString());
    return m ? m->param(field->property("paramKey").toString()) : nullptr;
}

} // namespace

MethodParamsForm::MethodParamsForm(QWidget *parent)
    : QStackedWidget(parent)
{
    setObjectName(QStringLiteral("methodParameters"));
    for (const MethodInfo &method : MethodRegistry::all()) {
        auto *page = new QWidget(this);
        page->setObjectName(QStringLiteral("params_") + method.name);
        auto *form = new QFormLayout(page);
        form->setContentsMargins(0, 0, 0, 0);
        QVector<QWidget *> &fields = m_fields[method.name];
        for (const MethodParam &p : method.params) {
            QWidget *field = makeField(p, page);
            field->setProperty("paramMethod", method.name);
            fields.append(field);
            // The widget that takes the value (a folder row's line edit) carries the name.
            QWidget *row = field;
            if (p.type == MethodParam::Type::Folder || p.type == MethodParam::Type::File) {
                row = new QWidget(page);
                auto *h = new QHBoxLayout(row);
                h->setContentsMargins(0, 0, 0, 0);
                auto *browse = new QToolButton(row);
                browse->setText(QStringLiteral("…"));
                const bool folder = p.type == MethodParam::Type::Folder;
                browse->setToolTip(folder ? tr("Choose the folder") : tr("Choose the file"));
                auto *edit = static_cast<QLineEdit *>(field);
                connect(browse, &QToolButton::clicked, this, [this, edit, folder] {
                    const QString path
                            = folder ? QFileDialog::getExistingDirectory(this, tr("Choose the folder"), edit->text())
                                     : QFileDialog::getOpenFileName(this, tr("Choose the file"), edit->text());
                    if (!path.isEmpty())
                        edit->setText(path);
                });
                h->addWidget(field, 1);
                h->addWidget(browse);
            }
            if (p.type == MethodParam::Type::Bool) {
                form->addRow(row);
                continue;
            }
            auto *label = new QLabel(translated(p.label) + QLatin1Char(':'), page);
            label->setToolTip(field->toolTip());
            label->setBuddy(field);
            form->addRow(label, row);
        }
        // A parameter that another one makes irrelevant (G-Eval's samples with logprobs) is greyed.
        for (QWidget *field : std::as_const(fields)) {
            const MethodParam *p = paramOf(field);
            if (!p || p->unusedWhen.isEmpty())
                continue;
            for (QWidget *other : std::as_const(fields))
                if (auto *box = qobject_cast<QCheckBox *>(other);
                    box && other->property("paramKey").toString() == p->unusedWhen) {
                    field->setEnabled(!box->isChecked());
                    connect(box, &QCheckBox::toggled, field, [field](bool on) { field->setEnabled(!on); });
                }
        }
        addWidget(page);
    }
}

QWidget *MethodParamsForm::makeField(const MethodParam &p, QWidget *page)
{
    const QString name = QStringLiteral("param_") + p.key;
    const QString tip = translated(p.help);
    QWidget *w = nullptr;
    switch (p.type) {
    case MethodParam::Type::Int: {
        auto *s = makeSpinBox(page, name, int(p.min), int(p.max), tip);
        s->setValue(p.defaultValue.toInt());
        w = s;
        break;
    }
    case MethodParam::Type::Double: {
        auto *s = makeDoubleSpinBox(page, name, p.min, p.max, p.decimals, tip);
        s->setValue(p.defaultValue.toDouble());
        w = s;
        break;
    }
    case MethodParam::Type::Bool: {
        auto *c = new QCheckBox(translated(p.label), page);
        c->setObjectName(name);
        c->setToolTip(tip);
        c->setChecked(p.defaultValue.toBool());
        w = c;
        break;
    }
    case MethodParam::Type::Choice: {
        auto *c = new QComboBox(page);
        c->setObjectName(name);
        c->setToolTip(tip);
        for (const QString &choice : p.choices)
            c->addItem(choice, choice);
        c->setCurrentIndex(qMax(0, c->findData(p.defaultValue.toString())));
        w = c;
        break;
    }
    case MethodParam::Type::Folder:
    case MethodParam::Type::File:
    case MethodParam::Type::Text: {
        auto *e = new QLineEdit(page);
        e->setObjectName(name);
        e->setToolTip(tip);
        e->setText(p.defaultValue.toString());
        w = e;
        break;
    }
    }
    w->setProperty("paramKey", p.key);
    return w;
}

void MethodParamsForm::writeTo(RunSpec &s) const
{
    for (QWidget *w : m_fields.value(s.method)) {
        const MethodParam *p = paramOf(w);
        if (!p)
            continue;
        QVariant value;
        if (auto *i = qobject_cast<QSpinBox *>(w))
            value = i->value();
        else if (auto *d = qobject_cast<QDoubleSpinBox *>(w))
            value = d->value();
        else if (auto *c = qobject_cast<QCheckBox *>(w))
            value = c->isChecked();
        else if (auto *b = qobject_cast<QComboBox *>(w))
            value = b->currentData();
        else if (auto *e = qobject_cast<QLineEdit *>(w))
            value = e->text().trimmed();
        setMethodParamValue(s, *p, value);
    }
}

void MethodParamsForm::readFrom(const RunSpec &s)
{
    for (QWidget *w : m_fields.value(s.method)) {
        const MethodParam *p = paramOf(w);
        if (!p)
            continue;
        const QVariant v = methodParamValue(s, *p);
        if (auto *i = qobject_cast<QSpinBox *>(w))
            i->setValue(v.toInt());
        else if (auto *d = qobject_cast<QDoubleSpinBox *>(w))
            d->setValue(v.toDouble());
        else if (auto *c = qobject_cast<QCheckBox *>(w))
            c->setChecked(v.toBool());
        else if (auto *b = qobject_cast<QComboBox *>(w))
            b->setCurrentIndex(qMax(0, b->findData(v.toString())));
        else if (auto *e = qobject_cast<QLineEdit *>(w))
            e->setText(v.toString());
    }
}

} // namespace rubric
