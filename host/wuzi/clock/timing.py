"""One side's time under a time control: pure arithmetic on an immutable ``SideState``.

Everything a clock does to one side is here — let its time run for a while, a press, the
referee's additions, removals and settings, a corrected move counter — as functions that
take a state and return a new one, so the clock state machine (``wuzi.clock.machine``) only
decides *which* side is affected and *when*. Times are integer nanoseconds; nothing is
rounded, so a flag computed here is the exact instant the time ran out, however late it
is observed.

The order in which a running side spends its time: the delay of the turn (simple delay),
then the time of the current phase (``bank_ns``); when that runs out, the next phase's
time if the phase ends on expiry, else the byo-yomi (the current period, then the next
ones), else the flag falls.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from wuzi.clock.control import Bonus, OvertimeKind, TimeControl
from wuzi.clock.errors import ClockError

__all__ = [
    "SideState",
    "add_time",
    "begin_turn",
    "correct_moves",
    "delay_left_ns",
    "face_ns",
    "in_overtime",
    "initial_side",
    "press",
    "remove_time",
    "run",
    "set_remaining",
    "time_to_flag_ns",
]


@dataclass(frozen=True, slots=True)
class SideState:
    """One side's clock. ``bank_ns`` is the time of the current phase (``phase``, 0-based),
    ``phase_moves`` the moves made in it, ``moves`` the move counter of the game; the
    byo-yomi fields count lost periods (Japanese), the time used of the current period or
    Canadian block and the moves made in the block; ``turn_used_ns`` is the time used in
    the current turn (delays) and ``turn_phase`` the phase in force when the turn began;
    ``flagged_ns`` is when this side's flag fell, while it has no time."""

    bank_ns: int
    phase: int = 0
    phase_moves: int = 0
    moves: int = 0
    periods_used: int = 0
    period_used_ns: int = 0
    block_moves: int = 0
    turn_used_ns: int = 0
    turn_phase: int = 0
    flagged_ns: int | None = None


def initial_side(control: TimeControl) -> SideState:
    """A side at the start of the game (straight into byo-yomi if there is no main time)."""
    side, _ = run(SideState(bank_ns=control.phases[0].time_ns), control, 0, turn=False)
    return side


def in_overtime(side: SideState, control: TimeControl) -> bool:
    """True while the side plays in byo-yomi (its main time is used up, its flag is up)."""
    return side.flagged_ns is None and side.bank_ns == 0 and control.overtime is not None


def delay_left_ns(side: SideState, control: TimeControl) -> int:
    """What is left of the delay of the current turn (meaningful for the side to move)."""
    phase = control.phases[side.turn_phase]
    if phase.bonus is not Bonus.DELAY:
        return 0
    return max(0, phase.bonus_ns - side.turn_used_ns)


def time_to_flag_ns(side: SideState, control: TimeControl, *, in_turn: bool) -> int:
    """How long until the side's flag falls if its clock runs from now without a press:
    the delay left (only for the side whose turn it is), the current phase, the phases
    added when time runs out, and the byo-yomi."""
    if side.flagged_ns is not None:
        return 0
    total = side.bank_ns + (delay_left_ns(side, control) if in_turn else 0)
    phases = control.phases
    p = side.phase
    while phases[p].moves is None and p + 1 < len(phases):
        p += 1
        total += phases[p].time_ns
    overtime = control.overtime
    if overtime is not None and phases[p].moves is None:
        if overtime.kind is OvertimeKind.BYOYOMI:
            total += (overtime.periods - side.periods_used) * overtime.period_ns
        else:
            total += overtime.period_ns
        total -= side.period_used_ns
    return total


def face_ns(side: SideState, control: TimeControl) -> int:
    """The counter a display shows: the time of the current phase, or in byo-yomi what is
    left of the current period (Canadian block); 0 once the flag fell."""
    if side.flagged_ns is not None:
        return 0
    if side.bank_ns > 0 or control.overtime is None:
        return side.bank_ns
    return control.overtime.period_ns - side.period_used_ns


def run(
    side: SideState,
    control: TimeControl,
    elapsed_ns: int,
    *,
    start_ns: int = 0,
    delay: bool = True,
    turn: bool = True,
) -> tuple[SideState, int | None]:
    """Let ``elapsed_ns`` of the side's time run from ``start_ns``. Returns the new state
    and the exact instant the flag fell (``start_ns`` + the time it took), or None.

    Once the flag falls nothing more is spent (the state shows no time left and
    ``flagged_ns``). ``delay=False`` skips the delay and ``turn=False`` leaves the turn's
    bookkeeping alone (used for a referee's removal of time, which is not thinking time).
    """
    if side.flagged_ns is not None:  # a side that keeps playing after its flag: stays at 0
        return side, None
    left = elapsed_ns
    offset = 0
    if delay:
        take = min(left, delay_left_ns(side, control))
        left -= take
        offset += take
    phases = control.phases
    bank, phase, phase_moves = side.bank_ns, side.phase, side.phase_moves
    periods_used, period_used = side.periods_used, side.period_used_ns
    flag_offset: int | None = None
    while True:
        if bank > 0:
            take = min(left, bank)
            bank -= take
            left -= take
            offset += take
            if bank > 0:
                break
        current = phases[phase]
        if current.moves is None and phase + 1 < len(phases):
            phase += 1  # a phase that ends when its time runs out: the next one begins
            bank = phases[phase].time_ns
            phase_moves = 0
            continue
        overtime = control.overtime
        if current.moves is not None or overtime is None:
            flag_offset = offset
            break
        if overtime.kind is OvertimeKind.BYOYOMI:
            available = (overtime.periods - periods_used) * overtime.period_ns - period_used
            if left >= available:
                offset += available
                periods_used, period_used = overtime.periods, 0
                flag_offset = offset
            else:
                total = period_used + left
                periods_used += total // overtime.period_ns
                period_used = total % overtime.period_ns
                offset += left
        else:
            available = overtime.period_ns - period_used
            if left >= available:
                offset += available
                period_used = overtime.period_ns
                flag_offset = offset
            else:
                period_used += left
                offset += left
        break
    # ``offset`` is the time spent: all of it, or up to the flag.
    turn_used = side.turn_used_ns + offset if turn else side.turn_used_ns
    flagged = None if flag_offset is None else start_ns + flag_offset
    new = SideState(
        bank_ns=bank,
        phase=phase,
        phase_moves=phase_moves,
        moves=side.moves,
        periods_used=periods_used,
        period_used_ns=period_used,
        block_moves=side.block_moves,
        turn_used_ns=turn_used,
        turn_phase=side.turn_phase,
        flagged_ns=flagged,
    )
    return new, flagged


def _complete_phases(
    control: TimeControl, phase: int, phase_moves: int, bank: int
) -> tuple[int, int, int]:
    """Add the next phases' time for every phase whose moves are now made."""
    phases = control.phases
    while True:
        needed = phases[phase].moves
        if needed is None or phase_moves < needed:
            break
        phase_moves -= needed
        if phase + 1 < len(phases):
            phase += 1
        bank += phases[phase].time_ns
    return phase, phase_moves, bank


def press(side: SideState, control: TimeControl, moves: int = 1) -> SideState:
    """The side pressed its clock, completing ``moves`` moves (0 for a press that was not
    a move). One bonus per press: the Fischer increment of the current phase, or the
    Bronstein refund of the turn; a phase whose moves are now made adds the next phase's
    time; a move made inside a byo-yomi period resets it, a Canadian block resets once
    its moves are made. A side whose flag fell gets nothing (its moves still count)."""
    if side.flagged_ns is not None:
        return replace(side, moves=side.moves + moves, turn_used_ns=0)
    phases = control.phases
    overtime = control.overtime
    bank = side.bank_ns
    playing_overtime = in_overtime(side, control)
    if not playing_overtime:
        phase = phases[side.phase]
        if phase.bonus is Bonus.FISCHER:
            bank += phase.bonus_ns
        began = phases[side.turn_phase]
        if began.bonus is Bonus.BRONSTEIN:
            bank += min(side.turn_used_ns, began.bonus_ns)
    p, phase_moves, bank = _complete_phases(control, side.phase, side.phase_moves + moves, bank)
    period_used, block_moves = side.period_used_ns, side.block_moves
    if playing_overtime and moves > 0 and overtime is not None:
        if overtime.kind is OvertimeKind.BYOYOMI:
            period_used = 0
        else:
            block_moves += moves
            if block_moves >= overtime.moves:
                block_moves %= overtime.moves
                period_used = 0
    return SideState(
        bank_ns=bank,
        phase=p,
        phase_moves=phase_moves,
        moves=side.moves + moves,
        periods_used=side.periods_used,
        period_used_ns=period_used,
        block_moves=block_moves,
        turn_used_ns=0,
        turn_phase=p,
        flagged_ns=None,
    )


def begin_turn(side: SideState) -> SideState:
    """The side's clock starts a new turn (after a press, at the start, at a switch): a
    fresh delay, and the phase whose bonus applies to this turn."""
    return replace(side, turn_used_ns=0, turn_phase=side.phase)


def add_time(side: SideState, control: TimeControl, delta_ns: int) -> SideState:
    """Give the side ``delta_ns`` (> 0) more: it goes to the current phase's time (in
    byo-yomi that brings the side back to main time, keeping its periods). A side whose
    flag fell has time again."""
    if delta_ns <= 0:
        raise ClockError(f"time to add must be more than 0 ns, not {delta_ns}")
    return replace(side, bank_ns=side.bank_ns + delta_ns, flagged_ns=None)


def remove_time(side: SideState, control: TimeControl, delta_ns: int) -> SideState:
    """Take ``delta_ns`` (> 0) away, spending it as if the clock had run (across phases
    and byo-yomi periods, never the delay). It must leave the side some time: a referee
    does not make a flag fall by an adjustment."""
    if delta_ns <= 0:
        raise ClockError(f"time to remove must be more than 0 ns, not {delta_ns}")
    available = time_to_flag_ns(side, control, in_turn=False)
    if delta_ns >= available:
        raise ClockError(
            f"cannot remove {_ms(delta_ns)} ms: only {_ms(available)} ms are left before the "
            "flag; set the remaining time instead"
        )
    new, flag = run(side, control, delta_ns, delay=False, turn=False)
    assert flag is None
    return new


def set_remaining(
    side: SideState, control: TimeControl, remaining_ns: int, periods_left: int | None = None
) -> SideState:
    """Set the time of the current phase (main time) to ``remaining_ns``; with byo-yomi,
    ``periods_left`` also sets the periods left (the current one starts afresh). The side
    must have some time left afterwards."""
    if remaining_ns < 0:
        raise ClockError(f"the remaining time cannot be negative ({_ms(remaining_ns)} ms)")
    overtime = control.overtime
    periods_used, period_used, block_moves = (
        side.periods_used,
        side.period_used_ns,
        side.block_moves,
    )
    if periods_left is not None:
        if overtime is None or overtime.kind is not OvertimeKind.BYOYOMI:
            raise ClockError("only a control with Japanese byo-yomi has periods left to set")
        if not 0 <= periods_left <= overtime.periods:
            raise ClockError(
                f"periods left must be between 0 and {overtime.periods}, not {periods_left}"
            )
        periods_used, period_used = overtime.periods - periods_left, 0
    elif overtime is not None and overtime.kind is OvertimeKind.CANADIAN and remaining_ns == 0:
        period_used, block_moves = 0, 0  # "set to 0": a fresh Canadian block
    new = replace(
        side,
        bank_ns=remaining_ns,
        periods_used=periods_used,
        period_used_ns=period_used,
        block_moves=block_moves,
        flagged_ns=None,
    )
    if time_to_flag_ns(new, control, in_turn=False) <= 0:
        raise ClockError("that would leave no time at all; a flag is not set by hand")
    new, flag = run(new, control, 0, turn=False)
    assert flag is None
    return new


def correct_moves(side: SideState, control: TimeControl, moves: int) -> SideState:
    """Correct the move counter to ``moves``. The moves counted in the current phase (and
    the current Canadian block) change by the same amount; a phase whose moves are thereby
    made adds the next phase's time at once (a lower count takes no time back), which also
    gives a side whose flag fell its time back."""
    if moves < 0:
        raise ClockError(f"a move counter cannot be negative ({moves})")
    delta = moves - side.moves
    phase, phase_moves, bank = _complete_phases(
        control, side.phase, max(0, side.phase_moves + delta), side.bank_ns
    )
    period_used, block_moves = side.period_used_ns, side.block_moves
    overtime = control.overtime
    if (
        overtime is not None
        and overtime.kind is OvertimeKind.CANADIAN
        and in_overtime(side, control)
    ):
        block_moves = max(0, block_moves + delta)
        if block_moves >= overtime.moves:
            block_moves %= overtime.moves
            period_used = 0
    return replace(
        side,
        bank_ns=bank,
        phase=phase,
        phase_moves=phase_moves,
        moves=moves,
        period_used_ns=period_used,
        block_moves=block_moves,
        flagged_ns=side.flagged_ns if bank == side.bank_ns else None,  # time came: no flag
    )


def _ms(ns: int) -> str:
    """``ns`` in ms for a message (exact when whole)."""
    whole, rest = divmod(ns, 1_000_000)
    return str(whole) if rest == 0 else f"{ns / 1_000_000:.3f}"
