"""Signed referee commands (``ArbiterCommand``): HMAC-SHA256 over the canonical bytes.

The broker's ACL decides who may *publish* on ``arbiter/commands``, but a host cannot see
who published a message, and a broker misconfigured (or a message relayed from the local
control socket) must not turn anyone into a referee. So every command carries
``auth = "hmac-sha256:<64 hex digits>"``, the HMAC of `canonical_bytes` under the
referee's key, and each host checks it for itself with `verify`. Together with the age
check (``issued_ms`` close to the host's wall clock) and unique ``command_id`` values
remembered for that window (each table's, ``wuzi.table.commands``), an old command cannot
be played again.

What is signed binds the command to where it acts (issue 32): the table, and for a
command to one table the game it is for (``game_id``, None while the table has no
game); the table refuses it when it plays another game (``wuzi.table.commands``), so a result
captured in one game cannot end the next. A command to every table (``table: null``)
cannot name one game: it binds its table null, its id and its issue time, and is
refused as a repeat within the age window (the host keeps the ids of that window,
journaled) and as too old after it. The director's commands name the game's round too.
The scheme is ``hmac-sha256+game`` since these fields are signed; a command signed with
the older ``hmac-sha256`` (which bound no game) is refused with that reason.

A referee's key comes from the venue file (docs/referee.md):

* ``token_file``: the file's contents, stripped, UTF-8, at least `MIN_KEY_BYTES` bytes;
* ``password_hash`` (``$7$<iterations>$<salt b64>$<hash b64>``, PBKDF2-HMAC-SHA512 as
  written by ``mosquitto_passwd``): the decoded hash bytes. The referee's side derives
  the same bytes from the password with `key_from_password`, which also proves the
  password right. Whoever can read the venue file can therefore sign: it is a secret.

Messages never contain a key, a token, a password or the expected signature. Pure except
`read_token_file`, which reads a token file (``wuzi.config.credentials.referee_keys`` reads
every referee's key from the venue file).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from wuzi.base.files import TOKEN_FILE, FileError, read_bytes
from wuzi.bus.schemas import ArbiterCommand, encode
from wuzi.table.commands import MAX_FUTURE_MS

__all__ = [
    "MIN_KEY_BYTES",
    "SCHEME",
    "AuthError",
    "canonical_bytes",
    "hash_key",
    "key_from_password",
    "read_token_file",
    "sign",
    "verify",
]

SCHEME = "hmac-sha256+game"
"""The signature's scheme: HMAC-SHA256 over the canonical bytes, which hold the command's
table, ``game_id`` and ``round`` (so it binds the game)."""
OLD_SCHEME = "hmac-sha256"
"""The scheme before the game was signed: refused, with that reason."""
MIN_KEY_BYTES = 16
MAX_TOKEN_FILE_BYTES = TOKEN_FILE.max_bytes
MAX_PBKDF2_ITERATIONS = 10_000_000  # far above mosquitto's 101; bounds the work of one check
_HEX64 = re.compile(r"[0-9a-f]{64}")
_B64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")


class AuthError(ValueError):
    """A command that is not provably from a known referee now, or a key that cannot be
    used; the message says which and why (never the key)."""


def canonical_bytes(cmd: ArbiterCommand) -> bytes:
    """What is signed: the command's bus encoding with ``auth`` null (sorted keys, no
    spaces, UTF-8, ``"v":1``), so it covers every field, the schema version included."""
    return encode(replace(cmd, auth=None))


def _check_key(key: object) -> bytes:
    if not isinstance(key, bytes | bytearray):
        raise AuthError(f"a signing key is bytes, not {type(key).__name__}")
    if len(key) < MIN_KEY_BYTES:
        raise AuthError(f"a signing key must be at least {MIN_KEY_BYTES} bytes, not {len(key)}")
    return bytes(key)


def _mac(cmd: ArbiterCommand, key: bytes) -> str:
    return hmac.new(key, canonical_bytes(cmd), hashlib.sha256).hexdigest()


def sign(cmd: ArbiterCommand, key: bytes) -> ArbiterCommand:
    """``cmd`` with ``auth = "hmac-sha256:<hex>"`` under ``key`` (any old auth replaced)."""
    return replace(cmd, auth=f"{SCHEME}:{_mac(cmd, _check_key(key))}")


def verify(
    cmd: ArbiterCommand,
    keys: Mapping[str, bytes],
    *,
    now_ms: int,
    max_age_ms: int,
    max_future_ms: int = MAX_FUTURE_MS,
) -> None:
    """Accept ``cmd`` (return None) or raise `AuthError` saying why not.

    ``keys`` maps referee names to keys (``wuzi.config.credentials.referee_keys``);
    ``now_ms`` is the receiver's wall clock (ms since the epoch). The signature is checked
    before the time, so a message about the time is only ever given for a command the
    referee really signed.
    """
    what = f"command {cmd.command_id!r} from referee {cmd.referee!r}"
    key = keys.get(cmd.referee)
    if key is None:
        raise AuthError(f"{what}: unknown referee (not in the venue's [[referees]])")
    if cmd.auth is None:
        raise AuthError(f"{what}: unsigned (auth is null)")
    scheme, colon, digest = cmd.auth.partition(":")
    if not colon:
        raise AuthError(f"{what}: auth names no scheme (expected '{SCHEME}:<hex>')")
    if scheme == OLD_SCHEME:
        raise AuthError(
            f"{what}: signed with the old scheme {OLD_SCHEME!r}, which does not bind the"
            f" command to its game, so it could be replayed into another game: sign it"
            f" again with this version of wuzi ({SCHEME!r})"
        )
    if scheme != SCHEME:
        raise AuthError(f"{what}: unknown auth scheme {scheme[:20]!r} (expected {SCHEME!r})")
    if not _HEX64.fullmatch(digest):
        raise AuthError(f"{what}: bad signature (not 64 lower-case hex digits)")
    if not hmac.compare_digest(_mac(cmd, _check_key(key)), digest):
        raise AuthError(f"{what}: bad signature (wrong key, or the command was altered)")
    age_ms = now_ms - cmd.issued_ms
    if age_ms > max_age_ms:
        raise AuthError(
            f"{what}: issued {age_ms} ms ago, more than the {max_age_ms} ms allowed"
            " (a replay, or clocks out of step)"
        )
    if -age_ms > max_future_ms:
        raise AuthError(
            f"{what}: issued {-age_ms} ms in the future, more than the {max_future_ms} ms"
            " allowed (clocks out of step)"
        )


# --- keys ---------------------------------------------------------------------------------


def _b64(text: str, what: str) -> bytes:
    if not _B64.fullmatch(text):
        raise AuthError(f"password hash: the {what} is not base64")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise AuthError(f"password hash: the {what} is not base64") from None


def _parse_hash(password_hash: str) -> tuple[int, bytes, bytes]:
    if not isinstance(password_hash, str):
        raise AuthError(f"a password hash is text, not {type(password_hash).__name__}")
    parts = password_hash.strip().split("$")
    if len(parts) < 2 or parts[0] != "":
        raise AuthError("password hash: not in mosquitto_passwd's '$7$...' form")
    if parts[1] != "7":
        raise AuthError(
            f"password hash: scheme ${parts[1][:10]}$ is not supported: use"
            " mosquitto_passwd's default sha512-pbkdf2 ($7$)"
        )
    if len(parts) != 5:
        raise AuthError(
            "password hash: expected $7$<iterations>$<salt>$<hash>,"
            f" found {len(parts) - 1} '$'-separated parts"
        )
    iterations_text, salt_text, hash_text = parts[2:]
    if not (iterations_text.isascii() and iterations_text.isdigit()):
        raise AuthError("password hash: the iteration count is not a number")
    iterations = int(iterations_text)
    if not 1 <= iterations <= MAX_PBKDF2_ITERATIONS:
        raise AuthError(f"password hash: iteration count must be 1..{MAX_PBKDF2_ITERATIONS}")
    salt = _b64(salt_text, "salt")
    digest = _b64(hash_text, "hash")
    if not salt:
        raise AuthError("password hash: the salt is empty")
    if len(digest) < MIN_KEY_BYTES:
        raise AuthError(
            f"password hash: the hash is {len(digest)} bytes; at least {MIN_KEY_BYTES} needed"
        )
    return iterations, salt, digest


def hash_key(password_hash: str) -> bytes:
    """The signing key of a password-hash referee: the hash's decoded bytes (64 for
    mosquitto_passwd), after checking the ``$7$`` form."""
    return _parse_hash(password_hash)[2]


def key_from_password(password: str, password_hash: str) -> bytes:
    """The referee's side of `hash_key`: PBKDF2-HMAC-SHA512 of ``password`` with the
    hash's salt and iterations; `AuthError` if it does not match (a wrong password)."""
    iterations, salt, digest = _parse_hash(password_hash)
    if not isinstance(password, str):
        raise AuthError(f"a password is text, not {type(password).__name__}")
    derived = hashlib.pbkdf2_hmac(
        "sha512", password.encode("utf-8"), salt, iterations, dklen=len(digest)
    )
    if not hmac.compare_digest(derived, digest):
        raise AuthError("wrong password: it does not match the referee's password_hash")
    return derived


def read_token_file(path: str | Path) -> bytes:
    """A token file's key: its contents stripped of surrounding white space, UTF-8, at
    least `MIN_KEY_BYTES` bytes. Errors name the file, never its contents."""
    where = Path(path)
    try:
        data = read_bytes(where, TOKEN_FILE)  # a regular file: never a FIFO or a device
    except FileError as exc:
        raise AuthError(f"token file {str(where)!r}: {exc.problem}") from None
    try:
        text = data.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        raise AuthError(f"token file {str(where)!r}: not UTF-8 (byte {exc.start})") from None
    token = text.encode("utf-8")
    if len(token) < MIN_KEY_BYTES:
        raise AuthError(
            f"token file {str(where)!r}: the token is {len(token)} bytes; at least"
            f" {MIN_KEY_BYTES} are needed (e.g. `openssl rand -hex 32 > {where.name}`)"
        )
    return token
