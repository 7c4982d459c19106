"""The clock display's view model: faces, extrapolation, flags, pause, change times."""

from __future__ import annotations

from dataclasses import replace

import pytest

from wuzi.bus import topics
from wuzi.bus.schemas import Cleared, TableEvent
from wuzi.display.clock_model import (
    ClockModel,
    clock_face,
    waiting_face,
)
from wuzi.display.clock_sample import (
    SAMPLE_TABLE,
    sample_assignment,
    sample_clock_messages,
    sample_clock_state,
)
from wuzi.display.sample import SAMPLE_VENUE
from wuzi.display.timefmt import NEVER_MS

V = SAMPLE_VENUE
T = SAMPLE_TABLE
STATE_TOPIC = topics.table_state(V, T)


def sample_model(received_ms: int = 1000) -> ClockModel:
    model = ClockModel(T)
    for topic, message in sample_clock_messages():
        assert model.apply(topic, message, received_ms)
    return model


def test_sample_face_shows_tenths_for_the_running_side_and_minutes_for_the_other() -> None:
    face = sample_model().face(1000)
    assert face.black.text == "7.3" and face.black.running and face.black.low
    assert face.white.text == "4:21" and not face.white.running and not face.white.low
    assert not face.black.flagged and not face.white.flagged
    assert (face.black.name, face.white.name) == ("王伟", "李秀英")
    assert (face.black.stones, face.white.stones) == (13, 13)
    assert face.moves == 26 and face.move_label == "第 27 手 · move 27"
    assert face.status == "playing" and not face.paused and face.result_label == ""
    assert "2700+30" in face.detail and "board 2" in face.detail and "game 1" in face.detail
    assert face.title == "第 3 桌 Table 3"


def test_the_running_side_counts_down_from_the_receive_time_not_the_host_stamp() -> None:
    model = sample_model(received_ms=5_000)
    assert model.face(6_000).black.text == "6.3"  # 7.25 s - 1 s, rounded up
    assert model.face(6_000).white.text == "4:21"  # the stopped side does not move
    assert model.face(4_000).black.text == "7.3"  # before the receipt: never counts up


def test_next_change_is_the_next_tenth_then_never_once_the_flag_is_down() -> None:
    model = sample_model(received_ms=0)
    assert model.next_change_ms(0) == 50  # 7250 -> 7200 changes 7.3 to 7.2
    assert model.face(49).black.text == "7.3" and model.face(50).black.text == "7.2"
    assert model.face(7_249).black.text == "0.1"
    flagged = model.face(7_250).black
    assert flagged.text == "0.0" and flagged.flagged and flagged.running
    assert model.next_change_ms(7_250) == NEVER_MS
    assert model.face(9_999) == model.face(7_250)  # nothing visible changes any more


def test_equal_faces_within_one_second_above_ten_seconds() -> None:
    state = replace(sample_clock_state(), black_ms=65_400)
    assert clock_face(state, 0, 0) == clock_face(state, 0, 399)
    assert clock_face(state, 0, 0) != clock_face(state, 0, 400)
    assert clock_face(state, 0, 0).black.text == "1:06"
    model = ClockModel(T)
    model.apply(STATE_TOPIC, state, 0)
    assert model.next_change_ms(0) == 400


def test_a_flag_the_host_reported_shows_zero_and_the_flag() -> None:
    state = replace(sample_clock_state(), black_ms=-1_500, running=None)
    face = clock_face(state, 0, 10_000)
    assert face.black.text == "0.0" and face.black.flagged and not face.black.running


def test_paused_table_holds_both_clocks_and_says_so() -> None:
    state = replace(sample_clock_state(), status="paused", running=None)
    face = clock_face(state, 0, 60_000)
    assert face.paused and face.status_label == "暂停 PAUSED"
    assert face.black.text == "7.3" and not face.black.running
    model = ClockModel(T)
    model.apply(STATE_TOPIC, state, 0)
    assert model.next_change_ms(0) == NEVER_MS


def test_a_paused_status_never_extrapolates_even_if_running_is_set() -> None:
    state = replace(sample_clock_state(), status="paused")
    assert clock_face(state, 0, 3_000).black.text == "7.3"


def test_finished_game_shows_the_result_in_both_languages() -> None:
    state = replace(sample_clock_state(), status="finished", running=None, result="0-1")
    face = clock_face(state, 0, 0)
    assert face.result_label == "白胜 White wins 0-1" and face.status_label == "终局 FINISHED"


def test_idle_table_shows_no_time_and_no_flag() -> None:
    state = replace(
        sample_clock_state(), status="idle", moves=(), black_ms=0, white_ms=0, running=None
    )
    face = clock_face(state, 0, 0)
    assert face.black.text == face.white.text == "-:--"
    assert not face.black.flagged and face.move_label == ""


def test_no_state_yet_and_a_cleared_state_show_the_waiting_face() -> None:
    model = ClockModel(T)
    assert model.face(0) == waiting_face(T) and model.next_change_ms(0) == NEVER_MS
    model.apply(STATE_TOPIC, sample_clock_state(), 0)
    assert model.apply(STATE_TOPIC, Cleared(STATE_TOPIC), 10)
    assert model.face(10).status == "waiting"
    assert not model.apply(STATE_TOPIC, Cleared(STATE_TOPIC), 20)  # nothing to clear


def test_other_tables_and_other_kinds_are_ignored() -> None:
    model = ClockModel(T)
    other = replace(sample_clock_state(), table=4)
    assert not model.apply(topics.table_state(V, 4), other, 0)
    event = TableEvent("e1", T, "g", 1, "move", 0, {})
    assert not model.apply(topics.table_events(V, T), event, 0)
    assert not model.apply("not/a/topic", sample_clock_state(), 0)
    assert model.state is None


def test_an_older_state_never_replaces_a_newer_one() -> None:
    """A broker restored from an old database, or paho's resend, hands the screen an older
    state: of the same game by ``seq`` (then ``at_ms``), of another game by ``at_ms``."""
    state = sample_clock_state()
    model = ClockModel(T)
    assert model.apply(STATE_TOPIC, state, 0)
    older = replace(state, seq=state.seq - 1, black_ms=99_000, at_ms=state.at_ms + 5)
    assert not model.apply(STATE_TOPIC, older, 5)
    assert not model.apply(STATE_TOPIC, replace(state, at_ms=state.at_ms - 1), 5)
    previous_game = replace(older, game_id="r0-g1", seq=90, at_ms=state.at_ms - 60_000)
    assert not model.apply(STATE_TOPIC, previous_game, 5)
    assert model.state == state and model.base_ms == 0
    assert model.face(0).black.text == "7.3"
    assert model.apply(STATE_TOPIC, replace(state, at_ms=state.at_ms), 9)  # a republish
    next_game = replace(state, game_id="next-game", seq=0, at_ms=state.at_ms + 1)
    assert model.apply(STATE_TOPIC, next_game, 10)
    assert not model.apply(STATE_TOPIC, state, 11)  # the finished game's copy, late


def test_the_assignment_of_another_game_does_not_label_this_one() -> None:
    model = ClockModel(T)
    model.apply(STATE_TOPIC, sample_clock_state(), 0)
    other = replace(sample_assignment(), game_id="r5-t3-g1", time_control="900")
    assert model.apply(topics.assignment(V, T), other, 0)
    assert "900" not in model.face(0).detail
    assert not model.apply(topics.assignment(V, T), other, 0)  # the same again
    assert model.apply(topics.assignment(V, T), Cleared(topics.assignment(V, T)), 0)


@pytest.mark.parametrize(
    ("black_ms", "text"),
    [(3_723_000, "1:02:03"), (600_000, "10:00"), (10_000, "10.0"), (10_001, "0:11"), (1, "0.1")],
)
def test_faces_follow_the_shared_clock_format(black_ms: int, text: str) -> None:
    state = replace(sample_clock_state(), black_ms=black_ms, running=None)
    assert clock_face(state, 0, 0).black.text == text
