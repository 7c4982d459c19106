"""The seeds' individual events as an organiser ends them, written for tests: the 2019
open's men's group (002) finished, with a tie on a prize place that only a playoff round
robin can settle.

The men's group has 50 entrants, so 12 prize places (002 八(一)). It is played as a round
robin (六(二): 瑞士制或循环制) because a round robin can be laid out so that three players
stay level after every tie-break of 六(四)1 — 积分, 小分 (Sonneborn-Berger), 胜局, 直胜:
the higher-rated player wins every game, except that 2 beats 3, 3 beats 4 and 4 beats 2.
Then 1 has 49 points alone, and 2, 3 and 4 each have 47 points, beat one of the other two
and 46 of the same players, so their Sonneborn-Berger, wins and direct encounter are equal
too: a three-way tie on place 2. Building 1,225 results by command would take minutes, so
the event is made as a value and stored, as the command stores it; everything after (the
playoffs, awards, certificates) goes through ``wuzi tournament``.
"""

from __future__ import annotations

from pathlib import Path

from wuzi.tournament.entrants import Group, Player, Sex
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.results import GameResult, MatchKind, RoundResult
from wuzi.tournament.store import TournamentStore

SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾"
    "肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
)
GIVEN = "明强伟军磊洋勇杰涛斌"
MEN_2019_NAME = "2019年全国五子棋公开赛 男子组"
# the cycle among pairing numbers 2, 3 and 4: (winner, loser)
CYCLE = {(2, 3), (3, 4), (4, 2)}


def chinese_names(count: int) -> list[str]:
    """``count`` different two-character names (王明, 李强, …)."""
    return [f"{SURNAMES[i % len(SURNAMES)]}{GIVEN[i // len(SURNAMES)]}" for i in range(count)]


def _winner(a: int, b: int) -> int:
    if (a, b) in CYCLE:
        return a
    if (b, a) in CYCLE:
        return b
    return min(a, b)


def men_2019(
    entrants: int = 50, group: Group = Group.MEN, name: str = MEN_2019_NAME
) -> Competition:
    """The men's group finished (module docstring); player k (pairing number k) is
    ``chinese_names(entrants)[k - 1]`` with ID ``m{k}``, rated 2400 − 10k. ``group`` and
    ``entrants``: another group of the open laid out the same way (a women's group's
    players are women)."""
    settings = EventSettings.create(Format.ROUND_ROBIN, name=name, group=group)
    comp = Competition(settings)
    sex = Sex.FEMALE if group is Group.WOMEN else Sex.MALE
    for k, player in enumerate(chinese_names(entrants), start=1):
        comp = comp.add_player(Player(f"m{k}", player, sex, 2400 - 10 * k), seed=k)
    number = {f"m{k}": k for k in range(1, entrants + 1)}
    while len(comp.rounds) < comp.round_count():
        comp = comp.pair()
        rnd = comp.rounds[-1]
        for p in rnd.pairings:
            if p.second is None:
                continue
            first, second = number[p.first], number[p.second]
            won = (GameResult.BLACK, GameResult.WHITE)  # the first-named Black in game 1
            games = won if _winner(first, second) == first else won[::-1]
            if settings.match is MatchKind.SINGLE:
                games = games[:1]  # else the open group's two games, colours swapped
            comp = comp.set_result(rnd.number, p.board, RoundResult(games))
    return comp


def men_2019_db(folder: Path, name: str = "men.db") -> Path:
    """The finished men's group stored as ``wuzi tournament new`` and its results would."""
    comp = men_2019()
    path = folder / name
    command = f"new --format=round-robin --group=men --name={MEN_2019_NAME} (seed_events)"
    TournamentStore(path).create(comp.settings, command, comp)
    return path
