"""Reading an organiser's CSV file: bytes to text to records, every error naming the line.

The files come from spreadsheets and online platforms, so the ways they go wrong are
known: saved in a legacy code page (GBK, Windows-1252) or as UTF-16 ("Unicode text"), an
``.xlsx`` workbook renamed ``.csv``, a cell with a line break or a control character. Each
is a ``CsvError`` naming the line (and the column where there is one), never a traceback:

* ``decode_csv`` — UTF-8 only (a leading BOM, as spreadsheets write it, is dropped); an
  undecodable byte names its line and its byte in that line; NUL anywhere names its line
  and character;
* ``csv_records`` — every record with the line it *starts* on: a quoted cell may hold a
  line break, so record numbers and line numbers differ, and a message must name the line
  the organiser sees in an editor;
* ``check_cell`` — a cell a name is taken from, by ``wuzi.base.text.check_text``.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable

from wuzi.base.files import ENTRANTS_CSV, FileError, FileKind, read_bytes
from wuzi.base.text import TextError, check_text
from wuzi.tournament.errors import CsvError, CsvFileError

MAX_CSV_BYTES = ENTRANTS_CSV.max_bytes
"""A CSV of entrants or of a preliminary's games is kilobytes; a file of 16 MiB is a
mistake (the wrong file), refused before it is read whole (wuzi.base.files)."""

_SAVE_AS = "save it from the spreadsheet as 'CSV UTF-8'"


def read_csv(path: str | os.PathLike[str], what: str) -> str:
    """The text of the CSV file at ``path`` (``decode_csv``); ``CsvError`` naming the file
    if it is not a regular file, cannot be read, is too big (`ENTRANTS_CSV`) or is not
    UTF-8 text."""
    try:
        data = read_bytes(path, FileKind(ENTRANTS_CSV.name, MAX_CSV_BYTES))
    except FileError as exc:  # ``what`` names the file already, or is followed by it
        shown = f"{what}: {exc.problem}" if os.fspath(path) in what else f"{what} {exc}"
        raise CsvFileError(shown) from None
    return decode_csv(data, what)


def decode_csv(data: bytes, what: str) -> str:
    """``data`` as UTF-8 text without its BOM, or ``CsvError`` naming the line."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CsvError(
            f"{what} line 1: the file is UTF-16 (a spreadsheet's 'Unicode text'); {_SAVE_AS}"
        )
    if data.startswith(b"PK\x03\x04"):
        raise CsvError(
            f"{what} line 1: the file is a ZIP archive (an .xlsx workbook?), not CSV; {_SAVE_AS}"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise CsvError(
            f"{what} line {line}: not UTF-8 (byte {column} of the line is "
            f"0x{data[exc.start]:02X}; GBK or Windows-1252?); {_SAVE_AS}"
        ) from None
    text = text.removeprefix("\ufeff")
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        column = nul - (text.rfind("\n", 0, nul) + 1) + 1
        raise CsvError(
            f"{what} line {line}, character {column}: NUL (U+0000); a CSV file holds text, "
            f"not binary data; {_SAVE_AS}"
        )
    return text


def csv_lines(text: str) -> Iterable[str]:
    """``text`` as the csv module wants it: split only at ``\\n``, ``\\r\\n`` and ``\\r``
    (``str.splitlines`` also splits at U+2028, U+0085 and others, which would cut a
    record where no editor shows a line break)."""
    return io.StringIO(text, newline="")


def csv_records(lines: Iterable[str], what: str) -> list[tuple[int, list[str]]]:
    """Every record of the CSV with the line it starts on (from 1)."""
    reader = csv.reader(lines)
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for row in reader:
            records.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise CsvError(f"{what} line {reader.line_num}: {exc}") from None
    return records


def check_cell(what: str, line: int, column: str, value: str, max_length: int) -> None:
    """``CsvError`` naming the line and column if the cell holds a character no name may
    hold (``wuzi.base.text``) or is longer than ``max_length``; empty cells pass."""
    try:
        check_text(f"column {column!r}", value, max_length=max_length, allow_empty=True)
    except TextError as exc:
        raise CsvError(f"{what} line {line}, column {column!r}: {exc.problem}") from None
