"""What only the referee sees and does in a game: the private alerts, Black's forbidden
points, pausing and resuming, setting or correcting the result, and correcting the last
stone (a sensor misread, or a stone ruled to be taken back).

``RefereeActions`` is a layer of ``wuzi.rules.game.Game`` (on ``GameState``). Every
action takes an optional ``referee`` (a name or an id) for the audit trail, the caller's
``t_ms`` and ``clocks``, and is an input event, so ``Game.replay`` repeats it.

Corrections of a stone touch only the last move, and only a stone played after the
opening; they are refused (``IllegalMoveError``, the game unchanged) for an earlier stone,
when a pass followed the stone, and during or for the opening (the opening procedure
keeps its own state: offers, swaps, declared numbers, which it cannot rewind); and once
the game is over (``GameOverError``: a result may already have been reported; the
referee corrects it with ``referee_correct``). See docs/game.md.
"""

from __future__ import annotations

from wuzi.rules.board import Point, point_name
from wuzi.rules.claims import RefereeAlert
from wuzi.rules.errors import IllegalMoveError, OccupiedPointError, RulesError
from wuzi.rules.events import (
    RefereeCorrected,
    RefereeDecided,
    RefereePaused,
    RefereeRemovedStone,
    RefereeReplacedStone,
    RefereeResumed,
    ResultReason,
)
from wuzi.rules.game_state import (
    GameState,
    Move,
    as_point,
    check_name,
    check_seat,
    check_text,
)
from wuzi.rules.procedure import Seat
from wuzi.rules.record import ClockReading
from wuzi.rules.verdict import ForbiddenKind

__all__ = ["RefereeActions"]


class RefereeActions(GameState):
    """The referee's view and actions (see the module's docstring)."""

    @property
    def referee_alerts(self) -> tuple[RefereeAlert, ...]:
        """Forbidden moves, fives and claims that need the referee: never for players.
        A history: an alert about a stone later taken back stays (the take-back follows
        it in the events)."""
        return tuple(self._alerts)

    def referee_forbidden_points(self) -> dict[Point, ForbiddenKind]:
        """Every empty point where Black may not play now (empty without forbidden moves),
        for the referee's view; kept up to date stone by stone, so cheap after each move."""
        return {} if self._judge is None else self._judge.forbidden_points()

    def referee_pause(
        self,
        reason: str,
        *,
        referee: str = "",
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> None:
        """The referee stops play (a misread board, a dispute …) until ``referee_resume``."""
        self._check_time(t_ms, clocks)
        self._check_open()
        why = check_text(reason, "a pause's reason")
        who = check_name(referee)
        if self._paused:
            raise IllegalMoveError("the game is already awaiting the referee")
        self._emit(RefereePaused(reason=why, referee=who, t_ms=t_ms, clocks=clocks))
        self._paused = True

    def referee_resume(
        self,
        *,
        penalty: str | None = None,
        note: str = "",
        referee: str = "",
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> None:
        """The referee lets the paused game go on, recording a penalty if one was given."""
        self._check_time(t_ms, clocks)
        self._check_open()
        if not self._paused:
            raise IllegalMoveError("the game is not awaiting the referee")
        if penalty is not None:
            penalty = check_text(penalty, "a penalty")
        if not isinstance(note, str):
            raise RulesError(f"a note must be text, not {note!r}")
        who = check_name(referee)
        self._emit(
            RefereeResumed(penalty=penalty, note=note, referee=who, t_ms=t_ms, clocks=clocks)
        )
        self._paused = False

    def referee_decide(
        self,
        winner: Seat | None,
        reason: str,
        *,
        referee: str = "",
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> None:
        """The referee sets the result (``winner`` None: a draw)."""
        self._check_time(t_ms, clocks)
        self._check_open()
        if winner is not None:
            check_seat(winner, "the winner")
        why = check_text(reason, "a referee's reason")
        who = check_name(referee)
        self._emit(RefereeDecided(winner=winner, reason=why, referee=who, t_ms=t_ms, clocks=clocks))
        self._referee_result(winner, f"referee: {why}", t_ms, clocks)

    def referee_correct(
        self,
        winner: Seat | None,
        reason: str,
        *,
        referee: str = "",
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> None:
        """The referee corrects the result of a finished game (the old one stays in the
        events)."""
        self._check_time(t_ms, clocks)
        if self._result is None:
            raise IllegalMoveError("only the result of a finished game can be corrected")
        if winner is not None:
            check_seat(winner, "the winner")
        why = check_text(reason, "a correction's reason")
        who = check_name(referee)
        self._emit(
            RefereeCorrected(winner=winner, reason=why, referee=who, t_ms=t_ms, clocks=clocks)
        )
        self._referee_result(winner, f"corrected by the referee: {why}", t_ms, clocks)

    def referee_remove_stone(
        self,
        p: Point | str,
        *,
        reason: str,
        referee: str = "",
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> Move:
        """Take back the last stone, which stands on ``p`` (named so the referee takes
        back the stone they mean). The game is exactly as it was before that stone: the
        same side to move, the same claim windows (a White stone taken back reopens the
        window on Black's last 33/44), the same passes in a row, the same forbidden
        points. Call it again to take back the stone before. Allowed while the game
        waits for the referee (it stays waiting). Returns the stone taken back."""
        self._check_time(t_ms, clocks)
        point = as_point(p)
        why = check_text(reason, "a take-back's reason")
        who = check_name(referee)
        self._last_stone(point, "take back")
        self._emit(
            RefereeRemovedStone(point=point, reason=why, referee=who, t_ms=t_ms, clocks=clocks)
        )
        return self._take_back_stone()

    def referee_replace_stone(
        self,
        old: Point | str,
        new: Point | str,
        *,
        reason: str,
        referee: str = "",
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> Move:
        """The last stone, read on ``old``, really stands on the empty point ``new``: it is
        taken back and judged again on ``new`` with its number, seat, time stamp and clock
        readings (a five or a forbidden move there is told to the referee, or ends the game
        in auto mode, at this action's ``t_ms``). Returns the corrected move."""
        self._check_time(t_ms, clocks)
        source, target = as_point(old), as_point(new)
        why = check_text(reason, "a correction's reason")
        who = check_name(referee)
        move = self._last_stone(source, "correct")
        if target == source:
            raise IllegalMoveError(
                f"the stone already stands on {point_name(target)}: give the point where it "
                "really stands"
            )
        if self._board.cells[target]:
            raise OccupiedPointError(
                f"{point_name(target)} is already occupied: the stone on {point_name(source)} "
                "cannot stand there"
            )
        self._emit(
            RefereeReplacedStone(
                old=source, new=target, reason=why, referee=who, t_ms=t_ms, clocks=clocks
            )
        )
        self._take_back_stone()
        corrected = Move(move.number, target, move.colour, move.seat, move.t_ms, move.clocks)
        self._play_stone(corrected, t_ms, clocks)
        return corrected

    def _last_stone(self, p: Point, what: str) -> Move:
        """The last stone if ``p`` names it and it may be corrected; otherwise the error
        that says why not."""
        self._check_open()
        name = point_name(p)
        if not self._opening_over:
            raise IllegalMoveError(
                f"cannot {what} {name} during the opening: the {self._opening.name} "
                "procedure's stones are not corrected one by one (the referee may pause, "
                "decide or restart the game)"
            )
        if not self._moves:
            raise IllegalMoveError(f"cannot {what} {name}: no stone stands on the board")
        last = self._moves[-1]
        if self._sequence[-1].point is None:
            raise IllegalMoveError(
                f"cannot {what} {name}: the last move is a pass (after {last}); only the "
                "last move can be corrected"
            )
        if last.point != p:
            holds = "holds no stone" if not self._board.cells[p] else "is not the last stone"
            raise IllegalMoveError(
                f"cannot {what} {name}: it {holds}; only the last stone ({last}) can be corrected"
            )
        if self._last_stone_undo() is None:
            raise IllegalMoveError(
                f"cannot {what} {name}: {last} was placed in the {self._opening.name} "
                "opening, whose stones are not corrected one by one"
            )
        return last

    def _referee_result(
        self, winner: Seat | None, detail: str, t_ms: int | None, clocks: ClockReading | None
    ) -> None:
        if winner is None:
            self._draw(ResultReason.REFEREE, detail, t_ms, clocks)
        else:
            self._win(winner, ResultReason.REFEREE, detail, t_ms, clocks)
