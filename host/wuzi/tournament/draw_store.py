"""The draws of lots in the competition's SQLite file (the ``draw`` table).

A draw is a fact of the event like a result: it goes into the same file, in the same
transaction as what it changes in the competition (the seeds of a bracket draw, the order
of a round's pairings after a first-mover draw) and as its line in the ``log`` (so
``wuzi tournament log`` shows it among the other commands, and a running director sees
the log grow and reloads). The table is added the first time a draw is made, beside the
tournament schema (version 1, unchanged), as the director adds its own tables.

``draw``: ``seq`` (the record's number), ``at_ms``, ``kind`` (``bracket``, ``first-mover``,
``opening``), ``round``, ``by_name`` (who asked for it, a checked name), ``method`` (``lot``
or ``set``), ``seed`` (a lot's seed), ``result`` and ``options`` (JSON). Rows are never
changed or deleted (triggers refuse it): a new draw for the same round replaces the old
one by coming later.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import replace

from wuzi.tournament.draw import DrawKind, DrawRecord
from wuzi.tournament.errors import StoreError, TournamentError
from wuzi.tournament.event import Competition
from wuzi.tournament.names import check_name
from wuzi.tournament.store import TournamentStore

__all__ = ["DRAW_SCHEMA", "DrawStore", "insert_draw", "read_draws"]

DRAW_SCHEMA = """
CREATE TABLE IF NOT EXISTS draw (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('bracket', 'first-mover', 'opening', 'preliminary')),
    round INTEGER,
    by_name TEXT NOT NULL,
    method TEXT NOT NULL CHECK (method IN ('lot', 'set')),
    seed INTEGER,
    result TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}'
);
CREATE TRIGGER IF NOT EXISTS draw_no_update BEFORE UPDATE ON draw
BEGIN SELECT RAISE(ABORT, 'a draw is never changed: draw again'); END;
CREATE TRIGGER IF NOT EXISTS draw_no_delete BEFORE DELETE ON draw
BEGIN SELECT RAISE(ABORT, 'a draw is never deleted: draw again'); END
"""


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def read_draws(conn: sqlite3.Connection) -> list[DrawRecord]:
    """Every draw, oldest first (none when no draw was ever made)."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "draw" not in tables:
        return []
    records = []
    for seq, at_ms, kind, rnd, by, method, seed, result, options in conn.execute(
        "SELECT seq, at_ms, kind, round, by_name, method, seed, result, options "
        "FROM draw ORDER BY seq"
    ):
        try:
            records.append(
                DrawRecord(
                    kind=DrawKind(kind),
                    round=rnd,
                    by=check_name("draw by", by),
                    method=method,
                    seed=seed,
                    result=json.loads(result),
                    options=json.loads(options),
                    at_ms=at_ms,
                    seq=seq,
                )
            )
        except (TournamentError, ValueError) as exc:
            raise StoreError(f"table draw, row {seq}: {exc}") from None
    return records


def insert_draw(conn: sqlite3.Connection, record: DrawRecord) -> int:
    """Store ``record`` (adding the table the first time); returns its seq."""
    for statement in DRAW_SCHEMA.split(";\n"):
        if statement.strip():
            conn.execute(statement)
    cursor = conn.execute(
        "INSERT INTO draw (at_ms, kind, round, by_name, method, seed, result, options) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            record.at_ms,
            record.kind.value,
            record.round,
            check_name("--by", record.by),
            record.method,
            record.seed,
            _json(dict(record.result)),
            _json(dict(record.options)),
        ),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


Make = Callable[[Competition, list[DrawRecord]], tuple[Competition | None, DrawRecord]]


class DrawStore(TournamentStore):
    """A tournament database that records draws."""

    def draws(self) -> list[DrawRecord]:
        with self._transaction() as conn:
            self._read(conn)  # a tournament database of our version
            return read_draws(conn)

    def draw(
        self, make: Make, command: Callable[[Competition, DrawRecord], str]
    ) -> tuple[Competition, DrawRecord]:
        """In one transaction: ``make`` gets the competition and the draws so far and
        returns the changed competition (None: unchanged) and the new record; the record,
        the competition and the log line ``command(competition, record)`` are written, or
        nothing."""
        with self._transaction() as conn:
            before = self._read(conn)
            after, record = make(before, read_draws(conn))
            seq = insert_draw(conn, record)
            stored = replace(record, seq=seq)
            if after is not None:
                self._write(conn, after)
            comp = after if after is not None else before
            conn.execute("INSERT INTO log (command) VALUES (?)", (command(comp, stored),))
            return comp, stored
