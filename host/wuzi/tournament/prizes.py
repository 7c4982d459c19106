"""Prize places and prize money.

The open's regulation: 50 or more entrants in a group → the top 12 are placed (录取), 30 to
49 → the top 10, 29 or fewer → the top 8; medals for the top 3. The team final awards prize
money (CNY, before tax) to places 1–8.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wuzi.tournament.errors import SettingsError

FINAL_2021_PRIZES_CNY: tuple[int, ...] = (30000, 18000, 12000, 9000, 7500, 6000, 4500, 3000)
OPEN_2019_PRIZES_CNY: tuple[int, ...] = (3000, 2000, 1000)  # men's and women's groups
MEDAL_PLACES = 3


def prize_places(field_size: int) -> int:
    """How many places are awarded in a group of ``field_size`` entrants."""
    if field_size < 0:
        raise SettingsError(f"a field cannot have {field_size} entrants")
    if field_size >= 50:
        return 12
    if field_size >= 30:
        return 10
    return 8


def prize_money(place: int, table: Sequence[int] = FINAL_2021_PRIZES_CNY) -> int:
    """The prize for ``place`` (0 outside the table)."""
    if place < 1:
        raise SettingsError(f"places start at 1, not {place}")
    return table[place - 1] if place <= len(table) else 0


@dataclass(frozen=True)
class Award:
    place: int
    entrant: str
    money: int
    medal: bool


def awards(
    places: Sequence[tuple[int, str]], field_size: int, table: Sequence[int] = ()
) -> list[Award]:
    """The awards for ``(place, entrant)`` rows: every prize place, its money and medal.

    Places shared on a prize place are decided by playoff before prizes are given, so a
    shared place here gets the money of that place each (the organisers' decision).
    """
    limit = prize_places(field_size)
    return [
        Award(place, entrant, prize_money(place, table) if table else 0, place <= MEDAL_PLACES)
        for place, entrant in places
        if place <= limit
    ]
