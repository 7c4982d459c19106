"""The facts of a linked game's clock: what happened at either hall, stamped in owner time.

A linked game (docs/linked.md) is one game with its two seats at tables of two halls; the
owner host runs its clock. It does not press a clock of its own: it is told *facts*, each
stamped with the instant it happened, converted into the owner's time (the away host's
stamps through the offset estimate, with its error), and arriving late and in any order.
``wuzi.clock.linked`` turns the set of facts into the events of one ``Clock``. The facts
are plain immutable values, so the owner journals them as they arrive and rebuilds the
same clock from them after a crash.

``at_ms`` is owner time in milliseconds; ``error_ms`` is how far the true instant may be
from it either way (0 for the owner's own facts; for the away host's, the error of the
offset estimate). ``move`` numbers the presses of the game from 1: the fact "move 7
shown at the second seat's table" is about the stone pressed by the 7th press.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.clock.control import MAX_COUNT, MAX_INSTANT_NS, NS_PER_MS
from wuzi.clock.errors import ClockError
from wuzi.rules.procedure import Seat

__all__ = [
    "MAX_ERROR_MS",
    "MAX_GRACE_MS",
    "GameStarted",
    "LineBack",
    "LineCut",
    "LinkedFact",
    "LinkedTimeError",
    "MovePressed",
    "MoveShown",
    "StoneMirrored",
    "check_fact",
]

MAX_INSTANT_MS = MAX_INSTANT_NS // NS_PER_MS
MAX_ERROR_MS = 10_000
"""The largest error of a converted stamp the rule takes: an offset known only to ±10 s
is a broken estimate (over any working line it is a few ms), not a fact to time a game by."""
MAX_GRACE_MS = 600_000
"""The longest mirroring grace (10 min): anything longer is a typo, not an event's rule."""


class LinkedTimeError(ClockError):
    """A fact the linked time rule refuses (malformed, or contradicting a fact it holds);
    the rule is left exactly as it was."""


@dataclass(frozen=True, kw_only=True)
class GameStarted:
    """The referees started the game: ``seat``'s clock runs from ``at_ms``."""

    seat: Seat
    at_ms: int


@dataclass(frozen=True, kw_only=True)
class MovePressed:
    """``seat`` pressed its clock at its own hall, completing press number ``move``
    (``moves`` moves of the clock's count; ``next_seat`` whose turn follows, None: the
    opponent's, as ``Clock.press`` takes them)."""

    seat: Seat
    move: int
    at_ms: int
    error_ms: int = 0
    moves: int = 1
    next_seat: Seat | None = None


@dataclass(frozen=True, kw_only=True)
class MoveShown:
    """Press number ``move``'s stone was shown at ``seat``'s table (the clock unit's
    display, the point's LED): from then on the player there knows the move."""

    seat: Seat
    move: int
    at_ms: int
    error_ms: int = 0


@dataclass(frozen=True, kw_only=True)
class StoneMirrored:
    """The player at ``seat`` placed press number ``move``'s stone (the opponent's) on
    their own sensor board: the instant the board reported the stone, not its arrival."""

    seat: Seat
    move: int
    at_ms: int
    error_ms: int = 0


@dataclass(frozen=True, kw_only=True)
class LineCut:
    """The hall line was cut at ``at_ms`` (the owner's instant: when it declared the cut)."""

    at_ms: int


@dataclass(frozen=True, kw_only=True)
class LineBack:
    """The clocks may run again from ``at_ms``: the referees' joint resume after a cut
    (docs/linked.md), not the first packet after the cut."""

    at_ms: int


LinkedFact = GameStarted | MovePressed | MoveShown | StoneMirrored | LineCut | LineBack
_FACT_TYPES = (GameStarted, MovePressed, MoveShown, StoneMirrored, LineCut, LineBack)


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise LinkedTimeError(f"{what} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise LinkedTimeError(f"{what} must be between {low} and {high}, not {value}")
    return value


def _seat(value: object, what: str) -> Seat:
    if not isinstance(value, Seat):
        raise LinkedTimeError(f"{what} must be Seat.FIRST or Seat.SECOND, not {value!r}")
    return value


def check_fact(fact: object) -> LinkedFact:
    """``fact`` if it is a well-formed fact; otherwise ``LinkedTimeError`` naming the
    field that is wrong (a fact read from the hall line is checked before it is kept)."""
    if not isinstance(fact, _FACT_TYPES):
        raise LinkedTimeError(f"not a linked-game fact: {fact!r}")
    name = type(fact).__name__
    _whole(fact.at_ms, f"{name}: at_ms", 0, MAX_INSTANT_MS)
    if isinstance(fact, GameStarted):
        _seat(fact.seat, f"{name}: seat")
    if isinstance(fact, MovePressed | MoveShown | StoneMirrored):
        _seat(fact.seat, f"{name}: seat")
        _whole(fact.move, f"{name}: move", 1, MAX_COUNT)
        _whole(fact.error_ms, f"{name}: error_ms", 0, MAX_ERROR_MS)
    if isinstance(fact, MovePressed):
        _whole(fact.moves, f"{name}: moves", 0, MAX_COUNT)
        if fact.next_seat is not None:
            _seat(fact.next_seat, f"{name}: next_seat")
    return fact
