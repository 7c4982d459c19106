"""Standings: points, then the event's tie-breaks in order, then shared places or playoffs.

Entrants are sorted by points, then by each tie-break of the event's order (``tiebreaks``).
Entrants still level after all of them share the place — unless the tie touches a prize
place: then a place playoff decides (``playoff``; 002 六(四)1–3). Two level play one
playoff match. Three or more play every pair of the group (a playoff round robin) and are
placed by the matches won in it; those still level are placed again by the matches among
themselves alone (the rule applied again). Nobody is placed by a playoff until every match
of their group is decided: after only A–B of a three-way tie, A, B and C still share the
place, so a partial round robin never hands out a place the games have not settled. A tie
needing a playoff is reported in ``Standings.playoffs_needed`` and the matches it still
owes in ``Standings.playoffs_owed``. A cycle (A beat B, B beat C, C beat A in the playoff)
stays level: the regulation's next step, another playoff round robin among them, is for
the chief referee (docs/tournament.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from wuzi.tournament.history import History, totals
from wuzi.tournament.tiebreaks import Tiebreak, compute_all, direct_encounter


@dataclass(frozen=True)
class StandingRow:
    place: int
    entrant: str
    points: float
    tiebreaks: Mapping[Tiebreak, float]
    shared: bool  # the place is shared with the entrants next to it
    playoff_needed: bool  # level on a prize place: a playoff must decide


@dataclass(frozen=True)
class TiePlayoff:
    """A place playoff played between two tied entrants, won by ``winner``."""

    first: str
    second: str
    winner: str


@dataclass(frozen=True)
class Standings:
    rows: tuple[StandingRow, ...]
    order: tuple[Tiebreak, ...]
    prize_places: int
    # (place, first, second): a playoff match a tie on a prize place still needs, the
    # first-named the higher in the standings' order (Black in playoff game 1)
    playoffs_owed: tuple[tuple[int, str, str], ...] = ()

    @property
    def playoffs_needed(self) -> list[tuple[int, tuple[str, ...]]]:
        """Every tie on a prize place still to be decided: (place, the tied entrants)."""
        found: dict[int, list[str]] = {}
        for row in self.rows:
            if row.playoff_needed:
                found.setdefault(row.place, []).append(row.entrant)
        return [(place, tuple(who)) for place, who in sorted(found.items())]


def compute_standings(
    histories: History,
    order: Sequence[Tiebreak],
    prize_places: int = 0,
    playoffs: Sequence[TiePlayoff] = (),
    display_order: Mapping[str, int] | None = None,
    final: bool = True,
) -> Standings:
    """Rank every entrant of ``histories``.

    ``display_order`` (pairing numbers, say) orders entrants who share a place; by
    default their IDs do. A tie on a prize place needs a playoff only in the ``final``
    standings (after the last round).
    """
    points = totals(histories)
    values = compute_all(histories, points)
    rank_of = display_order or {}

    def stable(entrant: str) -> tuple[int, str]:
        return (rank_of.get(entrant, 0), entrant)

    groups: list[list[str]] = []
    for entrant in sorted(points, key=lambda e: (-points[e], stable(e))):
        if groups and points[groups[-1][0]] == points[entrant]:
            groups[-1].append(entrant)
        else:
            groups.append([entrant])
    encounter: dict[str, float] = {}
    for tiebreak in order:
        refined: list[list[str]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if tiebreak is Tiebreak.DIRECT_ENCOUNTER:
                found = direct_encounter(group, histories)
                encounter.update(found)
                key = found
            else:
                key = {e: values[e][tiebreak] for e in group}
            refined.extend(_split(group, key, stable))
        groups = refined
    if playoffs:
        groups = [part for group in groups for part in _apply_playoffs(group, playoffs, stable)]
    decided = {frozenset((p.first, p.second)) for p in playoffs}
    rows: list[StandingRow] = []
    owed: list[tuple[int, str, str]] = []
    for group in groups:
        place = len(rows) + 1
        tied = len(group) > 1
        if final and tied and place <= prize_places:
            owed.extend(
                (place, a, b) for a, b in combinations(group, 2) if frozenset((a, b)) not in decided
            )
        for entrant in group:
            tb = dict(values[entrant])
            tb[Tiebreak.DIRECT_ENCOUNTER] = encounter.get(entrant, 0.0)
            rows.append(
                StandingRow(
                    place,
                    entrant,
                    points[entrant],
                    tb,
                    shared=tied,
                    playoff_needed=final and tied and place <= prize_places,
                )
            )
    if Tiebreak.DIRECT_ENCOUNTER not in order:
        rows = _with_points_encounter(rows, histories)
    return Standings(tuple(rows), tuple(order), prize_places, tuple(owed))


Stable = Callable[[str], tuple[int, str]]


def _split(group: list[str], key: Mapping[str, float], stable: Stable) -> list[list[str]]:
    ordered = sorted(group, key=lambda e: (-key[e], stable(e)))
    parts: list[list[str]] = []
    for entrant in ordered:
        if parts and key[parts[-1][0]] == key[entrant]:
            parts[-1].append(entrant)
        else:
            parts.append([entrant])
    return parts


def _apply_playoffs(
    group: list[str], playoffs: Sequence[TiePlayoff], stable: Stable
) -> list[list[str]]:
    """Split a tied group by its playoff round robin, once every match of it is decided
    (module docstring); a group still missing one stays whole."""
    if len(group) < 2:
        return [group]
    winners = {frozenset((p.first, p.second)): p.winner for p in playoffs}
    if any(frozenset(pair) not in winners for pair in combinations(group, 2)):
        return [group]
    return _by_playoff_wins(group, winners, stable)


def _by_playoff_wins(
    group: list[str], winners: Mapping[frozenset[str], str], stable: Stable
) -> list[list[str]]:
    """Order ``group`` (every pair decided) by matches won among its own members, then
    each part still level by the matches among that part alone; a part the games cannot
    split any further (a cycle) stays level."""
    won = dict.fromkeys(group, 0.0)
    for pair in combinations(group, 2):
        won[winners[frozenset(pair)]] += 1
    parts = _split(group, won, stable)
    if len(parts) == 1:
        return parts
    result: list[list[str]] = []
    for part in parts:
        result.extend(_by_playoff_wins(part, winners, stable) if len(part) > 1 else [part])
    return result


def _with_points_encounter(rows: list[StandingRow], histories: History) -> list[StandingRow]:
    """Fill in direct encounter among the entrants level on points (for display) when it
    is not one of the event's tie-breaks."""
    by_points: dict[float, list[str]] = {}
    for row in rows:
        by_points.setdefault(row.points, []).append(row.entrant)
    encounter: dict[str, float] = {}
    for group in by_points.values():
        if len(group) > 1:
            encounter.update(direct_encounter(group, histories))
    result = []
    for row in rows:
        tb = dict(row.tiebreaks)
        tb[Tiebreak.DIRECT_ENCOUNTER] = encounter.get(row.entrant, 0.0)
        result.append(
            StandingRow(row.place, row.entrant, row.points, tb, row.shared, row.playoff_needed)
        )
    return result
