"""The table host holds a table's clock on any device fault, judges a press against the
board as it is at the press, and never charges an infraction for the equipment (issue 18).

The service runs in the test process (``support.service.InProcessHost``), its boards and
clock units are the simulators on real ptys (the firmware's own code), the broker a real
Mosquitto, the referees' view the observer on the bus:

* a wrong device on a table's ports (a clock unit on the board port, a board on the
  clock port) is told at once, holds that table's clock and lists it in ``links_down``;
  the other table plays on;
* a press 0–50 ms after the stone is the move, never an infraction;
* a board whose link goes down holds the clock at once; the stones and presses made
  meanwhile are moves once the board's log is back, judged each at its press's instant,
  and nobody is charged more than on a twin table with no fault;
* a flag the equipment caused: time given, resume, the game goes on, and a restart
  recovers the same game;
* a standalone table's every game has its own record file, rewritten identically after a
  restart.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest

from support.broker import MosquittoBroker
from support.host import HostUnderTest, wait_for
from support.service import InProcessHost
from wuzi.config import load_venue
from wuzi.host.displays import KEPT_TEXT, glyphs
from wuzi.host.service import HostService
from wuzi.io.serial_link import monotonic_ms
from wuzi.link import segments
from wuzi.rules.board import parse_point
from wuzi.table.session import TableSession

BLACK, WHITE = 1, 2
INFRACTIONS = {"press_without_stone", "loss_pending"}


def texts(host: HostUnderTest, table: int) -> list[tuple[str, str]]:
    return host.observer.alert_texts(table)


def told(host: HostUnderTest, table: int, *words: str) -> bool:
    return any(all(w in text for w in words) for _, text in texts(host, table))


def count_told(host: HostUnderTest, table: int, *words: str) -> int:
    return sum(all(w in text for w in words) for _, text in texts(host, table))


def no_infraction(host: HostUnderTest, table: int) -> None:
    reasons = {reason for reason, _ in texts(host, table)}
    assert not reasons & INFRACTIONS, texts(host, table)


def session_of(inside: InProcessHost, table: int) -> TableSession:
    session = inside.service.tables[table].runtime.session
    assert session is not None
    return session


def status(host: HostUnderTest, table: int) -> str:
    with host.observer.lock:
        state = host.observer.referee.get(table)
    return "" if state is None else state.status


def test_a_wrong_device_on_each_port_holds_its_table_only(
    tmp_path: Path, mosquitto: MosquittoBroker
) -> None:
    devices = {2: 'board_port = "$CLOCK"\nclock_port = "$BOARD"'}  # the cables swapped
    host = HostUnderTest(tmp_path, mosquitto.url, tables=2, devices=devices)
    clock_pty, board_pty = host.sim.clock_paths[1], host.sim.board_paths[1]
    inside = InProcessHost(host, control=True)
    try:
        inside.run_in_background()
        wait_for(
            lambda: told(host, 2, f"board {clock_pty} cannot be used", "expected a sensor board"),
            15,
            "the board port's refusal",
        )
        wait_for(
            lambda: told(host, 2, f"clock unit {board_pty} cannot be used", "expected a clock"),
            15,
            "the clock port's refusal",
        )
        wait_for(lambda: host.observer.links_down == (2,), 10, "links_down in the host status")
        wait_for(lambda: status(host, 2) == "paused", 10, "table 2's clock held")
        host.move(1, "h8", BLACK, 0)  # the other table plays on
        host.move(1, "i9", WHITE, 1)
        time.sleep(4)  # the drivers retry the wrong devices (1 s, 2 s …): told once each
        assert count_told(host, 2, f"board {clock_pty} cannot be used") == 1, texts(host, 2)
        assert count_told(host, 2, f"clock unit {board_pty} cannot be used") == 1
        assert not any(reason == "board" for reason, _ in texts(host, 1)), texts(host, 1)
        no_infraction(host, 1)
    finally:
        inside.close()
        host.close()


def test_a_press_right_after_the_stone_is_the_move(
    tmp_path: Path, mosquitto: MosquittoBroker
) -> None:
    """The stone reaches the host after debounce, the 150 ms settle and a confirmation;
    a press 0, 20 or 50 ms after it used to be judged before it: an infraction."""
    host = HostUnderTest(tmp_path, mosquitto.url, tables=1)
    inside = InProcessHost(host, control=True)
    moves = [("h8", BLACK, 0, 0), ("i9", WHITE, 1, 20), ("h9", BLACK, 0, 50), ("i10", WHITE, 1, 0)]
    try:
        inside.run_in_background()
        wait_for(lambda: 1 in host.observer.states, 10, "the table's state")
        board, clock = host.sim.boards[0], host.sim.clocks[0]
        for n, (name, colour, button, after_ms) in enumerate(moves):
            point = parse_point(name)
            now = monotonic_ms()
            board.at(now, lambda p=point, c=colour: board.set_cell(p, c))
            clock.at(now + after_ms, lambda b=button: clock.press(b, monotonic_ms()))
            wait_for(lambda n=n: len(host.observer.moves(1)) > n, 10, f"{name} judged")
        assert host.observer.moves(1) == [parse_point(m[0]) for m in moves]
        no_infraction(host, 1)
        assert not any(reason == "board" for reason, _ in texts(host, 1)), texts(host, 1)
    finally:
        inside.close()
        host.close()


@pytest.mark.parametrize("found_first", [True, False], ids=["after-the-finding", "unfound"])
def test_presses_during_a_board_outage_are_moves_and_cost_nobody(
    tmp_path: Path, mosquitto: MosquittoBroker, found_first: bool
) -> None:
    """Issue 32: table 1's board is not heard for 4 s while both players go on (White
    places i9 and presses, Black places h9 and presses); table 2, its twin on the same
    host, plays the same at the same instants with no fault. Both presses of the outage
    are kept with their instants and judged as moves, in order, once the board's log is
    back; the clock is held meanwhile (no side's time runs: nobody is charged more than
    on the twin, within 150 ms); White's display says the press was taken; the referee's
    resume starts the clock of the side to move (White). The host is the `wuzi host`
    process; the devices run in this process, started together. ``found_first``: White moves
    once the outage was found (600 ms of silence), or 100 ms into it, before: the
    mover's clock then stops at the press, not at the finding."""
    host = HostUnderTest(tmp_path, mosquitto.url, tables=2)
    board_pty = host.sim.board_paths[0]
    both = (1, 2)
    try:
        host.start()  # `wuzi host`, as systemd starts it
        played = [parse_point(p) for p in ("h8", "i9", "h9")]

        def together(name: str, colour: int, button: int) -> None:
            """The same stone at both tables, and its press 20 ms later at both."""
            for table in both:
                host.sim.place(table, name, colour)
            time.sleep(0.02)
            for table in both:
                host.sim.press(table, button)

        together("h8", BLACK, 0)
        wait_for(lambda: all(host.observer.moves(t) == played[:1] for t in both), 10, "h8")
        board = host.sim.boards[0]
        board.at(monotonic_ms(), lambda: board.unplug(monotonic_ms(), 4000))  # silent 4 s
        if found_first:
            wait_for(
                lambda: told(host, 1, f"board {board_pty} cannot be used", "link down"),
                10,
                "the link-down alert",
            )
            wait_for(lambda: status(host, 1) == "paused", 10, "the clock held")
        else:
            time.sleep(0.1)
        for name, colour, button in (("i9", WHITE, 1), ("h9", BLACK, 0)):
            together(name, colour, button)
            if name == "i9":
                kept = segments.text(glyphs(KEPT_TEXT))
                wait_for(
                    lambda k=kept: host.sim.clocks[0].displays[1].segments == k,
                    5,
                    "PrES on White's display",
                )
            time.sleep(0.5)
        wait_for(lambda: host.observer.moves(2) == played, 10, "the twin's moves")
        assert host.observer.moves(1) == played[:1]  # nothing judged while the board is away
        wait_for(lambda: told(host, 1, f"board {board_pty} is served again"), 15, "served again")
        wait_for(lambda: host.observer.moves(1) == played, 10, "the outage's moves judged")
        assert status(host, 1) == "paused"  # held until the referee resumes
        no_infraction(host, 1)
        reasons = {reason for reason, _ in texts(host, 1)}
        assert not reasons & {"two_stones", "not_allowed", "wrong_colour"}, texts(host, 1)
        # each move's clocks: the held table charged nobody more than its twin
        for held, twin in zip(move_clocks(host, 1), move_clocks(host, 2), strict=True):
            for side in ("first_ms", "second_ms"):
                assert held[side] >= twin[side] - 150, (side, held, twin)
        assert host.command("resume", 1)["ok"]
        wait_for(lambda: host.observer.states[1].running == "white", 10, "White's clock runs")
        assert count_told(host, 1, f"board {board_pty} cannot be used") == 1, texts(host, 1)
        # the journal, the retained state and the record agree, at both tables
        host.end_and_check_records({t: ["h8", "i9", "h9"] for t in both})
    finally:
        host.close()


def move_clocks(host: HostUnderTest, table: int) -> list[dict[str, int]]:
    """Both clocks right after each judged move of ``table`` (the move events' reading)."""
    with host.observer.lock:
        moves = [e.data for e in host.observer.events.get(table, []) if e.kind == "move"]
    return [dict(m["clocks"]) for m in moves]


def test_a_flag_the_equipment_caused_is_answered_and_recovered(
    tmp_path: Path, mosquitto: MosquittoBroker
) -> None:
    host = HostUnderTest(tmp_path, mosquitto.url, tables=1, time_control="4+0")
    inside = InProcessHost(host, control=True)
    try:
        inside.run_in_background()
        host.move(1, "h8", BLACK, 0)
        wait_for(lambda: "flag" in host.observer.alert_reasons(1), 15, "White's flag")
        # before the time given, the referee's resume cannot restart a flagged clock
        assert not host.command("resume", 1)["ok"]
        reply = host.command("adjust-time", 1, seat="white", delta_ms=60_000, reason="lost press")
        assert reply["ok"], reply
        assert host.command("resume", 1)["ok"]
        wait_for(lambda: host.observer.states[1].running == "white", 10, "White's clock runs")
        host.move(1, "i9", WHITE, 1)
        wait_for(lambda: host.observer.states[1].running == "black", 10, "Black's clock runs")
        inside.stop_background()
        before = session_of(inside, 1)
        again = InProcessHost(host, control=True)
        again.start()
        try:
            after = session_of(again, 1)
            assert [m.point for m in after.game.moves] == [parse_point("h8"), parse_point("i9")]
            assert after.inputs[: len(before.inputs)] == before.inputs
            assert TableSession.replay(before.inputs) == before
        finally:
            again.close()
        no_infraction(host, 1)
    finally:
        inside.close()
        host.close()


def test_every_standalone_game_has_its_own_record(
    tmp_path: Path, mosquitto: MosquittoBroker
) -> None:
    host = HostUnderTest(tmp_path, mosquitto.url, tables=1)
    records = tmp_path / "records"

    def with_records() -> InProcessHost:
        inside = InProcessHost(host, control=True)
        inside.options = replace(inside.options, records_dir=records)
        inside.service = HostService(load_venue(host.config.resolve()), inside.options)
        return inside

    inside = with_records()
    try:
        inside.run_in_background()
        host.move(1, "h8", BLACK, 0)
        assert host.command("set-result", 1, winner="black", reason="resignation")["ok"]
        wait_for(lambda: len(list(records.glob("*.json"))) == 1, 10, "game 1's record")
        assert host.command("next-game", 1)["ok"]
        wait_for(
            lambda: (
                host.observer.states[1].status == "playing" and not host.observer.states[1].moves
            ),
            10,
            "game 2 begun",
        )
        host.sim.lift(1, "h8")  # the board is cleared for the next game
        wait_for(lambda: host.observer.referee[1].pending_stone is None, 5, "the board bare")
        time.sleep(0.5)
        host.move(1, "j10", BLACK, 0)
        host.move(1, "k11", WHITE, 1)
        assert host.command("set-result", 1, winner="white", reason="agreement")["ok"]
        wait_for(lambda: len(list(records.glob("*.json"))) == 2, 10, "game 2's record")
    finally:
        inside.close()
    files = {p.name: p.read_text() for p in records.glob("*.json")}
    moves = sorted(tuple(json.loads(text)["moves"]) for text in files.values())
    assert moves == [("h8",), ("j10", "k11")], files

    again = with_records()
    try:
        again.start()  # recovery rewrites the current game's record: the same content
        assert {p.name: p.read_text() for p in records.glob("*.json")} == files
    finally:
        again.close()
        host.close()
