#pragma once

#include <QString>
#include <QStringList>
#include <QVariant>

namespace rubric {

/// The studio's typed settings (STYLE.md 15): every key has one name and one default here;
/// call sites name a Key, never a literal string. Backed by QSettings (per user, GUI thread).
/// Tests call QStandardPaths::setTestModeEnabled(true) so nothing touches the real settings.
class Settings
{
public:
    enum class Key {
        WindowGeometry, ///< QByteArray from QMainWindow::saveGeometry()
        WindowState,    ///< QByteArray from QMainWindow::saveState()
        SplitterStates, ///< QVariantMap: splitter objectName → QSplitter::saveState()
        CurrentPane,    ///< key of the pane shown last ("dataset", "annotate", …)
        RecentProjects, ///< QStringList, most recent first
        LastDirectory,  ///< folder of the last file chooser
        AnnotatorName,  ///< the name annotations are saved under
        BlindMode,      ///< bool: hide judge scores while annotating
        SuggestStratum, ///< "group", "system" or "none"
        Language,       ///< "" = follow the system locale, else a locale name ("de", "en")
    };

    static QString name(Key key);
    static QVariant defaultValue(Key key);

    static QVariant value(Key key);
    static void setValue(Key key, const QVariant &value);
    static void remove(Key key);

    static QString string(Key key) { return value(key).toString(); }
    static bool flag(Key key) { return value(key).toBool(); }

    /// Puts `path` first in the recent list (at most maxRecent entries, no duplicates).
    static void addRecentProject(const QString &path);
    static QStringList recentProjects();
    static constexpr int maxRecent = 8;
};

} // namespace rubric
