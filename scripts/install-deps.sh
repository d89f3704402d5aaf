#!/usr/bin/env bash
# Installs every Debian 12 package Rubric Studio needs to build, test and run.
# Idempotent: packages already present are left alone. As root it runs apt-get;
# otherwise it prints the command to run.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config ccache clang-format
  # Qt 6 (Widgets, Charts, Sql/SQLite, Network, Concurrent, Test, linguist tools, HTTP server for tests)
  qt6-base-dev qt6-base-dev-tools libqt6sql6-sqlite libqt6charts6-dev libqt6svg6-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-httpserver-dev
  libgl-dev libqt6opengl6-dev libxkbcommon-dev libvulkan-dev
  # libraries
  nlohmann-json3-dev libeigen3-dev libkainjow-mustache-dev qtkeychain-qt6-dev libboost-math-dev libxgboost-dev
  libyaml-cpp-dev
  # the importer: simdjson reads JSON/JSONL, SQLite's own interface writes the rows
  libsimdjson-dev libsqlite3-dev
  # running the studio headless / screenshots, statistics reference values
  xvfb xauth x11-apps imagemagick python3-scipy python3-sklearn sqlite3
  # the long-run benchmark (SQLite's profile hook) and the kill test (the fake server's counts)
  libsqlite3-dev curl
  # checking reports: pdftotext / pdfimages / pdftoppm, and a browser to open the HTML headless
  poppler-utils chromium
  # a real Secret Service for the keychain test (tests/judge/with_secret_service.sh)
  dbus gnome-keyring
  # team projects in PostgreSQL: Qt's driver, and the server the store tests start (initdb, pg_ctl)
  libqt6sql6-psql postgresql
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: run as root:"
  echo "  sudo apt-get update && sudo ${cmd[*]}"
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
"${cmd[@]}"
