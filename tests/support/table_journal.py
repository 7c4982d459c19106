"""A table's records journaled as the host journals them, for the tests of recovery and
snapshots: append, then let the runtime note each entry (its open alerts stay in step)."""

from __future__ import annotations

from wuzi.host.table_runtime import Record, TableRuntime
from wuzi.journal import Journal
from wuzi.rules.board import Colour, parse_point
from wuzi.rules.procedure import Seat
from wuzi.table.inputs import ClockPressed, StoneSettled

S = 1_000_000_000
"""One second in ns: the gap between a stone and its press in ``play``."""
WALL = 1_780_000_000_000
"""The wall clock (ms) of every record these tests write."""


def journal_records(journal: Journal, runtime: TableRuntime, records: list[Record]) -> None:
    """Append as the host does, and keep the runtime's open alerts in step."""
    entries = journal.append_many(
        [(runtime.id, r.kind, r.payload, r.t_ms, r.publish) for r in records]
    )
    for entry in entries:
        runtime.note_journaled(entry.kind, entry.id, entry.payload)


def play(runtime: TableRuntime, journal: Journal, moves: list[str], t0: int) -> int:
    """Each move a stone then its press, one second apart, journaled; the last instant."""
    t = t0
    colour, seat = Colour.BLACK, Seat.FIRST
    for name in moves:
        t += S
        stone = StoneSettled(now_ns=t, point=parse_point(name), colour=colour)
        journal_records(journal, runtime, runtime.feed(stone, WALL))
        t += S
        journal_records(journal, runtime, runtime.feed(ClockPressed(now_ns=t, seat=seat), WALL))
        colour, seat = colour.other, seat.other
    return t
