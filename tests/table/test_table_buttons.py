"""The clock unit's buttons → table inputs, driven through real table sessions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.rules.board import Colour, parse_point
from wuzi.rules.game import Status
from wuzi.rules.procedure import Action, Seat
from wuzi.table import inputs
from wuzi.table.buttons import (
    CHOOSE_FIRST,
    CLAIM_BUTTON,
    CLAIM_WINDOW_NS,
    MENU_TIMEOUT_NS,
    REFEREE_CALLED,
    WAIT_FOR_CLOCK,
    ButtonError,
    ButtonMapper,
    Menu,
    button_of,
    claim_kind,
    menu_for,
    seat_of_button,
)
from wuzi.table.inputs import (
    BoardAlert,
    Choose,
    Claim,
    ClockPressed,
    Decide,
    TableInput,
    TableSetup,
)
from wuzi.table.outputs import GameOver, RefereeAlert
from wuzi.table.session import TableSession

S = 1_000_000_000
B, W = Colour.BLACK, Colour.WHITE
FIRST, SECOND = Seat.FIRST, Seat.SECOND
C = CLAIM_BUTTON


def P(name: str) -> int:
    return parse_point(name)


class Unit:
    """A session and a mapper on one clock unit; each action one second after the last."""

    def __init__(self, setup: TableSetup | None = None, first_button: int = 0) -> None:
        self.now = 1000 * S
        self.s = TableSession(setup or TableSetup(), self.now)
        self.m = ButtonMapper(first_button)

    def tick(self, ns: int = S) -> int:
        self.now += ns
        return self.now

    def button(self, button: int, wait_ns: int = S) -> list[TableInput]:
        made = self.m.press(button, self.tick(wait_ns), self.s)
        for event in made:
            self.s.handle(event)
        return made

    def seat_button(self, seat: Seat) -> int:
        return button_of(seat, self.m.first_button)

    def stone(self, name: str, colour: Colour) -> None:
        self.s.stone(self.tick(), P(name), colour)

    def move(self, name: str, colour: Colour, seat: Seat) -> list[TableInput]:
        self.stone(name, colour)
        made = self.button(self.seat_button(seat))
        assert made == [ClockPressed(now_ns=self.now, seat=seat)]
        return made

    def removed(self, name: str) -> None:
        self.s.handle(BoardAlert(now_ns=self.tick(), kind="removed", points=(P(name),)))

    def pick(self, option: str) -> list[TableInput]:
        """Open the menu, step to ``option``, confirm with the chooser's button."""
        self.button(C)
        menu = self.m.menu
        assert menu is not None
        for _ in range(len(menu.options)):
            if menu.option == option:
                break
            self.button(C)
            menu = self.m.menu
            assert menu is not None
        assert menu.option == option, (option, menu.options)
        return self.button(self.seat_button(menu.seat))

    def opening_stones(self) -> None:
        for name, colour in (("h8", B), ("h9", W), ("h10", B)):
            self.move(name, colour, FIRST)


# --- the opening procedures ------------------------------------------------------------


def test_chinese_2013_swap_and_two_offers_with_buttons() -> None:
    u = Unit()
    u.opening_stones()
    assert u.button(C) == []  # the swap decision: the claim button opens White's menu
    menu = u.m.menu
    assert menu == Menu(SECOND, Action.DECIDE, ("swap", "stay"), 0, u.now + MENU_TIMEOUT_NS)
    made = u.button(1)  # White's button confirms "swap"
    assert made == [
        Decide(now_ns=u.now, seat=SECOND, choice="swap"),
        ClockPressed(now_ns=u.now, seat=SECOND),
    ]
    game = u.s.game
    assert game.colour_of(SECOND) is B and game.colour_of(FIRST) is W
    assert u.m.menu is None
    assert u.s.clock.state.running is FIRST  # the opener, now White, plays move 4
    u.move("a1", W, FIRST)
    u.stone("j8", B)
    u.stone("g12", B)
    u.button(1)  # Black (second seat) closes the offers
    assert menu_for(u.s, 0) == Menu(FIRST, Action.CHOOSE_OFFER, ("j8", "g12"), 0, MENU_TIMEOUT_NS)
    made = u.pick("g12")
    assert made == [Choose(now_ns=u.now, seat=FIRST, point=P("g12")), ClockPressed(u.now, FIRST)]
    assert game.opening.state.kept_offer == P("g12")
    assert [str(m) for m in game.moves][-1] == "5. black g12"
    assert u.s.unremoved_offers == {P("j8")}
    assert game.status is Status.PLAYING
    assert u.s.clock.state.running is FIRST  # White's clock through the choice and move 6
    u.removed("j8")
    u.move("a3", W, FIRST)
    assert [str(m) for m in game.moves][-1] == "6. white a3"
    assert u.s.clock.state.running is SECOND


def test_stay_is_the_second_option_and_the_menu_wraps_around() -> None:
    u = Unit()
    u.opening_stones()
    u.button(C)
    u.button(C)
    assert u.m.menu is not None and u.m.menu.option == "stay"
    u.button(C)
    assert u.m.menu is not None and u.m.menu.option == "swap"
    u.button(C)
    u.button(1)
    assert u.s.game.colour_of(SECOND) is W
    step = u.s.game.step
    assert step is not None and (step.seat, step.action) == (SECOND, Action.PLACE)


@pytest.mark.parametrize("choice", ["black", "white"])
def test_swap2_black_or_white(choice: str) -> None:
    u = Unit(TableSetup(opening="swap2"))
    for name, colour in (("h8", B), ("c3", W), ("m13", B)):
        u.move(name, colour, FIRST)
    made = u.pick(choice)
    assert made[0] == Decide(now_ns=u.now, seat=SECOND, choice=choice)
    white = SECOND if choice == "white" else FIRST
    assert u.s.game.colour_of(white) is W
    u.move("a1", W, white)
    assert u.s.game.status is Status.PLAYING
    assert [m.number for m in u.s.game.moves] == [1, 2, 3, 4]


def test_swap2_place_two_then_the_opener_chooses_the_colour() -> None:
    u = Unit(TableSetup(opening="swap2"))
    for name, colour in (("h8", B), ("c3", W), ("m13", B)):
        u.move(name, colour, FIRST)
    u.pick("place-two")
    u.move("a1", W, SECOND)
    u.move("o15", B, SECOND)
    menu = menu_for(u.s, 0)
    assert menu is not None and (menu.seat, menu.options) == (FIRST, ("black", "white"))
    u.pick("white")
    game = u.s.game
    assert game.colour_of(FIRST) is W
    assert game.status is Status.PLAYING and game.to_move is FIRST  # White plays move 6
    u.move("a15", W, FIRST)
    assert len(game.moves) == 6


def test_yamaguchi_the_opener_declares_n_with_the_buttons() -> None:
    u = Unit(TableSetup(opening="yamaguchi"))
    u.opening_stones()
    menu = menu_for(u.s, 0)
    assert menu is not None and menu.action is Action.DECLARE and menu.seat is FIRST
    assert menu.options == tuple(str(n) for n in range(1, 11))
    made = u.pick("3")
    assert made == [inputs.Declare(now_ns=u.now, seat=FIRST, number=3), ClockPressed(u.now, FIRST)]
    assert u.s.game.opening.state.declared == 3
    u.pick("stay")
    u.move("a1", W, SECOND)
    for name in ("j8", "g12", "c5"):
        u.stone(name, B)
    u.button(0)
    assert menu_for(u.s, 0) == Menu(
        SECOND, Action.CHOOSE_OFFER, ("j8", "g12", "c5"), 0, MENU_TIMEOUT_NS
    )
    u.pick("c5")
    assert u.s.game.opening.state.kept_offer == P("c5")


def test_soosorv_white_declares_then_the_second_swap() -> None:
    u = Unit(TableSetup(opening="soosorv-4"))
    u.opening_stones()
    u.pick("stay")
    u.move("a1", W, SECOND)
    assert u.s.clock.state.running is SECOND  # White's clock runs on for the declaration
    made = u.pick("2")
    assert made[0] == inputs.Declare(now_ns=u.now, seat=SECOND, number=2)
    menu = menu_for(u.s, 0)
    assert menu is not None and (menu.seat, menu.action) == (FIRST, Action.DECIDE)
    u.pick("swap")  # the player holding Black takes White
    assert u.s.game.colour_of(FIRST) is W
    u.stone("j8", B)
    u.stone("g12", B)
    u.button(1)
    u.pick("j8")
    assert u.s.game.opening.state.kept_offer == P("j8")
    assert u.s.game.status is Status.PLAYING


# --- claims --------------------------------------------------------------------------


def chinese_to_double_three(u: Unit) -> None:
    u.opening_stones()
    u.pick("stay")
    u.move("a1", W, SECOND)
    u.stone("j8", B)
    u.stone("g12", B)
    u.button(0)
    u.pick("j8")
    u.removed("g12")
    for name, colour, seat in (
        ("a3", W, SECOND),
        ("j10", B, FIRST),
        ("a5", W, SECOND),
        ("i9", B, FIRST),  # B9: a double-three
    ):
        u.move(name, colour, seat)


def test_white_claims_the_double_three_with_the_claim_button_and_its_own() -> None:
    u = Unit()
    chinese_to_double_three(u)
    assert u.button(C) == []
    assert u.m.claim_deadline_ns == u.now + CLAIM_WINDOW_NS
    before = len(u.s.outputs)
    made = u.button(1)
    assert made == [Claim(now_ns=u.now, seat=SECOND, kind="forbidden")]
    over = [o for o in u.s.outputs[before:] if isinstance(o, GameOver)]
    assert [(o.winner, o.reason) for o in over] == [(SECOND, "forbidden")]
    assert u.m.claim_deadline_ns is None


def test_a_five_is_announced_by_its_maker() -> None:
    u = Unit(TableSetup(opening="free"))
    for i, col in enumerate("hijkl"):
        u.move(f"{col}8", B, FIRST)
        if i < 4:
            u.move(f"{col}1", W, SECOND)
    assert claim_kind(u.s, FIRST) == "five" and claim_kind(u.s, SECOND) == "forbidden"
    u.button(C)
    assert u.button(0) == [Claim(now_ns=u.now, seat=FIRST, kind="five")]
    assert u.s.game.result is not None and u.s.game.result.winner is FIRST


def test_claims_with_the_second_seat_on_button_0() -> None:
    u = Unit(TableSetup(opening="free"), first_button=1)
    assert seat_of_button(1, 1) is FIRST and seat_of_button(0, 1) is SECOND
    for i, col in enumerate("hijkl"):
        u.move(f"{col}8", B, FIRST)
        if i < 4:
            u.move(f"{col}1", W, SECOND)
    u.button(C)
    assert u.button(1) == [Claim(now_ns=u.now, seat=FIRST, kind="five")]
    assert u.s.game.result is not None and u.s.game.result.winner is FIRST


def test_in_the_opening_a_player_button_after_the_claim_button_is_a_press() -> None:
    u = Unit()
    u.stone("h8", B)
    u.button(C)
    assert u.button(0) == [ClockPressed(now_ns=u.now, seat=FIRST)]  # B1 stands
    assert [str(m) for m in u.s.game.moves] == ["1. black h8"]
    assert u.s.game.status is Status.OPENING
    u.button(C)
    u.button(C)
    assert u.m.take_signals() == [REFEREE_CALLED]  # the referee can still be called


def test_a_claim_without_any_stone_is_a_harmless_forbidden_claim() -> None:
    u = Unit(TableSetup(opening="free"))
    assert claim_kind(u.s, FIRST) == "forbidden"
    u.button(C)
    before = len(u.s.outputs)
    assert u.button(1) == [Claim(now_ns=u.now, seat=SECOND, kind="forbidden")]
    assert [o.reason.value for o in u.s.outputs[before:] if isinstance(o, RefereeAlert)] == [
        "refused"
    ]
    assert u.s.game.status is Status.PLAYING  # nothing to judge: no pause either


def test_the_claim_window_lapses_and_the_press_is_a_clock_press_again() -> None:
    u = Unit(TableSetup(opening="free"))
    u.stone("h8", B)
    u.button(C)
    made = u.button(0, wait_ns=CLAIM_WINDOW_NS)  # exactly at the end: the window is closed
    assert made == [ClockPressed(now_ns=u.now, seat=FIRST)]
    assert len(u.s.game.moves) == 1


def test_the_claim_button_twice_calls_the_referee() -> None:
    u = Unit(TableSetup(opening="free"))
    assert u.button(C) == [] and u.button(C) == []
    assert u.m.take_signals() == [REFEREE_CALLED]
    assert u.m.take_signals() == []
    assert u.m.claim_deadline_ns is None
    u.stone("h8", B)
    assert u.button(0) == [ClockPressed(now_ns=u.now, seat=FIRST)]
    # twice, but slower than the window: two lone presses, no call
    u.button(C)
    u.button(C, wait_ns=CLAIM_WINDOW_NS + 1)
    assert u.m.take_signals() == []
    assert u.m.claim_deadline_ns == u.now + CLAIM_WINDOW_NS


def test_expire_closes_the_claim_window_and_the_menu() -> None:
    u = Unit(TableSetup(opening="free"))
    u.button(C)
    assert u.m.deadline_ns == u.now + CLAIM_WINDOW_NS
    assert u.m.expire(u.now + CLAIM_WINDOW_NS - 1) is False
    assert u.m.claim_deadline_ns is not None
    assert u.m.expire(u.now + CLAIM_WINDOW_NS) is False  # no menu closed
    assert u.m.claim_deadline_ns is None and u.m.deadline_ns is None
    v = Unit()
    v.opening_stones()
    v.button(C)
    assert v.m.deadline_ns == v.now + MENU_TIMEOUT_NS
    assert v.m.expire(v.now + MENU_TIMEOUT_NS) is True
    assert v.m.menu is None


# --- menus: what other presses do ------------------------------------------------------


def test_the_chooser_s_button_without_a_menu_is_held_back() -> None:
    u = Unit()
    u.opening_stones()
    inputs_before = len(u.s.inputs)
    assert u.button(1) == []
    assert u.m.take_signals() == [CHOOSE_FIRST]
    assert len(u.s.inputs) == inputs_before  # no infraction, nothing for the session
    assert u.s.game.infractions(SECOND) == 0


def test_the_other_player_s_button_is_a_plain_press_and_keeps_the_menu() -> None:
    u = Unit()
    u.opening_stones()
    u.button(C)
    u.button(C)
    assert u.button(0) == [ClockPressed(now_ns=u.now, seat=FIRST)]
    assert u.s.game.infractions(FIRST) == 0  # the clock did not take it: not running
    assert u.m.menu is not None and u.m.menu.option == "stay"
    u.button(1)
    assert u.s.game.colour_of(SECOND) is W


def test_a_menu_times_out() -> None:
    u = Unit()
    u.opening_stones()
    u.button(C)
    u.button(C, wait_ns=MENU_TIMEOUT_NS - 1)  # a press inside the timeout restarts it
    assert u.m.menu is not None and u.m.menu.option == "stay"
    assert u.button(1, wait_ns=MENU_TIMEOUT_NS) == []
    assert u.m.take_signals() == [CHOOSE_FIRST]
    assert u.m.menu is None
    u.button(C)  # reopened: from the first option again
    assert u.m.menu is not None and u.m.menu.option == "swap"


def test_a_choice_confirmed_after_the_chooser_s_flag_is_not_sent() -> None:
    """Issue 32: White's choice confirmed after White's own flag (not told yet: no tick
    came) was taken as move 5. The mapper reads whose clock runs at the press's instant:
    nothing is sent; and the session refuses the choice whoever enters it."""
    u = Unit(TableSetup(time_control="60"))
    u.opening_stones()
    u.pick("stay")
    u.move("a1", W, SECOND)
    u.stone("j8", B)
    u.stone("g12", B)
    u.button(0)  # Black closes the offers: White's clock runs for the choice
    assert u.s.clock.state.running is SECOND
    left = u.s.clock.remaining_ns(SECOND, u.now)
    u.button(C, wait_ns=left - S)  # White opens the menu 1 s before the flag
    assert u.m.menu is not None
    assert u.button(1, wait_ns=2 * S) == []  # and confirms 1 s after it
    assert u.m.take_signals() == [WAIT_FOR_CLOCK]
    out = u.s.handle(Choose(now_ns=u.tick(), seat=SECOND, point=P("j8")))
    assert [o.reason for o in out if isinstance(o, RefereeAlert)][-1].value == "refused"
    assert u.s.game.moves[-1].point == P("a1") and u.s.game.opening.state.kept_offer is None


def test_a_confirmation_waits_for_the_chooser_s_clock() -> None:
    u = Unit()
    u.opening_stones()
    u.pick("stay")
    u.move("a1", W, SECOND)
    u.stone("j8", B)
    u.stone("g12", B)  # Black has not pressed yet: Black's clock still runs
    assert u.s.clock.state.running is FIRST
    u.button(C)
    assert u.button(1) == []
    assert u.m.take_signals() == [WAIT_FOR_CLOCK]
    assert u.m.menu is not None and u.s.game.offers == (P("j8"), P("g12"))
    assert u.button(0) == [ClockPressed(now_ns=u.now, seat=FIRST)]  # Black closes the offers
    made = u.button(1)
    assert made[0] == Choose(now_ns=u.now, seat=SECOND, point=P("j8"))
    assert u.s.game.opening.state.kept_offer == P("j8")


def test_a_menu_the_step_left_behind_is_dropped() -> None:
    u = Unit()
    u.opening_stones()
    u.button(C)
    u.button(C)
    menu = u.m.menu
    assert menu is not None and menu.fits(u.s)
    u.s.decide(u.tick(), SECOND, "swap")  # the referee entered it for the player
    assert not menu.fits(u.s)
    u.s.press(u.tick(), SECOND)
    # Move 4 is a stone: the claim button is a claim again, the menu is gone
    assert u.button(C) == []
    assert u.m.menu is None and u.m.claim_deadline_ns is not None


def test_a_paused_game_has_no_menu_and_presses_pass_through() -> None:
    u = Unit()
    u.opening_stones()
    u.s.handle(inputs.RefereePause(now_ns=u.tick(), reason="a question"))
    assert menu_for(u.s, u.now) is None
    assert u.button(1) == [ClockPressed(now_ns=u.now, seat=SECOND)]
    u.button(C)
    assert u.m.menu is None


def test_a_fresh_mapper_after_a_crash_loses_only_the_open_menu() -> None:
    u = Unit()
    u.opening_stones()
    u.button(C)
    u.button(C)
    u.m = ButtonMapper(0)  # the service restarted: the journal rebuilt the session only
    assert u.m.menu is None
    u.pick("stay")
    assert u.s.game.step is not None and u.s.game.step.action is Action.PLACE


def test_reset_forgets_everything() -> None:
    u = Unit()
    u.opening_stones()
    u.button(1)
    u.button(C)
    u.m.reset()
    assert u.m.menu is None and u.m.take_signals() == [] and u.m.deadline_ns is None


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize("button", [3, -1, True, "0", None, 1.0])
def test_a_button_that_is_none_is_an_error_and_changes_nothing(button: object) -> None:
    u = Unit()
    u.opening_stones()
    u.button(C)
    menu = u.m.menu
    with pytest.raises(ButtonError, match="button"):
        u.m.press(button, u.tick(), u.s)  # type: ignore[arg-type]
    assert u.m.menu == menu


def test_other_bad_input() -> None:
    u = Unit()
    u.button(C)
    deadline = u.m.claim_deadline_ns
    with pytest.raises(ButtonError, match="earlier than the previous press"):
        u.m.press(0, u.now - 1, u.s)
    with pytest.raises(ButtonError, match="now_ns must be an integer"):
        u.m.press(0, 1.5, u.s)  # type: ignore[arg-type]
    with pytest.raises(ButtonError, match="must be a TableSession"):
        u.m.press(0, u.tick(), None)  # type: ignore[arg-type]
    assert u.m.claim_deadline_ns == deadline
    for first in (2, -1, True, "0"):
        with pytest.raises(ButtonError, match="first_button"):
            ButtonMapper(first)  # type: ignore[arg-type]
    with pytest.raises(ButtonError, match="seat must be"):
        button_of("first", 0)  # type: ignore[arg-type]
    with pytest.raises(ButtonError, match="now_ns"):
        u.m.expire(None)  # type: ignore[arg-type]
    assert button_of(FIRST, 1) == 1 and button_of(SECOND, 1) == 0
    assert seat_of_button(C) is None


# --- any presses at all --------------------------------------------------------------------

_PRESSES = st.lists(
    st.tuples(st.sampled_from([0, 1, 2]), st.integers(0, 40 * S)), min_size=1, max_size=40
)


@settings(max_examples=60, deadline=None)
@given(
    presses=_PRESSES,
    opening=st.sampled_from(["chinese-2013", "swap2", "yamaguchi", "soosorv-4", "taraguchi-5"]),
    first_button=st.sampled_from([0, 1]),
)
def test_any_presses_make_inputs_the_session_takes(
    presses: list[tuple[int, int]], opening: str, first_button: int
) -> None:
    """Whatever is pressed, every input made is well formed (the session never raises),
    a claim is never made where a menu is, and a press is never made up."""
    u = Unit(TableSetup(opening=opening), first_button)
    stones = iter(["h8", "h9", "h10", "a1", "c3", "m13", "o15", "a15", "b2", "n14"])
    for k, (button, wait) in enumerate(presses):
        if k % 3 == 0 and u.s.expected_colour is not None:
            name = next(stones, None)
            if name is not None:
                u.stone(name, u.s.expected_colour)
        had_menu_step = menu_for(u.s, 0) is not None
        made = u.button(button, wait_ns=wait)
        if button == C:
            assert made == []
        else:
            seat = seat_of_button(button, first_button)
            assert all(getattr(event, "seat", seat) is seat for event in made)
            assert len(made) <= 2
            if had_menu_step:
                assert not any(isinstance(e, Claim) for e in made)
    assert TableSession.replay(u.s.inputs) == u.s
