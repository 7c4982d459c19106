#!/bin/sh
# Install the Debian packages one kind of Wuzi machine needs (idempotent; docs/install.md).
#
#   sh scripts/system-deps.sh [ROLE...]       ROLE: dev (the default), host, broker, screen, desk
#
#   dev     developers and CI (`make setup`): everything the tests and the demo start
#             mosquitto           the MQTT broker tests/bus, tests/host and the venue demo start
#             xvfb                a virtual X display for the pyglet screens when EGL headless
#                                 is absent
#             fonts-wqy-microhei  a CJK font, so Chinese names on the screens render (not boxes)
#             chromium            the real browser tests/display/test_web_browser.py drives
#                                 (Playwright at /usr/bin/chromium: its own download cannot work)
#             poppler-utils       pdftotext, pdfinfo, pdffonts and pdftoppm: the tests read the
#                                 certificates' PDFs (tests/tournament/test_awards.py)
#   host    a table host (Raspberry Pi OS Bookworm) or the director: nothing more from Debian
#           here. The Python packages come from the offline bundle (`make bundle`), lgpio
#           included as PyPI's wheel; the Pi's own python3 and python3-venv are all it uses,
#           and the bundle's install.sh checks them (scripts/system-deps.txt, the venue's list).
#   broker  the machine the venue file names as the broker: mosquitto
#   screen  a machine that runs a screen (scoreboard, clock display, arbiter): the CJK font
#   desk    the organisers' laptop (`wuzi tournament`, wuzi[desk]): the CJK font the
#           certificates' PDFs embed
#
# Run as root on a fresh Debian/Ubuntu machine; as a normal user it only warns, so
# `make setup` still works where packages are managed by someone else.
set -eu

[ $# -gt 0 ] || set -- dev

want_mosquitto=no want_xvfb=no want_font=no want_browser=no want_poppler=no
for role in "$@"; do
    case "$role" in
        dev) want_mosquitto=yes want_xvfb=yes want_font=yes want_browser=yes want_poppler=yes ;;
        host) ;;
        broker) want_mosquitto=yes ;;
        screen) want_font=yes ;;
        desk) want_font=yes ;;
        *) echo "system-deps: unknown role '$role' (dev, host, broker, screen, desk)" >&2; exit 2 ;;
    esac
done

missing=""
wanted=""

if [ "$want_mosquitto" = yes ]; then
    wanted="$wanted mosquitto"
    # Debian puts the broker in /usr/sbin, which is not on a normal user's PATH.
    have_mosquitto=no
    for found in "$(command -v mosquitto 2>/dev/null || true)" /usr/sbin/mosquitto /usr/local/sbin/mosquitto; do
        if [ -n "$found" ] && [ -x "$found" ]; then
            have_mosquitto=yes
        fi
    done
    [ "$have_mosquitto" = yes ] || missing="$missing mosquitto"
fi
if [ "$want_xvfb" = yes ]; then
    wanted="$wanted xvfb"
    [ -x /usr/bin/Xvfb ] || command -v Xvfb >/dev/null 2>&1 || missing="$missing xvfb"
fi
if [ "$want_font" = yes ]; then
    wanted="$wanted fonts-wqy-microhei"
    [ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing="$missing fonts-wqy-microhei"
fi
if [ "$want_poppler" = yes ]; then
    wanted="$wanted poppler-utils"
    [ -x /usr/bin/pdftotext ] || missing="$missing poppler-utils"
fi
if [ "$want_browser" = yes ]; then
    wanted="$wanted chromium"
    [ -x /usr/bin/chromium ] || missing="$missing chromium"
fi

if [ -z "$wanted" ]; then
    echo "system-deps: $*: no Debian packages needed"
    exit 0
fi
if [ -z "$missing" ]; then
    echo "system-deps: already installed:$wanted"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "system-deps: WARNING: missing Debian packages:$missing, and we are not root;" >&2
    echo "system-deps: WARNING: run 'sudo apt-get install$missing' ($* needs them)" >&2
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
