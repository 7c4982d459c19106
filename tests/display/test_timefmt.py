"""Clock faces and their next change: the hall's screens and the table clocks agree."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.clock.face import face_text
from wuzi.display.timefmt import (
    NEVER_MS,
    extrapolate_ms,
    format_clock,
    next_visible_change_ms,
)


@pytest.mark.parametrize(
    ("remaining_ms", "face"),
    [
        (5_025_000, "1:23:45"),
        (3_600_000, "1:00:00"),
        (3_599_001, "1:00:00"),  # rounded up: 59:59.001 still shows the hour
        (3_599_000, "59:59"),
        (754_000, "12:34"),
        (753_001, "12:34"),
        (60_000, "1:00"),
        (10_001, "0:11"),
        (10_000, "10.0"),
        (9_801, "9.9"),
        (9_800, "9.8"),
        (100, "0.1"),
        (1, "0.1"),
        (0, "0.0"),
        (-1, "0.0"),
        (-3_000, "0.0"),  # a fallen flag: the screen marks it separately
    ],
)
def test_format_clock(remaining_ms: int, face: str) -> None:
    assert format_clock(remaining_ms) == face


@given(st.integers(-(10**7), 10**9))
def test_same_face_as_the_table_clock(remaining_ms: int) -> None:
    assert format_clock(remaining_ms) == face_text(remaining_ms * 1_000_000)


def test_stopped_or_gone_never_changes() -> None:
    assert next_visible_change_ms(90_000, False) == NEVER_MS
    assert next_visible_change_ms(0, True) == NEVER_MS
    assert next_visible_change_ms(-5, True) == NEVER_MS


@pytest.mark.parametrize(
    ("remaining_ms", "due"),
    [(754_000, 1000), (753_999, 999), (10_001, 1), (10_000, 100), (9_850, 50), (1, 1)],
)
def test_next_change(remaining_ms: int, due: int) -> None:
    assert next_visible_change_ms(remaining_ms, True) == due


@given(st.integers(1, 10**8))
def test_face_holds_until_the_change_and_changes_then(remaining_ms: int) -> None:
    due = next_visible_change_ms(remaining_ms, True)
    assert 1 <= due <= 1000
    face = format_clock(remaining_ms)
    assert format_clock(remaining_ms - (due - 1)) == face
    assert format_clock(remaining_ms - due) != face


def test_extrapolate() -> None:
    assert extrapolate_ms(60_000, True, base_ms=1_000, now_ms=3_500) == 57_500
    assert extrapolate_ms(60_000, False, base_ms=1_000, now_ms=3_500) == 60_000
    assert extrapolate_ms(60_000, True, base_ms=5_000, now_ms=3_500) == 60_000  # never back
