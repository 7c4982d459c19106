"""Awards: who gets which medal, certificate, prize money and title, by the regulations.

The two seeds award differently, so the event's format and group choose the clauses:

* **2019 open, individual groups** (002 八): the prize places are 8, 10 or 12 by the
  group's entrants (八(一)); places 1–3 get a medal and a certificate, 4–12 a certificate
  (八(二)); the men's and women's groups pay 3000, 2000 and 1000 CNY to the first three
  (八(三)); the open group gives certificates (八(四)), and — 八(二) says 各组, every group —
  its first three medals too, but no money; the men's and women's groups' placed players
  may get a dan/kyu title (八(五), ``titles``).
* **2021 team final** (000 九(三)): places 1–8 get prize money (before tax) and a
  certificate, one per team; no medals are named; no titles (九(二)).
* **2021 semifinal** (000 九(一)): every player of a team that advanced from the
  preliminary to the semifinal gets an electronic certificate — one per player, no place.

A place still open (a playoff owed, a knockout match not played) gives nothing yet and is
listed in ``pending``; awards before the last round are ``provisional``. ``--prizes`` on
``new`` replaces a table of money. Pure: the certificates' PDF is ``certificates``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wuzi.tournament.entrants import Group
from wuzi.tournament.event import Competition, Entrant
from wuzi.tournament.prizes import MEDAL_PLACES, OPEN_2019_PRIZES_CNY, prize_money
from wuzi.tournament.settings import Format
from wuzi.tournament.titles import TitleRule, award_titles

__all__ = ["MEDALS", "AwardRow", "Awards", "compute_awards"]

MEDALS = ("gold", "silver", "bronze")
MEDALS_ZH = {"gold": "金牌", "silver": "银牌", "bronze": "铜牌"}
CURRENCY = "CNY"
CERTIFICATE = "certificate"
E_CERTIFICATE = "electronic certificate"


@dataclass(frozen=True)
class AwardRow:
    """One award: an entrant's place and what it earns. ``recipients`` are the names
    printed on the certificate (the player, or the team's players in board order)."""

    place: int | None  # None: the semifinal's electronic certificates have no place
    shared: bool
    id: str
    name: str
    recipients: tuple[str, ...]
    team: str  # the team's name for a team's player or a team, else ""
    medal: str | None  # gold, silver, bronze
    certificate: str  # certificate, electronic certificate
    money: int
    currency: str
    title: str | None
    clause: str


@dataclass(frozen=True)
class Awards:
    event: str
    rows: tuple[AwardRow, ...]
    prize_places: int
    basis: tuple[str, ...]  # the clauses applied, in words
    provisional: bool  # rounds remain
    pending: tuple[str, ...]  # places not settled yet, as notes
    titles_assumed: bool  # the titles come from the assumed default table


def _ranked(comp: Competition) -> tuple[list[tuple[int, bool, str]], list[str]]:
    """(place, shared, entrant) of every settled place, and notes for places still open."""
    pending: list[str] = []
    if comp.settings.format.is_knockout:
        ranked = []
        for (low, high), e in comp.placements():
            if low == high:
                ranked.append((low, False, e.id))
            elif low <= comp.prize_places():
                pending.append(f"places {low}–{high}: {e.name} (matches to play)")
        return ranked, pending
    standings = comp.standings()
    blocked: set[str] = set()
    for place, who in standings.playoffs_needed:
        blocked.update(who)
        owed = [
            f"{comp.entrant(a).name} v {comp.entrant(b).name}"
            for at, a, b in standings.playoffs_owed
            if at == place
        ]
        names = ", ".join(comp.entrant(w).name for w in who)
        note = f"place {place}: playoff needed ({names})"
        pending.append(note + (f"; owed: {', '.join(owed)}" if owed else "; still level"))
    ranked = [(r.place, r.shared, r.entrant) for r in standings.rows if r.entrant not in blocked]
    return ranked, pending


def _recipients(e: Entrant) -> tuple[str, ...]:
    return tuple(p.name for p in e.team.players) if e.team is not None else (e.name,)


def _semifinal(comp: Competition) -> Awards:
    rows = [
        AwardRow(
            None,
            False,
            p.id,
            p.name,
            (p.name,),
            e.name,
            None,
            E_CERTIFICATE,
            0,
            CURRENCY,
            None,
            "000 九(一)",
        )
        for e in comp.seeded()
        if e.team is not None
        for p in e.team.players
    ]
    basis = (
        "000 九(一): every player of a team that reached the semifinal: an electronic certificate",
    )
    return Awards(comp.settings.name, tuple(rows), 0, basis, False, (), False)


def compute_awards(comp: Competition, table: Sequence[TitleRule] | None = None) -> Awards:
    """The event's awards (module docstring); ``table``: the titles' table (``titles``)."""
    s = comp.settings
    if s.format is Format.TEAM_SEMIFINAL:
        return _semifinal(comp)
    places = comp.prize_places()
    ranked, pending = _ranked(comp)
    titles = award_titles(comp, table)
    title_of = {r.id: r.title for r in titles.rows}
    if s.team_event:
        money = s.prizes
        medal_places = 0
        clause = "000 九(三)"
        paid = "prize money (before tax) and a certificate" if money else "a certificate"
        basis = [f"000 九(三): places 1–{places}: {paid}", "000 九(二): no titles"]
    else:
        named = s.group in (Group.MEN, Group.WOMEN)
        money = s.prizes or (OPEN_2019_PRIZES_CNY if named else ())
        medal_places = MEDAL_PLACES
        clause = "002 八(二)"
        basis = [
            f"002 八(一): {len(comp.entrants)} entrants: {places} prize places",
            "002 八(二): places 1–3 a certificate and a medal, the other prize places a "
            "certificate",
        ]
        if s.group is Group.OPEN:
            basis.append("002 八(四): the open group's placed players: certificates, no money")
        elif money:
            amounts = ", ".join(str(m) for m in money)
            basis.append(f"002 八(三): prize money {amounts} {CURRENCY}")
        basis.append(titles.reason or "002 八(五): dan/kyu titles (see `titles`)")
    rows = []
    for place, shared, entrant in ranked:
        if place > places:
            continue
        e = comp.entrant(entrant)
        rows.append(
            AwardRow(
                place,
                shared,
                e.id,
                e.name,
                _recipients(e),
                e.name if e.team is not None else "",
                MEDALS[place - 1] if place <= medal_places else None,
                CERTIFICATE,
                prize_money(place, money) if money else 0,
                CURRENCY,
                title_of.get(e.id),
                clause,
            )
        )
    return Awards(
        s.name,
        tuple(rows),
        places,
        tuple(basis),
        not comp.finished,
        tuple(pending),
        titles.assumed and bool(title_of),
    )
