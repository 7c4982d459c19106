"""The arbiter view against a real `wuzi host` and a real Mosquitto: the host's forbidden
alert reaches the screen, the screen's signed pause is obeyed, a killed host shows up as
offline; and the clock display's feed draws the same table's state."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.broker import MosquittoBroker
from support.host import REFEREE, HostUnderTest, wait_for
from wuzi.config.venue import load_venue
from wuzi.display.arbiter_cli import FILTERS, ArbiterScreen
from wuzi.display.arbiter_commands import CommandDesk, load_signer
from wuzi.display.arbiter_model import ArbiterModel
from wuzi.display.clock_cli import ClockScreen
from wuzi.display.feed import BusFeed, monotonic_ms
from wuzi.display.snapshot import offscreen_window
from wuzi.rules.board import parse_point

BLACK, WHITE = 1, 2


@pytest.fixture
def host(tmp_path: Path, mosquitto: MosquittoBroker) -> Iterator[HostUnderTest]:
    h = HostUnderTest(tmp_path, mosquitto.url, tables=1)
    yield h
    h.close()


@pytest.fixture
def window() -> Iterator[Any]:
    win = offscreen_window(640, 360)
    yield win
    win.close()


def test_alerts_commands_and_offline_through_a_real_host(
    host: HostUnderTest,
    mosquitto: MosquittoBroker,
    window: Any,
    tmp_path: Path,
) -> None:
    host.start()
    feed = BusFeed(mosquitto.url, host.venue_id, FILTERS, referee=True)
    signer, _secret = load_signer(
        load_venue(host.config), REFEREE, str(tmp_path / "chief.token"), None
    )
    model = ArbiterModel(focus=1)
    screen = ArbiterScreen(
        model, CommandDesk(), 640, 360, feed=feed, signer=signer, venue=host.venue_id
    )
    try:
        feed.start()
        assert feed.wait_subscribed(10)

        def sees(condition: Any, what: str) -> None:
            def check() -> bool:
                screen.step(monotonic_ms())
                return bool(condition())

            wait_for(check, 10, what)

        sees(lambda: 1 in model.tables and model.tables[1].state is not None, "table 1")
        # Black's j10 is a double-three: the host alerts the referees, and only them.
        for n, name in enumerate(["h8", "a1", "i9", "a3", "h10", "a5", "i10", "a7", "j10"]):
            host.move(1, name, BLACK if n % 2 == 0 else WHITE, n % 2)
        sees(lambda: any(a.kind == "forbidden" for a in model.alerts(monotonic_ms())), "alert")
        line = next(a for a in model.alerts(monotonic_ms()) if a.kind == "forbidden")
        assert line.table == 1 and parse_point("j10") in line.points
        # The state with the stone may come just after the alert (another topic).
        sees(lambda: model.tables[1].state.moves[-1:] == (parse_point("j10"),), "j10 stands")  # type: ignore[union-attr]
        board = model.board(monotonic_ms())
        assert board is not None and board.last == parse_point("j10")
        assert len(board.stones) == 9
        # The referee pauses from the screen: hot key, confirmation, signed, published.
        screen.desk.hotkey("pause", 1)
        intent = screen.desk.enter(1)
        assert intent is not None
        screen.send(intent)
        assert screen.sent and "sent" in screen.desk.status
        sees(lambda: model.tables[1].state.status == "paused", "the host to pause")  # type: ignore[union-attr]
        # The command cleared the table's open alerts (the host's rule).
        sees(lambda: not any(a.table == 1 for a in model.alerts(monotonic_ms())), "cleared")
        # A typed resume.
        screen.desk.open("resume")
        assert screen.desk.enter(1) is None
        resume = screen.desk.enter(1)
        assert resume is not None
        screen.send(resume)
        sees(lambda: model.tables[1].state.status == "playing", "resumed")  # type: ignore[union-attr]
        # The clock display reads the same table.
        clock_feed = BusFeed(mosquitto.url, host.venue_id, ("table/1/state", "assignments/1"))
        clock = ClockScreen(1, 640, 360, clock_feed)
        clock_feed.start()
        try:

            def clock_has_state() -> bool:
                clock.step(monotonic_ms())
                return clock.model.state is not None

            wait_for(clock_has_state, 10, "the clock display's state")
            face = clock.model.face(monotonic_ms())
            assert face.moves == 9 and face.white.running and face.status == "playing"
        finally:
            clock_feed.close()
        # The host dies: its last will says offline.
        host.kill()
        sees(
            lambda: any(a.kind == "host_offline" for a in model.alerts(monotonic_ms())),
            "host offline",
        )
    finally:
        feed.close()
