"""MQTT client ids: one scheme for every Wuzi process, unique across venues.

A broker allows one connection per client id: a second CONNECT with the same id takes
the session over and drops the first. Two processes that share an id therefore knock
each other off in a loop, each reconnecting and evicting the other. The old ids
(``wuzi-host-<id>``) left the venue out, so two venues' hosts named ``pi-1`` on one
shared broker did exactly that. Every id is now built here::

    wuzi.<venue>.<role>.<name>          e.g. wuzi.open2026.host.pi-1

The separator ``.`` cannot occur in a venue, role or name (`wuzi.bus.topics.check_name`
allows letters, digits, ``_`` and ``-``), so distinct (venue, role, name) give distinct ids:
no venue or host id can be chosen to spell another process's id.

A throwaway connection (``wuzi venue check``, ``wuzi referee send``, a screen that has not
learned its venue yet) gets `throwaway_client_id`: its name starts with ``~`` followed by
random hex, a character no real name may have, so it can never take over a real
process's session, whatever the venue file says.

Length: MQTT 3.1 brokers had to accept only 1-23 bytes; MQTT 3.1.1 (what `BusClient`
speaks) lets a broker accept more, and Mosquitto 2 accepts any id that fits in a packet
(our ``max_packet_size`` is above 64 KiB) for 3.1.1 and 5 clients. Venue and host ids are
up to 64 characters, so a readable id cannot fit 23 bytes; the ids stay readable (the
broker's log names the process) and are held to `MAX_CLIENT_ID_BYTES`, far below any
limit of the brokers we support. Pure: no I/O except `machine_name` (the host name).

Binding an id to its broker account: Mosquitto 2.0 with a password file and an ACL file
(the account scheme of ``wuzi venue broker-config``) cannot refuse a CONNECT whose client
id does not belong to the user: ACL ``pattern`` lines with ``%c``/``%u`` restrict topics,
not the id, and they are checked only on publish/subscribe, after the takeover has
happened; ``use_username_as_clientid`` would force one connection per account (the
director has two, the screens share one account); ``clientid_prefixes`` is one global
prefix. Only the dynamic-security plugin binds an id to a client, and it replaces the
password and ACL files. So the binding is by construction (each account's processes use
ids under their own venue and role), and `role_of` lets tools check an id seen in the
broker's log.
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
        "director",  # name: the director id (its persistent session for events, commands)
        "director-live",  # name: the director id (its clean session for retained states)
        "screen",  # name: the screen's kind and machine, e.g. scoreboard-hall-pi3
        "referee",  # name: a referee view's machine, or a throwaway (wuzi referee send)
        "check",  # preflight (wuzi venue check): always a throwaway
        "tool",  # observers, benches, tests
    }
)

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


def _checked(venue: str, what: str, name: str) -> None:
    try:
        check_name("venue", venue)
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
    QoS 1 messages) under this id, and a restarted process must find it again. Raises
    `BusConfigError` (a ValueError) naming the part that is not a valid name."""
    _check_role(role)
    _checked(venue_id, f"{role} name", name)
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
    parts = value.split(SEPARATOR)
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
        _checked(venue, f"{role} name", name)
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
