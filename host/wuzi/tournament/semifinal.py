"""The 2021 championship's semifinal (复赛): one round, the public group's #k against the
professional group's #(9−k).

The regulation (000 五(二), 六(二)): the top eight of each preliminary group — the public
group (大众场规则) and the professional group (专业场规则) — play one round; the public
group's 1st meets the professional group's 8th, its 2nd the 7th, and so on; three boards,
board 3 a woman, board 1 the captain; more game points wins, a tie goes to the captains'
playoff. The eight winners go to the final (000 五(三)2).

So the semifinal is one round of a knockout whose only pairing is the cross pairing
(``knockout.cross_pairing``); ``event.Competition`` plays it as a knockout (a match needs a
winner, the playoff is the knockout's) with the pool this module builds.

An entrant's ``seed`` is its line on the semifinal's sheet: the public group's #k is seed
k, the professional group's #k is seed 8 + k. That keeps the database as it is (one seed
per entrant, unique) while the group and the place in it are always known (``sheet_seed``,
``group_place``). The public team is named first, so it moves first (Black on boards 1 and
3): the regulation does not say who moves first; a draw of lots may swap it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence

from wuzi.tournament.entrants import Team
from wuzi.tournament.errors import EntryError, PairingError
from wuzi.tournament.knockout import cross_pairing

GROUP_SIZE = 8
"""Each preliminary group sends its top eight (000 五(一)1, 2; 五(二))."""
SHEET_SIZE = 2 * GROUP_SIZE


class PreliminaryGroup(enum.Enum):
    PUBLIC = "public"  # 大众场规则
    PRO = "pro"  # 专业场规则

    @property
    def chinese(self) -> str:
        return "大众场" if self is PreliminaryGroup.PUBLIC else "专业场"

    @classmethod
    def parse(cls, text: str) -> PreliminaryGroup:
        key = text.strip().lower()
        aliases = {"public": cls.PUBLIC, "大众": cls.PUBLIC, "大众场": cls.PUBLIC}
        aliases |= {"pro": cls.PRO, "专业": cls.PRO, "专业场": cls.PRO}
        if key not in aliases:
            raise EntryError(
                f"a semifinal group is public (大众场) or pro (专业场), not {text.strip()!r}"
            )
        return aliases[key]


def sheet_seed(group: PreliminaryGroup, place: int) -> int:
    """The seed of the group's #``place`` on the semifinal's sheet."""
    if not 1 <= place <= GROUP_SIZE:
        raise EntryError(
            f"a place in the {group.value} group's preliminary is 1 to {GROUP_SIZE} (its top "
            f"{GROUP_SIZE} play the semifinal), not {place}"
        )
    return place if group is PreliminaryGroup.PUBLIC else GROUP_SIZE + place


def group_place(seed: int) -> tuple[PreliminaryGroup, int]:
    """The group and the place in it of a seed on the sheet (``sheet_seed`` reversed)."""
    if not 1 <= seed <= SHEET_SIZE:
        raise EntryError(f"a semifinal seed is 1 to {SHEET_SIZE}, not {seed}")
    if seed <= GROUP_SIZE:
        return PreliminaryGroup.PUBLIC, seed
    return PreliminaryGroup.PRO, seed - GROUP_SIZE


def label(seed: int) -> str:
    """``public #3`` — how an organiser names a semifinal team's place."""
    group, place = group_place(seed)
    return f"{group.value} #{place}"


def check_entry(name: str, seed: int | None) -> None:
    """A semifinal team enters with its group and place (an ``EntryError`` otherwise)."""
    if seed is None:
        raise EntryError(
            f"team {name!r}: a semifinal team needs its preliminary group and place "
            "(import: columns group and seed; add-team: --group public|pro --seed K)"
        )
    try:
        group_place(seed)
    except EntryError as exc:
        raise EntryError(f"team {name!r}: {exc}") from None


def check_unit(
    team: Team, seed: int | None, entered: Sequence[tuple[Team | None, int | None]]
) -> None:
    """000 五(一)2: a unit (the team's club: a province, city, association…) enters the
    professional group's preliminary with one team (每单位限报1支队伍), so two pro teams
    of one unit in the semifinal are an error naming both. The public group has no such
    limit (五(一)1); a team without a unit is not checked."""
    if seed is None or not team.club or group_place(seed)[0] is not PreliminaryGroup.PRO:
        return
    for other, other_seed in entered:
        if other is None or other_seed is None or other.club != team.club:
            continue
        if group_place(other_seed)[0] is PreliminaryGroup.PRO:
            raise EntryError(
                f"team {team.name!r}: its unit {team.club} already has a professional "
                f"team, {other.name!r} ({label(other_seed)}); 000 五(一)2: 每单位限报1支队伍"
            )


def semifinal_slots(seeds: Mapping[str, int | None]) -> tuple[str, ...]:
    """The round's pool in match order: public #1, pro #8, public #2, pro #7, …; every
    entrant ID → its seed. ``PairingError`` naming every place still empty."""
    by_seed = {s: who for who, s in seeds.items() if s is not None}
    missing = [label(s) for s in range(1, SHEET_SIZE + 1) if s not in by_seed]
    if missing:
        raise PairingError(
            f"the semifinal needs the top {GROUP_SIZE} of both groups (000 五(二)); no team "
            f"is entered as {', '.join(missing)}"
        )
    public = [by_seed[k] for k in range(1, GROUP_SIZE + 1)]
    pro = [by_seed[GROUP_SIZE + k] for k in range(1, GROUP_SIZE + 1)]
    return tuple(who for pair in cross_pairing(public, pro) for who in pair)
