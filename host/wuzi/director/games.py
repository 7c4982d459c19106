"""The director's records: games on tables, audit entries, hosts seen (pure data).

A ``Game`` is a ``PlannedGame`` with its life at the venue::

    pending ──(a table is free)──► assigned ──(the host reports)──► reported
       │                              │                                │
       │                              └────(a referee confirms)──────► final
       └──────────────► cancelled ◄── (a correction made it unnecessary)

``result`` is always in the assignment's colours (``black`` = the first seat won), as the
competition states it; ``reported_result`` keeps what the host said even after a referee
corrected it. ``confirmed_by`` is the referee's name, or ``auto`` under auto-confirm.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wuzi.bus.schemas import Assignment
from wuzi.director.schedule import PlannedGame
from wuzi.tournament.draw import DrawRecord
from wuzi.tournament.results import GameResult

__all__ = [
    "AUTO",
    "GAME_STATES",
    "AuditEntry",
    "Game",
    "HostSeen",
    "assignment_of",
    "bus_result",
    "draw_entry",
    "parse_bus_result",
]

GAME_STATES = ("pending", "assigned", "reported", "final", "cancelled")
AUTO = "auto"  # confirmed_by under auto-confirm

_BUS_RESULTS = {
    "1-0": GameResult.BLACK,
    "0-1": GameResult.WHITE,
    "1/2-1/2": GameResult.DRAW,
    "black-by-forfeit": GameResult.BLACK_BY_FORFEIT,
    "white-by-forfeit": GameResult.WHITE_BY_FORFEIT,
    "double-forfeit": GameResult.DOUBLE_FORFEIT,
}


def parse_bus_result(text: object) -> GameResult:
    """A result as a referee sends it: ``1-0``, ``0-1``, ``1/2-1/2`` (Black's score first,
    Black being the assignment's Black, the first seat) or a forfeit
    (``black-by-forfeit``, ``white-by-forfeit``, ``double-forfeit``)."""
    if isinstance(text, str) and text in _BUS_RESULTS:
        return _BUS_RESULTS[text]
    raise ValueError(
        f"result {text!r} is not one of {', '.join(_BUS_RESULTS)} (Black's score first)"
    )


def bus_result(result: GameResult) -> str:
    for text, value in _BUS_RESULTS.items():
        if value is result:
            return text
    raise AssertionError(result)  # every GameResult has a bus form


@dataclass(frozen=True)
class Game:
    plan: PlannedGame
    seq: int  # creation order, event-wide
    table: int | None
    state: str  # one of GAME_STATES
    updated_ms: int
    issued_ms: int | None = None  # when it was given its table (the assignment's issued_ms)
    result: GameResult | None = None
    reason: str | None = None  # how it ended: the host's reason (five, flag …) or referee
    reported_result: GameResult | None = None
    reported_by: str | None = None  # host id
    reported_by_event: str | None = None  # the event id (or state:<table>:<seq>)
    confirmed_by: str | None = None  # referee name, or AUTO

    @property
    def id(self) -> str:
        return self.plan.game_id

    @property
    def open(self) -> bool:
        """Still to be decided: not final, not cancelled."""
        return self.state in ("pending", "assigned", "reported")


@dataclass(frozen=True)
class AuditEntry:
    """One line of the appeals committee's log; ``details`` is JSON-safe."""

    at_ms: int
    actor: str  # director, host:<id>, referee:<name>, organisers
    action: str
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class HostSeen:
    online: bool
    boot_id: str
    at_ms: int


def draw_entry(draw: DrawRecord, at_ms: int) -> AuditEntry:
    """A draw of lots as the audit shows it: by ``organisers:<who asked for it>``, with
    the seed, the result and when it was drawn (``drawn_at_ms``)."""
    return AuditEntry(
        at_ms,
        f"organisers:{draw.by}",
        "lot-drawn" if draw.method == "lot" else "opening-set",
        {
            "draw": draw.seq,
            "kind": draw.kind.value,
            "round": draw.round,
            "by": draw.by,
            "method": draw.method,
            "seed": draw.seed,
            "result": dict(draw.result),
            "options": dict(draw.options) or None,
            "drawn_at_ms": draw.at_ms,
        },
    )


def assignment_of(game: Game) -> Assignment:
    """The retained assignment of a game that has its table, with the names its record
    carries (event, round, match, teams, player ids: docs/records.md)."""
    p = game.plan
    assert game.table is not None and game.issued_ms is not None
    return Assignment(
        table=game.table,
        game_id=p.game_id,
        black=p.black,
        white=p.white,
        rule_set=p.rule_set,
        opening=p.opening,
        opening_settings=dict(p.opening_settings),
        time_control=p.time_control,
        board=p.board,
        game_in_match=p.game_in_match,
        playoff=p.playoff,
        issued_ms=game.issued_ms,
        event=p.event,
        round=p.round,
        match=p.match,
        place=p.place,
        black_team=p.black_team,
        white_team=p.white_team,
        black_id=p.black_player,
        white_id=p.white_player,
    )
