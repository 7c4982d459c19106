"""What the two hosts of a linked game say to each other over the hall line: values only.

The **away host** reads its own board and clock unit and sends each input of its table
(``AwayStone``, ``AwayPress``, ``AwayClaim``, ``AwayButton``), stamped with its own
monotonic instant; the **owner host** runs the game and sends its truth back
(``OwnerTruth``: the moves, the clocks, whose clock runs, held or not, the stone the away
player must mirror). Each of these items travels numbered (1, 2, 3 … per direction) in a
``LinePacket``, which also carries what every packet carries, numbered item or bare ping:
the sender's monotonic instant, its line state, what it has taken of the other side's
items (``ack``), the highest number it has given (``last``), and the echo of the newest
packet it heard (for the clock comparison, ``wuzi.table.line_clock``).

The journal records of a hall line (``LineSent``, ``LineReceived``, ``LineAcked``,
``LineResumed``) are values too: ``wuzi.table.hall_line`` returns them for the host to
journal and rebuilds itself from them after a crash. The bus encodes these values
(``wuzi.bus.line``); nothing here does I/O or reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

__all__ = [
    "COLOURS",
    "LINE_STATES",
    "RUNNING",
    "AwayButton",
    "AwayClaim",
    "AwayInput",
    "AwayMirrored",
    "AwayPress",
    "AwayShown",
    "AwayStone",
    "LineAcked",
    "LineItem",
    "LinePacket",
    "LineReceived",
    "LineRecord",
    "LineResumed",
    "LineSent",
    "LineState",
    "OwnerTruth",
]

COLOURS = ("black", "white")
RUNNING = ("black", "white")
LineState = Literal["connecting", "up", "cut", "waiting_for_referees"]
LINE_STATES: tuple[LineState, ...] = ("connecting", "up", "cut", "waiting_for_referees")
"""A side's view of the line: ``connecting`` (nothing heard yet since it started afresh),
``up``, ``cut`` (silence, or the other side hears nothing of this one) and
``waiting_for_referees`` (messages flow again; the game waits for the referees)."""


@dataclass(frozen=True)
class AwayStone:
    """A stone settled on the away board: its point (0..224), its colour, and the instant
    the board read it, in the away host's monotonic ms."""

    point: int
    colour: str  # one of COLOURS
    at_ms: int


@dataclass(frozen=True)
class AwayPress:
    """A press of the away clock unit's ``button`` at its unit's instant (away ms)."""

    button: int
    at_ms: int


@dataclass(frozen=True)
class AwayClaim:
    """A claim made at the away table (its claim button) at ``at_ms`` (away ms)."""

    button: int
    at_ms: int


@dataclass(frozen=True)
class AwayButton:
    """Another button of the away clock unit (a call for the referee, a menu key)."""

    button: int
    at_ms: int


@dataclass(frozen=True)
class AwayShown:
    """The owner's move number ``move`` (1 = the first stone of ``OwnerTruth.moves``) was
    shown at the away table at ``at_ms`` (away ms): its clock unit's faces and its board's
    point light (the time rule's ``shown``: the away player's clock may start)."""

    move: int
    at_ms: int


@dataclass(frozen=True)
class AwayMirrored:
    """The away player placed the stone of the owner's move number ``move`` on ``point`` of
    their own board, read by the board at ``at_ms`` (away ms): the mirroring (the time
    rule's ``mirrored``). Never a move of the away player's."""

    move: int
    point: int
    at_ms: int


AwayInput = AwayStone | AwayPress | AwayClaim | AwayButton | AwayShown | AwayMirrored


@dataclass(frozen=True)
class OwnerTruth:
    """The owner's truth of the game, as the away table must show it.

    ``at_ms`` is the owner's monotonic instant of this state (the away host extrapolates
    a running clock from it, through the measured offset); ``mirror`` is the point of the
    opponent's stone the away player must place on their own board (None: nothing to
    mirror). The game's fields (``game``, the names, ``away``, ``result``) let the away
    host learn the game from the owner alone and write the same record at its end."""

    moves: tuple[int, ...]
    black_ms: int
    white_ms: int
    running: str | None  # one of RUNNING, or None: no clock runs
    held: bool  # the game is held (the line cut, the equipment, a referee)
    mirror: int | None
    at_ms: int
    # the game, so the away hall needs no assignment of its own: its id, the players'
    # names, the away player's colour, and once it has ended its result ("black",
    # "white" or "draw") and the reason ("five", "flag", "forbidden", ...)
    game: str = ""
    black: str = ""
    white: str = ""
    away: str = "white"  # one of COLOURS
    result: str = ""  # "" while the game is played
    reason: str = ""


LineItem = AwayInput | OwnerTruth
ItemT = TypeVar("ItemT", bound=LineItem)


@dataclass(frozen=True)
class LinePacket(Generic[ItemT]):
    """One message of the hall line, either way.

    ``n`` numbers the ``item`` it carries (1, 2, 3 … per direction; 0 with no item: a
    ping). Every packet says ``ack`` (the sender has taken every item of the other side
    numbered up to it), ``last`` (the highest number the sender has given, so a lost last
    item is missed at once), and echoes the newest packet it heard: ``echo_ms`` is that
    packet's ``sent_ms`` (None: none heard yet since ``boot``) and ``echo_age_ms`` how long
    the sender held it before sending this one. ``boot`` names the sender's run, so a
    restarted host's new clock is not compared with its old one. ``request`` is the
    resumption waiting at the sender for the other hall's confirmation."""

    link: str
    boot: str
    sent_ms: int  # the sender's monotonic instant
    state: LineState
    resumes: int  # how many times the sender's side was resumed by the referees
    ack: int
    last: int
    echo_ms: int | None
    echo_age_ms: int
    n: int = 0
    item: ItemT | None = None
    request: tuple[str, str] | None = None  # (hall, referee): a resumption asked here


@dataclass(frozen=True)
class LineSent:
    """Journal: this side numbered ``item`` as ``n`` at ``at_ms`` (its own ms) to send it."""

    n: int
    item: LineItem
    at_ms: int


@dataclass(frozen=True)
class LineReceived:
    """Journal, and what the host acts on: this side took the other's item ``n`` at
    ``received_ms``. ``at_ms`` is the item's instant in this side's time (an away input's
    stamp converted into the owner's time, within ``error_ms``; the receipt for the
    owner's truth), never after its receipt."""

    n: int
    item: LineItem
    received_ms: int
    at_ms: int
    error_ms: int


@dataclass(frozen=True)
class LineAcked:
    """Journal: the other side has taken this side's items numbered up to ``upto``."""

    upto: int


@dataclass(frozen=True)
class LineResumed:
    """Journal: the referees resumed the game after a cut (the ``count``-th time)."""

    count: int
    at_ms: int


LineRecord = LineSent | LineReceived | LineAcked | LineResumed
