"""What a table session says, split by audience.

``PlayerOutput`` subclasses are safe for the players' displays and the public bus: they
never carry a forbidden point, a five not yet announced or a claim's proof (a result's
detail is public once the game is over). ``RefereeOutput`` is for the arbiter view only:
alerts with their reason (``AlertReason``, from ``wuzi.table.alerts``, the one alert
vocabulary; imported here too, as the type of ``RefereeAlert.reason``). The two families
share no class, so a publisher routes by type.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.rules.board import Colour, Point
from wuzi.rules.procedure import Seat
from wuzi.rules.record import ClockReading
from wuzi.table.alerts import AlertReason

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


@dataclass(frozen=True)
class RefereeAlert(RefereeOutput):
    reason: AlertReason
    text: str
    points: tuple[Point, ...] = ()
    seat: Seat | None = None
    infractions: int | None = None  # the seat's count, for PRESS_WITHOUT_STONE / LOSS_PENDING
