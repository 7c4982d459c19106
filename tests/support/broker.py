"""A real Mosquitto broker for the bus tests, on a free localhost port with a temp config.

Mosquitto is a required system dependency (scripts/system-deps.sh installs it; `make
setup` runs it). When it is missing these fixtures FAIL, on purpose, rather than skip: a
skipped broker test in CI would hide that the bus was never exercised.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from wuzi.sim import box


def find_mosquitto() -> str:
    try:
        return box.find_mosquitto()
    except RuntimeError:
        pytest.fail(
            "mosquitto is not installed, and the bus tests need a real broker: run "
            "`sudo scripts/system-deps.sh` (or `apt-get install mosquitto`); CI must install it. "
            "These tests fail rather than skip so that a missing broker is never overlooked.",
            pytrace=False,
        )


free_port = box.free_port


def wait_until(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    """Poll ``condition`` every 20 ms until true; fail naming ``what`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_s} s waiting for {what}", pytrace=False)
        time.sleep(0.02)


class MosquittoBroker(box.Broker):
    """The simulator's broker (``wuzi.sim.box.Broker``) with the tests' settings: a fuller
    log (notices and connections, for the messages of failing tests), persistence saved only
    at a stop, and a test failure instead of ``RuntimeError`` when it cannot start."""

    def __init__(self, directory: Path, *, persistence: bool = False) -> None:
        find_mosquitto()  # fail with the install hint, not a RuntimeError
        super().__init__(
            directory,
            persistent=persistence,
            autosave_interval_s=0,
            log_types=("error", "warning", "notice", "information"),
        )

    def start(self) -> None:
        try:
            super().start()
        except RuntimeError as exc:
            pytest.fail(str(exc), pytrace=False)
