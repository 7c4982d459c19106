"""The one check for names and short text fields that people type: players, teams, clubs,
events, referees.

A name travels into fixed-column files (TRF), CSV for spreadsheets, HTML pages, the desk's
terminal and the public screens. A control character there does harm: a line break splits
a TRF record and injects a line of the attacker's choosing, an escape sequence rewrites
the organiser's terminal, NUL cuts a C string short. So a name refuses:

* ``Cc`` — every C0 control (NUL, tab, line feed, carriage return, escape…), DEL and every
  C1 control (U+0080–U+009F, among them NEL, a line break to many readers);
* ``Cf`` — the invisible format characters: the bidi embeddings, overrides and isolates
  (U+202A–U+202E, U+2066–U+2069), which make a name *display* in another order than it
  is stored ("Trojan Source", CVE-2021-42574); the zero-width space, joiners and word
  joiner, the soft hyphen and the BOM, which make two different names look the same on
  a screen or a printed sheet (an impersonation at the desk), and the tag characters.
  The price: a Persian or Indic name that needs U+200C/U+200D (ZWNJ/ZWJ) and emoji
  sequences built with ZWJ are refused; a Gomoku event's Chinese and Latin names never
  need them;
* ``Zl`` / ``Zp`` — U+2028 and U+2029, line breaks to Python's ``splitlines``, JavaScript
  and many viewers;
* ``Cs`` — lone surrogates, which are no characters and cannot be written as UTF-8.

Everything else is allowed: letters of every script, spaces (also the ideographic space),
punctuation, private-use and not yet assigned code points (not controls; refusing the
unassigned would refuse names written in characters newer than this Python's Unicode
tables).

The lowest layer: it imports nothing of Wuzi (``.importlinter``).
"""

from __future__ import annotations

import unicodedata

__all__ = ["REFUSED_CATEGORIES", "TextError", "check_text", "describe_char", "escape_controls"]

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""The Unicode general categories a name may not contain (see the module docstring)."""

_SHOW = 40  # characters of a refused value shown in a message

_ALIASES = {
    0x00: "NUL",
    0x07: "BELL",
    0x08: "BACKSPACE",
    0x09: "TAB",
    0x0A: "LINE FEED",
    0x0B: "LINE TABULATION",
    0x0C: "FORM FEED",
    0x0D: "CARRIAGE RETURN",
    0x1B: "ESCAPE",
    0x7F: "DELETE",
    0x85: "NEXT LINE",
    0x9B: "CONTROL SEQUENCE INTRODUCER",
}
_KINDS = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Cs": "a lone surrogate",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


class TextError(ValueError):
    """A name or text field that cannot be used; ``str()`` is ``field: problem``, so the
    message always says which field is wrong."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


def describe_char(char: str) -> str:
    """A character for an error message, never the character itself:
    ``U+000A (LINE FEED, a control character)``."""
    code = ord(char)
    category = unicodedata.category(char)
    name = _ALIASES.get(code) or unicodedata.name(char, "")
    kind = _KINDS.get(category, f"category {category}")
    return f"U+{code:04X} ({name}, {kind})" if name else f"U+{code:04X} ({kind})"


def _show(value: str) -> str:
    """``repr`` escapes every control and format character, so the message is safe to
    print; long values are cut."""
    return repr(value) if len(value) <= _SHOW else repr(value[: _SHOW - 3]) + "..."


def check_text(field: str, value: object, *, max_length: int, allow_empty: bool = False) -> str:
    """``value`` if it is a usable name for ``field`` (e.g. ``"player name"``), else
    ``TextError`` naming the field, the character and its position (from 1).

    Empty (or only spaces) is refused unless ``allow_empty``; more than ``max_length``
    characters is refused. The value is returned unchanged: trimming is the caller's
    business."""
    if not isinstance(value, str):
        raise TextError(field, f"expected text, not {type(value).__name__}")
    if not allow_empty and not value.strip():
        raise TextError(field, "is empty")
    for index, char in enumerate(value, start=1):
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise TextError(
                field,
                f"{_show(value)} has {describe_char(char)} at character {index}; names may "
                "not hold control characters, line breaks or invisible format characters "
                "(bidi overrides, zero-width characters)",
            )
    if len(value) > max_length:
        raise TextError(
            field, f"{_show(value)} is {len(value)} characters long; at most {max_length}"
        )
    return value


def escape_controls(text: str) -> str:
    """``text`` with every refused character written as a Python escape (``\\x1b``,
    ``\\u202e``): for showing text that was never checked (an old log line, a file name)
    on a terminal or in a fixed-column file without letting it act."""
    if not any(unicodedata.category(c) in REFUSED_CATEGORIES for c in text):
        return text
    return "".join(
        repr(c)[1:-1] if unicodedata.category(c) in REFUSED_CATEGORIES else c for c in text
    )
