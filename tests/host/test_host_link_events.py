"""The board link's reports as table inputs (``wuzi.host.link_events``): the translation keeps
every journal word, and a reconciler's events drive a table session."""

from __future__ import annotations

import pytest

from wuzi.host.link_events import REASONS, board_input, clock_unit_alert, noisy_line_alert
from wuzi.link import reconciler, wire
from wuzi.link.board_link import LINE_NOISY
from wuzi.link.noise import LineNoisy
from wuzi.link.reconciler import ALERT_KINDS, Alert, Reconciler, StoneEvent
from wuzi.link.session import LinkDown, LinkUp, PressesLost
from wuzi.rules.board import Colour, parse_point
from wuzi.rules.procedure import Seat
from wuzi.table.alerts import BOARD_REASONS, AlertReason, board_alert_reason
from wuzi.table.codec import encode_input
from wuzi.table.inputs import BoardAlert, StoneSettled, TableSetup
from wuzi.table.outputs import MoveJudged, RefereeAlert, TableOutput
from wuzi.table.session import TableSession

NS = 1_000_000
H8, H9 = parse_point("h8"), parse_point("h9")


def test_a_stone_event_is_a_settled_stone() -> None:
    stone = StoneEvent(H8, Colour.BLACK, at_ms=5)
    assert board_input(stone, 7 * NS) == StoneSettled(now_ns=7 * NS, point=H8, colour=Colour.BLACK)


@pytest.mark.parametrize("kind", ALERT_KINDS)
def test_every_link_alert_keeps_its_journal_word(kind: str) -> None:
    """The journal has always stored the reconciler's word as the input's ``kind``: journals
    written before the translation moved to the host replay the same."""
    alert = Alert(kind, 3, (H8, H9), Colour.WHITE, Colour.BLACK, "detail")
    made = board_input(alert, 9 * NS)
    assert made == BoardAlert(9 * NS, kind, (H8, H9), Colour.WHITE, "detail")
    assert encode_input(made) == (
        "in.board_alert",
        {"now_ns": 9 * NS, "kind": kind, "points": [H8, H9], "colour": "white", "detail": "detail"},
    )
    assert isinstance(made, BoardAlert)
    assert board_alert_reason(made.kind) is REASONS.get(kind, AlertReason.BOARD)


def test_the_link_kinds_with_a_reason_of_their_own_are_the_tables_board_reasons() -> None:
    assert set(REASONS.values()) == BOARD_REASONS
    assert set(REASONS) <= set(ALERT_KINDS)
    assert REASONS[reconciler.REMOVED] is AlertReason.REMOVED


def test_a_clock_units_link_trouble_is_a_board_alert_for_the_referee() -> None:
    assert clock_unit_alert(PressesLost(4, 6, 10)) == (
        AlertReason.BOARD,
        "clock unit: presses 4–6 were lost",
    )
    assert clock_unit_alert(LinkDown(10, 1500)) == (
        AlertReason.BOARD,
        "clock unit silent for 1500 ms",
    )
    assert clock_unit_alert(LinkUp(10)) == (AlertReason.BOARD, "clock unit link up again")


def test_reconciler_events_drive_the_session() -> None:
    s = TableSession(TableSetup(opening="free"), 0)
    rec = Reconciler(settle_ms=100)
    outputs: list[TableOutput] = []

    def settle(point: int, state: int, at_ms: int) -> None:
        rec.expect(s.expected_colour)
        rec.sensor(point, state, at_ms)
        for item in rec.poll(at_ms + 200):
            outputs.extend(s.handle(board_input(item, (at_ms + 200) * NS)))

    settle(H8, wire.BLACK, 1000)
    outputs += s.press(2_000 * NS, Seat.FIRST)
    settle(H9, wire.BLACK, 3000)  # Black again: the reconciler says wrong colour
    settle(H9, wire.EMPTY, 4000)  # taken off again: nothing to tell
    assert [o.point for o in outputs if isinstance(o, MoveJudged)] == [H8]
    assert [o.reason for o in outputs if isinstance(o, RefereeAlert)] == [AlertReason.WRONG_COLOUR]


def test_a_noisy_line_is_one_board_alert_with_its_rate_and_no_table_input() -> None:
    noisy = LineNoisy(50, 31, 969)
    board_word = Alert(LINE_NOISY, 50, detail=noisy.text)
    assert noisy_line_alert(board_word, "/dev/wuzi/board-1") == (
        AlertReason.BOARD,
        "board /dev/wuzi/board-1 line noisy: 3.1 % of frames corrupted (31 of 1000); play goes"
        " on, check its cable",
    )
    assert noisy_line_alert(noisy, "/dev/wuzi/clock-1") == (
        AlertReason.BOARD,
        "clock unit /dev/wuzi/clock-1 line noisy: 3.1 % of frames corrupted (31 of 1000); play"
        " goes on, check its cable",
    )
    assert LINE_NOISY not in ALERT_KINDS  # no table input comes of it
    for other in (
        Alert(reconciler.LINK_DOWN, 5),
        LinkDown(5, 600),
        StoneEvent(H8, Colour.BLACK, 5),
    ):
        assert noisy_line_alert(other, "p") is None
