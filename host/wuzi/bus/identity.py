"""MQTT client ids and broker accounts: one name per connection, unique across venues.

A broker allows one connection per client id: a second CONNECT with the same id takes
the session over and drops the first (and a takeover with a clean session also throws
away the messages queued in the old one). So every Wuzi connection has a name of its own,
built here::

    wuzi.<venue>.<role>.<name>          e.g. wuzi.open2026.host.pi-1

and that name is at once the connection's **client id and its broker account**. The
broker written by ``wuzi venue broker-config`` sets ``use_username_as_clientid true``:
Mosquitto then ignores the client id a client sends and uses its user name instead, so a
login can only ever take over its own account's session — pi-1's password cannot knock
the director off, the public screens' password cannot end a host's session. Each
connection therefore has an account of its own: the director's two connections
(``director`` and ``director-live``), every screen machine, a referee's view and a
referee's one-shot sender (``referee`` and ``referee-send``), and ``wuzi venue check``'s
login for each host (``check``), which never touches the running host's session.
`wuzi.config.credentials` says which account each process uses; a process without a
password of its own (the demo's broker) connects anonymously under the same id, so the
ids are the same on every broker.

The separator ``.`` cannot occur in a venue or a role, so the first three dots are
unambiguous and distinct (venue, role, name) give distinct ids: no venue, host, screen
or referee name can be chosen to spell another process's id. Names are
`wuzi.bus.topics.check_name` names (letters, digits, ``_`` and ``-``), except a referee's
(``referee``, ``referee-send``), which may also hold ``.`` as referee names may
(`wuzi.config.venue`); dots in a user name are fine for Mosquitto's password file and ACL.

A throwaway connection (a tool, a screen that has not learned its venue yet, a read-only
arbiter view) gets `throwaway_client_id`: its name starts with ``~`` followed by random
hex, a character no real name may have, so it can never take over a real process's
session, whatever the venue file says. Throwaways have no broker account: they are for
the demo's anonymous broker (or a login given in the broker URL).

Length: MQTT 3.1 brokers had to accept only 1-23 bytes; MQTT 3.1.1 (what `BusClient`
speaks) lets a broker accept more, and Mosquitto 2 accepts any id that fits in a packet
(our ``max_packet_size`` is above 64 KiB) for 3.1.1 and 5 clients. Venue and host ids are
up to 64 characters, so a readable id cannot fit 23 bytes; the ids stay readable (the
broker's log names the process) and are held to `MAX_CLIENT_ID_BYTES`, far below any
limit of the brokers we support. Pure: no I/O except `machine_name` (the host name).
"""

from __future__ import annotations

import re
import secrets
import socket
from typing import NamedTuple

from wuzi.bus.topics import TopicError, check_name
from wuzi.bus.url import BusConfigError

__all__ = [
    "MAX_CLIENT_ID_BYTES",
    "PREFIX",
    "REFEREE_ROLES",
    "ROLES",
    "ClientIdentity",
    "client_id",
    "machine_name",
    "parse_client_id",
    "throwaway_client_id",
]

PREFIX = "wuzi"
SEPARATOR = "."
THROWAWAY_MARK = "~"
MAX_CLIENT_ID_BYTES = 200
"""Above the longest id the scheme builds (4 + 64 + 13 + 64 + 3 separators), far below
Mosquitto's limit (the packet size)."""

ROLES = frozenset(
    {
        "host",  # name: the host id
        "director",  # name: the director id, or its event's (its persistent session)
        "director-live",  # name: the same (its clean session for retained states)
        "screen",  # name: the screen's name in [screens], e.g. scoreboard-hall-pi3
        "referee",  # name: the referee's name (their arbiter view), or a throwaway
        "referee-send",  # name: the referee's name (wuzi referee send --broker)
        "check",  # name: the host id (wuzi venue check's login for that host)
        "tool",  # observers, benches, tests: always a throwaway
        "broadcast",  # name: [broadcast] id (the one publisher of the delayed public feed)
    }
)

REFEREE_ROLES = frozenset({"referee", "referee-send"})
"""Roles whose name is a referee's name, which may also hold ``.``."""
_REFEREE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_MACHINE = re.compile(r"[^A-Za-z0-9_-]+")


class ClientIdentity(NamedTuple):
    """What an id built by `client_id` or `throwaway_client_id` says (``name`` may be a
    throwaway, ``venue`` ``~`` for a throwaway that did not know its venue)."""

    venue: str
    role: str
    name: str


def _check_role(role: str) -> str:
    if role not in ROLES:
        raise BusConfigError(f"client role must be one of {', '.join(sorted(ROLES))}, not {role!r}")
    return role


def _checked(venue: str, what: str, name: str, role: str = "") -> None:
    try:
        check_name("venue", venue)
        if role in REFEREE_ROLES:
            if not _REFEREE_NAME.fullmatch(name):
                raise TopicError(
                    f"{what} must be 1-64 letters, digits, '_', '.' or '-' (starting with a "
                    f"letter or digit), not {name!r}"
                )
        else:
            check_name(what, name)
    except TopicError as exc:
        raise BusConfigError(f"cannot build an MQTT client id: {exc}") from None


def _joined(venue: str, role: str, name: str) -> str:
    built = SEPARATOR.join((PREFIX, venue, role, name))
    size = len(built.encode("utf-8"))
    if size > MAX_CLIENT_ID_BYTES:  # pragma: no cover - names are at most 64 characters
        raise BusConfigError(f"client id {built!r} is {size} bytes, over {MAX_CLIENT_ID_BYTES}")
    return built


def client_id(venue_id: str, role: str, name: str) -> str:
    """The stable client id of the process ``name`` of ``role`` at venue ``venue_id``.

    Stable on purpose: the broker keeps a persistent session (subscriptions and queued
    QoS 1 messages) under this id, and a restarted process must find it again. It is also
    the name of the process's broker account (see the module doc). Raises
    `BusConfigError` (a ValueError) naming the part that is not a valid name."""
    _check_role(role)
    _checked(venue_id, f"{role} name", name, role)
    return _joined(venue_id, role, name)


def throwaway_client_id(venue_id: str | None, role: str) -> str:
    """A fresh random id for a short-lived clean-session connection.

    Its name is ``~`` and 16 random hex digits: ``~`` is not allowed in a real name, so this
    id can never be one a real process uses (and 64 random bits make two throwaways
    colliding negligible). ``venue_id`` None (not known yet) is spelt ``~``."""
    _check_role(role)
    venue = THROWAWAY_MARK if venue_id is None else venue_id
    if venue_id is not None:
        _checked(venue_id, "name", "x")
    return _joined(venue, role, THROWAWAY_MARK + secrets.token_hex(8))


def parse_client_id(value: str) -> ClientIdentity:
    """(venue, role, name) of an id of this scheme; `BusConfigError` for any other id."""
    parts = value.split(SEPARATOR, 3)
    if len(parts) != 4 or parts[0] != PREFIX:
        raise BusConfigError(f"client id {value!r} is not of the form wuzi.<venue>.<role>.<name>")
    _, venue, role, name = parts
    _check_role(role)
    if name.startswith(THROWAWAY_MARK):
        if not re.fullmatch(r"~[0-9a-f]{16}", name) or not (
            venue == THROWAWAY_MARK or _is_name(venue)
        ):
            raise BusConfigError(f"client id {value!r}: malformed throwaway id")
    else:
        _checked(venue, f"{role} name", name, role)
    return ClientIdentity(venue, role, name)


def _is_name(value: str) -> bool:
    try:
        check_name("name", value)
    except TopicError:
        return False
    return True


def machine_name(hostname: str | None = None) -> str:
    """This machine's name as a client-id part: the host name's first label with anything
    but letters, digits, ``_`` and ``-`` replaced by ``-``, cut to 40 characters (so that
    ``<screen kind>-<machine>`` stays a valid name). ``hostname`` is for tests."""
    raw = (hostname if hostname is not None else socket.gethostname()).split(".")[0]
    cleaned = _MACHINE.sub("-", raw).strip("-_")[:40].strip("-_")
    return cleaned or "unnamed"
