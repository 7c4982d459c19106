"""One input's change to the director's state, and the working view it is made in (pure).

The core never changes itself while it handles an input: it lays a ``Change`` over its
state (``Work``), and only ``DirectorCore.commit`` applies the change, once the shell has
stored it — so an input refused halfway, or a database that cannot be written, leaves
the core exactly as it was. ``Work`` reads that state through ``CoreState``, which
``DirectorCore`` satisfies: this module sits below the core and never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Protocol

from wuzi.bus.schemas import TableState
from wuzi.director.games import AuditEntry, Game, HostSeen
from wuzi.tournament.draw import DrawRecord
from wuzi.tournament.event import Competition

__all__ = ["RUNNING", "Change", "CoreState", "Work", "tables_of"]

RUNNING = ("playing", "paused", "adjourned")
"""The table statuses of a game still under way (``TABLE_STATUSES`` less idle, finished)."""


class CoreState(Protocol):
    """The committed state a ``Work`` lays its change over (``DirectorCore`` is one).

    Read-only on purpose: a ``Work`` only reads the core; what it changes goes into its
    ``Change``, which ``DirectorCore.commit`` applies once it is stored."""

    @property
    def comp(self) -> Competition: ...

    @property
    def next_seq(self) -> int: ...

    @property
    def games(self) -> Mapping[str, Game]: ...

    @property
    def by_match(self) -> Mapping[tuple[int, int], Sequence[str]]:
        """Game ids of each pairing (round, match), oldest first."""
        ...

    @property
    def by_table(self) -> Mapping[int, Sequence[str]]:
        """Game ids ever assigned to each table, oldest first."""
        ...

    @property
    def draws(self) -> Sequence[DrawRecord]:
        """The draws of lots recorded in the competition's file (``wuzi tournament draw``)."""
        ...

    @property
    def live(self) -> Mapping[int, tuple[str | None, str]]:
        """Each table's game and status as its retained state last showed them."""
        ...

    @property
    def states(self) -> Mapping[int, TableState]:
        """Each table's newest retained state."""
        ...

    @property
    def seen(self) -> AbstractSet[str]:
        """Every event, command and note id acted on (a repeat changes nothing)."""
        ...

    @property
    def event_id(self) -> str:
        """The venue file's event this director runs ("" for a venue of one event)."""
        ...


@dataclass
class Change:
    """What one input changed. ``stored`` parts go into the database in one transaction;
    ``tables`` need their retained assignment published again; ``screens`` says the
    competition state changed."""

    now_ms: int
    games: dict[str, Game] = field(default_factory=dict)
    competition: Competition | None = None
    tournament_log: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)
    audit: list[AuditEntry] = field(default_factory=list)
    hosts: dict[str, HostSeen] = field(default_factory=dict)
    live: dict[int, tuple[str | None, str]] = field(default_factory=dict)
    # a table's newest state (`wuzi.bus.newest`): what a later one must supersede
    states: dict[int, TableState] = field(default_factory=dict)
    tables: set[int] = field(default_factory=set)
    screens: bool = False

    @property
    def stored(self) -> bool:
        return bool(
            self.games or self.competition is not None or self.seen or self.audit or self.hosts
        )

    @property
    def empty(self) -> bool:
        return not (self.stored or self.live or self.states or self.tables or self.screens)


def tables_of(venue: Any) -> list[tuple[int, str]]:
    """(table number, host id) of every table of a ``VenueConfig``, in venue order."""
    return [(t.number, h.id) for h in venue.hosts for t in h.tables]


class Work:
    """The core's state with one change laid over it (nothing of the core is touched)."""

    def __init__(self, core: CoreState, now_ms: int) -> None:
        self.core = core
        self.change = Change(now_ms)
        self.comp = core.comp
        self.next_seq = core.next_seq

    @property
    def now_ms(self) -> int:
        return self.change.now_ms

    @property
    def draws(self) -> Sequence[DrawRecord]:
        return self.core.draws

    def started(self, game: Game) -> bool:
        """The game's table shows it started (its retained state: under way or over, not
        ``idle``): too late to give it another opening or other colours."""
        if game.table is None:
            return False
        gid, status = self.core.live.get(game.table, (None, "idle"))
        return gid == game.id and status != "idle"

    def held(self, table: int) -> TableState | None:
        """The table's retained state when it shows a game of *another* event still
        running (a table moved between events while its old event's game goes on): the
        director assigns nothing there until that game ends. None when the table is free
        of other events (a state without an event id is a one-event venue's: not held)."""
        state = self.change.states.get(table) or self.core.states.get(table)
        if state is None or not state.event_id or state.event_id == self.core.event_id:
            return None
        return state if state.status in RUNNING else None

    def game(self, gid: str) -> Game | None:
        return self.change.games.get(gid) or self.core.games.get(gid)

    def games(self) -> list[Game]:
        merged = dict(self.core.games)
        merged.update(self.change.games)
        return sorted(merged.values(), key=lambda g: g.seq)

    def match_games(self, round_number: int, match: int) -> list[Game]:
        ids = list(self.core.by_match.get((round_number, match), ()))
        ids += [
            g.id
            for g in self.change.games.values()
            if (g.plan.round, g.plan.match) == (round_number, match) and g.id not in ids
        ]
        found = [self.game(i) for i in ids]
        return sorted((g for g in found if g is not None), key=lambda g: g.seq)

    def table_games(self, table: int) -> list[Game]:
        ids = list(self.core.by_table.get(table, ()))
        ids += [g.id for g in self.change.games.values() if g.table == table and g.id not in ids]
        found = [self.game(i) for i in ids]
        return [g for g in found if g is not None and g.table == table]

    def put(self, game: Game) -> None:
        old = self.game(game.id)
        self.change.games[game.id] = game
        for table in (game.table, old.table if old is not None else None):
            if table is not None:
                self.change.tables.add(table)
        self.change.screens = True

    def set_comp(self, comp: Competition, command: str) -> None:
        self.comp = comp
        self.change.competition = comp
        self.change.tournament_log.append(command)
        self.change.screens = True

    def audit(self, actor: str, action: str, **details: Any) -> None:
        self.change.audit.append(AuditEntry(self.now_ms, actor, action, details))
