"""A hall's side of the bridged halls: the bridge to the central broker, and the local ACL
of the hosts that serve linked tables (issue 36, docs/linked.md "Bridged halls").

Each hall keeps its own Mosquitto and its own accounts; the halls of a linked game meet at
a central broker (``[central]``), each hall's broker opening one bridge connection out to
it. The bridge carries the linked tables' hall-line topics and nothing else::

    topic wuzi/v1/<this venue>/line/<link>/# out 1     what this hall's host writes
    topic wuzi/v1/<other venue>/line/<link>/# in 1     what the other hall's host writes

one pair per ``[[links]]`` entry. So a hall's table states, events, assignments, referee
topics, host statuses and accounts never leave it, and nothing but the other hall's line
topics of its own links ever comes in: the ``in`` filters name the other venue's tree, the
``out`` ones this venue's, so no message can loop back. ``cleansession false`` keeps both
directions queued (QoS 1) while the line between the halls is cut, and delivers them on
return; ``restart_timeout 1 5`` brings it back within seconds.

The local ACL (`link_host_rules`, added to the host's rules by
`wuzi.venue.broker_config.acl_rules`): the host serving a linked table may write (and read
back, for a restart) its own venue's ``line/<link>/#`` and read the other venue's; no other
account may write any ``line/`` topic. A hall therefore cannot publish as the other
hall's host on its own broker, and the central broker's ACL (`wuzi.venue.central`) refuses
it across the bridge too.

Pure. Mosquitto wants the remote password in the
configuration itself: `links_conf` is written to ``DIR/conf.d/links.conf``, mode 0640.
"""

from __future__ import annotations

from wuzi.bus import topics
from wuzi.config.links import CentralSettings, LinkConfig
from wuzi.config.venue import VenueConfig
from wuzi.venue.bridge import BridgeError, conf_value

__all__ = [
    "LINKS_FILE",
    "central_login_lines",
    "link_host_rules",
    "link_topics",
    "links_conf",
]

LINKS_FILE = "links.conf"
"""The bridge block's file in the broker's ``conf.d/`` (beside ``bridge.conf``)."""
QOS = 1
READ = "read"
READWRITE = "readwrite"


def link_topics(link: LinkConfig) -> tuple[tuple[str, str], tuple[str, str]]:
    """The bridge's two ``(filter, direction)`` pairs of one link: this venue's line topics
    out, the other venue's in."""
    return (
        (topics.line_filter(link.venue, link.id), "out"),
        (topics.line_filter(link.other_venue, link.id), "in"),
    )


def link_host_rules(venue: VenueConfig, tables: tuple[int, ...]) -> list[tuple[str, str]]:
    """The ``(access, topic)`` ACL lines a host serving ``tables`` gets for their links:
    readwrite its own venue's ``line/<link>/#`` (it reads its own retained ``state`` back
    after a restart), read the other venue's. None for a table of no link."""
    rules: list[tuple[str, str]] = []
    for number in tables:
        link = venue.link_of_table(number)
        if link is not None:
            rules.append((READWRITE, topics.line_filter(link.venue, link.id)))
            rules.append((READ, topics.line_filter(link.other_venue, link.id)))
    return rules


def links_conf(venue: VenueConfig, password: str | None) -> str:
    """The ``connection`` block to the central broker for ``mosquitto.conf`` (module doc);
    `BridgeError` for a venue without links or a value Mosquitto cannot take."""
    central: CentralSettings | None = venue.central
    if central is None or not venue.links:
        raise BridgeError(f"{venue.source}: links: the venue file links no table")
    lines = [
        f"# Hall line of venue {venue.id} to the central broker: the linked tables'",
        "# line/<link>/# topics only (wuzi venue broker-config; docs/linked.md).",
        "# Holds the central broker's password: mode 0640.",
        f"connection {conf_value('central.name', central.name)}",
        f"address {central.host}:{central.port}",
    ]
    for link in venue.links:
        lines.append(
            f"# {link.key}: table {link.table} here, table {link.other_table} of "
            f"{link.other_venue}; {link.owner_venue} owns the game"
        )
        lines += [f"topic {pattern} {way} {QOS}" for pattern, way in link_topics(link)]
    return "\n".join(lines + central_login_lines(central, password, try_private=False)) + "\n"


def central_login_lines(
    central: CentralSettings, password: str | None, *, try_private: bool
) -> list[str]:
    """A hall's bridge to the central broker after its topics: the login, a session kept
    while the line is cut, a quick restart, TLS. ``try_private``: announce a bridge (a
    Mosquitto at the centre then sends nothing back down the subscription it came up by);
    off, the bridge is a plain client to any broker (EMQX)."""
    lines = [
        "bridge_protocol_version mqttv311",
        f"remote_clientid {conf_value('central.username', central.username)}",
        f"remote_username {central.username}",
    ]
    if password is not None:
        lines.append(f"remote_password {conf_value('central.password_file', password)}")
    lines += [
        "cleansession false",  # both directions queued while the line is cut
        "notifications false",  # no $SYS connection notices at the central broker
        f"try_private {'true' if try_private else 'false'}",
        "start_type automatic",
        "restart_timeout 1 5",  # back within seconds when the line returns
        "keepalive_interval 10",
    ]
    if central.tls:
        if central.ca_file is not None:
            lines.append(f"bridge_cafile {conf_value('central.ca_file', central.ca_file)}")
        else:
            lines.append("bridge_capath /etc/ssl/certs")
        lines += ["bridge_tls_version tlsv1.2", "bridge_insecure false"]
    return lines
