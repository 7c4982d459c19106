"""The MQTT topic tree under ``wuzi/v1/<venue>/…``: builders, filters and a strict parser.

Every topic Wuzi publishes or subscribes to is built here, so the tree has one definition
and a typo cannot create a topic nobody listens to. ``parse_topic`` is the inverse and is
what an incoming message is dispatched on; it rejects anything outside the tree with a
`TopicError` naming the offending level. Pure: no I/O.

Everything under ``arbiter/`` is for referees only: forbidden points, fives not announced
and claim proofs travel there and nowhere else, and the broker's ACL keeps players and
the hall out of it (docs/bus.md). ``REFEREE_ONLY`` names those kinds.

The tree (QoS and retain per topic are in `TOPIC_POLICY` and docs/bus.md)::

    wuzi/v1/<venue>/table/<n>/state          retained table state (host -> everyone)
    wuzi/v1/<venue>/table/<n>/events         game events, QoS 1, unique event ids (host)
    wuzi/v1/<venue>/host/<id>/status         retained host status; the last will says offline
    wuzi/v1/<venue>/assignments/<n>          retained game assignment (director -> host)
    wuzi/v1/<venue>/arbiter/commands         referee commands (arbiter view -> hosts)
    wuzi/v1/<venue>/arbiter/table/<n>/alerts referee alerts as events, QoS 1 (host -> referees)
    wuzi/v1/<venue>/arbiter/table/<n>/state  retained referee view of a table (host -> referees)
    wuzi/v1/<venue>/public/table/<n>/state   delayed hall feed: retained state
    wuzi/v1/<venue>/public/table/<n>/events  delayed hall feed: events
    wuzi/v1/<venue>/competition/state        retained competition summary (director -> screens)
    wuzi/v1/<venue>/competition/<event>/state  the same, of one event of a venue of several

The hall line of a linked game (issue 36: one game, its two seats at tables of two halls,
each hall with its own broker, bridged through a central one) has a tree of its own, under
the venue of the host that writes it; ``<link>`` is the ``[[links]]`` id, the same in both
venue files (docs/linked.md)::

    wuzi/v1/<venue>/line/<link>/to-owner     the away host's stamped inputs (away -> owner)
    wuzi/v1/<venue>/line/<link>/to-away      the owner host's answers (owner -> away)
    wuzi/v1/<venue>/line/<link>/state        retained: the owner's truth of the game

The bridge carries ``line/<link>/#`` of the linked tables only (`line_filter`), out from
the writer's hall and in to the other's: a hall's broker never carries another venue's
topics but those. Its topics are `LineTopic` values (`parse_line_topic`), apart from
`Topic`, so that no dispatcher of the venue's own tree meets a kind it does not know.

A venue whose file has no ``[[events]]`` runs one event, on ``competition/state``; a venue
of several (the 2019 open's three groups in one hall) has one director per event, each
publishing on its event's ``competition/<event>/state``. Tables stay venue-wide: a table
belongs to one event at a time, and its state carries the event's id.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

ROOT = "wuzi"
PROTOCOL = "v1"
MAX_TABLE = 9999
MAX_SHOWN = 100  # characters of a foreign topic (or level) quoted in an error

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_TABLE = re.compile(r"[1-9][0-9]{0,3}")
_EVENT = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?")  # the venue file's [[events]] id


class TopicError(ValueError):
    """A topic (or a part given to a builder) that is not in the Wuzi tree; says which level."""


class TopicKind(enum.Enum):
    TABLE_STATE = "table-state"
    TABLE_EVENTS = "table-events"
    HOST_STATUS = "host-status"
    ASSIGNMENT = "assignment"
    ARBITER_COMMANDS = "arbiter-commands"
    PUBLIC_STATE = "public-state"
    PUBLIC_EVENTS = "public-events"
    ARBITER_ALERTS = "arbiter-alerts"
    ARBITER_STATE = "arbiter-state"
    COMPETITION = "competition"


@dataclass(frozen=True)
class TopicPolicy:
    """How messages on one kind of topic are published."""

    qos: int
    retain: bool


TOPIC_POLICY: dict[TopicKind, TopicPolicy] = {
    TopicKind.TABLE_STATE: TopicPolicy(qos=1, retain=True),
    TopicKind.TABLE_EVENTS: TopicPolicy(qos=1, retain=False),
    TopicKind.HOST_STATUS: TopicPolicy(qos=1, retain=True),
    TopicKind.ASSIGNMENT: TopicPolicy(qos=1, retain=True),
    TopicKind.ARBITER_COMMANDS: TopicPolicy(qos=1, retain=False),
    TopicKind.PUBLIC_STATE: TopicPolicy(qos=1, retain=True),
    TopicKind.PUBLIC_EVENTS: TopicPolicy(qos=1, retain=False),
    TopicKind.ARBITER_ALERTS: TopicPolicy(qos=1, retain=False),
    TopicKind.ARBITER_STATE: TopicPolicy(qos=1, retain=True),
    TopicKind.COMPETITION: TopicPolicy(qos=1, retain=True),
}

REFEREE_ONLY = frozenset(
    {TopicKind.ARBITER_COMMANDS, TopicKind.ARBITER_ALERTS, TopicKind.ARBITER_STATE}
)
"""Topic kinds the broker ACL must keep from players and the hall (all under ``arbiter/``)."""


@dataclass(frozen=True)
class Topic:
    """A parsed topic: its kind, venue, and the table or host it is about (if any)."""

    kind: TopicKind
    venue: str
    table: int | None = None
    host: str | None = None
    event: str | None = None  # a competition topic's event (None: the venue's one event)

    def __str__(self) -> str:
        return build_topic(self)

    @property
    def policy(self) -> TopicPolicy:
        return TOPIC_POLICY[self.kind]


def _shown(value: object) -> str:
    """``repr(value)``, cut: an MQTT topic may be 64 KiB, an error line should not."""
    if isinstance(value, str) and len(value) > MAX_SHOWN:
        return f"{value[:MAX_SHOWN]!r}… ({len(value)} characters)"
    return repr(value)


def check_name(what: str, value: str) -> str:
    """A venue or host id: 1-64 of letters, digits, ``_`` and ``-``, starting alphanumeric."""
    if not isinstance(value, str) or not _NAME.fullmatch(value):
        raise TopicError(
            f"{what} must be 1-64 letters, digits, '_' or '-' (starting with a letter or digit),"
            f" not {_shown(value)}"
        )
    return value


def check_event(value: str) -> str:
    """An event id as the venue file allows it: 1-64 of a-z, 0-9 and '-' (not first or last)."""
    if not isinstance(value, str) or not _EVENT.fullmatch(value):
        raise TopicError(
            f"event id must be 1-64 of a-z, 0-9 and '-' (not first or last), not {_shown(value)}"
        )
    return value


def check_table(value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TABLE:
        raise TopicError(f"table number must be an integer 1-{MAX_TABLE}, not {value!r}")
    return value


def _base(venue: str) -> str:
    return f"{ROOT}/{PROTOCOL}/{check_name('venue', venue)}"


def table_state(venue: str, table: int) -> str:
    return f"{_base(venue)}/table/{check_table(table)}/state"


def table_events(venue: str, table: int) -> str:
    return f"{_base(venue)}/table/{check_table(table)}/events"


def host_status(venue: str, host: str) -> str:
    return f"{_base(venue)}/host/{check_name('host id', host)}/status"


def assignment(venue: str, table: int) -> str:
    return f"{_base(venue)}/assignments/{check_table(table)}"


def arbiter_commands(venue: str) -> str:
    return f"{_base(venue)}/arbiter/commands"


def public_state(venue: str, table: int) -> str:
    return f"{_base(venue)}/public/table/{check_table(table)}/state"


def public_events(venue: str, table: int) -> str:
    return f"{_base(venue)}/public/table/{check_table(table)}/events"


def arbiter_alerts(venue: str, table: int) -> str:
    return f"{_base(venue)}/arbiter/table/{check_table(table)}/alerts"


def arbiter_state(venue: str, table: int) -> str:
    return f"{_base(venue)}/arbiter/table/{check_table(table)}/state"


def competition_state(venue: str, event: str | None = None) -> str:
    """The retained competition summary: the venue's one event's (``event`` None), or one
    event's of a venue of several."""
    if event is None:
        return f"{_base(venue)}/competition/state"
    return f"{_base(venue)}/competition/{check_event(event)}/state"


def build_topic(topic: Topic) -> str:
    """The topic string of a parsed `Topic` (the inverse of `parse_topic`)."""
    kind = topic.kind
    if kind is TopicKind.HOST_STATUS:
        if topic.host is None:
            raise TopicError("a host-status topic needs a host id")
        return host_status(topic.venue, topic.host)
    if kind is TopicKind.ARBITER_COMMANDS:
        return arbiter_commands(topic.venue)
    if kind is TopicKind.COMPETITION:
        return competition_state(topic.venue, topic.event)
    if topic.table is None:
        raise TopicError(f"a {kind.value} topic needs a table number")
    builders = {
        TopicKind.TABLE_STATE: table_state,
        TopicKind.TABLE_EVENTS: table_events,
        TopicKind.ASSIGNMENT: assignment,
        TopicKind.PUBLIC_STATE: public_state,
        TopicKind.PUBLIC_EVENTS: public_events,
        TopicKind.ARBITER_ALERTS: arbiter_alerts,
        TopicKind.ARBITER_STATE: arbiter_state,
    }
    return builders[kind](topic.venue, topic.table)


# Subscription filters: a whole kind across the venue.


def all_table_states(venue: str) -> str:
    return f"{_base(venue)}/table/+/state"


def all_table_events(venue: str) -> str:
    return f"{_base(venue)}/table/+/events"


def all_host_statuses(venue: str) -> str:
    return f"{_base(venue)}/host/+/status"


def all_assignments(venue: str) -> str:
    return f"{_base(venue)}/assignments/+"


def all_public(venue: str) -> str:
    return f"{_base(venue)}/public/#"


def all_arbiter_alerts(venue: str) -> str:
    return f"{_base(venue)}/arbiter/table/+/alerts"


def all_arbiter_states(venue: str) -> str:
    return f"{_base(venue)}/arbiter/table/+/state"


def all_competitions(venue: str) -> str:
    """Every event's competition summary (``competition/state`` and ``competition/+/state``)."""
    return f"{_base(venue)}/competition/#"


def all_arbiter(venue: str) -> str:
    """Everything referees see: commands, every table's alerts and referee state."""
    return f"{_base(venue)}/arbiter/#"


# The hall line of a linked game (module doc).


class LineKind(enum.Enum):
    TO_OWNER = "to-owner"
    TO_AWAY = "to-away"
    STATE = "state"


LINE_POLICY: dict[LineKind, TopicPolicy] = {
    LineKind.TO_OWNER: TopicPolicy(qos=1, retain=False),
    LineKind.TO_AWAY: TopicPolicy(qos=1, retain=False),
    LineKind.STATE: TopicPolicy(qos=1, retain=True),
}


@dataclass(frozen=True)
class LineTopic:
    """A parsed hall-line topic: its kind, the venue that writes it, and the link's id."""

    kind: LineKind
    venue: str
    link: str

    def __str__(self) -> str:
        return line_topic(self.kind, self.venue, self.link)

    @property
    def policy(self) -> TopicPolicy:
        return LINE_POLICY[self.kind]


def check_link(value: str) -> str:
    """A link id as the venue file allows it: 1-64 of a-z, 0-9 and '-' (not first or last)."""
    if not isinstance(value, str) or not _EVENT.fullmatch(value):
        raise TopicError(
            f"link id must be 1-64 of a-z, 0-9 and '-' (not first or last), not {_shown(value)}"
        )
    return value


def line_topic(kind: LineKind, venue: str, link: str) -> str:
    return f"{_base(venue)}/line/{check_link(link)}/{kind.value}"


def line_to_owner(venue: str, link: str) -> str:
    """The away host's inputs to the owner host, under the away venue."""
    return line_topic(LineKind.TO_OWNER, venue, link)


def line_to_away(venue: str, link: str) -> str:
    """The owner host's messages to the away host, under the owner venue."""
    return line_topic(LineKind.TO_AWAY, venue, link)


def line_state(venue: str, link: str) -> str:
    """The owner's retained truth of the linked game, under the owner venue."""
    return line_topic(LineKind.STATE, venue, link)


def line_filter(venue: str, link: str) -> str:
    """Every line topic one venue writes for one link: what the bridge carries."""
    return f"{_base(venue)}/line/{check_link(link)}/#"


def all_lines(venue: str) -> str:
    """Every line topic one venue writes, for every link."""
    return f"{_base(venue)}/line/#"


def parse_line_topic(topic: str) -> LineTopic:
    """Parse a hall-line topic, or raise `TopicError` naming the bad level."""
    if not isinstance(topic, str):
        raise TopicError(f"topic must be a string, not {type(topic).__name__}")
    levels = topic.split("/")
    if len(levels) != 6 or levels[:2] != [ROOT, PROTOCOL] or levels[3] != "line":
        raise TopicError(
            f"topic {_shown(topic)} is not a hall-line topic "
            f"({ROOT}/{PROTOCOL}/<venue>/line/<link>/<kind>)"
        )
    try:
        venue = check_name("venue", levels[2])
        link = check_link(levels[4])
    except TopicError as exc:
        raise TopicError(f"topic {_shown(topic)}: {exc}") from None
    try:
        kind = LineKind(levels[5])
    except ValueError:
        known = ", ".join(k.value for k in LineKind)
        raise TopicError(
            f"topic {_shown(topic)}: unknown hall-line kind {_shown(levels[5])} (known: {known})"
        ) from None
    return LineTopic(kind, venue, link)


def _parse_table(level: str, topic: str) -> int:
    if not _TABLE.fullmatch(level):
        raise TopicError(
            f"topic {_shown(topic)}: table level must be a number 1-{MAX_TABLE},"
            f" not {_shown(level)}"
        )
    return int(level)


def parse_topic(topic: str) -> Topic:
    """Parse a topic of the Wuzi tree, or raise `TopicError` naming the bad level."""
    if not isinstance(topic, str):
        raise TopicError(f"topic must be a string, not {type(topic).__name__}")
    levels = topic.split("/")
    if len(levels) < 4 or levels[0] != ROOT:
        raise TopicError(f"topic {_shown(topic)} is not under {ROOT}/{PROTOCOL}/<venue>/")
    if levels[1] != PROTOCOL:
        raise TopicError(
            f"topic {_shown(topic)}: protocol level is {_shown(levels[1])}, expected {PROTOCOL!r}"
        )
    try:
        venue = check_name("venue", levels[2])
    except TopicError as exc:
        raise TopicError(f"topic {_shown(topic)}: {exc}") from None
    rest = levels[3:]
    head = rest[0]
    if head == "table" and len(rest) == 3 and rest[2] in ("state", "events"):
        kind = TopicKind.TABLE_STATE if rest[2] == "state" else TopicKind.TABLE_EVENTS
        return Topic(kind, venue, table=_parse_table(rest[1], topic))
    if head == "host" and len(rest) == 3 and rest[2] == "status":
        try:
            host = check_name("host id", rest[1])
        except TopicError as exc:
            raise TopicError(f"topic {_shown(topic)}: {exc}") from None
        return Topic(TopicKind.HOST_STATUS, venue, host=host)
    if head == "assignments" and len(rest) == 2:
        return Topic(TopicKind.ASSIGNMENT, venue, table=_parse_table(rest[1], topic))
    if rest == ["competition", "state"]:
        return Topic(TopicKind.COMPETITION, venue)
    if head == "competition" and len(rest) == 3 and rest[2] == "state":
        try:
            event = check_event(rest[1])
        except TopicError as exc:
            raise TopicError(f"topic {_shown(topic)}: {exc}") from None
        return Topic(TopicKind.COMPETITION, venue, event=event)
    if head == "arbiter" and rest == ["arbiter", "commands"]:
        return Topic(TopicKind.ARBITER_COMMANDS, venue)
    if (
        head == "arbiter"
        and len(rest) == 4
        and rest[1] == "table"
        and rest[3] in ("alerts", "state")
    ):
        kind = TopicKind.ARBITER_ALERTS if rest[3] == "alerts" else TopicKind.ARBITER_STATE
        return Topic(kind, venue, table=_parse_table(rest[2], topic))
    if (
        head == "public"
        and len(rest) == 4
        and rest[1] == "table"
        and rest[3] in ("state", "events")
    ):
        kind = TopicKind.PUBLIC_STATE if rest[3] == "state" else TopicKind.PUBLIC_EVENTS
        return Topic(kind, venue, table=_parse_table(rest[2], topic))
    raise TopicError(
        f"topic {_shown(topic)}: unknown path {_shown('/'.join(rest))} under the venue"
    )
