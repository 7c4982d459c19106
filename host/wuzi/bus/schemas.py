"""Versioned message schemas of the bus, with strict validation of everything that comes in.

A payload is a UTF-8 JSON object carrying ``"v"`` (the schema version, now 1) and exactly
the fields of its message type; which type is decided by the topic, never by the payload,
so a message cannot pretend to be something its topic is not. `parse_message` either
returns a typed, frozen message or raises `MessageError` whose ``field`` names what is
wrong — it never lets another exception out, whatever the bytes (the bus is an attack and
noise surface: issue 8). Unknown keys, wrong types, floats where integers belong, NaN,
duplicate keys, and a table or host number that disagrees with the topic are all errors.

Referee-only content has its own topics and types: an event of kind ``alert`` is accepted
only on ``arbiter/table/<n>/alerts`` and refused on the public event topics (and the
other way round), and `RefereeState` exists only on ``arbiter/table/<n>/state`` — so a
sender that checks what it publishes (`check_outgoing`) cannot put a forbidden point or
an unannounced five where players or the hall read.

An empty payload on a retained topic is MQTT's way of deleting the retained message; it
parses to `Cleared`. `encode` is the inverse of `parse_message` (canonical JSON: sorted
keys, no spaces), so ``parse_message(t, encode(m)) == m``. Pure: no I/O, no clock.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, NoReturn

from wuzi.base.json_values import describe
from wuzi.bus.topics import Topic, TopicError, TopicKind, parse_topic
from wuzi.table.alerts import ALERT_KIND as ALERT_KIND  # the bus word of a referee alert
from wuzi.table.alerts import AlertReason

SCHEMA_VERSION = 1
MAX_PAYLOAD_BYTES = 256 * 1024
MAX_TEXT = 200
MAX_ALERT_TEXT = 2000  # a claim's proof (the referee's explanation) can run long
MAX_OPEN_ALERTS = 50  # a RefereeState lists at most this many (the newest)
MAX_POINT = 224
MAX_TIME_MS = 10**12  # about 31 years: any larger clock reading or time delta is garbage
MAX_STAMP_MS = 10**13  # time stamps are Unix ms (wall clock); 10**13 is the year 2286
MAX_DEPTH = 32  # lists and objects inside lists and objects; Wuzi's own messages need 4

TABLE_STATUSES = ("idle", "playing", "paused", "adjourned", "finished")
RESULTS = ("1-0", "0-1", "1/2-1/2")
COLOURS = ("black", "white")
SEATS = ("first", "second")
ALERT_REASONS = tuple(reason.value for reason in AlertReason)  # the table's one vocabulary
ARBITER_ACTIONS = (
    "pause",
    "resume",
    "adjust-time",
    "adjust-moves",
    "correct-stone",
    "take-back",
    "claim",
    "decide",
    "choose",
    "declare",
    "adjourn",
    "set-result",
    "next-game",
    "decide-claim",
    "confirm-result",
)
DIRECTOR_ACTIONS = frozenset({"confirm-result"})
"""Referee actions the director carries out (on its competition); table hosts ignore them."""
MATCH_STATUSES = ("scheduled", "playing", "finished")

ASSIGNMENT_NAMES = (
    "event",
    "round",
    "match",
    "place",
    "black_team",
    "white_team",
    "black_id",
    "white_id",
    "event_id",
    "linked_venue",
    "linked_table",
    "linked_role",
)
"""The optional fields of an ``Assignment`` (the game's names for its record): a message
without them is valid, each taking its default."""
COMMAND_BINDING_NAMES = ("game_id", "round")
"""The optional fields of an ``ArbiterCommand`` that bind it to a game (signed): a message
without them (an older sender's) is valid, to be refused by its signature's scheme."""

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}")
EVENT_ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?")
"""An event's id as the venue file allows it (``[[events]] id``): a topic level too."""
_KEYWORD = re.compile(r"[a-z][a-z0-9_.-]{0,63}")

JsonObject = dict[str, Any]


class MessageError(ValueError):
    """A payload that does not fit its topic's schema; ``field`` names the culprit."""

    def __init__(self, topic: str, field: str | None, reason: str) -> None:
        self.topic = topic
        self.field = field
        self.reason = reason
        where = f"field {field!r}: " if field else ""
        super().__init__(f"message on {topic!r}: {where}{reason}")


@dataclass(frozen=True)
class TableState:
    """The whole visible state of one table (retained; also the delayed public feed).

    Everything here is what anyone at the table can see on the wood and the clock: it
    never says a point is forbidden or that a five stands unannounced. A display
    extrapolates the running clock from ``at_ms`` until the next state arrives.
    """

    table: int
    game_id: str | None
    seq: int  # the number of the last public event folded into this state
    status: str  # one of TABLE_STATUSES
    moves: tuple[int, ...]  # points, 0..224, in the order played
    black_ms: int  # remaining time; negative once a flag has fallen
    white_ms: int
    running: str | None  # whose clock runs: "black", "white" or None
    result: str | None  # one of RESULTS once finished: Black's score first
    at_ms: int  # host time of this snapshot
    black: str = ""  # the player holding Black now ("" when not known)
    white: str = ""
    offers: tuple[int, ...] = ()  # offered stones on the board, not decided yet
    board: int | None = None  # board number within a team match
    game_in_match: int | None = None  # 1 or 2 of a match, 3+ for playoff games
    event_id: str = ""  # the venue file's event (``[[events]] id``) of its game; "" for none


@dataclass(frozen=True)
class TableEvent:
    """One game event; ``event_id`` is unique venue-wide so a repeat is recognised."""

    event_id: str
    table: int
    game_id: str
    seq: int
    kind: str  # a lower-case keyword, e.g. "move", "alert", "result"
    at_ms: int
    data: JsonObject = field(default_factory=dict)


@dataclass(frozen=True)
class HostStatus:
    """A host's liveness (retained); its last will is the same message with online=False."""

    host: str
    online: bool
    tables: tuple[int, ...]
    boot_id: str
    at_ms: int
    links_down: tuple[int, ...] = ()  # tables (of ``tables``) whose board or clock is away


@dataclass(frozen=True)
class OpenAlert:
    """One referee alert not dealt with yet, as a `RefereeState` lists it."""

    event_id: str  # the alert's event on arbiter/table/<n>/alerts
    reason: str  # one of ALERT_REASONS
    text: str  # for the referee: may name forbidden points and claim proofs
    points: tuple[int, ...]
    seat: str | None  # "first", "second" or None


@dataclass(frozen=True)
class RefereeState:
    """The referee's view of one table (retained, arbiter topics only): the open alerts
    and what players must not be shown (the stone waiting for its press, infractions)."""

    table: int
    game_id: str | None
    seq: int  # the journal seq of the last entry folded into this state
    status: str  # one of TABLE_STATUSES
    alerts: tuple[OpenAlert, ...]  # the newest MAX_OPEN_ALERTS open alerts, oldest first
    alerts_omitted: int  # older open alerts not listed
    pending_stone: int | None  # a settled stone waiting for its clock press
    infractions_first: int  # infractions of the first seat in this game
    infractions_second: int
    at_ms: int
    # a linked table (docs/linked.md): its hall line, the line's state, and the two
    # hosts' clocks compared (the other host's minus this one's, within error_ms, from a
    # round trip of rtt_ms): what the time rule bounds every stamp by
    line: str = ""  # the link's id; "" for a table of this hall alone
    line_state: str = ""  # connecting, up, cut, waiting_for_referees
    offset_ms: int | None = None
    offset_error_ms: int | None = None
    rtt_ms: int | None = None


@dataclass(frozen=True)
class Assignment:
    """A game the director gives to a table (retained)."""

    table: int
    game_id: str
    black: str
    white: str
    rule_set: str
    opening: str
    opening_settings: JsonObject
    time_control: str  # PGN TimeControl syntax with Wuzi's extensions (docs/clock.md)
    board: int | None  # board number within a team match
    game_in_match: int  # 1 or 2 of a two-game match; 3+ for playoff games
    playoff: bool
    issued_ms: int
    # The game's names, for its record (docs/records.md); optional on the wire, so an
    # assignment without them (an older director's) is still valid: "" / None unknown.
    event: str = ""  # the event's name
    round: int | None = None  # the round; 0 for a place playoff after the last round
    match: int | None = None  # the pairing's number in its round (a place playoff's match)
    place: int | None = None  # the prize place a place playoff decides
    black_team: str = ""  # the team of a team match, a player's club or unit otherwise
    white_team: str = ""
    black_id: str = ""  # the players' ids in the event
    white_id: str = ""
    event_id: str = ""  # the venue file's event (``[[events]] id``); "" for a one-event venue
    # a linked game of a network event (docs/linked.md "The network final"): the other
    # hall's venue and table, and this table's side: "owner" (its host runs the game) or
    # "away" (its host shows the owner's truth); "" for a game of this table alone
    linked_venue: str = ""
    linked_table: int | None = None
    linked_role: str = ""


@dataclass(frozen=True)
class ArbiterCommand:
    """A referee command; ``table`` None means every table of the venue.

    ``game_id`` and ``round`` bind it (they are signed, docs/bus.md "Commands"): a
    command for one table names the game it is for (None: the table has no game yet),
    so it cannot be played into the next one; a command for every table names no game;
    the director's commands (``confirm-result``) name the game's round too. On the wire
    both are optional, so an older sender's command still parses and is refused by its
    old signature scheme with a reason (``wuzi.bus.auth.verify``), not as garbage."""

    command_id: str
    referee: str
    action: str  # one of ARBITER_ACTIONS
    table: int | None
    args: JsonObject
    issued_ms: int
    auth: str | None = None  # referee credential, checked by the receiver (issue 8)
    game_id: str | None = None  # the game it is for; None for every table, or no game yet
    round: int | None = None  # the round (the director's commands)


@dataclass(frozen=True)
class MatchSummary:
    """One pairing of the current round as the hall sees it (a team match, a two-game
    round or a single game), with its score so far."""

    label: str  # e.g. "places 1-8" in a placement knockout; "" when there is nothing to say
    first: str  # the first-named entrant (Black in game 1 / on boards 1 and 3)
    second: str  # "" for a bye
    first_score: float  # board points (team), game points, or the game's score
    second_score: float
    tables: tuple[int, ...]  # the tables its games are played on, board 1 first
    status: str  # one of MATCH_STATUSES
    winner: str | None  # once decided (after any captains' playoff)


@dataclass(frozen=True)
class StandingLine:
    """One line of the standings: place (shared places have place < place_to)."""

    place: int
    place_to: int
    entrant: str
    points: float
    tiebreaks: tuple[float, ...]  # in the order of CompetitionState.tiebreak_names


@dataclass(frozen=True)
class BracketMatch:
    """One match of a placement knockout: the places it decides and its outcome."""

    round: int
    places: str  # "1-16", "9-16", "3-4" …
    first: str
    second: str  # "" for a bye
    first_score: float
    second_score: float
    winner: str | None


@dataclass(frozen=True)
class CompetitionState:
    """The director's retained summary of the competition for the screens: the current
    round's matches, the standings with tie-break columns, and the knockout bracket."""

    event: str
    format: str  # team-knockout-placement, knockout-placement, swiss, round-robin
    round: int  # the round being played (0 before the first pairing)
    rounds: int
    matches: tuple[MatchSummary, ...]
    standings: tuple[StandingLine, ...]
    tiebreak_names: tuple[str, ...]  # short keys: buchholz, median_buchholz, …
    tiebreak_formulas: tuple[str, ...]  # one line each, shown under the standings
    bracket: tuple[BracketMatch, ...]  # empty unless a knockout
    finished: bool
    at_ms: int
    event_id: str = ""  # the venue file's event (``[[events]] id``); "" for a one-event venue


@dataclass(frozen=True)
class Cleared:
    """An empty payload on a retained topic: the retained message was deleted."""

    topic: str


Message = (
    TableState
    | TableEvent
    | HostStatus
    | Assignment
    | ArbiterCommand
    | RefereeState
    | CompetitionState
    | Cleared
)

_RETAINED = frozenset(
    {
        TopicKind.TABLE_STATE,
        TopicKind.HOST_STATUS,
        TopicKind.ASSIGNMENT,
        TopicKind.PUBLIC_STATE,
        TopicKind.ARBITER_STATE,
        TopicKind.COMPETITION,
    }
)
_PUBLIC_EVENTS = frozenset({TopicKind.TABLE_EVENTS, TopicKind.PUBLIC_EVENTS})


class _Reader:
    """Takes typed fields out of one JSON object, remembering which keys were used."""

    def __init__(self, topic: str, obj: JsonObject, prefix: str = "") -> None:
        self.topic = topic
        self.obj = obj
        self.prefix = prefix  # "alerts[2]." inside a list of objects
        self.used: set[str] = set()

    def fail(self, name: str | None, reason: str) -> NoReturn:
        raise MessageError(self.topic, None if name is None else self.prefix + name, reason)

    def raw(self, name: str) -> object:
        if name not in self.obj:
            self.fail(name, "is missing")
        self.used.add(name)
        return self.obj[name]

    def integer(self, name: str, lo: int, hi: int) -> int:
        value = self.raw(name)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(name, f"must be an integer, not {_describe(value)}")
        if not lo <= value <= hi:
            self.fail(name, f"must be in {lo}..{hi}, not {value}")
        return value

    def opt_integer(self, name: str, lo: int, hi: int) -> int | None:
        return None if self.raw(name) is None else self.integer(name, lo, hi)

    def number(self, name: str, lo: float, hi: float) -> float:
        """A score: an integer or a finite float in lo..hi, returned as float."""
        value = self.raw(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(name, f"must be a number, not {_describe(value)}")
        if not lo <= value <= hi:  # also refuses NaN
            self.fail(name, f"must be in {lo}..{hi}, not {value}")
        return float(value)

    def number_list(self, name: str, lo: float, hi: float, max_len: int) -> tuple[float, ...]:
        value = self.raw(name)
        if not isinstance(value, list):
            self.fail(name, f"must be a list, not {_describe(value)}")
        if len(value) > max_len:
            self.fail(name, f"has {len(value)} items, at most {max_len} allowed")
        for index, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, int | float) or not lo <= item <= hi:
                self.fail(f"{name}[{index}]", f"must be a number {lo}..{hi}, not {item!r}")
        return tuple(float(item) for item in value)

    def text_list(self, name: str, max_len: int, item_len: int = MAX_TEXT) -> tuple[str, ...]:
        value = self.raw(name)
        if not isinstance(value, list):
            self.fail(name, f"must be a list, not {_describe(value)}")
        if len(value) > max_len:
            self.fail(name, f"has {len(value)} items, at most {max_len} allowed")
        for index, item in enumerate(value):
            if not isinstance(item, str) or not item.strip() or len(item) > item_len:
                self.fail(f"{name}[{index}]", f"must be 1-{item_len} characters, not {item!r}")
        return tuple(value)

    def boolean(self, name: str) -> bool:
        value = self.raw(name)
        if not isinstance(value, bool):
            self.fail(name, f"must be true or false, not {_describe(value)}")
        return value

    def text(
        self, name: str, pattern: re.Pattern[str] | None = None, max_len: int = MAX_TEXT
    ) -> str:
        value = self.raw(name)
        if not isinstance(value, str):
            self.fail(name, f"must be a string, not {_describe(value)}")
        if pattern is not None and not pattern.fullmatch(value):
            self.fail(name, f"{value[:80]!r} does not match {pattern.pattern}")
        if not value.strip() or len(value) > max_len:
            self.fail(name, f"must be 1-{max_len} characters and not blank")
        return value

    def name(self, name: str) -> str:
        """A player's name: free text, or "" when it is not known."""
        value = self.raw(name)
        if value == "":
            return ""
        return self.text(name)

    def event_id(self) -> str:
        """The optional ``event_id`` (the venue file's ``[[events]] id``): "" when absent
        (an older sender, a one-event venue), else a topic-safe id."""
        if not self.has("event_id"):
            return ""
        value = self.raw("event_id")
        if value == "":
            return ""
        return self.text("event_id", EVENT_ID)

    def has(self, name: str) -> bool:
        """Whether an optional field (one a newer sender adds) is in the message."""
        return name in self.obj

    def opt_text(self, name: str, pattern: re.Pattern[str] | None = None) -> str | None:
        return None if self.raw(name) is None else self.text(name, pattern)

    def choice(self, name: str, allowed: tuple[str, ...], optional: bool = False) -> str | None:
        value = self.raw(name)
        if value is None and optional:
            return None
        if not isinstance(value, str) or value not in allowed:
            self.fail(name, f"must be one of {', '.join(allowed)}, not {_describe(value)}")
        return value

    def int_list(self, name: str, lo: int, hi: int, max_len: int) -> tuple[int, ...]:
        value = self.raw(name)
        if not isinstance(value, list):
            self.fail(name, f"must be a list, not {_describe(value)}")
        if len(value) > max_len:
            self.fail(name, f"has {len(value)} items, at most {max_len} allowed")
        for index, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, int) or not lo <= item <= hi:
                self.fail(f"{name}[{index}]", f"must be an integer {lo}..{hi}, not {item!r}")
        if len(set(value)) != len(value):
            self.fail(name, "contains a repeated value")
        return tuple(value)

    def mapping(self, name: str) -> JsonObject:
        value = self.raw(name)
        if not isinstance(value, dict):
            self.fail(name, f"must be an object, not {_describe(value)}")
        return value

    def objects(self, name: str, max_len: int) -> list[_Reader]:
        """A list of JSON objects, each read by its own reader named ``name[i].``."""
        value = self.raw(name)
        if not isinstance(value, list):
            self.fail(name, f"must be a list, not {_describe(value)}")
        if len(value) > max_len:
            self.fail(name, f"has {len(value)} items, at most {max_len} allowed")
        readers = []
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                self.fail(f"{name}[{index}]", f"must be an object, not {_describe(item)}")
            readers.append(_Reader(self.topic, item, f"{self.prefix}{name}[{index}]."))
        return readers

    def disjoint(
        self, name: str, values: tuple[int, ...], other: str, others: tuple[int, ...]
    ) -> None:
        """Refuse an item of ``values`` (field ``name``) that ``others`` (field ``other``)
        holds too; the message names both fields, either may be the wrong one."""
        for index, item in enumerate(values):
            if item in others:
                self.fail(f"{name}[{index}]", f"{item} is also in {self.prefix}{other}")

    def subset(
        self, name: str, values: tuple[int, ...], other: str, allowed: tuple[int, ...]
    ) -> None:
        """Refuse an item of ``values`` (field ``name``) that ``allowed`` (field ``other``)
        lacks; the message names both fields, either may be the wrong one."""
        for index, item in enumerate(values):
            if item not in allowed:
                self.fail(f"{name}[{index}]", f"{item} is not in {self.prefix}{other}")

    def finish(self) -> None:
        extra = sorted(set(self.obj) - self.used)
        if extra:
            self.fail(extra[0], "is not a field of this message (unknown key)")


def _describe(value: object) -> str:
    return describe(value, max_text=40)


def _table_state(r: _Reader) -> TableState:
    state = TableState(
        table=r.integer("table", 1, 9999),
        game_id=r.opt_text("game_id", _ID),
        seq=r.integer("seq", 0, 2**53),
        status=str(r.choice("status", TABLE_STATUSES)),
        moves=r.int_list("moves", 0, MAX_POINT, MAX_POINT + 1),
        black_ms=r.integer("black_ms", -MAX_TIME_MS, MAX_TIME_MS),
        white_ms=r.integer("white_ms", -MAX_TIME_MS, MAX_TIME_MS),
        running=r.choice("running", COLOURS, optional=True),
        result=r.choice("result", RESULTS, optional=True),
        at_ms=r.integer("at_ms", 0, MAX_STAMP_MS),
        black=r.name("black"),
        white=r.name("white"),
        offers=r.int_list("offers", 0, MAX_POINT, MAX_POINT + 1),
        board=r.opt_integer("board", 1, 9999),
        game_in_match=r.opt_integer("game_in_match", 1, 99),
        event_id=r.event_id(),
    )
    r.disjoint("offers", state.offers, "moves", state.moves)
    return state


def _table_event(r: _Reader) -> TableEvent:
    return TableEvent(
        event_id=r.text("event_id", _ID),
        table=r.integer("table", 1, 9999),
        game_id=r.text("game_id", _ID),
        seq=r.integer("seq", 0, 2**53),
        kind=r.text("kind", _KEYWORD),
        at_ms=r.integer("at_ms", 0, MAX_STAMP_MS),
        data=r.mapping("data"),
    )


def _host_status(r: _Reader) -> HostStatus:
    status = HostStatus(
        host=r.text("host", _ID),
        online=r.boolean("online"),
        tables=r.int_list("tables", 1, 9999, 1000),
        boot_id=r.text("boot_id", _ID),
        at_ms=r.integer("at_ms", 0, MAX_STAMP_MS),
        links_down=r.int_list("links_down", 1, 9999, 1000),
    )
    r.subset("links_down", status.links_down, "tables", status.tables)
    return status


def _open_alert(r: _Reader) -> OpenAlert:
    alert = OpenAlert(
        event_id=r.text("event_id", _ID),
        reason=str(r.choice("reason", ALERT_REASONS)),
        text=r.text("text", max_len=MAX_ALERT_TEXT),
        points=r.int_list("points", 0, MAX_POINT, MAX_POINT + 1),
        seat=r.choice("seat", SEATS, optional=True),
    )
    r.finish()
    return alert


def _referee_state(r: _Reader) -> RefereeState:
    return RefereeState(
        table=r.integer("table", 1, 9999),
        game_id=r.opt_text("game_id", _ID),
        seq=r.integer("seq", 0, 2**53),
        status=str(r.choice("status", TABLE_STATUSES)),
        alerts=tuple(_open_alert(item) for item in r.objects("alerts", MAX_OPEN_ALERTS)),
        alerts_omitted=r.integer("alerts_omitted", 0, 2**53),
        pending_stone=r.opt_integer("pending_stone", 0, MAX_POINT),
        infractions_first=r.integer("infractions_first", 0, 9999),
        infractions_second=r.integer("infractions_second", 0, 9999),
        at_ms=r.integer("at_ms", 0, MAX_STAMP_MS),
        line=_blank_or(r, "line", lambda: r.text("line", _ID)),
        line_state=_blank_or(r, "line_state", lambda: str(r.choice("line_state", LINE_STATES))),
        offset_ms=r.opt_integer("offset_ms", -MAX_STAMP_MS, MAX_STAMP_MS)
        if r.has("offset_ms")
        else None,
        offset_error_ms=r.opt_integer("offset_error_ms", 0, MAX_TIME_MS)
        if r.has("offset_error_ms")
        else None,
        rtt_ms=r.opt_integer("rtt_ms", 0, MAX_TIME_MS) if r.has("rtt_ms") else None,
    )


LINE_STATES = ("connecting", "up", "cut", "waiting_for_referees")


def _blank_or(r: _Reader, name: str, read: Callable[[], str]) -> str:
    """An optional text field of a newer sender: "" when absent or empty."""
    if not r.has(name) or r.raw(name) in ("", None):
        return ""
    return read()


def _assignment(r: _Reader) -> Assignment:
    return Assignment(
        table=r.integer("table", 1, 9999),
        game_id=r.text("game_id", _ID),
        black=r.text("black"),
        white=r.text("white"),
        rule_set=r.text("rule_set", _KEYWORD),
        opening=r.text("opening", _KEYWORD),
        opening_settings=r.mapping("opening_settings"),
        time_control=r.text("time_control"),
        board=r.opt_integer("board", 1, 9999),
        game_in_match=r.integer("game_in_match", 1, 99),
        playoff=r.boolean("playoff"),
        issued_ms=r.integer("issued_ms", 0, MAX_STAMP_MS),
        event=r.name("event") if r.has("event") else "",
        round=r.opt_integer("round", 0, 999) if r.has("round") else None,
        match=r.opt_integer("match", 1, 9999) if r.has("match") else None,
        place=r.opt_integer("place", 1, MAX_ENTRANTS) if r.has("place") else None,
        black_team=r.name("black_team") if r.has("black_team") else "",
        white_team=r.name("white_team") if r.has("white_team") else "",
        black_id=r.name("black_id") if r.has("black_id") else "",
        white_id=r.name("white_id") if r.has("white_id") else "",
        event_id=r.event_id(),
        linked_venue=_blank_or(r, "linked_venue", lambda: r.text("linked_venue", _VENUE)),
        linked_table=r.opt_integer("linked_table", 1, 9999) if r.has("linked_table") else None,
        linked_role=_blank_or(r, "linked_role", lambda: str(r.choice("linked_role", LINKED_ROLES))),
    )


LINKED_ROLES = ("owner", "away")
_VENUE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def _arbiter_command(r: _Reader) -> ArbiterCommand:
    cmd = ArbiterCommand(
        command_id=r.text("command_id", _ID),
        referee=r.text("referee", _ID),
        action=str(r.choice("action", ARBITER_ACTIONS)),
        table=r.opt_integer("table", 1, 9999),
        args=r.mapping("args"),
        issued_ms=r.integer("issued_ms", 0, MAX_STAMP_MS),
        auth=r.opt_text("auth"),
        game_id=r.opt_text("game_id", _ID) if r.has("game_id") else None,
        round=r.opt_integer("round", 0, 999) if r.has("round") else None,
    )
    if cmd.table is None and cmd.game_id is not None:
        r.fail("game_id", "a command for every table (table null) cannot name one game")
    return cmd


MAX_SCORE = 10_000.0
MAX_ENTRANTS = 2000


def _match_summary(r: _Reader) -> MatchSummary:
    tables = r.int_list("tables", 1, 9999, 16)
    summary = MatchSummary(
        label=r.name("label"),
        first=r.text("first"),
        second=r.name("second"),
        first_score=r.number("first_score", 0, MAX_SCORE),
        second_score=r.number("second_score", 0, MAX_SCORE),
        tables=tables,
        status=str(r.choice("status", MATCH_STATUSES)),
        winner=r.opt_text("winner"),
    )
    r.finish()
    return summary


def _standing_line(r: _Reader, columns: int) -> StandingLine:
    line = StandingLine(
        place=r.integer("place", 1, MAX_ENTRANTS),
        place_to=r.integer("place_to", 1, MAX_ENTRANTS),
        entrant=r.text("entrant"),
        points=r.number("points", -MAX_SCORE, MAX_SCORE),
        tiebreaks=r.number_list("tiebreaks", -1e9, 1e9, 16),
    )
    if line.place_to < line.place:
        r.fail("place_to", f"{line.place_to} is before place {line.place}")
    if len(line.tiebreaks) != columns:
        r.fail("tiebreaks", f"has {len(line.tiebreaks)} values for {columns} tie-break names")
    r.finish()
    return line


def _bracket_match(r: _Reader) -> BracketMatch:
    match = BracketMatch(
        round=r.integer("round", 1, 99),
        places=r.text("places", _PLACES),
        first=r.text("first"),
        second=r.name("second"),
        first_score=r.number("first_score", 0, MAX_SCORE),
        second_score=r.number("second_score", 0, MAX_SCORE),
        winner=r.opt_text("winner"),
    )
    r.finish()
    return match


_PLACES = re.compile(r"[1-9][0-9]{0,3}(-[1-9][0-9]{0,3})?")


def _competition(r: _Reader) -> CompetitionState:
    names = r.text_list("tiebreak_names", 16, 64)
    return CompetitionState(
        event=r.text("event"),
        format=r.text("format", _KEYWORD),
        round=r.integer("round", 0, 99),
        rounds=r.integer("rounds", 0, 99),
        matches=tuple(_match_summary(m) for m in r.objects("matches", 1000)),
        standings=tuple(
            _standing_line(s, len(names)) for s in r.objects("standings", MAX_ENTRANTS)
        ),
        tiebreak_names=names,
        tiebreak_formulas=r.text_list("tiebreak_formulas", 16, MAX_TEXT),
        bracket=tuple(_bracket_match(b) for b in r.objects("bracket", 1000)),
        finished=r.boolean("finished"),
        at_ms=r.integer("at_ms", 0, MAX_STAMP_MS),
        event_id=r.event_id(),
    )


_PARSERS: dict[TopicKind, Callable[[_Reader], Message]] = {
    TopicKind.TABLE_STATE: _table_state,
    TopicKind.PUBLIC_STATE: _table_state,
    TopicKind.TABLE_EVENTS: _table_event,
    TopicKind.PUBLIC_EVENTS: _table_event,
    TopicKind.HOST_STATUS: _host_status,
    TopicKind.ASSIGNMENT: _assignment,
    TopicKind.ARBITER_COMMANDS: _arbiter_command,
    TopicKind.ARBITER_ALERTS: _table_event,
    TopicKind.ARBITER_STATE: _referee_state,
    TopicKind.COMPETITION: _competition,
}


def _no_constants(name: str) -> NoReturn:
    raise ValueError(f"{name} is not allowed in a Wuzi message")


def _unique_keys(pairs: list[tuple[str, Any]]) -> JsonObject:
    obj: JsonObject = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"duplicate key {key!r}")
        obj[key] = value
    return obj


def _decode(topic: str, payload: bytes) -> JsonObject:
    if len(payload) > MAX_PAYLOAD_BYTES:
        raise MessageError(
            topic, None, f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD_BYTES}"
        )
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = f"payload is not UTF-8 ({exc.reason} at byte {exc.start})"
        raise MessageError(topic, None, reason) from None
    try:
        obj = json.loads(text, parse_constant=_no_constants, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise MessageError(topic, None, "payload JSON is nested too deeply") from None
    except ValueError as exc:  # json.JSONDecodeError, duplicate keys, NaN, huge integers
        raise MessageError(topic, None, f"payload is not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise MessageError(topic, None, f"payload must be a JSON object, not {_describe(obj)}")
    _check_values(topic, obj)
    return obj


def _check_values(topic: str, obj: JsonObject) -> None:
    """Refuse what JSON can say but a message must not hold, because it could not be
    encoded again (to check a signature, to store it, to pass it on): a number beyond a
    float's range (``1e999`` reads as infinity), a string with a lone surrogate
    (``"\\ud800"`` is not Unicode text) and nesting deeper than `MAX_DEPTH` (encoding
    it again would exhaust Python's stack). Iterative, so any depth is safe to walk."""
    stack: list[tuple[tuple[str | int, ...], object]] = [((), obj)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict | list):
            if len(path) > MAX_DEPTH:
                _bad_value(topic, path, f"is nested more than {MAX_DEPTH} levels deep")
            if isinstance(value, list) and all(type(item) is int for item in value):
                continue  # a list of plain integers (a game's moves) holds nothing to refuse
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str) and not _is_text(key):
                    _bad_value(topic, path, f"has a key {key!r} that is not Unicode text")
                stack.append(((*path, key), item))
        elif isinstance(value, str) and not _is_text(value):
            _bad_value(topic, path, f"{value[:40]!r} is not Unicode text (a lone surrogate)")
        elif isinstance(value, float) and not math.isfinite(value):
            _bad_value(topic, path, "is a number beyond the range of a float")


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _bad_value(topic: str, path: tuple[str | int, ...], reason: str) -> NoReturn:
    """A `MessageError` whose field is the value's path, as the readers name it
    (``args.moves[3]``, ``alerts[2].text``), or None for the payload itself."""
    name = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    raise MessageError(topic, name or None, reason)


def parse_message(topic: str, payload: bytes) -> Message:
    """The typed message on ``topic``, or `MessageError` saying which field is wrong."""
    try:
        where = parse_topic(topic)
    except TopicError as exc:
        raise MessageError(str(topic)[:200], None, str(exc)) from None
    if not isinstance(payload, bytes | bytearray | memoryview):
        raise MessageError(topic, None, f"payload must be bytes, not {type(payload).__name__}")
    payload = bytes(payload)
    if not payload:
        if where.kind in _RETAINED:
            return Cleared(topic)
        raise MessageError(topic, None, "empty payload on a topic that is not retained")
    reader = _Reader(topic, _decode(topic, payload))
    version = reader.raw("v")
    if isinstance(version, bool) or not isinstance(version, int):
        reader.fail("v", f"schema version must be an integer, not {_describe(version)}")
    if version != SCHEMA_VERSION:
        reader.fail("v", f"schema version {version} is not supported (this host reads v1)")
    message = _PARSERS[where.kind](reader)
    reader.finish()
    _check_against_topic(topic, where, message)
    return message


def _check_against_topic(topic: str, where: Topic, message: Message) -> None:
    table = getattr(message, "table", None)
    if where.table is not None and table != where.table:
        raise MessageError(topic, "table", f"is {table} but the topic is for table {where.table}")
    if isinstance(message, HostStatus) and message.host != where.host:
        raise MessageError(topic, "host", f"is {message.host!r} but the topic is {where.host!r}")
    if isinstance(message, TableEvent):
        if where.kind in _PUBLIC_EVENTS and message.kind == ALERT_KIND:
            raise MessageError(
                topic, "kind", "a referee alert belongs on arbiter/table/<n>/alerts only"
            )
        if where.kind is TopicKind.ARBITER_ALERTS and message.kind != ALERT_KIND:
            raise MessageError(
                topic, "kind", f"must be {ALERT_KIND!r} on an alerts topic, not {message.kind!r}"
            )


_last_checked: tuple[tuple[TopicKind, int | None, str | None], Message, bytes] | None = None
"""The last message ``check_outgoing`` passed: where it went, itself, its payload."""


def check_outgoing(topic: str, message: Message) -> bytes:
    """Raise `MessageError` unless ``message`` is exactly what receivers of ``topic``
    accept: the right type for the topic, every field valid, the table and host agreeing,
    no referee alert on a public topic. A sender calls it before publishing, so a bug
    cannot put referee-only content where players or the hall read. Returns the payload
    (``encode(message)``), so the sender need not encode it a second time.

    The same message object checked again at once, for a topic of the same kind, table
    and host, and encoding to the same bytes, is not parsed again: what receivers make
    of a payload depends on nothing else (the host's ``publish`` checks each message it
    builds, then the bus client checks it before it leaves: a second parse of every
    message was ~10 ms of a 24-table recovery; docs/performance.md)."""
    global _last_checked
    if isinstance(message, Cleared) and message.topic != topic:
        raise MessageError(topic, None, f"clears {message.topic!r}, not this topic")
    try:
        payload = encode(message)
    except (TypeError, ValueError) as exc:  # a value JSON cannot hold (a set, NaN …)
        raise MessageError(topic, None, f"cannot be encoded: {exc}") from None
    try:
        where = parse_topic(topic)
    except TopicError as exc:
        raise MessageError(str(topic)[:200], None, str(exc)) from None
    key = (where.kind, where.table, where.host)
    last = _last_checked
    if last is not None and last[1] is message and last[0] == key and last[2] == payload:
        return payload
    parsed = parse_message(topic, payload)
    if type(parsed) is not type(message):
        raise MessageError(topic, None, f"a {type(message).__name__} does not go on this topic")
    if parsed != message:
        raise MessageError(topic, None, "does not survive encoding unchanged (a value is not JSON)")
    _last_checked = (key, message, payload)
    return payload


def _plain(value: object) -> object:
    """A message's field as JSON holds it: tuples as lists, nested messages as objects."""
    if isinstance(value, tuple):
        if all(type(item) is int for item in value):  # a game's moves: no item to convert
            return list(value)
        return [_plain(item) for item in value]
    if isinstance(value, OpenAlert | MatchSummary | StandingLine | BracketMatch):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return value


def encode(message: Message) -> bytes:
    """Canonical JSON bytes of ``message`` (an empty payload for `Cleared`)."""
    if isinstance(message, Cleared):
        return b""
    obj: JsonObject = {"v": SCHEMA_VERSION}
    for f in fields(message):
        obj[f.name] = _plain(getattr(message, f.name))
    return json.dumps(
        obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode()
