"""``wuzi.base.text``: the one check of names — what it refuses, what it keeps, and that
its messages name the field and the character without printing it."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from support.hostile import GOOD_NAMES, HOSTILE_NAMES
from wuzi.base.text import (
    REFUSED_CATEGORIES,
    TextError,
    check_text,
    describe_char,
    escape_controls,
)


@pytest.mark.parametrize(
    ("label", "name", "code"), HOSTILE_NAMES, ids=[h[0] for h in HOSTILE_NAMES]
)
def test_every_hostile_name_is_refused_naming_the_field_and_the_character(
    label: str, name: str, code: int
) -> None:
    with pytest.raises(TextError) as info:
        check_text("player name", name, max_length=64)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert info.value.field == "player name"
    assert message.startswith("player name: ")
    assert f"U+{code:04X}" in message
    assert f"at character {name.index(chr(code)) + 1}" in message
    # the message itself is safe to print: it holds no refused character
    assert escape_controls(message) == message, label


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_names_of_every_script_pass_unchanged(name: str) -> None:
    assert check_text("player name", name, max_length=64) is name


def test_empty_long_and_non_text_values() -> None:
    with pytest.raises(TextError, match=r"^club: is empty$"):
        check_text("club", "  ", max_length=10)
    assert check_text("club", "", max_length=10, allow_empty=True) == ""
    with pytest.raises(
        TextError, match=r"^event name: 'x{37}'\.\.\. is 101 characters long; at most 100$"
    ):
        check_text("event name", "x" * 101, max_length=100)
    assert check_text("event name", "x" * 100, max_length=100)
    with pytest.raises(TextError, match="expected text, not int"):
        check_text("player name", 7, max_length=10)


def test_a_refused_character_is_found_before_the_length() -> None:
    """A long value with a line break says the line break: the harm, not the size."""
    with pytest.raises(TextError, match=r"U\+000A"):
        check_text("name", "x" * 200 + "\n", max_length=10)


def test_no_accepted_character_breaks_a_line_or_is_a_control() -> None:
    """Over every code point: what passes never splits a line for Python (``splitlines``
    breaks at more than ``\\n``: U+001C–U+001E, U+0085, U+2028…) and is never a C0 or C1
    control; what is refused is exactly the refused categories."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        refused = unicodedata.category(char) in REFUSED_CATEGORIES
        if not refused:
            assert len(f"a{char}b".splitlines()) == 1, hex(code)
            assert not (code < 0x20 or 0x7F <= code <= 0x9F), hex(code)
        elif code % 97 == 0 or code < 0x100 or 0x2000 <= code <= 0x2070:  # a sample: speed
            with pytest.raises(TextError):
                check_text("f", f"a{char}b", max_length=8)


def test_describe_char_names_controls_that_unicode_leaves_unnamed() -> None:
    assert describe_char("\x1b") == "U+001B (ESCAPE, a control character)"
    assert describe_char("\x00") == "U+0000 (NUL, a control character)"
    assert describe_char("\x81") == "U+0081 (a control character)"
    assert describe_char("\u202e") == (
        "U+202E (RIGHT-TO-LEFT OVERRIDE, an invisible format character)"
    )


def test_escape_controls_makes_text_inert_and_leaves_good_text_alone() -> None:
    assert escape_controls("a\nb\x1b[2J\u202e") == "a\\nb\\x1b[2J\\u202e"
    for name in GOOD_NAMES:
        assert escape_controls(name) is name
    for _label, name, _code in HOSTILE_NAMES:
        escaped = escape_controls(name)
        check_text("escaped", escaped, max_length=200)
        assert len(escaped.splitlines()) == 1
