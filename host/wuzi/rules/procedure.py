"""The interface between an opening procedure and the game that runs it.

An opening is a sequence of steps driven by events — stones placed, offers placed, an
offer kept, a swap decided, a number declared — each step saying who acts and what is
allowed, so a table host can tell a referee exactly why a stone is not accepted and a
display can tell the players whose turn it is. When ``step()`` returns None the opening
is over and the game goes on with plain alternating moves.

Players are seats, not colours: ``Seat.FIRST`` is the player who holds Black when the game
starts (the opener in the designated and swap openings); a swap changes which colour each
seat holds (``colour_of``), never the board's orientation.

Concrete procedures live in ``wuzi.rules.openings``; ``FreeOpening`` is here because it is
also what a game without any opening procedure uses.
"""

from __future__ import annotations

import abc
import enum
from dataclasses import dataclass, field

from wuzi.rules.board import Board, Colour, Point


class Seat(enum.Enum):
    """A player's seat: FIRST holds Black at the start of the game."""

    FIRST = "first"
    SECOND = "second"

    @property
    def other(self) -> Seat:
        return Seat.SECOND if self is Seat.FIRST else Seat.FIRST


class Action(enum.Enum):
    """What the acting seat must do at this step."""

    PLACE = "place"  # one stone of ``Step.colour``
    OFFER = "offer"  # one candidate stone (e.g. a fifth-move offer), of ``Step.colour``
    CHOOSE_OFFER = "choose-offer"  # keep one of the offered stones
    DECIDE = "decide"  # pick one of ``Step.choices`` (swap or stay; Swap2's options)
    DECLARE = "declare"  # declare a number within ``Step.choices`` (e.g. N of 5th-move offers)


@dataclass(frozen=True)
class Step:
    """One step of an opening: who acts, what they do and what is allowed."""

    seat: Seat
    action: Action
    colour: Colour | None = None  # the colour of the stone for PLACE/OFFER
    allowed: frozenset[Point] | None = None  # None: any empty point
    choices: tuple[str, ...] = ()  # for DECIDE (e.g. ("swap", "stay")) and DECLARE ("2".."5")
    description: str = ""  # for the referee and the players' display, e.g. "Black places move 3"


@dataclass(frozen=True)
class OpeningEvent:
    """One event of the opening, kept for the record (in order)."""

    seat: Seat
    action: Action
    point: Point | None = None
    colour: Colour | None = None
    choice: str | None = None
    number: int | None = None  # the number of a DECLARE event (``choice`` holds it as text too)


@dataclass
class OpeningState:
    """What the opening has produced so far; read by the game and the record."""

    # Every stone physically on the board: the standing stones and any offers not yet decided
    # (an offer the opponent did not keep is removed again). ``moves`` holds only the stones
    # that stay, so a game follows ``moves`` and never needs ``board``.
    board: Board = field(default_factory=Board)
    moves: list[tuple[Point, Colour]] = field(default_factory=list)  # stones that stay, in order
    colours: dict[Seat, Colour] = field(
        default_factory=lambda: {Seat.FIRST: Colour.BLACK, Seat.SECOND: Colour.WHITE}
    )
    swaps: list[tuple[int, Seat]] = field(default_factory=list)  # (stones on board, deciding seat)
    offers: list[Point] = field(default_factory=list)  # fifth-move (or other) offers, in order
    kept_offer: Point | None = None
    declared: int | None = None  # N, when declared
    opening_id: str | None = None  # e.g. "7I", when a designated opening was recognised
    opening_selection: str | None = None  # who set it: "opener", "lot", "referee", "players"
    opening_orientation: int | None = None  # k of wuzi.rules.symmetry: stones = TABLE[k] of it
    events: list[OpeningEvent] = field(default_factory=list)


class OpeningProcedure(abc.ABC):
    """A state machine of opening steps. Every method leaves the state unchanged on error.

    Errors are ``wuzi.rules.errors.IllegalMoveError`` (wrong action for this step, point not
    allowed, equivalent offer…) or ``OccupiedPointError``, with a message naming the step.
    """

    name: str = "opening"

    def __init__(self) -> None:
        self.state = OpeningState()

    @abc.abstractmethod
    def step(self) -> Step | None:
        """The current step, or None once the opening is over."""

    def place(self, p: Point) -> None:
        """A stone placed for a PLACE or OFFER step."""
        raise self._wrong("place a stone")

    def choose(self, p: Point) -> None:
        """The offer kept at a CHOOSE_OFFER step."""
        raise self._wrong("choose an offer")

    def decide(self, choice: str) -> None:
        """A decision at a DECIDE step (one of ``Step.choices``)."""
        raise self._wrong("decide")

    def declare(self, n: int) -> None:
        """A number declared at a DECLARE step."""
        raise self._wrong("declare a number")

    @property
    def is_over(self) -> bool:
        """True once the opening is over (``step()`` is None): plain alternating play follows,
        with the colour whose stones are fewer (Black when equal) to move."""
        return self.step() is None

    def colour_of(self, seat: Seat) -> Colour:
        return self.state.colours[seat]

    def seat_of(self, colour: Colour) -> Seat:
        return Seat.FIRST if self.state.colours[Seat.FIRST] is colour else Seat.SECOND

    def _wrong(self, what: str) -> Exception:
        from wuzi.rules.errors import IllegalMoveError

        step = self.step()
        expected = "the opening is over" if step is None else step.description or step.action.value
        return IllegalMoveError(f"cannot {what} now: {expected}")


class FreeOpening(OpeningProcedure):
    """No opening procedure: the first stone (Black's) goes anywhere; play starts at once."""

    name = "free"

    def step(self) -> Step | None:
        return None
