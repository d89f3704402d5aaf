#include "MessageBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QToolButton>

namespace rubric {

MessageBar::MessageBar(QWidget *parent)
    : QFrame(parent)
    , m_label(new QLabel(this))
    , m_close(new QToolButton(this))
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("messageBar"));
    m_label->setObjectName(QStringLiteral("messageText"));
    m_label->setTextFormat(Qt::PlainText); // messages quote files, answers and server replies
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setText(QStringLiteral("✕"));
    m_close->setToolTip(tr("Close"));
    m_close->setAutoRaise(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_close);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &QWidget::hide);
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void MessageBar::showMessage(const QString &text, Kind kind)
{
    m_kind = kind;
    m_label->setText(text);
    setStyleSheet(
            kind == Kind::Error
                    ? QStringLiteral(
                            "#messageBar { background: #fde8e8; border: 1px solid #e0a0a0; border-radius: 4px; }")
                    : QStringLiteral(
                            "#messageBar { background: #e8f1fd; border: 1px solid #a0b8e0; border-radius: 4px; }"));
    show();
    if (kind == Kind::Info)
        m_timer->start(8000);
    else
        m_timer->stop();
}

QString MessageBar::text() const
{
    return m_label->text();
}

} // namespace rubric
