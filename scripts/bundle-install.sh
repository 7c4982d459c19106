#!/bin/sh
# Install Wuzi from this offline bundle (made by `make bundle`; docs/install.md). No network:
# pip reads only this folder's files, each checked against SHA256SUMS and requirements.lock.
#
#   ./install.sh [VENV]        default VENV: /opt/wuzi/.venv; PYTHON=python3.11 picks the Python
#
# Run it again with a newer bundle to upgrade (the venv is kept, Wuzi is replaced). Then
# VENV/bin/wuzi is the command (the systemd units in deploy/systemd/ run /opt/wuzi/.venv/bin/wuzi).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
venv=${1:-/opt/wuzi/.venv}
python=${PYTHON:-python3}

cd "$here"
sha256sum --quiet --strict -c SHA256SUMS || {
    echo "install: the bundle is damaged (SHA256SUMS does not match); copy it again" >&2
    exit 1
}

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
"$venv/bin/python" -m pip install --quiet --no-index --no-deps --force-reinstall "$here"/wuzi-*.whl
# the dataclasses' compiled methods, kept like .pyc files: a host starts ~70 ms sooner here,
# ~0.3 s on a Pi 4 (wuzi.base.codecache; docs/performance.md). Needs only the venv.
"$venv/bin/python" -m wuzi.base.codecache
echo "install: $("$venv/bin/wuzi" --version) in $venv"
