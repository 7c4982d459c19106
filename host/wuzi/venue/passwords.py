"""Broker passwords: random secrets, Mosquitto ``$7$`` hashes and private files.

Mosquitto 2 reads password files of ``user:$7$<iterations>$<salt b64>$<hash b64>`` lines,
the hash being PBKDF2-HMAC-SHA512 (as ``mosquitto_passwd`` writes: 101 iterations, a
12-byte salt, a 64-byte hash, standard base64 with padding). `hash_password` writes that
form and `check_password` verifies it with `wuzi.bus.auth.key_from_password`, the same
code a referee's tools use, so the two cannot drift apart.

Secret files are written atomically with mode 0600 (their folder 0700 when created), and
an existing secret is kept (`ensure_secret`): re-running ``wuzi venue broker-config`` never
changes anybody's password, so nobody is logged out. `hash_for` keeps an old hash that
still matches, so the broker's password file does not change either.

Pure except the file functions (`read_secret`, `write_private`, `ensure_secret`).
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
import tempfile
from collections.abc import Mapping
from pathlib import Path

from wuzi.bus.auth import AuthError, key_from_password
from wuzi.config.credentials import read_secret_file

__all__ = [
    "HASH_BYTES",
    "ITERATIONS",
    "SALT_BYTES",
    "PasswdError",
    "check_password",
    "ensure_secret",
    "format_passwd",
    "generate_password",
    "hash_for",
    "hash_password",
    "parse_passwd",
    "read_secret",
    "write_private",
]

ITERATIONS = 101  # mosquitto_passwd's default; the passwords are random, so it suffices
SALT_BYTES = 12
HASH_BYTES = 64
PASSWORD_BYTES = 24  # 192 random bits, 32 URL-safe characters


class PasswdError(ValueError):
    """A Mosquitto password file line or a secret file that cannot be used; says which."""


def generate_password(nbytes: int = PASSWORD_BYTES) -> str:
    """A new random password of URL-safe characters (no ``:``, no white space)."""
    return secrets.token_urlsafe(nbytes)


def hash_password(password: str, salt: bytes | None = None, iterations: int = ITERATIONS) -> str:
    """The ``$7$`` PBKDF2-SHA512 hash Mosquitto 2 accepts for ``password``."""
    if not password:
        raise PasswdError("a password must not be empty")
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, iterations, HASH_BYTES)
    b64 = base64.b64encode
    return f"$7${iterations}${b64(salt).decode()}${b64(digest).decode()}"


def check_password(password: str, password_hash: str) -> bool:
    """True if ``password`` matches the ``$7$`` hash (False for any other hash)."""
    try:
        key_from_password(password, password_hash)
    except AuthError:
        return False
    return True


def hash_for(password: str, old_hash: str | None) -> str:
    """``old_hash`` if it still matches ``password`` (the file stays the same), else a new one."""
    if old_hash is not None and check_password(password, old_hash):
        return old_hash
    return hash_password(password)


def parse_passwd(text: str) -> dict[str, str]:
    """The ``user: hash`` entries of a Mosquitto password file (blank lines and ``#``
    comments skipped); `PasswdError` names the line of anything else."""
    entries: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        user, colon, hashed = stripped.partition(":")
        if not colon or not user or not hashed:
            raise PasswdError(f"line {number}: not 'user:hash'")
        if user in entries:
            raise PasswdError(f"line {number}: user {user!r} appears twice")
        entries[user] = hashed
    return entries


def format_passwd(entries: Mapping[str, str]) -> str:
    """A Mosquitto password file of ``entries`` (user -> hash), in the given order."""
    lines = []
    for user, hashed in entries.items():
        if not user or ":" in user or any(c.isspace() for c in user):
            raise PasswdError(f"user name {user!r} cannot go in a password file")
        if not hashed or any(c.isspace() for c in hashed):
            raise PasswdError(f"the hash of {user!r} is empty or has white space")
        lines.append(f"{user}:{hashed}\n")
    return "".join(lines)


def read_secret(path: str | Path) -> str | None:
    """The secret in ``path`` (stripped), or None if there is no such file; `PasswdError`
    if it exists but cannot be used (never showing its contents)."""
    where = Path(path)
    if not where.exists():
        return None
    try:
        return read_secret_file(where)
    except OSError as exc:
        raise PasswdError(f"{where}: cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise PasswdError(f"{where}: {exc}") from None


def write_private(path: str | Path, text: str, mode: int = 0o600) -> None:
    """Write ``text`` to ``path`` atomically (a temp file renamed over it) with ``mode``;
    missing parent folders are made with mode 0700."""
    where = Path(path)
    if not where.parent.exists():
        where.parent.mkdir(mode=0o700, parents=True)
    fd, temp = tempfile.mkstemp(prefix=f".{where.name}.", dir=where.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, where)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def ensure_secret(path: str | Path) -> tuple[str, bool]:
    """The secret in ``path``, made (random, mode 0600) if the file does not exist yet;
    the flag says whether it was made now. An existing file is never changed."""
    found = read_secret(path)
    if found is not None:
        return found, False
    secret = generate_password()
    write_private(path, secret + "\n")
    return secret, True
