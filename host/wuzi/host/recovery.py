"""A host's tables as its journal left them: the start's instant, each table's state from
its snapshot and the events after it, and the snapshots kept as play goes on.

A host killed at any instant comes back exactly as journaled (docs/host.md "Crash
recovery"): its time base continues just after the last instant the journal knew it
alive, each table is rebuilt from its current game's records — from a usable snapshot and
the events after it, or from every event — and its snapshot is renewed as events pile up
(``wuzi.host.snapshot``: a cache, never the truth).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from wuzi.host import snapshot as snapshots
from wuzi.host.served import ServedTable
from wuzi.host.snapshot import SNAPSHOT_EVERY
from wuzi.host.table_runtime import GAME_START_KIND, TableRuntime, table_id
from wuzi.journal import Journal
from wuzi.table.checks import TableError

__all__ = ["keep_snapshot", "last_known_ns", "recover_runtime", "stalest"]

log = logging.getLogger("wuzi.host")


def last_known_ns(
    journal: Journal, numbers: Iterable[int], streams: Iterable[str] = ()
) -> int | None:
    """The latest instant the journal knows of: the last heartbeat, or a later event of
    one of the tables ``numbers`` or of the other ``streams`` (a hall line's) (an event's
    ``t_ms`` is floored, so its instant is below ``(t_ms + 1) ms``)."""
    last = journal.alive_ns()
    for tid in [*(table_id(number) for number in numbers), *streams]:
        for entry in journal.entries(tid, since_seq=max(0, journal.last_seq(tid) - 1)):
            upper = (entry.t_ms + 1) * 1_000_000
            last = upper if last is None else max(last, upper)
    return last


def recover_runtime(journal: Journal, number: int, venue: str) -> tuple[TableRuntime, int, int]:
    """Table ``number``'s runtime from its current game's events, the seq of the snapshot
    it began from (0: none) and the seq of the game's ``host.game`` record (0: no game
    yet). A usable snapshot of the current game spares the replay of the events it
    covers; one written by other code, unreadable, or whose tail does not apply is set
    aside and every event replayed (``wuzi.host.snapshot``)."""
    tid = table_id(number)
    start = journal.last_seq_of_kind(tid, GAME_START_KIND)
    if not start:
        return TableRuntime.recover(number, venue, iter(())), 0, 0
    kept = journal.snapshot(tid)
    if kept is not None and kept.seq >= start and kept.format == snapshots.format_id():
        base = snapshots.load(kept.data, number, venue)
        if base is not None:
            tail = journal.entries(tid, since_seq=kept.seq)
            try:
                return TableRuntime.recover(number, venue, tail, base), kept.seq, start
            except TableError as exc:
                log.warning("table %d: snapshot set aside (%s); replaying", number, exc)
    entries = journal.entries(tid, since_seq=start - 1)
    return TableRuntime.recover(number, venue, entries), 0, start


def keep_snapshot(journal: Journal, table: ServedTable) -> None:
    """Keep the table's state in the journal as of its last event (no fsync: a cache).
    A failure is logged and costs nothing but a longer replay after a restart."""
    runtime = table.runtime
    if runtime.session is None or table.seq <= table.snapshot_seq:
        return
    try:
        data = snapshots.dump(runtime)
        journal.save_snapshot(runtime.id, table.seq, snapshots.format_id(), data)
    except Exception as exc:  # never the table's fault: the events are the truth
        log.warning("table %d: no snapshot (%s)", runtime.number, exc)
        return
    table.snapshot_seq = table.seq


def stalest(tables: Iterable[ServedTable]) -> ServedTable | None:
    """The table furthest behind its events, if at least ``SNAPSHOT_EVERY`` behind: its
    snapshot is renewed, one table a heartbeat (a few ms), so the loop never stalls on
    all of them at once while presses wait."""
    behind = [t for t in tables if t.seq - t.snapshot_seq >= SNAPSHOT_EVERY]
    return max(behind, key=lambda t: t.seq - t.snapshot_seq) if behind else None
