#!/bin/sh
# Install the system packages Wuzi's tests and demo need (idempotent).
#
#   mosquitto           the MQTT broker tests/bus, tests/host and the venue demo start
#   xvfb                a virtual X display for the pyglet screens when EGL headless is absent
#   fonts-wqy-microhei  a CJK font, so Chinese names on the screens render (not as boxes)
#
# Run as root on a fresh Debian/Ubuntu machine (CI, a new Pi); as a normal user it only
# warns, so `make setup` still works where packages are managed by someone else.
set -eu

missing=""

# Debian puts the broker in /usr/sbin, which is not on a normal user's PATH.
have_mosquitto=no
for found in "$(command -v mosquitto 2>/dev/null || true)" /usr/sbin/mosquitto /usr/local/sbin/mosquitto; do
    if [ -n "$found" ] && [ -x "$found" ]; then
        have_mosquitto=yes
    fi
done
[ "$have_mosquitto" = yes ] || missing="$missing mosquitto"
[ -x /usr/bin/Xvfb ] || command -v Xvfb >/dev/null 2>&1 || missing="$missing xvfb"
[ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing="$missing fonts-wqy-microhei"

if [ -z "$missing" ]; then
    echo "system-deps: mosquitto, xvfb and fonts-wqy-microhei are installed"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "system-deps: WARNING: missing Debian packages:$missing, and we are not root;" >&2
    echo "system-deps: WARNING: run 'sudo apt-get install$missing' (tests need them)" >&2
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "system-deps: WARNING: no apt-get here; install$missing with your package manager" >&2
    exit 0
fi

echo "system-deps: installing$missing: apt-get update && apt-get install -y$missing"
apt-get update -qq
# shellcheck disable=SC2086  # word splitting of the package list is intended
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
echo "system-deps: installed$missing"
