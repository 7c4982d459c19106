"""What a table session is told: each input is a frozen value with the host's ``now_ns``.

The journal stores these inputs in order; ``TableSession.replay`` feeds them back and gets
an identical session, so every input carries everything needed to repeat it (no reading
of the time, no hidden randomness). The first input of a journal is ``SessionStarted``.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.rules.board import Colour, Point
from wuzi.rules.procedure import Seat

__all__ = [
    "Adjourn",
    "AdjustTime",
    "BoardAlert",
    "Choose",
    "Claim",
    "ClockPressed",
    "CorrectMoves",
    "Decide",
    "Declare",
    "EquipmentHeld",
    "HostRestarted",
    "RefereePause",
    "RefereeResume",
    "ReplaceStone",
    "SessionStarted",
    "SetResult",
    "StartNextGame",
    "StoneSettled",
    "TableInput",
    "TableSetup",
    "TakeBack",
    "Tick",
]


@dataclass(frozen=True)
class TableSetup:
    """How the table's games are played: rule set, mode, opening (name and settings as
    ``make_procedure`` takes them), time control (``parse_control`` syntax) and how long a
    settled stone may wait for its press before the referee is told."""

    ruleset: str = "renju"
    mode: str = "claim"
    opening: str = "chinese-2013"
    opening_settings: tuple[tuple[str, str | int], ...] = ()
    time_control: str = "2700+30"
    unpressed_alert_ms: int = 10_000


@dataclass(frozen=True)
class TableInput:
    """Base of every input: the host's monotonic instant (ns)."""

    now_ns: int


@dataclass(frozen=True)
class SessionStarted(TableInput):
    setup: TableSetup


@dataclass(frozen=True)
class StoneSettled(TableInput):
    """One new stone on an empty point, the board quiet (the board link's stone event)."""

    point: Point
    colour: Colour


@dataclass(frozen=True)
class BoardAlert(TableInput):
    """Something the board reported that is not a plain new stone.

    ``kind`` says what, in the table's words (``wuzi.table.alerts``): the value of the
    reason it raises when that is one of ``BOARD_REASONS`` (``removed``, ``moved``,
    ``two_stones``, ``wrong_colour``: the session weighs those against what it expects),
    else one of ``BOARD_TROUBLES``, the board's word for the trouble (``occupied``,
    ``link_down`` …), which a ``board`` alert quotes. A string, not the enum: the journal
    stores it as it is. The host makes these inputs from the board link's alerts
    (``wuzi.host.link_events``)."""

    kind: str
    points: tuple[Point, ...] = ()
    colour: Colour | None = None
    detail: str = ""


@dataclass(frozen=True)
class ClockPressed(TableInput):
    seat: Seat


@dataclass(frozen=True)
class Claim(TableInput):
    """The claim button (or the referee for a player): ``kind`` is ``forbidden`` (White
    claims Black's stone ``point``, default the last) or ``five`` (a five of the seat's
    colour)."""

    seat: Seat
    kind: str = "forbidden"
    point: Point | None = None


@dataclass(frozen=True)
class Decide(TableInput):
    """A decision at an opening step (swap or stay, Swap2's options), from the clock
    unit's buttons or the referee."""

    seat: Seat
    choice: str


@dataclass(frozen=True)
class Declare(TableInput):
    """A number declared at an opening step (Yamaguchi's or Soosõrv-N's N, the number of
    fifth-move offers), from the clock unit's buttons or the referee."""

    seat: Seat
    number: int


@dataclass(frozen=True)
class Choose(TableInput):
    """The fifth-move offer White keeps."""

    seat: Seat
    point: Point


@dataclass(frozen=True)
class Tick(TableInput):
    """Time passed (the shell's timer): overdue presses are reported."""


@dataclass(frozen=True)
class HostRestarted(TableInput):
    """The host came back after a crash or a power cut and rebuilt this table from its
    journal. ``now_ns`` continues the host's time base from the last instant it knew it
    was alive, so the outage is charged to nobody: the clocks are held from then on until
    the referee has checked the board and resumes."""


@dataclass(frozen=True)
class EquipmentHeld(TableInput):
    """The host holds the clock because the table's equipment cannot see the players (a
    board or clock unit lost, a press the board could not vouch for). Unlike a referee's
    pause the game goes on: a stone and its press made meanwhile are a move when the board
    and the clock unit report them (neither side's time runs: ``EQUIPMENT_HOLD``). The
    referee's resume restarts the clock of the side to move. ``reason`` names the device."""

    reason: str


@dataclass(frozen=True)
class RefereePause(TableInput):
    reason: str
    referee: str = ""


@dataclass(frozen=True)
class RefereeResume(TableInput):
    referee: str = ""
    penalty: str | None = None


@dataclass(frozen=True)
class Adjourn(TableInput):
    """The referee adjourns the game (a meal break, the end of a session, an appeal): the
    game and the clock are held until ``RefereeResume``."""

    reason: str
    referee: str = ""


@dataclass(frozen=True)
class AdjustTime(TableInput):
    seat: Seat
    delta_ms: int
    reason: str = "referee adjustment"
    referee: str = ""


@dataclass(frozen=True)
class CorrectMoves(TableInput):
    seat: Seat
    moves: int
    reason: str = "referee correction"
    referee: str = ""


@dataclass(frozen=True)
class TakeBack(TableInput):
    """Take back the last stone (it stands on ``point``)."""

    point: Point
    reason: str
    referee: str = ""


@dataclass(frozen=True)
class ReplaceStone(TableInput):
    """The last stone was misread on ``old``: it really stands on ``new``."""

    old: Point
    new: Point
    reason: str
    referee: str = ""


@dataclass(frozen=True)
class SetResult(TableInput):
    """The referee sets the result (``winner`` None: a draw)."""

    winner: Seat | None
    reason: str
    referee: str = ""


@dataclass(frozen=True)
class StartNextGame(TableInput):
    """The next game (of a two-game match, a playoff) with the same setup."""

    referee: str = ""
