"""What the table does when the equipment, not a player, stopped play (issue 18).

* A flag the equipment caused (a press lost in an outage): the referee gives the flagged
  side time (``AdjustTime``), which answers the flag, then resumes; the game goes on and
  the clock runs, and a replay of the inputs gives the same session.
* A stone that reaches the table while the host holds its clock for a device fault is
  told to the referee by its point and waits for its press after the resume; the same
  stone during a referee's own pause stays a stray.
"""

from __future__ import annotations

from wuzi.clock.events import FLAG_HOLD
from wuzi.rules.board import Colour, parse_point
from wuzi.rules.game import Status
from wuzi.rules.procedure import Seat
from wuzi.table.alerts import AlertReason
from wuzi.table.inputs import (
    AdjustTime,
    ClockPressed,
    RefereePause,
    RefereeResume,
    StoneSettled,
    TableSetup,
    Tick,
)
from wuzi.table.outputs import MoveJudged, RefereeAlert, TableOutput
from wuzi.table.referee import HOST_REFEREE, REFEREE_HOLD
from wuzi.table.session import TableSession

S = 1_000_000_000
T0 = 1000 * S
H8, I9 = parse_point("h8"), parse_point("i9")


def alerts(outputs: list[TableOutput], reason: AlertReason) -> list[RefereeAlert]:
    return [o for o in outputs if isinstance(o, RefereeAlert) and o.reason is reason]


def flagged_table() -> TableSession:
    """Black's h8 judged, then White's 10 s run out (no increment): White's flag falls."""
    s = TableSession(TableSetup(opening="free", time_control="10+0"), T0)
    s.handle(StoneSettled(now_ns=T0 + S, point=H8, colour=Colour.BLACK))
    s.handle(ClockPressed(now_ns=T0 + 2 * S, seat=Seat.FIRST))
    assert s.due(T0 + 13 * S)
    out = s.handle(Tick(now_ns=T0 + 13 * S))
    assert alerts(out, AlertReason.FLAG), out
    assert FLAG_HOLD in s.clock.at(T0 + 13 * S).hold_names
    return s


def test_time_given_after_a_flag_answers_it_and_the_resume_restarts_the_clock() -> None:
    s = flagged_table()
    # today's trap: a resume alone does not restart a flagged clock, and cannot
    s.handle(AdjustTime(now_ns=T0 + 20 * S, seat=Seat.SECOND, delta_ms=30_000, referee="chief"))
    state = s.clock.state
    assert FLAG_HOLD not in state.hold_names
    assert state.hold_names == (REFEREE_HOLD,)  # still stopped until the referee resumes
    assert state.running is None
    assert s.game.status is Status.PLAYING
    s.handle(RefereeResume(now_ns=T0 + 25 * S, referee="chief"))
    assert s.clock.state.running is Seat.SECOND
    # the time between the flag and the resume was nobody's: White has the 30 s given
    assert s.clock.remaining_ns(Seat.SECOND, T0 + 25 * S) == 30 * S
    s.handle(StoneSettled(now_ns=T0 + 26 * S, point=I9, colour=Colour.WHITE))
    out = s.handle(ClockPressed(now_ns=T0 + 27 * S, seat=Seat.SECOND))
    assert [o.point for o in out if isinstance(o, MoveJudged)] == [I9]
    assert s.clock.state.running is Seat.FIRST
    assert not alerts(s.outputs, AlertReason.PRESS_WITHOUT_STONE)
    assert TableSession.replay(s.inputs) == s  # what recovery rebuilds from the journal


def test_time_given_to_the_side_not_flagged_leaves_the_flag() -> None:
    s = flagged_table()
    s.handle(AdjustTime(now_ns=T0 + 20 * S, seat=Seat.FIRST, delta_ms=5_000, referee="chief"))
    assert FLAG_HOLD in s.clock.state.hold_names  # applied at 20 s: the flag is recorded
    assert REFEREE_HOLD not in s.clock.state.hold_names


def held(referee: str) -> TableSession:
    """White to move, the game paused by ``referee`` while White's clock ran."""
    s = TableSession(TableSetup(opening="free"), T0)
    s.handle(StoneSettled(now_ns=T0 + S, point=H8, colour=Colour.BLACK))
    s.handle(ClockPressed(now_ns=T0 + 2 * S, seat=Seat.FIRST))
    s.handle(RefereePause(now_ns=T0 + 3 * S, reason="board lost", referee=referee))
    assert s.game.status is Status.AWAITING_REFEREE
    return s


def test_a_stone_during_the_hosts_hold_is_told_and_waits_for_its_press() -> None:
    s = held(HOST_REFEREE)
    out = s.handle(StoneSettled(now_ns=T0 + 4 * S, point=I9, colour=Colour.WHITE))
    told = alerts(out, AlertReason.BOARD)
    assert len(told) == 1 and told[0].points == (I9,) and "i9" in told[0].text, out
    assert s.pending_stone == I9
    # a press while held is refused by the clock: no move, no infraction
    out = s.handle(ClockPressed(now_ns=T0 + 5 * S, seat=Seat.SECOND))
    assert not [o for o in out if isinstance(o, MoveJudged)]
    assert not alerts(out, AlertReason.PRESS_WITHOUT_STONE)
    assert s.pending_stone == I9
    s.handle(RefereeResume(now_ns=T0 + 6 * S, referee="chief"))
    out = s.handle(ClockPressed(now_ns=T0 + 7 * S, seat=Seat.SECOND))
    assert [o.point for o in out if isinstance(o, MoveJudged)] == [I9]
    assert TableSession.replay(s.inputs) == s


def test_a_stone_during_a_referees_pause_stays_a_stray() -> None:
    s = held("chief")
    out = s.handle(StoneSettled(now_ns=T0 + 4 * S, point=I9, colour=Colour.WHITE))
    assert alerts(out, AlertReason.NOT_ALLOWED), out
    assert s.pending_stone is None


def test_a_wrong_stone_during_the_hosts_hold_is_a_stray_told_once() -> None:
    s = held(HOST_REFEREE)
    out = s.handle(StoneSettled(now_ns=T0 + 4 * S, point=I9, colour=Colour.BLACK))
    assert [o.reason for o in out if isinstance(o, RefereeAlert)] == [AlertReason.WRONG_COLOUR]
    assert s.pending_stone is None
