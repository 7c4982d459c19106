"""Signed arbiter commands: HMAC-SHA256 over the command's canonical bytes.

The broker's ACL decides who may *publish* on ``arbiter/commands``, but a host cannot see
who published a message, and a broker misconfigured (or a message relayed from the local
control socket) must not turn anyone into a referee. So every command carries
``auth = "hmac-sha256:<64 hex digits>"``, the HMAC of `canonical_bytes` under the
referee's key, and each host checks it for itself with `verify`. Together with the age
check (``issued_ms`` close to the host's wall clock) and unique ``command_id`` values
remembered for that window (`ReplayGuard`), an old command cannot be played again.

What is signed binds the command to where it acts (issue 32): the table, and for a
command to one table the game it is for (``game_id``, None while the table has no
game); `game_problem` refuses it on a table that plays another game, so a result
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

from wuzi.bus.schemas import ArbiterCommand, encode

__all__ = [
    "MIN_KEY_BYTES",
    "SCHEME",
    "AuthError",
    "ReplayGuard",
    "canonical_bytes",
    "game_problem",
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
MAX_FUTURE_MS = 30_000
"""How far in the future a command's ``issued_ms`` may be (clocks out of step)."""
MIN_KEY_BYTES = 16
MAX_TOKEN_FILE_BYTES = 4096
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


def game_problem(cmd: ArbiterCommand, table: int, plays: str | None) -> str | None:
    """Why ``cmd`` (verified) must not act on table ``table``, which plays game ``plays``
    (None: no game yet), or None when it may. A command for one table acts only in the
    game it names; a command for every table names no game and fits any."""
    if cmd.table is None or cmd.game_id == plays:
        return None
    wanted = f"game {cmd.game_id}" if cmd.game_id is not None else "a table with no game"
    now = f"plays game {plays}" if plays is not None else "has no game"
    return f"command {cmd.command_id} is for {wanted}; table {table} {now}"


class ReplayGuard:
    """The ``command_id`` values seen within the age window, so a repeat is recognised.

    The bus delivers at least once, so a receiver sees honest repeats too; a replayed
    command is either a repeat (dropped here) or older than ``max_age_ms`` (refused by
    `verify`). Ids are forgotten once their command would fail the age check anyway, so
    memory stays bounded by the command rate times the window. An id is remembered per
    place (``where``: the table it was carried out on, None for a receiver with one
    place), as a command for every table is carried out table by table. Pure: time is
    an argument. It lives in memory: after a restart it is empty, so a service that
    must refuse a repeat across restarts also keeps the ids of accepted commands in its
    journal and `remember`s them on start (``wuzi.host.command_window``).
    """

    def __init__(self, max_age_ms: int) -> None:
        self.max_age_ms = max_age_ms
        self._seen: dict[tuple[str, int | None], int] = {}  # (command_id, where) -> issued_ms
        self._oldest_ms: int | None = None  # the smallest issued_ms kept (None: none)

    def _forget_old(self, now_ms: int) -> None:
        horizon = now_ms - self.max_age_ms
        if self._oldest_ms is None or self._oldest_ms >= horizon:
            return  # nothing to forget: spares a scan per command
        self._seen = {key: ms for key, ms in self._seen.items() if ms >= horizon}
        self._oldest_ms = min(self._seen.values(), default=None)

    def seen(self, cmd: ArbiterCommand, now_ms: int, where: int | None = None) -> bool:
        """Whether ``cmd.command_id`` was remembered for ``where`` within the window."""
        self._forget_old(now_ms)
        return (cmd.command_id, where) in self._seen

    def remember(self, command_id: str, issued_ms: int, where: int | None = None) -> None:
        """Keep ``command_id`` (issued at ``issued_ms``) as seen for ``where``."""
        self._seen[(command_id, where)] = issued_ms
        if self._oldest_ms is None or issued_ms < self._oldest_ms:
            self._oldest_ms = issued_ms

    def first_time(self, cmd: ArbiterCommand, now_ms: int, where: int | None = None) -> bool:
        """True the first time ``cmd.command_id`` is seen (and remember it), else False."""
        if self.seen(cmd, now_ms, where):
            return False
        self.remember(cmd.command_id, cmd.issued_ms, where)
        return True

    def __len__(self) -> int:
        return len(self._seen)


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
        with where.open("rb") as f:
            data = f.read(MAX_TOKEN_FILE_BYTES + 1)
    except OSError as exc:
        raise AuthError(f"token file {str(where)!r}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_TOKEN_FILE_BYTES:
        raise AuthError(
            f"token file {str(where)!r}: longer than {MAX_TOKEN_FILE_BYTES} bytes;"
            " is it really a token?"
        )
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
