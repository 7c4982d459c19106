"""Who each process of the venue is on the broker, and where its password lives.

Every process logs in as its own broker user, so the broker's ACL (written by
``wuzi venue broker-config``, `wuzi.venue.broker_config`) can hold each one to its own
topics: a host as its host id, the director as its director id, each referee as its
referee name, the screens as a read-only user (``[screens] user``, default ``screens``)
and public screens as a user that reads only the delayed feed (``[screens] public_user``,
default ``screens-public``).

A host's, the director's and the screens' passwords live in a file of their own: the one
the venue file names (``[[hosts]] broker_password_file``, ``[director]
broker_password_file``, ``[screens] broker_password_file`` / ``public_broker_password_file``)
or, by default, ``secrets/<user>.pass`` next to the venue file. A referee's broker password
is their signing secret: the password behind their ``password_hash``, or the contents of
their ``token_file`` (docs/referee.md).

Backwards compatibility: when a process's own password file is absent and the venue file
did not name one, `broker_login` falls back to the shared ``[broker] username`` /
``password`` / ``password_file`` (or the URL's), as every process logged in before; with
neither, it logs in anonymously (None, None).

`broker_users` and `broker_user` are pure; `broker_login` reads the one password file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from wuzi.bus.auth import AuthError, hash_key, read_token_file
from wuzi.config.venue import ConfigError, VenueConfig

__all__ = [
    "DEFAULT_DIRECTOR_ID",
    "DEFAULT_SECRETS_DIR",
    "ROLES",
    "BrokerUser",
    "CredentialError",
    "Role",
    "broker_login",
    "broker_user",
    "broker_users",
    "default_secret_file",
    "read_secret_file",
    "referee_keys",
]

Role = Literal["host", "director", "screens", "screens-public", "referee"]
ROLES: tuple[Role, ...] = ("host", "director", "screens", "screens-public", "referee")
DEFAULT_SECRETS_DIR = "secrets"
"""Where the per-process password files are by default, relative to the venue file."""
DEFAULT_DIRECTOR_ID = "director"
"""The director's broker user when the venue file has no ``[director]`` section."""
MAX_SECRET_BYTES = 4096


class CredentialError(ConfigError):
    """A broker login that cannot be made: a password file that cannot be read, a role
    or an id the venue file does not know, two processes with one user name. Like every
    `ConfigError` it names the key of the venue file concerned; never the secret."""


@dataclass(frozen=True)
class BrokerUser:
    """One broker account of the venue.

    ``secret_file`` is the password file (host, director, screens) or the referee's
    ``token_file``; None for a referee who signs with a ``password_hash`` (the broker's
    password file then carries that hash as it is). ``explicit`` says whether the venue
    file named the file (else it is the default ``secrets/<user>.pass``). ``key`` is the
    venue-file key the file belongs to, for messages.
    """

    name: str
    role: Role
    key: str
    secret_file: str | None
    explicit: bool
    password_hash: str | None = None
    tables: tuple[int, ...] = ()  # a host's tables


def default_secret_file(venue: VenueConfig, user: str) -> str:
    """``secrets/<user>.pass`` next to the venue file (relative to the working directory
    when the venue was parsed without a base directory)."""
    relative = Path(DEFAULT_SECRETS_DIR) / f"{user}.pass"
    return str(relative if venue.base_dir is None else Path(venue.base_dir) / relative)


def _account(
    venue: VenueConfig,
    name: str,
    role: Role,
    key: str,
    named: str | None,
    tables: tuple[int, ...] = (),
) -> BrokerUser:
    """An account whose password is in a file: the named one, or the default."""
    path = named if named is not None else default_secret_file(venue, name)
    return BrokerUser(name, role, key, path, named is not None, tables=tables)


def broker_users(venue: VenueConfig) -> tuple[BrokerUser, ...]:
    """Every broker account of the venue: hosts, the director, the two screens users and
    the referees, in that order. `CredentialError` if two of them share a user name (a
    referee named like a host would get the host's rights), naming the later key."""
    users: list[BrokerUser] = []
    for i, host in enumerate(venue.hosts):
        key = f"hosts[{i}].broker_password_file"
        tables = tuple(t.number for t in host.tables)
        users.append(_account(venue, host.id, "host", key, host.broker_password_file, tables))
    director = venue.director_id or DEFAULT_DIRECTOR_ID
    key = "director.broker_password_file"
    users.append(_account(venue, director, "director", key, venue.director_broker_password_file))
    screens = venue.screens
    key = "screens.broker_password_file"
    users.append(_account(venue, screens.user, "screens", key, screens.broker_password_file))
    key = "screens.public_broker_password_file"
    public_file = screens.public_broker_password_file
    users.append(_account(venue, screens.public_user, "screens-public", key, public_file))
    for i, referee in enumerate(venue.referees):
        if referee.password_hash is not None:
            key = f"referees[{i}].password_hash"
            hashed = referee.password_hash
            users.append(BrokerUser(referee.name, "referee", key, None, True, hashed))
        else:
            key = f"referees[{i}].token_file"
            users.append(BrokerUser(referee.name, "referee", key, referee.token_file, True))
    _check_unique(venue, users)
    return tuple(users)


def _name_key(user: BrokerUser) -> str:
    """The venue-file key that gave ``user`` its name."""
    if user.role == "referee":
        return user.key.rsplit(".", 1)[0] + ".name"
    if user.role == "host":
        return user.key.rsplit(".", 1)[0] + ".id"
    if user.role == "director":
        return "director.id"
    return "screens.user" if user.role == "screens" else "screens.public_user"


def _check_unique(venue: VenueConfig, users: list[BrokerUser]) -> None:
    seen: dict[str, BrokerUser] = {}
    for user in users:
        other = seen.get(user.name)
        if other is not None:
            default = ""
            if user.role == "director" and venue.director_id is None:
                default = f" (without a [director] id the director logs in as {user.name!r})"
            raise CredentialError(
                venue.source,
                _name_key(user),
                f"{user.name!r} is already the broker user of {_name_key(other)}{default}: "
                "every process needs a user name of its own (the broker's ACL grants rights "
                "by it)",
            )
        seen[user.name] = user


def broker_user(venue: VenueConfig, role: Role, ident: str | None = None) -> BrokerUser:
    """The account of one process: a host by its id, a referee by name; the director by
    its id (None: the venue's), the screens users need no ident (or their user name).
    `CredentialError` when the venue file has no such process."""
    if role not in ROLES:
        raise ValueError(f"unknown broker role {role!r}; known: {', '.join(ROLES)}")
    if ident is None and role in ("host", "referee"):
        raise ValueError(f"a {role} login needs the {role}'s id or name")
    users = broker_users(venue)
    for user in users:
        if user.role == role and (ident is None or user.name == ident):
            return user
    known = ", ".join(u.name for u in users if u.role == role) or "none"
    what = {"host": "hosts", "referee": "referees"}.get(role, role)
    raise CredentialError(
        venue.source, "", f"no {role} {ident!r} in the venue file ({what}: {known})"
    )


def read_secret_file(path: str | Path) -> str:
    """A password file's contents without surrounding white space (a trailing newline is
    usual). Raises OSError if it cannot be read, ValueError if it is not a password."""
    where = Path(path)
    with where.open("rb") as f:
        data = f.read(MAX_SECRET_BYTES + 1)
    if len(data) > MAX_SECRET_BYTES:
        raise ValueError(f"longer than {MAX_SECRET_BYTES} bytes; is it really a password?")
    try:
        text = data.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 (byte {exc.start})") from None
    if not text:
        raise ValueError("empty")
    return text


def _read(venue: VenueConfig, key: str, path: str, explicit: bool) -> str:
    shown = path if explicit else f"{path} (the default)"
    try:
        return read_secret_file(path)
    except OSError as exc:
        problem = f"cannot read the password file {shown}: {exc.strerror or exc}"
    except ValueError as exc:
        problem = f"the password file {shown}: {exc}"
    raise CredentialError(venue.source, key, problem) from None


def broker_login(
    venue: VenueConfig, role: Role, ident: str | None = None
) -> tuple[str | None, str | None]:
    """The (username, password) a process of ``role`` logs in to the broker with.

    * ``host`` (``ident`` = host id), ``director`` (``ident`` None or the director id),
      ``screens``, ``screens-public``: the process's own user and the password from its
      password file; when that file is absent and the venue file did not name it, the
      shared ``[broker]`` credentials (or (None, None): anonymous). A named file that is
      missing, or any file that cannot be read, is a `CredentialError` naming the key.
    * ``referee`` (``ident`` = referee name): the referee's name and their token (read
      from ``token_file``); for a referee with a ``password_hash`` the password is None:
      the referee supplies it (``--password-file``), it is never stored.

    Pass the result to `wuzi.bus.client.BusClient` as ``username=`` / ``password=``.
    """
    user = broker_user(venue, role, ident)
    if role == "referee":
        if user.secret_file is None:
            return user.name, None
        try:
            return user.name, read_token_file(user.secret_file).decode("utf-8")
        except AuthError as exc:
            raise CredentialError(venue.source, user.key, str(exc)) from None
    assert user.secret_file is not None
    if user.explicit or Path(user.secret_file).exists():
        return user.name, _read(venue, user.key, user.secret_file, user.explicit)
    return _shared_login(venue)


def _shared_login(venue: VenueConfig) -> tuple[str | None, str | None]:
    """The pre-identity login every process shared: ``[broker]`` keys or the URL's."""
    broker = venue.broker
    if broker.username is None:
        return None, None
    if broker.password is None and broker.password_file is not None:
        return broker.username, _read(venue, "broker.password_file", broker.password_file, True)
    return broker.username, broker.password


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
