"""What one stone makes along one line, for the Gomoku bots: a memoised window table.

The bots (``wuzi.sim.bots.bot``) score every candidate point by what a stone there makes in its
four lines, for the side to move (attack) and for the opponent (defence). Along one line
that depends only on the 11 cells ``p-5 … p+5`` (a five, the cells that keep it exact, a
four and its five points, an open three and its straight four all fit in that span), so a
line is read as an 11-byte **window** — ``0`` empty, ``1`` the colour judged, ``2`` blocked
(the other colour or the edge) — on the padded board of ``wuzi.rules.patterns``, and each
distinct window is classified once (``code_of``), memoised per exactness (``exact``: only
an unbroken run of exactly five wins, as for Black under renju; otherwise five or more).

A window code packs (bits):

* ``FIVE`` — the stone completes a winning run;
* ``OVER`` — with ``exact``: it makes six or more (no win; a renju overline for Black);
* ``FOURS`` (2 bits) — how many empty points would then complete a winning run through it
  (1: a four; 2: a straight four, or two fours in one line — either way unstoppable);
* ``THREE`` — some empty point would then give two such points (an open three);
* ``CLOSED`` (2 bits) — how many empty points would give exactly one (a three that can
  become a plain four, capped at 3);
* ``SPANS`` (the rest) — the classic five-span count: every five cells holding the point
  and nothing blocked, weighted by the stones of the colour in it (twos and building).

These are heuristics for a simple bot, not the referee: whether a Black stone is forbidden
is always asked of ``wuzi.rules.forbidden``. Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

RADIUS = 5
WINDOW = 2 * RADIUS + 1
CENTRE = RADIUS
EMPTY, OWN, BLOCKED = 0, 1, 2

FIVE = 1
OVER = 2
FOURS_SHIFT = 2
THREE = 1 << 4
CLOSED_SHIFT = 5
SPANS_SHIFT = 8

# Weight of a five-span holding k stones of the colour (the point included), k = 0..5.
SPAN_WEIGHTS = (0, 1, 6, 30, 90, 0)

_MAX_ENTRIES = 200_000  # a table past this is cleared (bounded memory; it refills lazily)

_TABLES: dict[bool, dict[bytes, int]] = {True: {}, False: {}}


def _run(cells: list[int]) -> int:
    """Length of the unbroken run of the colour through the centre (the centre counted)."""
    lo = hi = CENTRE
    while lo > 0 and cells[lo - 1] == OWN:
        lo -= 1
    while hi < WINDOW - 1 and cells[hi + 1] == OWN:
        hi += 1
    return hi - lo + 1


def _wins(run: int, exact: bool) -> bool:
    return run == 5 if exact else run >= 5


def _five_points(cells: list[int], exact: bool) -> int:
    """How many empty points complete a winning run through the centre (capped at 2)."""
    found = 0
    for f in range(CENTRE - 4, CENTRE + 5):
        if cells[f] != EMPTY or f == CENTRE:
            continue
        cells[f] = OWN
        if _wins(_run(cells), exact):
            found += 1
        cells[f] = EMPTY
        if found >= 2:
            return 2
    return found


def _classify(window: bytes, exact: bool) -> int:
    cells = list(window)
    cells[CENTRE] = OWN
    run = _run(cells)
    if _wins(run, exact):
        return FIVE
    code = OVER if run >= 6 else 0
    fours = _five_points(cells, exact)
    code |= fours << FOURS_SHIFT
    three = False
    closed = 0
    if fours < 2:
        for e in range(CENTRE - 4, CENTRE + 5):
            if cells[e] != EMPTY or e == CENTRE:
                continue
            cells[e] = OWN
            if not _wins(_run(cells), exact):
                made = _five_points(cells, exact)
                if made >= 2:
                    three = True
                elif made == 1:
                    closed += 1
            cells[e] = EMPTY
    if three:
        code |= THREE
    code |= min(closed, 3) << CLOSED_SHIFT
    spans = 0
    for a in range(CENTRE - 4, CENTRE + 1):
        span = cells[a : a + 5]
        if BLOCKED in span:
            continue
        if exact and OWN in (cells[a - 1], cells[a + 5]):
            continue  # filling this span would join the run beside it: six, no five
        spans += SPAN_WEIGHTS[span.count(OWN)]
    return code | spans << SPANS_SHIFT


def code_of(window: bytes, exact: bool) -> int:
    """The packed code of an 11-cell window (its centre read as the colour's stone)."""
    table = _TABLES[exact]
    code = table.get(window)
    if code is None:
        if len(window) != WINDOW:
            raise ValueError(f"a window has {WINDOW} cells, not {len(window)}")
        if len(table) >= _MAX_ENTRIES:
            table.clear()
        code = table[window] = _classify(window, exact)
    return code


def fours_of(code: int) -> int:
    return (code >> FOURS_SHIFT) & 3


def closed_of(code: int) -> int:
    return (code >> CLOSED_SHIFT) & 3


def spans_of(code: int) -> int:
    return code >> SPANS_SHIFT


# --- a point's four lines together ----------------------------------------------------

NONE, THREE_CLASS, FOUR_CLASS, DOUBLE_THREE, WINNING, WIN = range(6)
"""What a stone makes across its four lines, weakest first: nothing forcing; an open
three; a four; two open threes; an unstoppable threat (a straight four, two fours, a four
and an open three); a five."""

WIN_SCORE = 100_000_000
WINNING_SCORE = 1_000_000
FOUR_THREE_SCORE = 500_000
DOUBLE_THREE_SCORE = 100_000
FOUR_SCORE = 5_000
THREE_SCORE = 3_000
CLOSED_SCORE = 300


VALUES: dict[tuple[int, int, int, int], tuple[int, int]] = {}
"""``point_value`` memoised by its four codes (filled by ``point_value``; bounded)."""


def point_value(k0: int, k1: int, k2: int, k3: int) -> tuple[int, int]:
    """(score, class) of a stone whose four line codes are given (see the class names)."""
    if len(VALUES) >= _MAX_ENTRIES:
        VALUES.clear()
    found = VALUES[(k0, k1, k2, k3)] = _point_value(k0, k1, k2, k3)
    return found


def _point_value(k0: int, k1: int, k2: int, k3: int) -> tuple[int, int]:
    if (k0 | k1 | k2 | k3) & FIVE:
        return WIN_SCORE, WIN
    fours = threes = straight = closed = spans = 0
    for k in (k0, k1, k2, k3):
        f = (k >> FOURS_SHIFT) & 3
        if f >= 2:
            straight += 1
        elif f == 1:
            fours += 1
        elif k & THREE:
            threes += 1
        else:
            closed += (k >> CLOSED_SHIFT) & 3
        spans += k >> SPANS_SHIFT
    rest = closed * CLOSED_SCORE + spans
    if straight or fours >= 2:
        return WINNING_SCORE + rest, WINNING
    if fours and threes:
        return FOUR_THREE_SCORE + rest, WINNING
    if threes >= 2:
        return DOUBLE_THREE_SCORE + rest, DOUBLE_THREE
    if fours:
        return FOUR_SCORE + rest, FOUR_CLASS
    if threes:
        return THREE_SCORE + rest, THREE_CLASS
    return rest, NONE
