"""The venue file's ``[broadcast]`` and ``[bridge]`` sections: the public feed's settings.

::

    [broadcast]
    id = "broadcast"              # the publisher's name: client id and broker account
                                  # wuzi.<venue>.broadcast.<id> (default "broadcast")
    delay_minutes = 15            # how far behind play the public feed runs (0-240; 15)
    journal = "broadcast.sqlite"  # the delay buffer's journal, relative to the venue file
                                  # (default: $STATE_DIRECTORY/broadcast.sqlite under
                                  # systemd, else broadcast.sqlite beside the venue file)

    [bridge]                      # optional: copy the public trees to an outside broker
    address = "mqtt.example.org:8883"    # host[:port] of the outside broker (port 1883,
                                         # 8883 with TLS)
    username = "venue-open2026"          # the bridge's login there (optional)
    password_file = "secrets/bridge.pass"  # its password (relative to the venue file)
    cafile = "/etc/wuzi/secrets/outside-ca.pem"  # TLS: the outside broker's CA (TLS on)
    tls = true                           # TLS with the system's CAs when no cafile
    name = "wuzi-open2026-public"        # the bridge connection's name (and client id)

Why here: the delay is a decision of the organisers made once for the venue and used by
every process that needs it (``wuzi broadcast`` publishes with it, ``wuzi web`` shows it);
the bridge belongs to the broker's configuration (``wuzi venue broker-config``,
`wuzi.venue.bridge`). Pure: the parsers take the TOML tables and raise `SectionError`
(key, problem); `wuzi.config.venue` turns that into a `ConfigError` naming the file.
This module imports nothing of `wuzi.config.venue`, so the venue parser can use it
(`VenueConfig.broadcast` and `VenueConfig.bridge`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wuzi.bus.topics import TopicError, check_name

__all__ = [
    "DEFAULT_DELAY_MINUTES",
    "DEFAULT_ID",
    "DEFAULT_JOURNAL",
    "MAX_DELAY_MINUTES",
    "BridgeSettings",
    "BroadcastSettings",
    "SectionError",
    "check_delay_minutes",
    "check_known_keys",
    "parse_bridge",
    "parse_broadcast",
]

DEFAULT_ID = "broadcast"
DEFAULT_DELAY_MINUTES = 15
MAX_DELAY_MINUTES = 240
DEFAULT_JOURNAL = "broadcast.sqlite"
_HOST = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]")
_CONNECTION = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class SectionError(ValueError):
    """A bad value in ``[broadcast]`` or ``[bridge]``: ``key`` (``broadcast.delay_minutes``)
    and what is wrong with it."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem


@dataclass(frozen=True)
class BroadcastSettings:
    """``[broadcast]`` as read; ``journal`` resolved against the venue file's folder."""

    id: str = DEFAULT_ID
    delay_minutes: float = DEFAULT_DELAY_MINUTES
    journal: str = DEFAULT_JOURNAL
    journal_given: bool = False  # the venue file names it (else a service's state folder wins)

    @property
    def delay_ms(self) -> int:
        return round(self.delay_minutes * 60_000)


@dataclass(frozen=True)
class BridgeSettings:
    """``[bridge]`` as read; ``password_file`` and ``cafile`` resolved like every path."""

    host: str
    port: int
    tls: bool
    name: str
    username: str | None = None
    password_file: str | None = None
    cafile: str | None = None


def check_delay_minutes(value: object, where: str) -> float:
    """A delay of 0-240 minutes (whole or not); `SectionError` naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SectionError(where, f"the delay must be a number of minutes, not {value!r}")
    if not 0 <= value <= MAX_DELAY_MINUTES:
        raise SectionError(where, f"the delay must be 0-{MAX_DELAY_MINUTES} minutes, not {value}")
    return float(value)


def _table(data: dict[str, Any], name: str, known: tuple[str, ...]) -> dict[str, Any] | None:
    table = data.get(name)
    if table is None:
        return None
    if not isinstance(table, dict):
        raise SectionError(name, f"expected a table ([{name}]), not {type(table).__name__}")
    check_known_keys(table, name, known)
    return table


def check_known_keys(table: dict[str, Any], where: str, known: tuple[str, ...]) -> None:
    """`SectionError` naming ``<where>.<key>`` for the first key of ``table`` not in
    ``known`` (a misspelt key is a setting silently not made), listing the known ones."""
    for key in table:
        if key not in known:
            raise SectionError(f"{where}.{key}", f"unknown key; known: {', '.join(known)}")


def _path(table: dict[str, Any], where: str, key: str, base_dir: Path | None) -> str | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise SectionError(f"{where}.{key}", f"must be a file path, not {value!r}")
    path = Path(value)
    if base_dir is not None and not path.is_absolute():
        path = base_dir / path
    return str(path)


def parse_broadcast(data: dict[str, Any], base_dir: Path | None = None) -> BroadcastSettings:
    """``[broadcast]`` of the venue file's parsed TOML ``data`` (defaults without one)."""
    table = _table(data, "broadcast", ("id", "delay_minutes", "journal")) or {}
    ident = table.get("id", DEFAULT_ID)
    try:
        check_name("broadcast id", ident)
    except TopicError as exc:
        raise SectionError("broadcast.id", str(exc)) from None
    delay = check_delay_minutes(
        table.get("delay_minutes", DEFAULT_DELAY_MINUTES), "broadcast.delay_minutes"
    )
    journal = _path({"journal": DEFAULT_JOURNAL, **table}, "broadcast", "journal", base_dir)
    assert journal is not None
    given = "journal" in table
    return BroadcastSettings(id=ident, delay_minutes=delay, journal=journal, journal_given=given)


def parse_bridge(
    data: dict[str, Any], venue_id: str, base_dir: Path | None = None
) -> BridgeSettings | None:
    """``[bridge]`` of the parsed TOML ``data``, or None without one."""
    known = ("address", "username", "password_file", "cafile", "tls", "name")
    table = _table(data, "bridge", known)
    if table is None:
        return None
    address = table.get("address")
    if not isinstance(address, str) or not address.strip():
        raise SectionError("bridge.address", "missing: the outside broker's host[:port]")
    cafile = _path(table, "bridge", "cafile", base_dir)
    tls = table.get("tls", cafile is not None)
    if not isinstance(tls, bool):
        raise SectionError("bridge.tls", f"must be true or false, not {tls!r}")
    if cafile is not None and not tls:
        raise SectionError("bridge.tls", "is false, but a cafile is only for TLS")
    host, _, port_text = address.strip().rpartition(":")
    if not host or "]" in port_text:
        host, port_text = address.strip(), ""
    if not _HOST.fullmatch(host):
        raise SectionError("bridge.address", f"{host!r} is not a host name or address")
    port = 8883 if tls else 1883
    if port_text:
        if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            raise SectionError("bridge.address", f"port {port_text!r} is not 1-65535")
        port = int(port_text)
    name = table.get("name", f"wuzi-{venue_id}-public")
    if not isinstance(name, str) or not _CONNECTION.fullmatch(name):
        raise SectionError("bridge.name", f"{name!r}: use 1-64 letters, digits, '_', '.' or '-'")
    username = table.get("username")
    if username is not None and (
        not isinstance(username, str) or not username or any(c.isspace() for c in username)
    ):
        raise SectionError("bridge.username", f"{username!r} is not a user name")
    password_file = _path(table, "bridge", "password_file", base_dir)
    if password_file is not None and username is None:
        raise SectionError("bridge.password_file", "needs bridge.username")
    return BridgeSettings(host, port, tls, name, username, password_file, cafile)
