"""Gaps in a table's public events, found from their gap-free numbers and filled from state.

The host numbers each game's public events 1, 2, 3, … (``TableEvent.seq`` on
``table/<n>/events``, the ``pseq`` of its journal) and its retained ``TableState`` says the
number of the last event folded into it (``TableState.seq``, with every stone in
``moves``). So a reader can tell, without trusting the broker:

* an event numbered one above the last is in order;
* an event further ahead means events were lost (a broker restart before the reader's
  session existed, a clean session reconnecting, a queue overflow): a **gap**, which the
  reader must not paper over — it asks for the retained state again and shows or logs the
  gap until something fills it;
* a retained state of the same game numbered at or above a gap **fills** it: the state
  holds everything those events did (a reader rebuilds from the state, not the events);
* an event at or below what is known is a duplicate (at-least-once delivery) unless it is
  a late arrival inside an open gap, which fills that number.

`GapTracker` is that bookkeeping, per table and game, sans-I/O: the director and the
screens' feed call it from their bus callbacks and act on what it returns. Time comes in
as ``now_ms`` (the caller's clock, any base) only to say how long a gap has been open.
Only public events go through it: referee alerts are numbered by the journal, not gap-free.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

__all__ = ["Delivery", "Gap", "GapTracker", "Seen"]

GAMES_KEPT_PER_TABLE = 4
"""Older games of a table are forgotten: a late event of a game four games back is taken
as that game's first sighting (at worst a gap logged for a finished game)."""


class Delivery(enum.Enum):
    IN_ORDER = "in-order"  # the next number: apply it
    AFTER_GAP = "after-gap"  # ahead of the next: events are missing before it (see ``gap``)
    LATE = "late"  # inside an open gap: fills that number
    DUPLICATE = "duplicate"  # already seen, or already covered by a state: ignore it


@dataclass(frozen=True)
class Gap:
    """Public events ``first_seq``..``last_seq`` (inclusive) of one game not received."""

    table: int
    game_id: str
    first_seq: int
    last_seq: int
    since_ms: int  # when it was found (the caller's clock)

    def __str__(self) -> str:
        numbers = (
            f"event {self.first_seq}"
            if self.first_seq == self.last_seq
            else f"events {self.first_seq}-{self.last_seq}"
        )
        return f"table {self.table} game {self.game_id!r}: {numbers} missing"


@dataclass(frozen=True)
class Seen:
    """What one event was; ``gap`` is the gap it revealed (AFTER_GAP only)."""

    delivery: Delivery
    gap: Gap | None = None

    @property
    def fresh(self) -> bool:
        """Not seen before and not covered by a state: the reader should apply it."""
        return self.delivery is not Delivery.DUPLICATE


@dataclass
class _Game:
    high: int = 0  # highest number received or covered by a state
    missing: list[Gap] = field(default_factory=list)  # disjoint, ascending


class GapTracker:
    """Per (table, game): the numbers received or covered, and the gaps still open."""

    def __init__(self) -> None:
        self._tables: dict[int, dict[str, _Game]] = {}

    def _game(self, table: int, game_id: str) -> _Game:
        games = self._tables.setdefault(table, {})
        game = games.get(game_id)
        if game is None:
            game = games[game_id] = _Game()
            while len(games) > GAMES_KEPT_PER_TABLE:
                del games[next(iter(games))]  # the oldest first seen
        return game

    def on_event(self, table: int, game_id: str, seq: int, now_ms: int) -> Seen:
        """Note a public event numbered ``seq`` (from 1) and say what it was."""
        if seq < 1:
            raise ValueError(f"table {table} game {game_id!r}: public event number {seq} < 1")
        game = self._game(table, game_id)
        if seq <= game.high:
            for i, gap in enumerate(game.missing):
                if gap.first_seq <= seq <= gap.last_seq:
                    game.missing[i : i + 1] = _split(gap, seq)
                    return Seen(Delivery.LATE)
            return Seen(Delivery.DUPLICATE)
        if seq == game.high + 1:
            game.high = seq
            return Seen(Delivery.IN_ORDER)
        gap = Gap(table, game_id, game.high + 1, seq - 1, now_ms)
        game.missing.append(gap)
        game.high = seq
        return Seen(Delivery.AFTER_GAP, gap)

    def on_state(self, table: int, game_id: str | None, seq: int) -> list[Gap]:
        """Note a table state that holds events 1..``seq`` of ``game_id``; return the gaps
        (or the parts of them) it filled. A state of no game fills nothing."""
        if game_id is None:
            return []
        game = self._game(table, game_id)
        filled: list[Gap] = []
        kept: list[Gap] = []
        for gap in game.missing:
            if gap.first_seq > seq:
                kept.append(gap)
            elif gap.last_seq <= seq:
                filled.append(gap)
            else:
                filled.append(_range(gap, gap.first_seq, seq))
                kept.append(_range(gap, seq + 1, gap.last_seq))
        game.missing = kept
        game.high = max(game.high, seq)
        return filled

    def open_gaps(self) -> list[Gap]:
        """Every gap not filled yet, by table, game (first seen first), number."""
        return [
            gap
            for table in sorted(self._tables)
            for game in self._tables[table].values()
            for gap in game.missing
        ]

    def overdue(self, now_ms: int, after_ms: int) -> list[Gap]:
        """Gaps open for ``after_ms`` or longer: the retained state did not fill them, so the
        reader must show them as lost rather than wait on."""
        return [gap for gap in self.open_gaps() if now_ms - gap.since_ms >= after_ms]

    def high(self, table: int, game_id: str) -> int:
        """The highest number received or covered for that game (0: nothing yet)."""
        game = self._tables.get(table, {}).get(game_id)
        return 0 if game is None else game.high


def _range(gap: Gap, first: int, last: int) -> Gap:
    return Gap(gap.table, gap.game_id, first, last, gap.since_ms)


def _split(gap: Gap, seq: int) -> list[Gap]:
    parts = []
    if gap.first_seq < seq:
        parts.append(_range(gap, gap.first_seq, seq - 1))
    if seq < gap.last_seq:
        parts.append(_range(gap, seq + 1, gap.last_seq))
    return parts
