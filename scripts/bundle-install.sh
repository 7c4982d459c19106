#!/bin/sh
# Install Wuzi from this offline bundle (made by `make bundle`; docs/install.md). No network:
# pip reads only this folder's files, each checked against SHA256SUMS and requirements.lock.
#
#   ./install.sh [VENV]        default VENV: /opt/wuzi/.venv; PYTHON=python3.11 picks the Python
#
#   ROLES=host,broker   the Debian packages of these roles (system-deps.txt; default: host)
#   DEPLOY=no           do not install deploy/ (as root it is installed by default: the wuzi
#                       user, the systemd units, the udev rules, the docs in /opt/wuzi/docs)
#
# Run it again with a newer bundle to upgrade (the venv is kept, Wuzi is replaced). Then
# VENV/bin/wuzi is the command (the systemd units in deploy/systemd/ run /opt/wuzi/.venv/bin/wuzi).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
venv=${1:-/opt/wuzi/.venv}
python=${PYTHON:-python3}
roles=${ROLES:-host}
deploy=${DEPLOY:-yes}

cd "$here"
sha256sum --quiet --strict -c SHA256SUMS || {
    echo "install: the bundle is damaged (SHA256SUMS does not match); copy it again" >&2
    exit 1
}

# The Debian packages of the roles (system-deps.txt): what is missing comes from apt, which
# needs the Debian archive or a local mirror; the bundle carries no .deb.
wanted=""
for role in $(echo "$roles" | tr ',' ' '); do
    line=$(grep -E "^$role:" system-deps.txt || true)
    [ -n "$line" ] || { echo "install: no role '$role' in system-deps.txt" >&2; exit 2; }
    wanted="$wanted ${line#*:}"
done
missing=""
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install: no dpkg-query here (not Debian): make sure of$wanted yourself" >&2
    wanted=""
fi
for package in $wanted; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' \
        || missing="$missing $package"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "install: missing Debian packages:$missing (roles $roles); as root: apt-get install$missing" >&2
        exit 1
    fi
    echo "install: apt-get install$missing (roles $roles)"
    # shellcheck disable=SC2086  # the package list is split on purpose
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing || {
        echo "install: apt-get could not install$missing: this machine needs the Debian archive or a local mirror for them (the bundle carries no .deb)" >&2
        exit 1
    }
fi

version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
case " $(cat PYTHON) " in
    *" $version "*) ;;
    *) echo "install: $python is Python $version; this bundle has wheels for Python $(cat PYTHON)" >&2
       exit 1 ;;
esac

# No pip configuration and no index: Raspberry Pi OS's /etc/pip.conf names piwheels, and a
# venue has no internet. Only this bundle's wheels are used.
export PIP_CONFIG_FILE=/dev/null PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
unset PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_FIND_LINKS PIP_CONSTRAINT PIP_REQUIRE_VIRTUALENV

if [ ! -x "$venv/bin/python" ]; then
    echo "install: creating $venv"
    "$python" -m venv "$venv" || {
        echo "install: '$python -m venv' failed (on Debian: apt-get install python3-venv)" >&2
        exit 1
    }
fi
"$venv/bin/python" -m pip install --quiet --no-index --find-links "$here/wheels" \
    --require-hashes -r "$here/requirements.lock"
"$venv/bin/python" -m pip install --quiet --no-index --no-deps --force-reinstall "$here"/wuzi*.whl
# the dataclasses' compiled methods, kept like .pyc files: a host starts ~70 ms sooner here,
# ~0.3 s on a Pi 4 (wuzi.base.codecache; docs/performance.md). Needs only the venv.
"$venv/bin/python" -m wuzi.base.codecache
echo "install: $("$venv/bin/wuzi" --version) in $venv"

# The deploy/ files, as root: the wuzi user (sysusers.d), the systemd units, the udev rules
# of the boards, the docs the units name (/opt/wuzi/docs). Nothing is enabled or started:
# put the venue file in /etc/wuzi/venue.toml first (docs/install.md).
if [ "$deploy" = yes ] && [ "$(id -u)" -eq 0 ]; then
    install -D -m 0644 deploy/sysusers.d/wuzi.conf /etc/sysusers.d/wuzi.conf
    if command -v systemd-sysusers >/dev/null 2>&1; then
        systemd-sysusers /etc/sysusers.d/wuzi.conf
    elif ! id wuzi >/dev/null 2>&1; then
        getent group gpio >/dev/null || groupadd --system gpio
        useradd --system --home-dir /var/lib/wuzi --no-create-home --shell /usr/sbin/nologin \
            --groups dialout,gpio wuzi
    fi
    for unit in deploy/systemd/*.service; do
        install -D -m 0644 "$unit" "/etc/systemd/system/$(basename "$unit")"
    done
    install -D -m 0644 deploy/udev/99-wuzi-boards.rules /etc/udev/rules.d/99-wuzi-boards.rules
    install -d -m 0755 /opt/wuzi/docs /etc/wuzi
    install -m 0644 docs/*.md /opt/wuzi/docs/
    install -m 0644 deploy/venue.example.toml /etc/wuzi/venue.example.toml
    if [ -d /run/systemd/system ]; then
        systemctl daemon-reload
        udevadm control --reload 2>/dev/null || true
    fi
    echo "install: deploy/ installed: user wuzi, /etc/systemd/system/wuzi-*.service, /etc/udev/rules.d/99-wuzi-boards.rules, /opt/wuzi/docs"
    echo "install: next: /etc/wuzi/venue.toml, then systemctl enable --now wuzi-host (docs/install.md)"
fi
