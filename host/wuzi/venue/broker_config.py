"""The venue broker's configuration, made from the venue file: mosquitto.conf, ACL, users.

Nothing outside the venue file gets in: anonymous clients are refused, every connection
logs in with an account of its own (`wuzi.config.credentials.broker_users`) whose name is
its client id, and ``use_username_as_clientid true`` makes the broker take the client id
from the account, whatever id the client sends: a login can only ever take over its own
account's session (`wuzi.bus.identity`). The ACL gives each account exactly the topics its
role needs (docs/security.md):

==================  ==============================================================
account role        may
==================  ==============================================================
host ``X``          write its tables' ``table/<n>/state|events``,
                    ``arbiter/table/<n>/alerts|state``, ``public/table/<n>/state|events``
                    and ``host/X/status`` (its last will); read its tables'
                    ``assignments/<n>`` and ``arbiter/commands``; for a linked table
                    (``[[links]]``) read and write ``line/<link>/#`` of its own venue,
                    read the other venue's (`wuzi.venue.links`); in a network event's
                    hall (``[central] event``) read and write its venue's ``line/#``,
                    read every venue's (`wuzi.venue.network`)
check ``X``         write ``host/X/status`` (``wuzi venue check``'s test publish)
director            read and write ``assignments/+``, ``competition/state`` and its own
                    status; read ``table/+/events``, ``arbiter/commands``
director-live       read ``table/+/state``, ``host/+/status``
director of event   (``[[events]]``: one per event, no venue-wide director) read and
``E``               write ``assignments/<n>`` of E's tables, ``competition/E/state`` and
                    its own status ``host/E/status``; read E's tables'
                    ``table/<n>/events`` and ``arbiter/commands`` (venue-wide: the
                    director keeps its tables' commands)
director-live of    read E's tables' ``table/<n>/state``, the status of the hosts
event ``E``         serving them and its own
referee(-send)      write ``arbiter/commands``; read everything of the venue
screen (live)       read ``table/#``, ``public/#``, ``competition/#``, ``host/#`` and
                    ``assignments/#``; never ``arbiter/``; write nothing
screen (public)     read ``public/#``, ``competition/#``, ``host/#``, ``assignments/#``
hall bridge ``H``   (a network event's venue, one per ``[[halls]]``) write H's ``table/#``,
                    ``host/#``, ``line/#``; read H's ``assignments/#``, every venue's
                    ``line/#``, the event's ``competition/#``; the director and live
                    screens also read (the director writes the assignments of) each
                    hall's tree (`wuzi.venue.network`)
==================  ==============================================================

Every topic comes from the builders of `wuzi.bus.topics`, so the ACL follows the one
definition of the tree. The broker also holds the limits the venue needs:
``max_queued_messages`` far above Mosquitto's 1000 (a director restarting during a round
must not lose the burst queued for it), a packet limit just above the schemas' payload
limit, and persistence so retained state and queued messages survive a restart.

Pure: texts in, texts out. ``wuzi venue broker-config`` (`wuzi.venue.cli`) writes them.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.bus import topics
from wuzi.bus.schemas import MAX_PAYLOAD_BYTES
from wuzi.config.credentials import DEFAULT_DIRECTOR_ID, BrokerUser, broker_users
from wuzi.config.venue import VenueConfig
from wuzi.venue.broadcast_account import broadcast_rules
from wuzi.venue.links import link_host_rules
from wuzi.venue.network import (
    hall_bridge_rules,
    hall_director_rules,
    hall_screen_rules,
    network_host_rules,
)

__all__ = [
    "MAX_INFLIGHT_MESSAGES",
    "MAX_PACKET_BYTES",
    "MAX_QUEUED_MESSAGES",
    "PERSISTENT_CLIENT_EXPIRATION",
    "AclRule",
    "BrokerSettings",
    "TlsListener",
    "acl_rules",
    "acl_text",
    "broker_lines",
    "mosquitto_conf",
]

MAX_QUEUED_MESSAGES = 100_000
"""Per client, while it is away or slow: a round's events for the director, with room."""
MAX_INFLIGHT_MESSAGES = 100
MAX_PACKET_BYTES = MAX_PAYLOAD_BYTES + 8192
"""The largest payload the schemas accept plus room for the topic and the header; a bigger
packet is refused by the broker before any Wuzi process has to parse it."""
AUTOSAVE_INTERVAL_S = 5
"""How often the broker writes its persistence file. A clean stop always writes it; this
bounds what a crash or a power cut of the broker loses (sessions that subscribed and
messages queued since the last save) to a few seconds, which the readers' gap detection
(`wuzi.bus.gaps`) then shows and the retained state refills. Writing the file of a
venue's broker takes milliseconds."""
PERSISTENT_CLIENT_EXPIRATION = "14d"
"""A persistent session unused this long is dropped (a screen taken out of service must
not have messages queued for it for ever). Longer than any event, so no process of a
running event loses its session."""

READ = "read"
WRITE = "write"
READWRITE = "readwrite"


@dataclass(frozen=True)
class AclRule:
    """One ``topic <access> <topic>`` line of a user's ACL."""

    access: str  # read, write or readwrite
    topic: str


@dataclass(frozen=True)
class TlsListener:
    """A TLS listener: the broker's certificate and key, and optionally a CA file."""

    port: int
    certfile: str
    keyfile: str
    cafile: str | None = None


@dataclass(frozen=True)
class BrokerSettings:
    """Where the generated files are and what the broker listens on.

    ``port`` is the plain MQTT listener (None: none), ``tls`` the TLS listener (None:
    none); ``bind`` the address both listen on (None: every interface).
    """

    password_file: str
    acl_file: str
    data_dir: str
    port: int | None = 1883
    bind: str | None = None
    tls: TlsListener | None = None
    max_queued_messages: int = MAX_QUEUED_MESSAGES
    max_inflight_messages: int = MAX_INFLIGHT_MESSAGES
    max_packet_bytes: int = MAX_PACKET_BYTES
    autosave_interval_s: int = AUTOSAVE_INTERVAL_S
    persistent_client_expiration: str = PERSISTENT_CLIENT_EXPIRATION


# --- the ACL ------------------------------------------------------------------------------


def _host_rules(venue: str, user: BrokerUser) -> list[AclRule]:
    rules: list[AclRule] = []
    for n in user.tables:
        rules += [
            AclRule(WRITE, topics.table_state(venue, n)),
            AclRule(WRITE, topics.table_events(venue, n)),
            AclRule(WRITE, topics.arbiter_alerts(venue, n)),
            AclRule(WRITE, topics.arbiter_state(venue, n)),
            AclRule(READ, topics.assignment(venue, n)),
        ]
    rules.append(AclRule(WRITE, topics.host_status(venue, user.ident)))
    rules.append(AclRule(READ, topics.arbiter_commands(venue)))
    return rules


def _check_rules(venue: str, user: BrokerUser) -> list[AclRule]:
    """``wuzi venue check`` publishes the host's status (not retained) to see that the
    password and the ACL work; nothing more."""
    return [AclRule(WRITE, topics.host_status(venue, user.ident))]


def _director_rules(venue: str, director_id: str) -> list[AclRule]:
    """The director's persistent connection: events and commands in, its writes out."""
    return [
        AclRule(READWRITE, topics.host_status(venue, director_id)),  # its retained status
        AclRule(READWRITE, topics.all_assignments(venue)),
        AclRule(READWRITE, topics.competition_state(venue)),
        AclRule(READ, topics.all_table_events(venue)),
        AclRule(READ, topics.arbiter_commands(venue)),
    ]


def _event_director_rules(venue: str, user: BrokerUser) -> list[AclRule]:
    """An event's director: the same rights as the venue's one director, narrowed to the
    event's tables and its own competition topic, so that it can never assign, read the
    results of or publish standings for another event (issue 35, 002 三(二))."""
    assert user.event is not None
    rules = [AclRule(READWRITE, topics.host_status(venue, user.ident))]
    rules += [AclRule(READWRITE, topics.assignment(venue, n)) for n in user.tables]
    rules.append(AclRule(READWRITE, topics.competition_state(venue, user.event)))
    rules += [AclRule(READ, topics.table_events(venue, n)) for n in user.tables]
    rules.append(AclRule(READ, topics.arbiter_commands(venue)))
    return rules


def _event_director_live_rules(venue: VenueConfig, user: BrokerUser) -> list[AclRule]:
    """An event's director's live connection: its tables' retained states, the status of
    the hosts that serve them (a host may serve tables of two events) and its own."""
    rules = [AclRule(READ, topics.table_state(venue.id, n)) for n in user.tables]
    hosts = [h.id for h in venue.hosts if any(t.number in user.tables for t in h.tables)]
    rules += [AclRule(READ, topics.host_status(venue.id, h)) for h in (*hosts, user.ident)]
    return rules


def _director_live_rules(venue: str) -> list[AclRule]:
    """The director's clean-session connection: the retained states, read only."""
    return [
        AclRule(READ, topics.all_table_states(venue)),
        AclRule(READ, topics.all_host_statuses(venue)),
    ]


def _referee_rules(venue: str) -> list[AclRule]:
    base = topics.arbiter_commands(venue).removesuffix("/arbiter/commands")
    return [AclRule(WRITE, topics.arbiter_commands(venue)), AclRule(READ, f"{base}/#")]


def _screens_rules(venue: str, *, live: bool) -> list[AclRule]:
    base = topics.arbiter_commands(venue).removesuffix("/arbiter/commands")
    levels: tuple[str, ...] = ("table", "public", "competition", "host", "assignments")
    if not live:
        levels = levels[1:]
    return [AclRule(READ, f"{base}/{level}/#") for level in levels]


def acl_rules(venue: VenueConfig) -> dict[str, tuple[AclRule, ...]]:
    """Each account's rules, in the order of `broker_users` (its ConfigError included)."""
    rules: dict[str, tuple[AclRule, ...]] = {}
    for user in broker_users(venue):
        if user.role == "host":  # and its linked tables' hall line (wuzi.venue.links)
            found = _host_rules(venue.id, user)
            extra = link_host_rules(venue, user.tables) + network_host_rules(venue)
            found += [AclRule(access, topic) for access, topic in extra]
        elif user.role == "check":
            found = _check_rules(venue.id, user)
        elif user.role == "director" and user.event is not None:
            found = _event_director_rules(venue.id, user)
        elif user.role == "director-live" and user.event is not None:
            found = _event_director_live_rules(venue, user)
        elif user.role == "director":  # and a network event's halls (wuzi.venue.network)
            found = _director_rules(venue.id, venue.director_id or DEFAULT_DIRECTOR_ID)
            found += [AclRule(a, t) for a, t in hall_director_rules(venue, live=False)]
        elif user.role == "director-live":
            found = _director_live_rules(venue.id)
            found += [AclRule(a, t) for a, t in hall_director_rules(venue, live=True)]
        elif user.role == "hall-bridge":
            found = [AclRule(a, t) for a, t in hall_bridge_rules(venue.id, user.ident)]
        elif user.role in ("referee", "referee-send"):
            found = _referee_rules(venue.id)
        elif user.role == "broadcast":  # read table/, write public/ (docs/broadcast.md)
            found = [AclRule(access, topic) for access, topic in broadcast_rules(venue.id)]
        elif user.role == "screen":
            found = _screens_rules(venue.id, live=True)
            found += [AclRule(a, t) for a, t in hall_screen_rules(venue)]
        else:
            found = _screens_rules(venue.id, live=False)
        rules[user.name] = tuple(found)
    return rules


def _describe(user: BrokerUser) -> str:
    if user.role == "host":
        return f"host {user.ident} (tables {', '.join(map(str, user.tables))})"
    if user.role == "check":
        return f"wuzi venue check of host {user.ident}"
    if user.event is not None:
        shown = ", ".join(map(str, user.tables))
        return f"{user.role} of event {user.event} (tables {shown})"
    return f"{user.role} {user.ident}"


def acl_text(venue: VenueConfig, source: str | None = None) -> str:
    """Mosquitto's ``acl_file``: a ``user`` block per account, nothing for anyone else."""
    rules = acl_rules(venue)
    users = {u.name: u for u in broker_users(venue)}
    lines = [
        f"# Mosquitto ACL of venue {venue.id!r}, written by `wuzi venue broker-config` from "
        f"{source or venue.source}.",
        "# Do not edit: change the venue file and run the command again (docs/security.md).",
        "# An account reads and writes only the topics listed; anonymous clients are refused.",
        "# Each account is one connection: its name is the connection's client id.",
    ]
    for name, user_rules in rules.items():
        lines += ["", f"# {_describe(users[name])}", f"user {name}"]
        lines += [f"topic {rule.access} {rule.topic}" for rule in user_rules]
    return "\n".join(lines) + "\n"


# --- mosquitto.conf -----------------------------------------------------------------------


_BIND_ID = (
    "# The client id is the account's name, whatever id the client sends: a login can",
    "# take over only its own account's session, never another process's. A listener",
    "# setting: it must follow each listener line (before any, Mosquitto would open a",
    "# default listener on 1883 for it and leave ours without).",
    "use_username_as_clientid true",
)


def _listener(port: int, bind: str | None) -> str:
    return f"listener {port}" + (f" {bind}" if bind else "")


def broker_lines(header: list[str], settings: BrokerSettings) -> list[str]:
    """The lines of a ``mosquitto.conf`` after its ``header``: logins, listeners,
    persistence, limits and logging (a venue's broker and the central one share them)."""
    if settings.port is None and settings.tls is None:
        raise ValueError("the broker needs a listener: give a port, a TLS listener or both")
    data_dir = settings.data_dir.rstrip("/") + "/"
    lines = [
        *header,
        "",
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {settings.password_file}",
        f"acl_file {settings.acl_file}",
        "",
    ]
    if settings.port is not None:
        lines += ["# plain MQTT", _listener(settings.port, settings.bind), *_BIND_ID, ""]
    if settings.tls is not None:
        tls = settings.tls
        lines += ["# MQTT over TLS", _listener(tls.port, settings.bind), *_BIND_ID]
        if tls.cafile:
            lines.append(f"cafile {tls.cafile}")
        lines += [f"certfile {tls.certfile}", f"keyfile {tls.keyfile}", "tls_version tlsv1.2", ""]
    lines += [
        "# Retained state, persistent sessions (the director, the referees' views, the",
        "# screens) and the messages queued for them survive a broker restart. Mosquitto",
        "# started as root runs as its own user: the data folder must be that user's.",
        "persistence true",
        f"persistence_location {data_dir}",
        "persistence_file mosquitto.db",
        f"autosave_interval {settings.autosave_interval_s}",
        f"persistent_client_expiration {settings.persistent_client_expiration}",
        "",
        "# Bursts (a round starting, a director restarting) must not be dropped: Mosquitto's",
        "# default of 1000 queued messages per client drops the rest silently.",
        f"max_queued_messages {settings.max_queued_messages}",
        "max_queued_bytes 0",
        f"max_inflight_messages {settings.max_inflight_messages}",
        f"max_packet_size {settings.max_packet_bytes}",
        "",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "log_type information",
        "connection_messages true",
    ]
    return lines


def mosquitto_conf(
    venue: VenueConfig,
    settings: BrokerSettings,
    source: str | None = None,
    bridge_dir: str | None = None,
) -> str:
    """The broker's ``mosquitto.conf`` (Mosquitto 2): listeners, logins, ACL, limits;
    with ``bridge_dir``, the folder holding the bridges' 0640 files (`wuzi.venue.bridge`,
    `wuzi.venue.links`, `wuzi.venue.followers`)."""
    header = [
        f"# Mosquitto configuration of venue {venue.id!r}, written by `wuzi venue "
        f"broker-config` from {source or venue.source}.",
        "# Do not edit: change the venue file and run the command again (docs/security.md).",
    ]
    lines = broker_lines(header, settings)
    if bridge_dir is not None:
        lines += ["", "# The bridges, each in a file of its own (mode 0640: remote passwords):"]
        if venue.links:
            lines.append(
                "# to the central broker: the linked tables' line/<link>/# (docs/linked.md);"
            )
        if venue.bridge is not None:
            lines.append(
                "# to an outside broker: public/#, competition/#, out (docs/broadcast.md);"
            )
        if venue.followers is not None:
            lines.append("# to the followers' broker: the same, out (docs/followers.md).")
        lines.append(f"include_dir {bridge_dir}")
    return "\n".join(lines) + "\n"
