"""Claims, announcements and the referee's private alerts.

In a tournament (claim mode) the system sees every forbidden move and every five the
moment the stone lands, but it helps nobody at the table: it tells the referee alone, and
the game goes on until a player speaks. This module keeps the book of what a player could
claim at any moment and judges each claim against it:

* a double-three or double-four can be claimed by White only until White's next move
  (a stone or a pass) — after that Black's move stands;
* an overline can be claimed until the game ends (the six stones stay on the board);
* a five must be announced by the player who holds its colour; it stays on the board, so
  it can be announced at any time until the game ends, even after the opponent moved on.

A claim that is not right now (nothing there, or a 33/44 whose window has closed) is a
false claim: the game waits for the referee. See docs/game.md for the reading of the
Chinese 2013 and RIF texts behind these choices.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from wuzi.rules.board import Colour, Point, point_name
from wuzi.rules.verdict import ForbiddenKind


class AlertKind(enum.Enum):
    """Why the referee is told something at once."""

    FORBIDDEN = "forbidden"  # Black made a forbidden move (claim mode: nobody else knows)
    FIVE = "five"  # a five stands on the board (claim mode: until announced)
    CLAIM = "claim"  # a false or late claim: the game waits for the referee


@dataclass(frozen=True)
class RefereeAlert:
    """One private message for the referee. Never shown to the players."""

    kind: AlertKind
    text: str  # what happened, in words (for a forbidden move: the full explanation)
    move_number: int | None = None  # the stone's number (1 = the first stone that stands)
    point: Point | None = None
    colour: Colour | None = None
    forbidden: ForbiddenKind | None = None
    row: tuple[Point, ...] = ()  # the five's stones, in order along the line


class ClaimKind(enum.Enum):
    FORBIDDEN = "forbidden"  # White claims that a Black stone was a forbidden move
    FIVE = "five"  # a player announces a five of their colour


class Verdict(enum.Enum):
    CORRECT = "correct"  # the game ends: the claimant wins
    FALSE = "false"  # nothing to claim: the game waits for the referee
    LATE = "late"  # a 33/44 claimed after White's next move: it stands; waits for the referee


@dataclass(frozen=True)
class ClaimVerdict:
    """The system's judgment of one claim, for the event list and the referee."""

    claim: ClaimKind
    verdict: Verdict
    detail: str
    point: Point | None = None  # the claimed stone, or the five's last stone
    forbidden: ForbiddenKind | None = None
    row: tuple[Point, ...] = ()


@dataclass(frozen=True)
class ForbiddenMove:
    """A Black stone that was forbidden when it was placed."""

    number: int
    point: Point
    kind: ForbiddenKind
    explanation: str
    white_moves: int  # White's moves (stones and passes) made before it: the claim window


@dataclass(frozen=True)
class Five:
    """A winning row made by one stone (the row's stones never move afterwards)."""

    colour: Colour
    number: int
    point: Point
    row: tuple[Point, ...]


def row_text(row: tuple[Point, ...]) -> str:
    return f"{point_name(row[0])}–{point_name(row[-1])}"


def kind_words(kind: ForbiddenKind) -> str:
    """A forbidden kind in words: 33 → double-three."""
    return kind.words


@dataclass
class ClaimBook:
    """Everything that could be claimed in a game, and the judgment of claims.

    Pure bookkeeping: the game tells it each forbidden move, each five and each White
    move; it never looks at the board itself, so judging a claim costs nothing.
    """

    forbidden_moves: dict[Point, ForbiddenMove] = field(default_factory=dict)
    fives: list[Five] = field(default_factory=list)
    white_moves: int = 0

    def copy(self) -> ClaimBook:
        return ClaimBook(dict(self.forbidden_moves), list(self.fives), self.white_moves)

    def note_forbidden(self, move: ForbiddenMove) -> None:
        self.forbidden_moves[move.point] = move

    def note_five(self, five: Five) -> None:
        self.fives.append(five)

    def note_white_move(self) -> None:
        self.white_moves += 1

    def window_open(self, move: ForbiddenMove) -> bool:
        """Whether a claim of this forbidden move would still be in time."""
        if move.kind is ForbiddenKind.OVERLINE:
            return True
        return self.white_moves == move.white_moves

    def pending(self) -> bool:
        """Whether a claim or announcement could still end the game right now."""
        return bool(self.fives) or any(self.window_open(m) for m in self.forbidden_moves.values())

    def judge_forbidden(self, p: Point) -> ClaimVerdict:
        """White's claim that the Black stone on ``p`` was a forbidden move."""
        move = self.forbidden_moves.get(p)
        if move is None:
            return ClaimVerdict(
                ClaimKind.FORBIDDEN,
                Verdict.FALSE,
                f"Black's stone on {point_name(p)} was not a forbidden move",
                point=p,
            )
        what = f"Black's move {move.number} on {point_name(p)} was a {kind_words(move.kind)}"
        if not self.window_open(move):
            return ClaimVerdict(
                ClaimKind.FORBIDDEN,
                Verdict.LATE,
                f"{what}, but White has moved since, so it stands",
                point=p,
                forbidden=move.kind,
            )
        return ClaimVerdict(
            ClaimKind.FORBIDDEN, Verdict.CORRECT, what, point=p, forbidden=move.kind
        )

    def judge_five(self, colour: Colour) -> ClaimVerdict:
        """The announcement of a five by the player holding ``colour``: the first five of
        that colour on the board wins."""
        for five in self.fives:
            if five.colour is colour:
                return ClaimVerdict(
                    ClaimKind.FIVE,
                    Verdict.CORRECT,
                    f"{colour.label} five {row_text(five.row)} (move {five.number} on "
                    f"{point_name(five.point)})",
                    point=five.point,
                    row=five.row,
                )
        return ClaimVerdict(
            ClaimKind.FIVE, Verdict.FALSE, f"{colour.label} has no five on the board"
        )
