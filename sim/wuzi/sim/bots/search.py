"""A small victory-by-continuous-fours search (VCF) for the Gomoku bots.

One-ply bots that block every threat draw most games on a full board; real games are
decided by combinations of fours, each of which leaves the opponent exactly one reply.
``vcf`` looks for such a sequence: the attacker plays a four, the defender must take its
five point, and so on until the attacker has an unstoppable threat (a straight four, two
fours, a four and an open three) — or the defender's forced reply is a point Black may
not play under renju, which wins too.

Bounded (``max_nodes`` stones tried, ``max_depth`` fours deep) so a move stays within a
few milliseconds; conservative where it cuts corners (a line where the defender's forced
reply makes a four of its own is dropped). Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Iterable

from wuzi.rules.board import SIZE, Board, Colour, Point
from wuzi.rules.forbidden import judge
from wuzi.rules.patterns import PADDED, STEPS, padded_bytes
from wuzi.rules.ruleset import RuleSet
from wuzi.rules.verdict import Verdict
from wuzi.sim.bots import patterns as bp

__all__ = ["LINE_POINTS", "sound_threat", "vcf"]

_SWAP_COLOURS = bytes.maketrans(b"\x01\x02", b"\x02\x01")
_R = tuple(bp.RADIUS * s for s in STEPS)


def _line_points(p: Point) -> tuple[Point, ...]:
    x0, y0 = p % SIZE, p // SIZE
    out = []
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for k in range(-4, 5):
            x, y = x0 + k * dx, y0 + k * dy
            if k and 0 <= x < SIZE and 0 <= y < SIZE:
                out.append(y * SIZE + x)
    return tuple(out)


LINE_POINTS: tuple[tuple[Point, ...], ...] = tuple(_line_points(p) for p in range(SIZE * SIZE))
"""The points within four steps of each point along its four lines."""


_FOURS = (bp.FOUR_CLASS, bp.WINNING, bp.WIN)
_S0, _S1, _S2, _S3 = STEPS
_R0, _R1, _R2, _R3 = _R


class _Search:
    """One search: the position (changed in place and restored) and the node budget."""

    def __init__(
        self, board: Board, attacker: Colour, ruleset: RuleSet, max_nodes: int, max_depth: int
    ) -> None:
        self.cells = bytearray(board.cells)
        self.attacker = attacker
        self.defender = attacker.other
        self.ruleset = ruleset
        self.exact = {c: not ruleset.overline_wins(c) for c in (Colour.BLACK, Colour.WHITE)}
        self.nodes = max_nodes
        self.max_depth = max_depth

    def classes(self, colour: Colour, points: Iterable[Point]) -> dict[Point, int]:
        """The class (``bot_patterns``) of a ``colour`` stone on each empty point."""
        cells = self.cells
        if colour is Colour.BLACK:
            pb = padded_bytes(cells)
        else:
            pb = padded_bytes(cells.translate(_SWAP_COLOURS))
        exact = self.exact[colour]
        get = bp._TABLES[exact].get
        code_of = bp.code_of
        known = bp.VALUES.get
        value = bp.point_value
        out: dict[Point, int] = {}
        for p in points:
            if cells[p]:
                continue
            i = PADDED[p]
            w0 = pb[i - _R0 : i + _R0 + 1]
            w1 = pb[i - _R1 : i + _R1 + 1 : _S1]
            w2 = pb[i - _R2 : i + _R2 + 1 : _S2]
            w3 = pb[i - _R3 : i + _R3 + 1 : _S3]
            k0 = get(w0, -1)
            if k0 < 0:
                k0 = code_of(w0, exact)
            k1 = get(w1, -1)
            if k1 < 0:
                k1 = code_of(w1, exact)
            k2 = get(w2, -1)
            if k2 < 0:
                k2 = code_of(w2, exact)
            k3 = get(w3, -1)
            if k3 < 0:
                k3 = code_of(w3, exact)
            if (k0 | k1 | k2 | k3) & bp.FIVE:
                out[p] = bp.WIN
                continue
            key = (k0, k1, k2, k3)
            found = known(key) or value(k0, k1, k2, k3)
            out[p] = found[1]
        return out

    def legal(self, p: Point, colour: Colour) -> bool:
        if colour is Colour.WHITE or not self.ruleset.forbidden:
            return True
        return judge(Board(self.cells), p) in (Verdict.LEGAL, Verdict.FIVE)

    def sound(self, p: Point) -> bool:
        """Whether the attacker's unstoppable-looking threat on ``p`` really is one: two
        five points (a straight four, two fours) always are; a four and a three only if the
        one block of the four gives the defender no four of its own (it would then win the
        tempo back) — or if the defender may not play that block (Black's forbidden point)."""
        cells, attacker, defender = self.cells, self.attacker, self.defender
        cells[p] = attacker
        try:
            around = self.classes(attacker, LINE_POINTS[p])
            replies = [q for q, c in around.items() if c == bp.WIN]
            if len(replies) != 1:
                return len(replies) >= 2
            r = replies[0]
            if not self.legal(r, defender):
                return True
            return self.classes(defender, (r,))[r] not in _FOURS
        finally:
            cells[p] = 0

    def search(self, fours: dict[Point, int], depth: int) -> Point | None:
        """The attacker's first four of a winning sequence; ``fours`` are the attacker's
        four points now, with their classes."""
        for p in sorted(fours):
            if fours[p] == bp.WIN:
                return p
        for p in sorted(fours):
            if fours[p] == bp.WINNING and self.legal(p, self.attacker) and self.sound(p):
                return p
        if depth > self.max_depth:
            return None
        attacker, defender, cells = self.attacker, self.defender, self.cells
        for p in sorted(fours):
            if self.nodes <= 0:
                return None
            self.nodes -= 1
            if not self.legal(p, attacker):
                continue
            cells[p] = attacker
            try:
                around = self.classes(attacker, LINE_POINTS[p])
                replies = [q for q, c in around.items() if c == bp.WIN]
                if len(replies) >= 2:
                    return p
                if len(replies) != 1:
                    continue  # no four after all (the window saw past the board's edge)
                r = replies[0]
                if not self.legal(r, defender):
                    return p  # the defender may not block: Black's forbidden point
                if self.classes(defender, (r,))[r] in _FOURS:
                    continue  # the block makes a four of its own: too deep for this search
                cells[r] = defender
                try:
                    after = {q: c for q, c in fours.items() if q != p and q != r}
                    after.update((q, c) for q, c in around.items() if q != r)
                    blocked = set(LINE_POINTS[r]).intersection(after)
                    after.update(self.classes(attacker, blocked))
                    after = {q: c for q, c in after.items() if c in _FOURS}
                    if after and self.search(after, depth + 1) is not None:
                        return p
                finally:
                    cells[r] = 0
            finally:
                cells[p] = 0
        return None


def vcf(
    board: Board,
    attacker: Colour,
    ruleset: RuleSet,
    fours: set[Point],
    *,
    max_nodes: int = 24,
    max_depth: int = 6,
) -> Point | None:
    """The first move of a victory by continuous fours for ``attacker`` (None: none found
    within the bounds). ``fours`` are the points where the attacker makes a four now
    (the search also looks along the lines of the fours it plays). The defender must not
    have a five point of its own (the caller blocks those first)."""
    if not fours:
        return None
    search = _Search(board, attacker, ruleset, max_nodes, max_depth)
    classes = {p: c for p, c in search.classes(attacker, fours).items() if c in _FOURS}
    return search.search(classes, 1) if classes else None


def sound_threat(board: Board, attacker: Colour, ruleset: RuleSet, p: Point) -> bool:
    """Whether ``attacker``'s stone on ``p`` (an unstoppable-looking threat: a straight
    four, two fours, a four and an open three) wins the tempo (see ``_Search.sound``)."""
    return _Search(board, attacker, ruleset, 0, 0).sound(p)
