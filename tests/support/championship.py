"""Files an organiser of the 2021 championship has at hand, written for tests: the
semifinal's teams (the preliminary's top 8 of each group), last year's men's and women's
team results, the direct teams' entry forms."""

from __future__ import annotations

from pathlib import Path

TEAM_HEADER = "team,board,name,sex,rating,id,club"


def team_rows(team: str, club: str = "", rating: int = 1800, extra: str = "") -> list[str]:
    """The three rows of a team (board 3 a woman); ``extra`` is appended to each row."""
    return [
        f"{team},1,{team}主将,m,{rating + 100},{team}-1,{club}{extra}",
        f"{team},2,{team}二台,m,{rating},{team}-2,{club}{extra}",
        f"{team},3,{team}三台,f,{rating - 100},{team}-3,{club}{extra}",
    ]


def semifinal_team(group: str, place: int) -> str:
    return f"{'众' if group == 'public' else '专'}{place}"


def semifinal_csv(folder: Path, name: str = "semi.csv") -> Path:
    """16 teams: public #1–8 (众1…众8) and pro #1–8 (专1…专8), rows grouped by team."""
    lines = [f"{TEAM_HEADER},group,seed"]
    for group in ("public", "pro"):
        for place in range(1, 9):
            team = semifinal_team(group, place)
            lines += team_rows(team, f"{team}市", 2000 - place * 10, f",{group},{place}")
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def places_csv(folder: Path, name: str, units: list[str]) -> Path:
    """Last year's team results: ``place,unit``, places 1, 2, … in list order."""
    path = folder / name
    rows = ["place,unit", *(f"{i},{unit}" for i, unit in enumerate(units, start=1))]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


# last year's results: 杭州 and 上海 have both a men's and a women's top-4 team, so the
# men's 5th (广州) and the women's 5th (成都) get their places
MEN_2020 = ["杭州", "上海", "北京", "天津", "广州", "南京", "武汉"]
WOMEN_2020 = ["深圳", "杭州", "西安", "上海", "成都", "重庆", "长沙"]
DIRECT_2021 = ["杭州", "深圳", "上海", "北京", "西安", "天津", "广州", "成都"]
DIRECT_DETAIL = [
    "men 1",
    "women 1",
    "men 2",
    "men 3",
    "women 3",
    "men 4",
    "men 5",
    "women 5",
]


def direct_teams_csv(folder: Path, units: list[str], name: str = "direct.csv") -> Path:
    """The direct teams' entry forms: one team per unit, named ``<unit>队``, club the unit."""
    lines = [TEAM_HEADER]
    for i, unit in enumerate(units):
        lines += team_rows(f"{unit}队", unit, 2100 - i * 10)
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
