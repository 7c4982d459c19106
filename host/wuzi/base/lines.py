"""Reading a line-based input (stdin, a script) with a bound on each line.

``for line in sys.stdin`` holds a whole line in memory however long it is (a 30 MB line
without a newline cost ``wuzi rules forbidden`` 0.9 GB) and raises ``UnicodeDecodeError``
from deep inside the loop when the bytes are not UTF-8. ``read_lines`` reads at most
``max_bytes`` of a line, skips the rest of an over-long line in bounded pieces, and hands
each line to the caller with the reason it cannot be used (too long, not UTF-8), so each
command decides whether a bad line stops it or only that line, and says which line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

__all__ = ["MAX_LINE_BYTES", "Line", "read_lines"]

MAX_LINE_BYTES = 4096
"""The default bound: every line a Wuzi command reads is far shorter (a full board's
225 moves as a position line is under 1000 bytes; a clock event under 60)."""

_SKIP_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Line:
    """One line as read: ``number`` (1-based), ``text`` (with its line ending; empty when
    ``problem`` says why the line cannot be used)."""

    number: int
    text: str
    problem: str | None = None


def _source(stream: IO[Any]) -> IO[Any]:
    """The bytes under a text stream when there are any (``sys.stdin.buffer``): the line is
    then decoded here, so a line that is not UTF-8 is reported, not raised."""
    buffer = getattr(stream, "buffer", None)
    return stream if buffer is None else buffer


def _skip_rest(stream: IO[Any]) -> None:
    """Discard the rest of the current line in bounded pieces."""
    while True:
        chunk = stream.readline(_SKIP_CHUNK)
        if not chunk or chunk.endswith(b"\n" if isinstance(chunk, bytes) else "\n"):
            return


def _decode(raw: bytes, first: bool) -> tuple[str, str | None]:
    if first and raw.startswith(b"\xef\xbb\xbf"):  # a BOM from a Windows editor
        raw = raw[3:]
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return "", f"it is not UTF-8 text (byte {exc.start + 1} is {raw[exc.start]:#04x})"


def read_lines(stream: IO[Any], max_bytes: int = MAX_LINE_BYTES) -> Iterator[Line]:
    """Each line of ``stream`` (bytes or text), reading at most ``max_bytes`` + 1 of it at
    once; a longer line is skipped to its end and reported by its number."""
    source = _source(stream)
    number = 0
    while True:
        chunk = source.readline(max_bytes + 1)
        if not chunk:
            return
        number += 1
        text_mode = isinstance(chunk, str)
        newline = "\n" if text_mode else b"\n"
        body = chunk[:-1] if chunk.endswith(newline) else chunk
        if len(body) > max_bytes:
            _skip_rest(source)
            unit = "characters" if text_mode else "bytes"
            yield Line(number, "", f"the line is longer than {max_bytes} {unit}")
            continue
        if text_mode:
            yield Line(number, chunk)
            continue
        text, problem = _decode(chunk, number == 1)
        yield Line(number, text, problem)
