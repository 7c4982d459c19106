"""The one strict parser of a whole number read from a file: ASCII decimal, in a range.

Python's ``int()`` takes far more than a file's author meant: ``int("٣٤٥٦")`` (Arabic-
Indic digits) and ``int("３４５６")`` (fullwidth) are 3456, ``int("1_000")`` is 1000,
``int(" 7\\n")`` is 7, and a 5000-digit number raises an error that names no field. So a
rating typed with another keyboard became a rating in a TRF export, unseen. `parse_int`
takes an optional ``-`` (only where the range allows a negative number) and the digits
0-9, nothing else, and checks the range the format allows; its `NumberError` names the
field and the text, and the caller adds the file and line.

The lowest layer: it imports nothing of Wuzi (``.importlinter``).
"""

from __future__ import annotations

import re

__all__ = ["NumberError", "parse_int"]

_DECIMAL = re.compile(r"-?[0-9]{1,19}")
"""ASCII only (``\\d`` would match every Unicode digit); 19 digits cover a 64-bit int."""


class NumberError(ValueError):
    """A field that is not a whole number in the allowed range: ``str()`` quotes the text
    and says what is wrong (the caller names the file, line and column before it);
    ``field`` names the field for a caller that has no column name of its own."""

    def __init__(self, field: str, text: str, problem: str) -> None:
        shown = text if len(text) <= 40 else text[:40] + "…"
        super().__init__(f"{shown!r} {problem}")
        self.field = field
        self.text = text


def parse_int(text: str, field: str, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high``; `NumberError` naming
    ``field`` for anything else (other digits, signs, spaces, underscores, exponents)."""
    if _DECIMAL.fullmatch(text) is None:
        if any(c.isdigit() and not c.isascii() for c in text):
            problem = "is not a whole number in ASCII digits 0-9 (another script's digits)"
        else:
            problem = "is not a whole number in the digits 0-9"
        raise NumberError(field, text, problem)
    value = int(text)
    if not low <= value <= high:
        raise NumberError(field, text, f"is out of range: the {field} is from {low} to {high}")
    return value
