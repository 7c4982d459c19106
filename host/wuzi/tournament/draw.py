"""Drawing lots (抽签), pure: a recorded seed in, the same draw out, on any machine.

The regulations have lots drawn by the competition department together with the chief
referee (000 八(五), 002 七(五): 抽签工作由赛会竞赛组会同裁判长共同主持): the bracket
positions, who moves first in a match, each round's designated opening (000 六(三)2 and
002 六(一)1: 执行指定开局). A draw must be repeatable before witnesses, so nothing here
draws on its own: every draw is a function of its **seed** (an integer the shell picks
with ``secrets`` or the chief referee announces) and of what it is for (its *label*), and
the record keeps both.

The stream of numbers (``Lots``) is SHA-256 over ``wuzi-lots-1|<label>|<seed>|<k>`` for
k = 0, 1, …, each digest's first 8 bytes a big-endian integer; ``below(n)`` rejects the
values at or above the largest multiple of n that fits in 64 bits (no modulo bias). A
shuffle is Fisher–Yates from the last position down (position i swaps with ``below(i + 1)``).
So a draw does not depend on Python's ``random`` module or its version: anyone with a
SHA-256 tool can re-derive it from the printed seed.

Labels: ``bracket`` (the bracket positions, i.e. the seeds), ``first-mover r<R>`` (round
R's first movers, one coin per match in match order), ``opening r<R>`` (round R's
designated opening, one of the pool in the order 1D…13D, 1I…13I).

What a draw changes in the competition is applied here too (``apply_bracket``,
``apply_first_movers``); the opening is not part of the competition: the director reads
the round's latest opening record (``round_opening``) and gives its settings to every
table (``opening_settings``).
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from wuzi.rules.designated import DESIGNATED, OpeningError, get_designated
from wuzi.tournament.errors import TournamentError
from wuzi.tournament.event import Competition
from wuzi.tournament.settings import Format

__all__ = [
    "LOTS_VERSION",
    "SEED_MAX",
    "DrawError",
    "DrawKind",
    "DrawRecord",
    "FirstMover",
    "Lots",
    "apply_bracket",
    "apply_first_movers",
    "check_seed",
    "draw_bracket",
    "draw_first_movers",
    "draw_opening",
    "first_mover_matches",
    "opening_pool",
    "opening_settings",
    "round_opening",
]

LOTS_VERSION = "wuzi-lots-1"
SEED_MAX = 2**63 - 1  # an SQLite integer


class DrawError(TournamentError):
    """A draw that cannot be made (the message says why and what to do)."""


class DrawKind(enum.Enum):
    BRACKET = "bracket"
    FIRST_MOVER = "first-mover"
    OPENING = "opening"
    PRELIMINARY = "preliminary"  # the preliminary's lots, brought along with its ranking


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise DrawError(f"a seed is a whole number from 0 to {SEED_MAX}, not {seed!r}")
    return seed


class Lots:
    """The reproducible stream of one draw (see the module doc)."""

    def __init__(self, seed: int, label: str) -> None:
        self.seed = check_seed(seed)
        self.label = label
        self._k = 0

    def _next64(self) -> int:
        text = f"{LOTS_VERSION}|{self.label}|{self.seed}|{self._k}"
        self._k += 1
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")

    def below(self, n: int) -> int:
        """A number 0 ≤ x < n, every one equally likely."""
        if n < 1:
            raise ValueError(f"nothing to draw from {n} choices")
        limit = (2**64 // n) * n
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def shuffle(self, items: Sequence[str]) -> tuple[str, ...]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def choice(self, items: Sequence[str]) -> str:
        if not items:
            raise ValueError("nothing to draw from")
        return items[self.below(len(items))]


# -- the draws ----------------------------------------------------------------------


def draw_bracket(
    entrants: Sequence[str], seed: int, keep: Mapping[str, int] | None = None
) -> tuple[str, ...]:
    """Bracket positions by lot: the entrants in seed order (position 1 first). Entrants
    in ``keep`` (id → seed) stay at their seeds; the others are drawn into the free ones."""
    keep = dict(keep or {})
    n = len(entrants)
    if n < 2:
        raise DrawError(f"{n} entrant(s): a bracket needs at least 2")
    for who, s in keep.items():
        if who not in entrants:
            raise DrawError(f"{who!r} is kept at seed {s} but is not an entrant")
        if not 1 <= s <= n:
            raise DrawError(f"{who!r} is kept at seed {s}; the field has seeds 1–{n}")
    if len(set(keep.values())) != len(keep):
        raise DrawError("two entrants are kept at the same seed")
    drawn = Lots(seed, DrawKind.BRACKET.value).shuffle([e for e in entrants if e not in keep])
    order: list[str] = []
    rest = iter(drawn)
    by_seed = {s: who for who, s in keep.items()}
    for position in range(1, n + 1):
        order.append(by_seed[position] if position in by_seed else next(rest))
    return tuple(order)


@dataclass(frozen=True)
class FirstMover:
    """Match ``match`` of a round: ``first`` moves first (先行方), ``second`` does not."""

    match: int
    first: str
    second: str


def draw_first_movers(
    round_number: int, matches: Iterable[tuple[int, str, str]], seed: int
) -> tuple[FirstMover, ...]:
    """One coin per match (in match order): heads keeps the pairing's order, tails swaps it."""
    lots = Lots(seed, f"{DrawKind.FIRST_MOVER.value} r{round_number}")
    movers = []
    for match, a, b in sorted(matches):
        movers.append(FirstMover(match, a, b) if lots.below(2) == 0 else FirstMover(match, b, a))
    return tuple(movers)


def opening_pool(only: Sequence[str] | None = None, exclude: Iterable[str] = ()) -> tuple[str, ...]:
    """The ids the opening is drawn from, in the order 1D…13D, 1I…13I: all 26 designated
    openings, or ``only`` those named (id, Chinese name or romaji), minus ``exclude``."""
    try:
        chosen = {get_designated(k).id for k in only} if only else {o.id for o in DESIGNATED}
        dropped = {get_designated(k).id for k in exclude}
    except OpeningError as exc:
        raise DrawError(str(exc)) from None
    pool = tuple(o.id for o in DESIGNATED if o.id in chosen and o.id not in dropped)
    if not pool:
        raise DrawError("no designated opening is left to draw from")
    return pool


def draw_opening(round_number: int, seed: int, pool: Sequence[str] | None = None) -> str:
    """Round ``round_number``'s designated opening by lot: an id such as ``4D``."""
    ids = tuple(pool) if pool else opening_pool()
    return Lots(seed, f"{DrawKind.OPENING.value} r{round_number}").choice(ids)


# -- applying a draw to the competition ---------------------------------------------


def apply_bracket(comp: Competition, order: Sequence[str]) -> Competition:
    """Seeds 1, 2, … in ``order``: the knockout's bracket positions (1 v 16, 8 v 9, …) or
    the round robin's pairing numbers. Only before round 1 is paired."""
    fmt = comp.settings.format
    if fmt is Format.SWISS:
        raise DrawError(
            "a Swiss pairs by rating (pairing numbers), not by a drawn bracket; "
            "draw bracket is for a knockout's positions or a round robin's numbers"
        )
    if comp.rounds:
        raise DrawError("round 1 is already paired: the bracket is drawn before it")
    ids = [e.id for e in comp.entrants]
    if sorted(order) != sorted(ids):
        raise DrawError("the drawn order does not hold every entrant exactly once")
    seed_of = {who: i + 1 for i, who in enumerate(order)}
    entrants = tuple(replace(e, seed=seed_of[e.id]) for e in comp.entrants)
    return replace(comp, entrants=entrants)


def first_mover_matches(comp: Competition, round_number: int) -> list[tuple[int, str, str]]:
    """(match, first, second) of round ``round_number``'s matches still to be played:
    what a first-mover draw is made over (refused when any already has a result)."""
    fmt = comp.settings.format
    if fmt in (Format.SWISS, Format.ROUND_ROBIN):
        raise DrawError(
            f"a {fmt.value}'s colours follow its pairing rules (colour balance, the Berger "
            "table); first movers are drawn for knockout matches"
        )
    if not 1 <= round_number <= len(comp.rounds):
        raise DrawError(
            f"round {round_number} is not paired (rounds paired: {len(comp.rounds)}); "
            "first movers are drawn for the matches of a paired round"
        )
    rnd = comp.rounds[round_number - 1]
    done = [p.board for p in rnd.pairings if p.second is not None and p.result is not None]
    if done:
        raise DrawError(
            f"round {round_number} already has results (match {done[0]}): its first movers "
            "were played"
        )
    return [(p.board, p.first, p.second) for p in rnd.pairings if p.second is not None]


def apply_first_movers(
    comp: Competition, round_number: int, movers: Sequence[FirstMover]
) -> Competition:
    """Round ``round_number``'s pairings with the drawn first mover named first (the
    first-named has Black in game 1 and, in a team match, on boards 1 and 3)."""
    current = {m: (a, b) for m, a, b in first_mover_matches(comp, round_number)}
    rnd = comp.rounds[round_number - 1]
    by_match = {m.match: m for m in movers}
    pairings = []
    for p in rnd.pairings:
        mover = by_match.get(p.board)
        if mover is None:
            pairings.append(p)
            continue
        if {mover.first, mover.second} != set(current.get(p.board, ())):
            raise DrawError(f"round {round_number} match {p.board} is not {mover}")
        pairings.append(replace(p, first=mover.first, second=mover.second))
    rounds = list(comp.rounds)
    rounds[round_number - 1] = replace(rnd, pairings=tuple(pairings))
    return replace(comp, rounds=tuple(rounds))


# -- the record ---------------------------------------------------------------------


@dataclass(frozen=True)
class DrawRecord:
    """One draw as it is stored and logged: what, for which round, who asked for it, how
    (``lot`` with its seed, or ``set`` by the chief referee), the result (JSON-safe) and
    when (``at_ms``, from the shell)."""

    kind: DrawKind
    round: int | None
    by: str
    method: str  # "lot" or "set"
    seed: int | None
    result: Mapping[str, Any]
    at_ms: int
    seq: int = 0  # the store's number, 0 before it is stored
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def opening_id(self) -> str | None:
        value = self.result.get("opening_id") if self.kind is DrawKind.OPENING else None
        return value if isinstance(value, str) else None

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind.value,
            "round": self.round,
            "by": self.by,
            "method": self.method,
            "seed": self.seed,
            "result": dict(self.result),
            "options": dict(self.options),
            "at_ms": self.at_ms,
        }


def round_opening(draws: Iterable[DrawRecord], round_number: int) -> DrawRecord | None:
    """The round's opening: its latest opening record (a referee's ``set`` after a lot
    replaces the lot, and so does a new lot)."""
    found = [d for d in draws if d.kind is DrawKind.OPENING and d.round == round_number]
    return max(found, key=lambda d: d.seq) if found else None


def opening_settings(record: DrawRecord | None) -> dict[str, str]:
    """The opening settings a table gets for a round (``wuzi.rules.openings``): the
    designated opening's id and how it was chosen (``lot`` or ``referee``); none without
    a record (the opener chooses, the procedure's default)."""
    if record is None or record.opening_id is None:
        return {}
    selection = "lot" if record.method == "lot" else "referee"
    return {"selection": selection, "opening_id": record.opening_id}
