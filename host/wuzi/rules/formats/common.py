"""Helpers shared by the record formats: text decoding, error wording and warnings.

A reader reports what is wrong but not fatal in a file another program wrote (``GM[1]``
on a 15×15 board, an unknown ``RU``, bytes after a ``.pos`` file's moves…) as a
*warning*: one sentence naming the line or byte, like an error's message, handed to the
``warn`` callback every reader takes (``load(data, fmt, warn=…)``). The record is read all
the same. Without a callback a warning is issued as a Python ``RecordWarning`` (so a
library caller sees it unless they filter it); ``wuzi rules record`` prints each one on
stderr as ``warning: FILE: …`` and exits 0.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

from wuzi.rules.errors import RecordFormatError

Warn = Callable[[str], None]
"""Where a reader reports a problem it reads past: one sentence naming the line or byte."""


class RecordWarning(UserWarning):
    """A record file's problem that the reader read past (see ``Warn``)."""


def warner(warn: Warn | None) -> Warn:
    """``warn`` itself, or (None) a callback issuing each message as a ``RecordWarning``."""
    if warn is not None:
        return warn

    def issue(message: str) -> None:
        warnings.warn(message, RecordWarning, stacklevel=3)  # at the reader's caller

    return issue


def decode_text(data: str | bytes, what: str) -> str:
    """``data`` as text: a str as it is, bytes as UTF-8 (a byte-order mark is dropped).

    Bytes that are not UTF-8 are reported with the offset of the first bad byte, so a
    file saved in a legacy code page says where it went wrong.
    """
    if isinstance(data, str):
        return data
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"a {what} record is text or bytes, not {type(data).__name__}")
    try:
        return bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordFormatError(
            f"byte {exc.start}: not UTF-8 text ({what} files are UTF-8)"
        ) from None


def binary(data: str | bytes, what: str) -> bytes:
    """``data`` as bytes for a binary format; text is refused (it would be mangled)."""
    if isinstance(data, bytes | bytearray | memoryview):
        return bytes(data)
    raise RecordFormatError(f"a {what} file is binary: give its bytes, not text")


def split_lines(text: str) -> list[str]:
    """Lines without their endings (LF, CRLF or CR), numbered from 1 by the caller."""
    return text.splitlines()
