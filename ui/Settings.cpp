#include "Settings.h"

#include "store/DatabaseUrl.h"

#include <QFileInfo>
#include <QSettings>

namespace rubric {

QString Settings::name(Key key)
{
    switch (key) {
    case Key::WindowGeometry:
        return QStringLiteral("window/geometry");
    case Key::WindowState:
        return QStringLiteral("window/state");
    case Key::SplitterStates:
        return QStringLiteral("window/splitters");
    case Key::CurrentPane:
        return QStringLiteral("window/pane");
    case Key::RecentProjects:
        return QStringLiteral("files/recent");
    case Key::LastDirectory:
        return QStringLiteral("files/lastDirectory");
    case Key::AnnotatorName:
        return QStringLiteral("annotate/annotator");
    case Key::BlindMode:
        return QStringLiteral("annotate/blind");
    case Key::SuggestStratum:
        return QStringLiteral("annotate/stratum");
    case Key::Language:
        return QStringLiteral("ui/language");
    }
    return {};
}

QVariant Settings::defaultValue(Key key)
{
    switch (key) {
    case Key::WindowGeometry:
    case Key::WindowState:
        return QByteArray();
    case Key::SplitterStates:
        return QVariantMap();
    case Key::CurrentPane:
        return QStringLiteral("dataset");
    case Key::RecentProjects:
        return QStringList();
    case Key::LastDirectory:
        return QString();
    case Key::AnnotatorName:
        return QString();
    case Key::BlindMode:
        return true;
    case Key::SuggestStratum:
        return QStringLiteral("group");
    case Key::Language:
        return QString();
    }
    return {};
}

QVariant Settings::value(Key key)
{
    return QSettings().value(name(key), defaultValue(key));
}

void Settings::setValue(Key key, const QVariant &value)
{
    QSettings().setValue(name(key), value);
}

void Settings::remove(Key key)
{
    QSettings().remove(name(key));
}

void Settings::addRecentProject(const QString &path)
{
    // A team database is kept by its URL (Project::path(): without the password).
    const QString abs = DatabaseUrl::isDatabaseUrl(path) ? path : QFileInfo(path).absoluteFilePath();
    QStringList list = recentProjects();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > maxRecent)
        list.removeLast();
    setValue(Key::RecentProjects, list);
}

QStringList Settings::recentProjects()
{
    return value(Key::RecentProjects).toStringList();
}

} // namespace rubric
