"""Each opening procedure played on the simulated board, through a whole host process.

The players have only the wood and the clock unit's three buttons (docs/buttons.md): the
stones go on the simulated board, every decision goes through the claim-button menu and
the chooser's own button. The tests read what the hall reads (the public events and the
retained TableState) and check that nothing of the referees' leaves their topics.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from support.broker import MosquittoBroker
from support.host import HostUnderTest, wait_for
from support.service import InProcessHost
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import Assignment, Message, TableEvent, TableState
from wuzi.host.service import HostService
from wuzi.host.table_runtime import TableRuntime, table_id
from wuzi.journal import Journal, JournalEntry
from wuzi.journal.journal import NewEvent
from wuzi.rules.board import parse_point

BLACK, WHITE = 1, 2
CLAIM = 2


class Recorder:
    """Every (topic, message) the broker carries for the venue, to find leaks by topic."""

    def __init__(self, url: str, venue_id: str) -> None:
        self.seen: list[tuple[str, Message]] = []
        self.lock = threading.Lock()
        self.bus = BusClient(url, "recorder-" + uuid.uuid4().hex[:8])
        self.bus.subscribe(f"wuzi/v1/{venue_id}/#", self)
        self.bus.connect()
        assert self.bus.wait_connected(10) and self.bus.wait_subscribed(10)

    def __call__(self, topic: str, message: Message) -> None:
        with self.lock:
            self.seen.append((topic, message))

    def public(self) -> list[tuple[str, Message]]:
        with self.lock:
            return [(t, m) for t, m in self.seen if "/arbiter/" not in t]

    def close(self) -> None:
        self.bus.close()


def p(*names: str) -> list[int]:
    return [parse_point(n) for n in names]


def kinds(host: HostUnderTest, table: int) -> list[str]:
    with host.observer.lock:
        return [e.kind for e in host.observer.events.get(table, [])]


def events_of(host: HostUnderTest, table: int, kind: str) -> list[TableEvent]:
    with host.observer.lock:
        return [e for e in host.observer.events.get(table, []) if e.kind == kind]


def alert_texts(host: HostUnderTest, table: int = 1) -> str:
    with host.observer.lock:
        return " | ".join(str(e.data) for e in host.observer.alerts.get(table, []))


def state(host: HostUnderTest, table: int = 1) -> TableState:
    return host.observer.states[table]


def wait_kind(host: HostUnderTest, table: int, kind: str, count: int, what: str) -> None:
    wait_for(lambda: len(events_of(host, table, kind)) >= count, 10, what)


def settle(host: HostUnderTest, table: int, kind: str, before: int, what: str) -> None:
    wait_for(lambda: len(events_of(host, table, kind)) > before, 10, what)


def offer(host: HostUnderTest, table: int, name: str) -> None:
    """Black puts an offer on the wood: the host publishes it as soon as it settles."""
    before = len(events_of(host, table, "offer"))
    host.sim.place(table, name, BLACK)
    settle(host, table, "offer", before, f"offer {name}")


def choose_in_menu(host: HostUnderTest, table: int, steps: int, button: int, kind: str) -> None:
    """Open the menu (claim button), step ``steps`` options on, confirm with ``button``."""
    before = len(events_of(host, table, kind))
    for _ in range(steps + 1):
        host.sim.press(table, CLAIM)
        time.sleep(0.15)  # presses further apart than the unit's debounce
    host.sim.press(table, button)
    settle(host, table, kind, before, f"the {kind} confirmed with button {button}")


def assert_no_leak(recorder: Recorder) -> None:
    words = ("forbidden", "claim_judged", "press_without_stone", "infraction", "alert")
    for topic, message in recorder.public():
        assert not (isinstance(message, TableEvent) and message.kind == "alert"), topic
        text = repr(message)
        for word in words:
            assert word not in text, (topic, message)


class Tables:
    """Makes hosts (one table each) with a recorder; closes them all after the test."""

    def __init__(self, tmp_path: Path, mosquitto: MosquittoBroker) -> None:
        self.tmp_path, self.mosquitto = tmp_path, mosquitto
        self.made: list[tuple[HostUnderTest, Recorder]] = []

    def host(
        self, *, standalone: bool = True, opening: str = "free", time_control: str = "600+5"
    ) -> tuple[HostUnderTest, Recorder]:
        host = HostUnderTest(
            self.tmp_path,
            self.mosquitto.url,
            tables=1,
            standalone=standalone,
            opening=opening,
            time_control=time_control,
        )
        recorder = Recorder(self.mosquitto.url, host.venue_id)
        self.made.append((host, recorder))
        return host, recorder

    def close(self) -> None:
        for host, recorder in self.made:
            recorder.close()
            host.close()


@pytest.fixture
def tables(tmp_path: Path, mosquitto: MosquittoBroker) -> Iterator[Tables]:
    t = Tables(tmp_path, mosquitto)
    yield t
    t.close()


def test_director_assigns_chinese_2013_and_it_is_played_on_the_board(tables: Tables) -> None:
    host, recorder = tables.host(standalone=False, time_control="2700+30")
    host.start()
    host.assign(
        Assignment(
            table=1,
            game_id="g-c13",
            black="Ann",
            white="Bo",
            rule_set="renju",
            opening="chinese-2013",
            opening_settings={"n": 2},
            time_control="2700+30",
            board=1,
            game_in_match=1,
            playoff=False,
            issued_ms=time.time_ns() // 1_000_000,
        )
    )
    wait_for(lambda: "waits for the referee" in alert_texts(host), 10, "the assignment held")
    assert state(host).status == "idle"
    assert state(host).moves == ()
    assert host.command("next-game", 1)["ok"]
    wait_for(lambda: state(host).status == "playing", 10, "the game to start")
    assert (state(host).black, state(host).white) == ("Ann", "Bo")
    # B1–B3 by the opener (button 0): 2I, any orientation
    host.move(1, "h8", BLACK, 0)
    host.move(1, "i9", WHITE, 0)
    host.move(1, "j10", BLACK, 0)
    # the swap decision: White (button 1) opens the menu (SWAP), steps to StAY, confirms
    choose_in_menu(host, 1, 1, 1, "decision")
    assert [(e.data["seat"], e.data["choice"]) for e in events_of(host, 1, "decision")] == [
        ("second", "stay")
    ]
    # W4 by White, then Black offers two fifth moves and presses
    host.move(1, "h10", WHITE, 1)
    offer(host, 1, "g7")
    offer(host, 1, "f9")
    wait_for(lambda: set(state(host).offers) == set(p("g7", "f9")), 10, "offers in the state")
    host.sim.press(1, 0)
    time.sleep(0.3)
    # White keeps the second offer (menu: g 7, f 9): claim, claim, own button
    choose_in_menu(host, 1, 1, 1, "offer-kept")
    assert [e.data["point"] for e in events_of(host, 1, "offer")] == p("g7", "f9")
    [kept] = events_of(host, 1, "offer-kept")
    assert (kept.data["point"], kept.data["removed"]) == (parse_point("f9"), p("g7"))
    wait_for(lambda: state(host).offers == (), 10, "the offers decided")
    host.sim.lift(1, "g7")  # the offer not kept leaves the wood
    host.move(1, "f6", WHITE, 1)
    expected = p("h8", "i9", "j10", "h10", "f9", "f6")
    wait_for(lambda: state(host).moves == tuple(expected), 10, "six moves in the state")
    assert host.observer.moves(1) == expected
    time.sleep(0.3)
    assert "removed" not in host.observer.alert_reasons(1), host.observer.alert_reasons(1)
    assert "press_without_stone" not in host.observer.alert_reasons(1)
    assert state(host).running == "black"
    assert kinds(host, 1).count("move") == 6
    public = host.observer.events[1]
    assert [e.seq for e in public] == list(range(1, len(public) + 1))
    assert_no_leak(recorder)


def test_swap2_place_two_then_the_opener_takes_white(tables: Tables) -> None:
    host, recorder = tables.host(opening="swap2")
    host.start()
    wait_for(lambda: 1 in host.observer.states, 10, "the table state")
    wait_for(lambda: state(host).status == "playing", 10, "the game")
    # the opener (button 0) puts three stones anywhere: B, W, B
    host.move(1, "c3", BLACK, 0)
    host.move(1, "n13", WHITE, 0)
    host.move(1, "h8", BLACK, 0)
    # the second player (button 1): bLAC, WHIt, PL 2 → place-two
    choose_in_menu(host, 1, 2, 1, "decision")
    host.move(1, "h9", WHITE, 1)
    host.move(1, "g7", BLACK, 1)
    # the opener chooses the colour: bLAC, WHIt → white
    choose_in_menu(host, 1, 1, 0, "decision")
    assert [(e.data["seat"], e.data["choice"]) for e in events_of(host, 1, "decision")] == [
        ("second", "place-two"),
        ("first", "white"),
    ]
    wait_for(lambda: state(host).running == "white", 10, "White (the opener) to move")
    # normal play: White is the opener (button 0), Black the second player (button 1)
    host.move(1, "a1", WHITE, 0)
    host.move(1, "o15", BLACK, 1)
    host.move(1, "a3", WHITE, 0)
    expected = p("c3", "n13", "h8", "h9", "g7", "a1", "o15", "a3")
    wait_for(lambda: state(host).moves == tuple(expected), 10, "eight moves in the state")
    assert host.observer.moves(1) == expected
    colours = [e.data["colour"] for e in host.observer.events[1] if e.kind == "move"]
    assert colours == ["black", "white", "black", "white", "black", "white", "black", "white"]
    assert state(host).status == "playing" and state(host).running == "black"
    assert host.observer.alert_reasons(1) == []
    assert_no_leak(recorder)


def test_white_claims_blacks_double_three_with_the_buttons(tables: Tables) -> None:
    host, recorder = tables.host(opening="free")
    host.start()
    wait_for(lambda: 1 in host.observer.states, 10, "the table state")
    black = ["i8", "j8", "h9", "h10", "h8"]  # h8: h8-i8-j8 and h8-h9-h10, two open threes
    white = ["a1", "a3", "a5", "a7"]
    for n in range(9):
        name = black[n // 2] if n % 2 == 0 else white[n // 2]
        host.move(1, name, BLACK if n % 2 == 0 else WHITE, n % 2)
    wait_for(lambda: "forbidden" in host.observer.alert_reasons(1), 10, "the referee told")
    assert state(host).status == "playing"
    time.sleep(0.3)
    assert_no_leak(recorder)  # before the claim, nobody but the referees knows of h8
    host.sim.press(1, CLAIM)
    time.sleep(0.3)
    host.sim.press(1, 1)  # White's own button within the 3 s window
    wait_for(lambda: "claim_judged" in host.observer.alert_reasons(1), 10, "the claim judged")
    wait_for(lambda: state(host).status == "finished", 10, "the game over")
    assert state(host).result == "0-1"
    assert "press_without_stone" not in host.observer.alert_reasons(1)
    [result] = events_of(host, 1, "result")
    assert (result.data["reason"], result.data["winner"]) == ("forbidden", "second"), result
    assert host.observer.moves(1) == p("i8", "a1", "j8", "a3", "h9", "a5", "h10", "a7", "h8")


def test_a_press_without_a_stone_is_an_infraction_told_only_to_the_referees(
    tables: Tables,
) -> None:
    host, recorder = tables.host(opening="free")
    host.start()
    wait_for(lambda: 1 in host.observer.states, 10, "the table state")
    host.move(1, "h8", BLACK, 0)
    host.sim.press(1, 1)  # White presses with no stone on the wood
    wait_for(lambda: "press_without_stone" in host.observer.alert_reasons(1), 10, "the infraction")
    time.sleep(0.3)
    alerts = [
        (t, m)
        for t, m in recorder.seen
        if isinstance(m, TableEvent) and m.data.get("reason") == "press_without_stone"
    ]
    assert alerts and all(t.endswith("/arbiter/table/1/alerts") for t, _ in alerts), alerts
    [(_, alert)] = [(t, m) for t, m in alerts]
    assert alert.kind == "alert"
    assert host.observer.moves(1) == p("h8")
    assert state(host).moves == tuple(p("h8"))
    assert_no_leak(recorder)


def test_a_menu_choice_and_the_press_that_closes_it_are_one_journal_transaction(
    tmp_path: Path, mosquitto: MosquittoBroker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash between the decision and its press must not leave the decision alone in
    the journal: both go in one ``append_many`` (one SQLite transaction, one fsync)."""
    host = HostUnderTest(tmp_path, mosquitto.url, tables=1, opening="chinese-2013")
    inside = InProcessHost(host)
    batches: list[list[str]] = []

    def spy_on_the_journal(service: HostService) -> None:
        journal = service.journal
        assert journal is not None
        append_many = journal.append_many

        def spy(rows: Iterable[NewEvent]) -> list[JournalEntry]:
            entries = append_many(rows)
            batches.append([e.kind for e in entries])
            return entries

        monkeypatch.setattr(journal, "append_many", spy)

    try:
        inside.run_in_background(spy_on_the_journal)
        wait_for(lambda: 1 in host.observer.states, 10, "the table state")
        host.move(1, "h8", BLACK, 0)
        host.move(1, "i9", WHITE, 0)
        host.move(1, "j10", BLACK, 0)
        choose_in_menu(host, 1, 1, 1, "decision")  # White: SWAP, then StAY, confirmed
        live = inside.service.tables[1].runtime.session
        inside.stop_background()
    finally:
        inside.close()
        host.close()
    [batch] = [b for b in batches if "in.decide" in b]
    assert "in.clock_pressed" in batch[batch.index("in.decide") :], batches
    assert live is not None
    with Journal.open(inside.options.journal_path, "pi-test") as journal:
        recovered = TableRuntime.recover(1, host.venue_id, journal.entries(table_id(1)))
    assert recovered.session == live
