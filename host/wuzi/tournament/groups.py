"""The 2019 open's groups as its regulation defines them (002 六(一), 六(三)).

* **Men's and women's groups** (六(一)1, 六(三)1): the 2013 rules with Black's forbidden
  moves (renju), designated openings (指定开局), single games, 60 minutes each, a flag
  loses (``3600``).
* **Open group** (六(一)2, 六(三)2): free opening (自由开局), no forbidden moves, two-game
  rounds with the colours swapped (the first mover Black in game 1, 双局制), the two
  games together the round's result, 60 minutes each sudden death (包干), and a flag
  while game 1 is still running loses the whole round (``flag:COLOUR``, ``results``).

``new --group G`` takes the group's settings for whatever is not given; a setting given
that contradicts the group (renju rules in the open group, a free opening in the men's
group) is refused with an error naming both and the clause, unless ``--allow`` says it is
meant (a venue's own variant). A free opening with renju rules is refused the same way
with no group: renju games open by the designated openings in both seeds (002 六(一)1,
000 六(三)2). The time control is not checked against the group: 六(三)3 lets a large
group play less (如某一组别参赛人数较多则适当调整比赛用时). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.rules.ruleset import RuleSet
from wuzi.tournament.entrants import Group
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.results import MatchKind

__all__ = ["GROUP_RULES", "GroupRules", "check_against_group", "group_rules"]


@dataclass(frozen=True)
class GroupRules:
    """What a group of the 2019 open plays, and the clauses that say so."""

    match: MatchKind
    rules: str
    opening: str
    time_control: str
    clause: str


GROUP_RULES = {
    Group.MEN: GroupRules(MatchKind.SINGLE, "renju", "designated", "3600", "002 六(一)1, 六(三)1"),
    Group.WOMEN: GroupRules(
        MatchKind.SINGLE, "renju", "designated", "3600", "002 六(一)1, 六(三)1"
    ),
    Group.OPEN: GroupRules(
        MatchKind.TWO_GAME, "no-forbidden", "free", "3600", "002 六(一)2, 六(三)2"
    ),
}
GROUP_NAMES = {Group.MEN: "the men's group", Group.WOMEN: "the women's group",
               Group.OPEN: "the open group"}  # fmt: skip


def group_rules(group: Group) -> GroupRules:
    return GROUP_RULES[group]


def check_against_group(
    group: Group | None, match: MatchKind, rules: str, opening: str, allow: bool
) -> None:
    """Refuse settings that contradict the group (module docstring) unless ``allow``;
    ``rules`` is the rule set's canonical text (``str(RuleSet)``)."""
    if allow:
        return
    hint = "; add --allow if that is meant"
    if group is not None:
        want = GROUP_RULES[group]
        name = GROUP_NAMES[group]
        for option, given, wanted, same in (
            ("--rules", rules, want.rules, rules == str(RuleSet.parse(want.rules))),
            ("--opening", opening, want.opening, opening == want.opening),
            ("--match", match.value, want.match.value, match is want.match),
        ):
            if not same:
                raise SettingsError(
                    f"{option} {given} contradicts --group {group.value}: {name} plays "
                    f"{option} {wanted} ({want.clause}){hint}"
                )
    if rules == "renju" and opening == "free":
        raise SettingsError(
            "--opening free contradicts --rules renju: renju games use the designated "
            f"openings (002 六(一)1, 000 六(三)2){hint}"
        )
