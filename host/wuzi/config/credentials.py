"""Who each connection of the venue is on the broker, and where its password comes from.

One broker account per connection (`wuzi.bus.identity`): the account's name is the
connection's client id, ``wuzi.<venue>.<role>.<name>``, and the broker written by ``wuzi
venue broker-config`` binds the two (``use_username_as_clientid``), so a login can only
ever take over its own account's session. The accounts (`broker_users`):

==================  =====================================  ================================
role                account                                password
==================  =====================================  ================================
``host``            ``wuzi.<venue>.host.<host id>``        the host's password file
``check``           ``wuzi.<venue>.check.<host id>``       the same file (``wuzi venue
                                                           check``: never kicks the host)
``director``        ``wuzi.<venue>.director.<id>``         the director's password file
``director-live``   ``wuzi.<venue>.director-live.<id>``    the same file
``director``        ``wuzi.<venue>.director.<event>``      with ``[[events]]``, one per
                    and ``director-live.<event>``          event: the event's file
``broadcast``       ``wuzi.<venue>.broadcast.<id>``        ``secrets/broadcast/<id>.pass``
                    (``[broadcast] id``, default
                    ``broadcast``)
``screen``          ``wuzi.<venue>.screen.<name>``         ``secrets/screens/<name>.pass``
``screen-public``   ``wuzi.<venue>.screen.<name>``         ``secrets/screens/<name>.pass``
``referee``         ``wuzi.<venue>.referee.<name>``        the token or the password
``referee-send``    ``wuzi.<venue>.referee-send.<name>``   the same
==================  =====================================  ================================

One process with two connections (the director), or two programs of one person (a
referee's view and ``wuzi referee send``), share one secret: a second account is not a
second secret, only a second session, so that the two never push each other off. A
second password would sit beside the first on the same machine and protect nothing more.

A host's and the director's password file is the one the venue file names (``[[hosts]]
broker_password_file``, ``[director] broker_password_file``) or, by default,
``secrets/<id>.pass`` next to the venue file; a screen's is ``secrets/screens/<name>.pass``.

A venue file with ``[[events]]`` has no venue-wide director: each event has its own
(``wuzi director --event ID``), whose two accounts are named by the event's id and whose
password file is the event's ``broker_password_file`` or, by default,
``secrets/events/<event>.pass`` — a folder of its own, so that an event's default file
can never be a host's (``secrets/<id>.pass``) or a screen's. `director_account` gives a
director its two logins by event.
A referee's broker password is their signing secret: the password behind their
``password_hash``, or the contents of their ``token_file`` (docs/referee.md).

`login` says which password a process uses and where it came from (`Login.source`, which
every process logs at start):

* a named file that is missing or unreadable is a `CredentialError` naming the key and
  the file — never a silent fallback;
* the default file, when it exists;
* else the shared ``[broker] username`` / ``password`` / ``password_file`` (or the URL's),
  for a broker not made by ``broker-config``;
* else nothing at all: anonymous, for a broker without accounts such as the demo's.

`broker_users`, `broker_user` and `client_id_of` are pure; `login` reads one file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from wuzi.base.files import SECRET_FILE, FileError, read_bytes
from wuzi.bus.auth import AuthError, hash_key, read_token_file
from wuzi.bus.identity import client_id
from wuzi.config.links import default_central_user
from wuzi.config.venue import ConfigError, VenueConfig

__all__ = [
    "DEFAULT_DIRECTOR_ID",
    "DEFAULT_SECRETS_DIR",
    "EVENTS_SECRETS_DIR",
    "HALLS_SECRETS_DIR",
    "ROLES",
    "BrokerUser",
    "CredentialError",
    "DirectorAccount",
    "Login",
    "Role",
    "broker_login",
    "broker_user",
    "broker_users",
    "client_id_of",
    "default_secret_file",
    "director_account",
    "login",
    "read_secret_file",
    "referee_keys",
    "secrets_dir",
    "shared_login",
]

Role = Literal[
    "host",
    "check",
    "director",
    "director-live",
    "screen",
    "screen-public",
    "referee",
    "referee-send",
    "broadcast",
    "hall-bridge",
]
ROLES: tuple[Role, ...] = get_args(Role)
"""Every role, in the order the venue file's accounts are listed."""
_HOST_ROLES: tuple[Role, ...] = ("host", "check")
_DIRECTOR_ROLES: tuple[Role, ...] = ("director", "director-live")
_REFEREE_ROLES: tuple[Role, ...] = ("referee", "referee-send")
_ID_ROLE: dict[Role, str] = {"screen-public": "screen"}
"""The client-id role of an account role, where they differ (a public screen is a screen)."""
DEFAULT_SECRETS_DIR = "secrets"
"""Where the per-process password files are by default, relative to the venue file."""
SCREENS_SECRETS_DIR = "screens"
"""The screens' password files' folder inside `DEFAULT_SECRETS_DIR` (their names cannot
then clash with a host's or the director's file)."""
EVENTS_SECRETS_DIR = "events"
"""The event directors' password files' folder inside `DEFAULT_SECRETS_DIR`
(``secrets/events/<event>.pass``: never a host's ``secrets/<id>.pass``)."""
HALLS_SECRETS_DIR = "halls"
"""A network event's halls' bridge passwords inside `DEFAULT_SECRETS_DIR`
(``secrets/halls/<hall venue>.pass``: the hall's ``[central] password_file``)."""
DEFAULT_DIRECTOR_ID = "director"
"""The director's id when the venue file has no ``[director]`` section."""
MAX_SECRET_BYTES = SECRET_FILE.max_bytes


class CredentialError(ConfigError):
    """A broker login that cannot be made: a password file that cannot be read, a role
    or an id the venue file does not know, two accounts with one name. Like every
    `ConfigError` it names the key of the venue file concerned; never the secret."""


@dataclass(frozen=True)
class BrokerUser:
    """One broker account of the venue.

    ``name`` is the account and the connection's client id; ``ident`` the process's own
    name (host id, director id, screen name, referee name). ``secret_file`` is the
    password file (host, check, director, screens) or the referee's ``token_file``; None
    for a referee who signs with a ``password_hash`` (the broker's password file then
    carries that hash as it is). ``explicit`` says whether the venue file named the file
    (else it is the default). ``key`` is the venue-file key the secret belongs to, for
    messages; accounts sharing a secret share the key.
    """

    name: str
    role: Role
    ident: str
    key: str
    secret_file: str | None
    explicit: bool
    password_hash: str | None = None
    tables: tuple[int, ...] = ()  # a host's (and its check account's) or an event's tables
    event: str | None = None  # an event director's event (its ``ident`` too)


@dataclass(frozen=True)
class Login:
    """How one connection logs in: pass ``client_id``, ``username`` and ``password`` to
    `wuzi.bus.client.BusClient` and log ``source`` (it names the file, never the secret).

    ``username`` None is an anonymous login; ``password`` None with a user is a referee
    whose password is typed, never stored."""

    client_id: str
    username: str | None
    password: str | None
    source: str

    def describe(self) -> str:
        """``client id X as broker user U (password from …)``, for the start-up log."""
        if self.username is None:
            return f"client id {self.client_id}, anonymous ({self.source})"
        return f"client id {self.client_id} as broker user {self.username} ({self.source})"


def default_secret_file(venue: VenueConfig, stem: str, folder: str | None = None) -> str:
    """``secrets/[folder/]<stem>.pass`` next to the venue file (relative to the working
    directory when the venue was parsed without a base directory)."""
    relative = Path(DEFAULT_SECRETS_DIR)
    if folder is not None:
        relative = relative / folder
    relative = relative / f"{stem}.pass"
    return str(relative if venue.base_dir is None else Path(venue.base_dir) / relative)


def secrets_dir(venue: VenueConfig) -> Path:
    """The venue file's ``secrets/`` folder."""
    return Path(default_secret_file(venue, "x")).parent


def client_id_of(venue: VenueConfig, role: Role, ident: str) -> str:
    """The account name (and client id) of ``role``'s process ``ident`` at ``venue``."""
    return client_id(venue.id, _ID_ROLE.get(role, role), ident)


def _account(
    venue: VenueConfig,
    role: Role,
    ident: str,
    key: str,
    named: str | None,
    tables: tuple[int, ...] = (),
    folder: str | None = None,
    event: str | None = None,
) -> BrokerUser:
    """An account whose password is in a file: the named one, or the default."""
    path = named if named is not None else default_secret_file(venue, ident, folder)
    name = client_id_of(venue, role, ident)
    return BrokerUser(name, role, ident, key, path, named is not None, tables=tables, event=event)


def broker_users(venue: VenueConfig) -> tuple[BrokerUser, ...]:
    """Every broker account of the venue: each host and its check account, the
    director's two (with ``[[events]]``: each event director's two, in the file's order),
    the broadcast, each screen, a network event's halls' bridges, each referee's two, in
    that order. `CredentialError` if
    two of them share a name (the scheme makes that impossible; a guard)."""
    users: list[BrokerUser] = []
    for i, host in enumerate(venue.hosts):
        key = f"hosts[{i}].broker_password_file"
        tables = tuple(t.number for t in host.tables)
        for role in _HOST_ROLES:
            named = host.broker_password_file
            users.append(_account(venue, role, host.id, key, named, tables))
    if venue.events:
        users += _event_directors(venue)
    else:
        director = venue.director_id or DEFAULT_DIRECTOR_ID
        key = "director.broker_password_file"
        for role in _DIRECTOR_ROLES:
            named = venue.director_broker_password_file
            users.append(_account(venue, role, director, key, named))
    ident = venue.broadcast.id  # wuzi broadcast: secrets/broadcast/<id>.pass
    users.append(_account(venue, "broadcast", ident, "broadcast.id", None, folder="broadcast"))
    screens: tuple[tuple[Role, str, tuple[str, ...]], ...] = (
        ("screen", "live", venue.screens.live),
        ("screen-public", "public", venue.screens.public),
    )
    for role, kind, names in screens:
        for i, screen in enumerate(names):
            key = f"screens.{kind}[{i}]"
            users.append(_account(venue, role, screen, key, None, folder=SCREENS_SECRETS_DIR))
    for i, hall in enumerate(venue.halls):  # a network event's: its halls' bridges
        path = default_secret_file(venue, hall.venue, HALLS_SECRETS_DIR)
        name = default_central_user(hall.venue)
        users.append(BrokerUser(name, "hall-bridge", hall.venue, f"halls[{i}]", path, False))
    for i, referee in enumerate(venue.referees):
        hashed = referee.password_hash
        field = "password_hash" if hashed is not None else "token_file"
        key = f"referees[{i}].{field}"
        for role in _REFEREE_ROLES:
            name = client_id_of(venue, role, referee.name)
            token = referee.token_file if hashed is None else None
            users.append(BrokerUser(name, role, referee.name, key, token, True, hashed))
    _check_unique(venue, users)
    return tuple(users)


def _event_directors(venue: VenueConfig) -> list[BrokerUser]:
    """Each event's director's two accounts, named by the event's id, with the event's
    tables (its ACL is drawn from them)."""
    users: list[BrokerUser] = []
    for i, event in enumerate(venue.events):
        key = f"events[{i}].broker_password_file"
        for role in _DIRECTOR_ROLES:
            named = event.broker_password_file
            folder = EVENTS_SECRETS_DIR
            users.append(
                _account(venue, role, event.id, key, named, event.tables, folder, event.id)
            )
    return users


def _check_unique(venue: VenueConfig, users: list[BrokerUser]) -> None:
    seen: dict[str, BrokerUser] = {}
    for user in users:
        other = seen.get(user.name)
        if other is not None:
            raise CredentialError(
                venue.source,
                user.key,
                f"{user.name!r} is already the broker account of {other.key}: every "
                "connection needs an account of its own",
            )
        seen[user.name] = user


_WHAT = {
    "host": "hosts",
    "check": "hosts",
    "director": "director (with [[events]]: one per event)",
    "director-live": "director (with [[events]]: one per event)",
    "screen": "live screens ([screens] live)",
    "screen-public": "public screens ([screens] public)",
    "referee": "referees",
    "referee-send": "referees",
    "broadcast": "the broadcast ([broadcast] id)",
    "hall-bridge": "a network event's halls' bridges ([[halls]] venue)",
}


def broker_user(venue: VenueConfig, role: Role, ident: str | None = None) -> BrokerUser:
    """The account of one connection: a host, its check, a screen and a referee by their
    id or name; the director and the broadcast by their id (None: the venue's).
    `CredentialError` when the venue file has no such process (for a screen: naming the
    list it must be in)."""
    if role not in ROLES:
        raise ValueError(f"unknown broker role {role!r}; known: {', '.join(ROLES)}")
    if ident is None and not role.startswith("director") and role != "broadcast":
        raise ValueError(f"a {role} login needs the {role}'s id or name")
    if ident is None and role.startswith("director") and venue.events:
        raise CredentialError(venue.source, "events", _which_event(venue))
    users = broker_users(venue)
    for user in users:
        if user.role == role and (ident is None or user.ident == ident):
            return user
    known = ", ".join(u.ident for u in users if u.role == role) or "none"
    problem = f"no {role} {ident!r} in the venue file ({_WHAT[role]}: {known})"
    if role in ("screen", "screen-public"):
        other = venue.screens.kind_of(ident or "")
        kind = "live" if role == "screen" else "public"
        if other is not None:
            problem = (
                f"screen {ident!r} is listed in [screens] {other}, not {kind}: "
                + ("run it with --public" if other == "public" else "run it without --public")
                + " (a public screen may read only the delayed public/ feed)"
            )
        else:
            listed = getattr(venue.screens, kind)
            line = f"{kind} = [{', '.join(json.dumps(n) for n in (*listed, ident))}]"
            problem += (
                f": add it to [screens] {kind} (under [screens]: {line}) and run wuzi venue "
                "broker-config"
            )
    raise CredentialError(venue.source, "", problem)


def _which_event(venue: VenueConfig) -> str:
    ids = ", ".join(e.id for e in venue.events)
    return (
        f"the venue file has [[events]] ({ids}): each event has a director of its own, "
        "give the event (wuzi director --event ID)"
    )


@dataclass(frozen=True)
class DirectorAccount:
    """A director's name and its two logins (``persistent``: events and commands in, its
    writes out; ``live``: the retained states). ``ident`` is the director's name in the
    client ids and its status topic (``host/<ident>/status``): the event's id for an
    event's director, else ``[director] id`` (default ``director``). ``event`` is the
    event it runs (None: the venue's one event)."""

    ident: str
    event: str | None
    persistent: Login
    live: Login


def director_account(venue: VenueConfig, event_id: str | None = None) -> DirectorAccount:
    """The logins of the director of event ``event_id`` (None: of a venue file without
    ``[[events]]``), as `login` finds them.

    `CredentialError` naming ``events`` for an event the venue file does not have, an
    event given for a venue of one event, or none given for a venue of several (each then
    has its own director, and guessing one would run the wrong event's database)."""
    if event_id is None:
        if venue.events:
            raise CredentialError(venue.source, "events", _which_event(venue))
        ident = venue.director_id or DEFAULT_DIRECTOR_ID
    else:
        if not venue.events:
            raise CredentialError(
                venue.source,
                "events",
                f"no event {event_id!r}: the venue file has no [[events]], so its one "
                "director runs without an event (no --event)",
            )
        try:
            ident = venue.event(event_id).id
        except KeyError:
            known = ", ".join(e.id for e in venue.events)
            raise CredentialError(
                venue.source, "events", f"no event {event_id!r} (events: {known})"
            ) from None
    persistent = login(venue, "director", ident)
    live = login(venue, "director-live", ident)
    return DirectorAccount(ident, event_id, persistent, live)


def read_secret_file(path: str | Path) -> str:
    """A password file's contents without surrounding white space (a trailing newline is
    usual). Raises ValueError saying why it cannot be read or is not a password."""
    try:
        data = read_bytes(path, SECRET_FILE)  # a regular file: never a FIFO or a device
    except FileError as exc:
        raise ValueError(exc.problem) from None
    try:
        text = data.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 (byte {exc.start})") from None
    if not text:
        raise ValueError("empty")
    return text


_CANNOT = "cannot read: "


def _read(venue: VenueConfig, key: str, path: str, explicit: bool) -> str:
    shown = path if explicit else f"{path} (the default)"
    try:
        return read_secret_file(path)
    except OSError as exc:
        problem = f"cannot read the password file {shown}: {exc.strerror or exc}"
    except ValueError as exc:
        reason = str(exc)
        if reason.startswith(_CANNOT):
            problem = f"cannot read the password file {shown}: {reason.removeprefix(_CANNOT)}"
        else:
            problem = f"the password file {shown}: {reason}"
    raise CredentialError(venue.source, key, problem) from None


def login(venue: VenueConfig, role: Role, ident: str | None = None) -> Login:
    """How the connection of ``role`` (``ident``: its id or name, see `broker_user`) logs
    in to the broker, and where its password comes from (the module doc's order).

    A referee's password is their token (read from ``token_file``); for a referee with a
    ``password_hash`` it is None: they type it (``--password-file``), it is never stored.
    A named file that is missing, or any file that cannot be read, is a `CredentialError`
    naming the key and the file.

    A screen of a venue file that lists no screens at all has no account: it logs in
    like a process without a password file of its own (the shared login or anonymously,
    under its usual client id), so a demo's screens need no ``[screens]``. Once the venue
    file lists screens, a name it does not list is an error saying where to add it."""
    if role in ("screen", "screen-public") and not (venue.screens.live or venue.screens.public):
        if ident is None:
            raise ValueError(f"a {role} login needs the screen's name")
        return shared_login(venue, client_id_of(venue, role, ident), "no [screens] list")
    user = broker_user(venue, role, ident)
    if role in ("referee", "referee-send"):
        if user.secret_file is None:
            return Login(user.name, user.name, None, "the referee's password")
        try:
            token = read_token_file(user.secret_file).decode("utf-8")
        except AuthError as exc:
            raise CredentialError(venue.source, user.key, str(exc)) from None
        return Login(user.name, user.name, token, f"token file {user.secret_file}")
    assert user.secret_file is not None
    if user.explicit or Path(user.secret_file).exists():
        password = _read(venue, user.key, user.secret_file, user.explicit)
        return Login(user.name, user.name, password, f"password file {user.secret_file}")
    return shared_login(venue, user.name, f"no password file {user.secret_file}")


def shared_login(venue: VenueConfig, name: str, missing: str) -> Login:
    """The login of client id ``name`` without a password of its own (``missing`` says
    why): the shared ``[broker]`` login (keys or the URL's), else anonymous — each saying
    so in ``source``."""
    broker = venue.broker
    if broker.username is None:
        return Login(name, None, None, f"no [broker] login and {missing}")
    password = broker.password
    if password is None and broker.password_file is not None:
        password = _read(venue, "broker.password_file", broker.password_file, True)
    return Login(name, broker.username, password, f"the shared [broker] login: {missing}")


def broker_login(
    venue: VenueConfig, role: Role, ident: str | None = None
) -> tuple[str | None, str | None]:
    """(username, password) of `login`, for callers that need no more."""
    found = login(venue, role, ident)
    return found.username, found.password


def referee_keys(venue: VenueConfig, base_dir: Path | None = None) -> dict[str, bytes]:
    """Every referee's key, by name: password hashes decoded, token files read.

    A relative ``token_file`` is taken relative to ``base_dir`` (`load_venue` has already
    made them relative to the venue file's directory; pass ``base_dir`` after
    ``parse_venue`` without one). Errors name the referee and the file.
    """
    keys: dict[str, bytes] = {}
    for index, referee in enumerate(venue.referees):
        where = f"{venue.source}: referees[{index}] ({referee.name!r})"
        try:
            if referee.password_hash is not None:
                keys[referee.name] = hash_key(referee.password_hash)
            elif referee.token_file is not None:
                path = Path(referee.token_file)
                if base_dir is not None and not path.is_absolute():
                    path = base_dir / path
                keys[referee.name] = read_token_file(path)
            else:  # the config's parser refuses this; keep the guarantee here too
                raise AuthError("has neither password_hash nor token_file")
        except AuthError as exc:
            raise AuthError(f"{where}: {exc}") from None
    return keys
