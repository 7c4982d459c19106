"""The host's hold for its equipment (``EquipmentHeld``, the clock's ``equipment`` hold).

While a board or a clock unit cannot see the players the clock is held: no side's time
runs, but the game goes on, so a stone and its press made meanwhile are a move when the
devices report them (the turn passes, the increment is given); a press without a stone is
judged as any; the referee's resume starts the clock of the side to move; replay gives
the same session."""

from __future__ import annotations

import pytest

from wuzi.clock.clock import Clock
from wuzi.clock.events import EQUIPMENT_HOLD
from wuzi.rules.board import Colour, parse_point
from wuzi.rules.procedure import Seat
from wuzi.table.alerts import AlertReason
from wuzi.table.checks import TableError
from wuzi.table.inputs import EquipmentHeld, RefereePause, RefereeResume, TableSetup
from wuzi.table.outputs import ClockChanged, MoveJudged, RefereeAlert
from wuzi.table.session import TableSession

MS = 1_000_000
S = 1000 * MS


def started() -> TableSession:
    """A free-opening game, 60 s + 5 s, Black's h8 judged at 1.02 s: White to move."""
    session = TableSession(TableSetup(opening="free", time_control="60+5"), 0)
    session.stone(1 * S, parse_point("h8"), Colour.BLACK)
    session.press(1 * S + 20 * MS, Seat.FIRST)
    return session


def test_the_clock_takes_a_press_through_the_equipment_hold_and_no_other() -> None:
    clock = Clock("60+5")
    clock.start(0, seat=Seat.FIRST)
    clock.pause(1 * S, hold=EQUIPMENT_HOLD, reason="board lost")
    result = clock.press(3 * S, by=Seat.FIRST)
    assert result.accepted and clock.state.turn is Seat.SECOND
    assert clock.remaining_ns(Seat.FIRST, 4 * S) == 64 * S  # 1 s used, then the bonus
    assert clock.remaining_ns(Seat.SECOND, 4 * S) == 60 * S  # held: White's time stands
    clock.pause(5 * S, hold="referee", reason="a look")
    assert not clock.press(6 * S, by=Seat.SECOND).accepted


def test_a_move_made_during_the_hold_is_judged_and_the_resume_runs_the_side_to_move() -> None:
    session = started()
    held = session.handle(EquipmentHeld(now_ns=2 * S, reason="board /dev/b cannot be used"))
    assert [type(o) for o in held] == [ClockChanged] and held[0].running is None
    assert not any(isinstance(o, RefereeAlert) for o in held)  # the host alerts, naming it
    session.stone(5 * S, parse_point("i9"), Colour.WHITE)
    out = session.press(5 * S + 20 * MS, Seat.SECOND)
    moves = [o for o in out if isinstance(o, MoveJudged)]
    assert [m.point for m in moves] == [parse_point("i9")]
    # White was charged from Black's press to the hold only, and got the bonus
    assert moves[0].clocks.second_ms == 60_000 - 980 + 5000
    assert session.clock.state.running is None and session.clock.state.turn is Seat.FIRST
    # a second fault of the spell changes nothing
    assert session.handle(EquipmentHeld(now_ns=6 * S, reason="clock unit lost")) == []
    session.handle(RefereeResume(now_ns=8 * S, referee="r1"))
    assert session.clock.state.running is Seat.FIRST  # Black, the side to move
    assert session == TableSession.replay(session.inputs)


def test_a_press_without_a_stone_during_the_hold_is_an_infraction_as_any() -> None:
    session = started()
    session.handle(EquipmentHeld(now_ns=2 * S, reason="board lost"))
    out = session.press(3 * S, Seat.SECOND)
    assert AlertReason.PRESS_WITHOUT_STONE in {o.reason for o in out if isinstance(o, RefereeAlert)}


def test_an_equipment_hold_needs_a_reason_and_a_referee_pause_still_waits() -> None:
    session = started()
    with pytest.raises(TableError, match="reason"):
        session.handle(EquipmentHeld(now_ns=2 * S, reason=" "))
    # an older journal's pause "by the host" replays as it always did
    session.handle(RefereePause(now_ns=2 * S, reason="board lost", referee="host"))
    session.stone(3 * S, parse_point("i9"), Colour.WHITE)
    out = session.press(3 * S + 20 * MS, Seat.SECOND)
    assert not any(isinstance(o, MoveJudged) for o in out)
