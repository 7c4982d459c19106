"""A flag is a result in every phase of a game: one rule for the opening and the middle game.

A flag is computed (``wuzi.clock.machine``): the clock's state as of its last event does
not hold it until some later event is folded in. So before each input the session puts
every flag fallen by then on record (``Clock.note_flags``: the clock is held by ``flag``
from the flag's own instant) and tells the referee (a ``flag`` alert) — whatever the
input, a ``Tick`` of the shell's timer as well as a player's stone. Noting the flag is a
clock event, so the session's ``_sync`` publishes a ``ClockChanged`` at once and the
table's public state says ``paused`` (docs/bus.md: the clock is held).

From the flag until the referee's decision, no player action counts: a stone (a move, a
fifth-move offer, an opening stone) is set aside as a stray, a press is not taken, a
decision, a declared number or the offer kept is not made — each one a referee alert
naming the flag, and the game and the clock unchanged. The referee ends the game with
``SetResult`` as in the middle game, or — a flag the equipment caused (docs/host.md) —
gives the flagged side time (``AdjustTime``: the ``flag`` hold becomes a ``referee``
hold) and resumes; play counts again from that resume. A claim is not refused: it is
about what stood before the flag, and the game judges it as ever.

``FlagRule`` is a mixin of ``wuzi.table.session.TableSession`` (which calls
``_note_flags`` and ``_stopped_by_flag`` from ``handle``). Pure: no I/O, no time read.
"""

from __future__ import annotations

from wuzi.clock.events import FLAG_HOLD
from wuzi.rules.board import point_name
from wuzi.rules.game import Status
from wuzi.table.alerts import AlertReason
from wuzi.table.checks import TableError, check_colour, check_int, check_point, check_seat
from wuzi.table.inputs import (
    Choose,
    ClockPressed,
    Decide,
    Declare,
    StoneSettled,
)
from wuzi.table.outputs import RefereeAlert
from wuzi.table.referee import REFEREE_HOLD
from wuzi.table.session_state import SessionState

__all__ = ["PLAYER_ACTIONS", "FlagRule", "PlayerAction"]

PlayerAction = StoneSettled | ClockPressed | Decide | Declare | Choose
PLAYER_ACTIONS = (StoneSettled, ClockPressed, Decide, Declare, Choose)
"""The inputs that would make a move or an opening decision: none counts after a flag."""


class FlagRule(SessionState):
    """The flag's handling, mixed into ``TableSession`` (which provides the state
    declared in ``SessionState``; mypy checks that its definitions match)."""

    def _note_flags(self, now: int) -> None:
        """Put the flags fallen by ``now`` on record (the clock held by ``flag`` from the
        flag's instant) and tell each one to the referee once, ahead of what the input
        itself caused. Called once the input is taken (a refused one changes nothing)."""
        self._clock.note_flags(now)
        flags = self._clock.state.flags
        told = [
            RefereeAlert(now, AlertReason.FLAG, f"the {f.seat.value} seat's flag fell", (), f.seat)
            for f in flags[self._flags_told :]
        ]
        self._flags_told = max(self._flags_told, len(flags))
        self._out[0:0] = told

    def _stopped_by_flag(self, now: int) -> bool:
        """Whether a flag stops play at ``now``: the clock held by ``flag`` (on record or
        not yet), or a flag the referee answered with time (a ``referee`` hold of a game
        that does not await the referee) not resumed yet. Never once the game is over."""
        state = self._clock.at(now)
        if self._game.is_over or state.ended:
            return False
        holds = state.hold_names
        return FLAG_HOLD in holds or (
            REFEREE_HOLD in holds
            and bool(state.flags)
            and self._game.status is not Status.AWAITING_REFEREE
        )

    def _refuse_after_flag(self, event: PlayerAction) -> None:
        """A player's action while a flag stops play: checked like any input (a malformed
        one is still a ``TableError``), then told to the referee and not counted."""
        now = event.now_ns
        flags = self._clock.at(now).flags
        why = f"after the {flags[-1].seat.value} seat's flag fell" if flags else "after a flag"
        if isinstance(event, StoneSettled):
            p, colour = check_point(event.point), check_colour(event.colour)
            self._strays.add(p)
            self._alert(
                now,
                AlertReason.NOT_ALLOWED,
                f"a {colour.label} stone on {point_name(p)} {why}: not counted; the referee "
                "decides (the result, or time given and play resumed)",
                (p,),
            )
            return
        seat = check_seat(event.seat)
        if isinstance(event, ClockPressed):
            pending = self._pending
            waits = "" if pending is None else f"; the stone on {point_name(pending[0])} waits"
            points = () if pending is None else (pending[0],)
            text = f"the {seat.value} seat's press {why} is not taken{waits}"
            self._alert(now, AlertReason.REFUSED, text, points, seat)
            return
        if isinstance(event, Decide):
            if not isinstance(event.choice, str):
                raise TableError(f"a decision is text, not {event.choice!r}")
            what = f"decision {event.choice!r}"
        elif isinstance(event, Declare):
            what = f"declaration of {check_int(event.number, 'a declared number')}"
        else:
            assert isinstance(event, Choose)
            what = f"choice of {point_name(check_point(event.point))}"
        self._alert(
            now, AlertReason.REFUSED, f"{what} by the {seat.value} seat {why}: not made", seat=seat
        )
