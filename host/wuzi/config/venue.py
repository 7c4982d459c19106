"""Read and check a venue TOML file: hosts, tables, ports or GPIO pins, broker, referees.

A venue file is written by hand on the morning of an event, often under pressure, so
every mistake is reported as a `ConfigError` that names the file and the exact key path
(``venue.toml: hosts[1].tables[0].number: 4 is already used by hosts[0].tables[2]``),
unknown keys included (with a "did you mean" for typos). Parsing is pure: `parse_venue`
never touches the disk; `load_venue` only reads the one file. Paths inside the config
(password files, CA certificates, token files) are kept as given, or made relative to
the config's directory when ``base_dir`` is passed; they are read by whoever uses them.
The game defaults are checked with the real parsers of the rules and clock packages, so
a venue file that loads is one the hosts can run.
"""

from __future__ import annotations

import datetime
import difflib
import json
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wuzi.base.files import VENUE_FILE, FileError, read_bytes
from wuzi.base.text import TextError, check_text
from wuzi.bus.url import BusConfigError, parse_broker_url
from wuzi.clock.control import TimeControl, parse_control
from wuzi.config.broadcast import (
    BridgeSettings,
    BroadcastSettings,
    SectionError,
    parse_bridge,
    parse_broadcast,
)
from wuzi.config.events import MAX_MIRRORING_GRACE_S, EventConfig, GameDefaults, parse_tables
from wuzi.config.followers import FollowersSettings, parse_followers
from wuzi.config.halls import HallConfig, parse_halls
from wuzi.config.links import CentralSettings, LinkConfig, parse_central, parse_links
from wuzi.rules.openings import make_procedure
from wuzi.rules.ruleset import RuleSet

__all__ = [
    "MAX_GPIO_PIN",
    "MAX_TABLE_NUMBER",
    "BrokerConfig",
    "ConfigError",
    "EventConfig",
    "GameDefaults",
    "GpioClockPins",
    "HostConfig",
    "LinkConfig",
    "RefereeConfig",
    "ScreensConfig",
    "TableConfig",
    "VenueConfig",
    "load_venue",
    "parse_venue",
]

MAX_TABLE_NUMBER = 999
MAX_GPIO_PIN = 27  # BCM numbering: the Raspberry Pi header has GPIO 0..27

_ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?")
_SERIAL_URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+")
_REFEREE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A referee's name travels in every signed command (``wuzi.bus.schemas`` ids), so it
must fit there; no ``:`` either, as it is the referee's broker user name."""
_PASSWORD_HASH = re.compile(r"\$[A-Za-z0-9-]+\$\S+")
_DEVICE_SERIAL = re.compile(r"[0-9A-Z][0-9A-Z-]{0,15}")
"""A device serial: 16 upper-case hex digits (the RP2040's unique id, as its USB serial
string and its INFO say it), or an upper-case name of at most 16 (a simulator's
``SIM-0001``): what INFO's serial field holds (``wire.SERIAL_LEN``)."""
_GPIO_KEYS = ("black_button", "white_button", "claim_button", "clk", "dio")


SECTIONS = ("venue", "broker", "hosts", "director", "events", "screens", "referees", "defaults")
"""The venue file's own tables; ``[broadcast]`` and ``[bridge]`` are read by
`wuzi.config.broadcast`, ``[[links]]`` and ``[central]`` by `wuzi.config.links`,
``[followers]`` by `wuzi.config.followers`."""


class ConfigError(ValueError):
    """A venue file that cannot be used; ``str()`` is ``source: key.path: problem``."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source = source
        self.key = key
        self.problem = problem
        super().__init__(f"{source}: {key}: {problem}" if key else f"{source}: {problem}")


@dataclass(frozen=True)
class BrokerConfig:
    """Where the MQTT broker is and how to log in; ``password`` never shows in repr."""

    url: str
    host: str
    port: int
    tls: bool
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    password_file: str | None = None
    ca_file: str | None = None


@dataclass(frozen=True)
class GpioClockPins:
    """A clock wired straight to the Pi's header: three buttons and one TM1637 display."""

    black_button: int
    white_button: int
    claim_button: int
    clk: int
    dio: int

    def pins(self) -> dict[str, int]:
        """Each role and its BCM pin number, in a fixed order."""
        return {key: getattr(self, key) for key in _GPIO_KEYS}


@dataclass(frozen=True)
class TableConfig:
    """One table: its number at the venue, its sensor board and its clock."""

    number: int
    board_port: str
    clock_port: str | None = None
    clock_gpio: GpioClockPins | None = None
    board_serial: str | None = None  # the serial the board must report (INFO, USB string)
    clock_serial: str | None = None  # the same for a clock unit on ``clock_port``


@dataclass(frozen=True)
class HostConfig:
    """One Raspberry Pi and the tables it serves; it logs in to the broker as its id, with
    the password in ``broker_password_file`` (None: the default ``secrets/<id>.pass``,
    see `wuzi.config.credentials`)."""

    id: str
    tables: tuple[TableConfig, ...]
    broker_password_file: str | None = None


@dataclass(frozen=True)
class RefereeConfig:
    """A referee allowed to send commands: exactly one of a password hash or a token file."""

    name: str
    password_hash: str | None = None
    token_file: str | None = None


@dataclass(frozen=True)
class ScreensConfig:
    """The screens of the venue, by name: ``live`` for the hall's live scoreboards and the
    table clock displays, ``public`` for public screens that may read only the delayed
    ``public/`` feed. Each name is one screen process with a broker account of its own
    (``wuzi.<venue>.screen.<name>``) and its password in ``secrets/screens/<name>.pass``
    (see `wuzi.config.credentials`): an account per screen, so that the broker can bind
    each connection to its account and no screen can push another off."""

    live: tuple[str, ...] = ()
    public: tuple[str, ...] = ()

    def kind_of(self, name: str) -> str | None:
        """``"live"``, ``"public"``, or None for a name the venue file does not list."""
        if name in self.live:
            return "live"
        return "public" if name in self.public else None


@dataclass(frozen=True)
class VenueConfig:
    """A whole venue. ``base_dir`` is the directory relative paths were resolved against
    (the venue file's, with `load_venue`), None when they were kept as written."""

    id: str
    name: str
    broker: BrokerConfig
    hosts: tuple[HostConfig, ...]
    director_id: str | None = None
    referees: tuple[RefereeConfig, ...] = ()
    defaults: GameDefaults = field(default_factory=GameDefaults)
    source: str = "venue.toml"
    director_database: str | None = None
    director_broker_password_file: str | None = None
    screens: ScreensConfig = ScreensConfig()
    broadcast: BroadcastSettings = field(default_factory=BroadcastSettings)
    bridge: BridgeSettings | None = None
    base_dir: str | None = None
    events: tuple[EventConfig, ...] = ()  # none: the venue runs one event, with [director]
    links: tuple[LinkConfig, ...] = ()  # tables linked to another venue's (issue 36)
    central: CentralSettings | None = None  # the broker linked venues meet at (with links)
    followers: FollowersSettings | None = None  # the viewers' broker (wuzi.config.followers)
    halls: tuple[HallConfig, ...] = ()  # a network event's halls (wuzi.config.halls)

    def venue_of_table(self, number: int) -> str:
        """The venue whose topics name table ``number``: its hall's in a network event,
        else this one's."""
        for hall in self.halls:
            if number in hall.tables:
                return hall.venue
        return self.id

    def hall_of_team(self, team: str) -> HallConfig | None:
        """The hall where ``team`` plays (a network event), None if it has none."""
        for hall in self.halls:
            if hall.team == team:
                return hall
        return None

    def link_of_table(self, number: int) -> LinkConfig | None:
        """The link table ``number`` plays a linked game on; None for a table of this
        hall only (every table of a venue without ``[[links]]``)."""
        for link in self.links:
            if link.table == number:
                return link
        return None

    def event(self, event_id: str) -> EventConfig:
        """The event of that id; KeyError naming the venue file and the ids it has."""
        for event in self.events:
            if event.id == event_id:
                return event
        known = ", ".join(e.id for e in self.events) or "none: the file has no [[events]]"
        raise KeyError(f"{self.source}: no event {event_id!r} (events: {known})")

    def event_of_table(self, number: int) -> EventConfig | None:
        """The event that plays on table ``number``; None for a spare table, or a venue
        of one event (no ``[[events]]``)."""
        for event in self.events:
            if event.has_table(number):
                return event
        return None

    def defaults_for(self, number: int) -> GameDefaults:
        """What table ``number`` plays when set up from the venue file: its event's
        defaults over the venue's."""
        event = self.event_of_table(number)
        return self.defaults if event is None else event.defaults.over(self.defaults)

    def tables(self) -> Iterator[TableConfig]:
        """Every table of the venue, host by host."""
        for host in self.hosts:
            yield from host.tables

    def host(self, host_id: str) -> HostConfig:
        for host in self.hosts:
            if host.id == host_id:
                return host
        raise KeyError(f"{self.source}: no host {host_id!r}")

    def table(self, number: int) -> TableConfig:
        return self._find_table(number)[1]

    def host_of_table(self, number: int) -> HostConfig:
        return self._find_table(number)[0]

    def _find_table(self, number: int) -> tuple[HostConfig, TableConfig]:
        for host in self.hosts:
            for table in host.tables:
                if table.number == number:
                    return host, table
        raise KeyError(f"{self.source}: no table {number!r}")


def load_venue(path: str | Path) -> VenueConfig:
    """Read and check the venue file at ``path``; relative paths inside it are taken
    relative to its directory."""
    where = Path(path)
    try:
        data = read_bytes(where, VENUE_FILE)  # a regular file of at most 1 MiB
    except FileError as exc:
        raise ConfigError(str(where), "", exc.problem) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(str(where), "", f"not UTF-8 text (byte {exc.start})") from None
    return parse_venue(text, source=str(where), base_dir=where.parent)


def parse_venue(
    text: str, source: str = "venue.toml", *, base_dir: str | Path | None = None
) -> VenueConfig:
    """Check the text of a venue file; every problem is a `ConfigError` naming the key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _syntax_error(source, str(exc)) from None
    except RecursionError:  # arrays or tables nested thousands deep
        raise ConfigError(source, "", "TOML syntax: nested too deeply for a venue file") from None
    except ValueError as exc:  # a number of over 4300 digits, a date such as 2026-02-30
        reason = str(exc).split(";")[0]
        raise ConfigError(source, "", f"TOML syntax: a value cannot be read: {reason}") from None
    return _Reader(source, None if base_dir is None else Path(base_dir)).venue(data)


def _syntax_error(source: str, message: str) -> ConfigError:
    m = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", message, re.DOTALL)
    if m:
        return ConfigError(
            source, f"line {m.group(2)}", f"TOML syntax: {m.group(1)} (column {m.group(3)})"
        )
    m = re.fullmatch(r"(.*) \(at end of document\)", message, re.DOTALL)
    if m:
        return ConfigError(source, "end of file", f"TOML syntax: {m.group(1)}")
    return ConfigError(source, "", f"TOML syntax: {message}")


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _key_name(key: str) -> str:
    """A key as TOML writes it: bare when it can be, else quoted (``"a.b"``, ``""``), so a
    key path in a message is never ambiguous."""
    if _BARE_KEY.fullmatch(key):
        return key
    return json.dumps(key, ensure_ascii=False)  # TOML's basic-string escapes are JSON's


def _kind(value: object) -> str:
    """What TOML calls the value's type, with an article, for 'found …' messages."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, datetime.datetime):
        return "a date-time"
    if isinstance(value, datetime.date):
        return "a date"
    if isinstance(value, datetime.time):
        return "a time"
    return type(value).__name__


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _found(value: object) -> str:
    if isinstance(value, (list, dict)):
        return _kind(value)
    return f"{_kind(value)} ({_show(value)})"


class _Reader:
    """Walks the parsed TOML, keeping the source name for the errors it raises."""

    def __init__(self, source: str, base_dir: Path | None) -> None:
        self.source = source
        self.base_dir = base_dir

    def error(self, key: str, problem: str) -> ConfigError:
        return ConfigError(self.source, key, problem)

    # --- generic helpers ------------------------------------------------------------

    def keys(self, table: dict[str, Any], path: str, allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                name = _key_name(key)
                where = f"{path}.{name}" if path else name
                close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                hint = (
                    f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(allowed)}"
                )
                raise self.error(where, f"unknown key{hint}")

    def section(self, data: dict[str, Any], key: str, required: bool) -> dict[str, Any] | None:
        value = data.get(key)
        if value is None:
            if required:
                raise self.error(key, f"missing; the file needs a [{key}] table")
            return None
        if not isinstance(value, dict):
            raise self.error(key, f"expected a table ([{key}]), found {_found(value)}")
        return value

    def array(self, data: dict[str, Any], path: str, key: str) -> list[dict[str, Any]]:
        where = f"{path}.{key}" if path else key
        value = data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.error(
                where, f"expected an array of tables ([[{key}]]), found {_found(value)}"
            )
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise self.error(f"{where}[{i}]", f"expected a table, found {_found(item)}")
        return value

    def text(self, table: dict[str, Any], path: str, key: str, required: bool = True) -> str | None:
        where = f"{path}.{key}"
        if key not in table:
            if required:
                raise self.error(where, "missing (a required key)")
            return None
        value = table[key]
        if not isinstance(value, str):
            raise self.error(where, f"expected a string, found {_found(value)}")
        if not value.strip():
            raise self.error(where, "must not be empty")
        if any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise self.error(where, "must not contain control characters")
        return value

    def required_text(self, table: dict[str, Any], path: str, key: str) -> str:
        value = self.text(table, path, key)
        assert value is not None
        return value

    def integer(self, table: dict[str, Any], path: str, key: str, low: int, high: int) -> int:
        where = f"{path}.{key}"
        if key not in table:
            raise self.error(where, "missing (a required key)")
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(where, f"expected an integer, found {_found(value)}")
        if not low <= value <= high:
            raise self.error(where, f"{_show(value)} is out of range {low}..{high}")
        return value

    def ident(self, table: dict[str, Any], path: str, key: str = "id") -> str:
        value = self.required_text(table, path, key)
        if not _ID.fullmatch(value):
            raise self.error(
                f"{path}.{key}",
                f"{_show(value)} is not topic-safe: use a-z, 0-9 and '-' (not first or last), "
                "at most 64 characters",
            )
        return value

    def path_value(self, table: dict[str, Any], path: str, key: str) -> str | None:
        value = self.text(table, path, key, required=False)
        if value is None or self.base_dir is None or Path(value).is_absolute():
            return value
        return str(self.base_dir / value)

    def port(self, table: dict[str, Any], path: str, key: str) -> str:
        value = self.required_text(table, path, key).strip()
        if value.startswith("/") or _SERIAL_URL.fullmatch(value):
            return value
        raise self.error(
            f"{path}.{key}",
            f"{_show(value)} is neither a device path (e.g. /dev/wuzi/board-3) nor a serial "
            "URL (e.g. socket://10.0.0.5:7000; a simulated device: sim://board/3)",
        )

    # --- the sections ---------------------------------------------------------------

    def venue(self, data: dict[str, Any]) -> VenueConfig:
        # [broadcast] and [bridge]: wuzi.config.broadcast; [[links]], [central]: .links
        self.keys(
            data, "", (*SECTIONS, "broadcast", "bridge", "links", "central", "followers", "halls")
        )
        venue = self.section(data, "venue", required=True)
        assert venue is not None
        self.keys(venue, "venue", ("id", "name"))
        venue_id = self.ident(venue, "venue")
        name = self.required_text(venue, "venue", "name")
        try:  # shown on every screen: no C1 or invisible format characters either
            check_text("venue.name", name, max_length=100)
        except TextError as exc:
            raise self.error("venue.name", exc.problem) from None
        broker = self.broker(data)
        own = self.hosts(data)
        try:  # wuzi.config.halls: a network event's halls, as the director sees them
            own_tables = {t.number: h.id for h in own for t in h.tables}
            halls = parse_halls(data, venue_id, own_tables)
        except SectionError as exc:
            raise self.error(exc.key, exc.problem) from None
        hosts = own + tuple(
            HostConfig(hall.host, tuple(TableConfig(n, "") for n in hall.tables)) for hall in halls
        )
        director_id, database, director_password_file = self.director(data, hosts)
        events = self.events(data, hosts, director_id)
        screens = self.screens(data)
        referees = self.referees(data)
        defaults = self.defaults(data)
        try:  # wuzi.config.broadcast: the public feed's delay, the bridge
            broadcast = parse_broadcast(data, self.base_dir)
            bridge = parse_bridge(data, venue_id, self.base_dir)
            served = {table.number: host.id for host in own for table in host.tables}
            links = parse_links(data, venue_id, served)
            central = parse_central(data, venue_id, bool(links), self.base_dir)
            followers = parse_followers(data, broker.host)
        except SectionError as exc:
            raise self.error(exc.key, exc.problem) from None
        return VenueConfig(
            id=venue_id,
            name=name,
            broker=broker,
            hosts=hosts,
            director_id=director_id,
            referees=referees,
            defaults=defaults,
            source=self.source,
            director_database=database,
            director_broker_password_file=director_password_file,
            screens=screens,
            broadcast=broadcast,
            bridge=bridge,
            base_dir=None if self.base_dir is None else str(self.base_dir),
            events=events,
            links=links,
            central=central,
            followers=followers,
            halls=halls,
        )

    def broker(self, data: dict[str, Any]) -> BrokerConfig:
        table = self.section(data, "broker", required=True)
        assert table is not None
        self.keys(table, "broker", ("url", "username", "password", "password_file", "ca_file"))
        url = self.required_text(table, "broker", "url")
        try:
            address = parse_broker_url(url)
        except BusConfigError as exc:
            raise self.error("broker.url", str(exc)) from None
        except ValueError as exc:  # urllib's own complaints, e.g. an unclosed '[' of IPv6
            raise self.error("broker.url", f"broker URL {url!r}: {exc}") from None
        username = self.text(table, "broker", "username", required=False)
        password = self.text(table, "broker", "password", required=False)
        password_file = self.path_value(table, "broker", "password_file")
        ca_file = self.path_value(table, "broker", "ca_file")
        if password is not None and password_file is not None:
            raise self.error("broker.password_file", "give password or password_file, not both")
        if address.username is not None:
            if username is not None or password is not None or password_file is not None:
                raise self.error(
                    "broker.url", "has credentials in it and in the [broker] keys: give them once"
                )
            username, password = address.username, address.password
        if (password is not None or password_file is not None) and username is None:
            raise self.error("broker.username", "missing: a password needs a username")
        if ca_file is not None and not address.tls:
            raise self.error("broker.ca_file", "is only used with TLS: write the url as mqtts://")
        return BrokerConfig(
            url=url,
            host=address.host,
            port=address.port,
            tls=address.tls,
            username=username,
            password=password,
            password_file=password_file,
            ca_file=ca_file,
        )

    def hosts(self, data: dict[str, Any]) -> tuple[HostConfig, ...]:
        items = self.array(data, "", "hosts")
        if not items and "halls" in data:
            return ()  # a network event's director: its tables are the halls' ([[halls]])
        if not items:
            raise self.error("hosts", "missing; the file needs at least one [[hosts]] table")
        hosts: list[HostConfig] = []
        host_ids: dict[str, str] = {}
        table_numbers: dict[int, str] = {}
        for i, item in enumerate(items):
            path = f"hosts[{i}]"
            self.keys(item, path, ("id", "tables", "broker_password_file"))
            host_id = self.ident(item, path)
            if host_id in host_ids:
                raise self.error(
                    f"{path}.id", f"{host_id!r} is already used by {host_ids[host_id]}"
                )
            host_ids[host_id] = path
            tables = self.tables(item, path, table_numbers)
            password_file = self.path_value(item, path, "broker_password_file")
            hosts.append(HostConfig(host_id, tables, password_file))
        return tuple(hosts)

    def tables(
        self, host: dict[str, Any], host_path: str, numbers: dict[int, str]
    ) -> tuple[TableConfig, ...]:
        items = self.array(host, host_path, "tables")
        if not items:
            raise self.error(
                f"{host_path}.tables", "missing; a host serves at least one [[hosts.tables]]"
            )
        ports: dict[str, str] = {}
        pins: dict[int, str] = {}
        tables: list[TableConfig] = []
        for i, item in enumerate(items):
            path = f"{host_path}.tables[{i}]"
            self.keys(
                item,
                path,
                (
                    "number",
                    "board_port",
                    "board_serial",
                    "clock_port",
                    "clock_serial",
                    "clock_gpio",
                ),
            )
            number = self.integer(item, path, "number", 1, MAX_TABLE_NUMBER)
            if number in numbers:
                raise self.error(f"{path}.number", f"{number} is already used by {numbers[number]}")
            numbers[number] = path
            board_port = self.port(item, path, "board_port")
            self.claim_port(ports, board_port, f"{path}.board_port")
            clock_port: str | None = None
            clock_gpio: GpioClockPins | None = None
            if "clock_port" in item and "clock_gpio" in item:
                raise self.error(f"{path}.clock_gpio", "give clock_port or clock_gpio, not both")
            if "clock_port" in item:
                clock_port = self.port(item, path, "clock_port")
                self.claim_port(ports, clock_port, f"{path}.clock_port")
            elif "clock_gpio" in item:
                clock_gpio = self.gpio(item["clock_gpio"], f"{path}.clock_gpio", pins)
            else:
                raise self.error(
                    f"{path}.clock_port", "missing: give clock_port (a clock unit) or clock_gpio"
                )
            board_serial = self.device_serial(item, path, "board_serial")
            clock_serial = self.device_serial(item, path, "clock_serial")
            if clock_serial is not None and clock_port is None:
                raise self.error(f"{path}.clock_serial", "only with clock_port (a clock unit)")
            tables.append(
                TableConfig(number, board_port, clock_port, clock_gpio, board_serial, clock_serial)
            )
        return tuple(tables)

    def device_serial(self, table: dict[str, Any], path: str, key: str) -> str | None:
        value = self.text(table, path, key, required=False)
        if value is None or _DEVICE_SERIAL.fullmatch(value):
            return value
        hint = " (upper case, as the device reports it)" if value.upper() != value else ""
        raise self.error(
            f"{path}.{key}",
            f"{_show(value)} is not a device serial: 16 upper-case hex digits, as `wuzi board "
            f"list` prints it{hint}",
        )

    def claim_port(self, ports: dict[str, str], port: str, where: str) -> None:
        if port in ports:
            raise self.error(where, f"{port!r} is already used by {ports[port]}")
        ports[port] = where

    def gpio(self, value: object, path: str, pins: dict[int, str]) -> GpioClockPins:
        if not isinstance(value, dict):
            raise self.error(path, f"expected a table of pin numbers, found {_found(value)}")
        self.keys(value, path, _GPIO_KEYS)
        numbers: list[int] = []
        for key in _GPIO_KEYS:
            pin = self.integer(value, path, key, 0, MAX_GPIO_PIN)
            if pin in pins:
                raise self.error(f"{path}.{key}", f"pin {pin} is already used by {pins[pin]}")
            pins[pin] = f"{path}.{key}"
            numbers.append(pin)
        return GpioClockPins(*numbers)

    def director(
        self, data: dict[str, Any], hosts: tuple[HostConfig, ...]
    ) -> tuple[str | None, str | None, str | None]:
        """The director's id, database path and broker password file (each may be None)."""
        table = self.section(data, "director", required=False)
        if table is None:
            return None, None, None
        self.keys(table, "director", ("id", "database", "broker_password_file"))
        director_id = self.ident(table, "director")
        for i, host in enumerate(hosts):
            if host.id == director_id:
                raise self.error("director.id", f"{director_id!r} is already used by hosts[{i}]")
        database = self.path_value(table, "director", "database")
        password_file = self.path_value(table, "director", "broker_password_file")
        return director_id, database, password_file

    def events(
        self, data: dict[str, Any], hosts: tuple[HostConfig, ...], director_id: str | None
    ) -> tuple[EventConfig, ...]:
        """``[[events]]``: several events in one hall, each on tables of its own.

        A table must be one of the hosts' and belongs to at most one event (two claiming
        one is an error naming both ids and the table); ids and databases are unique, and
        an event's id is not a host's (it is its director's broker name). With events,
        ``[director] database`` is refused: each event's director runs its own."""
        items = self.array(data, "", "events")
        if not items:
            return ()
        if database_given := (data.get("director") or {}).get("database"):
            raise self.error(
                "director.database",
                f"{_show(database_given)}: with [[events]] each event names its own "
                "database (events[i].database) and has its own director "
                "(wuzi director --event ID)",
            )
        known = {table.number: host.id for host in hosts for table in host.tables}
        host_ids = {host.id for host in hosts}
        ids: dict[str, str] = {}
        databases: dict[str, str] = {}
        owners: dict[int, tuple[str, str]] = {}  # table -> (event id, its path)
        events: list[EventConfig] = []
        for i, item in enumerate(items):
            path = f"events[{i}]"
            self.keys(
                item,
                path,
                (
                    "id",
                    "name",
                    "database",
                    "tables",
                    "ruleset",
                    "opening",
                    "time_control",
                    "mirroring_grace_s",
                    "broker_password_file",
                ),
            )
            event_id = self.ident(item, path)
            if event_id in ids:
                raise self.error(f"{path}.id", f"{event_id!r} is already used by {ids[event_id]}")
            if event_id in host_ids:
                raise self.error(
                    f"{path}.id",
                    f"{event_id!r} is also a host's id: an event's id names its director's "
                    "broker account, so it must differ from every host's",
                )
            if director_id is not None and event_id == director_id:
                raise self.error(f"{path}.id", f"{event_id!r} is also [director] id")
            ids[event_id] = path
            name = self.required_text(item, path, "name")
            try:
                check_text(f"{path}.name", name, max_length=100)
            except TextError as exc:
                raise self.error(f"{path}.name", exc.problem) from None
            database = self.path_value(item, path, "database")
            if database is None:
                raise self.error(
                    f"{path}.database",
                    "missing: each event has its own competition database "
                    "(wuzi tournament --db FILE new … creates it)",
                )
            if database in databases:
                raise self.error(
                    f"{path}.database", f"{database!r} is already used by {databases[database]}"
                )
            databases[database] = path
            tables = self.event_tables(item, path, known)
            for number in tables:
                if number in owners:
                    other, other_path = owners[number]
                    raise self.error(
                        "events",
                        f"table {number} is claimed by two events, {other!r} ({other_path}) "
                        f"and {event_id!r} ({path}): a table belongs to one event at a time",
                    )
                owners[number] = (event_id, path)
            defaults = self.game_defaults(item, path)
            password_file = self.path_value(item, path, "broker_password_file")
            events.append(
                EventConfig(event_id, name, tables, database, defaults, password_file, path)
            )
        return tuple(events)

    def event_tables(
        self, item: dict[str, Any], path: str, known: dict[int, str]
    ) -> tuple[int, ...]:
        """An event's ``tables``: ``"1-12, 20"``, or an array of numbers; each a host's."""
        where = f"{path}.tables"
        if "tables" not in item:
            raise self.error(where, 'missing: the tables the event plays on, such as "1-12, 20"')
        value = item["tables"]
        if isinstance(value, list):
            if not all(type(n) is int for n in value):
                raise self.error(where, 'expected table numbers, such as [1, 2, 3] or "1-3"')
            value = ", ".join(str(n) for n in value)
        if not isinstance(value, str):
            raise self.error(where, f'expected ranges such as "1-12, 20", found {_found(value)}')
        try:
            tables = parse_tables(value, high=MAX_TABLE_NUMBER)
        except ValueError as exc:
            raise self.error(where, str(exc)) from None
        for number in tables:
            if number not in known:
                raise self.error(
                    where, f"table {number} is not served by any host (no [[hosts.tables]])"
                )
        return tables

    def screens(self, data: dict[str, Any]) -> ScreensConfig:
        """``[screens] live`` / ``public``: lists of screen names, unique across both.

        The old form (one shared ``user`` / ``public_user`` and their password files) is
        refused with what to write instead: with the broker binding each client id to its
        account, screens sharing one login would push each other off in a loop."""
        table = self.section(data, "screens", required=False)
        if table is None:
            return ScreensConfig()
        for old in ("user", "public_user", "broker_password_file", "public_broker_password_file"):
            if old in table:
                raise self.error(
                    f"screens.{old}",
                    "the screens no longer share a broker login: list each screen by name, "
                    'live = ["scoreboard-hall", ...] for the live scoreboards and clock '
                    'displays, public = ["foyer", ...] for delayed public screens; each gets '
                    "an account and the password file secrets/screens/<name>.pass of its own "
                    "(docs/security.md)",
                )
        self.keys(table, "screens", ("live", "public"))
        seen: dict[str, str] = {}
        found: dict[str, tuple[str, ...]] = {}
        for kind in ("live", "public"):
            value = table.get(kind, [])
            if not isinstance(value, list):
                raise self.error(
                    f"screens.{kind}", f"expected a list of screen names, found {_kind(value)}"
                )
            for i, name in enumerate(value):
                where = f"screens.{kind}[{i}]"
                if not isinstance(name, str):
                    raise self.error(where, f"expected a screen name, found {_kind(name)}")
                if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}", name):
                    raise self.error(
                        where,
                        f"{_show(name)} is not a screen name: use 1-64 of letters, digits, '_' "
                        "and '-', starting with a letter or digit",
                    )
                if name in seen:
                    raise self.error(where, f"{name!r} is already used by {seen[name]}")
                seen[name] = where
            found[kind] = tuple(value)
        return ScreensConfig(live=found["live"], public=found["public"])

    def referees(self, data: dict[str, Any]) -> tuple[RefereeConfig, ...]:
        referees: list[RefereeConfig] = []
        names: dict[str, str] = {}
        for i, item in enumerate(self.array(data, "", "referees")):
            path = f"referees[{i}]"
            self.keys(item, path, ("name", "password_hash", "token_file"))
            name = self.required_text(item, path, "name")
            if not _REFEREE_NAME.fullmatch(name):
                raise self.error(
                    f"{path}.name",
                    f"{name!r} cannot sign commands: use 1-64 of letters, digits, '_', '.' and "
                    "'-', starting with a letter or digit (it is also a broker user name)",
                )
            if name in names:
                raise self.error(f"{path}.name", f"{name!r} is already used by {names[name]}")
            names[name] = path
            password_hash = self.text(item, path, "password_hash", required=False)
            token_file = self.path_value(item, path, "token_file")
            if password_hash is not None and token_file is not None:
                raise self.error(f"{path}.token_file", "give password_hash or token_file, not both")
            if password_hash is None and token_file is None:
                raise self.error(
                    f"{path}.password_hash", "missing: a referee needs password_hash or token_file"
                )
            if password_hash is not None and not _PASSWORD_HASH.fullmatch(password_hash):
                raise self.error(
                    f"{path}.password_hash",
                    "is not a password hash (such as mosquitto_passwd's '$7$...'): "
                    "never write a plain password here",
                )
            referees.append(RefereeConfig(name, password_hash, token_file))
        return tuple(referees)

    def defaults(self, data: dict[str, Any]) -> GameDefaults:
        table = self.section(data, "defaults", required=False)
        if table is None:
            return GameDefaults()
        self.keys(table, "defaults", ("ruleset", "opening", "time_control", "mirroring_grace_s"))
        return self.game_defaults(table, "defaults")

    def game_defaults(self, table: dict[str, Any], path: str) -> GameDefaults:
        """``ruleset``, ``opening`` and ``time_control`` of ``[defaults]`` or an event,
        each checked with the rules' and the clock's own parsers."""
        ruleset_text = self.text(table, path, "ruleset", required=False)
        opening = self.text(table, path, "opening", required=False)
        control_text = self.text(table, path, "time_control", required=False)
        ruleset: RuleSet | None = None
        time_control: TimeControl | None = None
        # The rules and clock errors are ValueErrors that say what is wrong.
        if ruleset_text is not None:
            try:
                ruleset = RuleSet.parse(ruleset_text)
            except ValueError as exc:
                raise self.error(f"{path}.ruleset", str(exc)) from None
        if opening is not None:
            try:
                make_procedure(opening)
            except ValueError as exc:
                raise self.error(f"{path}.opening", str(exc)) from None
            opening = opening.strip()
        if control_text is not None:
            try:
                time_control = parse_control(control_text)
            except ValueError as exc:
                raise self.error(f"{path}.time_control", str(exc)) from None
        grace = table.get("mirroring_grace_s")
        if grace is not None and (
            isinstance(grace, bool)
            or not isinstance(grace, int | float)
            or not 0 <= grace <= MAX_MIRRORING_GRACE_S
        ):
            raise self.error(
                f"{path}.mirroring_grace_s",
                f"seconds a linked game's player may take to place the opponent's stone, "
                f"0-{MAX_MIRRORING_GRACE_S}, not {grace!r}",
            )
        return GameDefaults(ruleset, opening, time_control, grace)
