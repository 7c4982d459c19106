"""The screen probe of ``wuzi bench venue``: a scoreboard's feed and model in their own
process, on a real Mosquitto, its sightings matched with the clock units' presses."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from support.broker import MosquittoBroker
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import TableState
from wuzi.sim.final.probe import RECENT_NS, ProbeError, ScreenProbe, latency_ms, main


def test_the_latency_runs_from_the_last_press_before_the_sighting() -> None:
    assert latency_ms([1_000_000, 5_000_000, 90_000_000], 7_000_000) == 2.0
    assert latency_ms([], 7_000_000) is None
    assert latency_ms([9_000_000], 7_000_000) is None  # only a press after it
    assert latency_ms([0], RECENT_NS) is None  # too old to have completed this move


@dataclass
class Clock:
    presses_ns: deque[int] = field(default_factory=deque)


def state(table: int, moves: tuple[int, ...], seq: int) -> TableState:
    return TableState(
        table=table,
        game_id="g-1",
        seq=seq,
        status="playing",
        moves=moves,
        black_ms=60_000,
        white_ms=60_000,
        running="black" if len(moves) % 2 == 0 else "white",
        result=None,
        at_ms=seq,
    )


def wait_for(condition: Callable[[], bool], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_move_seen_by_the_screen_process_is_timed_from_its_press(
    mosquitto: MosquittoBroker,
) -> None:
    venue = "probe-1"
    clocks = [Clock(), Clock()]
    probe = ScreenProbe(mosquitto.url, venue, clocks)  # type: ignore[arg-type]
    bus = BusClient(mosquitto.url, "probe-test-host")
    bus.connect()
    try:
        assert bus.wait_connected(10)
        probe.start()
        bus.publish(topics.table_state(venue, 1), state(1, (), 1))
        bus.publish(topics.table_state(venue, 2), state(2, (), 1))
        bus.wait_drained(10)
        time.sleep(0.3)  # both first sights are in: they time nothing
        clocks[0].presses_ns.append(time.monotonic_ns())
        bus.publish(topics.table_state(venue, 1), state(1, (112,), 2))
        wait_for(lambda: len(probe.samples_ms) == 1)
        assert 0 < probe.samples_ms[0] < 5000
        # two moves in one state, and a move with no press of its clock: not timed
        bus.publish(topics.table_state(venue, 1), state(1, (112, 113, 114), 3))
        bus.publish(topics.table_state(venue, 2), state(2, (112,), 2))
        bus.wait_drained(10)
        time.sleep(0.5)
        assert len(probe.samples_ms) == 1
    finally:
        probe.close()
        bus.close()


def test_a_probe_that_cannot_subscribe_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("wuzi.sim.final.probe.READY_TIMEOUT_S", 1.0)
    probe = ScreenProbe("mqtt://127.0.0.1:1", "probe-2", [])
    with pytest.raises(ProbeError, match=r"did not subscribe at mqtt://127\.0\.0\.1:1"):
        probe.start()


def test_the_probe_command_wants_a_broker_and_a_venue(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: python -m wuzi.sim.final.probe BROKER_URL VENUE" in capsys.readouterr().err
