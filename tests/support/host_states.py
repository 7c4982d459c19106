"""The retained messages a table host owns, built small for the bus tests: a table's
public state, its referee state and the host's status (what `wuzi.host.publish` and the
host service build in full), and a table event to go between them."""

from __future__ import annotations

from wuzi.bus import topics
from wuzi.bus.schemas import HostStatus, RefereeState, TableEvent, TableState

HOST = "pi-1"
GAME = "r1-g1"


def table_state(
    table: int, seq: int, status: str = "playing", *, game: str | None = GAME, at_ms: int = 0
) -> TableState:
    """A state of ``seq`` stones; ``at_ms`` defaults to a time that grows with ``seq``."""
    running = "black" if status == "playing" else None
    return TableState(
        table,
        game,
        seq,
        status,
        tuple(range(seq)),
        60_000 - seq,
        60_000,
        running,
        None,
        at_ms or 1_000_000 + 1000 * seq,
    )


def referee_state(
    table: int, seq: int, status: str = "playing", *, game: str | None = GAME, at_ms: int = 0
) -> RefereeState:
    return RefereeState(
        table, game, seq, status, (), 0, None, 0, 0, at_ms or 1_000_000 + 1000 * seq
    )


def host_status(
    tables: tuple[int, ...], *, online: bool = True, down: tuple[int, ...] = (), at_ms: int = 1
) -> HostStatus:
    return HostStatus(HOST, online, tables, "boot-1", at_ms, down)


def event(table: int, seq: int, *, game: str = GAME) -> TableEvent:
    return TableEvent(f"{HOST}/{table}/{game}/{seq}", table, game, seq, "move", 1_000_000 + seq, {})


def owned_topics(venue: str, tables: tuple[int, ...]) -> list[str]:
    """Every retained topic the host owns: its status, then each table's two states."""
    out = [topics.host_status(venue, HOST)]
    for table in tables:
        out += [topics.table_state(venue, table), topics.arbiter_state(venue, table)]
    return out
