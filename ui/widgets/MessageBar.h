#pragma once

#include <QFrame>

class QLabel;
class QTimer;
class QToolButton;

namespace rubric {

/// An inline message strip (STYLE.md 18): routine errors and notices appear here instead of in
/// modal boxes. Errors stay until closed or replaced; notices fade after a few seconds.
class MessageBar : public QFrame
{
    Q_OBJECT
public:
    enum class Kind { Info, Error };

    explicit MessageBar(QWidget *parent = nullptr);

    void showMessage(const QString &text, Kind kind = Kind::Info);
    void showError(const QString &text) { showMessage(text, Kind::Error); }
    QString text() const;
    Kind kind() const { return m_kind; }

private:
    QLabel *m_label;
    QToolButton *m_close;
    QTimer *m_timer;
    Kind m_kind = Kind::Info;
};

} // namespace rubric
