"""A game in progress as a table host drives it: turns, the opening, passes, claims and
the ways a game ends; bad input leaves the game unchanged.

The helpers here (``play``, ``snapshot``, ``public``, ``SwapAfterThree``, the positions,
``eventful_game``, ``corrected_game``, ``random_actions``/``run_actions``) are shared
with test_game_events, test_game_record and test_game_referee."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wuzi.rules.board import POINTS, SIZE, Board, Colour, Point, parse_point, parse_points
from wuzi.rules.claims import AlertKind, ClaimKind, Verdict
from wuzi.rules.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidPointError,
    OccupiedPointError,
    RulesError,
)
from wuzi.rules.forbidden import forbidden_points
from wuzi.rules.game import (
    Game,
    GameEvent,
    Move,
    Result,
    ResultReason,
    Status,
    StonePlaced,
)
from wuzi.rules.procedure import Action, OpeningEvent, OpeningProcedure, Seat, Step
from wuzi.rules.record import ClockReading, OpeningDecision
from wuzi.rules.record_json import record_from_json, record_to_json
from wuzi.rules.ruleset import Mode
from wuzi.rules.verdict import ForbiddenKind

B, W = Colour.BLACK, Colour.WHITE
FIRST, SECOND = Seat.FIRST, Seat.SECOND

# Positions (Black first, alternating). White's stones sit on the a-file, far away.
DOUBLE_THREE = "h8 a1 g8 a3 i9 a5 i10 a7 i8"  # i8: g8-h8-i8 and i8-i9-i10
DOUBLE_FOUR = "h8 a1 i8 a3 j8 a5 k9 a7 k10 a9 k11 a11 k8"  # k8: h8-k8 and k8-k11
OVERLINE = "h8 a1 i8 a3 j8 a5 l8 a7 m8 a9 k8"  # k8: h8-m8, six
BLACK_FIVE = "h8 a1 i8 a3 j8 a5 k8 a7 l8"  # l8: h8-l8
WHITE_FIVE = "h8 a1 h10 a2 j12 a3 l14 a4 n12 a5"  # a1-a5 (Black's stones never line up)


def play(game: Game, moves: str) -> None:
    for name in moves.split():
        game.place(name)


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game, to show that a refused action changed nothing."""
    return (
        game.events,
        bytes(game.board.cells),
        game.moves,
        game.status,
        game.to_move,
        game.colour_to_move,
        game.step,
        game.result,
        game.referee_alerts,
        game.infractions(FIRST),
        game.infractions(SECOND),
    )


def public(game: Game) -> tuple[Any, ...]:
    """What a player-facing screen may show."""
    return (
        bytes(game.board.cells),
        game.moves,
        game.status,
        game.to_move,
        game.colour_to_move,
        game.step,
        game.result,
    )


class SwapAfterThree(OpeningProcedure):
    """A small test procedure: the opener places B, W, B anywhere; the other seat then
    decides to swap colours or stay."""

    name = "test-swap-after-3"

    def __init__(self) -> None:
        super().__init__()
        self.decided = False

    def step(self) -> Step | None:
        n = len(self.state.moves)
        if n < 3:
            colour = B if n % 2 == 0 else W
            return Step(FIRST, Action.PLACE, colour, description=f"the opener places stone {n + 1}")
        if not self.decided:
            return Step(SECOND, Action.DECIDE, choices=("swap", "stay"), description="swap or stay")
        return None

    def place(self, p: Point) -> None:
        step = self.step()
        if step is None or step.action is not Action.PLACE or step.colour is None:
            raise self._wrong("place a stone")
        if self.state.board.cells[p]:
            raise OccupiedPointError(f"point {p} is occupied")
        self.state.board.place(p, step.colour)
        self.state.moves.append((p, step.colour))
        self.state.events.append(OpeningEvent(step.seat, Action.PLACE, p, step.colour))

    def decide(self, choice: str) -> None:
        step = self.step()
        if step is None or step.action is not Action.DECIDE:
            raise self._wrong("decide")
        if choice not in step.choices:
            raise IllegalMoveError(f"choose swap or stay, not {choice!r}")
        self.decided = True
        self.state.events.append(OpeningEvent(step.seat, Action.DECIDE, choice=choice))
        if choice == "swap":
            self.state.colours = {FIRST: W, SECOND: B}
            self.state.swaps.append((3, SECOND))


# --- turns, moves, the board -----------------------------------------------------------


def test_free_game_alternates_and_keeps_the_moves() -> None:
    game = Game("renju")
    assert game.status is Status.PLAYING
    assert game.to_move is FIRST and game.colour_to_move is B
    assert game.step is None
    move = game.place("h8", t_ms=1000, clocks=ClockReading(2_700_000, 2_700_000))
    assert move == Move(1, parse_point("h8"), B, FIRST, 1000, ClockReading(2_700_000, 2_700_000))
    assert game.to_move is SECOND and game.colour_to_move is W
    game.place(parse_point("i9"), seat=SECOND)
    assert [str(m) for m in game.moves] == ["1. black h8", "2. white i9"]
    assert game.board == Board.from_moves(parse_points("h8 i9"))
    assert game.result is None and not game.is_over


def test_the_board_is_a_copy() -> None:
    game = Game()
    game.board.place(parse_point("h8"), B)
    assert game.board.count() == 0


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        ("z9", InvalidPointError),
        ("h16", InvalidPointError),
        ("", InvalidPointError),
        (225, InvalidPointError),
        (-1, InvalidPointError),
        (True, InvalidPointError),
        (None, InvalidPointError),
        (7.0, InvalidPointError),
        ("h8", OccupiedPointError),
    ],
)
def test_bad_points_are_refused_and_change_nothing(bad: Any, error: type[Exception]) -> None:
    game = Game()
    play(game, "h8 i9")
    before = snapshot(game)
    with pytest.raises(error):
        game.place(bad)
    assert snapshot(game) == before


def test_the_wrong_seat_is_refused() -> None:
    game = Game()
    game.place("h8")
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="second seat's turn"):
        game.place("i9", seat=FIRST)
    with pytest.raises(IllegalMoveError):
        game.pass_turn(seat=FIRST)
    with pytest.raises(RulesError, match=r"Seat\.FIRST or Seat\.SECOND"):
        game.place("i9", seat="second")  # type: ignore[arg-type]
    assert snapshot(game) == before


def test_time_stamps_and_clocks_are_checked_and_recorded() -> None:
    game = Game(t_ms=0)
    game.place("h8", t_ms=5000, clocks=ClockReading(100, 200))
    before = snapshot(game)
    with pytest.raises(RulesError, match="earlier than the previous"):
        game.place("i9", t_ms=4999)
    with pytest.raises(RulesError, match="non-negative"):
        game.place("i9", t_ms=-1)
    with pytest.raises(RulesError, match="non-negative"):
        game.place("i9", t_ms=5.5)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="ClockReading"):
        game.place("i9", clocks=(1, 2))  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="first_ms"):
        game.place("i9", clocks=ClockReading("1", 2))  # type: ignore[arg-type]
    assert snapshot(game) == before
    game.place("i9", t_ms=5000)
    placed = [e for e in game.events if isinstance(e, StonePlaced)]
    assert [(e.t_ms, e.clocks) for e in placed] == [(5000, ClockReading(100, 200)), (5000, None)]
    assert ClockReading(100, 200).of(FIRST) == 100 and ClockReading(100, 200).of(SECOND) == 200


# --- passes and draws --------------------------------------------------------------------


def test_a_pass_hands_the_turn_over_and_two_in_a_row_draw() -> None:
    game = Game()
    game.place("h8")
    game.pass_turn(seat=SECOND)
    assert game.colour_to_move is B and game.to_move is FIRST
    game.place("i9")  # Black again
    assert game.moves[-1].colour is B
    game.pass_turn()  # White
    game.place("j10")  # a stone between passes: no draw
    game.pass_turn()
    assert not game.is_over
    game.pass_turn()
    assert game.result is not None
    assert game.result.reason is ResultReason.TWO_PASSES and game.result.is_draw
    assert game.result.score == "½-½"
    assert game.status is Status.OVER and game.to_move is None


def full_board_cells() -> list[int]:
    """225 stones, 113 Black and 112 White, with no row of five or more anywhere."""
    return [B if (x + 2 * y) % 4 < 2 else W for y in range(SIZE) for x in range(SIZE)]


def longest_runs(cells: list[int]) -> dict[int, list[int]]:
    """Independent of the engine: the lengths of every run of 5+ per colour."""
    found: dict[int, list[int]] = {B: [], W: []}
    for p in range(POINTS):
        x, y = p % SIZE, p // SIZE
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            bx, by = x - dx, y - dy
            if 0 <= bx < SIZE and 0 <= by < SIZE and cells[by * SIZE + bx] == cells[p]:
                continue
            n, qx, qy = 0, x, y
            while 0 <= qx < SIZE and 0 <= qy < SIZE and cells[qy * SIZE + qx] == cells[p]:
                n, qx, qy = n + 1, qx + dx, qy + dy
            if n >= 5:
                found[cells[p]].append(n)
    return found


def moves_for(cells: list[int]) -> list[Point]:
    blacks = [p for p in range(POINTS) if cells[p] == B]
    whites = [p for p in range(POINTS) if cells[p] == W]
    assert len(blacks) == len(whites) + 1
    order: list[Point] = []
    for i, p in enumerate(blacks):
        order.append(p)
        if i < len(whites):
            order.append(whites[i])
    return order


def test_a_full_board_without_a_five_is_a_draw() -> None:
    cells = full_board_cells()
    assert longest_runs(cells) == {B: [], W: []}
    game = Game("freestyle")
    order = moves_for(cells)
    for p in order[:-1]:
        game.place(p)
    assert not game.is_over
    game.place(order[-1])
    assert game.result is not None
    assert game.result.reason is ResultReason.FULL_BOARD and game.result.is_draw
    assert game.board.is_full()


def test_a_full_board_waits_while_a_five_can_still_be_announced() -> None:
    cells = full_board_cells()
    for p in parse_points("h2 h3 h4 h5 h6"):
        cells[p] = B
    for p in parse_points("a1 b1"):
        cells[p] = W
    assert longest_runs(cells) == {B: [5], W: []}
    game = Game("freestyle")
    for p in moves_for(cells):
        game.place(p)
    assert game.board.is_full() and not game.is_over
    assert [a.kind for a in game.referee_alerts] == [AlertKind.FIVE]
    with pytest.raises(OccupiedPointError):
        game.place("h8")
    verdict = game.announce_five(FIRST)
    assert verdict.verdict is Verdict.CORRECT
    assert game.result is not None and game.result.winner is FIRST
    assert game.result.row == tuple(parse_points("h2 h3 h4 h5 h6"))


# --- claim mode: forbidden moves -----------------------------------------------------------


def test_a_double_three_is_told_to_the_referee_only_and_the_game_goes_on() -> None:
    game = Game("renju")
    quiet = Game("standard")  # the same moves where nothing is forbidden
    play(game, DOUBLE_THREE)
    play(quiet, DOUBLE_THREE)
    assert public(game) == public(quiet)
    assert game.status is Status.PLAYING and game.to_move is SECOND
    (alert,) = game.referee_alerts
    assert alert.kind is AlertKind.FORBIDDEN
    assert alert.forbidden is ForbiddenKind("33")
    assert alert.point == parse_point("i8") and alert.move_number == 9
    assert "double-three" in alert.text and len(alert.text.splitlines()) > 1
    assert not quiet.referee_alerts


def test_white_claims_a_double_three_in_time_and_wins() -> None:
    game = Game("renju")
    play(game, DOUBLE_THREE)
    verdict = game.claim_forbidden(t_ms=9000)
    assert verdict.verdict is Verdict.CORRECT and verdict.claim is ClaimKind.FORBIDDEN
    result = game.result
    assert result is not None
    assert result.winner is SECOND and result.winner_colour is W
    assert result.reason is ResultReason.FORBIDDEN and result.forbidden is ForbiddenKind("33")
    assert "i8" in result.detail and result.score == "0-1"
    with pytest.raises(GameOverError):
        game.place("o15")


def test_a_double_four_claimed_by_naming_the_stone() -> None:
    game = Game("renju")
    play(game, DOUBLE_FOUR)
    verdict = game.claim_forbidden("k8", seat=SECOND)
    assert verdict.forbidden is ForbiddenKind("44")
    assert game.result is not None and game.result.forbidden is ForbiddenKind("44")


@pytest.mark.parametrize("white_moves_on", ["place", "pass"])
def test_a_double_three_stands_once_white_has_moved(white_moves_on: str) -> None:
    game = Game("renju")
    play(game, DOUBLE_THREE)
    if white_moves_on == "place":
        game.place("o15")
    else:
        game.pass_turn()
    game.place("o1")  # Black plays on
    verdict = game.claim_forbidden("i8", t_ms=20_000)
    assert verdict.verdict is Verdict.LATE and "stands" in verdict.detail
    assert game.status is Status.AWAITING_REFEREE and game.result is None
    assert game.referee_alerts[-1].kind is AlertKind.CLAIM
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="awaiting the referee"):
        game.place("n14")
    with pytest.raises(IllegalMoveError, match="awaiting the referee"):
        game.pass_turn()
    with pytest.raises(IllegalMoveError, match="awaiting the referee"):
        game.announce_five(FIRST)
    assert snapshot(game) == before
    game.referee_resume(penalty="warning for a false claim", t_ms=30_000)
    assert game.status is Status.PLAYING and game.to_move is SECOND
    game.place("n14")
    assert game.moves[-1].colour is W


def test_a_false_claim_pauses_the_game_until_the_referee_rules() -> None:
    game = Game("renju")
    play(game, "h8 i9 j10")
    verdict = game.claim_forbidden()
    assert verdict.verdict is Verdict.FALSE and "j10" in verdict.detail
    assert game.status is Status.AWAITING_REFEREE
    game.referee_decide(FIRST, "second false claim")
    assert game.result is not None
    assert game.result.reason is ResultReason.REFEREE and game.result.winner is FIRST
    assert "second false claim" in game.result.detail


def test_an_overline_can_be_claimed_many_moves_later() -> None:
    game = Game("renju")
    play(game, OVERLINE)
    assert game.referee_alerts[-1].forbidden is ForbiddenKind("ol")
    play(game, "a13 o15 c3 o13 e3")
    verdict = game.claim_forbidden("k8")
    assert verdict.verdict is Verdict.CORRECT
    assert game.result is not None and game.result.forbidden is ForbiddenKind("ol")


def test_claims_that_make_no_sense_are_errors_not_claims() -> None:
    game = Game("renju")
    with pytest.raises(IllegalMoveError, match="no Black stone"):
        game.claim_forbidden()
    play(game, DOUBLE_THREE)
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="only White"):
        game.claim_forbidden(seat=FIRST)
    with pytest.raises(IllegalMoveError, match="holds none"):
        game.claim_forbidden("a1")  # a White stone
    with pytest.raises(IllegalMoveError, match="holds none"):
        game.claim_forbidden("o15")  # empty
    with pytest.raises(InvalidPointError):
        game.claim_forbidden("p1")
    assert snapshot(game) == before
    free = Game("freestyle")
    play(free, DOUBLE_THREE)
    with pytest.raises(IllegalMoveError, match="no forbidden moves"):
        free.claim_forbidden()


# --- claim mode: fives ------------------------------------------------------------------


def test_a_five_must_be_announced_by_its_maker() -> None:
    game = Game("renju")
    play(game, BLACK_FIVE)
    assert game.status is Status.PLAYING and not game.is_over
    assert game.referee_alerts[-1].kind is AlertKind.FIVE
    assert game.referee_alerts[-1].row == tuple(parse_points("h8 i8 j8 k8 l8"))
    verdict = game.announce_five(SECOND)  # White cannot announce Black's five
    assert verdict.verdict is Verdict.FALSE
    assert game.status is Status.AWAITING_REFEREE
    game.referee_resume()
    play(game, "o15 o1")  # the opponent moves on, the five stands: still announceable
    verdict = game.announce_five(FIRST, t_ms=1)
    assert verdict.verdict is Verdict.CORRECT and verdict.claim is ClaimKind.FIVE
    assert game.result is not None
    assert game.result.reason is ResultReason.FIVE and game.result.winner is FIRST
    assert "h8–l8" in game.result.detail


def test_whites_overline_is_a_five_in_renju_but_blacks_is_not() -> None:
    game = Game("renju")
    play(game, "h8 a1 h10 a2 j12 a3 l14 a5 n12 a6 c14 a4")  # a1-a6: six for White
    assert game.referee_alerts[-1].kind is AlertKind.FIVE
    assert game.announce_five(SECOND).verdict is Verdict.CORRECT
    black = Game("renju")
    play(black, OVERLINE)
    assert black.announce_five(FIRST).verdict is Verdict.FALSE


@pytest.mark.parametrize(
    ("rules", "black_six_wins", "white_six_wins"),
    [
        ("standard", False, False),
        ("freestyle", True, True),
        ("no-forbidden", True, True),
        ("no-forbidden:overline=white-only", False, True),
        ("no-forbidden:overline=none", False, False),
    ],
)
def test_six_in_a_row_under_each_rule_set(
    rules: str, black_six_wins: bool, white_six_wins: bool
) -> None:
    black = Game(rules, mode="auto")
    play(black, OVERLINE)
    assert (black.result is not None) is black_six_wins
    assert not black.referee_alerts
    white = Game(rules, mode=Mode.AUTO)
    play(white, "h8 a1 h10 a2 j12 a3 l14 a5 n12 a6 c14 a4")
    assert (white.result is not None) is white_six_wins
    exact = Game(rules, mode="auto")
    play(exact, BLACK_FIVE)
    assert exact.result is not None and exact.result.reason is ResultReason.FIVE


# --- auto mode ----------------------------------------------------------------------------


@pytest.mark.parametrize(("moves", "kind"), [(DOUBLE_THREE, "33"), (DOUBLE_FOUR, "44")])
def test_auto_mode_ends_the_game_at_the_forbidden_move(moves: str, kind: str) -> None:
    game = Game("renju", mode="auto")
    play(game, moves)
    assert game.result is not None
    assert game.result.winner is SECOND and game.result.forbidden is ForbiddenKind(kind)
    assert not game.referee_alerts


def test_auto_mode_ends_the_game_at_a_five() -> None:
    game = Game("renju", mode="auto")
    play(game, WHITE_FIVE)
    assert game.result is not None
    assert game.result.winner is SECOND and game.result.reason is ResultReason.FIVE
    assert game.result.row == tuple(parse_points("a1 a2 a3 a4 a5"))


# --- other endings ------------------------------------------------------------------------


def test_resignation_flag_forfeit_agreement() -> None:
    game = Game()
    game.place("h8")
    game.resign(FIRST)
    assert game.result == Result(
        winner=SECOND,
        winner_colour=W,
        reason=ResultReason.RESIGNATION,
        detail="black (first seat) resigned",
    )
    game = Game()
    game.flag(SECOND, t_ms=60_000)
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (FIRST, ResultReason.FLAG)
    game = Game()
    game.forfeit(FIRST, "did not appear within 30 minutes")
    assert game.result is not None and game.result.reason is ResultReason.FORFEIT
    assert "30 minutes" in game.result.detail
    game = Game()
    game.agree_draw()
    assert game.result is not None
    assert game.result.is_draw and game.result.reason is ResultReason.AGREEMENT


def test_infractions_are_recorded_and_the_host_decides_the_loss() -> None:
    game = Game()
    game.place("h8")
    game.record_infraction(SECOND, "clock pressed without a move")
    assert game.infractions(SECOND) == 1 and not game.is_over
    game.record_infraction(SECOND, "clock pressed without a move", loses=True)
    assert game.result is not None
    assert game.result.reason is ResultReason.INFRACTION and game.result.winner is FIRST
    assert "no. 2" in game.result.detail


# --- the opening --------------------------------------------------------------------------


def test_the_opening_procedure_is_driven_then_play_alternates() -> None:
    game = Game("renju", opening=SwapAfterThree())
    assert game.status is Status.OPENING
    assert game.step is not None and game.step.action is Action.PLACE
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="no pass during the opening"):
        game.pass_turn()
    with pytest.raises(IllegalMoveError, match="first seat's turn"):
        game.place("h8", seat=SECOND)
    with pytest.raises(IllegalMoveError):
        game.decide("swap")
    with pytest.raises(IllegalMoveError, match="cannot choose an offer"):
        game.choose("h8")
    assert snapshot(game) == before
    game.place("h8", t_ms=1)
    game.place("h9", seat=FIRST, t_ms=2)  # the opener places White's stone too
    game.place("j10", t_ms=3)
    assert [(m.colour, m.seat) for m in game.moves] == [(B, FIRST), (W, FIRST), (B, FIRST)]
    assert game.to_move is SECOND and game.colour_to_move is None
    with pytest.raises(IllegalMoveError, match="swap or stay"):
        game.decide("maybe")
    game.decide("swap", t_ms=4)
    assert game.status is Status.PLAYING and game.step is None
    assert game.colour_of(FIRST) is W and game.seat_of(B) is SECOND
    assert game.colour_to_move is W and game.to_move is FIRST
    with pytest.raises(IllegalMoveError, match="opening is over"):
        game.decide("stay")
    game.place("g7", seat=FIRST)
    assert game.moves[-1] == Move(4, parse_point("g7"), W, FIRST)
    game.resign(SECOND)  # the second seat now holds Black
    assert game.result is not None
    assert game.result.winner is FIRST and game.result.winner_colour is W


def test_a_used_procedure_is_refused() -> None:
    procedure = SwapAfterThree()
    procedure.place(parse_point("h8"))
    with pytest.raises(RulesError, match="already been used"):
        Game(opening=procedure)


def test_claims_follow_the_swapped_colours() -> None:
    game = Game("renju", opening=SwapAfterThree())
    play(game, "h8 a1 g8")
    game.decide("swap")
    play(game, "a3 i9 a5 i10 a7 i8")  # the second seat (now Black) makes the 33
    with pytest.raises(IllegalMoveError, match="only White"):
        game.claim_forbidden(seat=SECOND)
    game.claim_forbidden(seat=FIRST)
    assert game.result is not None and game.result.winner is FIRST


def test_a_real_opening_with_a_swap_and_fifth_move_offers() -> None:
    from wuzi.rules.openings import chinese_2013

    game = Game("renju", opening=chinese_2013(), t_ms=0)
    for name in ("h8", "h9", "h10"):  # 1D 寒星 Kansei, all by the opener
        game.place(name, seat=FIRST)
    step = game.step
    assert step is not None and step.action is Action.DECIDE and game.to_move is SECOND
    game.decide("swap", t_ms=10)  # the second seat takes Black
    assert game.colour_of(SECOND) is B and game.to_move is FIRST
    game.place("g9")  # W4 by the first seat, now White
    assert game.to_move is SECOND and game.colour_to_move is B
    assert game.place("j8", t_ms=20) is None  # an offer does not stand yet
    assert game.offers == (parse_point("j8"),)
    assert game.board.is_empty(parse_point("j8")) and len(game.moves) == 4
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="equivalent"):
        game.place("j10")  # the mirror image of j8 across row 9
    with pytest.raises(OccupiedPointError):
        game.place("j8")
    assert snapshot(game) == before
    game.place("k12", t_ms=30)
    step = game.step
    assert step is not None and step.action is Action.CHOOSE_OFFER and game.to_move is FIRST
    game.choose("k12", seat=FIRST, t_ms=40)
    assert game.status is Status.PLAYING and game.offers == ()
    assert game.moves[-1] == Move(5, parse_point("k12"), B, SECOND, 40)
    assert game.board.is_empty(parse_point("j8"))
    assert game.colour_to_move is W and game.to_move is FIRST  # White plays move 6
    game.place("o15")
    record = game.record()
    assert record.black_seat is SECOND
    opening = record.opening
    assert (opening.procedure, opening.opening_id, opening.opening_name, opening.set_by) == (
        "chinese-2013",
        "1D",
        "寒星 Kansei",
        "opener",
    )
    assert opening.decisions == (OpeningDecision(SECOND, "swap", 3, 10),)
    assert opening.offers is not None
    assert (opening.offers.move, opening.offers.n, opening.offers.kept) == (
        5,
        2,
        parse_point("k12"),
    )
    assert [(o.point, o.seat, o.t_ms) for o in opening.offers.offers] == [
        (parse_point("j8"), SECOND, 20),
        (parse_point("k12"), SECOND, 30),
    ]
    assert opening.offers.chosen_by is FIRST
    assert record_from_json(record_to_json(record)) == record
    again = Game.replay(game.events)  # the procedure is rebuilt from its settings
    assert snapshot(again) == snapshot(game)


def test_a_declared_number_of_offers_goes_to_the_procedure() -> None:
    from wuzi.rules.openings import chinese_2013

    game = Game("renju", opening=chinese_2013(n="1-3"))
    play(game, "h8 i9 j10")
    with pytest.raises(IllegalMoveError):
        game.declare(7)
    with pytest.raises(IllegalMoveError, match="integer"):
        game.declare("2")  # type: ignore[arg-type]
    game.declare(1, seat=FIRST)
    game.decide("stay")
    game.place("g9")
    game.place("a1")
    game.choose("a1")
    assert game.status is Status.PLAYING
    record = game.record()
    assert record.opening.offers is not None
    assert (record.opening.offers.n, record.opening.offers.declared_by) == (1, FIRST)
    assert snapshot(Game.replay(game.events)) == snapshot(game)


# --- a game with every kind of input event (for the events and the record) ---------------


def eventful_game() -> Game:
    """A game that uses every kind of input event but the referee's stone corrections
    (those are in test_game_referee)."""
    game = Game("renju", opening=SwapAfterThree(), t_ms=0)
    clocks = ClockReading(2_700_000, 2_700_000)
    for t, name in enumerate(("h8", "a1", "g8"), start=1):
        game.place(name, t_ms=t * 1000, clocks=clocks)
    game.decide("stay", seat=SECOND, t_ms=4000)
    for t, name in enumerate(["a3", "i9", "a5", "i10", "a7", "i8"], start=5):
        game.place(name, t_ms=t * 1000, clocks=ClockReading(2_700_000 - t, 2_700_000 - 2 * t))
    game.pass_turn(t_ms=11_000)  # White lets the 33 stand
    game.claim_forbidden("i8", t_ms=12_000)  # too late
    game.referee_resume(penalty="warning", note="claim after White's pass", t_ms=13_000)
    game.place("o1", t_ms=14_000)
    game.record_infraction(SECOND, "clock pressed without a move", t_ms=15_000)
    game.announce_five(SECOND, t_ms=16_000)
    game.referee_resume(t_ms=17_000)
    game.referee_pause("board check", t_ms=18_000)
    game.referee_resume(t_ms=19_000)
    game.place("a9", t_ms=20_000)
    game.place("n1", t_ms=21_000)
    game.pass_turn(t_ms=22_000)
    game.place("a11", t_ms=23_000)
    game.flag(SECOND, t_ms=24_000)
    game.referee_correct(SECOND, "the flag was the clock's fault", t_ms=25_000)
    return game


def corrected_game() -> Game:
    """A game with the referee's stone corrections: a take-back and a replacement."""
    game = Game("renju", t_ms=0)
    for t, name in enumerate(["h8", "i9", "j10", "k11"], start=1):
        game.place(name, t_ms=t * 1000, clocks=ClockReading(600_000 - t, 600_000 - 2 * t))
    game.referee_pause("board check", referee="R. Li", t_ms=5000)
    game.referee_remove_stone("k11", reason="White had not played", referee="R. Li", t_ms=5100)
    game.referee_replace_stone("j10", "g7", reason="sensor misread", referee="R. Li", t_ms=5200)
    game.referee_resume(referee="R. Li", t_ms=5300)
    play(game, "k12 h7")
    return game


# --- properties --------------------------------------------------------------------------


@st.composite
def random_actions(draw: st.DrawFn) -> list[tuple[str, int]]:
    n = draw(st.integers(min_value=0, max_value=70))
    kinds = st.sampled_from(["place"] * 12 + ["pass", "claim", "five", "resume"])
    return [(draw(kinds), draw(st.integers(0, POINTS - 1))) for _ in range(n)]


def run_actions(game: Game, actions: list[tuple[str, int]]) -> None:
    for kind, p in actions:
        if game.is_over:
            break
        try:
            if kind == "place":
                empty = [q for q in range(POINTS) if not game.board.cells[q]]
                game.place(empty[p % len(empty)])
            elif kind == "pass":
                game.pass_turn()
            elif kind == "claim":
                game.claim_forbidden()
            elif kind == "five":
                game.announce_five(FIRST if p % 2 else SECOND)
            else:
                game.referee_resume()
        except RulesError:
            pass  # refused: awaiting the referee, nothing to claim … (state unchanged)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    random_actions(),
    st.sampled_from(["renju", "standard", "freestyle", "no-forbidden:overline=white-only"]),
    st.sampled_from(["claim", "auto"]),
)
def test_random_games_never_crash_and_replay_identically(
    actions: list[tuple[str, int]], rules: str, mode: str
) -> None:
    game = Game(rules, mode=mode)
    run_actions(game, actions)
    stones = game.moves
    board = Board()
    for number, move in enumerate(stones, start=1):
        assert move.number == number
        board.place(move.point, move.colour)
    assert game.board == board
    assert len(set(m.point for m in stones)) == len(stones)
    placed = [e for e in game.events if isinstance(e, StonePlaced)]
    assert [(e.point, e.colour) for e in placed] == [(m.point, m.colour) for m in stones]
    again = Game.replay(game.events)
    assert snapshot(again) == snapshot(game)
    if not game.is_over:
        assert game.referee_forbidden_points() == (
            forbidden_points(game.board) if rules == "renju" else {}
        )
    if mode == "auto":  # the game ends by itself: the referee is told only of claims
        assert all(a.kind is AlertKind.CLAIM for a in game.referee_alerts)
    if game.result is not None and game.result.reason is ResultReason.FORBIDDEN:
        assert rules == "renju" and game.result.winner_colour is W


@settings(max_examples=40, deadline=None)
@given(random_actions(), st.sampled_from(["h8", "z0", 300, "o15", -5]))
def test_a_refused_action_changes_nothing(actions: list[tuple[str, int]], bad: Any) -> None:
    game = Game("renju")
    run_actions(game, actions)
    before = snapshot(game)
    try:
        game.place(bad)
    except RulesError:
        assert snapshot(game) == before


def test_events_are_the_only_trace_of_what_the_referee_knows() -> None:
    """A player-facing view built from the public properties is the same whether or not
    a forbidden move or a five is on the board."""
    for moves in (DOUBLE_THREE, DOUBLE_FOUR, OVERLINE):
        watched, plain = Game("renju"), Game("no-forbidden:overline=none")
        play(watched, moves)
        play(plain, moves)
        assert public(watched) == public(plain)
        assert any(e.kind == "alert" for e in watched.events)
        assert not any(isinstance(e, GameEvent) and e.kind == "alert" for e in plain.events)
