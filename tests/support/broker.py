"""A real Mosquitto broker for the bus tests, on a free localhost port with a temp config.

Mosquitto is a required system dependency (scripts/system-deps.sh installs it; `make
setup` runs it). When it is missing these fixtures FAIL, on purpose, rather than skip: a
skipped broker test in CI would hide that the bus was never exercised.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from wuzi.sim import box as bench_venue


def find_mosquitto() -> str:
    try:
        return bench_venue.find_mosquitto()
    except RuntimeError:
        pytest.fail(
            "mosquitto is not installed, and the bus tests need a real broker: run "
            "`sudo scripts/system-deps.sh` (or `apt-get install mosquitto`); CI must install it. "
            "These tests fail rather than skip so that a missing broker is never overlooked.",
            pytrace=False,
        )


free_port = bench_venue.free_port


def wait_until(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    """Poll ``condition`` every 20 ms until true; fail naming ``what`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_s} s waiting for {what}", pytrace=False)
        time.sleep(0.02)


class MosquittoBroker:
    """One Mosquitto process; `stop` and `start` again keep the port and config."""

    def __init__(self, directory: Path, *, persistence: bool = False) -> None:
        self.binary = find_mosquitto()
        self.directory = directory
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.log_path = directory / "mosquitto.log"
        self.config_path = directory / "mosquitto.conf"
        lines = [
            f"listener {self.port} 127.0.0.1",
            "allow_anonymous true",
            "max_queued_messages 100000",
            "max_inflight_messages 100",
            f"persistence {'true' if persistence else 'false'}",
            f"persistence_location {directory}/",
            "autosave_interval 0",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
        ]
        if os.geteuid() == 0:
            # As root Mosquitto would drop to the `mosquitto` user, which cannot write here.
            lines.append("user root")
        self.config_path.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert self.process is None, "broker already running"
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [self.binary, "-c", str(self.config_path)], stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        deadline = time.monotonic() + 10.0
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"mosquitto exited at start:\n{self.log_text()}", pytrace=False)
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    pytest.fail(f"mosquitto did not listen:\n{self.log_text()}", pytrace=False)
                time.sleep(0.02)

    def stop(self) -> None:
        """SIGTERM (Mosquitto saves its persistence file, if on) and wait for the exit."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5.0)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
