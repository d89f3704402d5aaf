#!/bin/sh
# Runs a test inside a private D-Bus session with an unlocked gnome-keyring: a real Secret Service
# for QtKeychain (issue 18.9). The keyring lives in a temporary home that is removed afterwards.
# Exit 77 (ctest: skipped) when dbus-run-session or gnome-keyring-daemon is not installed
# (Debian: dbus, gnome-keyring).
command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1 || {
    echo "with_secret_service.sh: dbus-run-session or gnome-keyring-daemon is missing (apt-get install dbus gnome-keyring)"
    exit 77
}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/data" "$tmp/run" && chmod 700 "$tmp/run"
HOME=$tmp XDG_DATA_HOME=$tmp/data XDG_RUNTIME_DIR=$tmp/run RUBRIC_REQUIRE_SECRET_SERVICE=1 \
    dbus-run-session -- sh -c 'echo rubric-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null && "$@"' \
    sh "$@"
