"""The venue file's ``[[links]]`` and ``[central]``: this venue's tables linked to tables
of another venue, and the central broker both halls meet at.

A linked game (issue 36) is one game with its two seats at tables of two halls: the 2021
final plays board 1 of team A in one city against board 1 of team B in another. Each
hall keeps its own broker; the two meet at a central broker through a Mosquitto bridge
(`wuzi.venue.links`), and only the linked tables' hall-line topics cross::

    [central]                             # the broker the halls meet at
    url = "mqtts://central.example.org:8883"
    username = "wuzi.hall-a.bridge.line"  # the bridge's login there (this default)
    password_file = "secrets/central/bridge.pass"  # its password (this default)
    ca_file = "/etc/wuzi/central-ca.pem"  # TLS: the central broker's CA (optional)
    name = "wuzi-hall-a-line"             # the bridge connection's name (this default)
    event = "final-2021"                  # a network event's hall: the event's venue id
                                          # (its games link tables per game, no [[links]])

    [[links]]
    table = 1                             # this venue's table (served by a host here)
    other_venue = "hall-b"                # the other venue's id
    other_table = 1                       # its table
    owner = "there"                       # who runs the game: "here", "there", or
                                          # the owner venue's id ("hall-a", "hall-b")
    id = "final-1"                        # optional: a topic level; by default
                                          # <owner venue>-<owner table>-<away venue>-<away table>

Both venue files describe the same link, each from its side; the default id is built from
the owner's and the away side's venue and table, so it is the same in both files without
being written. ``wuzi venue central-config`` checks that the two files agree.

The checks (each a `SectionError` naming the key; `wuzi.config.venue` adds the file): the
table is served by a host here; a table is linked at most once, and so is a table of the
other venue; the other venue is not this one; ids are unique and topic-safe; ``[central]``
is given exactly when there are links or the hall plays in a network event (``event``:
the director, on the event's venue, links its tables per game; `wuzi.venue.network`).
A venue without ``[[links]]`` or ``[central]`` is unchanged.

Pure: the parsers take the TOML tables; nothing here reads a file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from wuzi.bus.url import BusConfigError, parse_broker_url
from wuzi.config.broadcast import SectionError, check_known_keys

__all__ = [
    "CENTRAL_KEYS",
    "DEFAULT_CENTRAL_PASSWORD_FILE",
    "LINK_KEYS",
    "CentralSettings",
    "LinkConfig",
    "default_central_user",
    "default_link_id",
    "parse_central",
    "parse_links",
]

LINK_KEYS = ("id", "table", "other_venue", "other_table", "owner")
CENTRAL_KEYS = ("url", "username", "password_file", "ca_file", "name", "event")
DEFAULT_CENTRAL_PASSWORD_FILE = "secrets/central/bridge.pass"
"""The bridge's password at the central broker, relative to the venue file: a folder of its
own, so that it can never be a host's ``secrets/<id>.pass``."""
MAX_TABLE_NUMBER = 999  # as the venue file's tables
_ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?")  # the venue file's ids
_CONNECTION = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_USER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")


@dataclass(frozen=True)
class LinkConfig:
    """One ``[[links]]`` entry, seen from this venue (``venue``)."""

    id: str
    venue: str  # this venue's id
    table: int  # this venue's table
    other_venue: str
    other_table: int
    owner_here: bool  # this venue's host runs the game (rules, clock, journal, record)
    key: str = "links[0]"  # where it is in the venue file, for messages

    @property
    def role(self) -> Literal["owner", "away"]:
        """This venue's side of the game: the owner host's, or the away host's."""
        return "owner" if self.owner_here else "away"

    @property
    def owner_venue(self) -> str:
        return self.venue if self.owner_here else self.other_venue

    @property
    def away_venue(self) -> str:
        return self.other_venue if self.owner_here else self.venue

    @property
    def owner_table(self) -> int:
        return self.table if self.owner_here else self.other_table

    @property
    def away_table(self) -> int:
        return self.other_table if self.owner_here else self.table


@dataclass(frozen=True)
class CentralSettings:
    """``[central]`` as read: where the halls meet, and this hall's bridge login there."""

    url: str
    host: str
    port: int
    tls: bool
    username: str
    password_file: str
    name: str
    ca_file: str | None = None
    event: str | None = None  # a network event's venue id: its games link tables per game


def default_central_user(venue_id: str) -> str:
    """A hall's bridge login at the central broker by default, ``wuzi.<venue>.bridge.line``
    (also the name the event's central broker gives a network hall's bridge account)."""
    return f"wuzi.{venue_id}.bridge.line"


def default_link_id(owner_venue: str, owner_table: int, away_venue: str, away_table: int) -> str:
    """``<owner venue>-<owner table>-<away venue>-<away table>``: the same in both files."""
    return f"{owner_venue}-{owner_table}-{away_venue}-{away_table}"


def _ident(value: object, where: str, what: str) -> str:
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise SectionError(
            where,
            f"{value!r} is not {what}: use a-z, 0-9 and '-' (not first or last), at most 64 "
            "characters",
        )
    return value


def _table(item: dict[str, Any], where: str, key: str) -> int:
    if key not in item:
        raise SectionError(f"{where}.{key}", "missing (a required key)")
    value = item[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise SectionError(f"{where}.{key}", f"expected a table number, not {value!r}")
    if not 1 <= value <= MAX_TABLE_NUMBER:
        raise SectionError(f"{where}.{key}", f"{value} is out of range 1..{MAX_TABLE_NUMBER}")
    return value


def _owner(value: object, where: str, venue_id: str, other: str) -> bool:
    if value in ("here", venue_id):
        return True
    if value in ("there", other):
        return False
    raise SectionError(
        where,
        f'{value!r}: write "here" (this venue\'s host runs the game), "there" (the other '
        f'venue\'s does), or the owner venue\'s id ("{venue_id}" or "{other}")',
    )


def parse_links(
    data: dict[str, Any], venue_id: str, tables: dict[int, str]
) -> tuple[LinkConfig, ...]:
    """``[[links]]`` of the parsed TOML ``data``; ``tables`` maps each table number a
    host here serves to that host's id. Empty without ``[[links]]``."""
    items = data.get("links")
    if items is None:
        return ()
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise SectionError("links", "expected an array of tables ([[links]])")
    links: list[LinkConfig] = []
    ids: dict[str, str] = {}
    linked: dict[int, str] = {}
    theirs: dict[tuple[str, int], str] = {}
    for i, item in enumerate(items):
        where = f"links[{i}]"
        check_known_keys(item, where, LINK_KEYS)
        table = _table(item, where, "table")
        if table not in tables:
            raise SectionError(
                f"{where}.table", f"table {table} is not served by any host (no [[hosts.tables]])"
            )
        if table in linked:
            raise SectionError(
                f"{where}.table",
                f"table {table} is already linked by {linked[table]}: a table plays one "
                "linked game at a time",
            )
        if "other_venue" not in item:
            raise SectionError(f"{where}.other_venue", "missing: the other venue's id")
        other = _ident(item["other_venue"], f"{where}.other_venue", "a venue id")
        if other == venue_id:
            raise SectionError(
                f"{where}.other_venue",
                f"{other!r} is this venue: a link joins a table here to another venue's",
            )
        other_table = _table(item, where, "other_table")
        if (other, other_table) in theirs:
            raise SectionError(
                f"{where}.other_table",
                f"table {other_table} of {other} is already linked by {theirs[other, other_table]}",
            )
        if "owner" not in item:
            raise SectionError(
                f"{where}.owner", 'missing: "here" or "there" (which host runs the game)'
            )
        owner_here = _owner(item["owner"], f"{where}.owner", venue_id, other)
        if "id" in item:
            link_id = _ident(item["id"], f"{where}.id", "a link id")
        else:
            ends = ((venue_id, table), (other, other_table))
            (ov, ot), (av, at) = ends if owner_here else ends[::-1]
            link_id = default_link_id(ov, ot, av, at)
            if not _ID.fullmatch(link_id):
                raise SectionError(
                    f"{where}.id",
                    f"missing, and the default {link_id[:40]!r}... is longer than 64 "
                    "characters: give the link an id (the same in both venue files)",
                )
        if link_id in ids:
            raise SectionError(f"{where}.id", f"{link_id!r} is already used by {ids[link_id]}")
        ids[link_id] = where
        linked[table] = where
        theirs[other, other_table] = where
        links.append(LinkConfig(link_id, venue_id, table, other, other_table, owner_here, where))
    return tuple(links)


def _path(value: object, where: str, base_dir: Path | None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SectionError(where, f"must be a file path, not {value!r}")
    path = Path(value)
    if base_dir is not None and not path.is_absolute():
        path = base_dir / path
    return str(path)


def parse_central(
    data: dict[str, Any], venue_id: str, has_links: bool, base_dir: Path | None = None
) -> CentralSettings | None:
    """``[central]`` of the parsed TOML ``data``: required with ``[[links]]``, refused
    without (a section nothing uses is a mistake waiting to be trusted)."""
    table = data.get("central")
    if table is None:
        if has_links:
            raise SectionError(
                "central",
                "missing: [[links]] meet the other venue through a central broker; add "
                '[central] with its url (url = "mqtts://central.example.org:8883")',
            )
        return None
    if not isinstance(table, dict):
        raise SectionError("central", "expected a table ([central])")
    check_known_keys(table, "central", CENTRAL_KEYS)
    event = _network_event(table.get("event"), venue_id)
    if has_links and event is not None:
        raise SectionError(
            "central.event",
            "a network event's hall links its tables per game (the director's "
            "assignments): remove [[links]], or central.event for fixed links",
        )
    if not has_links and event is None:
        raise SectionError(
            "central",
            "is only for [[links]] or a network event's hall (central.event): the file "
            "links no table",
        )
    url = table.get("url")
    if not isinstance(url, str) or not url.strip():
        raise SectionError("central.url", "missing: the central broker's mqtt:// or mqtts:// url")
    try:
        address = parse_broker_url(url)
    except (BusConfigError, ValueError) as exc:
        raise SectionError("central.url", str(exc)) from None
    if address.username is not None:
        raise SectionError(
            "central.url",
            "has a login in it: give central.username and central.password_file instead",
        )
    username = table.get("username", default_central_user(venue_id))
    if not isinstance(username, str) or not _USER.fullmatch(username):
        raise SectionError(
            "central.username",
            f"{username!r}: use 1-128 letters, digits, '_', '.' or '-' (it is also the "
            "bridge's client id there)",
        )
    password_file = _path(
        table.get("password_file", DEFAULT_CENTRAL_PASSWORD_FILE),
        "central.password_file",
        base_dir,
    )
    ca_file = None
    if "ca_file" in table:
        if not address.tls:
            raise SectionError(
                "central.ca_file", "is only used with TLS: write the url as mqtts://"
            )
        ca_file = _path(table["ca_file"], "central.ca_file", base_dir)
    name = table.get("name", f"wuzi-{venue_id}-line")
    if not isinstance(name, str) or not _CONNECTION.fullmatch(name):
        raise SectionError("central.name", f"{name!r}: use 1-64 letters, digits, '_', '.' or '-'")
    return CentralSettings(
        url=url,
        host=address.host,
        port=address.port,
        tls=address.tls,
        username=username,
        password_file=password_file,
        name=name,
        ca_file=ca_file,
        event=event,
    )


def _network_event(value: object, venue_id: str) -> str | None:
    """``[central] event``: the network event's venue id (its organisers' venue file's
    ``[venue] id``, the venue of the director and its central broker), or None."""
    if value is None:
        return None
    if not isinstance(value, str) or not _ID.fullmatch(value):
        raise SectionError(
            "central.event",
            f"{value!r}: the network event's venue id (its organisers' [venue] id)",
        )
    if value == venue_id:
        raise SectionError(
            "central.event", f"{value!r} is this hall's own venue id: name the event's venue"
        )
    return value
