"""The semifinal's sixteen from the preliminary's exports, without retyping the ranking.

000 五(二): the top 8 of the public group's preliminary (大众场) and of the professional
group's (专业场) play the semifinal, public #k v pro #(9−k). The organisers have each
group's ranking as ``wuzi tournament preliminary … --group G --json`` printed it (the
*export*: ``group``, ``seed``, ``lots`` and ``ranking`` with ``place``, ``team`` and
``qualifies``) and the teams' entry forms (000 十(一): the import's team columns, three
players in board order, ``club`` = the unit). ``semifinal_start`` takes each group's
qualifying teams **in their ranking**, enters each with its group and place (the sheet's
seed), so nobody types a place, and every entry rule is checked as the teams go in (a
woman on board 3, one professional team per unit: ``Competition.add_team``).

The lots the preliminary drew for a tie on a qualifying place (000 六(一)1(6)) come along:
``PreliminaryLot`` records, stored with the semifinal as draws of the kind ``preliminary``
(the seed, who asked, the order drawn), so ``draw list`` shows them beside the other lots.
Errors name the file and what is wrong; nothing is stored then. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from wuzi.tournament.errors import CsvError, EntryError, SettingsError
from wuzi.tournament.event import Competition
from wuzi.tournament.importer import import_entrants
from wuzi.tournament.registration import Window
from wuzi.tournament.semifinal import GROUP_SIZE, PreliminaryGroup, sheet_seed
from wuzi.tournament.settings import EventSettings, Format

__all__ = ["GroupExport", "PreliminaryLot", "parse_export", "semifinal_start"]


@dataclass(frozen=True)
class PreliminaryLot:
    """The lots one group's preliminary drew: its seed and the places they decided."""

    group: PreliminaryGroup
    seed: int
    drawn: tuple[tuple[int, str], ...]  # (place, team)
    source: str


@dataclass(frozen=True)
class GroupExport:
    group: PreliminaryGroup
    qualified: tuple[str, ...]  # team names, place 1 first
    lot: PreliminaryLot | None


def parse_export(data: Any, what: str) -> GroupExport:
    """One group's preliminary export (``preliminary --json``), checked."""
    if not isinstance(data, Mapping) or not isinstance(data.get("ranking"), list):
        raise SettingsError(f"{what}: not the preliminary's export (wuzi tournament "
                            "preliminary … --group G --json)")  # fmt: skip
    if not isinstance(data.get("group"), str):
        raise SettingsError(
            f"{what}: the export names no group; make it with preliminary … --group public|pro"
        )
    try:
        group = PreliminaryGroup.parse(data["group"])
    except EntryError as exc:
        raise SettingsError(f"{what}: {exc}") from None
    places: dict[int, str] = {}
    for row in data["ranking"]:
        if not isinstance(row, Mapping) or not row.get("qualifies"):
            continue
        place, team = row.get("place"), row.get("team")
        if not isinstance(place, int) or not isinstance(team, str) or place in places:
            raise SettingsError(f"{what}: a qualifying row has no single place and team: {row}")
        places[place] = team
    wanted = list(range(1, GROUP_SIZE + 1))
    if sorted(places) != wanted:
        raise SettingsError(
            f"{what}: the {group.value} group's qualifying places are "
            f"{sorted(places) or 'none'}, not 1–{GROUP_SIZE} (000 五(二): the top 8 each)"
        )
    lot = None
    lots = data.get("lots") or []
    seed = data.get("seed")
    if lots:
        if not isinstance(seed, int):
            raise SettingsError(f"{what}: lots without their seed")
        drawn = tuple(_lot_row(r, what) for r in lots)
        lot = PreliminaryLot(group, seed, drawn, what)
    return GroupExport(group, tuple(places[p] for p in wanted), lot)


def _lot_row(row: object, what: str) -> tuple[int, str]:
    """A drawn lot as the export holds it: a JSON whole number ``place`` (not the text
    ``"٣"``, which int() would read as 3) and a ``team`` name."""
    place = row.get("place") if isinstance(row, dict) else None
    team = row.get("team") if isinstance(row, dict) else None
    if type(place) is not int or not isinstance(team, str):
        raise SettingsError(f"{what}: a lot is not a place (a whole number) and a team: {row}")
    return place, team


def semifinal_start(
    settings: EventSettings,
    exports: Sequence[GroupExport],
    rosters: Iterable[str],
    rosters_what: str,
    registration: Window | None = None,
) -> Competition:
    """The semifinal with its 16 teams: public #1–8, then pro #1–8, from ``exports`` (one
    per group) and the teams' entry forms (``rosters``: a team CSV with every team,
    other teams ignored)."""
    if settings.format is not Format.TEAM_SEMIFINAL:
        raise SettingsError(
            "--entrants-from-preliminary makes the semifinal: --format team-semifinal, "
            f"not {settings.format.value}"
        )
    groups = [e.group for e in exports]
    if sorted(g.value for g in groups) != sorted(g.value for g in PreliminaryGroup):
        names = ", ".join(g.value for g in groups) or "none"
        raise SettingsError(
            "--entrants-from-preliminary: give the public and the professional group's "
            f"exports, one each (given: {names})"
        )
    scratch = EventSettings.create(Format.TEAM_KNOCKOUT_PLACEMENT, name=settings.name)
    # the registration window is checked for every form in the file, qualified or not: a
    # late form is not taken whoever it is for
    entered = import_entrants(
        Competition(scratch), rosters, what=rosters_what, registration=registration
    )
    forms = {e.team.name: e.team for e in entered.entrants if e.team is not None}
    comp = Competition(settings)
    for export in sorted(exports, key=lambda e: e.group is PreliminaryGroup.PRO):
        for place, name in enumerate(export.qualified, start=1):
            team = forms.get(name)
            if team is None:
                raise CsvError(
                    f"{rosters_what}: no entry form for {name!r} ({export.group.value} "
                    f"#{place} of the preliminary); the file has {len(forms)} teams"
                )
            comp = comp.add_team(team, sheet_seed(export.group, place))
    return comp
