#!/usr/bin/env bash
# Installs the Debian packages fixcast needs to build, test and run its demo, if any are missing.
# Asks for sudo when not root. Safe to run again: does nothing when all are present.
set -euo pipefail

packages=(gpsd gpsd-clients libgps-dev libcurl4-openssl-dev libsqlite3-dev sqlite3 python3 python3-gpxpy pkg-config time
          gpsbabel libxml2-utils tmux librsvg2-bin chromium fonts-dejavu-core mosquitto mosquitto-clients libmosquitto-dev libxml2-dev python3-jinja2 openssl
          zsh fish bash-completion man-db groff-base lintian dpkg-dev binutils systemd)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "fixcast: installing Debian packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "fixcast: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# gpsd's package may start a system gpsd on 2947 where systemd runs; fixcast's demo and tests use
# their own gpsd on free ports, so that one is left alone.
if ! command -v swift >/dev/null; then
  echo "fixcast: the Swift toolchain (6.x) is not on PATH; install it from swift.org and run this again." >&2
  exit 1
fi
