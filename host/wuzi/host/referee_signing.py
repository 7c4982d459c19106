"""A referee's signed command, as ``wuzi referee send`` and the arbiter screen build it.

The referee's key comes from the venue file (a token file, or a password checked against its
hash); the command is checked as a host will check it (`wuzi.host.commands.check_args`, the
bus schema) and signed (`wuzi.bus.auth.sign`) before it leaves the referee's machine, so a
mistake is reported to the referee and not discovered at the table. Reads the token or
password file it is given; otherwise pure.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from typing import Any

from wuzi.base.files import SECRET_FILE, FileError, read_bytes
from wuzi.bus import topics
from wuzi.bus.auth import AuthError, key_from_password, read_token_file, sign
from wuzi.bus.schemas import ArbiterCommand, MessageError, encode, parse_message
from wuzi.config.venue import RefereeConfig, VenueConfig
from wuzi.host.commands import CommandError, check_args

__all__ = [
    "SendError",
    "build_command",
    "check_command",
    "find_referee",
    "key_and_secret",
    "parse_values",
]

_INTEGER = re.compile(r"[+-]?[0-9]+")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class SendError(Exception):
    """What stops a referee's command from being built or sent; the message names what is
    wrong and never holds a key, a token or a password."""


def parse_values(pairs: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` words as command arguments: integers, ``null``, else strings."""
    args: dict[str, Any] = {}
    for pair in pairs:
        key, eq, text = pair.partition("=")
        if not eq:
            raise SendError(f"argument {pair[:40]!r} is not KEY=VALUE")
        if not _KEY.fullmatch(key):
            raise SendError(f"argument {pair[:40]!r}: {key[:40]!r} is not an argument name")
        if key in args:
            raise SendError(f"argument {key!r} is given twice")
        if text == "null":
            args[key] = None
        elif _INTEGER.fullmatch(text) and len(text) <= 20:
            args[key] = int(text)
        else:
            args[key] = text
    return args


def find_referee(venue: VenueConfig, name: str) -> RefereeConfig:
    """The venue file's referee ``name``; `SendError` lists the referees there are."""
    for referee in venue.referees:
        if referee.name == name:
            return referee
    known = ", ".join(r.name for r in venue.referees) or "none"
    raise SendError(f"no referee {name!r} in {venue.source} (referees: {known})")


def _read_password(path: str) -> str:
    try:
        data = read_bytes(path, SECRET_FILE)  # a regular file: never a FIFO or a device
    except FileError as exc:
        raise SendError(f"password file {path!r}: {exc.problem}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SendError(f"password file {path!r}: not UTF-8") from None
    password = text.removesuffix("\n").removesuffix("\r")
    if not password:
        raise SendError(f"password file {path!r}: empty")
    return password


def key_and_secret(
    referee: RefereeConfig, token_file: str | None, password_file: str | None
) -> tuple[bytes, str]:
    """The signing key and the broker password of ``referee``, from exactly one of its token
    file or a file holding its password (checked against the venue file's hash here, so a
    mistyped password fails at the referee, not at the host)."""
    if token_file is not None:
        if referee.token_file is None:
            raise SendError(
                f"referee {referee.name!r} signs with a password (password_hash in the venue"
                " file): use --password-file"
            )
        try:
            key = read_token_file(token_file)
        except AuthError as exc:
            raise SendError(str(exc)) from None
        return key, key.decode("utf-8")
    assert password_file is not None
    if referee.password_hash is None:
        raise SendError(
            f"referee {referee.name!r} signs with a token (token_file in the venue file):"
            " use --token-file"
        )
    password = _read_password(password_file)
    try:
        return key_from_password(password, referee.password_hash), password
    except AuthError as exc:
        raise SendError(f"referee {referee.name!r}: {exc}") from None


def check_command(venue: VenueConfig, action: str, table: int | None, args: dict[str, Any]) -> None:
    """`SendError` unless ``action`` with ``args`` for ``table`` is a command a host
    takes (the arguments as the host checks them, the table in the venue file): checked
    before anything is asked of a host or the broker."""
    try:
        check_args(action, args)
    except CommandError as exc:
        raise SendError(str(exc)) from None
    if table is not None:
        try:
            venue.table(table)
        except KeyError:
            raise SendError(f"no table {table} in {venue.source}") from None


def build_command(
    venue: VenueConfig,
    referee: str,
    key: bytes,
    action: str,
    table: int | None,
    args: dict[str, Any],
    *,
    issued_ms: int,
    command_id: str | None = None,
    game_id: str | None = None,
    round: int | None = None,
) -> ArbiterCommand:
    """The signed command, checked as a host will parse it (envelope and arguments).

    ``game_id``: the game the command is for, signed with it (a host refuses it on a
    table that plays another game): the table's current game, None while it has none;
    a command for every table (``table`` None) names none. ``round``: the game's round,
    for the director's commands."""
    check_command(venue, action, table, args)
    if table is None and game_id is not None:
        raise SendError(
            f"a command for every table names no game (not {game_id!r}): give --table N"
        )
    cmd = ArbiterCommand(
        command_id=command_id or str(uuid.uuid4()),
        referee=referee,
        action=action,
        table=table,
        args=args,
        issued_ms=issued_ms,
        game_id=game_id,
        round=round,
    )
    try:
        signed = sign(cmd, key)
        parse_message(topics.arbiter_commands(venue.id), encode(signed))
    except (AuthError, MessageError) as exc:
        raise SendError(str(exc)) from None
    return signed
