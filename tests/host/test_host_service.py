"""The whole host as a process: simulated boards and clocks on ptys, a real Mosquitto."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.broker import MosquittoBroker
from support.host import HostUnderTest, Observer, wait_for
from wuzi.bus.client import BusClient
from wuzi.rules.board import parse_point

BLACK, WHITE = 1, 2


@pytest.fixture
def host(tmp_path: Path, mosquitto: MosquittoBroker) -> Iterator[HostUnderTest]:
    h = HostUnderTest(tmp_path, mosquitto.url, tables=2)
    yield h
    h.close()


def test_moves_are_judged_published_and_alerts_stay_with_the_referees(host: HostUnderTest) -> None:
    host.start()
    wait_for(lambda: 1 in host.observer.states and 2 in host.observer.states, 10, "table states")
    for n, name in enumerate(["h8", "a1", "i9", "a3", "h10", "a5", "i10", "a7", "j10"]):
        host.move(1, name, BLACK if n % 2 == 0 else WHITE, n % 2)
    assert host.observer.moves(1) == [
        parse_point(p) for p in ["h8", "a1", "i9", "a3", "h10", "a5", "i10", "a7", "j10"]
    ]
    wait_for(lambda: "forbidden" in host.observer.alert_reasons(1), 5, "the forbidden alert")
    public = [e for e in host.observer.events[1]]
    assert all("forbidden" not in str(e.data) for e in public)
    assert [e.seq for e in public] == list(range(1, len(public) + 1))
    wait_for(lambda: host.observer.states[1].moves == tuple(host.observer.moves(1)), 5, "state")
    assert host.observer.states[1].status == "playing"
    assert host.observer.moves(2) == []


def _moves_for_a_long_game() -> list[str]:
    """Stones far enough apart that nobody makes a five or a forbidden shape."""
    black = [f"{c}{r}" for r in (1, 4, 7, 10, 13) for c in "aeim"]
    white = [f"{c}{r}" for r in (2, 5, 8, 11, 14) for c in "cgko"]
    return [m for pair in zip(black, white, strict=True) for m in pair]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sigkill_at_random_instants_recovers_every_table(host: HostUnderTest, seed: int) -> None:
    rng = random.Random(seed)
    host.start()
    wait_for(lambda: 1 in host.observer.states, 10, "table 1 state")
    moves = _moves_for_a_long_game()[:16]
    kills = 0
    for n, name in enumerate(moves):
        colour, button = (BLACK, 0) if n % 2 == 0 else (WHITE, 1)
        point = parse_point(name)
        if rng.random() < 0.25:
            # kill somewhere inside this move: after the stone, around the press
            before = host.observer.states[1]
            host.sim.place(1, name, colour)
            if rng.random() < 0.5:  # while the stone settles, before the press
                time.sleep(rng.uniform(0.0, 0.3))
            else:  # just after the press, while the host judges and journals it
                wait_for(lambda point=point: host._pending_stone(1) == point, 10, "settled")
                before = host.observer.states[1]
                host.sim.press(1, button)
                time.sleep(rng.uniform(0.0, 0.03))
            host.kill()
            kills += 1
            host.start()
            wait_for(
                lambda: (
                    "host_restarted" in host.observer.alert_reasons(1)[-3:]
                    and host.observer.states[1].status == "paused"
                ),
                10,
                "the restarted host to pause table 1",
            )
            after = host.observer.states[1]
            published = [m for m in before.moves]
            assert list(after.moves[: len(published)]) == published  # nothing journaled is lost
            assert after.running is None
            # the outage is charged to nobody: at most the last heartbeat's second is lost
            for side in ("black_ms", "white_ms"):
                assert getattr(before, side) - getattr(after, side) <= 1_500
            assert host.command("resume", 1)["ok"]
            wait_for(lambda: host.observer.states[1].status == "playing", 5, "resumed")
            if parse_point(name) not in host.observer.states[1].moves:
                # the press was lost with the host: the stone waits; the player presses again
                wait_for(lambda point=point: host._pending_stone(1) == point, 10, f"{name} pending")
                host.sim.press(1, button)
                wait_for(lambda point=point: point in host.observer.moves(1), 10, f"{name} judged")
        else:
            host.move(1, name, colour, button)
    assert kills >= 1
    expected = [parse_point(m) for m in moves]
    wait_for(lambda: host.observer.moves(1) == expected, 10, "every move delivered once")
    public = host.observer.events[1]
    assert len({e.event_id for e in public}) == len(public)
    assert sorted(e.seq for e in public) == list(range(1, len(public) + 1))
    # the table state follows its events on the bus: wait for it rather than race it
    wait_for(lambda: host.observer.states[1].moves == tuple(expected), 10, "the state's moves")


@pytest.fixture
def one_table(tmp_path: Path, mosquitto: MosquittoBroker) -> Iterator[HostUnderTest]:
    h = HostUnderTest(tmp_path, mosquitto.url, tables=1)
    yield h
    h.close()


def _alerts_since(host: HostUnderTest, count: int) -> list[tuple[str, list[int]]]:
    with host.observer.lock:
        fresh = host.observer.alerts.get(1, [])[count:]
        return [(str(e.data["reason"]), list(e.data["points"])) for e in fresh]


def test_a_restart_compares_the_board_with_the_journal(one_table: HostUnderTest) -> None:
    """The stones in place are no news; a stone placed while the host was down is the
    move it is (it waits for its press); a stone lifted meanwhile is one alert."""
    host = one_table
    host.start()
    wait_for(lambda: 1 in host.observer.states, 10, "table 1 state")
    # a1 (the first point of a scan) stays empty: the scan starts on an unchanged point
    for n, name in enumerate(["h8", "b1", "i9"]):
        host.move(1, name, BLACK if n % 2 == 0 else WHITE, n % 2)
    host.kill()
    told = len(host.observer.alerts.get(1, []))
    host.sim.place(1, "a3", WHITE)  # White's move 4, placed while the host is down
    time.sleep(0.3)
    host.start()
    wait_for(lambda: host._pending_stone(1) == parse_point("a3"), 10, "a3 waiting for its press")
    time.sleep(0.5)  # anything spurious would have been said by now
    assert _alerts_since(host, told) == [("host_restarted", [])]
    assert host.observer.moves(1) == [parse_point(p) for p in ("h8", "b1", "i9")]
    assert host.command("resume", 1)["ok"]
    wait_for(lambda: host.observer.states[1].status == "playing", 5, "resumed")
    host.sim.press(1, 1)
    expected = [parse_point(p) for p in ("h8", "b1", "i9", "a3")]
    wait_for(lambda: host.observer.moves(1) == expected, 10, "a3 judged as move 4")
    host.kill()
    told = len(host.observer.alerts.get(1, []))
    host.sim.lift(1, "b1")
    time.sleep(0.3)
    host.start()
    wait_for(lambda: len(_alerts_since(host, told)) >= 2, 10, "the restart and the removal told")
    time.sleep(0.5)
    assert _alerts_since(host, told) == [("host_restarted", []), ("removed", [parse_point("b1")])]
    assert host.observer.moves(1) == expected


def test_a_clean_stop_leaves_the_retained_status_offline(
    one_table: HostUnderTest, mosquitto: MosquittoBroker
) -> None:
    host = one_table
    host.start()
    wait_for(lambda: host.observer.online is True, 10, "the host's online status")
    assert host.stop() == 0
    wait_for(lambda: host.observer.online is False, 5, "the host's offline status")
    late = Observer()  # someone who subscribes afterwards reads the retained status
    bus = BusClient(mosquitto.url, "late-" + host.venue_id)
    bus.subscribe(f"wuzi/v1/{host.venue_id}/host/+/status", late)
    bus.connect()
    try:
        wait_for(lambda: late.online is not None, 5, "the retained status")
        assert late.online is False
    finally:
        bus.close()


def test_a_relative_config_path_finds_the_referee_token_beside_it(one_table: HostUnderTest) -> None:
    host = one_table
    host.start(relative_config=True)  # the token file is named relative to the venue file
    wait_for(lambda: 1 in host.observer.states, 10, "table 1 state")
    reply = host.command("pause", 1, reason="a question")
    assert reply["ok"], reply
    wait_for(lambda: host.observer.states[1].status == "paused", 5, "paused")
