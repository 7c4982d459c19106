"""What a display shows and when it next changes: whole seconds, tenths under 10 s,
byo-yomi periods, the end of a delay, the flag — never more often than it must."""

from __future__ import annotations

import pytest

from wuzi.clock import NS_PER_MS, NS_PER_S, Clock
from wuzi.clock.face import change_after_ns, face_text
from wuzi.rules.procedure import Seat

S = NS_PER_S
MS = NS_PER_MS


@pytest.mark.parametrize(
    ("ns", "text"),
    [
        (3600 * S, "1:00:00"),
        (3600 * S + 1, "1:00:01"),
        (300 * S, "5:00"),
        (299 * S + 1, "5:00"),
        (299 * S, "4:59"),
        (11 * S, "0:11"),
        (10 * S + 1, "0:11"),
        (10 * S, "10.0"),
        (9900 * MS + 1, "10.0"),
        (9900 * MS, "9.9"),
        (1, "0.1"),
        (0, "0.0"),
    ],
)
def test_face_text_rounds_up(ns: int, text: str) -> None:
    assert face_text(ns) == text


def test_change_after() -> None:
    assert change_after_ns(300 * S) == S  # a fresh 5:00 stays for a whole second
    assert change_after_ns(10 * S + 500 * MS) == 500 * MS  # then 10.0
    assert change_after_ns(10 * S) == 100 * MS
    assert change_after_ns(50 * MS) == 50 * MS


def test_next_change_in_seconds_then_tenths_then_the_flag() -> None:
    clock = Clock("12")
    clock.start(0)
    assert clock.next_visible_change_ns(0) == S
    assert clock.next_visible_change_ns(S + 1) == 2 * S
    assert clock.next_visible_change_ns(2 * S) == 2 * S + 100 * MS  # 10.0 -> 9.9
    assert clock.next_visible_change_ns(11 * S + 950 * MS) == 12 * S  # the flag
    assert clock.next_visible_change_ns(12 * S) is None  # stopped by the flag


def test_nothing_changes_while_nothing_runs() -> None:
    clock = Clock("60")
    assert clock.next_visible_change_ns(0) is None
    clock.start(0)
    clock.pause(S)
    assert clock.next_visible_change_ns(5 * S) is None


def test_next_change_at_byo_yomi_period_boundaries() -> None:
    clock = Clock("2:3x15")
    clock.start(0)
    assert clock.next_visible_change_ns(1500 * MS) == 1600 * MS
    assert clock.next_visible_change_ns(1950 * MS) == 2 * S  # main time over: 0:15 [3]
    view = clock.view(2 * S)
    assert view.first.text == "0:15 [3]"
    assert clock.next_visible_change_ns(2 * S) == 3 * S
    assert clock.view(17 * S).first.text == "0:15 [2]"  # period 1 lost


def test_next_change_at_the_end_of_a_delay() -> None:
    clock = Clock("60d5")
    clock.start(0)
    assert clock.view(0).first.text == "1:00 d"
    assert clock.next_visible_change_ns(0) == 5 * S  # the bank does not move in the delay
    assert clock.view(5 * S).first.text == "1:00"
    assert clock.next_visible_change_ns(5 * S) == 6 * S
    assert clock.view(5 * S).second.text == "1:00"  # not its turn: no delay marker


def test_flag_text() -> None:
    clock = Clock("1")
    clock.start(0)
    assert clock.view(2 * S).side(Seat.FIRST).text == "0.0 flag"


def test_canadian_text() -> None:
    clock = Clock("c5/60")
    clock.start(0)
    clock.press(S)
    clock.press(2 * S)
    assert clock.view(2 * S).first.text == "0:59 /4"
