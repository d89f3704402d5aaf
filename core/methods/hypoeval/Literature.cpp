#include "Literature.h"

#include <QDir>
#include <QFile>
#include <QMap>

namespace rubric {

Result<QVector<LiteraturePaper>> Literature::read(const QString &dir)
{
    if (dir.isEmpty())
        return QVector<LiteraturePaper>{};
    const QDir d(dir);
    if (!d.exists())
        return makeError(tr("no literature folder '%1'").arg(dir), {}, 0, QStringLiteral("literature"));
    const QStringList files = d.entryList({QStringLiteral("*.txt"), QStringLiteral("*.md")}, QDir::Files, QDir::Name);
    if (files.isEmpty())
        return makeError(tr("the literature folder '%1' has no .txt or .md files").arg(dir), {}, 0,
                         QStringLiteral("literature"));
    QMap<QString, LiteraturePaper>
            byTitle; // sorted by title: the literature's order does not depend on the file system
    for (const QString &f : files) {
        QFile file(d.filePath(f));
        if (!file.open(QIODevice::ReadOnly))
            return makeError(tr("cannot read %1: %2").arg(file.fileName(), file.errorString()), {}, 0,
                             QStringLiteral("literature"));
        const QString text = QString::fromUtf8(file.readAll()).trimmed();
        if (text.isEmpty())
            return makeError(tr("%1 is empty").arg(file.fileName()), {}, 0, QStringLiteral("literature"));
        QString title = f.left(f.lastIndexOf(QLatin1Char('.')));
        const bool isSummary = title.endsWith(QLatin1String(".summary"));
        if (isSummary)
            title.chop(int(qstrlen(".summary")));
        LiteraturePaper &p = byTitle[title];
        if (!p.title.isEmpty() && (isSummary ? p.userSummary : !p.text.isEmpty()))
            return makeError(tr("%1: two files for '%2' (use one .txt or .md per paper and per summary)")
                                     .arg(d.filePath(f), title),
                             {}, 0, QStringLiteral("literature"));
        p.title = title;
        if (isSummary) {
            p.summary = text;
            p.userSummary = true;
            if (p.file.isEmpty())
                p.file = f;
        } else {
            p.text = text;
            p.file = f;
        }
    }
    return byTitle.values().toVector();
}

QString Literature::relevantPapers(const QVector<LiteraturePaper> &papers)
{
    QStringList parts;
    for (const LiteraturePaper &p : papers)
        if (!p.summary.isEmpty())
            parts.append(QStringLiteral("Paper: %1\n%2").arg(p.title, p.summary));
    return parts.join(QStringLiteral("\n\n"));
}

QString Literature::summaryOf(const QString &answer)
{
    QString text = answer.trimmed();
    if (text.startsWith(QLatin1String("Summary:"), Qt::CaseInsensitive))
        text = text.mid(int(qstrlen("Summary:"))).trimmed();
    return text;
}

} // namespace rubric
