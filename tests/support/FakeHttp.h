#pragma once

#include <QByteArray>
#include <QString>

// The fake servers' HTTP/1.1 answers (tests only).
namespace rubric::test {

/// A complete HTTP/1.1 response with a JSON body (`announcedLength` ≥ 0: a Content-Length that lies).
QByteArray httpResponse(int status, const QByteArray &body, bool closeAfter, const QByteArray &extraHeaders = {},
                        qsizetype announcedLength = -1);
/// {"error": {"message": …, "type": …}}
QByteArray errorBody(const QString &message, const char *type);

} // namespace rubric::test
