"""The venue broker's configuration, made from the venue file: mosquitto.conf, ACL, users.

Nothing outside the venue file gets in: anonymous clients are refused, every process
logs in as its own user (`wuzi.config.credentials.broker_users`), and the ACL gives each
user exactly the topics its role needs (docs/security.md):

=================  ===============================================================
user               may
=================  ===============================================================
host ``X``         write its tables' ``table/<n>/state|events``,
                   ``arbiter/table/<n>/alerts|state``, ``public/table/<n>/state|events``
                   and ``host/X/status`` (its last will); read its tables'
                   ``assignments/<n>`` and ``arbiter/commands``
director           read and write ``assignments/+`` and ``competition/state``; read
                   ``table/+/state|events``, ``host/+/status``, ``arbiter/commands``
referee            write ``arbiter/commands``; read everything of the venue
screens            read ``table/#``, ``public/#``, ``competition/#``, ``host/#`` and
                   ``assignments/#``; never ``arbiter/``; write nothing
screens-public     read ``public/#``, ``competition/#``, ``host/#``, ``assignments/#``
=================  ===============================================================

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
            AclRule(WRITE, topics.public_state(venue, n)),
            AclRule(WRITE, topics.public_events(venue, n)),
            AclRule(READ, topics.assignment(venue, n)),
        ]
    rules.append(AclRule(WRITE, topics.host_status(venue, user.name)))
    rules.append(AclRule(READ, topics.arbiter_commands(venue)))
    return rules


def _director_rules(venue: str, director_id: str) -> list[AclRule]:
    return [
        AclRule(READWRITE, topics.host_status(venue, director_id)),  # its retained status
        AclRule(READWRITE, topics.all_assignments(venue)),
        AclRule(READWRITE, topics.competition_state(venue)),
        AclRule(READ, topics.all_table_states(venue)),
        AclRule(READ, topics.all_table_events(venue)),
        AclRule(READ, topics.all_host_statuses(venue)),
        AclRule(READ, topics.arbiter_commands(venue)),
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
    """Each broker user's rules, in the order of `broker_users` (its ConfigError included)."""
    rules: dict[str, tuple[AclRule, ...]] = {}
    for user in broker_users(venue):
        if user.role == "host":
            found = _host_rules(venue.id, user)
        elif user.role == "director":
            found = _director_rules(venue.id, venue.director_id or DEFAULT_DIRECTOR_ID)
        elif user.role == "referee":
            found = _referee_rules(venue.id)
        else:
            found = _screens_rules(venue.id, live=user.role == "screens")
        rules[user.name] = tuple(found)
    return rules


def _describe(user: BrokerUser) -> str:
    if user.role == "host":
        return f"host {user.name} (tables {', '.join(map(str, user.tables))})"
    return f"{user.role} {user.name}"


def acl_text(venue: VenueConfig, source: str | None = None) -> str:
    """Mosquitto's ``acl_file``: a ``user`` block per account, nothing for anyone else."""
    rules = acl_rules(venue)
    users = {u.name: u for u in broker_users(venue)}
    lines = [
        f"# Mosquitto ACL of venue {venue.id!r}, written by `wuzi venue broker-config` from "
        f"{source or venue.source}.",
        "# Do not edit: change the venue file and run the command again (docs/security.md).",
        "# A user reads and writes only the topics listed; anonymous clients are refused.",
    ]
    for name, user_rules in rules.items():
        lines += ["", f"# {_describe(users[name])}", f"user {name}"]
        lines += [f"topic {rule.access} {rule.topic}" for rule in user_rules]
    return "\n".join(lines) + "\n"


# --- mosquitto.conf -----------------------------------------------------------------------


def _listener(port: int, bind: str | None) -> str:
    return f"listener {port}" + (f" {bind}" if bind else "")


def mosquitto_conf(venue: VenueConfig, settings: BrokerSettings, source: str | None = None) -> str:
    """The broker's ``mosquitto.conf`` (Mosquitto 2): listeners, logins, ACL, limits."""
    if settings.port is None and settings.tls is None:
        raise ValueError("the broker needs a listener: give a port, a TLS listener or both")
    data_dir = settings.data_dir.rstrip("/") + "/"
    lines = [
        f"# Mosquitto configuration of venue {venue.id!r}, written by `wuzi venue "
        f"broker-config` from {source or venue.source}.",
        "# Do not edit: change the venue file and run the command again (docs/security.md).",
        "",
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {settings.password_file}",
        f"acl_file {settings.acl_file}",
        "",
    ]
    if settings.port is not None:
        lines += ["# plain MQTT", _listener(settings.port, settings.bind), ""]
    if settings.tls is not None:
        tls = settings.tls
        lines += ["# MQTT over TLS", _listener(tls.port, settings.bind)]
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
    return "\n".join(lines) + "\n"
