"""The one way a Wuzi command reads a file a person names: a regular file, within a size
cap for its kind, decoded with an error that names the file.

``Path.read_bytes()`` trusts whatever the name points at: ``/dev/zero`` grows the process
until memory runs out, a FIFO blocks the command for ever, a directory answers with a raw
``[Errno 21]``. `read_bytes` refuses anything that is not a regular file (a FIFO, a
directory, a character or block device, a socket) with one line naming it and what it is,
and reads at most the cap of its `FileKind` plus one byte: ``stat`` alone is not trusted
(``/proc`` files say they are empty, a file may grow while it is read).

The caps (docs/files.md has the table) are far above any real file of the kind, so a good
file is never refused; they only stop a wrong name from costing the memory of a Pi.
Reading line by line from stdin is `wuzi.base.lines`; a number in a file is
`wuzi.base.numbers`.

The lowest layer: it imports nothing of Wuzi (``.importlinter``).
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass

__all__ = [
    "BOARD_SPEC",
    "ENTRANTS_CSV",
    "HANDOFF_FILE",
    "KINDS",
    "PASSWD_FILE",
    "RECORD_FILE",
    "SCRIPT_FILE",
    "SECRET_FILE",
    "STATE_FILE",
    "TOKEN_FILE",
    "VENUE_FILE",
    "FileError",
    "FileKind",
    "not_regular",
    "read_bytes",
    "read_text",
    "size_text",
]

_KIB = 1024
_MIB = 1024 * 1024


@dataclass(frozen=True)
class FileKind:
    """What a file is for (``name``, as errors say it) and the most bytes read of it."""

    name: str
    max_bytes: int


VENUE_FILE = FileKind("venue file", 1 * _MIB)
"""A venue of 100 tables and 200 hosts is about 60 kB of TOML."""
BOARD_SPEC = FileKind("board description", 1 * _MIB)
"""A board revision's ``board.json`` (boards/): pins and timings, a few kB."""
SECRET_FILE = FileKind("password file", 4 * _KIB)
"""One password (``MAX_SECRET_BYTES`` of wuzi.config.credentials)."""
TOKEN_FILE = FileKind("token file", 4 * _KIB)
"""One referee token (``MAX_TOKEN_FILE_BYTES`` of wuzi.bus.auth)."""
PASSWD_FILE = FileKind("broker password file", 4 * _MIB)
"""Mosquitto's password file: a line of about 200 bytes per account."""
RECORD_FILE = FileKind("record file", 16 * _MIB)
"""A game record (JSON, SGF, PSQ, move list) is a few kB; a RenLib library a few MB."""
ENTRANTS_CSV = FileKind("entrants CSV", 16 * _MIB)
"""Entrants, rating lists and rosters: a national rating list is under 2 MB."""
HANDOFF_FILE = FileKind("tournament export", 16 * _MIB)
"""A tournament's JSON export handed from one stage's database to the next."""
SCRIPT_FILE = FileKind("script", 4 * _MIB)
"""A simulator's script of lines."""
STATE_FILE = FileKind("screen state file", 16 * _MIB)
"""A screen's state as JSON (``--state``): the retained messages of a venue, ~1 MB."""

KINDS: tuple[FileKind, ...] = (
    VENUE_FILE,
    SECRET_FILE,
    TOKEN_FILE,
    PASSWD_FILE,
    RECORD_FILE,
    ENTRANTS_CSV,
    HANDOFF_FILE,
    BOARD_SPEC,
    SCRIPT_FILE,
    STATE_FILE,
)
"""Every kind, for the table in docs/files.md and its test."""


class FileError(Exception):
    """A file that cannot be read as its kind: ``str()`` is one line, ``PATH: problem``."""

    def __init__(self, path: str, problem: str, *, missing: bool = False) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem
        self.missing = missing
        """True when there is no file of that name (a caller may say which file it wants)."""


def _what(mode: int) -> str | None:
    """What a file that is not a regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def not_regular(path: str | os.PathLike[str]) -> str | None:
    """What ``path`` is when it exists and is no regular file ("a FIFO (named pipe)", "a
    directory"…), else None: for a file another library opens (SQLite), checked first so
    that it is never opened blocking on a FIFO."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return _what(mode)


def _refuse(path: str, what: str, kind: FileKind) -> FileError:
    return FileError(path, f"is {what}, not a regular file (the {kind.name} must be a file)")


def _os_problem(exc: OSError) -> str:
    return f"cannot read: {exc.strerror or exc}"


def read_bytes(path: str | os.PathLike[str], kind: FileKind) -> bytes:
    """The bytes of the regular file at ``path``, at most ``kind.max_bytes`` of them;
    `FileError` for anything else (missing, unreadable, not a regular file, too large)."""
    shown = os.fspath(path)
    try:
        before = os.stat(path)
    except OSError as exc:
        raise FileError(shown, _os_problem(exc), missing=exc.errno == errno.ENOENT) from None
    what = _what(before.st_mode)
    if what is not None:
        raise _refuse(shown, what, kind)
    # O_NONBLOCK: should the name be swapped for a FIFO after the stat, opening it does not
    # block, and the fstat below refuses it.
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileError(shown, _os_problem(exc)) from None
    try:
        what = _what(os.fstat(fd).st_mode)
        if what is not None:
            raise _refuse(shown, what, kind)
        os.set_blocking(fd, True)
        return _read_capped(fd, shown, kind)
    except OSError as exc:
        raise FileError(shown, _os_problem(exc)) from None
    finally:
        os.close(fd)


def _read_capped(fd: int, shown: str, kind: FileKind) -> bytes:
    limit = kind.max_bytes + 1
    chunks: list[bytes] = []
    total = 0
    while total < limit:
        chunk = os.read(fd, min(limit - total, 1 * _MIB))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if total > kind.max_bytes:
        raise FileError(
            shown,
            f"larger than {size_text(kind.max_bytes)}, the cap for the {kind.name}"
            " (docs/files.md); is it the right file?",
        )
    return b"".join(chunks)


def size_text(count: int) -> str:
    """A cap as people read it: ``16 MiB``, ``4 KiB``, ``100 bytes``."""
    if count % _MIB == 0:
        return f"{count // _MIB} MiB"
    if count % _KIB == 0:
        return f"{count // _KIB} KiB"
    return f"{count} bytes"


def read_text(path: str | os.PathLike[str], kind: FileKind, *, encoding: str = "utf-8") -> str:
    """`read_bytes` decoded (a leading BOM, as Windows editors write, is dropped); bytes
    that are not ``encoding`` are a `FileError` naming the byte."""
    data = read_bytes(path, kind)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise FileError(
            os.fspath(path),
            f"not {encoding.upper()} text (byte {exc.start + 1} is {data[exc.start]:#04x})",
        ) from None
    return text.removeprefix("\ufeff")
