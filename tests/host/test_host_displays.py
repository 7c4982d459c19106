"""What the clock unit's two displays show, and when they next change."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.clock.control import NS_PER_S
from wuzi.clock.snapshot import SideView
from wuzi.host.displays import (
    ADJOURNED_TEXT,
    HELD_TEXT,
    KEPT_TEXT,
    OVER_TEXT,
    PAUSED_TEXT,
    DisplayError,
    Faces,
    clock_face,
    faces,
    glyphs,
    leds,
    menu_text,
)
from wuzi.link import segments
from wuzi.rules.board import Colour, parse_point
from wuzi.rules.procedure import Action, Seat
from wuzi.table import inputs
from wuzi.table.buttons import CLAIM_BUTTON, MENU_TIMEOUT_NS, ButtonMapper, Menu
from wuzi.table.inputs import TableSetup
from wuzi.table.session import TableSession

S = NS_PER_S
T0 = 1000 * S
B, W = Colour.BLACK, Colour.WHITE
FIRST, SECOND = Seat.FIRST, Seat.SECOND


def P(name: str) -> int:
    return parse_point(name)


def side(face_ns: int, *, overtime: bool = False, periods: int | None = None) -> SideView:
    return SideView(
        seat=FIRST,
        remaining_ns=face_ns,
        face_ns=face_ns,
        delay_ns=0,
        period=1,
        period_moves_left=None,
        overtime=overtime,
        periods_left=periods,
        block_moves_left=None,
        moves=0,
        flagged_ns=None,
    )


@pytest.mark.parametrize(
    ("face_ns", "shown"),
    [
        (45 * 60 * S, ("4500", True)),
        (299 * S + 1, (" 500", True)),  # rounded up, like face_text
        (299 * S, (" 459", True)),
        (11 * S, (" 011", True)),
        (10 * S + 1, (" 011", True)),
        (10 * S, ("100 ", True)),  # tenths: the colon stands for the decimal point
        (9_500_000_000, (" 95 ", True)),
        (9_400_000_001, (" 95 ", True)),
        (1, (" 01 ", True)),
        (0, (" 00 ", True)),
        (-5, (" 00 ", True)),
        (3599 * S, ("5959", True)),
        (3600 * S, ("1h00", False)),
        (3601 * S, ("1h01", False)),  # minutes rounded up too
        (3723 * S, ("1h03", False)),
        (7200 * S, ("2h00", False)),
        (10 * 3600 * S, (" 10h", False)),
    ],
)
def test_clock_face(face_ns: int, shown: tuple[str, bool]) -> None:
    assert clock_face(side(face_ns)) == shown


def test_clock_face_in_byo_yomi() -> None:
    assert clock_face(side(27 * S, overtime=True, periods=3)) == ("3-27", False)
    assert clock_face(side(9_100_000_000, overtime=True, periods=1)) == ("1-10", False)
    assert clock_face(side(0, overtime=True, periods=1)) == ("1- 0", False)
    # more than 9 periods, or a period over 99 s: the plain counter
    assert clock_face(side(27 * S, overtime=True, periods=12)) == (" 027", True)
    assert clock_face(side(120 * S, overtime=True, periods=3)) == (" 200", True)
    assert clock_face(side(27 * S, overtime=False, periods=3)) == (" 027", True)


def test_menu_texts() -> None:
    def text(action: Action, option: str) -> str:
        return menu_text(Menu(FIRST, action, (option,)))

    assert text(Action.DECIDE, "swap") == "SWAP"
    assert text(Action.DECIDE, "stay") == "StAY"
    assert text(Action.DECIDE, "black") == "bLAC"
    assert text(Action.DECIDE, "white") == "WHIt"
    assert text(Action.DECIDE, "place-two") == "PL 2"
    assert text(Action.DECIDE, "offer") == "OFFr"
    assert text(Action.DECIDE, "ok?") == "ok- "  # a choice without a label: its letters
    assert text(Action.DECLARE, "3") == " n 3"
    assert text(Action.DECLARE, "10") == " n10"
    assert text(Action.DECLARE, "225") == "n225"
    assert text(Action.CHOOSE_OFFER, "h9") == "h 9 "
    assert text(Action.CHOOSE_OFFER, "j10") == "j 10"
    for option in ("swap", "stay", "black", "white", "place-two", "offer", "unknown-choice"):
        segments.text(glyphs(text(Action.DECIDE, option)))  # every label can be drawn
    for column in "abcdefghijklmno":
        for row in (1, 9, 15):
            segments.text(glyphs(text(Action.CHOOSE_OFFER, f"{column}{row}")))


def test_glyphs_draw_what_segments_has_and_stand_ins_for_the_rest() -> None:
    # every letter these labels need has its own pattern now: drawn as itself
    for text in ("SWAP", "StAY", "WHIt", "PAUS", "AdJ ", "g 12", "k 3 ", "m 15", "End "):
        assert glyphs(text) == text
    with pytest.raises(DisplayError, match="'\\?'"):
        glyphs("ab?d")
    assert Faces(("SWAP", " 459"), (False, True)).segments() == (
        segments.text("SWAP"),
        segments.text(" 459", colon=True),
    )


# --- faces of a session ------------------------------------------------------------------


def session(control: str = "2700+30", opening: str = "chinese-2013") -> TableSession:
    return TableSession(TableSetup(opening=opening, time_control=control), T0)


def test_no_session_shows_the_idle_text() -> None:
    assert faces(None, 5) == Faces(("----", "----"), (False, False), None)
    assert faces(None, 5, idle_text="  --").text == ("  --", "  --")
    for bad in ("---", "-----", "?---", 4):
        with pytest.raises(DisplayError, match=r"idle_text|cannot be shown"):
            faces(None, 5, idle_text=bad)  # type: ignore[arg-type]


def test_each_display_shows_its_own_player_s_clock() -> None:
    s = session()
    f = faces(s, T0)
    assert f.text == ("4500", "4500") and f.colon == (True, True)
    assert f.next_change_ns == T0 + S  # a fresh 45:00 stays a whole second
    s.stone(T0 + 100 * S, P("h8"), B)
    f = faces(s, T0 + 100 * S)
    assert f.text == ("4320", "4500")
    assert faces(s, T0 + 100 * S, first_button=1).text == ("4500", "4320")
    assert f.segments() == (segments.text("4320", colon=True), segments.text("4500", colon=True))


def test_hours_change_once_a_minute() -> None:
    s = session("7200")
    f = faces(s, T0)
    assert f.text == ("2h00", "2h00") and f.next_change_ns == T0 + 60 * S
    assert faces(s, T0 + 60 * S).text == ("1h59", "2h00")
    s = session("3600")
    f = faces(s, T0)
    assert f.text[0] == "1h00" and f.next_change_ns == T0 + S
    assert faces(s, T0 + S).text[0] == "5959"


def test_byo_yomi_shows_the_periods() -> None:
    s = session("5x30")
    f = faces(s, T0)
    assert f.text == ("5-30", "5-30")
    assert f.next_change_ns == T0 + S
    f = faces(s, T0 + 25 * S + 1)  # whole seconds in byo-yomi, even under 10 s
    assert f.text[0] == "5- 5" and f.next_change_ns == T0 + 26 * S
    assert faces(s, T0 + 30 * S).text[0] == "4-30"


def test_a_fallen_flag_shows_zero_and_nothing_changes_any_more() -> None:
    s = session("15")
    f = faces(s, T0 + 20 * S)
    assert f.text == (" 00 ", " 015") and f.next_change_ns is None


def test_pause_adjournment_and_game_over() -> None:
    s = session()
    s.handle(inputs.RefereePause(now_ns=T0 + S, reason="a question"))
    assert faces(s, T0 + 2 * S) == Faces((PAUSED_TEXT, PAUSED_TEXT), (False, False), None)
    s.handle(inputs.RefereeResume(now_ns=T0 + 3 * S))
    assert faces(s, T0 + 3 * S).text == ("4459", "4500")  # 1 s ran before the pause
    s.handle(inputs.Adjourn(now_ns=T0 + 4 * S, reason="lunch"))
    assert faces(s, T0 + 5 * S).text == (ADJOURNED_TEXT, ADJOURNED_TEXT)
    s.handle(inputs.RefereeResume(now_ns=T0 + 6 * S))
    s.handle(inputs.SetResult(now_ns=T0 + 7 * S, winner=SECOND, reason="resignation"))
    assert faces(s, T0 + 8 * S) == Faces((OVER_TEXT, OVER_TEXT), (False, False), None)
    assert leds(s) == 0


def test_a_false_claim_pauses_both_displays() -> None:
    s = session(opening="free")
    s.stone(T0 + S, P("h8"), B)
    s.press(T0 + 2 * S, FIRST)
    s.claim(T0 + 3 * S, FIRST, "five")  # no five: a false claim, the game awaits the referee
    assert faces(s, T0 + 4 * S).text == (PAUSED_TEXT, PAUSED_TEXT)


def test_a_menu_shows_on_the_chooser_s_display_until_it_expires() -> None:
    s = session()
    now = T0
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        now += S
        s.stone(now, P(name), colour)
        now += S
        s.press(now, FIRST)
    mapper = ButtonMapper()
    now += S
    mapper.press(CLAIM_BUTTON, now, s)
    menu = mapper.menu
    assert menu is not None and menu.seat is SECOND
    f = faces(s, now, menu=menu)
    assert f.text == ("4624", "SWAP") and f.colon == (True, False)  # 3 presses of +30 s
    # White's clock runs under the menu: the face changes when the menu closes
    assert f.next_change_ns == now + MENU_TIMEOUT_NS
    assert faces(s, now, menu=menu, first_button=1).text == ("SWAP", "4624")
    assert faces(s, now + MENU_TIMEOUT_NS, menu=menu).text == ("4624", "4429")
    mapper.press(CLAIM_BUTTON, now + S, s)
    assert faces(s, now + S, menu=mapper.menu).text[1] == "StAY"
    s.decide(now + 2 * S, SECOND, "stay")  # the referee entered it: the menu no longer fits
    assert faces(s, now + 2 * S, menu=mapper.menu).text[1] == "4457"
    with pytest.raises(DisplayError, match="menu must be"):
        faces(s, now + 2 * S, menu="SWAP")  # type: ignore[arg-type]


def test_leds_light_the_running_side() -> None:
    s = session()
    assert leds(s) == 0b01 and leds(s, 1) == 0b10
    s.stone(T0 + S, P("h8"), B)
    s.press(T0 + 2 * S, FIRST)
    s.stone(T0 + 3 * S, P("h9"), W)
    s.press(T0 + 4 * S, FIRST)
    s.stone(T0 + 5 * S, P("h10"), B)
    s.press(T0 + 6 * S, FIRST)
    assert leds(s) == 0b10 and leds(s, 1) == 0b01
    assert leds(None) == 0
    short = session("15")
    assert leds(short) == 0b01 and leds(short, now_ns=T0 + 20 * S) == 0  # the flag fell


def test_bad_arguments() -> None:
    s = session()
    s.stone(T0 + 10 * S, P("h8"), B)
    s.press(T0 + 10 * S, FIRST)
    with pytest.raises(DisplayError, match="earlier"):
        faces(s, T0)
    for now in (1.5, True, None):
        with pytest.raises(DisplayError, match="now_ns"):
            faces(s, now)  # type: ignore[arg-type]
    with pytest.raises(DisplayError, match="first_button"):
        faces(s, T0 + 10 * S, first_button=2)
    with pytest.raises(DisplayError, match="session must be"):
        faces("table 3", T0)  # type: ignore[arg-type]
    with pytest.raises(DisplayError, match="first_button"):
        leds(s, 3)


def test_the_displays_tell_nothing_about_a_forbidden_move() -> None:
    """The same game under renju (B9 is a double-three, the referee is told) and under the
    no-forbidden rule set shows the same faces at every instant."""

    def play(ruleset: str) -> list[Faces]:
        s = TableSession(TableSetup(ruleset=ruleset), T0)
        shown = []
        now = T0
        for name, colour, seat in (
            ("h8", B, FIRST),
            ("h9", W, FIRST),
            ("h10", B, FIRST),
            (None, None, SECOND),
            ("a1", W, SECOND),
            ("j8", B, None),
            ("g12", B, FIRST),
            ("j8", None, SECOND),
            ("a3", W, SECOND),
            ("j10", B, FIRST),
            ("a5", W, SECOND),
            ("i9", B, FIRST),
            ("a7", W, SECOND),
        ):
            now += 3 * S
            if colour is not None and name is not None:
                s.stone(now, P(name), colour)
            elif name is not None:
                s.choose(now, SECOND, P(name))
            else:
                s.decide(now, SECOND, "stay")
            shown.append(faces(s, now))
            if seat is not None:
                now += S // 3
                s.press(now, seat)
            shown.append(faces(s, now))
            shown.append(faces(s, now + S // 7))
        return shown

    assert play("renju") == play("no-forbidden")


# --- next_change_ns is exact -----------------------------------------------------------------

_CONTROLS = ["2700+30", "600:5x30", "5x30", "7200", "3600", "300d5", "15", "40/5400:1800+30"]


@settings(max_examples=150, deadline=None)
@given(
    control=st.sampled_from(_CONTROLS),
    switch_after_ns=st.one_of(st.none(), st.integers(1, 3000 * S)),
    elapsed_ns=st.integers(0, 4000 * S),
)
def test_next_change_is_the_first_instant_a_face_changes(
    control: str, switch_after_ns: int | None, elapsed_ns: int
) -> None:
    s = session(control, opening="free")
    if switch_after_ns is not None:
        s.stone(T0 + switch_after_ns, P("h8"), B)
        s.press(T0 + switch_after_ns, FIRST)
        now = T0 + switch_after_ns + elapsed_ns
    else:
        now = T0 + elapsed_ns
    f = faces(s, now)
    change = f.next_change_ns
    if change is None:
        assert faces(s, now + 10_000 * S) == f
        return
    assert change > now
    before = faces(s, change - 1)
    assert (before.text, before.colon) == (f.text, f.colon)
    after = faces(s, change)
    assert (after.text, after.colon) != (f.text, f.colon)


def _equipment_game() -> TableSession:
    """A free-opening game, 60 s + 5 s, Black's h8 judged at 1.02 s: White to move."""
    session = TableSession(TableSetup(opening="free", time_control="60+5"), 0)
    session.stone(S, parse_point("h8"), Colour.BLACK)
    session.press(S + 20_000_000, Seat.FIRST)
    return session


def test_the_clock_unit_shows_the_hold_and_a_kept_press() -> None:
    session = _equipment_game()
    session.handle(inputs.EquipmentHeld(now_ns=2 * S, reason="board lost"))
    assert faces(session, 3 * S).text == (HELD_TEXT, HELD_TEXT)
    assert faces(session, 3 * S, kept=1).text == (HELD_TEXT, KEPT_TEXT)
    session.handle(inputs.RefereePause(now_ns=4 * S, reason="a look", referee="r1"))
    assert faces(session, 5 * S).text == (PAUSED_TEXT, PAUSED_TEXT)
    running = _equipment_game()
    shown = faces(running, 2 * S, kept=0).text
    assert shown[0] == KEPT_TEXT and shown[1] != KEPT_TEXT
