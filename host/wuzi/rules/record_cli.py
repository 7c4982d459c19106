"""``wuzi rules record …``: convert game records between formats and print them.

* ``wuzi rules record convert IN OUT [--from F] [--to F]`` reads IN and writes OUT; the
  formats come from the file names (``.json``, ``.sgf``, ``.psq``, ``.pos``, ``.lib``,
  ``.txt``, ``.sheet.txt``, ``.html``) unless given. ``-`` is stdin or stdout (then the
  format must be given).
* ``wuzi rules record show FILE [--from F]`` prints the record as a text score sheet.

A file that cannot be read or is malformed prints ``wuzi rules record …: FILE: reason``
on stderr (the reason names the line, byte or JSON path) and exits 1; nothing is written.
So does a file of more than 16 MiB (``MAX_RECORD_BYTES``), a FIFO, a directory or a
device (wuzi.base.files: refused by name, never read), or a number beyond 10^12.
What a reader reads past in a file another program wrote (``GM[1]`` on a 15×15 board, an
unknown ``RU``…) prints ``warning: FILE: reason`` on stderr, and the command goes on.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, BinaryIO

from wuzi.base.files import RECORD_FILE, FileError, read_bytes
from wuzi.rules.errors import RulesError
from wuzi.rules.formats import FORMATS, export, format_for_path, get_format, load
from wuzi.rules.record import GameRecord


class _Failure(Exception):
    """A reason to stop, already worded for the user."""


def _format(name: str | None, path: str, option: str) -> str:
    try:
        if name is not None:
            return get_format(name).name
        if path == "-":
            raise _Failure(f"{option} is needed when the file is '-'")
        return format_for_path(path)
    except RulesError as exc:
        raise _Failure(f"{path}: {exc}") from None


MAX_RECORD_BYTES = RECORD_FILE.max_bytes
"""The largest record file read: a game record is a few kB (a RenLib library a few MB);
a larger input is refused before it is held in memory."""


def _read(path: str, fmt: str) -> GameRecord:
    try:
        data = _read_bounded(sys.stdin.buffer, path) if path == "-" else _read_bytes(path)
        return load(data, fmt, warn=lambda message: _warn(path, message))
    except RulesError as exc:
        raise _Failure(f"{path}: {exc}") from None
    except RecursionError:  # a reader's nesting (SGF variations…) deeper than Python's stack
        raise _Failure(f"{path}: nested too deeply to be a game record") from None


def _warn(path: str, message: str) -> None:
    """What a reader read past (GM[1] on a 15×15 board…): ``warning: FILE: …``, exit 0."""
    print(f"warning: {path}: {message}", file=sys.stderr)


def _read_bounded(stream: BinaryIO, path: str) -> bytes:
    data = stream.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise _Failure(f"{path}: more than {MAX_RECORD_BYTES} bytes: too large for a game record")
    return data


def _read_bytes(path: str) -> bytes:
    """A regular file of at most `MAX_RECORD_BYTES` (wuzi.base.files: a FIFO, a directory
    or a device is refused by name, never read)."""
    try:
        return read_bytes(path, RECORD_FILE)
    except FileError as exc:
        raise _Failure(str(exc)) from None


def _write(path: str, data: str | bytes) -> None:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
        return
    try:
        with open(path, "wb") as f:
            f.write(raw)
    except OSError as exc:
        raise _Failure(f"cannot write {path}: {exc.strerror or exc}") from None


def _convert(args: argparse.Namespace) -> int:
    try:
        source = _format(args.source_format, args.input, "--from")
        target = _format(args.target_format, args.output, "--to")
        record = _read(args.input, source)
        try:
            data = export(record, target)
        except RulesError as exc:
            raise _Failure(f"{args.output}: {exc}") from None
        _write(args.output, data)
    except _Failure as exc:
        print(f"wuzi rules record convert: {exc}", file=sys.stderr)
        return 1
    return 0


def _show(args: argparse.Namespace) -> int:
    try:
        record = _read(args.file, _format(args.source_format, args.file, "--from"))
    except _Failure as exc:
        print(f"wuzi rules record show: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(str(export(record, "sheet")))
    return 0


def _formats_epilog() -> str:
    lines = ["formats:"]
    for f in FORMATS.values():
        ext = " ".join(f.extensions) or "(name it with --from/--to)"
        lines.append(f"  {f.name:<15} {ext:<28} {f.description}")
    return "\n".join(lines)


def register(sub: Any) -> None:
    """Add ``record`` to the ``wuzi rules`` subcommands."""
    record = sub.add_parser(
        "record",
        help="convert game records between formats, print them",
        description="Game records: JSON, SGF, Piskvork .psq, RenLib .pos/.lib, move lists, "
        "score sheets.",
        epilog=_formats_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = record.add_subparsers(dest="record_command", metavar="SUBCOMMAND", required=True)

    p = commands.add_parser(
        "convert",
        help="read a record in one format and write it in another",
        description="Read IN and write OUT, each in the format its name says (or --from/--to). "
        "'-' is stdin/stdout. A malformed IN is reported with its line or byte and nothing "
        "is written; what OUT's format cannot hold is left out (see docs/records.md).",
        epilog=_formats_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", metavar="IN", help="the record to read ('-' for stdin)")
    p.add_argument("output", metavar="OUT", help="the file to write ('-' for stdout)")
    p.add_argument("--from", dest="source_format", metavar="F", help="IN's format")
    p.add_argument("--to", dest="target_format", metavar="F", help="OUT's format")
    p.set_defaults(func=_convert)

    p = commands.add_parser(
        "show",
        help="print a record as a text score sheet",
        description="Print FILE as a plain-text score sheet: header, moves with times, "
        "claims, infractions, referee actions and the result.",
        epilog=_formats_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help="the record to print ('-' for stdin)")
    p.add_argument("--from", dest="source_format", metavar="F", help="FILE's format")
    p.set_defaults(func=_show)
