"""The replay drill (issue 32, items 6 and 8): a referee's signed ``set-result`` captured
where it passes — on the bus, or at the host's control socket — and sent again byte for
byte after ``next-game`` must not end the new game.

One `wuzi host` process with two tables, their sensor boards and clock units simulated
on real ptys (started together with the host's tables, each in the same process), a real
Mosquitto. Table 1 has the fault, table 2 is its twin: the same moves, the same result
and the same next game, at the same instants, without the replay. Checked: the host's
reply (socket), the ``refused`` referee alert naming both games, the new game going on
(its next move judged), the clocks of table 1 against its twin's (within 150 ms), and,
after a SIGKILL and a restart, that a command of the new game replayed is still a repeat
(its id is kept for the whole age window, from the journal), so the time it gave is not
given twice.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from paho.mqtt import client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from support.broker import MosquittoBroker
from support.host import HostUnderTest, wait_for
from wuzi.bus import topics
from wuzi.bus.schemas import TableState, encode
from wuzi.bus.url import parse_broker_url
from wuzi.rules.board import parse_point

BLACK, WHITE = 1, 2
TABLES = (1, 2)  # table 1: the replay; table 2: its twin
TWIN_TOLERANCE_MS = 150


class Tap:
    """The bytes published on one topic, as the broker delivers them (a capture on the
    bus: what an attacker on the hall's network sees)."""

    def __init__(self, url: str, topic: str) -> None:
        self.payloads: list[bytes] = []
        self._lock = threading.Lock()
        subscribed = threading.Event()
        address = parse_broker_url(url)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, "tap-" + uuid.uuid4().hex[:8])
        self.client.on_connect = lambda c, *_a: c.subscribe(topic, qos=1)
        self.client.on_subscribe = lambda *_a: subscribed.set()
        self.client.on_message = self._keep
        self.client.connect(address.host, address.port)
        self.client.loop_start()
        assert subscribed.wait(10), "the tap's subscription"

    def _keep(self, _client: object, _userdata: object, message: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.payloads.append(bytes(message.payload))

    def taken(self) -> list[bytes]:
        with self._lock:
            return list(self.payloads)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture
def host(
    tmp_path_factory: pytest.TempPathFactory, mosquitto: MosquittoBroker
) -> Iterator[HostUnderTest]:
    under_test = HostUnderTest(tmp_path_factory.mktemp("replay"), mosquitto.url, tables=2)
    yield under_test
    under_test.close()


def game_of(host: HostUnderTest, table: int) -> str | None:
    state = host.observer.referee.get(table)
    return None if state is None else state.game_id


def state(host: HostUnderTest, table: int) -> TableState:
    with host.observer.lock:
        return host.observer.states[table]


def both_move(host: HostUnderTest, name: str, colour: int, button: int) -> None:
    """Both tables' players place the same stone and press the clock together: each
    table's press within a millisecond or so of the other's."""
    before = {n: len(host.observer.moves(n)) for n in TABLES}
    for n in TABLES:
        host.sim.place(n, name, colour)
    for n in TABLES:
        wait_for(
            lambda n=n: host.observer.referee[n].pending_stone == parse_point(name),  # type: ignore[misc]
            10,
            f"{name} settled on table {n}",
        )
    for n in TABLES:
        host.sim.press(n, button)
    for n in TABLES:
        wait_for(
            lambda n=n: len(host.observer.moves(n)) > before[n],  # type: ignore[misc]
            10,
            f"move {name} judged on table {n}",
        )


def remaining_ms(s: TableState, colour: str, now_ms: int) -> int:
    """A clock's time left at ``now_ms`` (a running clock runs on from the state's)."""
    left = s.black_ms if colour == "black" else s.white_ms
    return left - (now_ms - s.at_ms if s.running == colour else 0)


def assert_twins(host: HostUnderTest) -> None:
    """Table 1 shows what its twin shows, its clocks within `TWIN_TOLERANCE_MS`."""
    wait_for(  # a state follows its move's event: wait for both tables' newest
        lambda: (
            state(host, 1).moves == state(host, 2).moves
            and state(host, 1).running == state(host, 2).running
        ),
        5,
        "both tables' states after the move",
    )
    now_ms = time.time_ns() // 1_000_000
    one, two = state(host, 1), state(host, 2)
    assert (one.status, one.moves, one.running, one.result) == (
        two.status,
        two.moves,
        two.running,
        two.result,
    )
    for colour in ("black", "white"):
        gap = abs(remaining_ms(one, colour, now_ms) - remaining_ms(two, colour, now_ms))
        assert gap <= TWIN_TOLERANCE_MS, (colour, gap, one, two)


def refusals(host: HostUnderTest, table: int) -> list[str]:
    with host.observer.lock:
        return [
            str(e.data.get("text", ""))
            for e in host.observer.alerts.get(table, [])
            if e.data.get("reason") == "refused"
        ]


def clear_board(host: HostUnderTest, points: tuple[str, ...]) -> None:
    """The stones of the finished game are taken off once the next game has begun."""
    for n in TABLES:
        for name in points:
            host.sim.lift(n, name)
    for n in TABLES:
        wait_for(
            lambda n=n: host.observer.referee[n].pending_stone is None,  # type: ignore[misc]
            5,
            f"table {n}'s board bare",
        )
    time.sleep(0.5)


@pytest.mark.parametrize("via", ["bus", "socket"])
def test_a_set_result_replayed_after_next_game_is_refused(host: HostUnderTest, via: str) -> None:
    tap = Tap(host.broker_url, topics.arbiter_commands(host.venue_id))
    try:
        host.start()
        wait_for(lambda: all(game_of(host, n) for n in TABLES), 20, "both tables' first games")
        old = {n: game_of(host, n) for n in TABLES}
        both_move(host, "h8", BLACK, 0)
        both_move(host, "i9", WHITE, 1)
        # the referee ends both games as draws; table 1's command is captured in passing
        result = host.signed("set-result", 1, winner=None, reason="agreement")
        line = encode(result)  # as written to the control socket
        assert host.send(result, via)["ok"]
        if via == "bus":
            wait_for(lambda: line in tap.taken(), 10, "the set-result on the bus")
        captured = next(p for p in tap.taken() if p == line) if via == "bus" else line
        assert host.command("set-result", 2, via, winner=None, reason="agreement")["ok"]
        wait_for(lambda: all(state(host, n).result == "1/2-1/2" for n in TABLES), 10, "draws")
        for n in TABLES:
            assert host.command("next-game", n, via)["ok"]
        wait_for(
            lambda: all(game_of(host, n) not in (None, old[n]) for n in TABLES), 10, "new games"
        )
        new = {n: game_of(host, n) for n in TABLES}
        clear_board(host, ("h8", "i9"))
        both_move(host, "j10", BLACK, 0)
        before = state(host, 1)
        refused_before = len(refusals(host, 1))

        reply = host.send(captured, via)  # the replay, byte for byte

        expected = f"is for game {old[1]}; table 1 plays game {new[1]}"
        if via == "socket":
            assert not reply["ok"] and expected in reply["message"], reply
        wait_for(lambda: len(refusals(host, 1)) > refused_before, 10, "the refused alert")
        assert expected in refusals(host, 1)[-1]
        after = state(host, 1)
        assert (after.game_id, after.status, after.result, after.moves) == (
            new[1],
            "playing",
            None,
            before.moves,
        )
        both_move(host, "k11", WHITE, 1)  # the new game goes on, on both tables
        assert_twins(host)
        assert host.observer.moves(1)[-2:] == [parse_point("j10"), parse_point("k11")]
        assert refusals(host, 2) == []
    finally:
        tap.close()


def test_a_replay_after_a_restart_is_still_a_repeat(host: HostUnderTest) -> None:
    """The ids of the last age window come back from the journal: a command of the new
    game replayed after the host was SIGKILLed and restarted is not carried out twice."""
    host.start()
    wait_for(lambda: all(game_of(host, n) for n in TABLES), 20, "both tables' first games")
    both_move(host, "h8", BLACK, 0)
    bonus = host.signed("adjust-time", 1, seat="white", delta_ms=30_000, reason="clock fault")
    assert host.send(bonus)["ok"]
    twin = host.signed("adjust-time", 2, seat="white", delta_ms=30_000, reason="clock fault")
    assert host.send(twin)["ok"]
    host.kill()
    host.start()  # the game is paused by the restart (charged to nobody)
    wait_for(lambda: all(state(host, n).status == "paused" for n in TABLES), 20, "paused")
    reply = host.send(encode(bonus))
    assert not reply["ok"] and "carried out already: a repeat" in reply["message"], reply
    for n in TABLES:
        assert host.command("resume", n)["ok"]
    wait_for(lambda: all(state(host, n).status == "playing" for n in TABLES), 10, "resumed")
    both_move(host, "i9", WHITE, 1)
    assert_twins(host)  # table 1's white got the 30 s once, as its twin did


def test_a_pause_for_the_whole_hall_replayed_in_the_next_games_is_a_repeat(
    host: HostUnderTest,
) -> None:
    """A command for every table names no game: its id, kept for the age window across
    the tables' games, is what refuses its replay (docs/referee.md)."""
    host.start()
    wait_for(lambda: all(game_of(host, n) for n in TABLES), 20, "both tables' first games")
    both_move(host, "h8", BLACK, 0)
    pause = host.signed("pause", None, reason="fire alarm")
    assert pause.game_id is None
    assert host.send(pause)["ok"]
    wait_for(lambda: all(state(host, n).status == "paused" for n in TABLES), 10, "paused")
    old = {n: game_of(host, n) for n in TABLES}
    for n in TABLES:
        assert host.command("set-result", n, winner=None, reason="agreement")["ok"]
        assert host.command("next-game", n)["ok"]
    wait_for(lambda: all(game_of(host, n) != old[n] for n in TABLES), 10, "new games")
    wait_for(lambda: all(state(host, n).status == "playing" for n in TABLES), 10, "playing")
    reply = host.send(encode(pause))  # byte for byte, in the next games
    assert not reply["ok"]
    for n in TABLES:
        assert f"table {n}: command {pause.command_id} was carried out already" in reply["message"]
    time.sleep(0.3)
    assert all(state(host, n).status == "playing" for n in TABLES)
