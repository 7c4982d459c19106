"""What leaves a table: journaled first, then published, and its record file written.

The rule that makes the host crash-safe lives here: a table's records are appended to the
journal (one SQLite transaction, fsync'd) *before* anything is published, shown or
acknowledged; then each published record goes out with the journal id as its outbox key
(public events with their own gap-free number), the retained referee view and, when a
public event changed it, the retained table state follow, and a finished game's JSON
record is written once. After a crash, whatever the broker had not acknowledged is sent
again in journal order (``resend``). docs/host.md, docs/journal.md.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.host import publish, records
from wuzi.host.served import ServedTable
from wuzi.host.table_runtime import GAME_START_KIND, Record
from wuzi.journal import Journal, JournalEntry

__all__ = ["Outbound"]

log = logging.getLogger("wuzi.host")


class Outbound:
    """Journals and publishes the tables' records for one host. ``journal`` and ``bus``
    give the host's journal and bus client as they are now (None before start and after
    close); ``now_ns``/``wall_ms``: the host's time base and the venue's wall clock."""

    def __init__(
        self,
        *,
        venue_id: str,
        event_name: str,
        host_id: str,
        records_dir: Path | None,
        journal: Callable[[], Journal | None],
        bus: Callable[[], BusClient | None],
        now_ns: Callable[[], int],
        wall_ms: Callable[[], int],
    ) -> None:
        self.venue_id = venue_id
        self.event_name = event_name
        self.host_id = host_id
        self.records_dir = records_dir
        self.journal = journal
        self.bus = bus
        self.now_ns = now_ns
        self.wall_ms = wall_ms
        # the linked tables (wuzi.host.linked_tables): their sides publish the table's
        # state from the owner's truth, and the referee state gains the hall line's view
        self.linked: set[int] = set()
        self.line_view: Callable[[int], dict[str, Any]] = lambda number: {}

    def commit(self, table: ServedTable, records: Iterable[Record]) -> None:
        """Journal the records (durable on return), then publish what may leave the host."""
        self.commit_many([(table, records)])

    def commit_many(
        self, batches: Iterable[tuple[ServedTable, Iterable[Record]]], *, publish: bool = True
    ) -> None:
        """Journal several tables' records in one transaction (durable on return: one
        fsync), then, table by table, publish what may leave the host (``publish``
        False: nothing yet; the outbox's resend takes the events, in journal order)."""
        journal = self.journal()
        assert journal is not None
        work = [(table, batch) for table, batch in ((t, list(r)) for t, r in batches) if batch]
        if not work:
            return
        rows = [
            (table.runtime.id, r.kind, r.payload, r.t_ms, r.publish)
            for table, batch in work
            for r in batch
        ]
        entries = journal.append_many(rows)
        at = 0
        for table, batch in work:
            self._committed(table, batch, entries[at : at + len(batch)], publish=publish)
            at += len(batch)

    def _committed(
        self, table: ServedTable, batch: list[Record], entries: list[JournalEntry], *, publish: bool
    ) -> None:
        """What follows a table's records once they are durable: its outbox, its state."""
        runtime = table.runtime
        table.seq = entries[-1].seq
        public = False
        for record, entry in zip(batch, entries, strict=True):
            runtime.note_journaled(entry.kind, entry.id, entry.payload)
            if record.publish and publish:
                public |= self._publish_entry(runtime.number, entry)
        table.expect()
        if publish:
            self.publish_state(table, public=public or batch[0].kind == GAME_START_KIND)
        self.save_record(table)

    def save_record(self, table: ServedTable) -> None:
        """Write the finished game's record once (again after a restart: same content)."""
        runtime, folder = table.runtime, self.records_dir
        session = runtime.session
        if folder is None or session is None or not session.game.is_over:
            return
        game_id = runtime.game_id or f"table{runtime.number}"
        if table.record_saved == game_id:
            return
        record = records.game_record(
            session,
            table=runtime.number,
            event=self.event_name,
            assignment=runtime.assignment,
            started_wall_ms=runtime.started_wall_ms,
        )
        try:
            records.write_record(folder, game_id, record)
        except OSError as exc:  # a full disk must not stop the table: the journal has it
            log.error("could not write the record of %s: %s", game_id, exc)
            return
        table.record_saved = game_id

    def _publish_entry(self, number: int, entry: JournalEntry) -> bool:
        """Publish one journaled output (the outbox key is the journal id); True if it was
        a public event. Public events carry their own gap-free number and an id without
        the journal's seq (``host/table/game/pseq``): see ``TableRuntime._outputs``."""
        bus = self.bus()
        if bus is None:
            return False
        payload = entry.payload
        game_id = str(payload.get("game_id") or "none")
        pseq = payload.get("pseq")
        is_public = isinstance(pseq, int)
        message = publish.event_message(
            event_id=(f"{self.host_id}/{entry.table}/{game_id}/{pseq}" if is_public else entry.id),
            table=number,
            game_id=game_id,
            seq=pseq if isinstance(pseq, int) else entry.seq,
            kind=entry.kind,
            at_ms=int(payload.get("wall_ms", entry.t_ms)),
            data=dict(payload.get("data", {})),
        )
        bus.publish(publish.event_topic(self.venue_id, number, entry.kind), message, key=entry.id)
        return is_public

    def publish_state(self, table: ServedTable, *, public: bool = True) -> None:
        """The retained referee view always; the retained public state only when a public
        event changed it (an alert alone must not make the hall's state blink)."""
        bus = self.bus()
        if bus is None:
            return
        runtime, number = table.runtime, table.runtime.number
        now, wall = self.now_ns(), self.wall_ms()
        game_id = runtime.game_id or None
        shown = runtime.assignment
        if runtime.session is None and runtime.waiting is not None:
            shown, game_id = runtime.waiting, runtime.waiting.game_id  # who plays next here
        if public and number not in self.linked:
            state = publish.table_state(
                table=number,
                assignment=shown,
                session=runtime.session,
                seq=runtime.public_seq,
                now_ns=now,
                at_ms=wall,
                game_id=game_id,
            )
            bus.publish(topics.table_state(self.venue_id, number), state)
        referee = publish.referee_state(
            table=number,
            session=runtime.session,
            seq=table.seq,
            at_ms=wall,
            game_id=game_id,
            assignment=runtime.assignment,
            open_alerts=runtime.open_alerts,
        )
        if number in self.linked:
            referee = dataclasses.replace(referee, **self.line_view(number))
        bus.publish(topics.arbiter_state(self.venue_id, number), referee)

    def resend(self, tables: Iterable[ServedTable]) -> None:
        """Everything the broker had not acknowledged before the crash, in journal order."""
        journal = self.journal()
        assert journal is not None
        by_id = {t.runtime.id: t.runtime.number for t in tables}
        pending = journal.pending(10**7)
        for entry in pending:
            number = by_id.get(entry.table)
            if number is not None:
                self._publish_entry(number, entry)
        if pending:
            log.info("resending %d unacknowledged events", len(pending))
