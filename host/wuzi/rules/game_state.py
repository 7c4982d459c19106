"""The state of a game and the few primitive changes every action is built from.

``GameState`` is the base of ``wuzi.rules.game.Game``: it holds the board, the
incremental forbidden-move judge, the claim book, the turn, the pause and the result,
and knows how a stone changes them (``_add_stone``: five and forbidden detection, the
referee's alerts, the claim windows), how the last stone played after the opening is
taken back exactly (``_take_back_stone``), and how a game ends (``_win``, ``_draw``).
The actions people take live in the subclasses: the referee's in
``wuzi.rules.game_referee``, the players' and the host's in ``wuzi.rules.game``.

Every check here raises before anything changes, so an action that fails leaves the game
exactly as it was. Nothing here does I/O or reads the time.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from wuzi.rules.board import POINTS, Board, Colour, Point, parse_point, point_name
from wuzi.rules.claims import (
    AlertKind,
    ClaimBook,
    Five,
    ForbiddenMove,
    RefereeAlert,
    kind_words,
    row_text,
)
from wuzi.rules.errors import GameOverError, IllegalMoveError, InvalidPointError, RulesError
from wuzi.rules.events import AlertRaised, GameEnded, GameEvent, GameStarted, Result, ResultReason
from wuzi.rules.explain import explain
from wuzi.rules.forbidden import IncrementalJudge
from wuzi.rules.procedure import Action, FreeOpening, OpeningProcedure, Seat, Step
from wuzi.rules.record import ClockReading, RecordedMove
from wuzi.rules.ruleset import Mode, RuleSet
from wuzi.rules.verdict import ForbiddenKind
from wuzi.rules.wins import winning_row

__all__ = ["GameState", "Move", "Status", "as_point", "check_name", "check_seat", "check_text"]


class Status(enum.Enum):
    OPENING = "opening"  # the opening procedure has a current step
    PLAYING = "playing"  # plain alternating moves
    AWAITING_REFEREE = "awaiting-referee"  # paused after a false claim or by the referee
    OVER = "over"  # a result is set


@dataclass(frozen=True)
class Move:
    """A stone that stands. ``number`` counts standing stones from 1 (passes and offers
    that were not kept have no number); ``seat`` is the player who placed it (in the
    opening the opener places stones of both colours)."""

    number: int
    point: Point
    colour: Colour
    seat: Seat
    t_ms: int | None = None
    clocks: ClockReading | None = None

    def __str__(self) -> str:
        return f"{self.number}. {self.colour.label} {point_name(self.point)}"


# --- the checks every action shares ------------------------------------------------------


def as_point(p: Point | str) -> Point:
    """A point from a name (``h8``) or an index, or InvalidPointError saying which."""
    if isinstance(p, str):
        return parse_point(p)
    if isinstance(p, bool) or not isinstance(p, int):
        raise InvalidPointError(f"{p!r} is not a point: give a name such as h8 or an index 0–224")
    if not 0 <= p < POINTS:
        raise InvalidPointError(f"{p} is not a point index (0–224)")
    return p


def check_seat(seat: object, what: str = "seat") -> None:
    if not isinstance(seat, Seat):
        raise RulesError(f"{what} must be Seat.FIRST or Seat.SECOND, not {seat!r}")


def check_name(referee: object) -> str:
    """A referee's name or id for the audit trail (may be empty)."""
    if not isinstance(referee, str):
        raise RulesError(f"a referee is named by text (a name or an id), not {referee!r}")
    return referee.strip()


def check_text(text: object, what: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise RulesError(f"{what} must be a non-empty text, not {text!r}")
    return text.strip()


def _settings_of(procedure: OpeningProcedure) -> tuple[tuple[str, str | int], ...]:
    """A procedure's settings (``StagedOpening.settings``) when they are plain values."""
    settings = getattr(procedure, "settings", None)
    if not isinstance(settings, dict):
        return ()
    return tuple(
        (str(k), v)
        for k, v in sorted(settings.items())
        if isinstance(v, str | int) and not isinstance(v, bool)
    )


class _Undo(NamedTuple):
    """What a stone played after the opening changed besides the board and the judge:
    enough to take it back exactly (the claim book is small, so its contents are kept).
    A named tuple of plain tuples, not objects: a game keeps one per stone, and a table's
    snapshot (``wuzi.host.snapshot``) pickles them all — a host's recovery loads 24."""

    number: int
    passes: int
    forbidden: tuple[tuple[Point, ForbiddenMove], ...]
    fives: tuple[Five, ...]
    white_moves: int


class GameState:
    """The state of one game; see the module's docstring. Construct a ``Game``."""

    def __init__(
        self,
        ruleset: RuleSet | str = "renju",
        *,
        mode: Mode | str = Mode.CLAIM,
        opening: OpeningProcedure | None = None,
        t_ms: int | None = None,
    ) -> None:
        self._ruleset = ruleset if isinstance(ruleset, RuleSet) else RuleSet.parse(ruleset)
        self._mode = mode if isinstance(mode, Mode) else Mode.parse(mode)
        procedure = FreeOpening() if opening is None else opening
        if not isinstance(procedure, OpeningProcedure):
            raise RulesError(f"opening must be an OpeningProcedure, not {procedure!r}")
        if procedure.state.moves or procedure.state.events:
            raise RulesError(f"the {procedure.name} opening procedure has already been used")
        self._last_t: int | None = None
        self._check_time(t_ms, None)
        self._opening = procedure
        self._board = Board()
        self._judge = IncrementalJudge() if self._ruleset.forbidden else None
        self._moves: list[Move] = []
        self._sequence: list[RecordedMove] = []  # stones and passes, for the record
        self._undo: list[_Undo] = []  # one per stone played after the opening
        self._events: list[GameEvent] = []
        self._alerts: list[RefereeAlert] = []
        self._claim_proofs: list[str] = []  # one per judged claim, for the record
        self._book = ClaimBook()
        self._next = Colour.BLACK
        self._opening_over = False
        self._passes = 0  # consecutive passes
        self._paused = False
        self._result: Result | None = None
        self._infractions = {Seat.FIRST: 0, Seat.SECOND: 0}
        self._emit(
            GameStarted(
                ruleset=str(self._ruleset),
                mode=self._mode.value,
                opening=procedure.name,
                opening_settings=_settings_of(procedure),
                t_ms=t_ms,
            )
        )
        self._after_opening_action(Seat.FIRST, t_ms, None)

    # --- what anyone may see --------------------------------------------------------

    @property
    def ruleset(self) -> RuleSet:
        return self._ruleset

    @property
    def mode(self) -> Mode:
        return self._mode

    @property
    def opening(self) -> OpeningProcedure:
        """The procedure (read its ``state`` for the opening id, offers, swaps)."""
        return self._opening

    @property
    def board(self) -> Board:
        """A copy of the stones that stand (offers not yet kept are not on it)."""
        return self._board.copy()

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def result(self) -> Result | None:
        return self._result

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def status(self) -> Status:
        if self._result is not None:
            return Status.OVER
        if self._paused:
            return Status.AWAITING_REFEREE
        return Status.PLAYING if self._opening_over else Status.OPENING

    @property
    def step(self) -> Step | None:
        """The opening's current step, or None once plain play has begun."""
        return None if self._opening_over else self._opening.step()

    @property
    def colour_to_move(self) -> Colour | None:
        """The colour of the next stone (None at an opening step without a stone, and once
        the game is over)."""
        if self._result is not None:
            return None
        if not self._opening_over:
            step = self._opening.step()
            return None if step is None else step.colour
        return self._next

    @property
    def to_move(self) -> Seat | None:
        """The seat that acts next (None once the game is over)."""
        if self._result is not None:
            return None
        if not self._opening_over:
            step = self._opening.step()
            if step is not None:
                return step.seat
        return self.seat_of(self._next)

    @property
    def offers(self) -> tuple[Point, ...]:
        """Offered stones on the board that are not decided yet (not part of ``board``)."""
        state = self._opening.state
        return () if state.kept_offer is not None else tuple(state.offers)

    def colour_of(self, seat: Seat) -> Colour:
        return self._opening.colour_of(seat)

    def seat_of(self, colour: Colour) -> Seat:
        return self._opening.seat_of(colour)

    def infractions(self, seat: Seat) -> int:
        """Infractions recorded against ``seat`` so far (the host decides what they cost)."""
        return self._infractions[seat]

    @property
    def events(self) -> tuple[GameEvent, ...]:
        """Everything that happened, in order (referee alerts included: not for players)."""
        return tuple(self._events)

    # --- checks ---------------------------------------------------------------------

    def _check_time(self, t_ms: int | None, clocks: ClockReading | None) -> None:
        if t_ms is not None:
            if isinstance(t_ms, bool) or not isinstance(t_ms, int) or t_ms < 0:
                raise RulesError(f"t_ms must be a non-negative integer (ms), not {t_ms!r}")
            last = self._last_t
            if last is not None and t_ms < last:
                raise RulesError(f"t_ms {t_ms} is earlier than the previous action's {last}")
        if clocks is not None:
            if not isinstance(clocks, ClockReading):
                raise RulesError(f"clocks must be a ClockReading, not {clocks!r}")
            for name in ("first_ms", "second_ms"):
                value = getattr(clocks, name)
                if isinstance(value, bool) or not isinstance(value, int):
                    raise RulesError(f"clocks.{name} must be an integer (ms), not {value!r}")

    def _check_open(self) -> None:
        if self._result is not None:
            raise GameOverError(f"the game is over ({self._result})")

    def _check_playable(self, what: str) -> None:
        self._check_open()
        if self._paused:
            raise IllegalMoveError(f"cannot {what}: the game is awaiting the referee")

    def _check_actor(self, seat: Seat | None, expected: Seat) -> Seat:
        if seat is None:
            return expected
        check_seat(seat)
        if seat is not expected:
            raise IllegalMoveError(
                f"it is the {expected.value} seat's turn, not the {seat.value} seat's: "
                + self._step_text()
            )
        return seat

    def _opening_step(self) -> Step | None:
        return None if self._opening_over else self._opening.step()

    def _opening_step_for(self, what: str) -> Step:
        step = self._opening_step()
        if step is None:
            raise IllegalMoveError(f"cannot {what}: the opening is over")
        return step

    def _step_text(self) -> str:
        step = self._opening_step()
        if step is not None:
            return step.description or f"the {step.seat.value} seat must {step.action.value}"
        return f"{self._next.label} to move"

    def _who(self, seat: Seat) -> str:
        return f"{self.colour_of(seat).label} ({seat.value} seat)"

    # --- events ---------------------------------------------------------------------

    def _emit(self, event: GameEvent) -> None:
        self._events.append(event)
        if event.t_ms is not None:
            self._last_t = event.t_ms
        if isinstance(event, AlertRaised):
            self._alerts.append(event.alert)

    def _alert(self, alert: RefereeAlert, t_ms: int | None, clocks: ClockReading | None) -> None:
        self._emit(AlertRaised(alert=alert, t_ms=t_ms, clocks=clocks))

    # --- stones ---------------------------------------------------------------------

    def _placer(self, p: Point, fallback: Seat) -> Seat:
        """The seat that placed the standing stone ``p`` during the opening."""
        for event in reversed(self._opening.state.events):
            if event.point == p and event.action in (Action.PLACE, Action.OFFER):
                return event.seat
        return fallback

    def _after_opening_action(
        self, actor: Seat, t_ms: int | None, clocks: ClockReading | None
    ) -> None:
        """Bring the game's stones in line with the procedure's, then see if it is over."""
        if self._opening_over:
            return
        state = self._opening.state
        standing = state.moves
        mine = [(m.point, m.colour) for m in self._moves]
        if standing[: len(mine)] != mine:
            raise RulesError(
                f"the {self._opening.name} procedure took back a standing stone; "
                "games cannot follow that"
            )
        for p, colour in standing[len(mine) :]:
            seat = self._placer(p, actor)
            self._add_stone(Move(len(self._moves) + 1, p, colour, seat, t_ms, clocks), t_ms, clocks)
        if self._opening.step() is None:
            self._opening_over = True
            blacks = sum(1 for m in self._moves if m.colour is Colour.BLACK)
            self._next = Colour.BLACK if blacks == len(self._moves) - blacks else Colour.WHITE

    def _play_stone(self, move: Move, t_ms: int | None, clocks: ClockReading | None) -> None:
        """A stone of the side to move after the opening (``move.colour`` is ``_next``),
        kept so that it can be taken back; derived events carry ``t_ms``/``clocks``."""
        book = self._book
        self._undo.append(
            _Undo(
                move.number,
                self._passes,
                tuple(book.forbidden_moves.items()),
                tuple(book.fives),
                book.white_moves,
            )
        )
        self._add_stone(move, t_ms, clocks)
        self._next = move.colour.other
        self._check_full_board(t_ms, clocks)

    def _add_stone(self, move: Move, t_ms: int | None, clocks: ClockReading | None) -> None:
        """Put ``move`` on the board and judge it: a forbidden move or a five is told to the
        referee (claim mode) or ends the game (auto mode)."""
        p, colour = move.point, move.colour
        forbidden: ForbiddenKind | None = None
        explanation = ""
        if colour is Colour.BLACK and self._judge is not None:
            forbidden = self._judge.forbidden_kind(p)
            if forbidden is not None:
                explanation = explain(self._board, p).render()
        elif colour is Colour.WHITE:
            self._book.note_white_move()
        self._board.cells[p] = colour
        if self._judge is not None:
            self._judge.place(p, colour)
        self._moves.append(move)
        self._sequence.append(RecordedMove(p, colour, move.seat, move.t_ms, move.clocks))
        self._passes = 0
        if forbidden is not None:
            self._forbidden_made(move, forbidden, explanation, t_ms, clocks)
        row = winning_row(self._board, p, colour, overline_wins=self._ruleset.overline_wins(colour))
        if row is not None and self._result is None:
            self._five_made(move, tuple(row), t_ms, clocks)

    def _last_stone_undo(self) -> _Undo | None:
        """The undo of the last move if it is a stone played after the opening."""
        if not self._undo or not self._sequence or self._sequence[-1].point is None:
            return None
        undo = self._undo[-1]
        return undo if undo.number == len(self._moves) else None

    def _take_back_stone(self) -> Move:
        """Undo the last move, a stone played after the opening (the caller checked with
        ``_last_stone_undo``): board, judge, turn, passes and claim book are as they were
        before it. Events and alerts stay: they are history."""
        undo = self._undo.pop()
        move = self._moves.pop()
        self._sequence.pop()
        self._board.cells[move.point] = 0
        if self._judge is not None:
            self._judge.remove(move.point)
        self._book = ClaimBook(dict(undo.forbidden), list(undo.fives), undo.white_moves)
        self._passes = undo.passes
        self._next = move.colour
        return move

    def _forbidden_made(
        self,
        move: Move,
        kind: ForbiddenKind,
        explanation: str,
        t_ms: int | None,
        clocks: ClockReading | None,
    ) -> None:
        fm = ForbiddenMove(move.number, move.point, kind, explanation, self._book.white_moves)
        self._book.note_forbidden(fm)
        what = f"Black's move {move.number} on {point_name(move.point)} is a {kind_words(kind)}"
        if self._mode is Mode.AUTO:
            self._win(
                self.seat_of(Colour.WHITE),
                ResultReason.FORBIDDEN,
                what,
                t_ms,
                clocks,
                forbidden=kind,
            )
            return
        self._alert(
            RefereeAlert(
                AlertKind.FORBIDDEN,
                f"{what} (not claimed yet)\n{explanation}",
                move_number=move.number,
                point=move.point,
                colour=Colour.BLACK,
                forbidden=kind,
            ),
            t_ms,
            clocks,
        )

    def _five_made(
        self, move: Move, row: tuple[Point, ...], t_ms: int | None, clocks: ClockReading | None
    ) -> None:
        five = Five(move.colour, move.number, move.point, row)
        self._book.note_five(five)
        what = f"{move.colour.label} five {row_text(row)} by move {move.number}"
        if self._mode is Mode.AUTO:
            self._win(self.seat_of(move.colour), ResultReason.FIVE, what, t_ms, clocks, row=row)
            return
        self._alert(
            RefereeAlert(
                AlertKind.FIVE,
                f"{what} (not announced yet)",
                move_number=move.number,
                point=move.point,
                colour=move.colour,
                row=row,
            ),
            t_ms,
            clocks,
        )

    def _check_full_board(self, t_ms: int | None, clocks: ClockReading | None) -> None:
        if self._result is None and self._board.is_full() and not self._book.pending():
            self._draw(ResultReason.FULL_BOARD, "draw: the board is full", t_ms, clocks)

    # --- the end --------------------------------------------------------------------

    def _win(
        self,
        seat: Seat,
        reason: ResultReason,
        detail: str,
        t_ms: int | None,
        clocks: ClockReading | None,
        *,
        forbidden: ForbiddenKind | None = None,
        row: tuple[Point, ...] = (),
    ) -> None:
        result = Result(
            winner=seat,
            winner_colour=self.colour_of(seat),
            reason=reason,
            detail=detail,
            forbidden=forbidden,
            row=row,
        )
        self._end(result, t_ms, clocks)

    def _draw(
        self, reason: ResultReason, detail: str, t_ms: int | None, clocks: ClockReading | None
    ) -> None:
        self._end(
            Result(winner=None, winner_colour=None, reason=reason, detail=detail), t_ms, clocks
        )

    def _end(self, result: Result, t_ms: int | None, clocks: ClockReading | None) -> None:
        self._result = result
        self._paused = False
        self._emit(GameEnded(result=result, t_ms=t_ms, clocks=clocks))
