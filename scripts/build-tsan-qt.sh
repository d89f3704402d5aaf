#!/usr/bin/env bash
# Builds the Qt libraries the engine's threads run through (QtCore, QtNetwork, QtSql, QtConcurrent,
# QtTest, and the SQLite and PostgreSQL drivers) with ThreadSanitizer, from Debian's own source of the
# installed qt6-base, so that `scripts/sanitize.sh thread` can run the suite against them:
#
#   scripts/build-tsan-qt.sh [DIR]          # default DIR: ~/.cache/rubric-tsan-qt
#   RUBRIC_TSAN_QT=DIR scripts/sanitize.sh thread
#
# Why: Debian's Qt is not instrumented, and Qt 6's QMutex waits on a futex, so TSan cannot see the
# hand-offs inside Qt (posted events, queued calls, QThreadPool, the QtConcurrent barrier, the QtTest
# watchdog) and reports each as a race. Built with -fsanitize=thread, Qt annotates its mutexes for TSan
# (src/corelib/thread/qtsan_impl.h). The libraries keep Debian's configuration (the feature list below
# is debian/rules'), so they are drop-in replacements for the installed ones; QtGui, QtWidgets,
# QtCharts, QtSvg and QtHttpServer stay Debian's (their work is on the GUI thread).
#
# Needs: deb-src entries in apt's sources (for `apt-get source`) and qt6-base's build dependencies
# (`apt-get build-dep qt6-base`, as root). About 40 minutes on two cores; 2 GB of disk.
set -euo pipefail
dir=${1:-${HOME}/.cache/rubric-tsan-qt}
version=$(dpkg-query -W -f='${source:Version}' libqt6core6)
mkdir -p "$dir"
cd "$dir"
src=$(find . -maxdepth 1 -type d -name 'qt6-base-*' | head -1)
if [ -z "$src" ]; then
    if ! apt-get source --download-only "qt6-base=$version" >/dev/null; then
        echo "build-tsan-qt.sh: 'apt-get source qt6-base=$version' failed: add a deb-src line for Debian to apt's sources and run apt-get update" >&2
        exit 1
    fi
    dpkg-source -x "qt6-base_${version#*:}.dsc" >/dev/null
    src=$(find . -maxdepth 1 -type d -name 'qt6-base-*' | head -1)
fi
src=$(cd "$src" && pwd)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
if [ ! -f build/build.ninja ]; then
    # -O1 with line tables, as scripts/sanitize.sh builds the project; the host tools (moc, rcc) are the
    # installed ones (QT_HOST_PATH), so only the libraries are built.
    cmake -S "$src" -B build -G Ninja --log-level=WARNING \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O1 -g1" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" \
        -DCMAKE_INSTALL_PREFIX="$dir/install" -DCMAKE_LIBRARY_PATH="$multiarch" -DINSTALL_LIBDIR=lib \
        -DQT_BUILD_TESTS=OFF -DQT_BUILD_EXAMPLES=OFF -DFEATURE_sanitize_thread=ON \
        -DQT_HOST_PATH=/usr -DQT_HOST_PATH_CMAKE_DIR="/usr/lib/$multiarch/cmake" -DQT_FORCE_FIND_TOOLS=ON \
        -DFEATURE_mimetype_database=OFF -DFEATURE_dbus_linked=ON -DFEATURE_accessibility=ON \
        -DFEATURE_doubleconversion=ON -DFEATURE_glib=ON -DFEATURE_icu=ON -DFEATURE_pcre2=ON \
        -DFEATURE_system_pcre2=ON -DFEATURE_ssl=ON -DFEATURE_libproxy=ON -DFEATURE_system_proxies=ON \
        -DFEATURE_cups=ON -DFEATURE_fontconfig=ON -DFEATURE_freetype=ON -DFEATURE_harfbuzz=ON \
        -DFEATURE_directfb=OFF -DFEATURE_sql_odbc=ON -DFEATURE_sql_mysql=ON -DFEATURE_sql_psql=ON \
        -DFEATURE_sql_sqlite=ON -DFEATURE_system_sqlite=ON -DFEATURE_jpeg=ON -DFEATURE_system_jpeg=ON \
        -DFEATURE_png=ON -DFEATURE_system_png=ON -DFEATURE_system_libb2=ON -DFEATURE_rpath=OFF \
        -DFEATURE_relocatable=OFF -DFEATURE_sql_ibase=OFF -DFEATURE_sctp=ON
fi
ninja -C build Core Network Sql Concurrent Test QSQLiteDriverPlugin QPSQLDriverPlugin
echo "build-tsan-qt.sh: Qt $version with TSan in $dir/build/lib; run: RUBRIC_TSAN_QT=$dir scripts/sanitize.sh thread"
