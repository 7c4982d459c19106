"""A network event's brokers: each hall's bridge to the event's central broker, and the
accounts and ACL on both sides (issue 36; docs/linked.md "The network final").

The 2021 final gathers each team at its own venue (000 七(四)) and draws who plays whom
round by round, so its tables are linked **per game**, not by fixed ``[[links]]``. The
organisers' venue (the director's; ``[[halls]]``) is the event's venue, and its broker the
central broker every hall bridges to. A hall's venue file says so with ``[central]
event = "<event venue>"``; its broker then opens one bridge connection out to the central
broker (``network_conf``, ``DIR/conf.d/network.conf``) that carries::

    topic wuzi/v1/<hall>/table/# out 1           its tables' states and events
    topic wuzi/v1/<hall>/host/# out 1            its hosts' statuses
    topic wuzi/v1/<hall>/line/# out 1            its hosts' side of each linked game
    topic wuzi/v1/<hall>/assignments/# in 1      the director's assignments of its tables
    topic wuzi/v1/+/line/# in 1                  every hall's side (any hall may be next)
    topic wuzi/v1/<event>/competition/# in 1     the event's standings

and nothing else: its referee topics, alerts, commands and public feed stay in the hall.
``try_private true`` marks the connection as a bridge, so the central Mosquitto never
sends a hall's own line messages back down the ``+/line/#`` subscription they match.

The ACLs (`wuzi.venue.broker_config.acl_rules` adds them):

* at the hall, a host may write its own venue's ``line/#`` (and read it back after a
  restart) and read every venue's (`network_host_rules`): which game a table plays, and
  so its line, is the director's choice of the round;
* at the central broker, each hall's bridge account (``wuzi.<hall>.bridge.line``, the
  hall's ``[central] username`` by default) may write only its own hall's ``table/``,
  ``host/`` and ``line/`` trees and read its hall's assignments, every hall's lines and
  the event's competition state (`hall_bridge_rules`): a hall can never publish as
  another hall's host or table, nor assign a table;
* the event's director reads each hall's events, states and host statuses and writes
  each hall's assignments (`hall_director_rules`), besides its own venue's rights.

Pure.
"""

from __future__ import annotations

from wuzi.bus import topics
from wuzi.config.venue import VenueConfig
from wuzi.venue.bridge import BridgeError, conf_value
from wuzi.venue.links import central_login_lines

__all__ = [
    "NETWORK_FILE",
    "hall_bridge_rules",
    "hall_director_rules",
    "hall_screen_rules",
    "network_conf",
    "network_host_rules",
    "network_topics",
]

NETWORK_FILE = "network.conf"
"""The bridge block's file in a hall broker's ``conf.d/`` (beside ``links.conf``)."""
QOS = 1
READ = "read"
WRITE = "write"
READWRITE = "readwrite"
_ANY_VENUE = "+"


def _tree(venue: str, level: str) -> str:
    """``wuzi/v1/<venue>/<level>/#`` (``+``: every venue's)."""
    if venue != _ANY_VENUE:
        topics.check_name("venue", venue)
    return f"{topics.ROOT}/{topics.PROTOCOL}/{venue}/{level}/#"


def network_topics(hall_venue: str, event_venue: str) -> tuple[tuple[str, str], ...]:
    """The bridge's ``(filter, direction)`` pairs (module doc)."""
    return (
        (_tree(hall_venue, "table"), "out"),
        (_tree(hall_venue, "host"), "out"),
        (_tree(hall_venue, "line"), "out"),
        (_tree(hall_venue, "assignments"), "in"),
        (_tree(_ANY_VENUE, "line"), "in"),
        (_tree(event_venue, "competition"), "in"),
    )


def network_host_rules(venue: VenueConfig) -> list[tuple[str, str]]:
    """A hall host's ``(access, topic)`` rules for the linked games of a network event:
    readwrite its venue's ``line/#``, read every venue's. None outside a network event."""
    if venue.central is None or venue.central.event is None:
        return []
    return [(READWRITE, _tree(venue.id, "line")), (READ, _tree(_ANY_VENUE, "line"))]


def hall_bridge_rules(event_venue: str, hall_venue: str) -> list[tuple[str, str]]:
    """A hall's bridge account at the central broker (module doc): it writes what its
    bridge carries out and reads what it carries in, so the ACL cannot drift from the
    bridge's topics (`network_topics`)."""
    return [
        (WRITE if way == "out" else READ, pattern)
        for pattern, way in network_topics(hall_venue, event_venue)
    ]


def hall_director_rules(venue: VenueConfig, *, live: bool) -> list[tuple[str, str]]:
    """The event director's rights over its halls: its persistent connection writes each
    hall's assignments and reads its events; its live one reads each hall's states and
    host statuses (`wuzi.director.service` subscribes to exactly these)."""
    rules: list[tuple[str, str]] = []
    for hall in venue.halls:
        if live:
            rules.append((READ, topics.all_table_states(hall.venue)))
            rules.append((READ, topics.all_host_statuses(hall.venue)))
        else:
            rules.append((READWRITE, topics.all_assignments(hall.venue)))
            rules.append((READ, topics.all_table_events(hall.venue)))
    return rules


def hall_screen_rules(venue: VenueConfig) -> list[tuple[str, str]]:
    """A live screen of the event's venue: each hall's tables, hosts and assignments (what
    the bridges bring to the central broker), read only."""
    return [
        (READ, _tree(hall.venue, level))
        for hall in venue.halls
        for level in ("table", "host", "assignments")
    ]


def network_conf(venue: VenueConfig, password: str | None) -> str:
    """A hall's ``connection`` block to the event's central broker (module doc);
    `BridgeError` for a venue that is no network event's hall or a value Mosquitto cannot
    take."""
    central = venue.central
    if central is None or central.event is None:
        raise BridgeError(f"{venue.source}: central.event: the venue file is no network hall")
    lines = [
        f"# Venue {venue.id}, a hall of the network event {central.event}: its bridge to the",
        "# event's central broker (wuzi venue broker-config; docs/linked.md).",
        "# Holds the central broker's password: mode 0640.",
        f"connection {conf_value('central.name', central.name)}",
        f"address {central.host}:{central.port}",
    ]
    lines += [
        f"topic {pattern} {way} {QOS}" for pattern, way in network_topics(venue.id, central.event)
    ]
    return "\n".join(lines + central_login_lines(central, password, try_private=True)) + "\n"
