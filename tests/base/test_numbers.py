"""wuzi.base.numbers: a whole number in ASCII digits within a range, or a NumberError."""

from __future__ import annotations

import pytest

from wuzi.base.numbers import NumberError, parse_int


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("3456", 3456), ("-5", -5), ("0012", 12)])
def test_ascii_decimal_in_range_is_read(text: str, value: int) -> None:
    assert parse_int(text, "rating", -10, 4000) == value


@pytest.mark.parametrize(
    "text",
    ["٣٤٥٦", "３４５６", "۳۴۵۶", "३४५६", "1_000", " 7", "7\n", "+7", "1e3", "0x10", "", "-", "7.0"],
)
def test_anything_but_ascii_digits_is_refused(text: str) -> None:
    with pytest.raises(NumberError) as info:
        parse_int(text, "rating", 0, 4000)
    assert str(info.value).startswith(repr(text))
    assert info.value.field == "rating"


def test_python_int_takes_what_a_file_never_meant() -> None:
    """Why the parser exists: int() reads other scripts' digits and underscores."""
    assert int("٣٤٥٦") == int("３４５６") == int("3_456") == 3456


def test_other_scripts_digits_are_named_as_such() -> None:
    with pytest.raises(NumberError, match="ASCII digits 0-9 \\(another script's digits\\)"):
        parse_int("٣٤٥٦", "rating", 0, 4000)


def test_out_of_range_names_the_field_and_the_range() -> None:
    with pytest.raises(NumberError) as info:
        parse_int("4001", "rating", 0, 4000)
    assert str(info.value) == "'4001' is out of range: the rating is from 0 to 4000"
    with pytest.raises(NumberError, match="out of range"):
        parse_int("-1", "rating", 0, 4000)


def test_a_number_of_thousands_of_digits_is_refused_quickly() -> None:
    with pytest.raises(NumberError, match="not a whole number"):
        parse_int("9" * 5000, "moves", 0, 225)
