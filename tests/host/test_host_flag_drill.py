"""The flag drill (issue 32, items 7 and 8): Black's flag falls during the fifth-move
offers, on a running `wuzi host` whose board and clock unit are simulated on real ptys
and whose bus is a real Mosquitto.

Chinese-2013 with two offers, 600 s sudden death. The opening is played on the wood and
the buttons; Black puts the first offer down, and the referee leaves Black 2.5 s (an
``adjust-time``; the clock event it causes says when the flag will fall, in the host's
wall time). Nobody acts after that: the retained table state must say ``paused``, nothing
running and Black at 0 within a second of the flag, with one ``flag`` alert for the
referees. Black then puts the second offer down: it is not taken (no ``offer`` event, the
state's offers unchanged, a ``not_allowed`` alert naming the flag). The referee's result
ends the game, and the journal replays to what was published.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.broker import MosquittoBroker
from support.host import HostUnderTest, wait_for
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import Message, TableEvent, TableState
from wuzi.host.table_runtime import TableRuntime, table_id
from wuzi.journal import Journal
from wuzi.rules.board import parse_point

BLACK, WHITE = 1, 2
CLAIM = 2
LEFT_MS = 2500


@pytest.fixture
def host(tmp_path: Path, mosquitto: MosquittoBroker) -> Iterator[HostUnderTest]:
    h = HostUnderTest(tmp_path, mosquitto.url, tables=1, opening="chinese-2013", time_control="600")
    try:
        yield h
    finally:
        h.close()


def events(host: HostUnderTest, kind: str) -> list[TableEvent]:
    with host.observer.lock:
        return [e for e in host.observer.events.get(1, []) if e.kind == kind]


def alerts(host: HostUnderTest) -> list[TableEvent]:
    with host.observer.lock:
        return list(host.observer.alerts.get(1, []))


def state(host: HostUnderTest) -> TableState:
    return host.observer.states[1]


def retained_state(url: str, venue_id: str) -> TableState:
    """What a screen that connects now is given: the broker's retained table state."""
    got: list[TableState] = []
    done = threading.Event()

    def take(topic: str, message: Message) -> None:
        if isinstance(message, TableState):
            got.append(message)
            done.set()

    bus = BusClient(url, "late-screen-" + uuid.uuid4().hex[:8])
    bus.subscribe(topics.table_state(venue_id, 1), take)
    bus.connect()
    try:
        assert done.wait(10), "no retained table state"
        return got[-1]
    finally:
        bus.close()


def test_a_flag_during_the_offers_is_published_at_once_and_ends_the_offers(
    host: HostUnderTest, mosquitto: MosquittoBroker
) -> None:
    host.start()
    wait_for(lambda: 1 in host.observer.states, 20, "the table state")
    host.move(1, "h8", BLACK, 0)  # B1–B3 by the opener (button 0)
    host.move(1, "i9", WHITE, 0)
    host.move(1, "j10", BLACK, 0)
    for _ in range(2):  # White: the claim button opens the menu (swap), steps to stay
        host.sim.press(1, CLAIM)
        time.sleep(0.15)
    host.sim.press(1, 1)
    wait_for(lambda: len(events(host, "decision")) == 1, 10, "White's decision")
    host.move(1, "h10", WHITE, 1)  # W4
    host.sim.place(1, "g7", BLACK)  # the first fifth-move offer
    wait_for(lambda: state(host).offers == (parse_point("g7"),), 10, "the first offer")
    assert state(host).running == "black"

    # the referee leaves Black LEFT_MS: the clock event says when the flag falls
    clocks_before = len(events(host, "clock"))
    left_ms = state(host).black_ms - (time.time_ns() // 1_000_000 - state(host).at_ms)
    reply = host.command("adjust-time", 1, seat="first", delta_ms=LEFT_MS - left_ms)
    assert reply["ok"], reply
    wait_for(lambda: len(events(host, "clock")) > clocks_before, 10, "the adjusted clock")
    adjusted = events(host, "clock")[-1]
    black_ms = adjusted.data["clocks"]["first_ms"]
    assert adjusted.data["running"] == "first" and 0 < black_ms <= LEFT_MS + 500, adjusted
    flag_wall_ms = adjusted.at_ms + black_ms

    # nobody acts: the state says so within a second of the flag
    wait_for(lambda: state(host).status == "paused", 10, "the paused state")
    seen_ms = time.time_ns() // 1_000_000
    assert seen_ms - flag_wall_ms < 1000, (seen_ms - flag_wall_ms, state(host))
    paused = state(host)
    assert (paused.running, paused.black_ms) == (None, 0), paused
    assert [str(a.data["reason"]) for a in alerts(host)].count("flag") == 1
    late = retained_state(mosquitto.url, host.venue_id)  # a screen that connects now
    assert (late.status, late.running, late.offers) == ("paused", None, paused.offers)

    # Black puts the second offer down: it is not taken
    host.sim.place(1, "f9", BLACK)
    wait_for(lambda: any("f9" in str(a.data.get("text")) for a in alerts(host)), 10, "f9 told")
    told = next(a for a in alerts(host) if "f9" in str(a.data.get("text")))
    assert told.data["reason"] == "not_allowed" and "flag fell" in str(told.data["text"])
    host.sim.press(1, 0)  # and presses: not taken either, no infraction
    wait_for(lambda: any(a.data["reason"] == "refused" for a in alerts(host)), 10, "the press told")
    time.sleep(0.3)
    assert [e.data["point"] for e in events(host, "offer")] == [parse_point("g7")]
    assert state(host).offers == (parse_point("g7"),) and state(host).status == "paused"
    reasons = [str(a.data["reason"]) for a in alerts(host)]
    assert "press_without_stone" not in reasons and "refused" in reasons, reasons

    # the referee's result ends it
    reply = host.command("set-result", 1, winner="second", reason="flag")
    assert reply["ok"], reply
    wait_for(lambda: state(host).status == "finished", 10, "the game over")
    assert state(host).result == "0-1"
    final = state(host)
    assert host.stop() == 0, host.log()
    assert "Traceback" not in host.log(), host.log()
    with Journal.open(host.tmp / "state" / "pi-test.journal", "pi-test") as journal:
        runtime = TableRuntime.recover(1, host.venue_id, journal.entries(table_id(1)))
    session = runtime.session
    assert session is not None and session.game.is_over
    assert (
        session.game.offers == final.offers
        and tuple(m.point for m in session.game.moves) == final.moves
    )
