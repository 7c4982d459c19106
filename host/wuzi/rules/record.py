"""Game records: everything a finished (or running) game leaves behind, as plain values.

A ``GameRecord`` is a plain, immutable value: the rule set and mode, the opening (the
procedure, the designated opening's id and name and who set it, the swap decisions, the
fifth-move offers and the one kept), every move with its time stamp and both clock
readings, every claim, infraction and referee action, the result with its reason, and the
event's metadata (event, round, table, players…). ``Game.record()`` builds one; the file
formats in ``wuzi.rules.formats`` write and read it; nothing here does I/O or reads the time.

Conventions (the same as the rest of ``wuzi.rules``):

* Points are ``int`` 0..224 (``wuzi.rules.board``); a pass is a move whose ``point`` is None.
* Players are seats (``Seat.FIRST`` held Black when the game started); ``black_seat`` says
  who held Black once the opening was over (a swap changes it, never the board's
  orientation). Clock readings are by seat too, because clock sides follow the players.
* Times are integer milliseconds: ``t_ms`` since the game started (None when unknown),
  clock readings are the time left on each clock right after the action.
* Open vocabularies (result reasons, claim verdicts, referee actions) are lower-case
  tokens such as ``forbidden-33``; the known ones are listed below, others are kept as they
  are so a newer program's records still load.

This module holds the data types (and the vocabularies their fields use) only. Every
form of a record is written and read elsewhere, on top of these types: the JSON form
(``record_to_json``/``record_from_json``, schema in docs/records.md) in
``wuzi.rules.record_json``, the other file formats in ``wuzi.rules.formats``. So the
types never depend on any of their forms, and a form is imported from its own module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from wuzi.rules.board import POINTS, Colour, Point, point_name
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.procedure import Seat

__all__ = [
    "KNOWN_REASONS",
    "Claim",
    "ClockReading",
    "GameRecord",
    "GameResult",
    "Infraction",
    "Offer",
    "OfferRound",
    "OpeningDecision",
    "OpeningRecord",
    "Player",
    "RecordedMove",
    "RefereeAction",
    "ResultValue",
    "SetBy",
    "alternating_moves",
    "check_moves",
    "point_text",
]

ResultValue = Literal["black", "white", "draw"]
"""Who won, by the colour they held at the end (``draw`` for a draw)."""

SetBy = Literal["opener", "lot", "referee"]
"""Who chose a designated opening: the opener's choice, a draw by lot, or the referee."""

RESULT_VALUES: tuple[ResultValue, ...] = ("black", "white", "draw")
SET_BY_VALUES: tuple[SetBy, ...] = ("opener", "lot", "referee")
MODES = ("claim", "auto")

KNOWN_REASONS = (
    "five",
    "forbidden-33",
    "forbidden-44",
    "forbidden-ol",
    "resignation",
    "agreement",
    "flag",
    "forfeit",
    "two-passes",
    "full-board",
    "infraction",
    "referee",
    "clock-stopped",
)
"""Result reasons Wuzi writes; any other lower-case token is accepted and kept."""

KNOWN_VERDICTS = ("correct", "false", "late")
KNOWN_CLAIM_KINDS = ("forbidden", "five")
FORBIDDEN_KINDS = ("33", "44", "ol")


def point_text(p: Point | None) -> str:
    """A move's notation: ``h8``, or ``pass`` for None."""
    return "pass" if p is None else point_name(p)


# ---------------------------------------------------------------------------------------
# The model


@dataclass(frozen=True)
class ClockReading:
    """Both clocks right after an action (ms left), by seat: clock sides follow players."""

    first_ms: int
    second_ms: int

    def of(self, seat: Seat) -> int:
        return self.first_ms if seat is Seat.FIRST else self.second_ms


@dataclass(frozen=True)
class RecordedMove:
    """A stone that stands, or a pass (``point`` None). Its number is its 1-based place in
    ``GameRecord.moves`` (passes count, as in RIF notation). ``seat`` is who placed it: in
    an opening the opener places stones of both colours."""

    point: Point | None
    colour: Colour
    seat: Seat
    t_ms: int | None = None
    clocks: ClockReading | None = None

    @property
    def is_pass(self) -> bool:
        return self.point is None

    def __str__(self) -> str:
        return point_text(self.point)


@dataclass(frozen=True)
class OpeningDecision:
    """A decision in the opening: a swap (``swap``/``stay``) or a Swap2-style option
    (e.g. ``black``, ``white``, ``place-two``), taken by ``seat`` with ``stones`` on the
    board."""

    seat: Seat
    choice: str
    stones: int
    t_ms: int | None = None


@dataclass(frozen=True)
class Offer:
    """One offered stone (e.g. a fifth-move candidate), placed by ``seat``."""

    point: Point
    seat: Seat
    t_ms: int | None = None


@dataclass(frozen=True)
class OfferRound:
    """The offers for one move (五手N打: ``move`` 5): N, who declared N (None when the
    event fixed it), every offered stone in order, and the one kept (None until chosen).
    The kept stone also stands in ``GameRecord.moves`` as that move."""

    move: int
    n: int
    offers: tuple[Offer, ...] = ()
    kept: Point | None = None
    declared_by: Seat | None = None
    chosen_by: Seat | None = None


@dataclass(frozen=True)
class OpeningRecord:
    """How the game was opened.

    ``procedure`` is the opening procedure's name (``free``, ``designated``, ``swap2``,
    ``rif``, ``yamaguchi``, ``soosorv``, ``taraguchi``…); ``opening_id`` and
    ``opening_name`` are the designated opening once recognised (``7I``, ``浦月 Hogetsu``);
    ``set_by`` says how it was chosen. ``decisions`` are the swap decisions in order.
    """

    procedure: str = "free"
    opening_id: str | None = None
    opening_name: str | None = None
    set_by: SetBy | None = None
    decisions: tuple[OpeningDecision, ...] = ()
    offers: OfferRound | None = None

    @property
    def label(self) -> str:
        """``7I 浦月 Hogetsu``, or the procedure's name when no opening was recognised."""
        parts = [x for x in (self.opening_id, self.opening_name) if x]
        return " ".join(parts) if parts else self.procedure


@dataclass(frozen=True)
class Claim:
    """A claim or announcement and how the system judged it.

    ``kind`` is ``forbidden`` (White claims a Black stone, ``point``, was forbidden;
    ``forbidden`` then says 33, 44 or ol when it was) or ``five`` (a player announces a
    five; ``point`` is its last stone). ``verdict``: ``correct``, ``false`` or ``late``.
    ``proof`` is the explanation a referee reads (the lines of the threes or fours).
    """

    seat: Seat
    kind: str
    verdict: str
    point: Point | None = None
    t_ms: int | None = None
    forbidden: str | None = None
    proof: str = ""


@dataclass(frozen=True)
class Infraction:
    """A breach of the playing rules, e.g. the clock pressed without a new stone;
    ``loses`` when it cost the game (a second infraction, confirmed by the referee)."""

    seat: Seat
    description: str
    t_ms: int | None = None
    loses: bool = False


@dataclass(frozen=True)
class RefereeAction:
    """Something a referee did: ``action`` is a token (``pause``, ``resume``, ``decide``,
    ``correct``, ``adjust-clock``…), ``detail`` the words of the ruling; ``referee`` the
    referee's name or id (empty when not known)."""

    action: str
    referee: str = ""
    t_ms: int | None = None
    detail: str = ""


@dataclass(frozen=True)
class GameResult:
    """How the game ended: the winning colour (or ``draw``), the reason token (one of
    ``KNOWN_REASONS`` normally, e.g. ``forbidden-33``), words for a score sheet, and when."""

    winner: ResultValue
    reason: str
    detail: str = ""
    t_ms: int | None = None

    @property
    def score(self) -> str:
        """Black's score first: ``1-0``, ``0-1`` or ``½-½``."""
        return {"black": "1-0", "white": "0-1", "draw": "½-½"}[self.winner]


@dataclass(frozen=True)
class Player:
    """A player as the event knows them; every field may be empty."""

    name: str = ""
    id: str = ""
    team: str = ""

    @property
    def label(self) -> str:
        """``name (team)`` for a score sheet, whatever of it is known."""
        if self.name and self.team:
            return f"{self.name} ({self.team})"
        return self.name or self.team or self.id


@dataclass(frozen=True)
class GameRecord:
    """One game, as the records keep it. Build it with keyword arguments; every field has
    a default so a record read from a poorer format (a bare move list) is still complete.

    The event's fields name the game (what a federation's database and an appeal need):
    ``event``, ``round`` (text: ``4``), ``match`` (the pairing's number in its round),
    ``board`` (the board of a team match), the players with their ``team`` (the team of a
    team match, a player's club or unit otherwise), ``start_time`` and the ``result``;
    ``table`` and ``game_number`` say where and which game of a match it was.

    ``tags`` holds any further ``key -> value`` text the event wants kept (a mapping, so
    a record is compared by value but not hashed).
    """

    moves: tuple[RecordedMove, ...] = ()
    result: GameResult | None = None
    ruleset: str = "renju"
    mode: str = "claim"
    opening: OpeningRecord = field(default_factory=OpeningRecord)
    black_seat: Seat = Seat.FIRST
    claims: tuple[Claim, ...] = ()
    infractions: tuple[Infraction, ...] = ()
    referee_actions: tuple[RefereeAction, ...] = ()
    event: str = ""
    round: str = ""
    match: int | None = None
    board: int | None = None
    table: int | None = None
    game_number: int | None = None
    first: Player = field(default_factory=Player)
    second: Player = field(default_factory=Player)
    time_control: str = ""
    start_time: str = ""
    tags: Mapping[str, str] = field(default_factory=dict)

    __hash__ = None  # type: ignore[assignment]  # tags is a mapping

    def player(self, seat: Seat) -> Player:
        return self.first if seat is Seat.FIRST else self.second

    def seat_of(self, colour: Colour) -> Seat:
        """The seat that held ``colour`` once the opening was over."""
        return self.black_seat if colour is Colour.BLACK else self.black_seat.other

    def player_of(self, colour: Colour) -> Player:
        return self.player(self.seat_of(colour))

    @property
    def label(self) -> str:
        """Which game this is, for people and for formats with one free-text name (SGF's
        ``GN``): ``round 4, match 3, board 1``, whatever of it is known, then the game of
        a match after the first (``game 2``) and the table (``table 12``)."""
        parts = [
            f"{name} {value}"
            for name, value in (
                ("round", self.round),
                ("match", self.match),
                ("board", self.board),
                ("game", self.game_number if self.game_number != 1 else None),
                ("table", self.table),
            )
            if value not in (None, "")
        ]
        return ", ".join(parts)

    @property
    def points(self) -> tuple[Point | None, ...]:
        """The moves' points in order (None for a pass)."""
        return tuple(m.point for m in self.moves)

    @property
    def result_value(self) -> ResultValue | None:
        """``black``, ``white``, ``draw``, or None while the game runs."""
        return None if self.result is None else self.result.winner

    @classmethod
    def from_points(
        cls, points: list[Point | None] | tuple[Point | None, ...], **kwargs: Any
    ) -> GameRecord:
        """A record of alternating moves (Black first) by the seats of ``black_seat``;
        any other field may be given as a keyword argument."""
        black_seat = kwargs.get("black_seat", Seat.FIRST)
        moves = []
        for index, p in enumerate(points):
            colour = Colour.BLACK if index % 2 == 0 else Colour.WHITE
            seat = black_seat if colour is Colour.BLACK else black_seat.other
            moves.append(RecordedMove(p, colour, seat))
        return cls(moves=tuple(moves), **kwargs)


def alternating_moves(
    points: list[Point | None] | tuple[Point | None, ...],
    black_seat: Seat = Seat.FIRST,
    times: list[int | None] | None = None,
) -> tuple[RecordedMove, ...]:
    """Moves that alternate from Black, each by the seat holding its colour; used by the
    formats that keep only points (and maybe times)."""
    moves = []
    for index, p in enumerate(points):
        colour = Colour.BLACK if index % 2 == 0 else Colour.WHITE
        seat = black_seat if colour is Colour.BLACK else black_seat.other
        t_ms = times[index] if times is not None else None
        moves.append(RecordedMove(p, colour, seat, t_ms))
    return tuple(moves)


def check_moves(moves: tuple[RecordedMove, ...], where: Callable[[int], str]) -> None:
    """Raise RecordFormatError if two stones share a point; ``where(i)`` names move i."""
    seen: dict[Point, int] = {}
    for index, move in enumerate(moves):
        p = move.point
        if p is None:
            continue
        if not 0 <= p < POINTS:
            raise RecordFormatError(f"{where(index)}: {p} is not a point index (0–224)")
        if p in seen:
            raise RecordFormatError(
                f"{where(index)}: {point_name(p)} is already occupied (by {where(seen[p])})"
            )
        seen[p] = index
