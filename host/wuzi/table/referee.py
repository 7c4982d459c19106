"""The referee's commands to a table: pause, resume, adjourn, clock corrections, take
back, replace a stone, set the result, start the next game — and the host's restart,
which holds the clocks until the referee resumes.

``RefereeCommands`` is a mixin of ``wuzi.table.session.TableSession``: its ``_on_<Input>``
handlers are found by ``TableSession.handle`` like the players' ones. They live apart
because they differ in kind: a referee command the game or the clock refuses is a
``TableError`` (the referee gets told at once and nothing is journaled), whereas a player
action the rules refuse is a ``refused`` alert (buttons get pressed). Like the session,
this never does I/O and never reads the time.

Three clock holds wait for the referee: ``referee`` (the game awaits the referee: a
pause, a false claim), ``adjourned`` and ``recovery`` (the host restarted). One
``RefereeResume`` releases all three, so one command restarts play.

A clock stopped by a flag (the clock's own ``flag`` hold) may have been stopped by the
equipment — a press lost in an outage — rather than by the player: the referee gives the
flagged side time (``AdjustTime``), which answers the flag: the ``flag`` hold is traded
for the ``referee`` hold, and the referee's resume restarts the clock. Both are journaled
inputs, so recovery replays them to the same clock.
"""

from __future__ import annotations

from collections.abc import Callable

from wuzi.clock.control import NS_PER_MS
from wuzi.clock.errors import ClockError
from wuzi.clock.events import EQUIPMENT_HOLD, FLAG_HOLD
from wuzi.rules.errors import RulesError
from wuzi.rules.game import Status
from wuzi.rules.procedure import Seat
from wuzi.table.alerts import AlertReason
from wuzi.table.checks import TableError, check_int, check_point, check_seat
from wuzi.table.inputs import (
    Adjourn,
    AdjustTime,
    CorrectMoves,
    EquipmentHeld,
    HostRestarted,
    RefereePause,
    RefereeResume,
    ReplaceStone,
    SetResult,
    StartNextGame,
    TakeBack,
)
from wuzi.table.outputs import (
    Adjourned,
    MoveCorrected,
    MoveTakenBack,
)
from wuzi.table.session_state import SessionState

__all__ = [
    "ADJOURN_HOLD",
    "HOST_REFEREE",
    "HOST_RESTARTED_TEXT",
    "RECOVERY_HOLD",
    "REFEREE_HOLD",
    "RefereeCommands",
]

REFEREE_HOLD = "referee"
"""The clock hold a paused game keeps (a false claim, the referee's pause)."""

ADJOURN_HOLD = "adjourned"
"""The clock hold of an adjourned game (with ``referee``: the game is paused too)."""

RECOVERY_HOLD = "recovery"
"""The clock hold after the host restarted, until the referee has checked the board."""

HOST_RESTARTED_TEXT = "host restarted: clocks paused; check the board and resume"

HOST_REFEREE = "host"
"""The actor of the host's hold for its equipment (``EquipmentHeld``). Before that input
existed the host paused the game as referee ``host``: such a journal still replays as it
was written (a stone of the side to move that reached the paused game waited for its
press after the resume, ``TableSession``), so the name keeps that meaning too."""

_RESUMED = (REFEREE_HOLD, ADJOURN_HOLD, RECOVERY_HOLD, EQUIPMENT_HOLD)
"""What RefereeResume releases (the equipment hold too: the referee says the table is fit)."""


def _name(referee: object, what: str) -> str:
    if not isinstance(referee, str):
        raise TableError(f"{what}: a referee is named by text (a name or an id), not {referee!r}")
    return referee


class RefereeCommands(SessionState):
    """The referee's command handlers, mixed into ``TableSession``, which provides the
    state declared in ``SessionState`` (mypy checks that its definitions match)."""

    def _referee(self, what: str, action: Callable[[], object]) -> None:
        """Run a referee action on the game, turning its refusal into a TableError."""
        try:
            action()
        except (RulesError, ClockError) as exc:
            raise TableError(f"{what}: {exc}") from None

    def _on_RefereePause(self, event: RefereePause) -> None:
        now = event.now_ns
        self._referee(
            "pause",
            lambda: self._game.referee_pause(
                event.reason,
                referee=event.referee,
                t_ms=self._t_ms(now),
                clocks=self._reading(now),
            ),
        )
        self._host_paused = event.referee == HOST_REFEREE
        # _sync holds the clock (REFEREE_HOLD) now that the game awaits the referee

    def _on_RefereeResume(self, event: RefereeResume) -> None:
        now, game, clock = event.now_ns, self._game, self._clock
        referee = _name(event.referee, "resume")
        state = clock.state
        held = () if state.ended else tuple(h for h in _RESUMED if h in state.hold_names)
        if game.status is Status.AWAITING_REFEREE or not held:
            # the game's own refusal says what is wrong (over, not awaiting the referee)
            self._referee(
                "resume",
                lambda: game.referee_resume(
                    penalty=event.penalty,
                    referee=referee,
                    t_ms=self._t_ms(now),
                    clocks=self._reading(now),
                ),
            )
        elif event.penalty is not None:
            raise TableError(
                f"resume: a penalty is given to a game that awaits the referee; this one "
                f"only had its clock held ({', '.join(held)})"
            )
        for hold in held:
            clock.resume(now, hold=hold, actor=referee or "referee")
        self._host_paused = False

    def _on_Adjourn(self, event: Adjourn) -> None:
        now, game, clock = event.now_ns, self._game, self._clock
        reason = event.reason
        if not isinstance(reason, str) or not reason.strip():
            raise TableError(f"adjourn: the reason must be a non-empty text, not {reason!r}")
        referee = _name(event.referee, "adjourn")
        if game.is_over:
            raise TableError(f"adjourn: game {self._game_number} is over")
        if ADJOURN_HOLD in clock.state.hold_names:
            raise TableError("adjourn: the game is already adjourned")
        why = f"adjourned: {reason.strip()}"
        if game.status is not Status.AWAITING_REFEREE:  # else its pause stands for both
            self._referee(
                "adjourn",
                lambda: game.referee_pause(
                    why, referee=referee, t_ms=self._t_ms(now), clocks=self._reading(now)
                ),
            )
        clock.pause(now, hold=ADJOURN_HOLD, actor=referee or "referee", reason=why)
        self._out.append(Adjourned(now, reason))
        # _sync adds REFEREE_HOLD now that the game awaits the referee

    def _on_EquipmentHeld(self, event: EquipmentHeld) -> None:
        """Hold the clock for the equipment (once: a second fault of the same spell, or a
        game over, changes nothing). The game is not paused, so the moves the players make
        meanwhile are judged when the devices report them (``EQUIPMENT_HOLD``)."""
        reason = event.reason
        if not isinstance(reason, str) or not reason.strip():
            raise TableError(f"equipment hold: the reason must be a non-empty text, not {reason!r}")
        state = self._clock.state
        if self._game.is_over or state.ended or EQUIPMENT_HOLD in state.hold_names:
            return
        self._clock.pause(event.now_ns, hold=EQUIPMENT_HOLD, actor=HOST_REFEREE, reason=reason)

    def _on_HostRestarted(self, event: HostRestarted) -> None:
        now, clock = event.now_ns, self._clock
        if self._game.is_over or clock.state.ended:
            text = "host restarted: the game is over; check the board"
            self._alert(now, AlertReason.HOST_RESTARTED, text)
            return
        if RECOVERY_HOLD not in clock.state.hold_names:  # a second restart before resuming
            clock.pause(now, hold=RECOVERY_HOLD, actor="host", reason="host restarted")
        self._alert(now, AlertReason.HOST_RESTARTED, HOST_RESTARTED_TEXT)

    def _on_AdjustTime(self, event: AdjustTime) -> None:
        seat = check_seat(event.seat)
        delta = check_int(event.delta_ms, "delta_ms")
        self._referee(
            "adjust time",
            lambda: self._clock.add_time(
                event.now_ns,
                seat,
                delta * NS_PER_MS,
                actor=event.referee or "referee",
                reason=event.reason,
            ),
        )
        self._answer_flag(event.now_ns, event.referee or "referee")

    def _answer_flag(self, now_ns: int, actor: str) -> None:
        """Once no side's flag is down any more (the flagged side was given time), the
        clock's ``flag`` hold is released and the ``referee`` hold put in its place: the
        clock stays stopped until the referee resumes, as after any pause."""
        clock = self._clock
        state = clock.state
        if state.ended or FLAG_HOLD not in state.hold_names:
            return
        if any(state.side(seat).flagged_ns is not None for seat in (Seat.FIRST, Seat.SECOND)):
            return  # another side is still flagged: its time first
        if REFEREE_HOLD not in state.hold_names:
            clock.pause(now_ns, hold=REFEREE_HOLD, actor=actor, reason="time given after a flag")
        clock.resume(now_ns, hold=FLAG_HOLD, actor=actor, reason="time given after a flag")

    def _on_CorrectMoves(self, event: CorrectMoves) -> None:
        seat = check_seat(event.seat)
        moves = check_int(event.moves, "moves")
        self._referee(
            "correct the move counter",
            lambda: self._clock.correct_moves(
                event.now_ns, seat, moves, actor=event.referee or "referee", reason=event.reason
            ),
        )

    def _on_TakeBack(self, event: TakeBack) -> None:
        p = check_point(event.point)
        now, game = event.now_ns, self._game
        taken: list[int] = []

        def take_back() -> None:
            move = game.referee_remove_stone(
                p,
                reason=event.reason,
                referee=event.referee,
                t_ms=self._t_ms(now),
                clocks=self._reading(now),
            )
            taken.append(move.number)

        self._referee("take back", take_back)
        self._taken_back.add(p)
        self._out.append(MoveTakenBack(now, taken[0], p))
        seat, state = game.to_move, self._clock.state
        if seat is not None and state.turn is not seat and not state.ended:
            try:
                self._clock.switch(now, seat, actor=event.referee or "referee", reason=event.reason)
            except ClockError as exc:  # the stone is taken back; the clock is the referee's
                self._alert(now, AlertReason.REFUSED, f"clock not switched back: {exc}", (p,))

    def _on_ReplaceStone(self, event: ReplaceStone) -> None:
        old, new = check_point(event.old, "old"), check_point(event.new, "new")
        now, game = event.now_ns, self._game
        numbers: list[int] = []

        def correct() -> None:
            move = game.referee_replace_stone(
                old,
                new,
                reason=event.reason,
                referee=event.referee,
                t_ms=self._t_ms(now),
                clocks=self._reading(now),
            )
            numbers.append(move.number)

        self._referee("replace a stone", correct)
        self._out.append(MoveCorrected(now, numbers[0], old, new))

    def _on_SetResult(self, event: SetResult) -> None:
        winner = None if event.winner is None else check_seat(event.winner, "the winner")
        now = event.now_ns
        self._referee(
            "set the result",
            lambda: self._game.referee_decide(
                winner,
                event.reason,
                referee=event.referee,
                t_ms=self._t_ms(now),
                clocks=self._reading(now),
            ),
        )
        self._pending = None

    def _on_StartNextGame(self, event: StartNextGame) -> None:
        if not self._game.is_over:
            raise TableError(f"game {self._game_number} is not over: set its result first")
        self._begin_game(event.now_ns)
