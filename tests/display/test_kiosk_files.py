"""deploy/kiosk: the scoreboard as a systemd user unit in a Pi's desktop session, started
by an XDG autostart entry (docs/display.md, "A screen on a Raspberry Pi")."""

from __future__ import annotations

import configparser
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

KIOSK = Path(__file__).resolve().parents[2] / "deploy" / "kiosk"
UNIT = KIOSK / "wuzi-scoreboard@.service"
DESKTOP = KIOSK / "wuzi-scoreboard.desktop"


def parse(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(path.read_text(encoding="utf-8"))
    return parser


def test_the_user_unit_runs_in_the_graphical_session() -> None:
    unit = parse(UNIT)
    assert unit["Unit"]["PartOf"] == "graphical-session.target"
    assert unit["Unit"]["After"] == "graphical-session.target"
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"
    service = unit["Service"]
    assert "User" not in service  # a user unit: the session's own user
    assert "DISPLAY" not in service.get("Environment", "")  # the session's, not a guess
    command = shlex.split(service["ExecStart"])
    assert command[:2] == ["/opt/wuzi/.venv/bin/wuzi", "scoreboard"]
    assert command[2:5] == ["--config", "/etc/wuzi/venue.toml", "--fullscreen"]
    assert service["Restart"] == "always"
    assert service["EnvironmentFile"] == "-/etc/wuzi/scoreboard-%i.env"
    assert "DISPLAY" in service["ExecStartPre"]
    assert unit["Install"]["WantedBy"] == "graphical-session.target"


def test_the_autostart_entry_starts_the_unit_with_the_display() -> None:
    entry = parse(DESKTOP)["Desktop Entry"]
    assert entry["Type"] == "Application"
    assert entry["Terminal"] == "false"
    command = shlex.split(entry["Exec"])
    assert command[:2] == ["sh", "-c"]
    script = command[2]
    assert "systemctl --user import-environment DISPLAY WAYLAND_DISPLAY" in script
    assert "systemctl --user start wuzi-scoreboard@hall.service" in script


def test_the_unit_s_precondition_waits_for_a_display() -> None:
    check = shlex.split(parse(UNIT)["Service"]["ExecStartPre"])
    env = {"PATH": "/usr/bin:/bin"}
    assert subprocess.run(check, env=env, capture_output=True, check=False).returncode == 1
    done = subprocess.run(check, env={**env, "DISPLAY": ":0"}, capture_output=True, check=False)
    assert done.returncode == 0


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_analyze_verify_user(tmp_path: Path) -> None:
    wuzi = Path(sys.executable).with_name("wuzi")  # /opt/wuzi is not installed here
    text = UNIT.read_text(encoding="utf-8").replace("/opt/wuzi/.venv/bin/wuzi", str(wuzi))
    instance = tmp_path / "wuzi-scoreboard@hall.service"
    instance.write_text(text, encoding="utf-8")
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    done = subprocess.run(
        ["systemd-analyze", "verify", "--user", "--man=no", str(instance)],
        env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
