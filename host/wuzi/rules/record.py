"""Game records: everything a finished (or running) game leaves behind, and its JSON form.

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

The JSON form (``record_to_json``/``record_from_json``, schema in docs/records.md) is
versioned (``"format": "wuzi-record", "version": 1``). It keeps ``"moves"`` as a list of
point names (``"pass"`` for a pass) and ``"result"`` at the top level, so a script can read
a game without knowing the rest; per-move details sit in the parallel ``"move_details"``.
Import validates every field and names the JSON path of the first bad one
(``moves[3]: 'z9' is not a point``).
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, cast

from wuzi.rules.board import POINTS, Colour, Point, parse_point, point_name
from wuzi.rules.errors import RecordFormatError, RulesError
from wuzi.rules.procedure import Seat

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
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
    "record_from_dict",
    "record_from_json",
    "record_to_dict",
    "record_to_json",
]

FORMAT_NAME = "wuzi-record"
FORMAT_VERSION = 1

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

_TOKEN = re.compile(r"[a-z0-9][a-z0-9_.+-]*\Z")


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


# ---------------------------------------------------------------------------------------
# JSON export


def _seat(s: Seat | None) -> str | None:
    return None if s is None else s.value


def _point(p: Point | None) -> str | None:
    return None if p is None else point_name(p)


def record_to_dict(record: GameRecord) -> dict[str, Any]:
    """The JSON-ready dict of a record (schema version 1, docs/records.md)."""
    opening = record.opening
    offers = opening.offers
    result = record.result
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "event": record.event,
        "round": record.round,
        "table": record.table,
        "game_number": record.game_number,
        "start_time": record.start_time,
        "time_control": record.time_control,
        "players": {
            "first": _player_dict(record.first),
            "second": _player_dict(record.second),
        },
        "ruleset": record.ruleset,
        "mode": record.mode,
        "opening": {
            "procedure": opening.procedure,
            "id": opening.opening_id,
            "name": opening.opening_name,
            "set_by": opening.set_by,
            "decisions": [
                {"seat": d.seat.value, "choice": d.choice, "stones": d.stones, "t_ms": d.t_ms}
                for d in opening.decisions
            ],
            "offers": None
            if offers is None
            else {
                "move": offers.move,
                "n": offers.n,
                "declared_by": _seat(offers.declared_by),
                "points": [
                    {"point": point_name(o.point), "seat": o.seat.value, "t_ms": o.t_ms}
                    for o in offers.offers
                ],
                "kept": _point(offers.kept),
                "chosen_by": _seat(offers.chosen_by),
            },
        },
        "black_seat": record.black_seat.value,
        "moves": [point_text(m.point) for m in record.moves],
        "move_details": [
            {
                "colour": m.colour.label,
                "seat": m.seat.value,
                "t_ms": m.t_ms,
                "first_ms": None if m.clocks is None else m.clocks.first_ms,
                "second_ms": None if m.clocks is None else m.clocks.second_ms,
            }
            for m in record.moves
        ],
        "claims": [
            {
                "seat": c.seat.value,
                "kind": c.kind,
                "point": _point(c.point),
                "t_ms": c.t_ms,
                "verdict": c.verdict,
                "forbidden": c.forbidden,
                "proof": c.proof,
            }
            for c in record.claims
        ],
        "infractions": [
            {"seat": i.seat.value, "description": i.description, "t_ms": i.t_ms, "loses": i.loses}
            for i in record.infractions
        ],
        "referee_actions": [
            {"referee": a.referee, "t_ms": a.t_ms, "action": a.action, "detail": a.detail}
            for a in record.referee_actions
        ],
        "result": None if result is None else result.winner,
        "termination": None
        if result is None
        else {"reason": result.reason, "detail": result.detail, "t_ms": result.t_ms},
        "tags": dict(record.tags),
    }


def _player_dict(p: Player) -> dict[str, str]:
    return {"name": p.name, "id": p.id, "team": p.team}


def record_to_json(record: GameRecord, *, indent: int | None = 2) -> str:
    """The record as JSON text (UTF-8 safe, non-ASCII kept as is), ending with a newline."""
    return json.dumps(record_to_dict(record), ensure_ascii=False, indent=indent) + "\n"


# ---------------------------------------------------------------------------------------
# JSON import with validation. Every check names the JSON path of the value it rejects.

T = TypeVar("T")


class _Obj:
    """A JSON object being read: each key is taken once; leftovers are unknown keys."""

    def __init__(self, value: object, path: str) -> None:
        if not isinstance(value, dict):
            raise RecordFormatError(f"{path or 'record'}: expected an object, not {_kind(value)}")
        self.data: dict[str, object] = value
        self.path = path
        self.seen: set[str] = set()

    def sub(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, read: Callable[[object, str], T], default: T) -> T:
        self.seen.add(key)
        if key not in self.data:
            return default
        return read(self.data[key], self.sub(key))

    def need(self, key: str, read: Callable[[object, str], T]) -> T:
        self.seen.add(key)
        if key not in self.data:
            raise RecordFormatError(f"{self.sub(key)}: missing")
        return read(self.data[key], self.sub(key))

    def done(self) -> None:
        extra = [k for k in self.data if k not in self.seen]
        if extra:
            where = self.path or "record"
            raise RecordFormatError(f"{where}: unknown key {extra[0]!r}")


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _str(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise RecordFormatError(f"{path}: expected a string, not {_kind(value)}")
    return value


def _token(value: object, path: str) -> str:
    text = _str(value, path)
    if not _TOKEN.match(text):
        raise RecordFormatError(
            f"{path}: {text!r} is not a token (lower-case letters, digits and '-', "
            "such as 'forbidden-33')"
        )
    return text


def _int(value: object, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordFormatError(f"{path}: expected an integer, not {_kind(value)}")
    return value


def _count(value: object, path: str) -> int:
    n = _int(value, path)
    if n < 0:
        raise RecordFormatError(f"{path}: {n} is negative")
    return n


def _positive(value: object, path: str) -> int:
    n = _int(value, path)
    if n < 1:
        raise RecordFormatError(f"{path}: {n} must be at least 1")
    return n


def _bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise RecordFormatError(f"{path}: expected true or false, not {_kind(value)}")
    return value


def _optional(read: Callable[[object, str], T]) -> Callable[[object, str], T | None]:
    def read_optional(value: object, path: str) -> T | None:
        return None if value is None else read(value, path)

    return read_optional


def _list(value: object, path: str) -> list[object]:
    if not isinstance(value, list):
        raise RecordFormatError(f"{path}: expected a list, not {_kind(value)}")
    return value


def _items(read: Callable[[object, str], T]) -> Callable[[object, str], tuple[T, ...]]:
    def read_items(value: object, path: str) -> tuple[T, ...]:
        return tuple(read(item, f"{path}[{i}]") for i, item in enumerate(_list(value, path)))

    return read_items


def _point_value(value: object, path: str) -> Point:
    text = _str(value, path)
    try:
        p = parse_point(text)
    except RulesError:
        raise RecordFormatError(
            f"{path}: {text!r} is not a point (a–o and 1–15, e.g. h8)"
        ) from None
    if point_name(p) != text:
        raise RecordFormatError(
            f"{path}: {text!r} is not written as a point (write {point_name(p)!r})"
        )
    return p


def _move_value(value: object, path: str) -> Point | None:
    if value == "pass":
        return None
    text = _str(value, path)
    try:
        return _point_value(text, path)
    except RecordFormatError:
        raise RecordFormatError(
            f"{path}: {text!r} is not a point (a–o and 1–15, e.g. h8) or 'pass'"
        ) from None


def _seat_value(value: object, path: str) -> Seat:
    text = _str(value, path)
    try:
        return Seat(text)
    except ValueError:
        raise RecordFormatError(f"{path}: seat must be 'first' or 'second', not {text!r}") from None


def _colour_value(value: object, path: str) -> Colour:
    text = _str(value, path)
    if text not in ("black", "white"):
        raise RecordFormatError(f"{path}: colour must be 'black' or 'white', not {text!r}")
    return Colour.BLACK if text == "black" else Colour.WHITE


def _choice(options: tuple[str, ...]) -> Callable[[object, str], str]:
    def read_choice(value: object, path: str) -> str:
        text = _str(value, path)
        if text not in options:
            raise RecordFormatError(f"{path}: expected one of {', '.join(options)}, not {text!r}")
        return text

    return read_choice


def _time(value: object, path: str) -> int | None:
    return None if value is None else _count(value, path)


def _player(value: object, path: str) -> Player:
    obj = _Obj(value, path)
    player = Player(
        name=obj.get("name", _str, ""), id=obj.get("id", _str, ""), team=obj.get("team", _str, "")
    )
    obj.done()
    return player


def _decision(value: object, path: str) -> OpeningDecision:
    obj = _Obj(value, path)
    decision = OpeningDecision(
        seat=obj.need("seat", _seat_value),
        choice=obj.need("choice", _token),
        stones=obj.need("stones", _count),
        t_ms=obj.get("t_ms", _time, None),
    )
    obj.done()
    return decision


def _offer(value: object, path: str) -> Offer:
    obj = _Obj(value, path)
    offer = Offer(
        point=obj.need("point", _point_value),
        seat=obj.need("seat", _seat_value),
        t_ms=obj.get("t_ms", _time, None),
    )
    obj.done()
    return offer


def _offer_round(value: object, path: str) -> OfferRound:
    obj = _Obj(value, path)
    no_offers: tuple[Offer, ...] = ()
    offers = obj.get("points", _items(_offer), no_offers)
    seen: dict[Point, int] = {}
    for i, o in enumerate(offers):
        if o.point in seen:
            raise RecordFormatError(
                f"{path}.points[{i}]: {point_name(o.point)} was already offered "
                f"({path}.points[{seen[o.point]}])"
            )
        seen[o.point] = i
    kept = obj.get("kept", _optional(_point_value), None)
    if kept is not None and kept not in seen:
        raise RecordFormatError(f"{path}.kept: {point_name(kept)} is not one of the offers")
    rnd = OfferRound(
        move=obj.need("move", _positive),
        n=obj.need("n", _positive),
        offers=offers,
        kept=kept,
        declared_by=obj.get("declared_by", _optional(_seat_value), None),
        chosen_by=obj.get("chosen_by", _optional(_seat_value), None),
    )
    obj.done()
    return rnd


def _opening(value: object, path: str) -> OpeningRecord:
    obj = _Obj(value, path)
    set_by = obj.get("set_by", _optional(_choice(SET_BY_VALUES)), None)
    opening = OpeningRecord(
        procedure=obj.get("procedure", _token, "free"),
        opening_id=obj.get("id", _optional(_str), None),
        opening_name=obj.get("name", _optional(_str), None),
        set_by=cast(SetBy | None, set_by),
        decisions=obj.get("decisions", _items(_decision), ()),
        offers=obj.get("offers", _optional(_offer_round), None),
    )
    obj.done()
    return opening


def _move_detail(value: object, path: str) -> tuple[Colour, Seat, int | None, ClockReading | None]:
    obj = _Obj(value, path)
    colour = obj.need("colour", _colour_value)
    seat = obj.need("seat", _seat_value)
    t_ms = obj.get("t_ms", _time, None)
    first = obj.get("first_ms", _optional(_int), None)
    second = obj.get("second_ms", _optional(_int), None)
    obj.done()
    if (first is None) != (second is None):
        raise RecordFormatError(
            f"{path}: give both clock readings (first_ms and second_ms) or neither"
        )
    clocks = None if first is None or second is None else ClockReading(first, second)
    return colour, seat, t_ms, clocks


def _claim(value: object, path: str) -> Claim:
    obj = _Obj(value, path)
    claim = Claim(
        seat=obj.need("seat", _seat_value),
        kind=obj.need("kind", _token),
        verdict=obj.need("verdict", _token),
        point=obj.get("point", _optional(_point_value), None),
        t_ms=obj.get("t_ms", _time, None),
        forbidden=obj.get("forbidden", _optional(_choice(FORBIDDEN_KINDS)), None),
        proof=obj.get("proof", _str, ""),
    )
    obj.done()
    return claim


def _infraction(value: object, path: str) -> Infraction:
    obj = _Obj(value, path)
    infraction = Infraction(
        seat=obj.need("seat", _seat_value),
        description=obj.need("description", _str),
        t_ms=obj.get("t_ms", _time, None),
        loses=obj.get("loses", _bool, False),
    )
    obj.done()
    return infraction


def _referee_action(value: object, path: str) -> RefereeAction:
    obj = _Obj(value, path)
    action = RefereeAction(
        action=obj.need("action", _token),
        referee=obj.get("referee", _str, ""),
        t_ms=obj.get("t_ms", _time, None),
        detail=obj.get("detail", _str, ""),
    )
    obj.done()
    return action


def _tags(value: object, path: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise RecordFormatError(f"{path}: expected an object, not {_kind(value)}")
    return {str(k): _str(v, f"{path}.{k}") for k, v in value.items()}


def _ruleset_value(value: object, path: str) -> str:
    text = _str(value, path)
    from wuzi.rules.ruleset import RuleSet

    try:
        canonical = str(RuleSet.parse(text))
    except RulesError as exc:
        raise RecordFormatError(f"{path}: {exc}") from None
    if canonical != text:
        raise RecordFormatError(f"{path}: write the rule set as {canonical!r}, not {text!r}")
    return text


def _start_time(value: object, path: str) -> str:
    text = _str(value, path)
    if text:
        try:
            datetime.datetime.fromisoformat(text)
        except ValueError:
            raise RecordFormatError(
                f"{path}: {text!r} is not an ISO 8601 time such as 2026-05-01T09:30:00+08:00"
            ) from None
    return text


def _players(value: object, path: str) -> tuple[Player, Player]:
    obj = _Obj(value, path)
    first = obj.get("first", _player, Player())
    second = obj.get("second", _player, Player())
    obj.done()
    return first, second


def _termination(value: object, path: str) -> tuple[str, str, int | None]:
    obj = _Obj(value, path)
    reason = obj.need("reason", _token)
    detail = obj.get("detail", _str, "")
    t_ms = obj.get("t_ms", _time, None)
    obj.done()
    return reason, detail, t_ms


def record_from_dict(data: object) -> GameRecord:
    """Validate a decoded JSON value and build the record; RecordFormatError names the path.

    ``format`` and ``version`` are required; every other key may be left out (its default
    is used; without ``move_details`` the moves alternate from Black by the seats of
    ``black_seat``). Unknown keys are errors, so a misspelt key is never silently lost.
    """
    obj = _Obj(data, "")
    fmt = obj.need("format", _str)
    if fmt != FORMAT_NAME:
        raise RecordFormatError(f"format: expected {FORMAT_NAME!r}, not {fmt!r}")
    version = obj.need("version", _int)
    if version != FORMAT_VERSION:
        raise RecordFormatError(
            f"version: this program reads version {FORMAT_VERSION} records, not {version}"
        )
    black_seat = obj.get("black_seat", _seat_value, Seat.FIRST)
    no_points: tuple[Point | None, ...] = ()
    points = obj.get("moves", _items(_move_value), no_points)
    if obj.has("move_details"):
        details = obj.need("move_details", _items(_move_detail))
        if len(details) != len(points):
            raise RecordFormatError(
                f"move_details: {len(details)} entries for {len(points)} moves; "
                "give one entry per move"
            )
        moves = tuple(
            RecordedMove(p, colour, seat, t_ms, clocks)
            for p, (colour, seat, t_ms, clocks) in zip(points, details, strict=True)
        )
    else:
        moves = alternating_moves(points, black_seat)
    check_moves(moves, lambda i: f"moves[{i}]")

    winner = obj.get("result", _optional(_choice(RESULT_VALUES)), None)
    termination = obj.get("termination", _optional(_termination), None)
    result: GameResult | None = None
    if winner is None and termination is not None:
        raise RecordFormatError("termination: given, but result is null (the game is running)")
    if winner is not None:
        if termination is None:
            raise RecordFormatError(f"termination: missing; result {winner!r} needs a reason")
        reason, detail, t_ms = termination
        result = GameResult(cast(ResultValue, winner), reason, detail, t_ms)

    first, second = obj.get("players", _players, (Player(), Player()))
    record = GameRecord(
        moves=moves,
        result=result,
        ruleset=obj.get("ruleset", _ruleset_value, "renju"),
        mode=obj.get("mode", _choice(MODES), "claim"),
        opening=obj.get("opening", _opening, OpeningRecord()),
        black_seat=black_seat,
        claims=obj.get("claims", _items(_claim), ()),
        infractions=obj.get("infractions", _items(_infraction), ()),
        referee_actions=obj.get("referee_actions", _items(_referee_action), ()),
        event=obj.get("event", _str, ""),
        round=obj.get("round", _str, ""),
        table=obj.get("table", _optional(_count), None),
        game_number=obj.get("game_number", _optional(_positive), None),
        first=first,
        second=second,
        time_control=obj.get("time_control", _str, ""),
        start_time=obj.get("start_time", _start_time, ""),
        tags=obj.get("tags", _tags, {}),
    )
    obj.done()
    return record


def record_from_json(text: str | bytes) -> GameRecord:
    """Parse and validate JSON text (str, or UTF-8 bytes) into a record.

    Invalid JSON is reported with its line and column; invalid content with its JSON path.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordFormatError(f"byte {exc.start}: not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordFormatError(f"line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise RecordFormatError("record: nested too deeply to be a game record") from None
    return record_from_dict(data)
