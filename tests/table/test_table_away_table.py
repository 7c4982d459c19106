"""The away host's table of a linked game (``wuzi.table.away_table``): milliseconds only."""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from wuzi.clock.face import counter_text as clock_text
from wuzi.link import segments
from wuzi.rules.board import parse_point
from wuzi.table.alerts import AlertReason
from wuzi.table.away_table import (
    HELD_TEXT,
    IDLE_TEXT,
    AwayOutcome,
    AwayTable,
    AwayTableError,
    Dark,
    Light,
    colour_of_move,
    point_text,
)
from wuzi.table.line_messages import (
    AwayButton,
    AwayClaim,
    AwayMirrored,
    AwayPress,
    AwayShown,
    AwayStone,
    OwnerTruth,
)

H8, I9, J10, G7, O15 = (parse_point(p) for p in ("h8", "i9", "j10", "g7", "o15"))
MIN45 = 45 * 60_000


def truth(
    moves: tuple[int, ...],
    *,
    running: str | None = "white",
    held: bool = False,
    mirror: int | None = None,
    at_ms: int = 50_000,
    black_ms: int = MIN45,
    white_ms: int = MIN45,
) -> OwnerTruth:
    return OwnerTruth(moves, black_ms, white_ms, running, held, mirror, at_ms)


def away(*, can_light: bool = True, colour: str = "white") -> AwayTable:
    return AwayTable(3, "final-board-1", colour, own_button=0, can_light=can_light)


def opponent_moved(table: AwayTable, now_ms: int = 1_000) -> AwayOutcome:
    """Black (the owner's player) played h8; White is the away player and must mirror it."""
    return table.truth(truth((H8,), running=None, mirror=H8), now_ms)


def test_the_opponents_move_is_shown_and_lit_then_mirrored() -> None:
    table = away()
    out = opponent_moved(table, 1_000)
    assert out.send == [AwayShown(1, 1_000)]
    assert out.lamp == [Light(H8, "black", blink=True)]
    assert out.show and not out.alerts
    faces = table.faces(1_000)
    assert faces.text == ("4500", "h 8 ")  # own clock on button 0's display, the point on 1
    assert faces.colon == (True, False)
    assert table.to_mirror == H8

    placed = table.stone(H8, "black", at_ms=4_020, now_ms=4_050)
    assert placed.send == [AwayMirrored(1, H8, 4_020)]  # the board's instant, not now
    assert placed.lamp == [Dark()]
    assert not placed.alerts and placed.show
    assert table.to_mirror is None
    assert table.faces(4_050).text == ("4500", "4500")


def test_the_same_truth_again_shows_nothing_new() -> None:
    table = away()
    opponent_moved(table, 1_000)
    again = table.truth(truth((H8,), running=None, mirror=H8), 1_200)
    assert again.send == [] and again.lamp == []


def test_a_stone_on_the_wrong_point_is_an_alert_and_no_move() -> None:
    table = away()
    opponent_moved(table)
    out = table.stone(I9, "black", at_ms=2_000, now_ms=2_010)
    assert out.send == []  # neither a move nor the mirroring
    assert out.lamp == []  # the light still shows where the stone goes
    [alert] = out.alerts
    assert alert.reason is AlertReason.MIRRORING
    assert alert.table == 3 and alert.at_ms == 2_000
    assert "table 3" in alert.text and "final-board-1" in alert.text
    assert "wrong point i9" in alert.text and "h8" in alert.text
    assert table.to_mirror == H8


def test_an_own_stone_before_the_mirroring_is_an_alert_and_still_the_move() -> None:
    table = away()
    opponent_moved(table)
    out = table.stone(I9, "white", at_ms=2_500, now_ms=2_510)
    assert out.send == [AwayStone(I9, "white", 2_500)]  # the owner judges the move
    [alert] = out.alerts
    assert alert.reason is AlertReason.MIRRORING
    assert "before the opponent's stone of move 1 was mirrored on h8" in alert.text


def test_an_own_stone_on_the_point_to_mirror_is_no_mirroring() -> None:
    table = away()
    opponent_moved(table)
    out = table.stone(H8, "white", at_ms=2_500, now_ms=2_510)
    assert not any(isinstance(item, AwayMirrored) for item in out.send)
    assert len(out.alerts) == 1
    assert table.to_mirror == H8


def test_the_away_players_own_move_sends_its_stone_and_press_with_their_instants() -> None:
    table = away()
    opponent_moved(table)
    table.stone(H8, "black", at_ms=3_000, now_ms=3_010)
    table.truth(truth((H8,), running="white", mirror=None, at_ms=60_000), 3_100)
    stone = table.stone(I9, "white", at_ms=9_000, now_ms=9_030)
    press = table.press(0, at_ms=9_040, now_ms=9_045)
    assert stone.send == [AwayStone(I9, "white", 9_000)]
    assert press.send == [AwayPress(0, 9_040)]
    assert not stone.alerts and not press.alerts


def test_a_press_with_no_stone_is_an_alert_and_still_sent() -> None:
    table = away()
    table.truth(truth((H8,), running="white"), 1_000)
    out = table.press(0, at_ms=5_000, now_ms=5_001)
    assert out.send == [AwayPress(0, 5_000)]
    [alert] = out.alerts
    assert alert.reason is AlertReason.MIRRORING and "no new white stone" in alert.text


def test_claims_and_buttons_are_sent_as_they_are() -> None:
    table = away()
    assert table.claim(2, 7, 8).send == [AwayClaim(2, 7)]
    assert table.button(4, 9, 10).send == [AwayButton(4, 9)]


def test_a_mirrored_stone_taken_off_is_an_alert_and_lights_again() -> None:
    table = away()
    opponent_moved(table)
    table.stone(H8, "black", at_ms=3_000, now_ms=3_000)
    off = table.removed(H8, at_ms=6_000, now_ms=6_001)
    [alert] = off.alerts
    assert alert.reason is AlertReason.MIRRORING and "mirrored black stone on h8" in alert.text
    assert off.lamp == [Light(H8, "black")]
    back = table.stone(H8, "black", at_ms=7_000, now_ms=7_001)
    assert back.send == []  # mirrored once: placing it again changes nothing
    assert back.lamp == [Dark()] and not back.alerts


def test_a_wrong_stone_taken_back_is_no_news() -> None:
    table = away()
    opponent_moved(table)
    table.stone(I9, "black", at_ms=2_000, now_ms=2_000)
    assert table.removed(I9, at_ms=2_500, now_ms=2_500) == AwayOutcome()


def test_a_board_without_leds_gets_no_light_decisions() -> None:
    table = away(can_light=False)
    out = opponent_moved(table)
    assert out.lamp == [] and out.send == [AwayShown(1, 1_000)]
    assert table.faces(1_000).text[1] == "h 8 "
    assert table.stone(H8, "black", 2_000, 2_000).lamp == []
    # the board's INFO comes later and says it can light: the point still to mirror lights
    other = away(can_light=False)
    opponent_moved(other)
    assert other.board_can_light(True, 1_500).lamp == [Light(H8, "black")]


def test_a_cut_line_shows_the_hold_and_inputs_are_still_sent() -> None:
    table = away()
    table.truth(truth((H8, I9), running="black", mirror=None), 1_000)
    cut = table.line_cut(2_000)
    assert cut.show
    assert table.faces(2_000).text == (HELD_TEXT, HELD_TEXT)
    assert table.faces(2_000).next_change_ms is None
    assert table.stone(J10, "white", 2_500, 2_501).send == [AwayStone(J10, "white", 2_500)]
    table.line_back(3_000)
    assert table.faces(3_000).text == (HELD_TEXT, HELD_TEXT)  # until the referees resume
    table.resumed(4_000)
    assert table.faces(4_000).text != (HELD_TEXT, HELD_TEXT)


def test_a_cut_while_mirroring_keeps_the_point_shown() -> None:
    table = away()
    opponent_moved(table)
    table.line_cut(2_000)
    assert table.faces(2_000).text == (HELD_TEXT, "h 8 ")


def test_the_running_clock_is_extrapolated_from_the_truths_instant() -> None:
    table = away(colour="black")  # black away: its clock on display 0
    table.truth(truth((H8, I9), running="black", black_ms=61_000), 5_000, truth_away_ms=4_900)
    faces = table.faces(5_000)  # 100 ms since the truth's instant: 60.9 s shows 1:01
    assert faces.text == (" 101", "4500")
    assert faces.next_change_ms == 5_000 + 900  # 60.0 s left shows 1:00
    assert table.faces(5_900).text[0] == " 100"
    assert table.faces(64_900).text[0] == " 10 "  # 1.0 s left: tenths
    assert table.faces(70_000).text[0] == " 00 "  # the flag: 0.0
    assert table.faces(70_000).next_change_ms is None


def test_tick_says_when_the_faces_changed() -> None:
    table = away(colour="black")
    table.truth(truth((H8, I9), running="black", black_ms=61_000), 5_000)
    assert table.tick(5_000).show
    assert not table.tick(5_500).show
    assert table.tick(6_000).show  # 60.0 s


def test_before_any_truth_the_faces_are_idle() -> None:
    assert away().faces(0).text == (IDLE_TEXT, IDLE_TEXT)


def test_the_next_move_replaces_the_point_to_mirror() -> None:
    table = away()
    opponent_moved(table)
    out = table.truth(truth((H8, I9, J10), running=None, mirror=J10), 9_000)
    assert out.send == [AwayShown(3, 9_000)]
    assert out.lamp == [Light(J10, "black")]
    assert table.to_mirror == J10
    gone = table.truth(truth((H8, I9), running="black", mirror=None), 9_500)  # taken back
    assert gone.lamp == [Dark()] and table.to_mirror is None


@pytest.mark.parametrize("point", [H8, O15, G7, J10, 0, 224])
def test_points_read_on_four_seven_segment_digits(point: int) -> None:
    text = point_text(point)
    assert len(text) == 4
    assert segments.text(text)  # every character drawn as itself
    assert point_text(O15) == "o 15" and point_text(0) == "a 1 "


@pytest.mark.parametrize(
    ("ms", "shown"),
    [
        (MIN45, ("4500", True)),
        (11_000, (" 011", True)),
        (9_501, (" 96 ", True)),
        (0, (" 00 ", True)),
        (-5, (" 00 ", True)),
        (3_723_000, ("1h03", False)),
        (36_000_000, (" 10h", False)),
    ],
)
def test_clock_text(ms: int, shown: tuple[str, bool]) -> None:
    assert clock_text(ms) == shown
    segments.text(shown[0], colon=shown[1])


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda t: t.stone(225, "black", 0, 0), "point"),
        (lambda t: t.stone(1, "red", 0, 0), "colour"),
        (lambda t: t.stone(1, "black", -1, 0), "at_ms"),
        (lambda t: t.press(256, 0, 0), "button"),
        (lambda t: t.truth("moves", 0), "owner_truth"),
        (lambda t: t.truth(truth((H8,), mirror=I9), 0), "mirror"),
        (lambda t: t.faces(True), "now_ms"),
    ],
)
def test_bad_arguments_are_named(call: object, field: str) -> None:
    table = away()
    with pytest.raises(AwayTableError, match=field):
        call(table)  # type: ignore[operator]


def test_bad_construction_is_named() -> None:
    with pytest.raises(AwayTableError, match="colour"):
        AwayTable(1, "l", "red")
    with pytest.raises(AwayTableError, match="own_button"):
        AwayTable(1, "l", "black", own_button=2)


near = st.one_of(st.integers(0, 6), st.integers(0, 224))  # few points: stones meet moves


@st.composite
def truths(draw: st.DrawFn) -> OwnerTruth:
    moves = tuple(draw(st.lists(near, unique=True, max_size=8)))
    mirror = draw(st.sampled_from([None, *moves]))
    running = draw(st.sampled_from([None, "black", "white"]))
    clock = st.integers(-10_000, 10**7)
    return OwnerTruth(
        moves,
        draw(clock),
        draw(clock),
        running,
        draw(st.booleans()),
        mirror,
        draw(st.integers(0, 10**6)),
    )


steps = st.lists(
    st.one_of(
        st.tuples(st.just("truth"), truths()),
        st.tuples(st.just("stone"), near, st.sampled_from(["black", "white"])),
        st.tuples(st.just("removed"), near),
        st.tuples(st.just("mirror")),  # the player places the stone the last truth shows
        st.tuples(st.just("press"), st.integers(0, 2)),
        st.tuples(st.just("cut"), st.sampled_from(["cut", "back", "resumed"])),
        st.tuples(st.just("tick"), st.integers(0, 5_000)),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(steps, st.sampled_from(["black", "white"]), st.booleans())
def test_any_sequence_never_raises_nor_sends_an_opponents_stone_as_a_move(
    sequence: list[tuple[object, ...]], colour: str, can_light: bool
) -> None:
    table = away(colour=colour, can_light=can_light)
    now = 0
    mirror: int | None = None  # the last truth's point to mirror
    mirrored = 0
    for step in sequence:
        now += 7
        kind = step[0]
        if kind == "truth":
            assert isinstance(step[1], OwnerTruth)
            mirror = step[1].mirror
            out = table.truth(step[1], now)
        elif kind == "mirror":
            if table.to_mirror is None:
                continue
            point = table.to_mirror
            out = table.stone(point, colour_of_move(table.truth_moves.index(point)), now - 3, now)
        elif kind == "stone":
            out = table.stone(int(step[1]), str(step[2]), now - 3, now)  # type: ignore[call-overload]
        elif kind == "removed":
            out = table.removed(int(step[1]), now, now)  # type: ignore[call-overload]
        elif kind == "press":
            out = table.press(int(step[1]), now, now)  # type: ignore[call-overload]
        elif kind == "cut":
            out = {"cut": table.line_cut, "back": table.line_back, "resumed": table.resumed}[
                str(step[1])
            ](now)
        else:
            now += int(step[1])  # type: ignore[call-overload]
            out = table.tick(now)
        for item in out.send:
            if isinstance(item, AwayStone):
                assert item.colour == colour  # never the opponent's stone as a move
            if isinstance(item, AwayMirrored):
                assert item.point == mirror  # only the point the owner asked for
                mirrored += 1
        for alert in out.alerts:
            assert alert.reason is AlertReason.MIRRORING and "table 3" in alert.text
        if not can_light:
            assert out.lamp == []
        faces = table.faces(now)
        for text, colon in zip(faces.text, faces.colon, strict=True):
            segments.text(text, colon=colon)  # always drawable
    event(f"mirrored: {mirrored > 0}")  # --hypothesis-show-statistics: both cases are met


def test_a_move_taken_back_and_replayed_elsewhere_is_shown_again() -> None:
    table = away()
    table.truth(truth((I9, H8, J10), running=None, mirror=J10), 1_000)
    out = table.truth(truth((I9, H8, G7), running=None, mirror=G7), 2_000)  # move 3 again
    assert out.send == [AwayShown(3, 2_000)]
    assert out.lamp == [Light(G7, "black")]
    assert table.stone(J10, "black", 2_100, 2_100).alerts  # the old point is wrong now
    assert table.stone(G7, "black", 2_200, 2_200).send == [AwayMirrored(3, G7, 2_200)]
