"""The Gomoku bots: legal, sensible, deterministic — judged by the referee's own rules and,
for Black's forbidden points, by the independent ``renju`` package (a port of the
Piskvork renju referee, as in tests/rules/test_forbidden_differential.py)."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

import pytest

from wuzi.rules.board import POINTS, SIZE, Board, Colour, Point, parse_point, parse_points
from wuzi.rules.forbidden import forbidden_kind, forbidden_points, judge
from wuzi.rules.game import Game
from wuzi.rules.opening_symmetry import equivalence, pattern_symmetries
from wuzi.rules.openings import make_procedure
from wuzi.rules.procedure import Action, Seat
from wuzi.rules.ruleset import RuleSet
from wuzi.rules.verdict import Verdict
from wuzi.rules.wins import winning_row
from wuzi.sim.bots import bot
from wuzi.sim.bots.patterns import FIVE, FOURS_SHIFT, THREE, code_of

B, W = Colour.BLACK, Colour.WHITE
RENJU = RuleSet.parse("renju")
FREESTYLE = RuleSet.parse("freestyle")


def oracle_foul(board: Board, p: Point) -> int:
    """The renju package's verdict on Black at ``p``: 0 legal (or five), else a foul."""
    from renju.check_forbid import get_foul_type

    grid = [[board.cells[y * SIZE + x] for y in range(SIZE)] for x in range(SIZE)]
    return int(get_foul_type(grid, p % SIZE, p // SIZE))


def wins_at(board: Board, p: Point, colour: Colour, ruleset: RuleSet) -> bool:
    if board.cells[p]:
        return False
    return winning_row(board, p, colour, overline_wins=ruleset.overline_wins(colour)) is not None


def five_points(board: Board, colour: Colour, ruleset: RuleSet) -> list[Point]:
    """Where ``colour`` makes a winning row (a five point touches a stone, so only the
    points near the stones are tried)."""
    return [p for p in bot.candidates(board) if wins_at(board, p, colour, ruleset)]


def position(black: str, white: str) -> Board:
    board = Board()
    for p in parse_points(black):
        board.cells[p] = B
    for p in parse_points(white):
        board.cells[p] = W
    return board


def play(
    seed: int, opening: str = "chinese-2013", **settings: object
) -> Iterator[tuple[Game, bot.BotAction]]:
    """A whole game between two bots through the rules engine (claim mode: the maker of a
    five announces it), yielding the game before each action with the action."""
    rng = random.Random(seed)
    game = Game("renju", mode="claim", opening=make_procedure(opening, **settings))
    t = 0
    while not game.is_over:
        action = bot.next_action(game, rng)
        assert action is not None, game.status
        yield game, action
        t += 1
        bot.apply_action(game, action, t_ms=t)
        last = game.moves[-1] if game.moves else None
        if last is not None and action.action is Action.PLACE and action.point == last.point:
            board = game.board.copy()
            board.cells[last.point] = 0
            if wins_at(board, last.point, last.colour, game.ruleset):
                game.announce_five(game.seat_of(last.colour), t_ms=t)


def finished(seed: int, opening: str = "chinese-2013", **settings: object) -> Game:
    moves = play(seed, opening, **settings)
    game, _ = next(moves)  # the same game throughout, played on to its end
    for _ in moves:
        pass
    return game


# --- legality ---------------------------------------------------------------------


def test_black_never_plays_a_forbidden_point_in_bot_games() -> None:
    """Every Black stone of 40 bot games, judged before it is placed by the renju package
    and by the referee's judge; the games do meet forbidden points (counted)."""
    moves = met = 0
    for seed in range(30):
        for game, action in play(seed):
            if action.colour is not B or action.action not in (Action.PLACE, Action.OFFER):
                continue
            assert action.point is not None
            board = game.board
            moves += 1
            assert forbidden_kind(board, action.point) is None, (seed, str(action))
            if not wins_at(board, action.point, B, RENJU):
                assert oracle_foul(board, action.point) == 0, (seed, str(action), str(board))
            met += bool(forbidden_points(board))
    assert moves > 400
    assert met > 20, "the games never came near a forbidden point: a weak test"


def _dense(rng: random.Random) -> Board:
    """A crowded random position (no five on it) where Black has many forbidden points."""
    board = Board()
    for p in rng.sample(range(POINTS), POINTS):
        if abs(p % SIZE - 7) > 5 or abs(p // SIZE - 7) > 5:
            continue
        r = rng.random()
        colour = B if r < 0.3 else W if r < 0.45 else None
        if colour is not None and not wins_at(board, p, colour, FREESTYLE):
            board.cells[p] = colour
    return board


def test_black_never_plays_a_forbidden_point_in_crowded_positions() -> None:
    rng = random.Random(5)
    tried = tempting = 0
    while tried < 150:
        board = _dense(rng)
        forbidden = {p for p in range(POINTS) if not board.cells[p] and forbidden_kind(board, p)}
        if not forbidden:
            continue
        tried += 1
        p = bot.choose_move(board, B, RENJU, random.Random(tried))
        assert p not in forbidden
        assert oracle_foul(board, p) == 0 or wins_at(board, p, B, RENJU), str(board)
        # what White would take there is often a forbidden point: the temptation was real
        tempting += bot.choose_move(board, B, FREESTYLE, random.Random(tried)) in forbidden
    assert tempting > 10


@pytest.mark.parametrize(
    ("black", "white", "forbidden"),
    [
        ("i8 j8 h9 h10", "a1 o1 a15 o15", "h8"),  # double-three
        ("e8 f8 g8 h5 h6 h7", "a1 a3 a5 a7 o1 o3", "h8"),  # double-four (four-four)
        ("d8 e8 f8 h8 i8", "a1 a3 a5 a7 o1", "g8"),  # overline: six in a row
    ],
)
def test_black_refuses_the_obvious_forbidden_point(black: str, white: str, forbidden: str) -> None:
    board = position(black, white)
    p = parse_point(forbidden)
    assert forbidden_kind(board, p) is not None and oracle_foul(board, p) != 0
    for seed in range(20):
        assert bot.choose_move(board, B, RENJU, random.Random(seed)) != p
    # White, or Black without forbidden moves, takes the same point when it wins or builds
    if forbidden == "h8" and black.startswith("i8"):
        assert bot.choose_move(board, B, FREESTYLE, random.Random(0)) == p


def test_white_may_play_what_would_be_forbidden_for_black() -> None:
    board = position("a1 a3 a5 a7 o1", "i8 j8 h9 h10")
    assert bot.choose_move(board, W, RENJU, random.Random(0)) == parse_point("h8")


# --- sensible ---------------------------------------------------------------------


@functools.cache
def _recorded(seeds: range) -> tuple[tuple[bytes, Colour], ...]:
    found = []
    for seed in seeds:
        for game, action in play(seed):
            if game.step is None and action.colour is not None:
                found.append((bytes(game.board.cells), action.colour))
    return tuple(found)


def _positions(seeds: range) -> Iterator[tuple[Board, Colour]]:
    """Positions of bot games (normal play) with the side to move (fresh copies)."""
    for cells, colour in _recorded(seeds):
        yield Board(cells), colour


def test_the_bot_takes_a_win_and_otherwise_blocks_a_four() -> None:
    wins = blocks = 0
    for board, colour in _positions(range(25)):
        mine = five_points(board, colour, RENJU)
        theirs = five_points(board, colour.other, RENJU)
        if not mine and not theirs:
            continue
        for seed in range(3):
            p = bot.choose_move(board, colour, RENJU, random.Random(seed))
            if mine:
                assert p in mine, (colour, str(board))
            else:
                legal = [q for q in theirs if bot.is_legal(board, q, colour, RENJU)]
                if legal:
                    assert p in legal, (colour, str(board))
        wins += bool(mine)
        blocks += bool(theirs and not mine)
    assert wins > 10 and blocks > 10


@pytest.mark.parametrize(
    ("black", "white", "colour", "expected"),
    [
        # Black: h8 i8 j8 k8 wins at g8 or l8 (exact five)
        ("h8 i8 j8 k8", "a1 b1 c1 d1", B, {"g8", "l8"}),
        # Black has no five (l8 would make six, g8 is White's): White's four d1–g1 is
        # blocked at c1 or h1
        ("h8 i8 j8 k8 m8", "g8 d1 e1 f1 g1", B, {"c1", "h1"}),
        # White wins with six (five or more)
        ("a1 a3 a5 a7 o1", "h8 i8 j8 l8 m8", W, {"k8"}),
        # an open four is made when it can be: f8 g8 h8 with both ends open
        ("f8 g8 h8", "a1 a3 a5", B, {"e8", "i8"}),
        # the opponent's open three is blocked (no four to counter with)
        ("a1 a3 o15", "f8 g8 h8", B, {"e8", "i8", "d8", "j8"}),
    ],
)
def test_sensible_moves(black: str, white: str, colour: Colour, expected: set[str]) -> None:
    board = position(black, white)
    for seed in range(10):
        p = bot.choose_move(board, colour, RENJU, random.Random(seed), miss=0.0)
        assert p in {parse_point(e) for e in expected}, (seed, p)


def test_a_victory_by_continuous_fours_wins_by_force() -> None:
    """Where the bot sees no immediate win or unstoppable threat but starts a sequence of
    fours (``bot_search.vcf``), playing it on against its own defence wins: every four is
    answered on its one five point and the attacker makes five within a few moves."""
    from wuzi.sim.bots.patterns import WINNING
    from wuzi.sim.bots.search import vcf

    found = 0
    for board, colour in _positions(range(25)):
        cands = bot.analyse(board, colour, RENJU)
        if any(c.attack_class >= WINNING or c.defence_class == 6 for c in cands):
            continue
        if five_points(board, colour.other, RENJU):
            continue
        fours = {c.point for c in cands if c.attack_class >= 2}
        start = vcf(board, colour, RENJU, fours)
        if start is None or not bot.is_legal(board, start, colour, RENJU):
            continue
        found += 1
        mover, rng = colour, random.Random(found)
        for ply in range(24):
            p = bot.choose_move(board, mover, RENJU, rng)
            won = wins_at(board, p, mover, RENJU)
            board.cells[p] = mover
            if won:
                assert mover is colour, f"the defender won at ply {ply}"
                break
            mover = mover.other
        else:
            raise AssertionError(f"no five after the sequence of fours from {start}")
    assert found >= 3


def test_patterns_read_fives_fours_and_threes() -> None:
    def window(text: str) -> bytes:
        return bytes(".XO".index(c) for c in text)

    assert code_of(window("...XX.XX..."), exact=True) & FIVE
    assert not code_of(window("..XXX.XX..."), exact=True) & FIVE  # six: no five for Black
    assert code_of(window("..XXX.XX..."), exact=False) & FIVE  # but a win for White
    assert (code_of(window("....X.XX..."), exact=True) >> FOURS_SHIFT) & 3 == 2
    assert code_of(window("....X.X...."), exact=True) & THREE
    assert not code_of(window("...OX.X.O.."), exact=True) & THREE


def test_bad_input_is_named() -> None:
    board = position("h8", "")
    with pytest.raises(bot.BotError, match="no empty point"):
        bot.choose_move(board, W, RENJU, random.Random(0), allowed=[parse_point("h8")])
    with pytest.raises(ValueError, match="11 cells"):
        code_of(b"\x00" * 5, exact=True)
    with pytest.raises(bot.BotError, match="no offer"):
        bot.keep_offer(board, [], RENJU, random.Random(0))


# --- determinism and whole games ----------------------------------------------------


def test_seeded_bots_are_deterministic_and_seeds_differ() -> None:
    a = [m.point for m in finished(3).moves]
    b = [m.point for m in finished(3).moves]
    c = [m.point for m in finished(4).moves]
    assert a == b
    assert a != c


def test_a_chinese_2013_game_between_bots_reaches_a_result() -> None:
    results = []
    for seed in range(12):
        game = finished(seed)
        state = game.opening.state
        assert state.opening_id is not None  # one of the 26, placed by the opener
        assert len(state.offers) == 2 and state.kept_offer in state.offers
        group = pattern_symmetries(state.moves[:4], "plane")
        assert equivalence(group, state.offers[0], state.offers[1]) is None
        assert [e.action for e in state.events].count(Action.DECIDE) == 1
        assert game.result is not None
        results.append(game.result.reason.value)
        if game.result.reason.value == "five":
            assert game.result.winner is not None
    assert results.count("five") >= 8, results  # most games end with a five


@pytest.mark.parametrize(
    ("opening", "settings"),
    [
        ("chinese-2013", {"n": "1-5"}),
        ("yamaguchi", {}),
        ("soosorv-8", {}),
        ("rif-1996", {}),
        ("swap-after-3", {}),
        ("taraguchi-10", {}),
        ("swap2", {}),
        ("designated", {"selection": "lot", "opening_id": "7I"}),
        ("free", {}),
    ],
)
def test_every_procedure_is_played_to_a_result(opening: str, settings: dict[str, object]) -> None:
    for seed in range(3):
        game = finished(seed, opening, **settings)
        assert game.result is not None
        state = game.opening.state
        if opening == "designated":
            assert state.opening_id == "7I"
        if state.declared is not None:
            assert len(state.offers) == state.declared


def test_opening_decisions_are_legal_and_varied() -> None:
    swaps = []
    openings = set()
    for seed in range(30):
        game = finished(seed)
        swaps.append(game.opening.state.swaps != [])
        openings.add(game.opening.state.opening_id)
    assert 3 < sum(swaps) < 27  # sometimes swapped, sometimes not
    assert len(openings) >= 10  # many of the 26


def test_declared_n_is_within_the_range() -> None:
    rng = random.Random(1)
    for _ in range(50):
        assert bot.declare(("3", "4", "5", "6"), rng) in (3, 4, 5, 6)
    with pytest.raises(bot.BotError):
        bot.declare((), rng)


def test_decide_knows_every_procedures_choices() -> None:
    board = position("h8 j10", "i9")
    rng = random.Random(0)
    for choices in (("swap", "stay"), ("black", "white", "place-two"), ("swap", "stay", "offer")):
        for _ in range(10):
            assert bot.decide(choices, board, W, W, RENJU, rng) in choices
    assert bot.decide(("left", "right"), board, W, W, RENJU, rng) in ("left", "right")


def test_offers_are_legal_and_new() -> None:
    board = position("h8 j10", "i9 h10")
    rng = random.Random(2)
    first = bot.choose_offer(board, RENJU, rng)
    second = bot.choose_offer(board, RENJU, rng, offered=[first])
    assert first != second and not board.cells[first] and not board.cells[second]
    kept = bot.keep_offer(board, [first, second], RENJU, rng)
    assert kept in (first, second)


def test_next_action_answers_every_step_of_a_procedure() -> None:
    game = Game("renju", opening=make_procedure("chinese-2013", n="2-3"))
    rng = random.Random(9)
    seen = set()
    while game.step is not None:
        action = bot.next_action(game, rng)
        assert action is not None and action.seat is game.step.seat
        seen.add(action.action)
        bot.apply_action(game, action)
    assert seen == {
        Action.PLACE,
        Action.DECLARE,
        Action.DECIDE,
        Action.OFFER,
        Action.CHOOSE_OFFER,
    }
    assert bot.next_action(game, rng) is not None  # normal play
    assert game.to_move in (Seat.FIRST, Seat.SECOND)


@pytest.mark.bench
def test_the_bench_reports_its_figures() -> None:
    from wuzi.sim.bench import bots as bot_bench

    figures: dict[str, tuple[float, str]] = {}
    bot_bench.run(lambda name, value, unit: figures.__setitem__(name, (value, unit)), True)
    assert set(figures) == {
        "bot.move_ms_cold_mean",
        "bot.move_ms_mean",
        "bot.move_ms_p50",
        "bot.move_ms_p99",
        "bot.five_share",
    }
    assert all(value > 0 for value, _ in figures.values())
    assert figures["bot.move_ms_mean"][1] == "ms"


def _free_game(ruleset: str, moves: str) -> Game:
    game = Game(RuleSet.parse(ruleset), mode="auto", opening=make_procedure("free"))
    for p in parse_points(moves):
        game.place(p)
    return game


def test_a_slipping_black_plays_the_double_three_the_referee_would_call() -> None:
    """``forbidden_slip`` (the hall demo's renju groups): Black's forbidden point within
    reach, a double-three first, judged as the host judges it; the position after it is
    lost for Black by the forbidden move (auto mode)."""
    game = _free_game("renju", "f8 a1 g8 a3 h6 a5 h7 a7")
    slip = bot.forbidden_slip(game, random.Random(1))
    assert slip is not None and slip.colour is B and slip.point is not None
    assert judge(game.board, slip.point) is Verdict.DOUBLE_THREE
    assert slip.point == parse_point("h8")  # the one double-three here
    game.place(slip.point)
    assert game.is_over and game.result is not None
    assert game.result.reason.value == "forbidden" and game.result.winner_colour is W


def test_no_slip_without_forbidden_moves_with_a_five_to_make_or_for_white() -> None:
    free = _free_game("no-forbidden", "f8 a1 g8 a3 h6 a5 h7 a7")
    assert bot.forbidden_slip(free, random.Random(1)) is None  # no forbidden moves
    five = _free_game("renju", "f8 a1 g8 a3 h6 a5 h7 a7 d8 b2 e8 b4 h5 b6 h4 c1")
    assert bot.forbidden_slip(five, random.Random(1)) is None  # Black wins instead
    white = _free_game("renju", "f8 a1 g8 a3 h6 a5 h7")
    assert bot.forbidden_slip(white, random.Random(1)) is None  # White to move
