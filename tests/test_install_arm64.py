"""The done-when of issue 34, as a test: on an arm64 Debian Bookworm root under emulation
(qemu-user through binfmt), the unpacked bundle installs a table host offline with
``wuzi[host]`` only — no wuzi/sim, no wuzi/display, no pyglet in site-packages — installs
deploy/ (the wuzi user, the units, the udev rules), answers ``wuzi host --help`` and builds
the flash command from the installed firmware; and systemd, booted in a copy of that root
(``systemd-nspawn -b``, scripts/kit-arm64-systemd.sh), starts wuzi-host.service as installed
and it serves a table whose simulated board and clock unit are ptys of this machine; and
``wuzi board flash``, run inside the image, flashes a simulated MicroPython board (a pty of
this machine, wuzi.sim.devices.micropython_board) with the installed firmware.

Slow, and it needs root, ``debootstrap`` and an aarch64 binfmt handler: the root is made
once with the Debian archive (about 10 minutes) and kept in ``WUZI_ARM64_ROOT`` (default
/var/tmp/wuzi-arm64-root); the bundle is built from the package index. Skipped where any of
these is missing (and systemd-nspawn, from systemd-container, for the second test). `make
test-slow` runs them."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from wuzi.io.flash import FIRMWARE_FILES

ROOT = Path(__file__).resolve().parents[1]
ARM64_ROOT = Path(os.environ.get("WUZI_ARM64_ROOT", "/var/tmp/wuzi-arm64-root"))

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(3600),
    pytest.mark.skipif(os.geteuid() != 0, reason="chroot needs root"),
    pytest.mark.skipif(
        not Path("/proc/sys/fs/binfmt_misc/qemu-aarch64").exists(),
        reason="no aarch64 binfmt handler (apt-get install qemu-user-static binfmt-support)",
    ),
]

TRY = r"""
set -eu
cd /root && rm -rf wuzi-bundle && tar xzf wuzi-bundle.tar.gz
test "$(uname -m)" = aarch64
sh wuzi-bundle/install.sh
site=$(ls -d /opt/wuzi/.venv/lib/python3*/site-packages)
echo "SITE $(ls "$site" | tr '\n' ' ')"
echo "WUZI $(ls "$site/wuzi" | tr '\n' ' ')"
/opt/wuzi/.venv/bin/wuzi host --help | head -1
/opt/wuzi/.venv/bin/wuzi board flash /dev/ttyACM0 --board clock-rev-a --dry-run
id wuzi
ls /etc/systemd/system/wuzi-host.service /etc/udev/rules.d/99-wuzi-boards.rules
"""


def _arm64_root() -> Path:
    if (ARM64_ROOT / "usr/bin/python3").exists():
        return ARM64_ROOT
    if shutil.which("debootstrap") is None:
        pytest.skip("no debootstrap (apt-get install debootstrap)")
    subprocess.run(
        ["debootstrap", "--arch=arm64", "--variant=minbase", "--include=python3,python3-venv",
         "bookworm", str(ARM64_ROOT), "http://deb.debian.org/debian"],
        check=True, capture_output=True, timeout=3000,
    )  # fmt: skip
    return ARM64_ROOT


def test_the_bundle_installs_a_table_host_on_arm64_bookworm(tmp_path: Path) -> None:
    root = _arm64_root()
    subprocess.run(
        [sys.executable, ROOT / "scripts/bundle.py", "--out", tmp_path / "wuzi-bundle"],
        check=True,
        capture_output=True,
        timeout=600,
    )
    shutil.copy(tmp_path / "wuzi-bundle.tar.gz", root / "root/wuzi-bundle.tar.gz")
    done = subprocess.run(
        ["chroot", str(root), "/bin/sh", "-c", TRY],
        capture_output=True,
        text=True,
        timeout=1200,
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    site = next(line for line in lines if line.startswith("SITE ")).split()[1:]
    assert "wuzi" in site and "lgpio.py" in site and "mpremote" in site
    assert not [name for name in site if name.lower().startswith(("pyglet", "amqtt"))]
    wuzi = next(line for line in lines if line.startswith("WUZI ")).split()[1:]
    assert {"host", "io", "rules", "clock", "journal", "bus"} <= set(wuzi)
    assert "sim" not in wuzi and "display" not in wuzi
    assert "usage: wuzi host [-h] --config VENUE.TOML" in done.stdout
    assert "wuzi/io/firmware-images/main.py" in done.stdout
    assert "uid=" in done.stdout and "(wuzi)" in done.stdout


def test_systemd_starts_the_host_unit_in_the_arm64_image_and_it_serves_a_table(
    tmp_path: Path,
) -> None:
    """scripts/kit-arm64-systemd.sh on a copy of the root: systemd (nspawn -b) starts
    wuzi-host.service as install.sh installed it; the host, as user wuzi, sees a move on a
    simulated board bound in from this machine and writes the game's record."""
    if shutil.which("systemd-nspawn") is None:
        pytest.skip("no systemd-nspawn (apt-get install systemd-container)")
    root = tmp_path / "root"
    subprocess.run(["cp", "-a", str(_arm64_root()), str(root)], check=True, timeout=600)
    subprocess.run(
        [sys.executable, ROOT / "scripts/bundle.py", "--out", tmp_path / "wuzi-bundle"],
        check=True,
        capture_output=True,
        timeout=600,
    )
    with socket.socket() as s:  # the image's Mosquitto shares this machine's network
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = subprocess.run(
        ["sh", ROOT / "scripts/kit-arm64-systemd.sh", root, tmp_path / "wuzi-bundle.tar.gz"],
        capture_output=True,
        text=True,
        timeout=1800,
        env={**os.environ, "PORT": str(port), "LOGS": str(tmp_path / "logs")},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    evidence = (tmp_path / "logs" / "evidence.txt").read_text()
    assert "Active: active (running)" in evidence
    assert "User=wuzi" in evidence and "NRestarts=0" in evidence, evidence
    assert '"moves": [\n    "h8"\n  ]' in evidence  # the game's record, written by the host
    assert "systemd-analyze verify /etc/systemd/system/wuzi-*.service\nclean" in evidence
    table = (tmp_path / "logs" / "table.log").read_text()
    assert '"moves":[112]' in table and '"result":"1/2-1/2"' in table, table
    # `wuzi board flash` for real, inside the image, to a simulated MicroPython board bound
    # in as /dev/wuzi/flash-1: every firmware file and the revision's board.json, as the
    # kit installed them, are on the board, and the board was reset once
    assert "flashed with sensor-rev-a" in evidence, evidence
    for name in FIRMWARE_FILES:
        assert f"flash-1/{name} identical" in evidence, evidence
    assert "flash-1/board.json identical (sensor-rev-a)" in evidence
    flashed = sorted(p.name for p in (tmp_path / "logs" / "flash-1").iterdir())
    assert flashed == sorted([*FIRMWARE_FILES, "board.json"])
    assert "RESET 1" in evidence
