"""The owner host's side of a linked game (``wuzi.table.owner_seat``): milliseconds only.

The full exchanges run an ``OwnerSeat`` against a real ``AwayTable`` over the two hall
lines wired back to back (``support.linked_pair``: 75 ms each way, the away clock 7654 s
ahead). The owner player is black (the rule's ``Seat.FIRST``), the away player white."""

from __future__ import annotations

import random

import pytest

from support.linked_pair import LINK, LinkedPair
from wuzi.clock import NS_PER_MS, Clock
from wuzi.clock.events import EQUIPMENT_HOLD
from wuzi.clock.linked import HoldReason
from wuzi.rules.board import parse_point
from wuzi.rules.procedure import Seat
from wuzi.table.alerts import AlertReason
from wuzi.table.hall_line import CUT_AFTER_MS, LineCut, Resume
from wuzi.table.line_messages import (
    AwayButton,
    AwayClaim,
    AwayMirrored,
    AwayPress,
    AwayShown,
    AwayStone,
    LineItem,
    LineReceived,
)
from wuzi.table.owner_seat import (
    AwayButtonPressed,
    AwayClaimed,
    AwayMove,
    ItemRefused,
    OwnerAlert,
    OwnerSeat,
    OwnerSeatError,
    OwnStone,
)

BLACK, WHITE = Seat.FIRST, Seat.SECOND
H8, I9, J10, G7 = (parse_point(p) for p in ("h8", "i9", "j10", "g7"))
S = NS_PER_MS


def point_of(move: int) -> int:
    return (move * 7) % 225


class Script:
    """Both players of a game of ``moves`` moves: think and mirroring times drawn from a
    seeded random; the twin ``Clock`` (one table, presses at once) plays the same thinks."""

    def __init__(self, pair: LinkedPair, moves: int, seed: int = 36) -> None:
        rng = random.Random(seed)
        self.pair, self.moves = pair, moves
        tick = pair.tick_ms  # on the ticks, so every action happens at its instant
        self.think = {m: tick * rng.randint(80, 4_000) for m in range(1, moves + 1)}
        self.mirror = {m: tick * rng.randint(60, 1_800) for m in range(1, moves + 1)}
        self.extra_think: dict[int, int] = {}  # move -> ms the player waits on a hold
        self.twin = Clock(pair.control)
        self.twin_now = 0
        self.last_press_t = 0
        pair.on_away_move = self._owner_sees
        pair.on_away_shown = self._away_sees

    def start(self, at_t: int) -> None:
        self.pair.run_until(at_t)
        self.pair.seat.start(at_t)
        self.twin.start(at_t * S)
        self.twin_now = at_t
        self._owner_moves(1, at_t)

    def _twin_press(self, move: int) -> None:
        self.twin_now += self.think[move]
        self.twin.press(self.twin_now * S)

    def _owner_moves(self, move: int, clock_starts_t: int) -> None:
        pair, think = self.pair, self.think[move] + self.extra_think.get(move, 0)
        point = point_of(move)
        pair.at(clock_starts_t + think - 50, lambda: pair.own_stone(point))

        def press() -> None:
            pair.own_press(point)
            self.last_press_t = pair.t
            self._twin_press(move)

        pair.at(clock_starts_t + think, press)

    def _owner_sees(self, d: AwayMove) -> None:
        pair = self.pair
        mirrored_t = pair.t + self.mirror[d.move]
        pair.at(mirrored_t, lambda: pair.mirror_here(d.point))
        if d.move < self.moves:
            self._owner_moves(d.move + 1, mirrored_t)

    def _away_sees(self, move: int, point: int) -> None:
        pair = self.pair
        mirrored_t = pair.t + self.mirror[move]
        pair.at(mirrored_t, lambda: pair.away_stone(point, "black"))
        if move >= self.moves:
            return
        own, think = point_of(move + 1), self.think[move + 1]
        pair.at(mirrored_t + think - 50, lambda: pair.away_stone(own, "white"))

        def press() -> None:
            pair.away_press()
            self.last_press_t = pair.t
            self._twin_press(move + 1)

        pair.at(mirrored_t + think, press)


def test_twenty_moves_over_the_line_charge_what_the_twin_on_one_table_charges() -> None:
    pair = LinkedPair()
    script = Script(pair, 20)
    script.start(1_000)  # a second of pings first: the offset is measured
    pair.run_until(1_000 + sum(script.think.values()) + sum(script.mirror.values()) + 5_000)
    seat = pair.seat

    assert len(seat.moves) == 20
    # both sides' views of the game are one
    assert tuple(pair.owner_view) == seat.moves == pair.table.truth_moves
    assert seat.moves == tuple(point_of(m) for m in range(1, 21))
    # the away stones placed on the owner's board never became the owner's moves
    assert [s.point for s in pair.own_stones] == list(seat.moves[0::2])
    assert all(s.colour == "black" for s in pair.own_stones)
    moves = [d for d in pair.decisions if isinstance(d, AwayMove)]
    assert [(d.move, d.point, d.colour) for d in moves] == [
        (m, point_of(m), "white") for m in range(2, 21, 2)
    ]
    assert not [d for d in pair.decisions if isinstance(d, OwnerAlert | ItemRefused)]

    # the time: black's is the twin's; white gains exactly the offset's bound the rule
    # gives the player a stamp is about (a press at its earliest, a placed stone at its
    # latest), and nothing else
    state = seat.time(script.last_press_t)
    twin_at = script.twin_now * S
    assert abs(state.remaining(BLACK) - script.twin.remaining_ns(BLACK, twin_at) // S) <= 2
    credit = sum(pair.errors["press"]) + sum(pair.errors["mirrored"])
    assert len(pair.errors["press"]) == 10 and len(pair.errors["mirrored"]) == 10
    assert 0 < max(pair.errors["press"] + pair.errors["mirrored"]) <= pair.delay_ms + 10
    white_twin = script.twin.remaining_ns(WHITE, twin_at) // S
    assert abs(state.remaining(WHITE) - (white_twin + credit)) <= 3
    assert state.presses == 20 and state.flag_ms is None
    # after the last press: black's clock is held (white's move in transit, then mirroring)
    last = seat.time(script.last_press_t + 50)
    assert last.running is None and last.hold_reasons == (HoldReason.TRANSIT,)


def _cut_game() -> tuple[LinkedPair, int]:
    """Four moves, then the line cut 2 s into black's fifth think for 3 s."""
    pair = LinkedPair()
    script = Script(pair, 6)
    script.think[5] = 12_000
    script.start(1_000)
    while len(pair.seat.moves) < 4 or pair.seat.time(pair.t).running is not BLACK:
        pair.run_until(pair.t + pair.tick_ms)
        assert pair.t < 200_000
    cut_start = pair.t + 2_000
    pair.cut = (cut_start, cut_start + 3_000)
    return pair, cut_start


def test_a_cut_holds_both_clocks_within_the_limit_and_charges_nothing() -> None:
    pair, cut_start = _cut_game()
    pair.run_until(cut_start + CUT_AFTER_MS + pair.tick_ms)
    owner_cut = [d for d in pair.line_events["owner"] if isinstance(d, LineCut)]
    away_cut = [d for d in pair.line_events["away"] if isinstance(d, LineCut)]
    assert owner_cut and away_cut
    declared = owner_cut[0].at_ms
    assert declared <= cut_start + CUT_AFTER_MS + pair.tick_ms
    assert away_cut[0].at_ms - pair.offset_ms <= cut_start + CUT_AFTER_MS + pair.tick_ms
    held = pair.seat.time(pair.t)
    assert held.running is None and HoldReason.LINE_CUT in held.hold_reasons
    assert pair.table.held
    assert pair.seat.current_truth(pair.t).held

    before = pair.seat.time(declared).remaining_ms
    pair.run_until(cut_start + 3_000 + 2_000)
    resumes = [d for d in pair.line_events["owner"] if isinstance(d, Resume)]
    assert len(resumes) == 1 and resumes[0].by == ("chief:chief",)
    resumed = resumes[0].at_ms
    assert resumed >= cut_start + 3_000
    assert [d for d in pair.line_events["away"] if isinstance(d, Resume)]
    assert not pair.table.held
    # nothing charged from the cut to the referees' resume; then black's clock runs again
    assert pair.seat.time(resumed).remaining_ms == before
    after = pair.seat.time(resumed + 1_000)
    assert after.running is BLACK
    assert after.remaining(BLACK) == before[0] - 1_000
    assert after.remaining(WHITE) == before[1]


def test_after_a_cut_the_game_ends_the_same_at_both_halls_and_the_hold_is_free() -> None:
    pair, cut_start = _cut_game()
    pair.run_until(pair.t + 150_000)
    seat = pair.seat
    assert len(seat.moves) == 6
    assert tuple(pair.owner_view) == seat.moves == pair.table.truth_moves
    resumed = next(d for d in pair.line_events["owner"] if isinstance(d, Resume)).at_ms
    declared = next(d for d in pair.line_events["owner"] if isinstance(d, LineCut)).at_ms
    assert declared <= cut_start + CUT_AFTER_MS + pair.tick_ms
    assert cut_start + 3_000 <= resumed <= cut_start + 3_000 + 1_000
    assert [d for d in pair.decisions if isinstance(d, OwnerAlert | ItemRefused)] == []


def test_a_think_across_the_cut_is_charged_as_the_twin_held_for_the_equipment() -> None:
    """Black's fifth think spans the cut: the owner player's press comes 12 s after their
    clock started in wall time; black is charged 12 s minus the hold, as the twin paused
    for the equipment over the same span."""
    pair, _ = _cut_game()
    started = pair.t  # black's clock runs from here (its mirroring of move 4 done)
    base = pair.seat.time(started).remaining(BLACK)
    pair.run_until(started + 12_000 + 100)
    resumed = next(d for d in pair.line_events["owner"] if isinstance(d, Resume)).at_ms
    declared = next(d for d in pair.line_events["owner"] if isinstance(d, LineCut)).at_ms
    twin = Clock("2700+30")  # black's think alone: its clock runs from 0 (= started)
    twin.start(0)
    twin_base = twin.remaining_ns(BLACK, 0) // S
    twin.pause((declared - started) * S, hold=EQUIPMENT_HOLD)
    twin.resume((resumed - started) * S, hold=EQUIPMENT_HOLD)
    charged_twin = twin_base - twin.remaining_ns(BLACK, (12_000 - 50) * S) // S
    charged = base - pair.seat.time(started + 12_000 - 50).remaining(BLACK)
    assert abs(charged - charged_twin) <= 1
    assert charged == 12_000 - 50 - (resumed - declared)


# --- the owner's board: mirroring recognised, alerts never verdicts -----------------------


def received(n: int, item: LineItem, at_ms: int, error_ms: int = 2) -> LineReceived:
    return LineReceived(n, item, at_ms + 75, at_ms, error_ms)


def seat_after_away_move() -> OwnerSeat:
    """Black played h8 at 5 s (owner); white (away) played i9, pressed at 9 s (owner)."""
    seat = OwnerSeat(3, LINK, "2700+30", grace_ms=10_000)
    seat.start(0)
    seat.board_stone(H8, "black", 4_900)
    seat.own_press(H8, 5_000)
    seat.received(received(1, AwayShown(1, 1), 5_080))
    seat.received(received(2, AwayMirrored(1, H8, 1), 6_000))
    seat.received(received(3, AwayStone(I9, "white", 1), 8_900))
    out = seat.received(received(4, AwayPress(0, 1), 9_000))
    assert out.decisions == [AwayMove(2, I9, "white", 9_000, 2)]
    seat.shown_here(2, 9_080)
    return seat


def test_a_wrong_point_mirroring_gives_an_alert_and_times_nothing() -> None:
    seat = seat_after_away_move()
    out = seat.board_stone(J10, "white", 10_000)
    assert len(out.decisions) == 1
    alert = out.decisions[0]
    assert isinstance(alert, OwnerAlert) and alert.reason is AlertReason.MIRRORING
    assert alert.text == (
        f"table 3 (linked {LINK}, owner): white stone on the wrong point j10: "
        "the stone to mirror is move 2 on i9"
    )
    assert seat.to_mirror_here() == (2, I9)
    # black is held for the mirroring until the grace is used up: the wrong stone did not
    # end it
    assert seat.time(15_000).hold_reasons == (HoldReason.MIRRORING,)
    assert seat.time(19_080 + 1_000).running is BLACK
    # the right point is the mirroring: black's clock runs from it
    assert seat.board_stone(I9, "white", 12_000).decisions == []
    assert seat.to_mirror_here() is None
    assert seat.time(13_000).running is BLACK
    assert seat.time(13_000).remaining(BLACK) == 2_700_000 + 30_000 - 5_000 - 1_000


def test_an_own_stone_before_the_mirroring_is_an_alert_and_still_the_players_stone() -> None:
    seat = seat_after_away_move()
    out = seat.board_stone(G7, "black", 10_000)
    assert [type(d) for d in out.decisions] == [OwnerAlert, OwnStone]
    assert out.decisions[1] == OwnStone(G7, "black", 10_000)
    assert "before the opponent's stone of move 2 was mirrored on i9" in str(out.decisions[0])


def test_a_stone_of_the_game_put_back_is_nothing_and_a_mirror_elsewhere_is_an_alert() -> None:
    seat = seat_after_away_move()
    seat.board_stone(I9, "white", 10_000)
    assert seat.board_stone(I9, "white", 11_000).decisions == []
    assert seat.board_stone(H8, "black", 11_000).decisions == [OwnStone(H8, "black", 11_000)]
    out = seat.board_stone(J10, "white", 12_000)
    assert isinstance(out.decisions[0], OwnerAlert)
    assert "no opponent's move to mirror there" in out.decisions[0].text


def test_mirrored_here_on_another_point_is_an_alert() -> None:
    seat = seat_after_away_move()
    out = seat.mirrored_here(2, J10, 10_000)
    assert isinstance(out.decisions[0], OwnerAlert)
    assert seat.to_mirror_here() == (2, I9)


# --- the away items -------------------------------------------------------------------


def test_claims_and_buttons_become_decisions_in_owner_time() -> None:
    seat = seat_after_away_move()
    assert seat.received(received(5, AwayClaim(1, 1), 9_500, 3)).decisions == [
        AwayClaimed(1, 9_500, 3)
    ]
    assert seat.received(received(6, AwayButton(1, 1), 9_600)).decisions == [
        AwayButtonPressed(1, 9_600, 2)
    ]
    # a press of the other button of the away unit is a button, not a move
    assert seat.received(received(7, AwayPress(1, 1), 9_700)).decisions == [
        AwayButtonPressed(1, 9_700, 2)
    ]
    assert len(seat.moves) == 2


@pytest.mark.parametrize(
    ("item", "why"),
    [
        (AwayStone(J10, "black", 1), "black stone sent as the away player's"),
        (AwayPress(0, 1), "out of turn"),
        (AwayShown(2, 1), "the away player's own move"),
        (AwayShown(9, 1), "the game has 2 moves"),
        (AwayMirrored(1, J10, 1), "move 1 is on h8, not j10"),
    ],
)
def test_items_the_game_cannot_take_are_refused_with_a_reason(item: LineItem, why: str) -> None:
    seat = seat_after_away_move()
    truth = seat.current_truth(9_500)
    out = seat.received(received(9, item, 9_500))
    assert len(out.decisions) == 1
    refused = out.decisions[0]
    assert isinstance(refused, ItemRefused) and refused.n == 9 and why in refused.why
    assert seat.current_truth(9_500) == truth


def test_a_press_with_no_stone_is_refused() -> None:
    seat = OwnerSeat(3, LINK, "600", grace_ms=10_000)
    seat.start(0)
    seat.own_press(H8, 1_000)
    out = seat.received(received(1, AwayPress(0, 1), 3_000))
    assert isinstance(out.decisions[0], ItemRefused)
    assert "no stone" in out.decisions[0].why
    assert seat.moves == (H8,)


def test_the_owner_player_out_of_turn_and_bad_arguments_raise_naming_the_field() -> None:
    seat = seat_after_away_move()
    seat.own_press(G7, 20_000)
    with pytest.raises(OwnerSeatError, match="out of turn"):
        seat.own_press(J10, 21_000)
    with pytest.raises(OwnerSeatError, match="point"):
        seat.board_stone(225, "white", 1)
    with pytest.raises(OwnerSeatError, match="at_ms"):
        seat.shown_here(2, -1)
    with pytest.raises(OwnerSeatError, match="owner player's own"):
        seat.shown_here(1, 1)
    seat.board_stone(I9, "white", 21_000)
    with pytest.raises(OwnerSeatError, match="shown_here: move 2 shown"):
        seat.shown_here(2, 9_999)  # shown at 9 080 already: another instant is refused
    with pytest.raises(OwnerSeatError, match="line_back"):
        seat.line_back(30_000)  # no cut to come back from
    with pytest.raises(OwnerSeatError, match="owner_colour"):
        OwnerSeat(3, LINK, "600", grace_ms=0, owner_colour="red")


# --- the truth ------------------------------------------------------------------------


def test_the_truth_is_built_again_only_when_it_changes() -> None:
    seat = OwnerSeat(3, LINK, "2700+30", grace_ms=10_000)
    seat.start(0)
    first = seat.truth(0)
    assert first is not None
    assert (first.moves, first.running, first.held, first.mirror) == ((), "black", False, None)
    assert seat.truth(3_000) is None  # black's clock runs on: the away side counts it down
    seat.own_press(H8, 5_000)
    truth = seat.truth(5_010)
    assert truth is not None
    assert (truth.moves, truth.running, truth.mirror, truth.black_ms) == (
        (H8,),
        None,  # in transit to the away table
        H8,
        2_700_000 - 5_000 + 30_000,
    )
    seat.received(received(1, AwayShown(1, 1), 5_080))
    assert seat.truth(5_200) is None  # still held: mirroring within the grace
    seat.received(received(2, AwayMirrored(1, H8, 1), 7_000))
    truth = seat.truth(7_100)
    assert truth is not None and truth.running == "white" and truth.mirror is None
    seat.line_cut(8_000)
    truth = seat.truth(8_100)
    assert truth is not None and truth.held and truth.running is None
    seat.line_back(9_000)
    truth = seat.truth(9_000)
    assert truth is not None and not truth.held and truth.running == "white"


def test_the_grace_ending_changes_the_truth_on_a_tick() -> None:
    seat = OwnerSeat(3, LINK, "600", grace_ms=10_000)
    seat.start(0)
    seat.own_press(H8, 1_000)
    seat.received(received(1, AwayShown(1, 1), 1_100))
    seat.truth(1_200)
    assert seat.truth(11_000) is None
    late = seat.truth(11_200)  # the grace ended at 11 100 + the error: white runs
    assert late is not None and late.running == "white" and late.mirror == H8
