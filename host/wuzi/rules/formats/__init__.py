"""Game record file formats: one pure function each way per format, and a registry.

``export(record, fmt)`` gives ``str`` for text formats and ``bytes`` for binary ones;
``load(data, fmt)`` takes ``str`` or ``bytes`` (text formats decode UTF-8) and returns a
``GameRecord``. A malformed file raises ``RecordFormatError`` naming the line (text) or
the byte offset (binary); what a reader reads past (a file another program wrote a little
off the format) goes to ``load(…, warn=callback)`` as a sentence naming the line or byte,
or without a callback is issued as a ``RecordWarning`` (``wuzi.rules.formats.common``).
``format_for_path`` picks a format from a file name; ``read_record`` and ``write_record``
are the only functions here that touch files.

=================  ==============  =========================================  =========
name               extensions      what it is                                 reads back
=================  ==============  =========================================  =========
``json``           .json           Wuzi's own record: everything              yes
``sgf``            .sgf            SGF FF[4] GM[4]; everything (WZ… props)   yes
``psq``            .psq            Piskvork / Gomocup: moves, times, names    yes
``pos``            .pos            RenLib position: the moves                 yes
``lib``            .lib            RenLib library: the moves (+ a comment)    yes
``moves``          .txt .moves     ``h8 i9 j10 …``                            yes
``moves-numbered``                 ``1. h8 i9`` / ``2. j10 k11`` …            yes
``sheet``          .sheet.txt      printable score sheet, plain text          no
``sheet-html``     .html .htm      printable score sheet, HTML for A4         no
=================  ==============  =========================================  =========
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from wuzi.base.files import RECORD_FILE, FileError, read_bytes
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.formats.common import RecordWarning, Warn
from wuzi.rules.formats.movelist import export_moves, export_numbered, load_moves
from wuzi.rules.formats.psq import export_psq, load_psq
from wuzi.rules.formats.renlib import export_lib, export_pos, load_lib, load_pos
from wuzi.rules.formats.scoresheet import export_scoresheet_html, export_scoresheet_text
from wuzi.rules.formats.sgf import export_sgf, load_sgf
from wuzi.rules.record import GameRecord
from wuzi.rules.record_json import record_from_json, record_to_json

__all__ = [
    "FORMATS",
    "Format",
    "RecordReader",
    "RecordWarning",
    "Warn",
    "export",
    "format_for_path",
    "get_format",
    "load",
    "read_record",
    "write_record",
]


class RecordReader(Protocol):
    """A format's reader: the data, and where to report what it reads past."""

    def __call__(self, data: str | bytes, /, *, warn: Warn | None = None) -> GameRecord: ...


@dataclass(frozen=True)
class Format:
    """One file format: its name, file name endings, and its writer and reader."""

    name: str
    extensions: tuple[str, ...]
    description: str
    binary: bool
    writer: Callable[[GameRecord], str | bytes]
    reader: RecordReader | None


def _json(record: GameRecord) -> str:
    return record_to_json(record)


def _read_json(data: str | bytes, /, *, warn: Warn | None = None) -> GameRecord:
    return record_from_json(data)  # Wuzi's own format: anything off is an error


def _read_moves(data: str | bytes, /, *, warn: Warn | None = None) -> GameRecord:
    return load_moves(data)  # a move list has nothing to read past


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("json", (".json",), "Wuzi JSON record (everything)", False, _json, _read_json),
        Format("sgf", (".sgf",), "SGF FF[4] GM[4] (everything)", False, export_sgf, load_sgf),
        Format("psq", (".psq",), "Piskvork game (moves, times)", False, export_psq, load_psq),
        Format("pos", (".pos",), "RenLib position (moves)", True, export_pos, load_pos),
        Format("lib", (".lib",), "RenLib library (moves)", True, export_lib, load_lib),
        Format("moves", (".txt", ".moves"), "plain move list", False, export_moves, _read_moves),
        Format("moves-numbered", (), "numbered move list", False, export_numbered, _read_moves),
        Format("sheet", (".sheet.txt",), "score sheet, text", False, export_scoresheet_text, None),
        Format(
            "sheet-html",
            (".html", ".htm"),
            "score sheet, HTML",
            False,
            export_scoresheet_html,
            None,
        ),
    )
}


def get_format(name: str) -> Format:
    """The format called ``name`` (any case); RecordFormatError lists the known ones."""
    fmt = FORMATS.get(name.strip().lower())
    if fmt is None:
        raise RecordFormatError(f"unknown record format {name!r}: known formats are {_known()}")
    return fmt


def _known() -> str:
    return ", ".join(FORMATS)


def export(record: GameRecord, fmt: str) -> str | bytes:
    """The record in format ``fmt``: ``str`` for text formats, ``bytes`` for binary ones.

    A record the format cannot hold (a pass in a ``.pos`` file…) raises RecordFormatError
    naming the move; anything else the format has no room for is left out (docs/records.md
    lists what each format keeps).
    """
    return get_format(fmt).writer(record)


def load(data: str | bytes, fmt: str, *, warn: Warn | None = None) -> GameRecord:
    """Read a record in format ``fmt``; a malformed file names its line or byte.

    What the reader reads past is handed to ``warn`` (one sentence each, naming the line
    or byte); without it each is issued as a ``RecordWarning``."""
    f = get_format(fmt)
    if f.reader is None:
        raise RecordFormatError(
            f"the {f.name} format ({f.description}) is written for people; it cannot be read"
        )
    return f.reader(data, warn=warn)


def format_for_path(path: str | os.PathLike[str]) -> str:
    """The format of a file name by its ending (any case), longest ending first."""
    name = Path(path).name.lower()
    endings = sorted(
        ((ext, f.name) for f in FORMATS.values() for ext in f.extensions),
        key=lambda pair: -len(pair[0]),
    )
    for ext, fmt in endings:
        if name.endswith(ext):
            return fmt
    raise RecordFormatError(
        f"cannot tell the format of {os.fspath(path)!r} from its name; name it with --from/--to "
        f"(one of {_known()})"
    )


def read_record(
    path: str | os.PathLike[str], fmt: str | None = None, *, warn: Warn | None = None
) -> GameRecord:
    """Read a record file (the format from its name unless given). A thin shell: I/O only;
    a file that is not a regular one of at most 16 MiB is a `RecordFormatError` naming it."""
    try:
        data = read_bytes(path, RECORD_FILE)
    except FileError as exc:
        raise RecordFormatError(str(exc)) from None
    return load(data, fmt or format_for_path(path), warn=warn)


def write_record(record: GameRecord, path: str | os.PathLike[str], fmt: str | None = None) -> None:
    """Write a record file (text as UTF-8). A thin shell: I/O only."""
    data = export(record, fmt or format_for_path(path))
    Path(path).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
