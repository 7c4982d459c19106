"""The deployment files: systemd units hardened and verified by systemd itself, the
sysusers.d file for the ``wuzi`` user (scripts/verify_units.py, run by ``make lint``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SYSTEMD = ROOT / "deploy" / "systemd"
SCRIPT = ROOT / "scripts" / "verify_units.py"
UNITS = sorted(SYSTEMD.glob("*.service"))

needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None or shutil.which("systemd-sysusers") is None,
    reason="systemd's tools are not installed",
)


def directives(path: Path) -> dict[str, list[str]]:
    """``Key=value`` lines of a unit by key (``[Service]`` and the others together)."""
    found: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(("#", ";", "[")) and "=" in line:
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def verify(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@needs_systemd
def test_the_shipped_files_verify_clean() -> None:
    done = verify()
    assert done.returncode == 0, done.stderr
    assert "files clean" in done.stdout and "wuzi-host.service" in done.stdout


@needs_systemd
@pytest.mark.parametrize(
    ("unit", "old", "new", "message"),
    [
        ("wuzi-host.service", "NotifyAccess=main", "NotifyAcces=main", "Unknown key"),
        ("wuzi-host.service", "ProtectSystem=strict", "ProtectSystem=strct", "strct"),
        ("wuzi-director.service", "/bin/wuzi director", "/bin/wuzzi director", "wuzzi"),
        ("wuzi-scoreboard@.service", "Restart=always", "Restartt=always", "Unknown key"),
    ],
)
def test_a_broken_unit_fails_the_check(
    tmp_path: Path, unit: str, old: str, new: str, message: str
) -> None:
    text = (SYSTEMD / unit).read_text(encoding="utf-8")
    assert old in text
    (tmp_path / unit).write_text(text.replace(old, new, 1), encoding="utf-8")
    done = verify(tmp_path / unit)
    assert done.returncode == 1
    assert message in done.stderr and unit in done.stderr


@needs_systemd
def test_a_sysusers_file_without_the_groups_fails(tmp_path: Path) -> None:
    text = (ROOT / "deploy" / "sysusers.d" / "wuzi.conf").read_text(encoding="utf-8")
    (tmp_path / "wuzi.conf").write_text(text.replace("m wuzi gpio\n", ""), encoding="utf-8")
    done = verify(tmp_path / "wuzi.conf")
    assert done.returncode == 1
    assert "'wuzi' is not put in group 'gpio'" in done.stderr


@pytest.mark.parametrize("unit", UNITS, ids=lambda p: p.name)
def test_every_unit_is_hardened(unit: Path) -> None:
    keys = directives(unit)
    assert keys["User"] == ["wuzi"] and keys["Group"] == ["wuzi"]
    for key, value in (
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
    ):
        assert keys.get(key) == [value], key
    assert keys["ExecStart"][0].startswith("/opt/wuzi/.venv/bin/wuzi ")


def test_the_host_keeps_its_devices_its_watchdog_and_its_state() -> None:
    keys = directives(SYSTEMD / "wuzi-host.service")
    assert keys["Type"] == ["notify"] and keys["WatchdogSec"] == ["10"]
    assert keys["SupplementaryGroups"] == ["dialout gpio"]
    assert keys["StateDirectory"] == ["wuzi"] and keys["RuntimeDirectory"] == ["wuzi"]
    assert keys["PrivateTmp"] == ["yes"]
    exec_start = keys["ExecStart"][0].split()
    assert exec_start[exec_start.index("--state-dir") + 1] == "/var/lib/wuzi"
    socket = exec_start[exec_start.index("--control-socket") + 1]
    assert socket.startswith("/run/wuzi/")  # the RuntimeDirectory
    # /dev/ttyACM*, /dev/gpiochip*: nothing may put a device policy on the host.
    for key in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock"):
        assert key not in keys, key
    assert "ProtectKernelLogs" not in keys


def test_the_director_writes_only_its_state_folder() -> None:
    keys = directives(SYSTEMD / "wuzi-director.service")
    assert keys["StateDirectory"] == ["wuzi-director"]
    assert "--db /var/lib/wuzi-director/" in keys["ExecStart"][0]
    assert keys["PrivateDevices"] == ["yes"] and "ReadWritePaths" not in keys


def test_an_events_director_is_an_instance_of_its_event() -> None:
    keys = directives(SYSTEMD / "wuzi-director@.service")
    exec_start = keys["ExecStart"][0].split()
    assert exec_start[exec_start.index("--event") + 1] == "%i"  # wuzi-director@men
    assert "--db" not in exec_start  # the event's database is its [[events]] entry's
    assert keys["StateDirectory"] == ["wuzi-director"]
    assert keys["PrivateDevices"] == ["yes"] and "ReadWritePaths" not in keys


def test_the_sysusers_file_makes_the_wuzi_user() -> None:
    text = (ROOT / "deploy" / "sysusers.d" / "wuzi.conf").read_text(encoding="utf-8")
    lines = [line.split() for line in text.splitlines() if line and not line.startswith("#")]
    assert lines[0][:3] == ["u", "wuzi", "-"] and lines[0][-1] == "/var/lib/wuzi"
    assert ["m", "wuzi", "dialout"] in lines and ["m", "wuzi", "gpio"] in lines
