"""The table session: stones + presses → judged moves, alerts for everything else."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.clock.control import NS_PER_MS
from wuzi.rules.board import Colour, parse_point
from wuzi.rules.game import Status
from wuzi.rules.procedure import Seat
from wuzi.rules.record import ClockReading
from wuzi.table.inputs import (
    Adjourn,
    AdjustTime,
    BoardAlert,
    ClockPressed,
    CorrectMoves,
    Declare,
    HostRestarted,
    RefereePause,
    RefereeResume,
    ReplaceStone,
    SetResult,
    StartNextGame,
    StoneSettled,
    TableInput,
    TableSetup,
    TakeBack,
    Tick,
)
from wuzi.table.outputs import (
    Adjourned,
    AlertReason,
    ClockChanged,
    GameOver,
    MoveCorrected,
    MoveJudged,
    MoveTakenBack,
    NextGameStarted,
    OfferKept,
    OfferPlaced,
    OpeningDeclared,
    PlayerOutput,
    RefereeAlert,
    RefereeOutput,
    StatusChanged,
    TableOutput,
)
from wuzi.table.session import ADJOURN_HOLD, REFEREE_HOLD, TableError, TableSession

S = 1_000_000_000
B, W = Colour.BLACK, Colour.WHITE
FIRST, SECOND = Seat.FIRST, Seat.SECOND


def P(name: str) -> int:
    return parse_point(name)


class Table:
    """A session with a running instant: each action one second after the previous."""

    def __init__(self, setup: TableSetup | None = None) -> None:
        self.now = 1000 * S
        self.s = TableSession(setup or TableSetup(), self.now)

    def tick(self, seconds: int = 1) -> int:
        self.now += seconds * S
        return self.now

    def stone(self, name: str, colour: Colour) -> list[TableOutput]:
        return self.s.stone(self.tick(), P(name), colour)

    def press(self, seat: Seat) -> list[TableOutput]:
        return self.s.press(self.tick(), seat)

    def move(self, name: str, colour: Colour, seat: Seat) -> list[TableOutput]:
        return self.stone(name, colour) + self.press(seat)

    def removed(self, *names: str) -> list[TableOutput]:
        points = tuple(P(n) for n in names)
        return self.s.handle(BoardAlert(now_ns=self.tick(), kind="removed", points=points))

    def do(self, make: type[TableInput], **fields: object) -> list[TableOutput]:
        return self.s.handle(make(now_ns=self.tick(), **fields))


def alerts(outputs: list[TableOutput]) -> list[AlertReason]:
    return [o.reason for o in outputs if isinstance(o, RefereeAlert)]


def judged(outputs: list[TableOutput]) -> list[MoveJudged]:
    return [o for o in outputs if isinstance(o, MoveJudged)]


def chinese_opening(t: Table, *, remove_offer: bool = True) -> None:
    """B1 h8, W2 h9, B3 h10 by the opener, stay, W4 a1, offers j8 g12, White keeps j8."""
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        assert judged(t.move(name, colour, FIRST))
    t.s.decide(t.tick(), SECOND, "stay")
    t.press(SECOND)
    assert [m.number for m in judged(t.move("a1", W, SECOND))] == [4]
    assert any(isinstance(o, OfferPlaced) for o in t.stone("j8", B))
    assert any(isinstance(o, OfferPlaced) for o in t.stone("g12", B))
    t.press(FIRST)
    out = t.s.choose(t.tick(), SECOND, P("j8"))
    assert [o for o in out if isinstance(o, OfferKept)] == [OfferKept(t.now, P("j8"), (P("g12"),))]
    assert t.s.unremoved_offers == {P("g12")}
    t.press(SECOND)
    if remove_offer:
        assert alerts(t.removed("g12")) == []
        assert t.s.unremoved_offers == frozenset()


def chinese_game_to_double_three(t: Table) -> list[TableOutput]:
    chinese_opening(t)
    out: list[TableOutput] = []
    out += t.move("a3", W, SECOND)  # W6
    out += t.move("j10", B, FIRST)  # B7
    out += t.move("a5", W, SECOND)  # W8
    out += t.move("i9", B, FIRST)  # B9: a double-three
    return out


def test_full_chinese_2013_game_to_a_claimed_double_three() -> None:
    t = Table()
    out = chinese_game_to_double_three(t)
    game = t.s.game
    assert [str(m) for m in game.moves][-4:] == [
        "6. white a3",
        "7. black j10",
        "8. white a5",
        "9. black i9",
    ]
    assert game.opening.state.opening_id == "1D"
    assert [m.number for m in judged(out)] == [6, 7, 8, 9]
    assert AlertReason.FORBIDDEN in alerts(out)  # the referee knows at once
    assert game.status is Status.PLAYING  # the players are not told
    claimed = t.s.claim(t.tick(), SECOND)
    over = [o for o in claimed if isinstance(o, GameOver)]
    assert len(over) == 1 and over[0].winner is SECOND and over[0].reason == "forbidden"
    assert AlertReason.CLAIM_JUDGED in alerts(claimed)
    assert t.s.clock.state.ended
    assert StatusChanged(t.now, "over") in claimed


def test_a_move_carries_the_clock_after_its_press_and_passes_the_clock() -> None:
    t = Table(TableSetup(opening="free", time_control="60+5"))
    t.tick(10)
    out = t.move("h8", B, FIRST)
    (move,) = judged(out)
    after = t.s.clock.state
    assert move.clocks == ClockReading(first_ms=60_000 - 12_000 + 5_000, second_ms=60_000)
    assert t.s.game.moves[-1].clocks == move.clocks
    assert after.turn is SECOND and after.running is SECOND
    changed = [o for o in out if isinstance(o, ClockChanged)]
    assert changed[-1].running is SECOND and changed[-1].clocks == move.clocks


def test_the_opener_keeps_the_clock_between_b1_and_b3() -> None:
    t = Table()
    t.move("h8", B, FIRST)
    assert t.s.clock.state.running is FIRST
    t.move("h9", W, FIRST)
    t.move("h10", B, FIRST)
    assert t.s.clock.state.running is SECOND  # the swap decision is on White's clock


def test_swap_decision_changes_who_places_move_4() -> None:
    t = Table()
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        t.move(name, colour, FIRST)
    t.s.decide(t.tick(), SECOND, "swap")
    t.press(SECOND)
    assert t.s.game.colour_of(SECOND) is B
    assert t.s.clock.state.running is FIRST
    assert [m.seat for m in judged(t.move("a1", W, FIRST))] == [FIRST]


def test_swap2_the_second_player_keeps_white_and_plays_move_4() -> None:
    t = Table(TableSetup(opening="swap2"))
    for name, colour in (("h8", B), ("c3", W), ("m13", B)):
        t.move(name, colour, FIRST)
    t.s.decide(t.tick(), SECOND, "white")
    t.press(SECOND)
    assert [m.number for m in judged(t.move("a1", W, SECOND))] == [4]
    assert t.s.game.status is Status.PLAYING


def test_a_refused_decision_is_an_alert_not_a_change() -> None:
    t = Table()
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        t.move(name, colour, FIRST)
    out = t.s.decide(t.tick(), SECOND, "maybe")
    assert alerts(out) == [AlertReason.REFUSED]
    assert t.s.game.step is not None and t.s.game.step.choices == ("swap", "stay")


def test_a_decision_s_press_refused_during_a_pause_still_closes_it_after_the_resume() -> None:
    t = Table()
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        t.move(name, colour, FIRST)
    t.s.decide(t.tick(), SECOND, "stay")
    t.do(RefereePause, reason="a question")
    refused = t.press(SECOND)  # the held clock takes no press
    assert alerts(refused) == [AlertReason.REFUSED]
    assert t.s.game.infractions(SECOND) == 0
    t.do(RefereeResume)
    out = t.press(SECOND)  # the decision still waits: this press closes it
    assert AlertReason.PRESS_WITHOUT_STONE not in alerts(out)
    assert t.s.game.infractions(SECOND) == 0
    assert t.s.clock.state.running is SECOND  # W4 is White's, after "stay"
    assert [m.number for m in judged(t.move("a1", W, SECOND))] == [4]
    assert TableSession.replay(t.s.inputs) == t.s


def test_the_offer_kept_still_waits_for_its_press_after_a_host_restart() -> None:
    t = Table()
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        t.move(name, colour, FIRST)
    t.s.decide(t.tick(), SECOND, "stay")
    t.press(SECOND)
    t.move("a1", W, SECOND)
    t.stone("j8", B)
    t.stone("g12", B)
    t.press(FIRST)
    t.s.choose(t.tick(), SECOND, P("j8"))
    t.do(HostRestarted)
    assert alerts(t.press(SECOND)) == [AlertReason.REFUSED]
    t.do(RefereeResume)
    assert AlertReason.PRESS_WITHOUT_STONE not in alerts(t.press(SECOND))
    assert t.s.game.infractions(SECOND) == 0
    assert t.s.clock.state.running is SECOND  # White plays move 6
    assert TableSession.replay(t.s.inputs) == t.s


def test_white_6_while_an_unchosen_offer_is_on_the_board() -> None:
    t = Table()
    chinese_opening(t, remove_offer=False)
    out = t.move("a3", W, SECOND)
    assert AlertReason.OFFER_NOT_REMOVED in alerts(out)
    assert [m.number for m in judged(out)] == [6]  # the move still stands
    assert alerts(t.removed("g12")) == []  # the late removal is expected


def test_white_may_choose_and_play_move_6_with_one_press() -> None:
    t = Table()
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        t.move(name, colour, FIRST)
    t.s.decide(t.tick(), SECOND, "stay")
    t.press(SECOND)
    t.move("a1", W, SECOND)
    t.stone("j8", B)
    t.stone("g12", B)
    t.press(FIRST)
    t.s.choose(t.tick(), SECOND, P("j8"))
    t.removed("g12")
    assert [m.number for m in judged(t.move("a3", W, SECOND))] == [6]
    assert t.s.clock.state.running is FIRST
    # the choice was covered by that press: presses now without a stone are infractions
    t.press(FIRST)
    assert alerts(t.press(SECOND)) == [AlertReason.PRESS_WITHOUT_STONE]


def test_an_offer_the_step_does_not_allow_is_refused_at_once() -> None:
    t = Table()
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        t.move(name, colour, FIRST)
    t.s.decide(t.tick(), SECOND, "stay")
    t.press(SECOND)
    t.move("a1", W, SECOND)
    t.stone("j8", B)
    before = t.s.game.offers
    out = t.stone("j8", B)  # the same point again: the offer is already there
    assert alerts(out) == [AlertReason.NOT_ALLOWED]
    assert t.s.game.offers == before


def test_player_stream_is_the_same_whether_or_not_black_s_move_was_forbidden() -> None:
    renju, free = Table(TableSetup(ruleset="renju")), Table(TableSetup(ruleset="no-forbidden"))
    out_renju = chinese_game_to_double_three(renju) + renju.move("a7", W, SECOND)
    out_free = chinese_game_to_double_three(free) + free.move("a7", W, SECOND)
    assert renju.s.player_outputs() == free.s.player_outputs()
    assert AlertReason.FORBIDDEN in alerts(out_renju)
    assert AlertReason.FORBIDDEN not in alerts(out_free)
    for o in renju.s.outputs:
        assert isinstance(o, PlayerOutput) != isinstance(o, RefereeOutput)


def test_a_five_is_told_only_to_the_referee_until_announced() -> None:
    t = Table(TableSetup(opening="free"))
    out: list[TableOutput] = []
    for i, col in enumerate("hijkl"):
        out += t.move(f"{col}8", B, FIRST)
        if i < 4:
            out += t.move(f"{col}1", W, SECOND)
    assert AlertReason.FIVE in alerts(out)
    assert not any(isinstance(o, GameOver) for o in out)
    done = t.s.claim(t.tick(), FIRST, "five")
    assert [o.winner for o in done if isinstance(o, GameOver)] == [FIRST]


def test_press_without_a_stone_twice_is_a_loss_pending_the_referee() -> None:
    t = Table(TableSetup(opening="free"))
    first = t.press(FIRST)
    assert alerts(first) == [AlertReason.PRESS_WITHOUT_STONE]
    (alert,) = [o for o in first if isinstance(o, RefereeAlert)]
    assert alert.infractions == 1 and alert.seat is FIRST
    t.press(SECOND)  # the clock passed to Second: its press without a stone is its first
    second = t.press(FIRST)
    assert alerts(second) == [AlertReason.PRESS_WITHOUT_STONE, AlertReason.LOSS_PENDING]
    assert t.s.game.infractions(FIRST) == 2
    assert not t.s.game.is_over  # the referee confirms
    assert t.s.clock.infractions(FIRST) == 2


def test_a_press_of_the_clock_that_is_not_running_is_nothing() -> None:
    t = Table(TableSetup(opening="free"))
    assert alerts(t.press(SECOND)) == []
    assert t.s.game.infractions(SECOND) == 0


def test_a_stone_without_its_press_is_reported_once_and_the_time_runs() -> None:
    t = Table(TableSetup(opening="free", unpressed_alert_ms=5000))
    t.stone("h8", B)
    assert alerts(t.do(Tick)) == []
    out = t.s.handle(Tick(now_ns=t.tick(10)))
    assert alerts(out) == [AlertReason.UNPRESSED]
    assert alerts(t.do(Tick)) == []
    assert t.s.clock.state.running is FIRST
    assert judged(t.press(FIRST))[0].number == 1


def test_wrong_colour_and_its_removal() -> None:
    t = Table(TableSetup(opening="free"))
    assert alerts(t.stone("h8", W)) == [AlertReason.WRONG_COLOUR]
    assert t.s.pending_stone is None
    assert alerts(t.removed("h8")) == []
    assert judged(t.move("h8", B, FIRST))[0].point == P("h8")


def test_two_stones_before_a_press() -> None:
    t = Table(TableSetup(opening="free"))
    t.stone("h8", B)
    assert alerts(t.stone("h9", B)) == [AlertReason.TWO_STONES]
    assert t.s.pending_stone == P("h8")
    out = t.s.handle(BoardAlert(now_ns=t.tick(), kind="two_stones", points=(P("a1"), P("a2"))))
    assert alerts(out) == [AlertReason.TWO_STONES]


def test_removed_and_moved_standing_stones() -> None:
    t = Table(TableSetup(opening="free"))
    t.move("h8", B, FIRST)
    assert alerts(t.removed("h8")) == [AlertReason.REMOVED]
    moved = BoardAlert(now_ns=t.tick(), kind="moved", points=(P("h8"), P("h9")))
    assert alerts(t.s.handle(moved)) == [AlertReason.MOVED]
    assert alerts(t.do(BoardAlert, kind="sensor_stuck", points=(P("a1"),))) == [AlertReason.BOARD]


def test_a_stone_the_opening_step_does_not_allow() -> None:
    t = Table()
    out = t.stone("a1", B)
    assert alerts(out) == [AlertReason.NOT_ALLOWED]
    assert "h8" in next(o.text for o in out if isinstance(o, RefereeAlert))
    assert t.s.pending_stone is None


def test_a_flag_is_reported_to_the_referee() -> None:
    t = Table(TableSetup(opening="free", time_control="10"))
    out = t.s.handle(Tick(now_ns=t.tick(11)))
    assert alerts(out) == [AlertReason.FLAG]
    assert alerts(t.do(Tick)) == []


def test_a_false_claim_holds_the_clock_until_the_referee_resumes() -> None:
    t = Table(TableSetup(opening="free"))
    t.move("h8", B, FIRST)
    out = t.s.claim(t.tick(), SECOND)
    assert AlertReason.CLAIM in alerts(out)
    assert t.s.game.status is Status.AWAITING_REFEREE
    assert REFEREE_HOLD in t.s.clock.state.hold_names and t.s.clock.state.running is None
    assert alerts(t.stone("h9", W)) == [AlertReason.NOT_ALLOWED]
    t.do(RefereeResume, referee="ref", penalty="warning")
    assert t.s.clock.state.running is SECOND


def test_referee_commands() -> None:
    t = Table(TableSetup(opening="free", time_control="600"))
    t.move("h8", B, FIRST)
    t.do(RefereePause, reason="dispute")
    assert t.s.clock.state.running is None and t.s.game.status is Status.AWAITING_REFEREE
    t.do(RefereeResume)
    assert t.s.clock.state.running is SECOND
    t.do(AdjustTime, seat=FIRST, delta_ms=30_000)
    assert t.s.clock.remaining_ns(FIRST, t.now) // NS_PER_MS == 600_000 - 2_000 + 30_000
    t.do(CorrectMoves, seat=FIRST, moves=3)
    assert t.s.clock.state.first.moves == 3
    t.move("h9", W, SECOND)
    out = t.do(TakeBack, point=P("h9"), reason="misread")
    assert MoveTakenBack(t.now, 2, P("h9")) in out
    assert t.s.game.to_move is SECOND and t.s.clock.state.running is SECOND
    assert alerts(t.removed("h9")) == []  # its removal from the wood was expected
    t.move("j9", W, SECOND)
    out = t.do(ReplaceStone, old=P("j9"), new=P("j10"), reason="sensor misread")
    assert MoveCorrected(t.now, 2, P("j9"), P("j10")) in out
    assert t.s.game.moves[-1].point == P("j10")
    out = t.do(SetResult, winner=None, reason="agreement")
    assert [o.winner for o in out if isinstance(o, GameOver)] == [None]
    assert t.s.clock.state.ended
    out = t.do(StartNextGame)
    assert NextGameStarted(t.now, 2) in out and t.s.game_number == 2
    assert t.s.game.moves == () and t.s.clock.state.running is FIRST
    assert judged(t.move("h8", B, FIRST))[0].number == 1
    assert TableSession.replay(t.s.inputs) == t.s


def test_replay_rebuilds_an_identical_session() -> None:
    t = Table()
    chinese_game_to_double_three(t)
    t.press(SECOND)  # an infraction on the way
    t.s.claim(t.tick(), SECOND)
    rebuilt = TableSession.replay(t.s.inputs)
    assert rebuilt == t.s
    assert rebuilt.outputs == t.s.outputs
    assert rebuilt.game.moves == t.s.game.moves
    other = TableSession.replay(t.s.inputs[:-1])
    assert other != t.s


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["stone", "press", "tick", "removed"]),
            st.integers(0, 224),
            st.sampled_from([B, W]),
            st.sampled_from([FIRST, SECOND]),
        ),
        max_size=40,
    )
)
def test_replay_of_any_input_sequence_is_identical(
    steps: list[tuple[str, int, Colour, Seat]],
) -> None:
    s = TableSession(TableSetup(opening="free", time_control="300+3"), 0)
    now = 0
    for kind, point, colour, seat in steps:
        now += S
        if kind == "stone":
            s.stone(now, point, colour)
        elif kind == "press":
            s.press(now, seat)
        elif kind == "tick":
            s.handle(Tick(now_ns=now))
        else:
            s.handle(BoardAlert(now_ns=now, kind="removed", points=(point,)))
    assert TableSession.replay(s.inputs) == s


def _unchanged(t: Table, bad: TableInput, match: str) -> None:
    before = TableSession.replay(t.s.inputs)
    with pytest.raises(TableError, match=match):
        t.s.handle(bad)
    assert t.s == before


def test_bad_inputs_are_clear_errors_and_change_nothing() -> None:
    t = Table(TableSetup(opening="free"))
    t.stone("h8", B)
    now = t.tick()
    bad_seat = ClockPressed(now_ns=now, seat="black")  # type: ignore[arg-type]
    _unchanged(t, bad_seat, "seat must be Seat.FIRST or Seat.SECOND")
    _unchanged(t, StoneSettled(now_ns=now, point=225, colour=B), "225 is off the board")
    _unchanged(t, StoneSettled(now_ns=now, point=-1, colour=B), "-1 is off the board")
    _unchanged(t, StoneSettled(now_ns=now, point=P("a1"), colour=3), "colour must be")  # type: ignore[arg-type]
    _unchanged(t, ClockPressed(now_ns=now - 5 * S, seat=FIRST), "earlier than the previous")
    _unchanged(t, BoardAlert(now_ns=now, kind="exploded"), "unknown board alert kind")
    _unchanged(t, BoardAlert(now_ns=now, kind="Exploded!"), "unknown board alert kind")
    _unchanged(t, BoardAlert(now_ns=now, kind="forbidden"), "a reason only the table raises")
    _unchanged(t, TakeBack(now_ns=now, point=P("a1"), reason="x"), "take back")
    _unchanged(t, StartNextGame(now_ns=now), "not over")
    _unchanged(t, AdjustTime(now_ns=now, seat=FIRST, delta_ms=-(10**9)), "adjust time")
    with pytest.raises(TableError, match="a table journal starts"):
        TableSession.replay([])
    with pytest.raises(TableError, match="unknown opening procedure"):
        TableSession(TableSetup(opening="nonsense"), 0)


def test_the_opener_declares_the_number_of_offers_and_presses() -> None:
    t = Table(TableSetup(opening="yamaguchi", opening_settings=(("n", "1-5"),)))
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        t.move(name, colour, FIRST)
    assert alerts(t.s.declare(t.tick(), FIRST, 9)) == [AlertReason.REFUSED]  # outside 1–5
    assert alerts(t.s.declare(t.tick(), SECOND, 3)) == [AlertReason.REFUSED]  # not the opener
    out = t.s.declare(t.tick(), FIRST, 3)
    assert out == [OpeningDeclared(t.now, FIRST, 3)]
    assert t.s.clock.state.running is FIRST  # the declaration waits for the opener's press
    assert alerts(t.press(FIRST)) == []
    assert t.s.clock.state.running is SECOND  # the swap decision is on White's clock
    t.s.decide(t.tick(), SECOND, "stay")
    t.press(SECOND)
    t.move("a1", W, SECOND)
    for name in ("j8", "g12", "c3"):
        assert any(isinstance(o, OfferPlaced) for o in t.stone(name, B))
    t.press(FIRST)
    out = t.s.choose(t.tick(), SECOND, P("c3"))
    assert [o.removed for o in out if isinstance(o, OfferKept)] == [(P("j8"), P("g12"))]
    bad = Declare(now_ns=t.tick(), seat=FIRST, number="3")  # type: ignore[arg-type]
    _unchanged(t, bad, "a declared number must be an integer")
    assert TableSession.replay(t.s.inputs) == t.s


def test_an_adjournment_holds_game_and_clock_until_one_resume() -> None:
    t = Table(TableSetup(opening="free", time_control="600"))
    t.move("h8", B, FIRST)
    out = t.do(Adjourn, reason="lunch", referee="ref-1")
    assert Adjourned(t.now, "lunch") in out
    assert t.s.adjourned and t.s.game.status is Status.AWAITING_REFEREE
    assert set(t.s.clock.state.hold_names) == {ADJOURN_HOLD, REFEREE_HOLD}
    paused = [e for e in t.s.game.events if type(e).__name__ == "RefereePaused"]
    assert [e.reason for e in paused] == ["adjourned: lunch"]  # type: ignore[attr-defined]
    left = t.s.clock.remaining_ns(SECOND, t.now)
    _unchanged(t, Adjourn(now_ns=t.tick(), reason="again"), "already adjourned")
    t.tick(3600)
    t.do(RefereeResume, referee="ref-1")
    assert not t.s.adjourned and t.s.clock.state.running is SECOND
    assert t.s.clock.remaining_ns(SECOND, t.now) == left
    assert TableSession.replay(t.s.inputs) == t.s


def test_adjourning_a_game_that_already_awaits_the_referee() -> None:
    t = Table(TableSetup(opening="free"))
    t.move("h8", B, FIRST)
    t.s.claim(t.tick(), SECOND)  # a false claim: the game awaits the referee
    t.do(Adjourn, reason="appeal committee")
    assert t.s.adjourned
    t.do(RefereeResume, penalty="warning")
    assert t.s.clock.state.running is SECOND and t.s.clock.state.holds == ()


def test_resume_and_adjourn_refusals() -> None:
    t = Table(TableSetup(opening="free"))
    now = t.tick()
    _unchanged(t, RefereeResume(now_ns=now), "resume: the game is not awaiting the referee")
    _unchanged(t, Adjourn(now_ns=now, reason="  "), "adjourn: the reason must be")
    _unchanged(t, Adjourn(now_ns=now, reason="x", referee=3), "adjourn: a referee is named")  # type: ignore[arg-type]
    t.do(HostRestarted)
    _unchanged(t, RefereeResume(now_ns=t.tick(), penalty="warning"), "only had its clock held")
    t.do(RefereeResume)
    assert t.s.clock.state.running is FIRST
    t.do(SetResult, winner=FIRST, reason="forfeit")
    _unchanged(t, Adjourn(now_ns=t.tick(), reason="x"), "adjourn: game 1 is over")
    assert not t.s.adjourned


def test_setups_the_session_refuses() -> None:
    with pytest.raises(TableError, match="not an rng"):
        TableSession(TableSetup(opening_settings=(("rng", 3),)), 0)
    with pytest.raises(TableError, match="offer equivalence"):
        TableSession(TableSetup(opening_settings=(("symmetry", "mirror"),)), 0)
