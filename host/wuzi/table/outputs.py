"""What a table session says, split by audience.

``PlayerOutput`` subclasses are safe for the players' displays and the public bus: they
never carry a forbidden point, a five not yet announced or a claim's proof (a result's
detail is public once the game is over). ``RefereeOutput`` is for the arbiter view only:
alerts with their reason. The two families share no class, so a publisher routes by type.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from wuzi.rules.board import Colour, Point
from wuzi.rules.procedure import Seat
from wuzi.rules.record import ClockReading

__all__ = [
    "Adjourned",
    "AlertReason",
    "ClockChanged",
    "GameOver",
    "MoveCorrected",
    "MoveJudged",
    "MoveTakenBack",
    "NextGameStarted",
    "OfferKept",
    "OfferPlaced",
    "OpeningDecided",
    "OpeningDeclared",
    "PlayerOutput",
    "RefereeAlert",
    "RefereeOutput",
    "StatusChanged",
    "TableOutput",
]


@dataclass(frozen=True)
class TableOutput:
    """Base of every output: the instant of the input that caused it."""

    at_ns: int


@dataclass(frozen=True)
class PlayerOutput(TableOutput):
    """Safe for the players and the public."""


@dataclass(frozen=True)
class RefereeOutput(TableOutput):
    """For the referee only."""


@dataclass(frozen=True)
class MoveJudged(PlayerOutput):
    """A stone that stands: its number, and both clocks right after the press."""

    number: int
    point: Point
    colour: Colour
    seat: Seat
    clocks: ClockReading | None


@dataclass(frozen=True)
class OfferPlaced(PlayerOutput):
    point: Point


@dataclass(frozen=True)
class OfferKept(PlayerOutput):
    point: Point
    removed: tuple[Point, ...]  # the other offers, to be taken off the board


@dataclass(frozen=True)
class OpeningDecided(PlayerOutput):
    seat: Seat
    choice: str


@dataclass(frozen=True)
class OpeningDeclared(PlayerOutput):
    """A number declared at an opening step (N, the number of fifth-move offers)."""

    seat: Seat
    number: int


@dataclass(frozen=True)
class MoveTakenBack(PlayerOutput):
    number: int
    point: Point


@dataclass(frozen=True)
class MoveCorrected(PlayerOutput):
    number: int
    old: Point
    new: Point


@dataclass(frozen=True)
class ClockChanged(PlayerOutput):
    """The clock after a change: whose clock runs (None: stopped) and both readings."""

    running: Seat | None
    clocks: ClockReading


@dataclass(frozen=True)
class StatusChanged(PlayerOutput):
    """``opening``, ``playing``, ``awaiting-referee`` or ``over`` (``wuzi.rules.game.Status``)."""

    status: str


@dataclass(frozen=True)
class GameOver(PlayerOutput):
    winner: Seat | None
    reason: str
    detail: str


@dataclass(frozen=True)
class NextGameStarted(PlayerOutput):
    game_number: int


@dataclass(frozen=True)
class Adjourned(PlayerOutput):
    """The referee adjourned the game (the clock holds until the referee resumes)."""

    reason: str


class AlertReason(enum.Enum):
    """Why the referee is told something."""

    FORBIDDEN = "forbidden"  # Black made a forbidden move (nobody else knows)
    FIVE = "five"  # a five stands on the board, not announced yet
    CLAIM = "claim"  # a false or late claim; the game waits for the referee
    CLAIM_JUDGED = "claim_judged"  # a claim and its proof
    PRESS_WITHOUT_STONE = "press_without_stone"  # an infraction
    LOSS_PENDING = "loss_pending"  # a second infraction: loss pending referee confirmation
    UNPRESSED = "unpressed"  # a stone settled, the clock not pressed: the mover's time runs
    WRONG_COLOUR = "wrong_colour"
    TWO_STONES = "two_stones"
    REMOVED = "removed"  # a standing stone was taken off
    MOVED = "moved"
    NOT_ALLOWED = "not_allowed"  # a stone the opening step (or the turn) does not allow
    OFFER_NOT_REMOVED = "offer_not_removed"  # W6 while an unchosen offer is on the board
    FLAG = "flag"  # a flag fell (a player or the referee may point it out)
    BOARD = "board"  # another board alert (occupied, sensor stuck, link …)
    REFUSED = "refused"  # an action the game refused (named in the text)
    HOST_RESTARTED = "host_restarted"  # the host came back after a crash: clocks held


@dataclass(frozen=True)
class RefereeAlert(RefereeOutput):
    reason: AlertReason
    text: str
    points: tuple[Point, ...] = ()
    seat: Seat | None = None
    infractions: int | None = None  # the seat's count, for PRESS_WITHOUT_STONE / LOSS_PENDING
