#!/bin/sh
# Install the system packages Wuzi's tests and demo need (idempotent).
#
# Today that is only the Mosquitto MQTT broker, which tests/bus starts as a real broker.
# Run as root on a fresh Debian/Ubuntu machine (CI, a new Pi); as a normal user it only
# warns, so `make setup` still works where packages are managed by someone else.
set -eu

# Debian puts the broker in /usr/sbin, which is not on a normal user's PATH.
for found in "$(command -v mosquitto 2>/dev/null || true)" /usr/sbin/mosquitto /usr/local/sbin/mosquitto; do
    if [ -n "$found" ] && [ -x "$found" ]; then
        echo "system-deps: mosquitto already installed at $found"
        exit 0
    fi
done

if [ "$(id -u)" -ne 0 ]; then
    echo "system-deps: WARNING: mosquitto is not installed and we are not root;" >&2
    echo "system-deps: WARNING: run 'sudo apt-get install mosquitto' (tests/bus will fail without it)" >&2
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "system-deps: WARNING: no apt-get here; install mosquitto with your package manager" >&2
    exit 0
fi

echo "system-deps: installing mosquitto: apt-get update && apt-get install -y mosquitto"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto
echo "system-deps: mosquitto installed at $(command -v mosquitto || echo /usr/sbin/mosquitto)"
