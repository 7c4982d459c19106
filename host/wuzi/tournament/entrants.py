"""Entrants: players, teams with a fixed board order, and the groups they may enter.

The rules come from the two regulations (docs/tournament.md):

* a team is three players in a board order declared at entry and kept for the whole
  event: board 1 is the captain (主将), board 3 is a woman;
* the open's groups are men's, women's and open; a woman rated 1600 or more may enter the
  men's group, and nobody else crosses (the open group takes anyone).

Names, IDs, clubs, leaders and coaches hold no control, line-break or invisible format
characters and are at most ``NAME_MAX`` characters (``names.check_name``), checked when a
``Player`` or ``Team`` is made, so no way in can skip it.

A violation raises ``EntryError`` naming the entrant and the rule.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from wuzi.tournament.errors import EntryError
from wuzi.tournament.names import check_name

MEN_GROUP_MIN_WOMAN_RATING = 1600
TEAM_SIZE = 3
WOMAN_BOARD = 3  # board 3 is a woman's (第三台为女棋手)
CAPTAIN_BOARD = 1  # board 1 is the captain (第1台为主将)


class Sex(enum.Enum):
    MALE = "m"
    FEMALE = "f"

    @classmethod
    def parse(cls, text: str) -> Sex:
        key = text.strip().lower()
        if key in ("m", "male", "man", "男"):
            return cls.MALE
        if key in ("f", "w", "female", "woman", "女"):
            return cls.FEMALE
        raise EntryError(f"sex must be m or f (male/female, 男/女), not {text!r}")


class Group(enum.Enum):
    MEN = "men"
    WOMEN = "women"
    OPEN = "open"

    @classmethod
    def parse(cls, text: str) -> Group:
        key = text.strip().lower()
        aliases = {"men": cls.MEN, "男子组": cls.MEN, "women": cls.WOMEN, "女子组": cls.WOMEN}
        aliases |= {"open": cls.OPEN, "公开组": cls.OPEN}
        if key not in aliases:
            raise EntryError(f"group must be men, women or open, not {text!r}")
        return aliases[key]


@dataclass(frozen=True)
class Player:
    """A player; ``id`` is the key every pairing and result uses (the name if none given)."""

    id: str
    name: str
    sex: Sex
    rating: int = 0
    club: str = ""

    def __post_init__(self) -> None:
        check_name("player name", self.name)
        check_name(f"player {self.name!r}: ID", self.id)
        check_name(f"player {self.name!r}: club", self.club, allow_empty=True)
        if not 0 <= self.rating <= 4000:
            raise EntryError(f"player {self.name!r}: rating {self.rating} is not 0–4000")

    @property
    def label(self) -> str:
        return self.name if self.name == self.id else f"{self.name} ({self.id})"


@dataclass(frozen=True)
class Team:
    """A team of three in its board order (``players[0]`` is board 1, the captain)."""

    id: str
    name: str
    players: tuple[Player, ...]
    leader: str = ""
    coach: str = ""
    club: str = field(default="")

    def __post_init__(self) -> None:
        check_team(self)

    @property
    def captain(self) -> Player:
        return self.players[CAPTAIN_BOARD - 1]

    def board(self, number: int) -> Player:
        """The player on board ``number`` (1–3)."""
        if not 1 <= number <= TEAM_SIZE:
            raise EntryError(f"team {self.name!r} has boards 1–{TEAM_SIZE}, not {number}")
        return self.players[number - 1]

    @property
    def rating(self) -> int:
        """The mean rating of the three boards (used for seeding and simulations)."""
        return round(sum(p.rating for p in self.players) / len(self.players))


def check_team(team: Team) -> None:
    """Raise ``EntryError`` unless ``team`` has three distinct players, a woman on board 3."""
    check_name("team name", team.name)
    check_name(f"team {team.name!r}: ID", team.id)
    for role, value in (("leader", team.leader), ("coach", team.coach), ("club", team.club)):
        check_name(f"team {team.name!r}: {role}", value, allow_empty=True)
    if len(team.players) != TEAM_SIZE:
        raise EntryError(
            f"team {team.name!r} has {len(team.players)} players; a team is exactly "
            f"{TEAM_SIZE} in board order (board 1 the captain, board 3 a woman; 000 五(一)3)"
        )
    ids = [p.id for p in team.players]
    for i, pid in enumerate(ids):
        if pid in ids[:i]:
            raise EntryError(f"team {team.name!r} lists player {pid!r} on two boards")
    woman = team.players[WOMAN_BOARD - 1]
    if woman.sex is not Sex.FEMALE:
        raise EntryError(
            f"team {team.name!r}: board {WOMAN_BOARD} must be a woman, but "
            f"{woman.label} is entered as male (000 五(一)3: 女选手在第三台)"
        )


def check_group(player: Player, group: Group) -> None:
    """Raise ``EntryError`` unless ``player`` may enter ``group``."""
    if group is Group.OPEN:
        return
    if group is Group.WOMEN and player.sex is not Sex.FEMALE:
        raise EntryError(
            f"{player.label} may not enter the women's group: it is for women only (002 五(二))"
        )
    if (
        group is Group.MEN
        and player.sex is Sex.FEMALE
        and player.rating < MEN_GROUP_MIN_WOMAN_RATING
    ):
        raise EntryError(
            f"{player.label} may not enter the men's group: a woman needs a rating of "
            f"{MEN_GROUP_MIN_WOMAN_RATING} or more (hers is {player.rating}; 002 五(二))"
        )


def check_unique(players: Iterable[Player], teams: Sequence[Team] = ()) -> None:
    """Raise ``EntryError`` if an ID is used twice or a player is in two teams."""
    seen: dict[str, str] = {}
    for team in teams:
        if team.id in seen:
            raise EntryError(f"ID {team.id!r} is used twice ({seen[team.id]} and team)")
        seen[team.id] = f"team {team.name!r}"
    for player in [*players, *(p for t in teams for p in t.players)]:
        if player.id in seen:
            raise EntryError(
                f"player ID {player.id!r} is already used by {seen[player.id]}; "
                "each player enters once"
            )
        seen[player.id] = f"player {player.name!r}"
