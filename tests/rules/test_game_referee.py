"""The referee's view and actions: the forbidden points, pausing, deciding and correcting
the result, and correcting the last stone (``referee_remove_stone`` takes it back,
``referee_replace_stone`` moves it to where it really stands) exactly, replayably, and
only where that is sound."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_game import (
    BLACK_FIVE,
    DOUBLE_THREE,
    SwapAfterThree,
    corrected_game,
    play,
    public,
    random_actions,
    run_actions,
    snapshot,
)

from wuzi.rules.board import POINTS, Board, Colour, parse_point, parse_points
from wuzi.rules.claims import AlertKind, Verdict
from wuzi.rules.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidPointError,
    OccupiedPointError,
    RecordFormatError,
    RulesError,
)
from wuzi.rules.events import (
    RefereeRemovedStone,
    RefereeReplacedStone,
    ResultReason,
    StonePlaced,
    event_from_dict,
    event_to_dict,
    events_from_dicts,
)
from wuzi.rules.forbidden import forbidden_points
from wuzi.rules.formats import export, load
from wuzi.rules.game import Game
from wuzi.rules.game_state import Move, Status
from wuzi.rules.procedure import Seat
from wuzi.rules.record import ClockReading, RefereeAction
from wuzi.rules.record_json import record_from_json, record_to_json
from wuzi.rules.verdict import ForbiddenKind

B = Colour.BLACK
FIRST, SECOND = Seat.FIRST, Seat.SECOND


def position(game: Game) -> tuple[Any, ...]:
    """Everything a game's future depends on (not its history): two games with the same
    position behave the same from here on."""
    return (
        public(game),
        game.record().moves,
        game.referee_forbidden_points(),
        game.infractions(FIRST),
        game.infractions(SECOND),
    )


def before_stone(game: Game, k: int) -> Game:
    """The game as it stood just before its k-th last stone was placed (a free opening:
    every ``placed`` event is a stone)."""
    placed = [i for i, e in enumerate(game.events) if isinstance(e, StonePlaced)]
    return Game.replay(game.events[: placed[-k]])


# --- the view and the result ---------------------------------------------------------------


def test_the_referee_sees_the_forbidden_points_before_the_move() -> None:
    game = Game("renju")
    play(game, DOUBLE_THREE.rsplit(" ", 1)[0])
    points = game.referee_forbidden_points()
    assert points.get(parse_point("i8")) is ForbiddenKind("33")
    assert points == forbidden_points(game.board)
    free = Game("freestyle")
    play(free, DOUBLE_THREE.rsplit(" ", 1)[0])
    assert free.referee_forbidden_points() == {}


def test_the_result_is_final_except_for_a_referee_correction() -> None:
    game = Game()
    play(game, "h8 i9")
    game.resign(SECOND)
    before = snapshot(game)
    for action in (
        lambda: game.place("j10"),
        lambda: game.pass_turn(),
        lambda: game.resign(FIRST),
        lambda: game.agree_draw(),
        lambda: game.flag(FIRST),
        lambda: game.announce_five(FIRST),
        lambda: game.record_infraction(FIRST, "x"),
        lambda: game.referee_decide(None, "x"),
        lambda: game.referee_pause("x"),
    ):
        with pytest.raises(GameOverError):
            action()
    assert snapshot(game) == before
    game.referee_correct(None, "the resignation was a misunderstanding")
    assert game.result is not None and game.result.is_draw
    assert game.result.reason is ResultReason.REFEREE
    assert [e.kind for e in game.events if e.kind == "ended"] == ["ended", "ended"]


def test_referee_actions_check_their_input() -> None:
    game = Game()
    game.place("h8")
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="not awaiting"):
        game.referee_resume()
    with pytest.raises(IllegalMoveError, match="finished game"):
        game.referee_correct(FIRST, "x")
    with pytest.raises(RulesError, match="non-empty"):
        game.referee_decide(FIRST, "  ")
    with pytest.raises(RulesError, match="winner"):
        game.referee_decide("first", "x")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="non-empty"):
        game.forfeit(FIRST, "")
    with pytest.raises(RulesError, match="True or False"):
        game.record_infraction(FIRST, "x", loses=1)  # type: ignore[arg-type]
    assert snapshot(game) == before
    game.referee_pause("board misread", t_ms=10)
    assert game.status is Status.AWAITING_REFEREE
    with pytest.raises(IllegalMoveError, match="already"):
        game.referee_pause("again")
    game.resign(SECOND)  # a player may resign while the game waits
    assert game.result is not None and game.result.winner is FIRST


# --- taking back the last stone ---------------------------------------------------------


def test_taking_back_the_last_stone_restores_the_game_before_it() -> None:
    game = Game("renju", t_ms=0)
    play(game, "h8 i9")
    expected = position(game)
    game.place("j10", t_ms=5000, clocks=ClockReading(100, 200))
    taken = game.referee_remove_stone("j10", reason="sensor misread", referee="R. Li", t_ms=6000)
    assert taken == Move(3, parse_point("j10"), B, FIRST, 5000, ClockReading(100, 200))
    assert position(game) == expected
    assert game.to_move is FIRST and game.colour_to_move is B
    assert game.board == Board.from_moves(parse_points("h8 i9"))
    assert game.referee_forbidden_points() == forbidden_points(game.board)
    game.place("k11", t_ms=7000)
    assert game.moves[-1] == Move(3, parse_point("k11"), B, FIRST, 7000)
    record = game.record()
    assert " ".join(str(m) for m in record.moves) == "h8 i9 k11"
    assert record.referee_actions == (
        RefereeAction("take-back", "R. Li", 6000, "j10 taken back: sensor misread"),
    )


def test_stones_are_taken_back_one_at_a_time_from_the_last() -> None:
    game = Game("renju")
    play(game, "h8 i9 j10 k11 l12 m13")
    expected = position(before_stone(game, 3))
    for name in ("m13", "l12", "k11"):
        game.referee_remove_stone(name, reason="the players replayed the wrong game")
    assert position(game) == expected
    assert [str(m) for m in game.moves] == ["1. black h8", "2. white i9", "3. black j10"]


def test_a_white_stone_taken_back_reopens_the_claim_on_blacks_double_three() -> None:
    game = Game("renju")
    play(game, DOUBLE_THREE + " o15")  # White's o15 closes the window on the 33 at i8
    game.referee_remove_stone("o15", reason="misread: White had not played yet")
    assert game.to_move is SECOND
    verdict = game.claim_forbidden("i8")
    assert verdict.verdict is Verdict.CORRECT and verdict.forbidden is ForbiddenKind("33")
    assert game.result is not None and game.result.winner is SECOND


def test_a_take_back_forgets_the_stones_forbidden_move_and_five() -> None:
    game = Game("renju")
    play(game, DOUBLE_THREE)
    game.referee_remove_stone("i8", reason="misread")
    assert game.referee_forbidden_points().get(parse_point("i8")) is ForbiddenKind("33")
    assert game.referee_alerts[-1].kind is AlertKind.FORBIDDEN  # history: the referee was told
    assert isinstance(game.events[-1], RefereeRemovedStone)
    with pytest.raises(IllegalMoveError, match="holds none"):
        game.claim_forbidden("i8")
    five = Game("renju")
    play(five, BLACK_FIVE)
    five.referee_remove_stone("l8", reason="misread")
    assert five.announce_five(FIRST).verdict is Verdict.FALSE  # no five on the board now


def test_a_take_back_restores_the_passes_in_a_row() -> None:
    game = Game()
    game.place("h8")
    game.pass_turn()  # White passes
    game.place("i9")  # Black plays: no longer two passes in a row …
    game.referee_remove_stone("i9", reason="misread: Black passed too")
    game.pass_turn(seat=FIRST)  # … until the stone is taken back: Black's pass draws
    assert game.result is not None and game.result.reason is ResultReason.TWO_PASSES


def test_a_take_back_while_the_game_waits_keeps_it_waiting() -> None:
    game = Game("renju")
    play(game, "h8 i9 j10")
    game.announce_five(FIRST)  # false: the game waits for the referee
    assert game.status is Status.AWAITING_REFEREE
    game.referee_remove_stone("j10", reason="misread")
    assert game.status is Status.AWAITING_REFEREE
    game.referee_resume(penalty="warning for a false claim")
    assert game.to_move is FIRST and game.colour_to_move is B


# --- replacing the last stone -------------------------------------------------------------


def test_replacing_a_misread_stone_moves_it_and_judges_it_again() -> None:
    game = Game("renju", t_ms=0)
    play(game, DOUBLE_THREE.rsplit(" ", 1)[0])
    game.place("o1", t_ms=9000, clocks=ClockReading(10, 20))  # read on o1, really on i8
    assert not any(a.kind is AlertKind.FORBIDDEN for a in game.referee_alerts)
    moved = game.referee_replace_stone("o1", "i8", reason="sensor misread", t_ms=9500)
    assert moved == Move(9, parse_point("i8"), B, FIRST, 9000, ClockReading(10, 20))
    assert game.moves[-1] == moved and game.to_move is SECOND
    assert game.board.is_empty(parse_point("o1"))
    (alert,) = game.referee_alerts
    assert alert.kind is AlertKind.FORBIDDEN and alert.point == parse_point("i8")
    assert game.events[-1].t_ms == 9500  # the alert is raised by the correction
    assert game.claim_forbidden().verdict is Verdict.CORRECT
    record = game.record()
    assert record.moves[-1].point == parse_point("i8") and record.moves[-1].t_ms == 9000
    assert record.referee_actions[0] == RefereeAction(
        "replace-stone", "", 9500, "o1 stands on i8: sensor misread"
    )


def test_a_replaced_stone_is_the_same_as_the_stone_placed_there() -> None:
    game = Game("renju")
    play(game, "h8 a1 i8 a3 j8 a5 k8 a7 o1")
    placed = before_stone(game, 1)
    game.referee_replace_stone("o1", "l8", reason="misread")
    placed.place("l8")
    assert position(game) == position(placed)
    assert game.referee_alerts == placed.referee_alerts  # Black's five h8–l8
    auto = Game("renju", mode="auto")
    play(auto, "h8 a1 i8 a3 j8 a5 k8 a7 o1")
    auto.referee_replace_stone("o1", "l8", reason="misread")
    assert auto.result is not None and auto.result.reason is ResultReason.FIVE


# --- what cannot be corrected -----------------------------------------------------------


def opened() -> Game:
    game = Game(opening=SwapAfterThree())
    play(game, "h8 h9 j10")
    game.decide("stay")
    return game


Correction = Callable[[Game], object]


def remove(p: str, **options: Any) -> Correction:
    return lambda game: game.referee_remove_stone(p, **{"reason": "misread", **options})


def replace(old: str, new: str, **options: Any) -> Correction:
    return lambda game: game.referee_replace_stone(old, new, **{"reason": "misread", **options})


@pytest.mark.parametrize(
    ("setup", "correction", "error", "words"),
    [
        ("", remove("h8"), IllegalMoveError, "h8: no stone stands on the board"),
        ("h8 i9", remove("h8"), IllegalMoveError, r"only the last stone \(2\. white i9\)"),
        ("h8 i9", remove("a1"), IllegalMoveError, "a1: it holds no stone"),
        ("h8 pass", remove("h8"), IllegalMoveError, "the last move is a pass"),
        ("h8 i9 resign", remove("i9"), GameOverError, "game is over"),
        ("h8 i9", remove("z1"), InvalidPointError, "z1"),
        ("h8 i9", remove("i9", reason=" "), RulesError, "reason must be a non-empty text"),
        ("h8 i9", remove("i9", referee=7), RulesError, "referee is named by text"),
        ("h8 i9", remove("i9", t_ms=1), RulesError, "earlier than the previous"),
        ("h8 i9", replace("h8", "j10"), IllegalMoveError, "h8: it is not the last stone"),
        ("h8 i9", replace("i9", "i9"), IllegalMoveError, "already stands on i9"),
        ("h8 i9", replace("i9", "h8"), OccupiedPointError, "h8 is already occupied"),
        ("h8 i9", replace("i9", "p1"), InvalidPointError, "p1"),
        ("h8 i9 resign", replace("i9", "j10"), GameOverError, "game is over"),
    ],
)
def test_a_correction_that_does_not_apply_is_refused_and_changes_nothing(
    setup: str, correction: Correction, error: type[Exception], words: str
) -> None:
    game = Game("renju", t_ms=0)
    for word in setup.split():
        if word == "pass":
            game.pass_turn(t_ms=10)
        elif word == "resign":
            game.resign(FIRST, t_ms=10)
        else:
            game.place(word, t_ms=10)
    before = snapshot(game)
    with pytest.raises(error, match=words):
        correction(game)
    assert snapshot(game) == before


def test_the_openings_stones_are_not_corrected() -> None:
    game = Game(opening=SwapAfterThree())
    play(game, "h8 h9")
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="during the opening"):
        game.referee_remove_stone("h9", reason="misread")
    with pytest.raises(IllegalMoveError, match="during the opening"):
        game.referee_replace_stone("h9", "g9", reason="misread")
    assert snapshot(game) == before
    game = opened()
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="placed in the test-swap-after-3 opening"):
        game.referee_remove_stone("j10", reason="misread")
    assert snapshot(game) == before
    game.place("a1")  # the first stone after the opening can be taken back …
    game.referee_remove_stone("a1", reason="misread")
    with pytest.raises(IllegalMoveError, match="opening"):  # … but not the one before it
        game.referee_remove_stone("j10", reason="misread")


# --- replay, JSON, the record's formats ------------------------------------------------


def test_corrections_replay_identically_and_survive_json() -> None:
    game = corrected_game()
    assert snapshot(Game.replay(game.events)) == snapshot(game)
    text = json.dumps([event_to_dict(e) for e in game.events], ensure_ascii=False)
    events = events_from_dicts(json.loads(text))
    assert events == list(game.events)
    assert snapshot(Game.replay(events)) == snapshot(game)
    removed = next(e for e in events if isinstance(e, RefereeRemovedStone))
    assert event_to_dict(removed) == {
        "kind": "referee-removed-stone",
        "t_ms": 5100,
        "clocks": None,
        "point": "k11",
        "reason": "White had not played",
        "referee": "R. Li",
    }
    replaced = next(event_to_dict(e) for e in events if isinstance(e, RefereeReplacedStone))
    assert (replaced["old"], replaced["new"]) == ("j10", "g7")
    with pytest.raises(RecordFormatError, match=r"event 9 .*key 'new'"):
        event_from_dict({**replaced, "new": "z0"}, where="event 9")


def test_a_tampered_correction_is_refused_by_replay() -> None:
    events = list(corrected_game().events)
    index = next(i for i, e in enumerate(events) if isinstance(e, RefereeRemovedStone))
    wrong = RefereeRemovedStone(point=parse_point("h8"), reason="x", t_ms=5100)
    events[index] = wrong
    with pytest.raises(
        RecordFormatError, match=f"event {index} \\(referee-removed-stone\\).*last stone"
    ):
        Game.replay(events)


def test_the_record_keeps_the_corrections() -> None:
    record = corrected_game().record()
    assert " ".join(str(m) for m in record.moves) == "h8 i9 g7 k12 h7"
    assert record.moves[2].t_ms == 3000  # the corrected stone keeps its time
    assert [a.action for a in record.referee_actions] == [
        "pause",
        "take-back",
        "replace-stone",
        "resume",
    ]
    assert record_from_json(record_to_json(record)) == record
    assert load(export(record, "sgf"), "sgf").referee_actions == record.referee_actions


# --- properties -------------------------------------------------------------------------


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    random_actions(),
    st.integers(1, 4),
    random_actions(),
    st.sampled_from(["renju", "freestyle", "standard"]),
)
def test_a_take_back_is_as_if_the_stones_had_never_been_played(
    actions: list[tuple[str, int]], k: int, then: list[tuple[str, int]], rules: str
) -> None:
    game = Game(rules)
    run_actions(game, actions)
    trailing = 0
    for m in reversed(game.record().moves):
        if m.is_pass:
            break
        trailing += 1
    assume(not game.is_over and trailing >= k)
    never = before_stone(game, k)
    for _ in range(k):
        game.referee_remove_stone(game.moves[-1].point, reason="misread")
    if game.status is Status.AWAITING_REFEREE:  # a claim made after those stones
        game.referee_resume()
    assert position(game) == position(never)
    assert snapshot(Game.replay(game.events)) == snapshot(game)
    mine, theirs = len(game.events), len(never.events)
    run_actions(game, then)
    run_actions(never, then)
    assert position(game) == position(never)
    assert game.events[mine:] == never.events[theirs:]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    random_actions(),
    st.integers(0, POINTS - 1),
    random_actions(),
    st.sampled_from(["renju", "freestyle", "standard"]),
    st.sampled_from(["claim", "auto"]),
)
def test_a_replaced_stone_is_as_if_it_had_been_placed_there(
    actions: list[tuple[str, int]], target: int, then: list[tuple[str, int]], rules: str, mode: str
) -> None:
    game = Game(rules, mode=mode)
    run_actions(game, actions)
    assume(not game.is_over and game.moves and not game.record().moves[-1].is_pass)
    empty = [q for q in range(POINTS) if not game.board.cells[q]]
    assume(empty)
    new = empty[target % len(empty)]
    placed = before_stone(game, 1)
    game.referee_replace_stone(game.moves[-1].point, new, reason="misread")
    placed.place(new)
    if game.status is Status.AWAITING_REFEREE and placed.status is not Status.AWAITING_REFEREE:
        game.referee_resume()
    assert position(game) == position(placed)
    assert snapshot(Game.replay(game.events)) == snapshot(game)
    mine, theirs = len(game.events), len(placed.events)
    run_actions(game, then)
    run_actions(placed, then)
    assert position(game) == position(placed)
    assert game.events[mine:] == placed.events[theirs:]
