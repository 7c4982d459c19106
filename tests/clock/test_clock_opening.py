"""The opening's clock (RULES.md "Time") with a real game of the Chinese 2013 procedure:
the opener's clock for B1–B3, the decider's for the swap, Black's for the offers, White's
through the choice and move 6; one increment per press; a press without an action."""

from __future__ import annotations

from wuzi.clock import NS_PER_S, Clock
from wuzi.clock.opening import NO_NEW_ACTION, seat_to_run, table_press
from wuzi.rules.game import Game
from wuzi.rules.openings import make_procedure
from wuzi.rules.procedure import Seat

S = NS_PER_S
FIRST, SECOND = Seat.FIRST, Seat.SECOND


def running(clock: Clock, t: int) -> Seat | None:
    return clock.at(t).running


def test_chinese_2013_opening_time() -> None:
    game = Game("renju", opening=make_procedure("chinese-2013"))
    clock = Clock("2700+30")
    clock.start(0, seat=seat_to_run(game) or FIRST)
    t = 0

    def act(seconds: int, action: str, *args: str) -> None:
        nonlocal t
        t += seconds * S
        getattr(game, action)(*args)
        assert table_press(clock, t, game, acted=True).accepted

    # the opener places B1, W2, B3 and presses after each: the opener's clock keeps running
    act(5, "place", "h8")
    assert running(clock, t) is FIRST
    act(5, "place", "h9")
    act(5, "place", "h10")
    assert running(clock, t) is SECOND  # the swap decision is the second seat's
    assert clock.remaining_ns(FIRST, t) == 2700 * S - 15 * S + 3 * 30 * S  # one per press
    act(20, "decide", "swap")  # the second seat takes Black; the opener, now White, plays 4
    assert running(clock, t) is FIRST
    act(10, "place", "i9")  # W4
    assert running(clock, t) is SECOND  # Black (second seat) until all offers are down
    act(10, "place", "g7")
    assert running(clock, t) is SECOND
    act(10, "place", "j7")
    assert running(clock, t) is FIRST  # White through the choice and move 6
    act(10, "choose", "g7")
    assert running(clock, t) is FIRST
    act(10, "place", "i10")  # W6
    assert running(clock, t) is SECOND  # Black's move 7: alternating from here
    view = clock.view(t)
    assert (view.first.moves, view.second.moves) == (6, 3)
    assert view.first.remaining_ns == 2700 * S - 45 * S + 6 * 30 * S
    assert view.second.remaining_ns == 2700 * S - 40 * S + 3 * 30 * S


def test_a_press_without_an_action_stands_and_is_an_infraction() -> None:
    game = Game("renju", opening=make_procedure("chinese-2013"))
    clock = Clock("2700+30")
    clock.start(0)
    result = table_press(clock, 4 * S, game, acted=False, actor="table 7")
    assert result.accepted and result.seat is FIRST
    assert running(clock, 4 * S) is SECOND  # passed, as any clock would; nothing undone
    assert clock.infractions(FIRST) == 1
    view = clock.view(4 * S)
    assert view.first.moves == 0 and view.first.remaining_ns == 2700 * S - 4 * S + 30 * S
    infraction = clock.events[-1]
    assert getattr(infraction, "detail", None) == NO_NEW_ACTION
    assert getattr(infraction, "actor", None) == "table 7"


def test_an_ignored_press_is_no_infraction() -> None:
    game = Game("renju")
    clock = Clock("60")
    clock.start(0)
    clock.pause(S)
    assert not table_press(clock, 2 * S, game, acted=False).accepted
    assert clock.infractions(FIRST) == 0
