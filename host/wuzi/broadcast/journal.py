"""The delay buffer's journal: what the broadcast holds survives its restart (SQLite).

Why a journal rather than rebuilding from the broker's retained messages: a restart sees
only each table's *latest* live state — the moves of the last N minutes are already in
it, so rebuilding would either publish them at once (the future, early) or wait N minutes
and skip every state in between (and the events, which are not retained, are gone). The
journal keeps every held message with its due time, so after a restart each one goes out
when it was always going to, and a message that fell due while the process was down goes
out at once, late but in order: nothing early, nothing skipped.

A row is written (one transaction, ``synchronous=FULL``) when a message is accepted, and
deleted once the broker has acknowledged its public copy (`BusClient`'s ``on_sent``), so
a crash between the two republishes it: at least once, as everywhere on the bus (readers
drop repeats by ``event_id`` and ``seq``). The last state and event taken per table are
kept beside, so repeats are still recognised after a restart (`PublicDelay.remembered`).

Payloads are stored as their bus encoding and parsed back with the bus parser, so a row
that does not parse any more (a schema change) is an error naming the row, never
published.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from wuzi.broadcast.delay import Held
from wuzi.bus.schemas import (
    Cleared,
    Message,
    MessageError,
    TableEvent,
    TableState,
    encode,
    parse_message,
)

__all__ = ["Journal", "JournalError"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS held (
    key INTEGER PRIMARY KEY,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    due_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS last (
    topic TEXT PRIMARY KEY,
    payload BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class JournalError(RuntimeError):
    """The journal cannot be opened or holds something unreadable; says the file and row."""


class Journal:
    """One SQLite file; used by one thread at a time (the broadcast's loop)."""

    def __init__(self, path: str | Path, venue: str) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # one thread at a time (made, used by the loop, closed after it ended): not
            # necessarily the same one, so sqlite3's same-thread check is off
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(f"cannot open the broadcast journal {self.path}: {exc}") from None
        row = self._db.execute("SELECT value FROM meta WHERE name = 'venue'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('venue', ?)", (venue,))
        elif row[0] != venue:
            raise JournalError(
                f"the broadcast journal {self.path} belongs to venue {row[0]!r}, not {venue!r}: "
                "give each venue its own [broadcast] journal"
            )

    def close(self) -> None:
        self._db.close()

    def add(self, item: Held, remembered: Iterable[tuple[str, Message]]) -> None:
        """Keep ``item`` and the table's last state and event, in one transaction."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO held (key, topic, payload, due_ms) VALUES (?, ?, ?, ?)",
                (item.key, item.topic, encode(item.message), item.due_ms),
            )
            for topic, message in remembered:
                self._db.execute(
                    "INSERT OR REPLACE INTO last (topic, payload) VALUES (?, ?)",
                    (topic, encode(message)),
                )

    def sent(self, keys: Iterable[int]) -> None:
        """Forget the held messages ``keys``: the broker has their public copies."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("DELETE FROM held WHERE key = ?", [(k,) for k in keys])

    def held(self) -> list[Held]:
        """Every message still held, in key order."""
        out: list[Held] = []
        for key, topic, payload, due_ms in self._db.execute(
            "SELECT key, topic, payload, due_ms FROM held ORDER BY key"
        ):
            message = self._parse(f"held row {key}", topic, payload)
            assert isinstance(message, TableState | TableEvent | Cleared)
            out.append(Held(key, topic, message, due_ms))
        return out

    def remembered(self) -> list[tuple[str, Message]]:
        """The last state and event taken per table (live topics)."""
        return [
            (topic, self._parse(f"last row {topic}", topic, payload))
            for topic, payload in self._db.execute("SELECT topic, payload FROM last")
        ]

    def _parse(self, what: str, topic: str, payload: bytes) -> Message:
        try:
            return parse_message(topic, bytes(payload))
        except MessageError as exc:
            raise JournalError(f"{self.path}: {what} does not parse: {exc}") from None
