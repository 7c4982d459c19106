"""The host's crash-safe journal: one SQLite database per host, append-only.

Why SQLite (WAL, ``synchronous=FULL``) rather than a hand-written log file: a commit in
WAL mode with FULL sync is an fsync of the write-ahead log, so an append that has returned
survives a power cut; a torn last write is discarded by SQLite's own checksums on the next
open, so recovery needs no code of ours; readers (a status page, a second process) see a
consistent prefix without blocking the writer; and one indexed table gives "this table's
events since seq N" and the outbox in order for free.

Layout (schema version 1, ``PRAGMA user_version``; ``PRAGMA application_id`` marks the file
as a Wuzi journal so a foreign database is refused, not written to):

* ``meta(key, value)`` holds ``host_id``: a journal copied to the wrong host is refused.
* ``events(pos, table_id, seq, id, kind, t_ms, payload)``: ``pos`` is the host-wide append
  order, ``(table_id, seq)`` is unique and gap-free from 1 for each table.
* ``outbox(pos)``: events not yet acknowledged by the broker, drained in ``pos`` order.
* ``snapshots(table_id, seq, format, data)``: at most one per table, the state the table's
  events up to ``seq`` rebuild, so recovery replays only the events after it
  (docs/performance.md). A cache, never the truth: the caller names its format and
  ignores a snapshot it cannot use, and the events are never removed. The table is added
  to an existing version-1 file when it is opened (older code ignores it), and so is the
  index ``events_by_kind(table_id, kind, seq)`` that finds a table's current game.

Every ``append`` is its own transaction and has been committed (fsync'd) before it returns,
so the caller may then act outside the host (publish, show on a display).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final, TypeVar

from wuzi.base.files import not_regular
from wuzi.journal.records import (
    JournalClosedError,
    JournalEntry,
    JournalError,
    JournalFileError,
    JournalInputError,
    check_kind,
    check_name,
    check_time_ms,
    decode_payload,
    encode_payload,
    event_id,
)

APPLICATION_ID: Final = 0x57555A49
"""``PRAGMA application_id`` of a Wuzi journal ("WUZI")."""

SCHEMA_VERSION: Final = 1
"""``PRAGMA user_version`` written by this code; newer files are refused."""

SQLITE_HEADER: Final = b"SQLite format 3\x00"
PAGE_SIZE: Final = 256
"""Rows fetched per query while iterating, so no read holds a snapshot for long."""

_SNAPSHOTS: Final = (
    "CREATE TABLE IF NOT EXISTS snapshots ("
    " table_id TEXT PRIMARY KEY,"
    " seq INTEGER NOT NULL CHECK (seq >= 1),"
    " format TEXT NOT NULL,"
    " data BLOB NOT NULL)"
)

_KIND_INDEX: Final = "CREATE INDEX IF NOT EXISTS events_by_kind ON events (table_id, kind, seq)"
"""Where each table's last event of a kind is (``last_seq_of_kind``: its current game's
start), found at once rather than by scanning the table's day: a host recovering late in
the day would otherwise read every event of every table's earlier games."""

_SCHEMA: Final = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE events ("
    " pos INTEGER PRIMARY KEY,"
    " table_id TEXT NOT NULL,"
    " seq INTEGER NOT NULL CHECK (seq >= 1),"
    " id TEXT NOT NULL UNIQUE,"
    " kind TEXT NOT NULL,"
    " t_ms INTEGER NOT NULL CHECK (t_ms >= 0),"
    " payload TEXT NOT NULL,"
    " UNIQUE (table_id, seq))",
    "CREATE TABLE outbox (pos INTEGER PRIMARY KEY REFERENCES events (pos))",
    _SNAPSHOTS,
    _KIND_INDEX,
)

_COLUMNS: Final = "id, table_id, seq, kind, t_ms, payload"

S = TypeVar("S")

NewEvent = tuple[str, str, dict[str, Any], int] | tuple[str, str, dict[str, Any], int, bool]
"""What :meth:`Journal.append_many` takes: ``(table, kind, payload, t_ms[, publish])``."""


@dataclass(frozen=True)
class Snapshot:
    """A table's state as its events up to ``seq`` left it, in the caller's ``format``."""

    table: str
    seq: int
    format: str
    data: bytes


class Journal:
    """The append-only event log of one host; open with :meth:`Journal.open`.

    One writer per file (the host process); any number of readers may open the same file.
    Not thread-safe: use it from the thread that opened it.
    """

    def __init__(self, connection: sqlite3.Connection, path: Path, host_id: str) -> None:
        """Use :meth:`open`; this wraps an already checked connection."""
        self._db: sqlite3.Connection | None = connection
        self.path: Final = path
        self.host_id: Final = host_id

    # -- opening and closing -------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], host_id: str) -> Journal:
        """Open the journal of ``host_id`` at ``path``, creating it if the file is new.

        Raises :class:`JournalFileError` (naming the file) for a file that is not a SQLite
        database, a damaged one, another application's database, another host's journal or
        a newer schema; the file is left untouched in each case.
        """
        check_name("host id", host_id)
        file = Path(path)
        _check_header(file)
        try:
            db = sqlite3.connect(file, isolation_level=None)
        except sqlite3.Error as error:
            raise JournalFileError(f"{file}: cannot open the journal ({error})") from error
        try:
            _prepare(db, file, host_id)
        except BaseException:
            db.close()
            raise
        return cls(db, file, host_id)

    def close(self) -> None:
        """Close the database; further calls raise :class:`JournalClosedError`. Idempotent."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        return self._db is None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalClosedError(f"{self.path}: the journal is closed")
        return self._db

    # -- writing -------------------------------------------------------------------------

    def append(
        self, table: str, kind: str, payload: dict[str, Any], t_ms: int, *, publish: bool = True
    ) -> JournalEntry:
        """Append one event of ``table``, durable (committed and fsync'd) on return.

        The event gets the table's next ``seq`` and the id ``host/table/seq``, and (unless
        ``publish`` is False) waits in the outbox until :meth:`mark_sent`. Bad arguments
        raise :class:`JournalInputError` and nothing is written.
        """
        return self.append_many([(table, kind, payload, t_ms, publish)])[0]

    def append_many(self, events: Iterable[NewEvent]) -> list[JournalEntry]:
        """Append ``(table, kind, payload, t_ms[, publish])`` events in one transaction
        (one fsync).

        ``publish`` (default True) puts the event in the outbox; False keeps it in the
        journal only (a host's raw inputs: the truth to replay, not news for the bus).
        All or nothing: if any event is bad, none is written.
        """
        checked: list[tuple[str, str, str, int, bool]] = []
        for index, event in enumerate(events):
            try:
                if len(event) == 5:
                    table, kind, payload, t_ms, publish = event
                else:
                    table, kind, payload, t_ms = event
                    publish = True
                if not isinstance(publish, bool):
                    raise JournalInputError(f"publish must be True or False, not {publish!r}")
                checked.append(
                    (
                        check_name("table id", table),
                        check_kind(kind),
                        encode_payload(payload),
                        check_time_ms(t_ms),
                        publish,
                    )
                )
            except (TypeError, ValueError) as error:
                prefix = f"event {index}: " if index else ""
                raise JournalInputError(f"{prefix}{error}") from error
        db = self._conn()
        written: list[JournalEntry] = []
        next_seq: dict[str, int] = {}
        db.execute("BEGIN IMMEDIATE")
        try:
            for table, kind, text, t_ms, publish in checked:
                if table not in next_seq:
                    next_seq[table] = self._last_seq(db, table) + 1
                seq = next_seq[table]
                next_seq[table] = seq + 1
                ident = event_id(self.host_id, table, seq)
                cursor = db.execute(
                    "INSERT INTO events (table_id, seq, id, kind, t_ms, payload)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (table, seq, ident, kind, t_ms, text),
                )
                if publish:
                    db.execute("INSERT INTO outbox (pos) VALUES (?)", (cursor.lastrowid,))
                written.append(JournalEntry(ident, table, seq, kind, t_ms, decode_payload(text)))
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
        return written

    @staticmethod
    def _last_seq(db: sqlite3.Connection, table: str) -> int:
        row = db.execute("SELECT MAX(seq) FROM events WHERE table_id = ?", (table,)).fetchone()
        return int(row[0]) if row[0] is not None else 0

    # -- reading -------------------------------------------------------------------------

    def entries(self, table: str | None = None, since_seq: int = 0) -> Iterator[JournalEntry]:
        """Events in append order: all of them, or one table's with ``seq > since_seq``.

        Read in pages, so an iteration may also include events appended while it runs.
        """
        if table is not None:
            check_name("table id", table)
        if isinstance(since_seq, bool) or not isinstance(since_seq, int) or since_seq < 0:
            raise JournalInputError(f"since_seq must be a non-negative integer, not {since_seq!r}")
        self._conn()
        return self._iterate(table, since_seq)

    def _iterate(self, table: str | None, since_seq: int) -> Iterator[JournalEntry]:
        after = 0
        while True:
            if table is None:
                rows = self._conn().execute(
                    f"SELECT pos, {_COLUMNS} FROM events WHERE pos > ? AND seq > ?"
                    " ORDER BY pos LIMIT ?",
                    (after, since_seq, PAGE_SIZE),
                )
            else:
                rows = self._conn().execute(
                    f"SELECT pos, {_COLUMNS} FROM events"
                    " WHERE table_id = ? AND pos > ? AND seq > ? ORDER BY pos LIMIT ?",
                    (table, after, since_seq, PAGE_SIZE),
                )
            page = rows.fetchall()
            for row in page:
                yield _entry(row[1:])
            if len(page) < PAGE_SIZE:
                return
            after = page[-1][0]

    def tables(self) -> list[str]:
        """The ids of every table with at least one event, sorted."""
        rows = self._conn().execute("SELECT DISTINCT table_id FROM events ORDER BY table_id")
        return [str(row[0]) for row in rows]

    def last_seq(self, table: str) -> int:
        """The ``seq`` of the table's last event (0 if it has none)."""
        check_name("table id", table)
        return self._last_seq(self._conn(), table)

    def last_seq_of_kind(self, table: str, kind: str) -> int:
        """The ``seq`` of the table's last event of ``kind`` (0 if none): where the current
        game starts, so recovery replays one game rather than the table's whole day."""
        check_name("table id", table)
        check_kind(kind)
        row = (
            self._conn()
            .execute("SELECT MAX(seq) FROM events WHERE table_id = ? AND kind = ?", (table, kind))
            .fetchone()
        )
        return int(row[0]) if row[0] is not None else 0

    def newest_of_kind(self, table: str, kind: str) -> Iterator[JournalEntry]:
        """The table's events of ``kind``, newest first (by the kind index, in pages), so
        a reader that wants only the recent ones (the host's commands of the last two
        minutes, across the table's earlier games) stops early and reads nothing else."""
        check_name("table id", table)
        check_kind(kind)
        self._conn()
        return self._newest_of_kind(table, kind)

    def _newest_of_kind(self, table: str, kind: str) -> Iterator[JournalEntry]:
        before = 2**63 - 1
        while True:
            page = (
                self._conn()
                .execute(
                    f"SELECT {_COLUMNS} FROM events WHERE table_id = ? AND kind = ? AND seq < ?"
                    " ORDER BY seq DESC LIMIT ?",
                    (table, kind, before, PAGE_SIZE),
                )
                .fetchall()
            )
            for row in page:
                yield _entry(row)
            if len(page) < PAGE_SIZE:
                return
            before = int(page[-1][2])

    # -- snapshots -----------------------------------------------------------------------

    def save_snapshot(self, table: str, seq: int, format_id: str, data: bytes) -> None:
        """Keep ``data`` as the state of ``table`` after its event ``seq`` (replacing the
        table's previous snapshot).

        Committed without its own fsync (``synchronous = NORMAL`` for this transaction):
        a snapshot is a cache the events can rebuild, so it need not cost the loop a disk
        flush; WAL keeps the file consistent, and the next durable append flushes it too.
        Raises :class:`JournalInputError` for a ``seq`` the table has not reached.
        """
        check_name("table id", table)
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
            raise JournalInputError(f"seq must be a positive integer, not {seq!r}")
        if not isinstance(format_id, str) or not format_id:
            raise JournalInputError(f"format_id must be a non-empty string, not {format_id!r}")
        if not isinstance(data, bytes):
            raise JournalInputError(f"data must be bytes, not {type(data).__name__}")
        db = self._conn()
        last = self._last_seq(db, table)
        if seq > last:
            raise JournalInputError(f"table {table} has {last} events, no event {seq}")
        with _unflushed(db):
            db.execute(
                "INSERT INTO snapshots (table_id, seq, format, data) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE"
                " SET seq = excluded.seq, format = excluded.format, data = excluded.data",
                (table, seq, format_id, data),
            )

    def snapshot(self, table: str) -> Snapshot | None:
        """The table's snapshot, or None if it has none."""
        check_name("table id", table)
        row = (
            self._conn()
            .execute("SELECT seq, format, data FROM snapshots WHERE table_id = ?", (table,))
            .fetchone()
        )
        if row is None:
            return None
        return Snapshot(table, int(row[0]), str(row[1]), bytes(row[2]))

    # -- liveness --------------------------------------------------------------------------

    def note_alive(self, host_ns: int) -> None:
        """Record, durably, that the host was alive at ``host_ns`` (its own time base).

        Called about once a second: after a power cut the host continues its time base
        from the last instant it knew it was alive, so the outage is charged to no clock.
        """
        if isinstance(host_ns, bool) or not isinstance(host_ns, int) or host_ns < 0:
            raise JournalInputError(f"host_ns must be a non-negative integer, not {host_ns!r}")
        db = self._conn()
        db.execute(
            "INSERT INTO meta (key, value) VALUES ('alive_ns', ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (str(host_ns),),
        )

    def alive_ns(self) -> int | None:
        """The last instant recorded by :meth:`note_alive` (None if never)."""
        row = self._conn().execute("SELECT value FROM meta WHERE key = 'alive_ns'").fetchone()
        return None if row is None else int(row[0])

    # -- the outbox ----------------------------------------------------------------------

    def pending(self, limit: int = 100) -> list[JournalEntry]:
        """Up to ``limit`` events not yet acknowledged by the broker, oldest first."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise JournalInputError(f"limit must be a positive integer, not {limit!r}")
        rows = self._conn().execute(
            f"SELECT {_COLUMNS} FROM events JOIN outbox USING (pos) ORDER BY pos LIMIT ?",
            (limit,),
        )
        return [_entry(row) for row in rows]

    def mark_sent(self, ids: Iterable[str]) -> int:
        """Take the events ``ids`` out of the outbox; return how many were still in it.

        Idempotent: an id already acknowledged is ignored (the broker may acknowledge a
        repeat). An id that is not an event of this journal raises
        :class:`JournalInputError` and nothing changes.

        Committed without its own fsync (``synchronous = NORMAL`` for this transaction),
        as a snapshot is: a mark lost to a power cut only sends that event again after
        the restart (delivery is at least once; receivers know an event by its id), and
        the next durable append flushes it anyway. Each move's messages are acknowledged
        a few ms after the move; a flush for each acknowledgement cost the loop ~0.5 ms a
        time, in the way of the next table's press.
        """
        wanted = list(dict.fromkeys(ids))
        for ident in wanted:
            if not isinstance(ident, str):
                raise JournalInputError(f"event id must be a string, not {ident!r}")
        db = self._conn()
        with _unflushed(db):
            db.execute("BEGIN IMMEDIATE")
            try:
                positions: list[int] = []
                for ident in wanted:
                    row = db.execute("SELECT pos FROM events WHERE id = ?", (ident,)).fetchone()
                    if row is None:
                        raise JournalInputError(f"{self.path}: no event with id {ident!r}")
                    positions.append(int(row[0]))
                removed = 0
                for pos in positions:
                    removed += db.execute("DELETE FROM outbox WHERE pos = ?", (pos,)).rowcount
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise
        return removed


def replay(
    entries: Iterable[JournalEntry], reducer: Callable[[S, JournalEntry], S], initial: S
) -> S:
    """Rebuild a state by folding ``reducer`` over ``entries`` from ``initial``.

    The reducer must be pure (no I/O, no clock), so replaying the same journal always
    rebuilds the same state: that is what makes recovery after a crash exact.
    """
    state = initial
    for entry in entries:
        state = reducer(state, entry)
    return state


def measure_append_us(path: str | os.PathLike[str], n: int) -> float:
    """Median microseconds per durable :meth:`Journal.append` of ``n`` events at ``path``.

    For ``wuzi bench host`` (``host.journal_us_per_event``): the figure is mostly the
    disk's fsync latency. ``path`` should be a new file on the disk being measured.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    timings: list[int] = []
    with Journal.open(path, "bench") as journal:
        payload: dict[str, Any] = {"point": "h8", "colour": "black", "clock_ms": [0, 0]}
        for index in range(n):
            started = time.perf_counter_ns()
            journal.append(f"t{index % 24}", "bench.event", payload, index)
            timings.append(time.perf_counter_ns() - started)
    # imported here: a bench helper's import (fractions, decimal) is no host's to pay at start
    import statistics

    return statistics.median(timings) / 1000


# -- helpers -------------------------------------------------------------------------------


def _entry(row: Any) -> JournalEntry:
    ident, table, seq, kind, t_ms, payload = row
    return JournalEntry(
        str(ident), str(table), int(seq), str(kind), int(t_ms), decode_payload(payload)
    )


def _check_header(file: Path) -> None:
    """Refuse an existing non-empty file that is not a SQLite database, before SQLite runs."""
    what = not_regular(file)  # a FIFO would block the open below for ever
    if what is not None:
        raise JournalFileError(f"{file}: is {what}, not a journal file")
    try:
        with file.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        if not file.parent.is_dir():
            raise JournalFileError(f"{file}: the folder {file.parent} does not exist") from None
        return
    except OSError as error:
        raise JournalFileError(f"{file}: cannot read the journal ({error})") from error
    if header and header != SQLITE_HEADER:
        raise JournalFileError(f"{file}: not a Wuzi journal (not a SQLite database)")


def _prepare(db: sqlite3.Connection, file: Path, host_id: str) -> None:
    """Check an existing journal or create a new one, then set the durability pragmas."""
    try:
        application_id = int(db.execute("PRAGMA application_id").fetchone()[0])
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        objects = int(db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0])
        if application_id == 0 and version == 0 and objects == 0:
            _set_durability(db, file)
            _create(db, host_id)
            return
        if application_id != APPLICATION_ID:
            raise JournalFileError(f"{file}: not a Wuzi journal (another application's database)")
        if version != SCHEMA_VERSION:
            raise JournalFileError(
                f"{file}: journal schema version {version}, this program reads version "
                f"{SCHEMA_VERSION}"
            )
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise JournalFileError(f"{file}: the journal is damaged ({check})")
        if not _has(db, "snapshots"):
            db.execute(_SNAPSHOTS)  # a file written before snapshots: add the table
        if not _has(db, "events_by_kind"):
            db.execute(_KIND_INDEX)  # a file written before the index: built once, here
        row = db.execute("SELECT value FROM meta WHERE key = 'host_id'").fetchone()
        if row is None:
            raise JournalFileError(f"{file}: the journal has no host id")
        if row[0] != host_id:
            raise JournalFileError(
                f"{file}: this is the journal of host {row[0]!r}, not of host {host_id!r}"
            )
        _set_durability(db, file)
    except JournalError:
        raise
    except sqlite3.Error as error:
        raise JournalFileError(f"{file}: the journal is damaged or unreadable ({error})") from error


@contextmanager
def _unflushed(db: sqlite3.Connection) -> Iterator[None]:
    """What is committed inside is not fsync'd by its own commit (``synchronous =
    NORMAL``): for writes a power cut may lose without harm (a snapshot, an
    acknowledgement). WAL keeps the file consistent, and the next durable commit flushes
    them too. FULL again on the way out, whatever happened inside."""
    db.execute("PRAGMA synchronous = NORMAL")
    try:
        yield
    finally:
        db.execute("PRAGMA synchronous = FULL")


def _has(db: sqlite3.Connection, name: str) -> bool:
    """Whether the file holds a table or index ``name``."""
    return db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone() is not None


def _set_durability(db: sqlite3.Connection, file: Path) -> None:
    mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise JournalFileError(f"{file}: cannot use WAL mode here (got {mode!r})")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA busy_timeout = 5000")
    db.execute("PRAGMA foreign_keys = ON")


def _create(db: sqlite3.Connection, host_id: str) -> None:
    db.execute("BEGIN IMMEDIATE")
    try:
        for statement in _SCHEMA:
            db.execute(statement)
        db.execute("INSERT INTO meta (key, value) VALUES ('host_id', ?)", (host_id,))
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        _rollback(db)
        raise


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        db.execute("ROLLBACK")
