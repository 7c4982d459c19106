"""Dan and kyu titles (段位、级位) for the place winners of an event.

002 八(五): 在比赛中男子、女子组获得名次的棋手可按《中国五子棋段级位制》(试行)的规定获得相应的
中国五子棋段、级位称号 — the players placed (获得名次: the prize places of 八(一), top 12 /
10 / 8 by entries) in the **men's and women's groups** may receive Chinese Gomoku dan and
kyu titles as that regulation provides. The open group is not named: no titles. 000
九(二): the team final is rated but awards no titles (不授予运动员等级称号).

**Assumption.** The regulation the clause refers to, 《中国五子棋段级位制》(试行), is not
among the seeds, so which place earns which title is not known here. Wuzi's default table
(``DEFAULT_TABLE``) is an assumption to be replaced by the organisers' own — ``titles
--table FILE.csv`` with the header ``from,to,title`` (places, inclusive; the first row
that holds a place gives its title) — before anything is printed on a certificate:

====== ================
places title
====== ================
1      三段 (3 dan)
2–3    二段 (2 dan)
4–8    初段 (1 dan)
9–12   一级 (1 kyu)
====== ================

Only the prize places (八(一)) get a title, whatever the table says beyond them; a shared
place gives each holder its title; a place that still needs its playoff (六(四)) gives
none until it is played. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wuzi.base.numbers import NumberError, parse_int
from wuzi.tournament.entrants import Group
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.event import Competition
from wuzi.tournament.names import check_name

__all__ = ["DEFAULT_TABLE", "TitleRow", "TitleRule", "Titles", "award_titles", "parse_table"]


@dataclass(frozen=True)
class TitleRule:
    """Places ``first``–``last`` (inclusive) earn ``title``."""

    first: int
    last: int
    title: str


DEFAULT_TABLE = (
    TitleRule(1, 1, "三段 (3 dan)"),
    TitleRule(2, 3, "二段 (2 dan)"),
    TitleRule(4, 8, "初段 (1 dan)"),
    TitleRule(9, 12, "一级 (1 kyu)"),
)
"""The assumed table (module docstring): replace it with ``--table``."""

BASIS = "002 八(五): 《中国五子棋段级位制》(试行)"


@dataclass(frozen=True)
class TitleRow:
    place: int
    shared: bool
    id: str
    name: str
    title: str


@dataclass(frozen=True)
class Titles:
    """The titles of an event, or why it has none (``reason``), and what is still open."""

    rows: tuple[TitleRow, ...]
    reason: str  # "" when titles are awarded
    assumed: bool  # the default table was used
    provisional: bool  # rounds remain
    pending: tuple[str, ...]  # places that wait for their playoff, as notes


def parse_table(lines: Sequence[tuple[int, dict[str, str]]], source: str) -> tuple[TitleRule, ...]:
    """A table from CSV rows (line number, row by header); errors name the file and line."""
    rules: list[TitleRule] = []
    for number, row in lines:
        where = f"{source} line {number}"
        try:
            first = parse_int(row.get("from", ""), "from", -99_999, 99_999)
            last = parse_int(row.get("to", ""), "to", -99_999, 99_999)
        except NumberError:
            raise SettingsError(f"{where}: from and to must be places (whole numbers)") from None
        if not 1 <= first <= last <= 9999:
            raise SettingsError(f"{where}: places {first}–{last} are not 1 ≤ from ≤ to")
        title = row.get("title", "").strip()
        check_name(f"{where}: title", title, error=SettingsError)
        rules.append(TitleRule(first, last, title))
    if not rules:
        raise SettingsError(f"{source}: no titles (the header is from,to,title)")
    return tuple(rules)


def _title(place: int, table: Sequence[TitleRule]) -> str | None:
    return next((r.title for r in table if r.first <= place <= r.last), None)


def award_titles(comp: Competition, table: Sequence[TitleRule] | None = None) -> Titles:
    """The place winners' titles (module docstring); ``table`` None: ``DEFAULT_TABLE``."""
    s = comp.settings
    assumed = table is None
    rules = DEFAULT_TABLE if table is None else tuple(table)
    if s.team_event:
        return Titles(
            (), "000 九(二): a team event is rated but awards no titles", assumed, False, ()
        )
    if s.group not in (Group.MEN, Group.WOMEN):
        group = "the open group" if s.group is Group.OPEN else "an event with no group"
        reason = f"002 八(五) gives titles to the men's and women's groups only, not {group}"
        return Titles((), reason, assumed, False, ())
    blocked: set[str] = set()
    waiting: list[str] = []
    if s.format.is_knockout:  # a place still open (5–8) is not won yet
        ranked = [(low, False, e.id) for (low, high), e in comp.placements() if low == high]
    else:
        standings = comp.standings()
        ranked = [(r.place, r.shared, r.entrant) for r in standings.rows]
        for place, who in standings.playoffs_needed:
            blocked.update(who)
            names = ", ".join(comp.entrant(w).name for w in who)
            waiting.append(f"place {place}: playoff needed ({names})")
    prize = comp.prize_places()
    rows = []
    for place, shared, entrant in ranked:
        title = _title(place, rules)
        if place > prize or title is None or entrant in blocked:
            continue
        e = comp.entrant(entrant)
        rows.append(TitleRow(place, shared, e.id, e.name, title))
    provisional = not comp.finished
    return Titles(tuple(rows), "", assumed, provisional, tuple(waiting))
