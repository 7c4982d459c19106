"""The demo's broker choice: the one named, else a private Mosquitto, else the embedded
broker — and a Process that is killed is gone, started again runs again."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import HostStatus, Message
from wuzi.sim.final import procs as venue_procs
from wuzi.sim.final.procs import Process, start_broker


def test_a_named_broker_is_used_as_it_is(tmp_path: Path) -> None:
    handle, url, what = start_broker(tmp_path, "mqtt://broker.venue:1883")
    assert handle is None and url == "mqtt://broker.venue:1883" and "broker.venue" in what


def test_without_mosquitto_the_embedded_broker_carries_the_bus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing() -> str:
        raise RuntimeError("mosquitto is not installed")

    monkeypatch.setattr(venue_procs, "_find_mosquitto", missing)
    handle, url, what = start_broker(tmp_path, None)
    assert handle is not None and "embedded" in what
    got: list[Message] = []
    client = BusClient(url, "venue-procs-test")
    try:
        client.subscribe(topics.all_host_statuses("demo-1"), lambda _t, m: got.append(m))
        client.connect()
        assert client.wait_connected(10) and client.wait_subscribed(10)
        status = HostStatus("pi-1", True, (1, 2), "boot-1", 5)
        client.publish(topics.host_status("demo-1", "pi-1"), status)
        deadline = time.monotonic() + 10
        while status not in got and time.monotonic() < deadline:
            time.sleep(0.01)
        assert status in got
    finally:
        client.close()
        handle.stop()


def test_a_process_killed_is_gone_and_starts_again(tmp_path: Path) -> None:
    process = Process("help", ["--help"], tmp_path / "logs" / "help.log")
    process.start()
    assert process.process is not None
    process.process.wait(30)
    assert "usage: wuzi" in process.log_path.read_text()
    problem = process.exit_problem()
    assert problem is not None and "help exited with 0" in problem
    process.start()
    process.kill()
    assert process.process is None and not process.alive and process.starts == 2
