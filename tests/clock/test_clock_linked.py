"""The linked game's time rule (``wuzi.clock.linked``; docs/linked.md "The time rule").

All in ms of owner time, fake time only. Seat FIRST sits in the owner's hall, SECOND in
the away hall; the away host's stamps are converted by a fixed offset (``to_owner_ms``)."""

from __future__ import annotations

import random

import pytest

from wuzi.clock import NS_PER_MS, Clock
from wuzi.clock.events import EQUIPMENT_HOLD
from wuzi.clock.linked import HoldReason, LinkedClockRule
from wuzi.clock.linked_facts import LinkedTimeError, MovePressed, MoveShown
from wuzi.rules.procedure import Seat

A, B = Seat.FIRST, Seat.SECOND
GRACE_MS = 10_000
AWAY_OFFSET_MS = 7_654_321  # the away host's monotonic clock is this far ahead


def to_owner_ms(away_ms: int) -> tuple[int, int]:
    """The offset estimate another part builds: exact here (error 0)."""
    return away_ms - AWAY_OFFSET_MS, 0


def used_ms(rule: LinkedClockRule, seat: Seat, now_ms: int, base_ms: int) -> int:
    return base_ms - rule.at(now_ms).remaining(seat)


def a_move_to_b(
    rule: LinkedClockRule, move: int, press_ms: int, transit_ms: int, mirror_ms: int
) -> int:
    """A presses at the owner's hall; the move is shown at B's table ``transit_ms`` later
    and B places the stone ``mirror_ms`` after that; the instant B's mirroring ends."""
    rule.pressed(A, press_ms, move=move)
    shown_away = press_ms + transit_ms + AWAY_OFFSET_MS  # the away host's stamp
    rule.shown(B, to_owner_ms(shown_away)[0], move=move)
    rule.mirrored(B, to_owner_ms(shown_away + mirror_ms)[0], move=move)
    return press_ms + transit_ms + mirror_ms


# --- the grace ------------------------------------------------------------------------


@pytest.mark.parametrize(("mirror_ms", "charged_ms"), [(4_000, 0), (13_000, 3_000), (10_000, 0)])
def test_mirroring_is_free_within_the_grace_and_charged_past_it(
    mirror_ms: int, charged_ms: int
) -> None:
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    end = a_move_to_b(rule, 1, 5_000, 80, mirror_ms)
    assert used_ms(rule, B, end, 600_000) == charged_ms
    assert used_ms(rule, B, end + 2_000, 600_000) == charged_ms + 2_000  # then it runs


def test_while_mirroring_within_the_grace_the_hold_says_so() -> None:
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    a_move_to_b(rule, 1, 5_000, 80, 4_000)
    assert rule.at(5_040).hold_reasons == (HoldReason.TRANSIT,)
    assert rule.at(7_000).holds == ((HoldReason.MIRRORING, 5_080),)
    assert rule.at(7_000).running is None
    assert rule.at(9_080).running is B and rule.at(9_080).holds == ()


def test_no_mirrored_report_starts_the_clock_when_the_grace_is_used_up() -> None:
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    rule.pressed(A, 1_000, move=1)
    rule.shown(B, 1_080, move=1)
    assert rule.at(11_080).running is B
    assert used_ms(rule, B, 12_080, 600_000) == 1_000


def test_a_zero_grace_charges_the_mirroring_from_the_display() -> None:
    rule = LinkedClockRule("600", grace_ms=0)
    rule.start(A, 0)
    end = a_move_to_b(rule, 1, 1_000, 80, 3_000)
    assert used_ms(rule, B, end, 600_000) == 3_000


# --- the network ----------------------------------------------------------------------


def test_transit_both_ways_is_charged_to_nobody() -> None:
    """80 ms one way, 150 ms round trip: each player is charged exactly their thinking."""
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    b_starts = a_move_to_b(rule, 1, 3_000, 80, 0)  # A thought 3 s
    b_press_owner = b_starts + 7_000  # B thought 7 s
    rule.pressed(B, b_press_owner, move=2)  # arrives 80 ms later: order does not matter
    rule.shown(A, b_press_owner + 150, move=2)  # shown at A: the report and the display
    rule.mirrored(A, b_press_owner + 150, move=2)
    now = b_press_owner + 150
    assert rule.at(b_press_owner + 100).hold_reasons == (HoldReason.TRANSIT,)
    assert used_ms(rule, A, now, 600_000) == 3_000
    assert used_ms(rule, B, now, 600_000) == 7_000
    assert rule.at(now).running is A


def test_the_offset_error_goes_to_the_player_the_fact_concerns() -> None:
    """Press at its earliest, display and mirrored stone at their latest; the opponent,
    held across the transit, pays nothing."""
    rule = LinkedClockRule("600", grace_ms=0)
    rule.start(B, 0)
    rule.pressed(B, 5_000, move=1, error_ms=3)  # B stops at 4997
    rule.shown(A, 5_080, move=1)
    assert used_ms(rule, B, 6_000, 600_000) == 4_997
    assert used_ms(rule, A, 6_080, 600_000) == 1_000  # A's clock from 5080
    rule.pressed(A, 7_000, move=2)
    rule.shown(B, 7_080, move=2, error_ms=3)  # B's clock from 7083
    assert used_ms(rule, B, 8_083, 600_000) == 4_997 + 1_000


def test_a_press_stamped_before_its_turn_could_start_charges_nothing() -> None:
    """Offset errors may put B's reply before the display B reported: B used no time."""
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    rule.pressed(A, 1_000, move=1)
    rule.pressed(B, 990, move=2)
    assert used_ms(rule, B, 2_000, 600_000) == 0
    assert rule.at(2_000).holds == ((HoldReason.TRANSIT, 1_000),)


def test_the_first_fact_at_the_table_proves_the_display() -> None:
    """A mirrored stone or a reply reported before the display's report: the move was
    shown by then (the display report is late or lost)."""
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    rule.pressed(A, 1_000, move=1)
    rule.mirrored(B, 1_500, move=1)
    assert rule.at(1_500).running is B
    rule.shown(B, 1_600, move=1)  # later than the stone: the stone proved it earlier
    assert used_ms(rule, B, 2_500, 600_000) == 1_000


# --- increments, flags, cuts ------------------------------------------------------------


def test_fischer_increments_are_given_once_per_press() -> None:
    rule = LinkedClockRule("600+10", grace_ms=GRACE_MS)
    rule.start(A, 0)
    now, move = 0, 1
    for _ in range(5):
        now = a_move_to_b(rule, move, now + 2_000, 80, 1_000)
        rule.pressed(B, now + 3_000, move=move + 1)
        rule.shown(A, now + 3_080, move=move + 1)
        rule.mirrored(A, now + 4_080, move=move + 1)
        now, move = now + 4_080, move + 2
    state = rule.at(now)
    assert state.presses == 10
    assert state.remaining(A) == 600_000 - 5 * 2_000 + 5 * 10_000
    assert state.remaining(B) == 600_000 - 5 * 3_000 + 5 * 10_000


def test_a_flag_cannot_fall_while_a_hold_is_in_force() -> None:
    rule = LinkedClockRule("3", grace_ms=GRACE_MS)
    rule.start(A, 0)
    rule.pressed(A, 1_000, move=1)
    rule.shown(B, 30_000, move=1)  # 29 s in transit (a slow report): B's 3 s untouched
    assert rule.at(39_999).flag_ms is None and rule.at(39_999).remaining(B) == 3_000
    rule.line_cut(40_500)  # grace over at 40 000; cut with 2.5 s left
    assert rule.at(100_000).flag_ms is None
    assert rule.at(100_000).remaining(B) == 2_500
    rule.line_back(100_000)
    state = rule.at(103_000)
    assert (state.flag_seat, state.flag_ms) == (B, 102_500)
    assert state.hold_reasons == (HoldReason.FLAG,)


def test_a_cut_in_the_movers_think_time_holds_and_resumes_with_the_same_time() -> None:
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    rule.line_cut(12_345)
    held = rule.at(12_345)
    assert held.holds == ((HoldReason.LINE_CUT, 12_345),) and held.running is None
    assert rule.at(50_000).remaining_ms == held.remaining_ms == (587_655, 600_000)
    rule.line_back(60_000)
    assert rule.at(60_000).remaining_ms == held.remaining_ms
    assert rule.at(61_000).remaining(A) == 586_655


def test_a_press_during_a_cut_completes_the_move_and_stops_the_movers_clock() -> None:
    """The mover pressed while the line was cut (its report replayed on return): the move
    stands; the opponent's clock waits for the display as always."""
    rule = LinkedClockRule("600+5", grace_ms=GRACE_MS)
    rule.start(B, 0)
    rule.line_cut(4_000)
    rule.line_back(30_000)
    rule.pressed(B, 6_000, move=1)  # stamped inside the cut: the cut held B from 4000
    rule.shown(A, 30_200, move=1)
    rule.mirrored(A, 31_200, move=1)
    state = rule.at(32_200)
    assert state.remaining(B) == 600_000 - 4_000 + 5_000
    assert state.remaining(A) == 599_000 and state.running is A


def test_a_cut_does_not_use_up_the_grace() -> None:
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    rule.pressed(A, 1_000, move=1)
    rule.shown(B, 2_000, move=1)
    rule.line_cut(5_000)  # 3 s of grace used
    rule.line_back(65_000)
    assert rule.at(71_999).running is None  # 7 s more of grace
    assert rule.at(72_000).running is B
    assert rule.at(80_000).hold_reasons == ()


def test_while_the_cut_is_open_the_grace_waits() -> None:
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    rule.pressed(A, 1_000, move=1)
    rule.shown(B, 2_000, move=1)
    rule.line_cut(3_000)
    state = rule.at(500_000)
    assert set(state.hold_reasons) == {HoldReason.MIRRORING, HoldReason.LINE_CUT}
    assert state.remaining(B) == 600_000


def test_a_flag_stays_provisional_until_the_seats_hall_is_heard() -> None:
    """A's press is 80 ms on the way: until it arrives a flag may show; it is not final,
    and the press, once in, shows the flag never fell."""
    rule = LinkedClockRule("1", grace_ms=GRACE_MS)
    rule.start(B, 0)  # B (away) to move, 1 s
    state = rule.at(1_050)
    assert (state.flag_seat, state.flag_ms, state.flag_final) == (B, 1_000, False)
    rule.pressed(B, 990, move=1)
    rule.heard_until(B, 1_050)
    assert rule.at(1_050).flag_ms is None
    rule.heard_until(A, 100_000)
    rule.shown(A, 1_000, move=1)
    final = rule.at(13_000)
    assert (final.flag_seat, final.flag_ms, final.flag_final) == (A, 12_000, True)


def test_a_display_at_the_movers_own_table_changes_nothing() -> None:
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    rule.pressed(A, 1_000, move=1)
    before = rule.events()
    rule.shown(A, 1_001, move=1)
    rule.mirrored(A, 1_002, move=1)
    assert rule.events() == before
    assert rule.at(5_000).hold_reasons == (HoldReason.TRANSIT,)


def test_a_fact_stamped_after_the_present_counts_from_its_instant() -> None:
    """An offset error may stamp a fact a little after the owner's now: it waits."""
    rule = LinkedClockRule("600", grace_ms=0)
    rule.start(A, 0)
    rule.pressed(A, 1_000, move=1)
    rule.shown(B, 1_080, move=1)
    assert rule.at(1_050).hold_reasons == (HoldReason.TRANSIT,)
    assert rule.at(1_080).running is B


def test_the_same_seat_again_needs_no_display() -> None:
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    rule.pressed(A, 1_000, move=1, next_seat=A)
    assert rule.at(1_500).running is A
    rule.pressed(A, 2_000, move=2)
    assert rule.at(2_500).hold_reasons == (HoldReason.TRANSIT,)


# --- facts: order, repeats, refusals ------------------------------------------------------


def test_the_events_drive_one_ordinary_clock() -> None:
    rule = LinkedClockRule("300+3", grace_ms=GRACE_MS)
    rule.start(A, 0)
    a_move_to_b(rule, 1, 2_000, 80, 12_000)
    rule.pressed(B, 20_000, move=2)
    rule.line_cut(20_050)
    rule.line_back(25_000)
    for now in (1_000, 2_050, 10_000, 14_080, 20_040, 22_000, 30_000):
        now_ns = now * NS_PER_MS
        clock = Clock.replay("300+3", (e for e in rule.events() if e.t_ns <= now_ns))
        assert clock.at(now_ns) == rule.clock(now).at(now_ns)
        assert clock.remaining_ns(B, now_ns) // NS_PER_MS == rule.at(now).remaining(B)
    assert [name for name, _ in rule.clock(22_000).at(22_000 * NS_PER_MS).holds] == [
        EQUIPMENT_HOLD,
        "transit",
    ]


def test_a_repeated_fact_is_nothing_and_a_contradicting_one_is_refused() -> None:
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.start(A, 0)
    rule.pressed(A, 1_000, move=1)
    before = rule.events()
    rule.pressed(A, 1_000, move=1)  # replayed after a cut
    assert rule.events() == before
    with pytest.raises(LinkedTimeError, match="press 1 is already known"):
        rule.pressed(A, 1_001, move=1)
    with pytest.raises(LinkedTimeError, match="press 2 is second's, not first's"):
        rule.pressed(A, 2_000, move=2)
    with pytest.raises(LinkedTimeError, match="press 3 gives the turn to first, but press 4"):
        rule.pressed(B, 3_000, move=4)  # taken: press 3 is not known yet
        rule.pressed(B, 2_500, move=3)
    assert len(rule.facts) == 3  # the start, press 1, press 4: nothing else kept


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda r: r.pressed(A, -1, move=1), "MovePressed: at_ms must be between 0"),
        (lambda r: r.pressed(A, 1.5, move=1), "MovePressed: at_ms must be a whole number"),
        (lambda r: r.pressed(A, 1, move=0), "MovePressed: move must be between 1"),
        (lambda r: r.shown("b", 1, move=1), "MoveShown: seat must be Seat.FIRST"),
        (lambda r: r.mirrored(B, 1, move=1, error_ms=60_000), "error_ms must be between"),
        (lambda r: r.apply("press"), "not a linked-game fact"),
        (lambda r: r.line_back(5), "the line is not cut"),
        (lambda r: r.heard_until(A, -3), "heard_until: at_ms"),
        (lambda r: r.at(-1), "now_ms must be a whole number"),
        (lambda r: r.clock("5"), "now_ms must be a whole number"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(call: object, message: str) -> None:
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    with pytest.raises(LinkedTimeError, match=message):
        call(rule)  # type: ignore[operator]
    assert rule.facts == ()


def test_line_facts_come_in_order() -> None:
    rule = LinkedClockRule("600", grace_ms=GRACE_MS)
    rule.line_cut(100)
    with pytest.raises(LinkedTimeError, match="already cut"):
        rule.line_cut(200)
    with pytest.raises(LinkedTimeError, match="earlier than the last cut"):
        rule.line_back(50)


@pytest.mark.parametrize("grace", [-1, 600_001, 2.5, True])
def test_the_grace_is_checked(grace: object) -> None:
    with pytest.raises(LinkedTimeError, match="mirroring grace"):
        LinkedClockRule("600", grace_ms=grace)  # type: ignore[arg-type]


def test_a_rule_rebuilt_from_its_facts_is_the_same() -> None:
    rule = LinkedClockRule("600+5", grace_ms=GRACE_MS)
    rule.start(A, 0)
    a_move_to_b(rule, 1, 2_000, 80, 12_000)
    rule.line_cut(15_000)
    rule.line_back(16_000)
    rule.pressed(B, 20_000, move=2)
    again = LinkedClockRule.replay("600+5", reversed(rule.facts[:-2]), grace_ms=GRACE_MS)
    for fact in rule.facts[-2:]:
        again.apply(fact)
    assert again.events() == rule.events()
    assert again.at(30_000) == rule.at(30_000)
    assert [type(f) for f in rule.facts[1:4]] == [MovePressed, MovePressed, MoveShown]


# --- a whole game against its twin on one table -----------------------------------------


def test_a_60_move_linked_game_charges_what_its_twin_on_one_table_charges() -> None:
    """Same think times, 80 ms each way, mirroring within the grace, one cut: each
    player's time equals the twin's (one table, presses at once) within 1 ms."""
    rng = random.Random(36)
    control = "2700+30"
    rule = LinkedClockRule(control, grace_ms=GRACE_MS)
    twin = Clock(control)
    S = NS_PER_MS
    rule.start(A, 0)
    twin.start(0)
    owner_now = twin_now = 0  # the instant the player to move began to think
    cut_at_move, cut_len = 23, 45_000
    for move in range(1, 61):
        mover = A if move % 2 else B
        think = rng.randint(300, 40_000)
        if move == cut_at_move:  # the line is cut 1 s into this think
            rule.line_cut(owner_now + 1_000)
            rule.line_back(owner_now + 1_000 + cut_len)
            twin.pause((twin_now + 1_000) * S, hold=EQUIPMENT_HOLD)
            twin.resume((twin_now + 1_000 + cut_len) * S, hold=EQUIPMENT_HOLD)
            owner_now += cut_len
            twin_now += cut_len
        press = owner_now + think
        transit = rng.randint(60, 100)
        mirror = rng.randint(0, GRACE_MS)
        rule.pressed(mover, press, move=move)
        rule.at(press + transit // 2)  # the owner looks while the move is on the way
        rule.shown(mover.other, press + transit, move=move)
        rule.mirrored(mover.other, press + transit + mirror, move=move)
        owner_now = press + transit + mirror
        twin_now += think
        twin.press(twin_now * S)
    state = rule.at(owner_now)
    for seat in (A, B):
        assert abs(state.remaining(seat) - twin.remaining_ns(seat, twin_now * S) // S) <= 1
    assert state.presses == 60 and state.flag_ms is None
