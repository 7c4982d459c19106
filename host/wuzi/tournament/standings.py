"""Standings: points, then the event's tie-breaks in order, then shared places or playoffs.

Entrants are sorted by points, then by each tie-break of the event's order (``tiebreaks``).
Entrants still level after all of them share the place — unless the tie touches a prize
place: then a place playoff decides (``playoff``), and once its results are in, the winners
of the playoffs among the tied entrants go first (for three or more, by the number of
playoff matches won among them). A tie needing a playoff that has not been played is
reported in ``Standings.playoffs_needed``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

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
    rows: list[StandingRow] = []
    for group in groups:
        place = len(rows) + 1
        tied = len(group) > 1
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
    return Standings(tuple(rows), tuple(order), prize_places)


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
    if len(group) < 2:
        return [group]
    members = set(group)
    won = dict.fromkeys(group, 0.0)
    relevant = False
    for playoff in playoffs:
        if playoff.first in members and playoff.second in members:
            won[playoff.winner] += 1
            relevant = True
    return _split(group, won, stable) if relevant else [group]


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
