"""A normal run prints no library warning (issue 34): gpiozero warned for every pin library
it fell back from on each start of a host on a Pi. `wuzi host --help`, and a host that
serves a simulated board (``sim://board/1``) and a GPIO clock on gpiozero's default factory
from the environment, write nothing on stderr but their own log lines."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from support.broker import MosquittoBroker

GPIO = "clock_gpio = { black_button = 5, white_button = 6, claim_button = 13, clk = 19, dio = 26 }"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHONWARNINGS")}
    env["GPIOZERO_PIN_FACTORY"] = "mock"
    env["PYTHONWARNINGS"] = "default"  # every warning shown once: none may be there
    return env


def test_the_hosts_help_prints_no_warning() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "wuzi.cli", "host", "--help"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""


def test_a_normal_start_prints_no_library_warning(
    tmp_path: Path, mosquitto: MosquittoBroker
) -> None:
    venue = tmp_path / "venue.toml"
    venue.write_text(
        f'[venue]\nid = "quiet-start"\nname = "Quiet"\n[broker]\nurl = "{mosquitto.url}"\n'
        f'[[hosts]]\nid = "pi-1"\n[[hosts.tables]]\nnumber = 1\nboard_port = "sim://board/1"\n'
        f"{GPIO}\n",
        encoding="utf-8",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "wuzi.cli", "host", "--config", str(venue), "--host", "pi-1",
         "--state-dir", str(tmp_path / "state"), "--standalone", "--log-level", "info"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
    )  # fmt: skip
    time.sleep(4)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=30)
    lines = (out + err).splitlines()
    assert any("serving tables [1]" in line for line in lines), lines  # it started
    warned = [line for line in lines if "Warning" in line or "warnings.warn" in line]
    assert warned == []
    assert not [line for line in lines if "cannot be used" in line], lines
