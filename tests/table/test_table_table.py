"""One table, pure (``wuzi.table.table.Table``): the press rule, the outage's order and the
fault holds, in milliseconds, each against a twin table that had no fault.

The board is seen as the host's drivers would show it (``FakeBoard``: link up or down,
vouched up to an instant, its debounce); a stone's report carries the instant the board
read it (its debounce after it was put down), a press the clock unit's instant."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from wuzi.rules.board import Colour, parse_point, point_name
from wuzi.table.faults import DeviceLook
from wuzi.table.inputs import StoneSettled, TableSetup
from wuzi.table.table import Outcome, Record, Table

MS = 1_000_000
S = 1000 * MS
WALL = 1_700_000_000_000
BOARD = "board /dev/wuzi/board-1"
DEBOUNCE_MS = 20


@dataclass
class FakeBoard:
    """The board link as a table sees it."""

    link_down: bool = False
    vouched_ms: int = -1
    debounce_ms: int = DEBOUNCE_MS

    def settled_through(self, t_ms: int, ticket: int = 0) -> bool:
        return not self.link_down and self.vouched_ms >= t_ms


class Hall:
    """A table, its board, and what it journaled."""

    def __init__(self) -> None:
        self.table: Table[object] = Table(number=1, venue="hall")  # type: ignore[type-var]
        self.board = FakeBoard()
        self.records: list[Record] = []
        self.keep(
            Outcome(
                records=self.table.begin(0, WALL, TableSetup(opening="free", time_control="60+5"))
            )
        )

    def keep(self, out: Outcome) -> Outcome:
        self.records += out.records
        return out

    def stone(self, name: str, colour: Colour, put_ns: int, seen_ns: int) -> None:
        """A stone put down at ``put_ns``: the board reads it a debounce later and the
        host sees the report at ``seen_ns``."""
        read_ns = put_ns + DEBOUNCE_MS * MS
        report = StoneSettled(now_ns=read_ns, point=parse_point(name), colour=colour)
        self.keep(self.table.report(report, seen_ns, WALL, self.board))

    def press(self, button: int, at_ns: int, seen_ns: int) -> None:
        self.keep(self.table.press(button, at_ns, seen_ns, WALL, self.board))

    def settle(self, now_ns: int) -> None:
        """The board vouches up to ``now_ns`` and the host looks again."""
        if not self.board.link_down:
            self.board.vouched_ms = now_ns // MS
        self.keep(self.table.release(now_ns, WALL, self.board))

    def kinds(self, kind: str) -> list[dict[str, object]]:
        return [r.payload["data"] for r in self.records if r.kind == kind]

    def alerts(self) -> list[str]:
        return [str(d["reason"]) + ": " + str(d.get("text", "")) for d in self.kinds("alert")]

    def moves(self) -> list[str]:
        return [point_name(int(str(d["point"]))) for d in self.kinds("move")]

    def clocks(self) -> list[dict[str, int]]:
        return [dict(d["clocks"]) for d in self.kinds("move")]  # type: ignore[call-overload]


def no_infraction(hall: Hall) -> None:
    assert not [a for a in hall.alerts() if a.startswith(("press_without", "loss_"))]


@pytest.mark.parametrize("after_ms", [0, 2, 5, 10, 20, 50])
def test_a_press_after_the_stone_is_the_move(after_ms: int) -> None:
    hall = Hall()
    put = 2 * S
    hall.press(0, put + after_ms * MS, put + after_ms * MS + 1 * MS)
    hall.stone("h8", Colour.BLACK, put, put + 200 * MS)  # debounce, settle, confirmation
    hall.settle(put + 210 * MS)
    assert hall.moves() == ["h8"]
    no_infraction(hall)
    # the mover's clock stopped at the press: 2 s + after_ms used, then the bonus
    assert hall.clocks()[0]["first_ms"] == 60_000 - 2000 - after_ms + 5000


def play_through_an_outage(hall: Hall, outage: bool, white_at_ns: int) -> None:
    """Black's h8 at 1 s; the board unheard from 2 s to 6 s (``outage``); White's i9 and
    its press at ``white_at_ns``, Black's h9 and its press 700 ms later."""
    hall.stone("h8", Colour.BLACK, 1 * S, 1 * S + 200 * MS)
    hall.press(0, 1 * S + 20 * MS, 1 * S + 21 * MS)
    hall.settle(1 * S + 220 * MS)
    if outage:
        hall.board.link_down = True
        hall.keep(hall.table.link_changed(BOARD, down=True, why="link down: silent for 600 ms"))
    moves = (("i9", Colour.WHITE, 1, white_at_ns), ("h9", Colour.BLACK, 0, white_at_ns + 700 * MS))
    found = 2 * S + 600 * MS
    for name, colour, button, at in moves:
        if outage and found <= at + 20 * MS:
            hall.keep(hall.table.look(found, WALL, {}, [DeviceLook(BOARD, link_down=True)]))
        hall.press(button, at + 20 * MS, at + 21 * MS)
        if not outage:
            hall.stone(name, colour, at, at + 200 * MS)
        hall.settle(at + 220 * MS)
    if outage:  # the link is back at 6 s: the board replays its log, with its instants
        if found > white_at_ns:
            hall.keep(hall.table.look(found, WALL, {}, [DeviceLook(BOARD, link_down=True)]))
        hall.board.link_down = False
        hall.keep(hall.table.link_changed(BOARD, down=False))
        hall.keep(hall.table.look(6 * S, WALL, {}, [DeviceLook(BOARD)]))
        for name, colour, _, at in moves:
            hall.stone(name, colour, at, 6 * S + 10 * MS)
        hall.settle(6 * S + 50 * MS)


@pytest.mark.parametrize("white_at_ms", [2100, 3000], ids=["unfound", "found"])
def test_moves_made_during_a_board_outage_are_judged_in_order_and_cost_nobody(
    white_at_ms: int,
) -> None:
    held, twin = Hall(), Hall()
    play_through_an_outage(held, True, white_at_ms * MS)
    play_through_an_outage(twin, False, white_at_ms * MS)
    assert held.moves() == twin.moves() == ["h8", "i9", "h9"]
    no_infraction(held)
    assert not [a for a in held.alerts() if a.startswith(("two_stones", "not_allowed"))]
    told = [a for a in held.alerts() if BOARD in a]
    assert told == [
        f"board: {BOARD} cannot be used: link down: silent for 600 ms",
        f"board: {BOARD} is served again",
    ]
    for a, b in zip(held.clocks(), twin.clocks(), strict=True):
        for side in ("first_ms", "second_ms"):
            assert a[side] >= b[side] - 150, (side, a, b)
    state = held.table.session.clock.state  # type: ignore[union-attr]
    assert state.running is None and state.turn is not None  # held until the resume
    assert state.turn.value == "second"  # White is to move: the resume runs White's clock


def test_a_refused_device_is_told_once_and_holds_the_running_clock() -> None:
    hall = Hall()
    why = "protocol 1.0 answered (serial B-7); this host speaks 2"
    out = hall.keep(hall.table.look(3 * S, WALL, {}, [DeviceLook(BOARD, refused=why)]))
    assert out.faults_changed
    assert hall.alerts() == [f"board: {BOARD} cannot be used: {why}"]
    assert hall.table.session.clock.state.running is None  # type: ignore[union-attr]
    again = hall.keep(hall.table.look(4 * S, WALL, {}, [DeviceLook(BOARD, refused=why)]))
    assert again.records == [] and not again.faults_changed
