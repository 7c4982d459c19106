"""A real Mosquitto broker for the bus tests, on a free localhost port with a temp config.

Mosquitto is a required system dependency (scripts/system-deps.sh installs it; `make
setup` runs it). When it is missing these fixtures FAIL, on purpose, rather than skip: a
skipped broker test in CI would hide that the bus was never exercised.
"""

from __future__ import annotations

import signal
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

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
    at a stop, and a test failure instead of ``RuntimeError`` when it cannot start.

    ``autosave_on_changes``: with persistence, the database is saved at every change (a
    retained message, a subscription, a queued message) instead, so that a `kill` (SIGKILL:
    no save at the exit) leaves a database that holds everything the broker had taken."""

    def __init__(
        self, directory: Path, *, persistence: bool = False, autosave_on_changes: bool = False
    ) -> None:
        find_mosquitto()  # fail with the install hint, not a RuntimeError
        super().__init__(
            directory,
            persistent=persistence,
            autosave_interval_s=1 if autosave_on_changes else 0,
            log_types=("error", "warning", "notice", "information"),
        )
        if autosave_on_changes:  # autosave_interval counts changes then, not seconds
            with self.config_path.open("a") as config:
                config.write("autosave_on_changes true\n")

    @property
    def database(self) -> Path:
        """Where Mosquitto keeps its persistence (``persistence_file`` in ``directory``)."""
        return self.directory / "mosquitto.db"

    def kill(self) -> None:
        """SIGKILL, as a power cut or the OOM killer: nothing is saved at the exit."""
        if self.process is None:
            return
        self.process.kill()
        self.process.wait(timeout=5.0)
        self.process = None

    def pause(self) -> None:
        """SIGSTOP: the broker holds its connections but answers nothing (no PUBACK)."""
        assert self.process is not None, "broker not running"
        self.process.send_signal(signal.SIGSTOP)

    def start(self) -> None:
        try:
            super().start()
        except RuntimeError as exc:
            pytest.fail(str(exc), pytrace=False)


def read_retained(
    url: str, topic_filters: list[str], topics: list[str], timeout_s: float = 5.0
) -> dict[str, bytes]:
    """What the broker at ``url`` retains on ``topics`` right now, as a fresh subscriber
    (clean session, a new id) reads it: subscribe to ``topic_filters`` and take the
    retained copy of each topic, until every one of ``topics`` came or ``timeout_s``
    passed (a topic with nothing retained is then missing from the answer)."""
    host, port = url.removeprefix("mqtt://").rsplit(":", 1)
    seen: dict[str, bytes] = {}
    done = threading.Event()
    wanted = set(topics)

    def on_message(_c: mqtt.Client, _u: object, msg: mqtt.MQTTMessage) -> None:
        if msg.retain and msg.topic in wanted and msg.topic not in seen:
            seen[msg.topic] = bytes(msg.payload)
            if len(seen) == len(wanted):
                done.set()

    def on_connect(c: mqtt.Client, _u: object, _f: object, _r: object, _p: object) -> None:
        c.subscribe([(f, 1) for f in topic_filters])

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"~reader-{uuid.uuid4().hex[:12]}")
    client.on_message = on_message
    client.on_connect = on_connect
    client.connect(host, int(port), keepalive=10)
    client.loop_start()
    try:
        done.wait(timeout_s)
    finally:
        client.disconnect()
        client.loop_stop()
    return dict(seen)
