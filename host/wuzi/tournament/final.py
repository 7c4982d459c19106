"""The final's sixteen teams from where they come, each typed once, in a bracket by lot.

The final (000 六(三)1: 16 teams) takes the semifinal's 8 winners (000 五(三)2) and the 8
direct places (000 五(三)1, ``direct``). What an organiser has at hand:

* the semifinal's database — its winners, with their players in board order, leaders and
  coaches, are taken from it as entered there, never typed again;
* the direct teams' entry forms (000 十(三): the units that qualified directly send their
  team's form) — one team CSV in the usual import columns (``team,board,name,sex,…``)
  whose ``club`` is the unit (the team's name when ``club`` is empty);
* optionally the list ``direct-qualifiers`` printed (``unit[,detail]`` a line): then
  every direct team's unit must be one of those units and every unit must have its team,
  so a form from the wrong unit, or a missing one, is caught before the final is made.

The bracket is drawn by lot (000 八(五): 抽签 by the competition department with the chief
referee): the seeds 1–16 are a shuffle of the 16 teams, from a recorded seed, and the
knockout's usual bracket (1 v 16, 8 v 9, …) then places them; ``draw_final_bracket`` is
the one function for that, and it uses ``draw.draw_bracket``, the lot every draw uses, so
anyone can re-derive the bracket from the printed seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from wuzi.tournament.direct import DIRECT_PLACES
from wuzi.tournament.entrants import Team
from wuzi.tournament.errors import CsvError, EntryError, PairingError, SettingsError
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.importer import import_entrants
from wuzi.tournament.semifinal import GROUP_SIZE, label


@dataclass(frozen=True)
class FinalTeam:
    """A team of the final and where its place comes from (for the desk and the log)."""

    team: Team
    source: str  # "semifinal match 3, public #3" / "direct, unit 杭州"


def unit_of(team: Team) -> str:
    """The unit (单位) a team represents: its club, else its name."""
    return team.club or team.name


def semifinal_winners(semi: Competition, where: str) -> list[FinalTeam]:
    """The winners of a finished semifinal, in match order."""
    if semi.settings.format is not Format.TEAM_SEMIFINAL:
        raise SettingsError(
            f"{where} is a {semi.settings.format.value} event; the final's entrants come from "
            "a team-semifinal"
        )
    if not semi.rounds or not semi.finished:
        open_matches = [
            f"match {p.board}"
            for rnd in semi.rounds
            for p in rnd.pairings
            if p.second is not None and semi.match_winner(p) is None
        ]
        what = ", ".join(open_matches) if open_matches else "it is not paired yet"
        raise PairingError(f"{where}: the semifinal is not finished ({what})")
    found: list[FinalTeam] = []
    for p in semi.rounds[0].pairings:
        winner = semi.match_winner(p)
        assert winner is not None
        entrant = semi.entrant(winner)
        assert entrant.team is not None and entrant.seed is not None
        found.append(FinalTeam(entrant.team, f"semifinal match {p.board}, {label(entrant.seed)}"))
    if len(found) != GROUP_SIZE:  # pragma: no cover - the semifinal's sheet has 8 matches
        raise PairingError(f"{where}: {len(found)} semifinal winners, not {GROUP_SIZE}")
    return found


def direct_teams(
    settings: EventSettings,
    lines: Iterable[str],
    what: str,
    units: Sequence[tuple[int, str]] | None = None,
    units_what: str = "",
) -> list[FinalTeam]:
    """The direct teams of a team CSV (file order), checked against ``units`` when given
    (``direct.read_units``: the list ``direct-qualifiers`` printed)."""
    comp = import_entrants(Competition(settings), lines, what=what)
    seeded = [e.name for e in comp.entrants if e.seed is not None]
    if seeded:
        raise CsvError(
            f"{what}, column 'seed': team {seeded[0]!r} has a seed; the final's bracket is "
            "drawn by lot (--draw-seed), so leave the seeds out"
        )
    teams = [e.team for e in comp.entrants if e.team is not None]
    if len(teams) != DIRECT_PLACES:
        raise CsvError(
            f"{what}: {len(teams)} teams; the final has {DIRECT_PLACES} direct places "
            "(000 五(三)1), one team each"
        )
    if units is not None:
        wanted = {unit: line for line, unit in units}
        by_unit: dict[str, str] = {}
        for team in teams:
            unit = unit_of(team)
            if unit not in wanted:
                raise CsvError(
                    f"{what}: team {team.name!r} is of unit {unit!r}, which has no direct place "
                    f"in {units_what} ({', '.join(wanted)})"
                )
            if unit in by_unit:
                raise CsvError(
                    f"{what}: teams {by_unit[unit]!r} and {team.name!r} are both of unit "
                    f"{unit!r}; a unit has one direct place (000 五(三)1)"
                )
            by_unit[unit] = team.name
        for unit, line in wanted.items():
            if unit not in by_unit:
                raise CsvError(
                    f"{units_what} line {line}: unit {unit!r} has no team in {what} (a team's "
                    "unit is its club column, else its name)"
                )
    return [FinalTeam(t, f"direct, unit {unit_of(t)}") for t in teams]


def draw_final_bracket(ids: Sequence[str], seed: int) -> tuple[str, ...]:
    """The teams in seed order (seed 1 first), drawn by lot from ``seed``; the bracket
    (1 v 16, 8 v 9, …) follows from the seeds (``knockout.bracket_order``)."""
    from wuzi.tournament.draw import draw_bracket  # the lot every draw uses

    return draw_bracket(ids, seed)


def final_field(
    settings: EventSettings, teams: Sequence[FinalTeam], seed: int
) -> tuple[Competition, tuple[FinalTeam, ...]]:
    """The final's competition with ``teams`` entered and seeded by lot, and the teams in
    seed order. A team entered twice (a direct team that also won the semifinal, a player
    in two teams) is an error naming both sources."""
    if settings.format is not Format.TEAM_KNOCKOUT_PLACEMENT:
        raise SettingsError(
            f"the final's entrants make a team-knockout-placement, not a {settings.format.value}"
        )
    comp = Competition(settings)
    placed: list[FinalTeam] = []
    for entry in teams:
        try:
            comp = comp.add_team(entry.team)
        except EntryError as exc:
            clash = _clash(placed, entry.team)
            raise EntryError(
                f"{entry.source}: {exc}"
                + (
                    f" — already in the final from {clash}; a team plays the final once"
                    if clash
                    else ""
                )
            ) from None
        placed.append(entry)
    order = draw_final_bracket([e.id for e in comp.entrants], seed)
    seed_of = {who: i + 1 for i, who in enumerate(order)}
    comp = replace(comp, entrants=tuple(replace(e, seed=seed_of[e.id]) for e in comp.entrants))
    by_id = {t.team.id: t for t in placed}
    return comp, tuple(by_id[who] for who in order)


def _clash(placed: Sequence[FinalTeam], team: Team) -> str | None:
    players = {p.id for p in team.players}
    for other in placed:
        if other.team.name == team.name or players & {p.id for p in other.team.players}:
            return other.source
    return None
