"""The venue file's ``[[halls]]``: the halls of a network event, seen from its director.

The 2021 championship's final gathers **each team at its own venue** under referees
(000 七(四)); its pairings are drawn round by round, so board *b* of one team's hall plays
board *b* of another's for one match (docs/linked.md "The network final"). The organisers'
venue file (the director's, its broker the central one the halls bridge to) names each
hall once::

    [[halls]]
    venue = "final-2021-shanghai"   # that hall's own venue id (its topics' venue)
    team = "上海"                    # the team that plays there (the event's entrant)
    host = "pi-shanghai"            # the host serving its tables (its result events say so)
    tables = "1-3"                  # the event's table numbers there, board 1 first

Table numbers are the event's (unique across its halls), so the director's tables stay
plain numbers; each is named in the topics by its hall's venue. Pure: ``parse_halls``
raises `SectionError` (key, problem); `wuzi.config.venue` names the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wuzi.bus.topics import TopicError, check_name
from wuzi.config.broadcast import SectionError, check_known_keys
from wuzi.config.events import parse_tables

__all__ = ["HALL_KEYS", "HallConfig", "parse_halls"]

HALL_KEYS = ("venue", "team", "host", "tables")


@dataclass(frozen=True)
class HallConfig:
    """One hall of a network event: its venue, its team, its host and tables (board
    order)."""

    venue: str
    team: str
    host: str
    tables: tuple[int, ...]
    key: str = "halls[0]"


def _text(item: dict[str, Any], where: str, key: str) -> str:
    value = item.get(key)
    if not isinstance(value, str) or not value.strip():
        raise SectionError(f"{where}.{key}", f"missing or not text: {value!r}")
    return value.strip()


def parse_halls(
    data: dict[str, Any], venue_id: str, host_tables: dict[int, str]
) -> tuple[HallConfig, ...]:
    """``[[halls]]`` as read; ``host_tables``: the tables this file's own ``[[hosts]]``
    serve (a hall's table may not be one of them)."""
    items = data.get("halls", [])
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise SectionError("halls", "expected an array of tables ([[halls]])")
    halls: list[HallConfig] = []
    seen: dict[str, str] = {}
    teams: dict[str, str] = {}
    tables: dict[int, str] = {}
    for i, item in enumerate(items):
        where = f"halls[{i}]"
        check_known_keys(item, where, HALL_KEYS)
        venue = _text(item, where, "venue")
        try:
            check_name("venue", venue)
            host = check_name("host", _text(item, where, "host"))
        except TopicError as exc:
            raise SectionError(where, str(exc)) from None
        if venue == venue_id:
            raise SectionError(f"{where}.venue", f"{venue!r} is this venue: a hall is another")
        if venue in seen:
            raise SectionError(f"{where}.venue", f"{venue!r} is already {seen[venue]}")
        team = _text(item, where, "team")
        if team in teams:
            raise SectionError(f"{where}.team", f"{team!r} already plays at {teams[team]}")
        raw = item.get("tables")
        try:
            numbers = parse_tables(raw) if isinstance(raw, str) else None
        except ValueError as exc:
            raise SectionError(f"{where}.tables", str(exc)) from None
        if numbers is None:
            raise SectionError(f"{where}.tables", f'the hall\'s tables, e.g. "1-3", not {raw!r}')
        for n in numbers:
            other = tables.get(n) or host_tables.get(n)
            if other is not None:
                raise SectionError(f"{where}.tables", f"table {n} is already {other}'s")
            tables[n] = where
        seen[venue] = where
        teams[team] = where
        halls.append(HallConfig(venue, team, host, numbers, where))
    return tuple(halls)
