"""Public brokers for followers: anonymous, read-only MQTT over WebSockets, public trees only.

A spectators' page in a browser subscribes to the delayed feed over MQTT on WebSockets.
Its viewers are anonymous and countless, so they never reach a broker that carries
anything else than::

    wuzi/v1/<venue>/public/#         the delayed feed (`wuzi broadcast`)
    wuzi/v1/<venue>/competition/#    the director's standings (what public screens read)

Two shapes, one listener (`viewer_lines`):

* the **venue's followers' broker** (`followers_conf`, ``[followers]``): a second Mosquitto
  beside the venue's. The venue broker's bridge (`followers_bridge_conf`, in
  ``DIR/conf.d/followers.conf``) pushes the two trees *out* to it on a loopback listener
  that takes a password. Not a second listener of the venue broker: Mosquitto's client
  ids are one name space across listeners, and an anonymous viewer sending a host's
  client id would close that host's connection (seen on Mosquitto 2.0.11). The bridge's
  own client id there ends in a digest of its password (`bridge_client_id`), so no viewer
  can guess it to push the feed off either.
* an **edge** (`edge_conf`, ``wuzi venue edge-config``): a public broker that *pulls*
  ``wuzi/v1/+/public/#`` and ``wuzi/v1/+/competition/#`` in from a hub broker; its
  bridge is an outgoing connection, so viewers of the edge have nothing to push off.
  Several edges behind DNS round robin or a load balancer serve a national audience
  (docs/followers.md).

On every public listener: ``allow_anonymous true`` and an ACL whose only lines are
``topic read`` lines before any ``user`` line — the rules Mosquitto gives anonymous
clients — so a viewer may read the two trees and write nothing (a publish is dropped,
MQTT 5 gets reason 135); a client that sends a user name matches no rule and reads nothing.
Limits sized for many small readers: a bounded queue per viewer (a stalled phone costs a
few hundred messages, never the broker's memory), ``max_connections``, no persistence
(viewers hold clean sessions; retained state comes back with the bridge).

Pure: texts in, texts out; `wuzi.venue.followers_cli` writes them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from wuzi.bus import topics
from wuzi.config.followers import FollowersSettings
from wuzi.venue.bridge import BRIDGED_LEVELS, bridge_topics, conf_value
from wuzi.venue.broker_config import MAX_PACKET_BYTES

__all__ = [
    "EDGE_TOPICS",
    "VIEWER_INFLIGHT",
    "VIEWER_QUEUE",
    "EdgeSettings",
    "FollowersFiles",
    "bridge_account",
    "bridge_client_id",
    "edge_conf",
    "followers_acls",
    "followers_bridge_conf",
    "followers_conf",
    "viewer_acl",
    "viewer_lines",
]

VIEWER_QUEUE = 200
"""Messages queued per viewer: a state message per table and its events, many times over;
a viewer further behind is dropped messages and catches up on the retained states."""
VIEWER_INFLIGHT = 20
MAX_KEEPALIVE_S = 300
"""An MQTT 5 viewer is told to keep alive within it, so a vanished phone frees its socket
(Mosquitto 2.0.11 still accepts an MQTT 3.1.1 client asking for more, or for none)."""
EDGE_TOPICS = tuple(f"{topics.ROOT}/{topics.PROTOCOL}/+/{level}/#" for level in BRIDGED_LEVELS)
"""What an edge pulls from the hub broker and gives its viewers: every venue's
public trees (``wuzi/v1/+/public/#``, ``wuzi/v1/+/competition/#``)."""
QOS = 1


def viewer_acl(patterns: tuple[str, ...], header: str) -> str:
    """An ``acl_file`` for the anonymous viewers: ``topic read`` of ``patterns``, nothing
    else (lines before any ``user`` line are Mosquitto's rules for anonymous clients)."""
    lines = [
        f"# {header}",
        "# Anonymous viewers read these trees and nothing else; they write nothing.",
        "# Do not add `user` lines above these: they would no longer be the anonymous rules.",
    ]
    lines += [f"topic read {pattern}" for pattern in patterns]
    return "\n".join(lines) + "\n"


def viewer_lines(port: int, bind: str | None, max_viewers: int, acl_file: str) -> list[str]:
    """The WebSockets listener of a public broker (``per_listener_settings true``: its
    own anonymous logins and ACL)."""
    return [
        "# The viewers: MQTT over WebSockets, anonymous, read only (the ACL file).",
        f"listener {port}" + (f" {bind}" if bind else ""),
        "protocol websockets",
        f"max_connections {max_viewers}",
        "allow_anonymous true",
        f"acl_file {acl_file}",
    ]


def _limits(header: list[str]) -> list[str]:
    return [
        *header,
        "",
        "# Many small readers: a bounded queue each, no sessions kept on disk.",
        "persistence false",
        f"max_queued_messages {VIEWER_QUEUE}",
        f"max_inflight_messages {VIEWER_INFLIGHT}",
        f"max_packet_size {MAX_PACKET_BYTES}",
        f"max_keepalive {MAX_KEEPALIVE_S}",
        "persistent_client_expiration 1h",
        "",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "connection_messages false",
        "",
    ]


# --- the venue's followers' broker --------------------------------------------------------


def bridge_account(venue_id: str) -> str:
    """The venue bridge's login on the followers' broker: ``wuzi-<venue>-followers``."""
    return f"wuzi-{topics.check_name('venue', venue_id)}-followers"


def bridge_client_id(venue_id: str, password: str) -> str:
    """The bridge's client id there: its account and 12 hex digits of its password's
    SHA-256, stable across runs and unknown to any viewer (module doc)."""
    digest = hashlib.sha256(f"client-id:{password}".encode()).hexdigest()[:12]
    return f"{bridge_account(venue_id)}-{digest}"


def followers_acls(venue_id: str) -> tuple[str, str]:
    """The followers' broker's two ACL files: the bridge's (write the two trees) and
    the viewers' (read them)."""
    trees = bridge_topics(venue_id)
    account = bridge_account(venue_id)
    bridge = [
        f"# The venue broker's bridge of {venue_id!r}: it writes the public trees, reads nothing.",
        f"user {account}",
        *(f"topic write {pattern}" for pattern in trees),
    ]
    viewers = viewer_acl(trees, f"The followers of venue {venue_id!r}.")
    return "\n".join(bridge) + "\n", viewers


@dataclass(frozen=True)
class FollowersFiles:
    """Where the followers' broker's files are, as its ``mosquitto.conf`` names them."""

    password_file: str
    bridge_acl_file: str
    viewer_acl_file: str


def followers_conf(venue_id: str, settings: FollowersSettings, files: FollowersFiles) -> str:
    """The followers' broker's ``mosquitto.conf`` (module doc)."""
    header = [
        f"# The followers' broker of venue {venue_id!r}, written by `wuzi venue broker-config`",
        "# from [followers] (docs/followers.md). Do not edit: change the venue file and run",
        "# the command again. It holds public/# and competition/# of the venue, nothing else.",
    ]
    lines = [
        *_limits(header),
        "per_listener_settings true",
        "",
        "# The venue broker's bridge, from this machine only, with its password.",
        f"listener {settings.local_port} 127.0.0.1",
        "max_connections 4",
        "allow_anonymous false",
        f"password_file {files.password_file}",
        f"acl_file {files.bridge_acl_file}",
        "",
        *viewer_lines(
            settings.websockets_port,
            settings.websockets_bind,
            settings.max_viewers,
            files.viewer_acl_file,
        ),
    ]
    return "\n".join(lines) + "\n"


def followers_bridge_conf(venue_id: str, settings: FollowersSettings, password: str) -> str:
    """The venue broker's ``connection`` block to its followers' broker: the two trees out
    only, on loopback (for ``DIR/conf.d/followers.conf``, mode 0640: it holds the password)."""
    account = bridge_account(venue_id)
    lines = [
        f"# Bridge of venue {venue_id} to its followers' broker: public/# and competition/#",
        "# out only (wuzi venue broker-config; docs/followers.md). Holds a password: 0640.",
        f"connection {account}",
        f"address 127.0.0.1:{settings.local_port}",
        *(f"topic {pattern} out {QOS}" for pattern in bridge_topics(venue_id)),
        "bridge_protocol_version mqttv311",
        f"remote_clientid {bridge_client_id(venue_id, password)}",
        f"remote_username {account}",
        f"remote_password {conf_value('followers bridge password', password)}",
        "cleansession true",  # its retained states are sent again at every connection
        "notifications false",
        "try_private true",
        "start_type automatic",
        "restart_timeout 1 10",
        "keepalive_interval 30",
    ]
    return "\n".join(lines) + "\n"


# --- an edge --------------------------------------------------------------------------------


@dataclass(frozen=True)
class EdgeSettings:
    """An edge broker: where it pulls from and what it offers viewers.

    ``upstream_*``: the hub broker (or a parent edge) and the edge's login there;
    ``mqtt_port``: a plain MQTT listener, anonymous and read only like the viewers', for
    edges pulling from this one (a tree of edges). Always there: Mosquitto 2.0 exits with
    "Unable to start any listening sockets" when its only listener is WebSockets."""

    name: str
    upstream_host: str
    upstream_port: int
    acl_file: str
    websockets_port: int = 9001
    websockets_bind: str | None = None
    max_viewers: int = 5000
    mqtt_port: int = 1883
    upstream_username: str | None = None
    upstream_password: str | None = None
    upstream_cafile: str | None = None


def edge_conf(settings: EdgeSettings) -> tuple[str, str]:
    """An edge's ``mosquitto.conf`` and its viewers' ACL (module doc): every listener
    anonymous and read only, the bridge pulling `EDGE_TOPICS` in."""
    name = conf_value("--name", settings.name)
    header = [
        f"# Public edge broker {name!r}, written by `wuzi venue edge-config` (docs/followers.md).",
        f"# It pulls every venue's public trees from {settings.upstream_host}:"
        f"{settings.upstream_port} and serves them to anonymous viewers, read only.",
    ]
    lines = [
        *_limits(header),
        "per_listener_settings true",
        "",
        *viewer_lines(
            settings.websockets_port,
            settings.websockets_bind,
            settings.max_viewers,
            settings.acl_file,
        ),
    ]
    lines += [
        "",
        "# Plain MQTT for edges that pull from this one: anonymous, read only too (and",
        "# Mosquitto 2.0 will not start with a WebSockets listener alone).",
        f"listener {settings.mqtt_port}"
        + (f" {settings.websockets_bind}" if settings.websockets_bind else ""),
        "allow_anonymous true",
        f"acl_file {settings.acl_file}",
    ]
    lines += [
        "",
        "# The bridge: an outgoing connection that pulls the public trees in, in only.",
        f"connection {name}",
        f"address {settings.upstream_host}:{settings.upstream_port}",
        *(f"topic {pattern} in {QOS}" for pattern in EDGE_TOPICS),
        "bridge_protocol_version mqttv311",
        f"remote_clientid {name}",
        "cleansession true",  # the retained states come again with each subscription
        "notifications false",
        # A bridge, not a plain client, to the upstream: a live message keeps its retain
        # flag (a plain subscriber gets it cleared), so the edge retains each table's
        # latest state for the viewers who arrive later (Mosquitto; EMQX's bridge mode).
        "try_private true",
        "start_type automatic",
        "restart_timeout 1 10",
        "keepalive_interval 30",
    ]
    if settings.upstream_username is not None:
        lines.append(f"remote_username {conf_value('--username', settings.upstream_username)}")
        if settings.upstream_password is not None:
            password = conf_value("--password-file", settings.upstream_password)
            lines.append(f"remote_password {password}")
    if settings.upstream_cafile is not None:
        lines += [
            f"bridge_cafile {conf_value('--cafile', settings.upstream_cafile)}",
            "bridge_tls_version tlsv1.2",
            "bridge_insecure false",
        ]
    acl = viewer_acl(EDGE_TOPICS, f"The viewers of edge {name!r}: every venue's public trees.")
    return "\n".join(lines) + "\n", acl
