"""The press rule and the outage's order (``wuzi.table.press_gate``), in milliseconds.

A press is judged once the board has vouched for its instant, with that instant; the
board's reports read by then are fed as of the press, later ones wait behind it; a press
made while the board link is down is kept (however long) and judged when the board's log
is back; one the board cannot vouch for while its link is up is not judged after 3 s."""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.table.press_gate import (
    PRESS_SETTLE_MAX_MS,
    AskBoard,
    Feed,
    Judge,
    NotJudged,
    PressGate,
)

MS = 1_000_000
CLAIM = 2


@dataclass
class Board:
    """A board link as the gate sees it: up or down, vouched up to an instant."""

    link_down: bool = False
    vouched_ms: int = -1
    debounce_ms: int = 20

    def settled_through(self, t_ms: int, ticket: int = 0) -> bool:
        return not self.link_down and self.vouched_ms >= t_ms


def test_a_press_waits_for_the_board_and_judges_the_stone_before_it_with_its_instant() -> None:
    gate: PressGate[str] = PressGate(CLAIM)
    board = Board()
    gate.press(0, at_ns=1000 * MS, now_ns=1001 * MS)
    assert gate.release(1001 * MS, board) == [AskBoard(1001, 1000)]
    # the stone the board read 15 ms after the press (its debounce) lay there at the press
    assert gate.report("h8", at_ns=1015 * MS, now_ns=1030 * MS, board=board) == [
        Feed("h8", 1000 * MS)
    ]
    board.vouched_ms = 1000
    assert gate.release(1031 * MS, board) == [Judge(0, 1000 * MS)]
    assert not gate.waiting


def test_a_stone_read_after_the_press_waits_behind_it() -> None:
    gate: PressGate[str] = PressGate(CLAIM)
    board = Board()
    gate.press(1, at_ns=1000 * MS, now_ns=1000 * MS)
    assert gate.report("i9", at_ns=1500 * MS, now_ns=1600 * MS, board=board) == []
    board.vouched_ms = 2000
    # fed as of the board's own instant (the table keeps its inputs in time order)
    assert gate.release(1600 * MS, board) == [Judge(1, 1000 * MS), Feed("i9", 1500 * MS)]


def test_a_press_made_during_an_outage_is_kept_and_judged_when_the_log_is_back() -> None:
    gate: PressGate[str] = PressGate(CLAIM)
    board = Board(link_down=True)
    gate.press(1, at_ns=5000 * MS, now_ns=5000 * MS)  # White, with i9 down before
    gate.press(0, at_ns=6000 * MS, now_ns=6000 * MS)  # then Black, with h9 down before
    for now_ms in (5000, 6000, 9000, 20_000):  # kept however long the outage
        assert gate.release(now_ms * MS, board) == []
        assert gate.kept_button == 1  # White's display says the press was taken
    board.link_down = False  # the board's log comes back: i9 read at 4.9 s, h9 at 5.9 s
    assert gate.report("i9", at_ns=4900 * MS, now_ns=20_100 * MS, board=board) == [
        Feed("i9", 5000 * MS)
    ]
    assert gate.report("h9", at_ns=5900 * MS, now_ns=20_100 * MS, board=board) == []
    assert gate.release(20_100 * MS, board) == [AskBoard(20_100, 5000)]
    board.vouched_ms = 20_100
    assert gate.release(20_150 * MS, board) == [
        Judge(1, 5000 * MS),
        Feed("h9", 6000 * MS),
        Judge(0, 6000 * MS),
    ]
    assert gate.kept_button is None


def test_the_settle_limit_counts_from_the_links_return() -> None:
    gate: PressGate[str] = PressGate(CLAIM)
    board = Board(link_down=True)
    gate.press(0, at_ns=1000 * MS, now_ns=1000 * MS)
    assert gate.release(10_000 * MS, board) == []
    board.link_down = False
    limit = PRESS_SETTLE_MAX_MS * MS
    assert gate.release(10_000 * MS, board) == [AskBoard(10_000, 1000)]
    assert gate.release(10_000 * MS + limit - 1, board) == [AskBoard(10_000 + 2999, 1000)]
    decided = gate.release(10_000 * MS + limit, board)
    assert decided == [NotJudged(0, 1000 * MS, "while the board did not settle for 3 s")]


def test_a_claim_goes_through_in_its_turn_and_a_board_not_opened_keeps_the_press() -> None:
    gate: PressGate[str] = PressGate(CLAIM)
    board = Board()
    gate.press(0, at_ns=1000 * MS, now_ns=1000 * MS)
    gate.press(CLAIM, at_ns=1100 * MS, now_ns=1100 * MS)
    assert gate.release(1100 * MS, board) == [AskBoard(1100, 1000)]
    board.vouched_ms = 1000
    assert gate.release(1200 * MS, board) == [Judge(0, 1000 * MS), Judge(CLAIM, 1100 * MS)]
    gate.press(1, at_ns=2000 * MS, now_ns=2000 * MS)
    assert gate.release(2000 * MS, None) == []  # kept until the board can be opened
    assert gate.kept_button == 1


def test_with_no_press_waiting_a_report_is_fed_as_of_the_boards_instant() -> None:
    """A host that hears of a stone late (its loop starved of the CPU) does not date the
    stone late: a press stamped before the host heard of it is not charged the delay."""
    gate: PressGate[str] = PressGate(CLAIM)
    assert gate.report("h8", at_ns=1020 * MS, now_ns=3500 * MS, board=Board()) == [
        Feed("h8", 1020 * MS)
    ]


def test_a_hold_takes_effect_at_the_first_waiting_press() -> None:
    gate: PressGate[str] = PressGate(CLAIM)
    assert gate.hold_at(5000 * MS) == 5000 * MS
    gate.press(1, at_ns=4600 * MS, now_ns=4601 * MS)
    assert gate.hold_at(5000 * MS) == 4600 * MS
    # a press is never dated after its arrival
    gate2: PressGate[str] = PressGate(CLAIM)
    gate2.press(0, at_ns=9000 * MS, now_ns=8000 * MS)
    assert gate2.waiting[0].at_ns == 8000 * MS
