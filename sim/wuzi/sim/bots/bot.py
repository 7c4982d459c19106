"""Simple, sensible Gomoku bots for the simulated venue: legal moves, threats made and met.

The simulated final (issue 8) needs 24 tables of games that look like games: fives made
and blocked, Black never on a forbidden point, every opening decision taken, and each
game different. ``choose_move`` is a threat player, in this order:

1. win: a five (Black: exactly five under renju; White: five or more);
2. block the opponent's five point (a four on the board);
3. make an unstoppable threat: a straight four, two fours, a four and an open three
   (a 4-3 only if blocking its four gives the opponent no four: ``bot_search``);
4. start a victory by continuous fours (``bot_search.vcf``, a small bounded search);
5. meet the opponent's unstoppable threat points (an open three about to become a
   straight four, a 4-3 …): block one, or counter with a four (scored together) — or,
   now and then (``MISS_THREAT``), overlook it: bots that never do draw on a full board;
6. make two open threes (a win for whoever may: never Black under renju);
7. otherwise the best point near the stones by a line-pattern score for both sides
   (``wuzi.sim.bots.patterns``), chosen among the few best with a seeded ``random.Random``
   so that games differ.

Whether a Black stone is forbidden is always asked of the referee's own judge
(``wuzi.rules.forbidden.judge``), never guessed from the patterns, so Black never plays a
33, 44 or overline under a rule set with forbidden moves (the tests check that against
the independent ``renju`` package) — unless asked to slip: ``forbidden_slip`` finds the
forbidden point a careless Black would play (a double-three first), for the simulated
hall's renju groups, where a forbidden move must be seen to lose. The opening decisions —
designated stones, swap or stay, N declared, fifth-move offers, the offer kept, Swap2's
and Taraguchi's options — are in ``next_action``, which answers the current step of a
``wuzi.rules.game.Game``.

Pure and deterministic: the same position and the same ``random.Random`` state give the
same answer; no I/O, no clock. About a millisecond a move in the middle game, a few in
the slowest (``wuzi.sim.bench.bots``: mean 1.3 ms, p99 5.4 ms on the CI machine); about
nine games in ten end with a five.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from wuzi.rules.board import CENTRE, POINTS, SIZE, Board, Colour, Point, point_name
from wuzi.rules.forbidden import judge
from wuzi.rules.game import Game
from wuzi.rules.patterns import PADDED, STEPS, padded_bytes
from wuzi.rules.procedure import Action, Seat
from wuzi.rules.ruleset import RuleSet
from wuzi.rules.verdict import Verdict
from wuzi.sim.bots import patterns as bp
from wuzi.sim.bots.search import sound_threat, vcf

__all__ = [
    "BotAction",
    "BotError",
    "Candidate",
    "analyse",
    "apply_action",
    "candidates",
    "choose_move",
    "choose_offer",
    "decide",
    "declare",
    "evaluate",
    "forbidden_slip",
    "is_legal",
    "keep_offer",
    "next_action",
]

B, W = Colour.BLACK, Colour.WHITE
_SWAP_COLOURS = bytes.maketrans(b"\x01\x02", b"\x02\x01")
_S0, _S1, _S2, _S3 = STEPS
_R0, _R1, _R2, _R3 = (bp.RADIUS * s for s in STEPS)
# A point the opponent wants counts for less than one we want in quiet play (forced
# blocks are separate steps): bots that weigh both the same block everything and draw.
DEFENCE_WEIGHT = 0.3
TOP_SHARE = 0.75  # the random choice is among the points scoring at least this share of the best
TOP_COUNT = 4
MISS_THREAT = 0.1  # how often the bot overlooks the opponent's unstoppable-threat points
MISSED_DEFENCE_WEIGHT = 0.05  # the weight of defence in the move played when it does
DECIDE_NOISE = 400.0  # spread of a colour decision around the evaluation (score units)


class BotError(ValueError):
    """The bot cannot answer: no legal point in the area given, or an unknown step."""


def _near(p: Point) -> tuple[Point, ...]:
    x0, y0 = p % SIZE, p // SIZE
    out = []
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            x, y = x0 + dx, y0 + dy
            if (dx or dy) and 0 <= x < SIZE and 0 <= y < SIZE:
                out.append(y * SIZE + x)
    return tuple(out)


NEAR: tuple[tuple[Point, ...], ...] = tuple(_near(p) for p in range(POINTS))
"""The points within two lines (a 5×5 square) of each point."""

EMPTY_BOARD = bytearray(POINTS)
_CENTRALITY = tuple(7 - max(abs(p % SIZE - 7), abs(p // SIZE - 7)) for p in range(POINTS))


def candidates(board: Board) -> list[Point]:
    """The empty points within two lines of a stone, in board order of the stones."""
    cells = board.cells
    seen = bytearray(POINTS)
    out: list[Point] = []
    for p in range(POINTS):
        if not cells[p]:
            continue
        for q in NEAR[p]:
            if not cells[q] and not seen[q]:
                seen[q] = 1
                out.append(q)
    return out


def is_legal(board: Board, p: Point, colour: Colour, ruleset: RuleSet) -> bool:
    """Whether ``colour`` may play the empty point ``p`` (Black's 33/44/overline are not,
    under a rule set with forbidden moves; an exact five always is)."""
    if board.cells[p]:
        return False
    if colour is W or not ruleset.forbidden:
        return True
    return judge(board, p) in (Verdict.LEGAL, Verdict.FIVE)


class Candidate(NamedTuple):
    """One empty point: what a stone of the side to move makes there (``attack``) and
    what a stone of the opponent would (``defence``), as score and class
    (``wuzi.sim.bots.patterns``: NONE … WIN). A named tuple: thousands are made a move."""

    point: Point
    attack: int
    attack_class: int
    defence: int
    defence_class: int

    @property
    def score(self) -> float:
        return self.attack + DEFENCE_WEIGHT * self.defence + _CENTRALITY[self.point]


def _perspectives(cells: bytearray, colour: Colour) -> tuple[bytes, bytes]:
    """The padded board as ``colour`` sees it (its stones 1, the rest blocked) and as the
    opponent does."""
    black = padded_bytes(cells)
    white = padded_bytes(cells.translate(_SWAP_COLOURS))
    return (black, white) if colour is B else (white, black)


def analyse(
    board: Board, colour: Colour, ruleset: RuleSet, points: Iterable[Point] | None = None
) -> list[Candidate]:
    """Every point of ``points`` (default: ``candidates``) scored for ``colour`` to move."""
    own_pb, opp_pb = _perspectives(board.cells, colour)
    own_exact = not ruleset.overline_wins(colour)
    opp_exact = not ruleset.overline_wins(colour.other)
    own_get = bp._TABLES[own_exact].get
    opp_get = bp._TABLES[opp_exact].get
    code_of = bp.code_of
    value = bp.VALUES.get
    compute = bp.point_value
    out: list[Candidate] = []
    for p in candidates(board) if points is None else points:
        i = PADDED[p]
        w0 = own_pb[i - _R0 : i + _R0 + 1]
        w1 = own_pb[i - _R1 : i + _R1 + 1 : _S1]
        w2 = own_pb[i - _R2 : i + _R2 + 1 : _S2]
        w3 = own_pb[i - _R3 : i + _R3 + 1 : _S3]
        k0 = own_get(w0, -1)
        if k0 < 0:
            k0 = code_of(w0, own_exact)
        k1 = own_get(w1, -1)
        if k1 < 0:
            k1 = code_of(w1, own_exact)
        k2 = own_get(w2, -1)
        if k2 < 0:
            k2 = code_of(w2, own_exact)
        k3 = own_get(w3, -1)
        if k3 < 0:
            k3 = code_of(w3, own_exact)
        key = (k0, k1, k2, k3)
        a = value(key) or compute(*key)
        w0 = opp_pb[i - _R0 : i + _R0 + 1]
        w1 = opp_pb[i - _R1 : i + _R1 + 1 : _S1]
        w2 = opp_pb[i - _R2 : i + _R2 + 1 : _S2]
        w3 = opp_pb[i - _R3 : i + _R3 + 1 : _S3]
        k0 = opp_get(w0, -1)
        if k0 < 0:
            k0 = code_of(w0, opp_exact)
        k1 = opp_get(w1, -1)
        if k1 < 0:
            k1 = code_of(w1, opp_exact)
        k2 = opp_get(w2, -1)
        if k2 < 0:
            k2 = code_of(w2, opp_exact)
        k3 = opp_get(w3, -1)
        if k3 < 0:
            k3 = code_of(w3, opp_exact)
        key = (k0, k1, k2, k3)
        d = value(key) or compute(*key)
        out.append(Candidate(p, a[0], a[1], d[0], d[1]))
    return out


def _best(cands: Sequence[Candidate], rng: random.Random) -> Candidate:
    """The best-scoring candidate; equal best ones are told apart by ``rng``."""
    top = max(c.score for c in cands)
    tied = sorted((c for c in cands if c.score == top), key=lambda c: c.point)
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def _legal_best(
    cands: Iterable[Candidate], legal: dict[Point, bool], check: _Legal, rng: random.Random
) -> Candidate | None:
    ok = [c for c in cands if check(c.point, legal)]
    return _best(ok, rng) if ok else None


class _Legal:
    """Legality of the side to move's points, judged once each and only when asked."""

    def __init__(self, board: Board, colour: Colour, ruleset: RuleSet) -> None:
        self.board, self.colour, self.ruleset = board, colour, ruleset
        self.free = colour is W or not ruleset.forbidden

    def __call__(self, p: Point, memo: dict[Point, bool]) -> bool:
        if self.free:
            return not self.board.cells[p]
        known = memo.get(p)
        if known is None:
            known = memo[p] = is_legal(self.board, p, self.colour, self.ruleset)
        return known


def _weighted(picked: Sequence[tuple[float, Candidate]], rng: random.Random) -> Candidate:
    """One of ``picked`` ((score, candidate), best first), the better ones more often."""
    if len(picked) == 1:
        return picked[0][1]
    floor = min(score for score, _ in picked)
    weights = [score - floor + 1.0 + 0.1 * abs(floor) for score, _ in picked]
    x = rng.random() * sum(weights)
    for (_, c), w in zip(picked, weights, strict=True):
        x -= w
        if x < 0:
            return c
    return picked[-1][1]


def _top(
    cands: Iterable[Candidate],
    fits: Callable[[Point], bool],
    defence_weight: float = DEFENCE_WEIGHT,
    count: int = TOP_COUNT,
) -> list[tuple[float, Candidate]]:
    """The best few candidates that ``fits``, (score, candidate) best first: those within
    ``TOP_SHARE`` of the best, at most ``count``."""
    scored = sorted(
        ((c.attack + defence_weight * c.defence + _CENTRALITY[c.point], c) for c in cands),
        key=lambda sc: (-sc[0], sc[1].point),
    )
    picked: list[tuple[float, Candidate]] = []
    for score, c in scored:
        if not fits(c.point):
            continue
        if picked and score < picked[0][0] * TOP_SHARE:
            break
        picked.append((score, c))
        if len(picked) == count:
            break
    return picked


def _any_legal(board: Board, colour: Colour, ruleset: RuleSet, pool: Iterable[Point]) -> Point:
    """A legal point of ``pool`` nearest the centre (when no candidate near the stones is)."""
    for p in sorted(pool, key=lambda q: (-_CENTRALITY[q], q)):
        if is_legal(board, p, colour, ruleset):
            return p
    raise BotError(f"{colour.label} has no legal point to play")


def choose_move(
    board: Board,
    colour: Colour,
    ruleset: RuleSet,
    rng: random.Random,
    *,
    allowed: Iterable[Point] | None = None,
    avoid: Iterable[Point] = (),
    miss: float = MISS_THREAT,
) -> Point:
    """The point where ``colour`` plays on ``board`` (within ``allowed`` if given, never on
    ``avoid`` while another candidate is left): see the module docstring for the order of
    priorities; ``miss`` is how often an open three of the opponent is overlooked. Raises
    ``BotError`` when no legal point exists (Black with every point forbidden, a full
    board or an empty area)."""
    cells = board.cells
    area = None if allowed is None else frozenset(p for p in allowed if not cells[p])
    if area is not None and not area:
        raise BotError(f"no empty point for {colour.label} in the area given")
    if cells == EMPTY_BOARD:
        if area is None or CENTRE in area:
            return CENTRE
        return rng.choice(sorted(area))
    points = candidates(board)
    if area is not None:
        points = [p for p in points if p in area] or sorted(area)
    shunned = frozenset(avoid)
    if shunned:
        points = [p for p in points if p not in shunned] or points
    if not points:
        return _any_legal(board, colour, ruleset, (p for p in range(POINTS) if not cells[p]))
    cands = analyse(board, colour, ruleset, points)
    legal: dict[Point, bool] = {}
    check = _Legal(board, colour, ruleset)

    wins = [c for c in cands if c.attack_class == bp.WIN]
    if wins:  # an exact five is never forbidden; five or more for a colour it wins for
        return _best(wins, rng).point
    blocks = [c for c in cands if c.defence_class == bp.WIN]
    if blocks:
        found = _legal_best(blocks, legal, check, rng)
        if found is not None:
            return found.point
    threats = [c for c in cands if c.attack_class == bp.WINNING]
    threats = [c for c in threats if sound_threat(board, colour, ruleset, c.point)]
    found = _legal_best(threats, legal, check, rng)
    if found is not None:
        return found.point
    fours = {c.point for c in cands if c.attack_class in (bp.FOUR_CLASS, bp.WINNING)}
    start = vcf(board, colour, ruleset, fours)
    if start is not None and check(start, legal):
        return start
    danger = _danger(board, colour, ruleset, cands)
    defence_weight = DEFENCE_WEIGHT
    if danger and rng.random() < miss:
        defence_weight = MISSED_DEFENCE_WEIGHT  # overlooked: play on as if it were not there
    elif danger:
        counters = [c for c in cands if c.attack_class == bp.FOUR_CLASS]
        found = _legal_best([*danger, *counters], legal, check, rng)
        if found is not None:
            return found.point
    doubles = [c for c in cands if c.attack_class == bp.DOUBLE_THREE]
    found = _legal_best(doubles, legal, check, rng)
    if found is not None:
        return found.point
    picked = _top(cands, lambda p: check(p, legal), defence_weight)
    if not picked:
        pool = area if area is not None else (p for p in range(POINTS) if not cells[p])
        return _any_legal(board, colour, ruleset, pool)
    return _weighted(picked, rng).point


def _danger(
    board: Board, colour: Colour, ruleset: RuleSet, cands: Sequence[Candidate]
) -> list[Candidate]:
    """The points where the opponent would make an unstoppable threat (for a renju Black
    opponent: only those it may legally play; its 33 is no threat at all)."""
    opponent = colour.other
    restricted = opponent is B and ruleset.forbidden
    least = bp.WINNING if restricted else bp.DOUBLE_THREE
    danger = [c for c in cands if c.defence_class >= least]
    if restricted:
        danger = [c for c in danger if is_legal(board, c.point, B, ruleset)]
    return danger


# --- judging a position (for the opening decisions) -----------------------------------


def _best_attack(board: Board, colour: Colour, ruleset: RuleSet) -> int:
    """The best score ``colour`` could make with one legal stone."""
    cands = analyse(board, colour, ruleset)
    if not cands:
        return 0
    legal: dict[Point, bool] = {}
    check = _Legal(board, colour, ruleset)
    for c in sorted(cands, key=lambda c: -c.attack):
        if check(c.point, legal):
            return c.attack
    return 0


def evaluate(board: Board, to_move: Colour, ruleset: RuleSet) -> float:
    """A rough value of the position for Black (positive: Black stands better), counting
    the move of ``to_move``: each side's best stone, the side to move's counted double."""
    if board.cells == EMPTY_BOARD:
        return 0.0
    black = float(_best_attack(board, B, ruleset))
    white = float(_best_attack(board, W, ruleset))
    if to_move is B:
        black *= 2.0
    else:
        white *= 2.0
    return black - white


def choose_offer(
    board: Board,
    ruleset: RuleSet,
    rng: random.Random,
    *,
    offered: Sequence[Point] = (),
    allowed: Iterable[Point] | None = None,
    colour: Colour = B,
) -> Point:
    """Black's next fifth-move offer on the standing stones ``board``: one of its good,
    legal points, not already offered and inside ``allowed`` (the step's allowed points:
    the procedure leaves out those equivalent to an earlier offer)."""
    cells = board.cells
    area = None if allowed is None else frozenset(allowed)
    taken = set(offered)

    def fits(p: Point) -> bool:
        return not cells[p] and p not in taken and (area is None or p in area)

    points = [p for p in candidates(board) if fits(p)]
    legal: dict[Point, bool] = {}
    check = _Legal(board, colour, ruleset)
    good = _top(analyse(board, colour, ruleset, points), lambda p: check(p, legal), count=6)
    if good:
        return _weighted(good, rng).point
    pool = [p for p in range(POINTS) if fits(p)]
    return _any_legal(board, colour, ruleset, pool)


def keep_offer(
    board: Board, offers: Sequence[Point], ruleset: RuleSet, rng: random.Random
) -> Point:
    """The offer White keeps: the one that leaves Black the least (White moves next)."""
    if not offers:
        raise BotError("there is no offer to keep")
    values: list[tuple[float, Point]] = []
    for p in offers:
        after = board.copy()
        after.cells[p] = B
        values.append((evaluate(after, W, ruleset), p))
    low = min(v for v, _ in values)
    tied = sorted(p for v, p in values if v == low)
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def decide(
    choices: Sequence[str],
    board: Board,
    decider: Colour,
    to_move: Colour,
    ruleset: RuleSet,
    rng: random.Random,
) -> str:
    """A decision among ``choices`` for the player holding ``decider``: take the colour
    that looks better (``evaluate`` plus seeded noise). Knows swap/stay (Taraguchi's
    ``offer`` too) and black/white (Swap2's ``place-two`` too); any other decision is a
    seeded random choice among the legal ones."""
    if not choices:
        raise BotError("a decision needs choices")
    value = evaluate(board, to_move, ruleset) + rng.gauss(0.0, DECIDE_NOISE)
    want = B if value > 0 else W
    options = set(choices)
    if {"swap", "stay"} <= options:
        if "offer" in options and rng.random() < 0.3:
            return "offer"
        return "stay" if want is decider else "swap"
    if {"black", "white"} <= options:
        if "place-two" in options and rng.random() < 0.25:
            return "place-two"
        return want.label
    return rng.choice(list(choices))


def declare(choices: Sequence[str], rng: random.Random) -> int:
    """N (the number of fifth-move offers) among the step's ``choices``: a low one."""
    numbers = sorted(int(c) for c in choices)
    if not numbers:
        raise BotError("a declaration needs choices")
    return rng.choice(numbers[:4])


# --- the current step of a game -------------------------------------------------------


@dataclass(frozen=True)
class BotAction:
    """What the bot does at a game's current step: ``action`` (``Action.PLACE`` also for
    an ordinary move), by ``seat``, with its ``point`` (PLACE, OFFER, CHOOSE_OFFER), the
    stone's ``colour`` (PLACE, OFFER), the ``choice`` (DECIDE) or ``number`` (DECLARE)."""

    action: Action
    seat: Seat
    point: Point | None = None
    colour: Colour | None = None
    choice: str | None = None
    number: int | None = None

    def __str__(self) -> str:
        what = self.choice or (str(self.number) if self.number is not None else "")
        if self.point is not None:
            what = point_name(self.point)
        return f"{self.seat.value} {self.action.value} {what}".strip()


def next_action(game: Game, rng: random.Random, *, avoid: Iterable[Point] = ()) -> BotAction | None:
    """The bot's action at ``game``'s current step (None: the game is over, or paused).

    The three designated stones (and Taraguchi's first three) go on a random allowed
    point, so every one of the 26 openings comes up (any legal placement is one of them);
    every other stone is ``choose_move``'s, inside the step's area (and off ``avoid``
    while it can: the table player keeps move 6 off the offers just lifted)."""
    if game.is_over or game.status.value not in ("opening", "playing"):
        return None
    ruleset = game.ruleset
    board = game.board
    step = game.step
    if step is None:
        colour = game.colour_to_move
        seat = game.to_move
        if colour is None or seat is None:
            return None
        point = choose_move(board, colour, ruleset, rng, avoid=avoid)
        return BotAction(Action.PLACE, seat, point, colour)
    seat = step.seat
    if step.action is Action.PLACE:
        colour = step.colour or game.colour_of(seat)
        if step.allowed is not None and len(game.moves) < 3:
            point = rng.choice(sorted(step.allowed))
        else:
            point = choose_move(board, colour, ruleset, rng, allowed=step.allowed)
        return BotAction(Action.PLACE, seat, point, colour)
    if step.action is Action.OFFER:
        colour = step.colour or B
        point = choose_offer(
            board, ruleset, rng, offered=game.offers, allowed=step.allowed, colour=colour
        )
        return BotAction(Action.OFFER, seat, point, colour)
    if step.action is Action.CHOOSE_OFFER:
        return BotAction(Action.CHOOSE_OFFER, seat, keep_offer(board, game.offers, ruleset, rng))
    if step.action is Action.DECIDE:
        to_move = B if board.cells.count(B) <= board.cells.count(W) else W
        choice = decide(step.choices, board, game.colour_of(seat), to_move, ruleset, rng)
        return BotAction(Action.DECIDE, seat, choice=choice)
    if step.action is Action.DECLARE:
        return BotAction(Action.DECLARE, seat, number=declare(step.choices, rng))
    raise BotError(f"the bot does not know the step {step.action.value!r}")


def apply_action(game: Game, action: BotAction, *, t_ms: int | None = None) -> None:
    """Play ``action`` on ``game`` (for games between bots through the rules engine)."""
    if action.action in (Action.PLACE, Action.OFFER):
        assert action.point is not None
        game.place(action.point, seat=action.seat, t_ms=t_ms)
    elif action.action is Action.CHOOSE_OFFER:
        assert action.point is not None
        game.choose(action.point, seat=action.seat, t_ms=t_ms)
    elif action.action is Action.DECIDE:
        assert action.choice is not None
        game.decide(action.choice, seat=action.seat, t_ms=t_ms)
    elif action.action is Action.DECLARE:
        assert action.number is not None
        game.declare(action.number, seat=action.seat, t_ms=t_ms)


SLIP_ORDER = (Verdict.DOUBLE_THREE, Verdict.DOUBLE_FOUR, Verdict.OVERLINE)
"""The forbidden kinds a slipping Black plays, the likeliest blunder first."""


def forbidden_slip(game: Game, rng: random.Random) -> BotAction | None:
    """A forbidden point for Black to play by mistake, or None: none near the stones, not
    Black's free move (the opening's stones are placed by its procedure), no forbidden moves
    under the rule set, or Black has a five to make (no player overlooks their own win for
    a blunder). A double-three when there is one (the common blunder), else a double-four,
    else an overline, chosen among its kind with ``rng``. Judged by the referee's own
    ``judge``, as ``is_legal`` is, so the host judges the same point forbidden."""
    if game.is_over or game.step is not None or not game.ruleset.forbidden:
        return None
    if game.colour_to_move is not B or game.to_move is None:
        return None
    board = game.board
    found: dict[Verdict, list[Point]] = {}
    for p in candidates(board):
        verdict = judge(board, p)
        if verdict is Verdict.FIVE:
            return None
        found.setdefault(verdict, []).append(p)
    for kind in SLIP_ORDER:
        if found.get(kind):
            return BotAction(Action.PLACE, game.to_move, rng.choice(found[kind]), B)
    return None
