"""The clock as a table host drives it: presses, flags between events, pauses and holds,
referee actions with who and when, the end of the game; refusals change nothing."""

from __future__ import annotations

import pytest

from wuzi.clock import NS_PER_MS, NS_PER_S, Clock, ClockError, Flag, FlagPolicy
from wuzi.clock.events import (
    FLAG_HOLD,
    FlagNoted,
    InfractionRecorded,
    Paused,
    Pressed,
    TimeAdded,
)
from wuzi.rules.procedure import Seat

S = NS_PER_S
MS = NS_PER_MS
FIRST, SECOND = Seat.FIRST, Seat.SECOND


def started(spec: str, at: int = 0, **options: object) -> Clock:
    clock = Clock(spec, **options)  # type: ignore[arg-type]
    clock.start(at)
    return clock


def test_before_start_nothing_runs() -> None:
    clock = Clock("60")
    assert clock.at(10 * S).running is None
    result = clock.press(S)
    assert not result.accepted and "not been started" in result.reason
    assert clock.remaining_ns(FIRST, 5 * S) == 60 * S


def test_black_starts_and_presses_alternate() -> None:
    clock = started("60+1")
    assert clock.at(0).running is FIRST
    result = clock.press(10 * S)
    assert result.accepted and result.seat is FIRST and result.next_seat is SECOND
    assert clock.remaining_ns(FIRST, 10 * S) == 51 * S
    assert clock.remaining_ns(SECOND, 15 * S) == 55 * S
    assert clock.at(15 * S).running is SECOND
    view = clock.view(15 * S)
    assert (view.first.moves, view.second.moves) == (1, 0)


def test_the_other_sides_button_does_nothing() -> None:
    clock = started("60")
    result = clock.press(S, by=SECOND)
    assert not result.accepted and "second's clock is not running" in result.reason
    assert clock.at(S).running is FIRST
    assert clock.press(2 * S, by=FIRST).accepted
    assert len(clock.events) == 3  # the ignored press is recorded all the same


def test_a_flag_falls_between_events_at_its_exact_instant() -> None:
    clock = started("10+2", at=1000)
    clock.press(1000 + 4 * S)  # black: 8 s left
    # white's flag is due 10 s after the press; nobody looks until much later
    assert clock.flag_due_ns() == 1000 + 14 * S
    late = 1000 + 40 * S
    state = clock.at(late)
    assert state.flags == (Flag(SECOND, 1000 + 14 * S),)
    assert state.running is None  # the clock stopped at the flag
    result = clock.press(late)  # a press that came after the flag fell changes nothing
    assert not result.accepted and "second's flag fell" in result.reason
    assert clock.remaining_ns(FIRST, late) == 8 * S
    assert clock.remaining_ns(SECOND, late) == 0


def test_a_press_one_nanosecond_before_the_flag_is_in_time() -> None:
    clock = started("10")
    assert clock.press(10 * S - 1).accepted
    assert clock.at(10 * S).flags == ()
    clock2 = started("10")
    assert not clock2.press(10 * S).accepted  # at the instant itself the flag has fallen
    assert clock2.at(10 * S).first_flag == Flag(FIRST, 10 * S)


def test_note_flags_puts_a_computed_flag_on_record_at_its_instant() -> None:
    clock, twin = started("10+2", at=1000), started("10+2", at=1000)
    clock.press(1000 + 4 * S)
    twin.press(1000 + 4 * S)
    late = 1000 + 40 * S
    assert clock.state.flags == () and clock.state.running is SECOND  # as of the press
    assert clock.note_flags(late) == (Flag(SECOND, 1000 + 14 * S),)
    assert clock.events[-1] == FlagNoted(t_ns=1000 + 14 * S, seat=SECOND)
    state = clock.state  # now the state itself says the clock is stopped by the flag
    assert state.hold_names == (FLAG_HOLD,) and state.running is None
    assert clock.at(late).flags == twin.at(late).flags  # as Clock.at showed it before
    assert clock.at(late).hold_names == twin.at(late).hold_names
    assert clock.remaining_ns(FIRST, late) == 8 * S
    assert clock.note_flags(late + S) == ()  # once only
    assert len(clock.events) == 3
    assert Clock.replay("10+2", clock.events) == clock


def test_note_flags_without_a_flag_records_nothing() -> None:
    clock = started("10")
    assert clock.note_flags(9 * S) == () and len(clock.events) == 1


def test_a_flag_noted_where_none_fell_is_refused() -> None:
    clock = started("10")
    with pytest.raises(ClockError, match=r"first's flag did not fall at 5\.000 s"):
        clock.apply(FlagNoted(t_ns=5 * S, seat=FIRST))
    with pytest.raises(ClockError, match=r"it fell at 10\.000 s"):
        clock.apply(FlagNoted(t_ns=11 * S, seat=FIRST))
    assert len(clock.events) == 1


def test_continue_policy_records_both_flags_in_order() -> None:
    clock = started("10", on_flag="continue")
    state = clock.at(12 * S)
    assert state.flags == (Flag(FIRST, 10 * S),) and state.running is FIRST
    assert clock.press(15 * S).accepted  # the flagged player moves on; no time back
    assert clock.remaining_ns(FIRST, 15 * S) == 0
    state = clock.at(40 * S)
    assert state.flags == (Flag(FIRST, 10 * S), Flag(SECOND, 25 * S))
    assert state.first_flag == Flag(FIRST, 10 * S)


def test_pause_and_resume_keep_the_time() -> None:
    clock = started("60")
    clock.pause(10 * S, actor="referee 3", reason="claim")
    assert clock.at(100 * S).running is None
    assert clock.remaining_ns(FIRST, 100 * S) == 50 * S
    clock.resume(100 * S, actor="referee 3")
    assert clock.remaining_ns(FIRST, 105 * S) == 45 * S
    pause = clock.events[1]
    assert isinstance(pause, Paused) and pause.actor == "referee 3" and pause.t_ns == 10 * S


def test_table_and_venue_pauses_stack() -> None:
    clock = started("60")
    clock.pause(S, hold="referee")
    clock.pause(2 * S, hold="venue", actor="chief arbiter")
    clock.resume(3 * S, hold="venue")
    assert clock.at(4 * S).running is None  # the table's own pause still holds
    assert clock.at(4 * S).hold_names == ("referee",)
    clock.resume(5 * S)
    assert clock.at(6 * S).running is FIRST
    assert clock.remaining_ns(FIRST, 6 * S) == 58 * S


def test_a_venue_pause_before_the_start() -> None:
    clock = Clock("60")
    clock.pause(0, hold="venue")
    clock.start(S)
    assert clock.at(10 * S).running is None and clock.at(10 * S).turn is FIRST
    clock.resume(20 * S, hold="venue")
    assert clock.remaining_ns(FIRST, 30 * S) == 50 * S


def test_pause_inside_a_byo_yomi_period_keeps_what_is_left_of_it() -> None:
    clock = started("10:3x30")
    clock.pause(22 * S)  # 10 s main, then 12 s of period 1
    view = clock.view(500 * S)
    assert view.first.overtime and view.first.face_ns == 18 * S and view.first.periods_left == 3
    clock.resume(500 * S)
    view = clock.view(510 * S)
    assert view.first.face_ns == 8 * S and view.first.periods_left == 3
    assert clock.press(515 * S).accepted
    view = clock.view(515 * S)
    assert view.first.face_ns == 30 * S and view.first.periods_left == 3  # the move reset it


def test_refused_referee_actions_change_nothing() -> None:
    clock = started("60")
    clock.press(5 * S)
    before = (clock.state, clock.events)
    with pytest.raises(ClockError, match="not paused"):
        clock.resume(6 * S)
    with pytest.raises(ClockError, match="cannot remove 60000 ms: only 55000 ms"):
        clock.add_time(6 * S, FIRST, -60 * S)
    with pytest.raises(ClockError, match="earlier than the clock's last event"):
        clock.press(4 * S)
    with pytest.raises(ClockError, match="already been started"):
        clock.start(7 * S)
    with pytest.raises(ClockError, match="already the one that runs"):
        clock.switch(7 * S, SECOND)
    with pytest.raises(ClockError, match="belongs to the clock"):
        clock.pause(7 * S, hold="flag")
    with pytest.raises(ClockError, match="one word"):
        clock.pause(7 * S, hold="two words")
    with pytest.raises(ClockError, match=r"Seat\.FIRST or Seat\.SECOND"):
        clock.add_time(7 * S, "black", S)  # type: ignore[arg-type]
    with pytest.raises(ClockError, match="0 or more moves"):
        clock.press(7 * S, moves=-1)
    clock.pause(7 * S)
    with pytest.raises(ClockError, match="already paused"):
        clock.pause(8 * S)
    assert clock.events[:-1] == before[1]


def test_adjustments_are_recorded_with_who_and_when() -> None:
    clock = started("60")
    clock.add_time(10 * S, SECOND, 30 * S, actor="referee 1", reason="opponent's phone")
    clock.add_time(11 * S, FIRST, -5 * S, actor="referee 1", reason="penalty")
    assert clock.remaining_ns(SECOND, 11 * S) == 90 * S
    assert clock.remaining_ns(FIRST, 11 * S) == 44 * S
    event = clock.events[1]
    assert event == TimeAdded(
        t_ns=10 * S, seat=SECOND, delta_ns=30 * S, actor="referee 1", reason="opponent's phone"
    )
    clock.set_remaining(12 * S, FIRST, 100 * S, actor="referee 2")
    assert clock.remaining_ns(FIRST, 12 * S) == 100 * S


def test_correct_moves_and_switch() -> None:
    clock = started("3/60:30")
    clock.press(S)
    clock.press(2 * S)
    clock.correct_moves(3 * S, FIRST, 3, actor="referee", reason="a press was missed")
    view = clock.view(3 * S)
    assert view.first.moves == 3 and view.first.period == 2
    assert view.first.remaining_ns == 58 * S + 30 * S  # period 2's time came with the fix
    clock.switch(4 * S, SECOND, actor="referee", reason="wrong side running")
    assert clock.at(5 * S).running is SECOND
    assert clock.remaining_ns(FIRST, 5 * S) == 57 * S + 30 * S


def test_restart_after_a_flag_once_time_is_given() -> None:
    clock = started("10")
    assert clock.at(11 * S).running is None
    with pytest.raises(ClockError, match="give time"):
        clock.resume(20 * S, hold="flag")
    clock.add_time(20 * S, FIRST, 30 * S, actor="referee", reason="clock fault")
    clock.resume(21 * S, hold="flag", actor="referee")
    assert clock.at(31 * S).running is FIRST
    assert clock.remaining_ns(FIRST, 31 * S) == 20 * S
    assert clock.at(31 * S).flags == (Flag(FIRST, 10 * S),)  # the flag stays on record


def test_the_end_freezes_the_clock() -> None:
    clock = started("60")
    clock.press(5 * S)
    clock.end(8 * S, reason="five")
    assert clock.at(100 * S).running is None
    assert clock.remaining_ns(SECOND, 100 * S) == 57 * S
    assert clock.flag_due_ns() is None
    assert not clock.press(101 * S).accepted
    with pytest.raises(ClockError, match="game is over"):
        clock.add_time(102 * S, FIRST, S)
    with pytest.raises(ClockError, match="game is over"):
        clock.pause(102 * S)
    with pytest.raises(ClockError, match="game is over"):
        clock.end(103 * S)


def test_next_seat_keeps_the_same_players_clock_running() -> None:
    clock = started("60+2")
    result = clock.press(3 * S, next_seat=FIRST)
    assert result.next_seat is FIRST
    assert clock.at(4 * S).running is FIRST
    assert clock.remaining_ns(FIRST, 4 * S) == 58 * S  # one increment per press


def test_infraction_keeps_the_press_and_counts() -> None:
    clock = started("60+5")
    clock.press(3 * S, moves=0)
    clock.record_infraction(3 * S, FIRST, "pressed without a new stone", actor="host")
    assert clock.infractions(FIRST) == 1 and clock.infractions(SECOND) == 0
    view = clock.view(3 * S)
    assert view.first.moves == 0 and view.first.remaining_ns == 62 * S  # time not undone
    assert view.running is SECOND
    assert isinstance(clock.events[-1], InfractionRecorded)


def test_replay_rebuilds_an_identical_clock_and_names_a_bad_event() -> None:
    clock = started("40/5400:1800+30", at=7)
    for i in range(1, 50):
        clock.press(7 + i * 3 * S)
    clock.pause(200 * S, hold="venue")
    clock.resume(300 * S, hold="venue")
    assert Clock.replay("40/5400:1800+30", clock.events) == clock
    assert Clock.replay("40/5400:1800+30", clock.events) != Clock.replay("5400", clock.events)
    with pytest.raises(ClockError, match=r"event 2 \(press\): time 1 ns \(0.000 s\) is earlier"):
        Clock.replay("60", [clock.events[0], Pressed(t_ns=1)])


def test_clock_constructor_errors() -> None:
    with pytest.raises(ClockError, match="on_flag"):
        Clock("60", on_flag="explode")
    with pytest.raises(ClockError, match="field 1"):
        Clock("6o")
    assert Clock("60").on_flag is FlagPolicy.STOP


def test_limits_of_instants_and_referee_actions() -> None:
    """docs/clock.md "Limits": instants are 64-bit nanoseconds; a referee adds, takes or
    sets at most 24 h at once; counts are at most 1000. A refused action changes nothing."""
    clock = Clock("600")
    clock.start(0)
    before = clock.view(1)
    day = 24 * 3600 * NS_PER_S
    with pytest.raises(ClockError, match=r"first: the time to add is at most 24 h \(86400000 ms\)"):
        clock.add_time(1, Seat.FIRST, day + NS_PER_MS)
    with pytest.raises(ClockError, match="either way, not -86400001 ms"):
        clock.add_time(1, Seat.FIRST, -day - NS_PER_MS)
    with pytest.raises(ClockError, match="the remaining time is at most 24 h"):
        clock.set_remaining(1, Seat.SECOND, day + 1)
    with pytest.raises(ClockError, match="moves must be between -1000 and 1000, not 1001"):
        clock.correct_moves(1, Seat.FIRST, 1001)
    with pytest.raises(ClockError, match="an event's t_ns must be between"):
        clock.press(2**63)
    with pytest.raises(ClockError, match="a press's moves must be between"):
        clock.press(1, moves=10**6)
    assert clock.view(1) == before
    clock.add_time(1, Seat.FIRST, day)  # the limit itself is taken
    assert clock.view(1).first.remaining_ns == before.first.remaining_ns + day
