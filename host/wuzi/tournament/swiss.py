"""Swiss pairing: score groups, no rematches, colour rules, one bye at most per player.

**Absolute rules** (a pairing the program makes never breaks them):

1. two entrants who have played each other over the board never meet again (a forfeit is
   not a game, so it does not count as a meeting);
2. a bye goes to the lowest-ranked entrant who has not had one (and for whom the rest of
   the field can still be paired); nobody gets two;
3. nobody gets the same colour three times in a row, and nobody's colour difference
   (games with Black minus games with White) goes beyond ±2. "Colour" is the game-1
   colour: in a two-game round both colours are played and only who starts counts; for
   teams it is who is the first mover.

**Quality criteria**, in order: as few entrants as possible float out of their score group
(and those who float from above are paired first); colour preferences are met (a strong
preference — colour difference ±1 — before a mild one — alternation); the entrant left to
float down is the lowest-ranked; and within a score group the top half meets the bottom
half in order (1 v n/2+1, 2 v n/2+2, …), the Dutch system's ideal.

**Method.** Entrants are ranked by score, then pairing number (rating, then entry order).
Score groups are paired from the top down, each *bracket* (the group plus the floaters from
above) with a maximum-weight matching (``matching``) whose integer weights encode the
criteria above lexicographically; who is left unpaired floats into the next bracket. If the
last bracket cannot be completed, the bottom score groups are paired again together in one
matching that first maximises the number of pairs, then minimises the squared score-group
distance of every pair, then the same colour and order criteria — the last two groups, then
three, five, nine… up to the whole field, so only as much of the pairing above is given up as
needed and a valid pairing is found whenever one exists. Large brackets first try a sparse
graph (each entrant's edges to the entrants near its ideal opponent) and fall back to the
complete graph if that pairs fewer. (The complete graph of a whole field of 500 — the last
resort, which a real field hardly ever needs — takes several seconds.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wuzi.rules.board import Colour
from wuzi.tournament.errors import PairingError
from wuzi.tournament.history import EntryKind, History, Pairing, RoundEntry
from wuzi.tournament.matching import max_weight_matching

MILD, STRONG, ABSOLUTE = 1, 2, 3
MAX_COLOUR_DIFFERENCE = 2
DENSE_BRACKET = 48  # brackets up to this size always use the complete graph
BAND = 6  # sparse graphs: edges within this many places of the ideal opponent


@dataclass(frozen=True)
class SwissEntrant:
    """An entrant as the pairing sees it; ``order`` (entry order) breaks rating ties."""

    id: str
    rating: int = 0
    order: int = 0


@dataclass(frozen=True)
class ColourPreference:
    colour: Colour | None
    strength: int  # 0 none, MILD, STRONG, ABSOLUTE


def colour_history(entries: Sequence[RoundEntry]) -> tuple[Colour, ...]:
    """The game-1 colours of the rounds actually played, oldest first."""
    return tuple(e.colour for e in entries if e.played and e.colour is not None)


def colour_difference(colours: Sequence[Colour]) -> int:
    return sum(1 if c is Colour.BLACK else -1 for c in colours)


def colour_preference(colours: Sequence[Colour]) -> ColourPreference:
    """Which colour an entrant should get next, and how strongly.

    Absolute when the other colour would break rule 3 (difference ±2, or the last two
    games with the same colour); strong when the difference is ±1; mild (alternate) when it
    is 0; none before the first game.
    """
    if not colours:
        return ColourPreference(None, 0)
    diff = colour_difference(colours)
    last = colours[-1]
    twice = len(colours) >= 2 and colours[-2] is last
    if diff >= MAX_COLOUR_DIFFERENCE or (twice and last is Colour.BLACK):
        return ColourPreference(Colour.WHITE, ABSOLUTE)
    if diff <= -MAX_COLOUR_DIFFERENCE or (twice and last is Colour.WHITE):
        return ColourPreference(Colour.BLACK, ABSOLUTE)
    if diff == 1:
        return ColourPreference(Colour.WHITE, STRONG)
    if diff == -1:
        return ColourPreference(Colour.BLACK, STRONG)
    return ColourPreference(last.other, MILD)


def colour_allowed(colours: Sequence[Colour], colour: Colour) -> bool:
    """Whether ``colour`` next keeps rule 3."""
    after = (*colours, colour)
    if abs(colour_difference(after)) > MAX_COLOUR_DIFFERENCE:
        return False
    return not (len(after) >= 3 and after[-1] == after[-2] == after[-3])


class _Entrant:
    __slots__ = ("colours", "group", "had_bye", "id", "met", "pref", "score", "strength", "tpn")

    def __init__(
        self, entrant: SwissEntrant, tpn: int, score: float, entries: Sequence[RoundEntry]
    ):
        self.id = entrant.id
        self.tpn = tpn
        self.score = score
        self.group = 0
        self.met = {e.opponent for e in entries if e.played and e.opponent is not None}
        self.had_bye = any(e.kind is EntryKind.BYE for e in entries)
        self.colours = colour_history(entries)
        pref = colour_preference(self.colours)
        self.pref = pref.colour
        self.strength = pref.strength


def pairing_numbers(entrants: Sequence[SwissEntrant]) -> dict[str, int]:
    """Pairing numbers: by rating (high first), then entry order, then ID."""
    ordered = sorted(entrants, key=lambda e: (-e.rating, e.order, e.id))
    return {e.id: i + 1 for i, e in enumerate(ordered)}


def _can_meet(a: _Entrant, b: _Entrant) -> bool:
    if b.id in a.met:
        return False
    return not (a.strength == ABSOLUTE == b.strength and a.pref is b.pref)


def _colour_quality(a: _Entrant, b: _Entrant) -> int:
    """3 when both preferences can be met, less by the strength of the one that cannot."""
    if a.pref is None or b.pref is None or a.pref is not b.pref:
        return 3
    return 3 - min(a.strength, b.strength)


def _allocate(a: _Entrant, b: _Entrant, board_index: int, initial: Colour) -> tuple[str, str]:
    """(black, white) for a pair where ``a`` ranks higher than ``b``."""
    if a.pref is None and b.pref is None:
        colour = initial if board_index % 2 == 0 else initial.other
    elif b.pref is None or (a.pref is not None and a.pref is not b.pref):
        colour = a.pref if a.pref is not None else Colour.BLACK
    elif a.pref is None:
        colour = b.pref.other
    elif a.strength != b.strength:
        colour = a.pref if a.strength > b.strength else a.pref.other
    else:
        colour = a.pref
        for ca, cb in zip(reversed(a.colours), reversed(b.colours), strict=False):
            if ca is not cb:
                colour = ca.other
                break
    return (a.id, b.id) if colour is Colour.BLACK else (b.id, a.id)


def _matched_pairs(
    people: Sequence[_Entrant], mate: Sequence[int]
) -> list[tuple[_Entrant, _Entrant]]:
    return [(people[i], people[j]) for i, j in enumerate(mate) if j > i]


def _match_bracket(bracket: Sequence[_Entrant], floaters: int, dense: bool) -> list[int]:
    """Mates within one bracket (the first ``floaters`` came down from above); -1 for the
    entrants left to float down.

    Maximum-cardinality matching with lexicographic integer weights: pair the floaters
    from above, then meet colour preferences, then let the lowest-ranked float, then stay
    close to the ideal order. A dummy vertex's partner is the one who floats, so "who
    floats" is the weight of one edge (weights on every edge that favour high-ranked
    players would send the blossom algorithm into thousands of needless blossoms).
    """
    n = len(bracket)
    if n < 2:
        return [-1] * n
    residents = n - floaters
    half = max(1, (residents - floaters) // 2)
    per_pair = n // 2 + 1
    w_keep = (n + 1) * per_pair + 1
    w_colour = w_keep * (n + 1) + 1
    w_floater = w_colour * 3 * per_pair + 1
    edges: list[tuple[int, int, int]] = []
    for i in range(n):
        a = bracket[i]
        if dense or n <= DENSE_BRACKET:
            partners: range | list[int] = range(i + 1, n)
        else:
            partners = _band(i, n, floaters, half)
        for j in partners:
            b = bracket[j]
            if not _can_meet(a, b):
                continue
            if i < floaters and j < floaters:
                deviation = 0
            elif i < floaters:
                deviation = abs((j - floaters) - i)
            else:
                deviation = abs(j - i - half)
            weight = (
                w_floater * ((i < floaters) + (j < floaters))
                + w_colour * _colour_quality(a, b)
                + (n - deviation)
            )
            edges.append((i, j, weight))
    # The dummy vertex n: its partner floats down. A pair of real entrants always outweighs
    # a dummy edge, so the dummy only takes someone who could not be paired anyway (in an
    # odd bracket, or when the rules leave one more entrant out): the lowest-ranked.
    edges.extend((i, n, w_keep * i) for i in range(floaters, n))
    mate = max_weight_matching(n + 1, edges, max_cardinality=True)
    return [-1 if m == n else m for m in mate[:n]]


def _band(i: int, n: int, floaters: int, half: int) -> list[int]:
    """Sparse partners of bracket position ``i`` (only those after it)."""
    if i < floaters:
        return list(range(i + 1, min(n, floaters + 2 * BAND + floaters)))
    found = set(range(i + 1, min(n, i + BAND + 1)))
    found.update(range(max(i + 1, i + half - BAND), min(n, i + half + BAND + 1)))
    return sorted(found)


def _groups(ranked: Sequence[_Entrant]) -> list[list[_Entrant]]:
    groups: list[list[_Entrant]] = []
    for person in ranked:
        if groups and groups[-1][0].score == person.score:
            groups[-1].append(person)
        else:
            groups.append([person])
    return groups


def _pair_globally(ranked: Sequence[_Entrant]) -> list[tuple[_Entrant, _Entrant]] | None:
    """One matching over everybody: the most pairs, then the least score-group distance."""
    n = len(ranked)
    if n == 0:
        return []
    position: dict[str, int] = {}
    sizes: dict[int, int] = {}
    for person in ranked:
        position[person.id] = sizes.get(person.group, 0)
        sizes[person.group] = position[person.id] + 1
    groups = max(p.group for p in ranked) + 1
    per_pair = n // 2 + 1
    w_colour = (n + 1) * per_pair + 1
    w_distance = w_colour * 3 * per_pair + 1
    edges: list[tuple[int, int, int]] = []
    for i in range(n):
        a = ranked[i]
        for j in range(i + 1, n):
            b = ranked[j]
            if not _can_meet(a, b):
                continue
            distance = b.group - a.group
            deviation = 0
            if distance == 0:
                half = max(1, sizes[a.group] // 2)
                deviation = abs(position[b.id] - position[a.id] - half)
            weight = (
                w_distance * (groups * groups - distance * distance)
                + w_colour * _colour_quality(a, b)
                + (n - deviation)
            )
            edges.append((i, j, weight))
    mate = max_weight_matching(n, edges, max_cardinality=True)
    if any(m == -1 for m in mate):
        return None
    return _matched_pairs(ranked, mate)


def _pair_all(ranked: Sequence[_Entrant]) -> list[tuple[_Entrant, _Entrant]] | None:
    """Pair everybody, or None when no valid pairing exists.

    Brackets top-down first. If the bottom cannot be completed, the last two score groups
    (with the floaters into them) are paired as one, then the last three, five, nine, … up
    to the whole field: only as much of the pairing above is given up as is needed.
    """
    groups = _groups(ranked)
    floaters: list[_Entrant] = []
    pairs: list[tuple[_Entrant, _Entrant]] = []
    before: list[tuple[list[tuple[_Entrant, _Entrant]], list[_Entrant]]] = []
    for group in groups:
        before.append((list(pairs), list(floaters)))
        bracket = floaters + group
        mate = _match_bracket(bracket, len(floaters), dense=False)
        unpaired = sum(1 for m in mate if m == -1)
        if unpaired > len(bracket) % 2 and len(bracket) > DENSE_BRACKET:
            dense_mate = _match_bracket(bracket, len(floaters), dense=True)
            if sum(1 for m in dense_mate if m == -1) < unpaired:
                mate = dense_mate
        pairs.extend(_matched_pairs(bracket, mate))
        floaters = [bracket[i] for i, m in enumerate(mate) if m == -1]
    if not floaters:
        return pairs
    span = 2
    while True:
        start = max(0, len(groups) - span)
        pairs_above, floaters_above = before[start]
        rest = floaters_above + [p for group in groups[start:] for p in group]
        found = _pair_globally(rest)
        if found is not None:
            return pairs_above + found
        if start == 0:
            return None
        span = 2 * span - 1


def pair_swiss_round(
    number: int,
    entrants: Sequence[SwissEntrant],
    histories: History,
    points: Mapping[str, float],
    fixed: Sequence[tuple[str, str | None]] = (),
    reason: str | None = None,
    initial_colour: Colour = Colour.BLACK,
    numbers: Mapping[str, int] | None = None,
) -> tuple[Pairing, ...]:
    """Pair round ``number`` of the ``entrants`` taking part in it.

    ``histories`` and ``points`` cover the rounds before. ``fixed`` are pairings a referee
    made by hand, ``(black, white)`` or ``(entrant, None)`` for a bye, recorded with
    ``reason`` (required with them); the rest is paired around them. ``numbers`` are the
    pairing numbers (from ``pairing_numbers`` over the whole field, so a late entry does
    not renumber the others); by default they are computed from ``entrants``.
    """
    tpn = dict(numbers) if numbers is not None else pairing_numbers(entrants)
    people: dict[str, _Entrant] = {}
    for e in entrants:
        if e.id in people:
            raise PairingError(f"entrant {e.id!r} is listed twice for round {number}")
        if e.id not in tpn:
            raise PairingError(f"entrant {e.id!r} has no pairing number")
        people[e.id] = _Entrant(e, tpn[e.id], points.get(e.id, 0.0), histories.get(e.id, ()))
    fixed_pairs, fixed_ids = _check_fixed(number, fixed, people, reason)
    ranked = sorted(
        (p for p in people.values() if p.id not in fixed_ids), key=lambda p: (-p.score, p.tpn)
    )
    for index, group in enumerate(_groups(ranked)):
        for person in group:
            person.group = index
    has_fixed_bye = any(white is None for _, white in fixed_pairs)
    bye: _Entrant | None = None
    pairs: list[tuple[_Entrant, _Entrant]] | None
    if len(ranked) % 2:
        if has_fixed_bye:
            raise PairingError(
                f"round {number}: a bye is already fixed by hand, but an odd number "
                f"({len(ranked)}) of entrants is left to pair"
            )
        pairs = None
        for candidate in reversed(ranked):
            if candidate.had_bye:
                continue
            pairs = _pair_all([p for p in ranked if p is not candidate])
            if pairs is not None:
                bye = candidate
                break
        if bye is None:
            raise PairingError(
                f"round {number} cannot be paired: no entrant without a bye can take it "
                "while the rest are paired without rematches or colour violations; pair by "
                "hand with a reason"
            )
    else:
        pairs = _pair_all(ranked)
    if pairs is None:
        raise PairingError(
            f"round {number} cannot be paired without a rematch or a colour violation "
            f"({len(ranked)} entrants left); pair by hand with a reason"
        )
    return _boards(number, pairs, bye, fixed_pairs, people, reason, initial_colour)


def _check_fixed(
    number: int,
    fixed: Sequence[tuple[str, str | None]],
    people: Mapping[str, _Entrant],
    reason: str | None,
) -> tuple[list[tuple[str, str | None]], set[str]]:
    if fixed and not (reason and reason.strip()):
        raise PairingError("a pairing made by hand needs a reason for the record")
    used: set[str] = set()
    byes = 0
    for black, white in fixed:
        for who in (black, white):
            if who is None:
                continue
            if who not in people:
                raise PairingError(
                    f"round {number}: {who!r} is not an entrant taking part in this round"
                )
            if who in used:
                raise PairingError(f"round {number}: {who!r} is in two hand-made pairings")
            used.add(who)
        if white is None:
            byes += 1
        elif black == white:
            raise PairingError(f"round {number}: {black!r} cannot play against themself")
    if byes > 1:
        raise PairingError(f"round {number}: at most one bye, but {byes} are fixed by hand")
    return list(fixed), used


def _boards(
    number: int,
    pairs: Sequence[tuple[_Entrant, _Entrant]],
    bye: _Entrant | None,
    fixed: Sequence[tuple[str, str | None]],
    people: Mapping[str, _Entrant],
    reason: str | None,
    initial: Colour,
) -> tuple[Pairing, ...]:
    """Boards in order: the highest score first, then the higher pairing number; the
    byes last."""
    rows: list[tuple[tuple[float, float, int], _Entrant, _Entrant, bool]] = []
    for a, b in pairs:
        high, low = sorted((a, b), key=lambda p: (-p.score, p.tpn))
        rows.append(((-high.score, -low.score, high.tpn), high, low, False))
    for black, white in fixed:
        if white is not None:
            high, low = sorted((people[black], people[white]), key=lambda p: (-p.score, p.tpn))
            rows.append(((-high.score, -low.score, high.tpn), people[black], people[white], True))
    rows.sort(key=lambda row: row[0])
    result: list[Pairing] = []
    for index, (_, a, b, manual) in enumerate(rows):
        if manual:
            result.append(Pairing(index + 1, a.id, b.id, manual_reason=reason))
        else:
            black, white = _allocate(a, b, index, initial)
            result.append(Pairing(index + 1, black, white))
    for black, white in fixed:
        if white is None:
            result.append(Pairing(len(result) + 1, black, None, manual_reason=reason))
    if bye is not None:
        result.append(Pairing(len(result) + 1, bye.id, None))
    return tuple(result)


def check_swiss_round(
    number: int,
    entrants: Sequence[SwissEntrant],
    histories: History,
    points: Mapping[str, float],
    pairings: Sequence[Pairing],
    numbers: Mapping[str, int] | None = None,
) -> list[str]:
    """Every absolute rule ``pairings`` break, in words (empty when the round is valid).

    Pairings fixed by hand (``manual_reason`` set) are reported like any other, so the
    record shows which rules a referee's decision set aside.
    """
    tpn = dict(numbers) if numbers is not None else pairing_numbers(entrants)
    active = {e.id for e in entrants}
    problems: list[str] = []
    seen: dict[str, int] = {}
    for p in pairings:
        for who in (p.first, p.second):
            if who is None:
                continue
            if who not in active:
                problems.append(f"board {p.board}: {who!r} is not taking part in round {number}")
            if who in seen:
                problems.append(f"{who!r} is paired twice (boards {seen[who]} and {p.board})")
            seen[who] = p.board
    for who in sorted(active - set(seen)):
        problems.append(f"{who!r} is not paired in round {number}")
    byes = [p for p in pairings if p.second is None]
    if len(byes) > 1:
        problems.append(f"round {number} has {len(byes)} byes")
    if byes and len(active) % 2 == 0:
        problems.append(f"round {number} has a bye although the field ({len(active)}) is even")
    for p in byes:
        entries = histories.get(p.first, ())
        if any(e.kind is EntryKind.BYE for e in entries):
            problems.append(f"{p.first!r} gets a second bye in round {number}")
        rank = (-points.get(p.first, 0.0), tpn.get(p.first, 0))
        for other in active:
            other_rank = (-points.get(other, 0.0), tpn.get(other, 0))
            if other_rank > rank and not any(
                e.kind is EntryKind.BYE for e in histories.get(other, ())
            ):
                problems.append(
                    f"the bye went to {p.first!r}, but {other!r} ranks lower and has had none"
                )
                break
    for p in pairings:
        if p.second is None:
            continue
        first_entries = histories.get(p.first, ())
        if any(e.played and e.opponent == p.second for e in first_entries):
            problems.append(f"board {p.board}: {p.first!r} and {p.second!r} have met before")
        for who, colour in ((p.first, Colour.BLACK), (p.second, Colour.WHITE)):
            colours = colour_history(histories.get(who, ()))
            if not colour_allowed(colours, colour):
                seq = "".join("B" if c is Colour.BLACK else "W" for c in (*colours, colour))
                problems.append(
                    f"board {p.board}: {who!r} would have the colours {seq} "
                    "(three in a row or a difference above 2)"
                )
    return problems
