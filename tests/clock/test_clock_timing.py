"""One side's arithmetic under every kind of control (fake time: plain integers)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from wuzi.clock import timing
from wuzi.clock.control import NS_PER_MS, NS_PER_S, parse_control
from wuzi.clock.errors import ClockError
from wuzi.clock.timing import SideState

S = NS_PER_S
MS = NS_PER_MS


def spent(spec: str, *elapsed_ns: int) -> SideState:
    """A side that thought for each of ``elapsed_ns`` and pressed after each."""
    control = parse_control(spec)
    side = timing.initial_side(control)
    for e in elapsed_ns:
        side, flag = timing.run(side, control, e)
        assert flag is None
        side = timing.begin_turn(timing.press(side, control))
    return side


def ttf(spec: str, side: SideState, in_turn: bool = True) -> int:
    return timing.time_to_flag_ns(side, parse_control(spec), in_turn=in_turn)


def test_sudden_death_flag_offset_is_exact() -> None:
    control = parse_control("60")
    side = timing.initial_side(control)
    side, flag = timing.run(side, control, 59 * S + 999 * MS, start_ns=1000)
    assert flag is None and side.bank_ns == MS
    side, flag = timing.run(side, control, 5 * S, start_ns=2000)
    assert flag == 2000 + MS  # the instant the time ran out, not the end of the interval
    assert side.flagged_ns == flag and side.bank_ns == 0
    assert timing.time_to_flag_ns(side, control, in_turn=True) == 0


def test_fischer_from_move_one() -> None:
    side = spent("300+3", 2 * S)
    assert side.bank_ns == 301 * S  # 300 - 2 + 3: the increment already at move 1
    assert side.moves == 1
    assert spent("300+3", 0, 0).bank_ns == 306 * S


def test_multi_period_time_is_added_at_the_press_completing_the_moves() -> None:
    side = spent("3/60:30+5", S, S)
    assert side.bank_ns == 58 * S and side.phase == 0 and side.phase_moves == 2
    side = spent("3/60:30+5", S, S, S)
    assert side.bank_ns == 57 * S + 30 * S and side.phase == 1 and side.phase_moves == 0
    side = spent("3/60:30+5", S, S, S, S)  # the second period's increment from then on
    assert side.bank_ns == 86 * S + 5 * S


def test_a_repeating_last_period() -> None:
    side = spent("2/10", S, S)
    assert side.bank_ns == 18 * S and side.phase == 0  # the same period again
    assert spent("2/10", S, S, S, S).bank_ns == 26 * S


def test_moves_not_made_in_time_is_a_flag() -> None:
    control = parse_control("3/60:30")
    side = spent("3/60:30", S)
    side, flag = timing.run(side, control, 100 * S)
    assert flag == 59 * S  # the remaining 59 s of period 1; period 2's time never came


def test_period_added_when_time_runs_out() -> None:
    control = parse_control("10:5")
    side = timing.initial_side(control)
    assert ttf("10:5", side) == 15 * S
    side, flag = timing.run(side, control, 12 * S)
    assert flag is None and side.phase == 1 and side.bank_ns == 3 * S
    side, flag = timing.run(side, control, 4 * S, start_ns=12 * S)
    assert flag == 15 * S


def test_byo_yomi_move_resets_the_period_and_periods_are_lost() -> None:
    spec = "10:3x5"
    control = parse_control(spec)
    side = timing.initial_side(control)
    side, _ = timing.run(side, control, 12 * S)  # 10 s main + 2 s of period 1
    assert timing.in_overtime(side, control)
    assert side.period_used_ns == 2 * S and side.periods_used == 0
    assert timing.face_ns(side, control) == 3 * S
    side = timing.press(side, control)
    assert side.period_used_ns == 0 and side.periods_used == 0  # reset by the move
    side, _ = timing.run(timing.begin_turn(side), control, 7 * S)  # period 1 lost, 2 s of 2
    assert side.periods_used == 1 and side.period_used_ns == 2 * S
    assert ttf(spec, side) == 8 * S  # 3 s of this period + one more period
    side, flag = timing.run(side, control, 60 * S, start_ns=100 * S)
    assert flag == 108 * S


def test_pure_byo_yomi_starts_in_overtime() -> None:
    control = parse_control("5x30")
    side = timing.initial_side(control)
    assert timing.in_overtime(side, control)
    assert timing.face_ns(side, control) == 30 * S
    assert ttf("5x30", side) == 150 * S


def test_canadian_byo_yomi_block() -> None:
    spec = "10:c2/20"
    control = parse_control(spec)
    side = timing.initial_side(control)
    side = timing.press(timing.run(side, control, 5 * S)[0], control)  # in main: not counted
    assert side.block_moves == 0
    side = timing.run(timing.begin_turn(side), control, 8 * S)[0]  # 5 s main + 3 s of block
    side = timing.press(side, control)
    assert side.block_moves == 1 and side.period_used_ns == 3 * S
    side = timing.press(timing.run(timing.begin_turn(side), control, 10 * S)[0], control)
    assert side.block_moves == 0 and side.period_used_ns == 0  # 2 moves made: a fresh block
    side, flag = timing.run(timing.begin_turn(side), control, 30 * S, start_ns=0)
    assert flag == 20 * S


def test_simple_delay_is_free_time_per_turn() -> None:
    spec = "60d5"
    control = parse_control(spec)
    side = timing.initial_side(control)
    assert ttf(spec, side) == 65 * S and ttf(spec, side, in_turn=False) == 60 * S
    side, _ = timing.run(side, control, 3 * S)
    assert side.bank_ns == 60 * S and timing.delay_left_ns(side, control) == 2 * S
    side, _ = timing.run(side, control, 4 * S)
    assert side.bank_ns == 58 * S
    side = timing.begin_turn(timing.press(side, control))
    assert side.bank_ns == 58 * S and timing.delay_left_ns(side, control) == 5 * S
    side, flag = timing.run(side, control, 100 * S, start_ns=0)
    assert flag == 63 * S


def test_bronstein_gives_back_the_time_used_up_to_the_delay() -> None:
    assert spent("60b5", 3 * S).bank_ns == 60 * S  # 3 s used, 3 s back
    assert spent("60b5", 8 * S).bank_ns == 57 * S  # 8 s used, 5 s back
    control = parse_control("60b5")
    _, flag = timing.run(timing.initial_side(control), control, 61 * S)
    assert flag == 60 * S  # the refund comes only at the press


def test_remove_time_spends_across_periods_but_never_flags() -> None:
    control = parse_control("10:3x5")
    side = timing.remove_time(timing.initial_side(control), control, 17 * S)
    assert side.bank_ns == 0 and side.periods_used == 1 and side.period_used_ns == 2 * S
    with pytest.raises(ClockError, match="only 8000 ms are left"):
        timing.remove_time(side, control, 8 * S)
    with pytest.raises(ClockError, match="more than 0"):
        timing.remove_time(side, control, 0)


def test_add_time_in_byo_yomi_gives_main_time_back() -> None:
    control = parse_control("10:3x5")
    side = timing.remove_time(timing.initial_side(control), control, 12 * S)
    side = timing.add_time(side, control, 30 * S)
    assert side.bank_ns == 30 * S and not timing.in_overtime(side, control)
    assert timing.time_to_flag_ns(side, control, in_turn=False) == 30 * S + 13 * S


def test_set_remaining_and_periods_left() -> None:
    control = parse_control("10:3x5")
    side = timing.set_remaining(timing.initial_side(control), control, 0, periods_left=1)
    assert timing.in_overtime(side, control)
    assert timing.time_to_flag_ns(side, control, in_turn=False) == 5 * S
    with pytest.raises(ClockError, match="no time at all"):
        timing.set_remaining(side, control, 0, periods_left=0)
    with pytest.raises(ClockError, match="between 0 and 3"):
        timing.set_remaining(side, control, 0, periods_left=4)
    with pytest.raises(ClockError, match="Japanese byo-yomi"):
        timing.set_remaining(timing.initial_side(parse_control("60")), parse_control("60"), S, 1)


def test_correcting_the_move_counter_completes_a_period_at_once() -> None:
    control = parse_control("3/60:30")
    side = spent("3/60:30", S)
    side = timing.correct_moves(side, control, 3)
    assert side.moves == 3 and side.phase == 1 and side.bank_ns == 59 * S + 30 * S
    lower = timing.correct_moves(side, control, 1)
    assert lower.moves == 1 and lower.phase == 1 and lower.bank_ns == side.bank_ns
    with pytest.raises(ClockError, match="negative"):
        timing.correct_moves(side, control, -1)


def test_a_flagged_side_gets_nothing_from_a_press() -> None:
    control = parse_control("10+5")
    side, flag = timing.run(timing.initial_side(control), control, 20 * S)
    assert flag == 10 * S
    pressed = timing.press(side, control)
    assert pressed.flagged_ns == flag and pressed.bank_ns == 0 and pressed.moves == 1


SPECS = [
    "5",
    "3+1",
    "3/4:2+1",
    "2:1.5:1",
    "2:3x1",
    "3x0.7",
    "1:c3/2",
    "3d0.8",
    "3b0.8",
    "2/2:1d0.5",
]


@given(
    st.sampled_from(SPECS),
    st.lists(st.integers(0, 3000).map(lambda ms: ms * MS), min_size=1, max_size=6),
    st.integers(0, 12).map(lambda n: n * 500 * MS),
)
def test_time_runs_the_same_in_one_go_or_in_pieces(
    spec: str, pieces: list[int], before: int
) -> None:
    control = parse_control(spec)
    side, _ = timing.run(timing.initial_side(control), control, before)
    assume(side.flagged_ns is None)
    side = timing.begin_turn(timing.press(side, control))
    total = sum(pieces)
    before_ttf = timing.time_to_flag_ns(side, control, in_turn=True)
    whole, whole_flag = timing.run(side, control, total, start_ns=0)
    t = 0
    flags = []
    for piece in pieces:
        side, flag = timing.run(side, control, piece, start_ns=t)
        t += piece
        if flag is not None:
            flags.append(flag)
    assert side == whole
    assert flags == ([] if whole_flag is None else [whole_flag])
    # the time to the flag falls 1:1, and the flag is exactly where it reaches 0
    assert timing.time_to_flag_ns(whole, control, in_turn=True) == max(0, before_ttf - total)
    if whole.flagged_ns is None:
        assert whole_flag is None and total < before_ttf
    else:
        assert whole_flag == before_ttf <= total


def test_a_corrected_count_that_completes_a_period_lifts_the_flag() -> None:
    control = parse_control("3/10:30")
    side, flag = timing.run(spent("3/10:30", S, S), control, 20 * S)
    assert flag == 8 * S and side.flagged_ns == flag
    fixed = timing.correct_moves(side, control, 3)
    assert fixed.flagged_ns is None and fixed.bank_ns == 30 * S
