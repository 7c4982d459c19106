"""The director's database: the competition's own SQLite file, plus the director's tables.

The competition lives where the organisers' command keeps it (``wuzi tournament --db
FILE``: ``TournamentStore``), so organisers create the event and its entrants first and
the director runs it from the same file. Beside the tournament tables the director adds:

* ``director_game`` — every game it planned: round, match, slot, table, players, state,
  result, who reported it (host and event id) and who confirmed it, the full plan as JSON;
* ``director_audit`` — the appeals committee's log: seq, time, actor, action, details
  (JSON); append-only (triggers refuse UPDATE and DELETE);
* ``director_seen`` — every event and command id acted on, so a repeat changes nothing,
  also after a restart;
* ``director_host`` — the last status seen of each host (so a restart logs only changes);
  the draws of lots are the tournament's (``wuzi.tournament.draw_store``), read with the
  competition;
* ``director_meta`` — the director schema's version, and (``venue_event``) the venue
  event the database belongs to in a hall of several events (``stamp_event``: written at
  the first start of ``wuzi director --event``, checked at every later one,
  `wuzi.director.events`).

Every change of one input is written in one ``BEGIN IMMEDIATE`` transaction (SQLite's
rollback journal, ``synchronous=FULL``): a crash at any instant — SIGKILL, a power cut —
leaves the file as it was before the input or as it is after it, never in between. The
competition is rewritten (``TournamentStore._write``) only when it changed, and its
``log`` gets a ``director: …`` line each time, so ``wuzi tournament log`` shows the
director's changes among the organisers' own. If the organisers changed the competition
while the director ran (the ``log`` grew), ``commit`` refuses with ``StaleCompetition``
and the director reloads before it applies the input again.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from typing import Any

from wuzi.director.events import EventStamp
from wuzi.director.games import GAME_STATES, AuditEntry, Game, HostSeen
from wuzi.director.schedule import DirectorError, PlannedGame
from wuzi.tournament.draw import DrawRecord
from wuzi.tournament.draw_store import read_draws
from wuzi.tournament.errors import StoreError
from wuzi.tournament.event import Competition
from wuzi.tournament.results import GameResult
from wuzi.tournament.store import TournamentStore

__all__ = ["AuditRecord", "DirectorStore", "StaleCompetition", "Stored"]

DIRECTOR_SCHEMA_VERSION = 1

_STATES = ", ".join(f"'{s}'" for s in GAME_STATES)

DIRECTOR_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS director_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS director_game (
    id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL UNIQUE,
    round INTEGER NOT NULL,
    match INTEGER NOT NULL,
    slot TEXT NOT NULL,
    table_number INTEGER,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ({_STATES})),
    result TEXT,
    reason TEXT,
    reported_result TEXT,
    reported_by TEXT,
    reported_by_event TEXT,
    confirmed_by TEXT,
    issued_ms INTEGER,
    updated_ms INTEGER NOT NULL,
    plan TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS director_audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    details TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS director_audit_no_update BEFORE UPDATE ON director_audit
BEGIN SELECT RAISE(ABORT, 'the director audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS director_audit_no_delete BEFORE DELETE ON director_audit
BEGIN SELECT RAISE(ABORT, 'the director audit log is append-only'); END;
CREATE TABLE IF NOT EXISTS director_seen (
    id TEXT PRIMARY KEY,
    at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS director_host (
    host TEXT PRIMARY KEY,
    online INTEGER NOT NULL,
    boot_id TEXT NOT NULL,
    at_ms INTEGER NOT NULL
)
"""

_GAME_COLUMNS = (
    "id, seq, round, match, slot, table_number, black, white, state, result, reason, "
    "reported_result, reported_by, reported_by_event, confirmed_by, issued_ms, updated_ms, plan"
)


class StaleCompetition(Exception):
    """The organisers changed the competition since the director read it: reload."""

    def __init__(self, commands: list[str]) -> None:
        self.commands = commands
        super().__init__(f"{len(commands)} command(s) changed the competition meanwhile")


@dataclass(frozen=True)
class Stored:
    """Everything the director keeps, as read at start."""

    competition: Competition
    games: tuple[Game, ...]
    seen: frozenset[str]
    hosts: dict[str, HostSeen]
    log_seq: int  # the tournament log's last seq: who else wrote since?
    draws: tuple[DrawRecord, ...] = ()  # the draws of lots (``wuzi tournament draw``)


@dataclass(frozen=True)
class AuditRecord:
    seq: int
    at_ms: int
    actor: str
    action: str
    details: dict[str, Any]


def _result(text: str | None) -> GameResult | None:
    return None if text is None else GameResult(text)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class DirectorStore(TournamentStore):
    """A tournament database file with the director's tables."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(path)

    def _connect(self, create: bool) -> sqlite3.Connection:
        conn = super()._connect(create)
        conn.execute("PRAGMA synchronous=FULL")
        return conn

    # -- reading ------------------------------------------------------------------------

    def open(self) -> Stored:
        """Read the competition and the director's state, adding the director's tables
        to the file the first time. ``StoreError`` says what is wrong (no database yet
        names the command that creates one)."""
        try:
            return self._open()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a tournament database: {exc}") from None

    def _open(self) -> Stored:
        with self._transaction() as conn:
            comp = self._read(conn)  # checks it is a tournament database of our version
            self._ensure_schema(conn)
            games = tuple(self._games(conn))
            seen = frozenset(r[0] for r in conn.execute("SELECT id FROM director_seen"))
            hosts = {
                h: HostSeen(bool(online), boot, at)
                for h, online, boot, at in conn.execute(
                    "SELECT host, online, boot_id, at_ms FROM director_host"
                )
            }
            draws = tuple(read_draws(conn))
            return Stored(comp, games, seen, hosts, self._log_seq(conn), draws)

    def _ensure_schema(self, conn: sqlite3.Connection) -> None:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "director_meta" in tables:
            row = conn.execute(
                "SELECT value FROM director_meta WHERE key = 'schema_version'"
            ).fetchone()
            version = int(row[0]) if row is not None else 0
            if version != DIRECTOR_SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} has director schema version {version}; this wuzi reads "
                    f"version {DIRECTOR_SCHEMA_VERSION}"
                )
            return
        for statement in DIRECTOR_SCHEMA.split(";\n"):
            if statement.strip():
                conn.execute(statement)
        conn.execute(
            "INSERT INTO director_meta (key, value) VALUES ('schema_version', ?)",
            (str(DIRECTOR_SCHEMA_VERSION),),
        )

    def _games(self, conn: sqlite3.Connection) -> list[Game]:
        games = []
        for row in conn.execute(f"SELECT {_GAME_COLUMNS} FROM director_game ORDER BY seq"):
            (
                gid,
                seq,
                _round,
                _match,
                _slot,
                table,
                _black,
                _white,
                state,
                result,
                reason,
                reported,
                reported_by,
                event,
                confirmed_by,
                issued_ms,
                updated_ms,
                plan,
            ) = row
            try:
                planned = PlannedGame.from_json(json.loads(plan))
                games.append(
                    Game(
                        plan=planned,
                        seq=seq,
                        table=table,
                        state=state,
                        updated_ms=updated_ms,
                        issued_ms=issued_ms,
                        result=_result(result),
                        reason=reason,
                        reported_result=_result(reported),
                        reported_by=reported_by,
                        reported_by_event=event,
                        confirmed_by=confirmed_by,
                    )
                )
            except (ValueError, DirectorError) as exc:
                raise StoreError(f"{self.path}: game {gid!r} is stored badly: {exc}") from None
        return games

    @staticmethod
    def _log_seq(conn: sqlite3.Connection) -> int:
        row = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM log").fetchone()
        return int(row[0])

    def audit_records(self, since_seq: int = 0) -> list[AuditRecord]:
        """The audit log, oldest first (after ``since_seq``)."""
        try:
            return self._audit_records(since_seq)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a tournament database: {exc}") from None

    def _audit_records(self, since_seq: int) -> list[AuditRecord]:
        with self._transaction() as conn:
            self._check_schema(conn)
            tables = {
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if "director_audit" not in tables:
                return []
            return [
                AuditRecord(seq, at_ms, actor, action, json.loads(details))
                for seq, at_ms, actor, action, details in conn.execute(
                    "SELECT seq, at_ms, actor, action, details FROM director_audit "
                    "WHERE seq > ? ORDER BY seq",
                    (since_seq,),
                )
            ]

    def event_name(self) -> str:
        return self.load().settings.name

    def event_stamp(self) -> EventStamp | None:
        """The venue event the database belongs to, or None (never stamped: a one-event
        venue's, or a director not yet started on it)."""
        try:
            with self._transaction() as conn:
                return self._event_stamp(conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a tournament database: {exc}") from None

    def _event_stamp(self, conn: sqlite3.Connection) -> EventStamp | None:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "director_meta" not in tables:
            return None
        row = conn.execute("SELECT value FROM director_meta WHERE key = 'venue_event'").fetchone()
        if row is None:
            return None
        try:
            value = json.loads(row[0])
            return EventStamp(str(value["venue"]), str(value["event"]))
        except (ValueError, KeyError, TypeError):
            raise StoreError(f"{self.path}: director_meta venue_event is stored badly") from None

    def stamp_event(self, stamp: EventStamp) -> EventStamp:
        """Write ``stamp`` unless the database has one already; returns the stamp the
        database has now (the caller compares: a start racing another keeps the first)."""
        try:
            with self._transaction() as conn:
                self._ensure_schema(conn)
                found = self._event_stamp(conn)
                if found is not None:
                    return found
                conn.execute(
                    "INSERT INTO director_meta (key, value) VALUES ('venue_event', ?)",
                    (_json({"venue": stamp.venue, "event": stamp.event}),),
                )
                return stamp
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a tournament database: {exc}") from None

    def log_seq(self) -> int:
        """The tournament log's last seq (has anyone written since the director read?):
        one read, no write lock, so polling it never holds up the organisers' commands."""
        conn = self._connect(False)
        try:
            return self._log_seq(conn)
        finally:
            conn.close()

    def commands_since(self, seq: int) -> list[str]:
        """The tournament log's commands after ``seq`` (what the organisers did)."""
        with self._transaction() as conn:
            return [
                r[0]
                for r in conn.execute("SELECT command FROM log WHERE seq > ? ORDER BY seq", (seq,))
            ]

    def unaudited_draws(self) -> list[DrawRecord]:
        """Draws the director has not put in its audit yet (it was not running since):
        ``wuzi director audit`` shows them too, so the printout misses no draw."""
        with self._transaction() as conn:
            self._check_schema(conn)
            tables = {
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            seen: set[str] = set()
            if "director_seen" in tables:
                seen = {r[0] for r in conn.execute("SELECT id FROM director_seen")}
            return [d for d in read_draws(conn) if f"draw:{d.seq}" not in seen]

    # -- writing ------------------------------------------------------------------------

    def commit(
        self,
        *,
        competition: Competition | None,
        tournament_log: list[str],
        games: list[Game],
        seen: list[str],
        audit: list[AuditEntry],
        hosts: dict[str, HostSeen],
        at_ms: int,
        expected_log_seq: int,
    ) -> int:
        """Write one input's change in one transaction; returns the tournament log's new
        last seq. ``StaleCompetition`` (nothing written) if the log is not at
        ``expected_log_seq``: someone else changed the competition meanwhile."""
        with self._transaction() as conn:
            now_seq = self._log_seq(conn)
            if now_seq != expected_log_seq:
                commands = [
                    r[0]
                    for r in conn.execute(
                        "SELECT command FROM log WHERE seq > ? ORDER BY seq", (expected_log_seq,)
                    )
                ]
                raise StaleCompetition(commands)
            if competition is not None:
                self._write(conn, competition)
            conn.executemany("INSERT INTO log (command) VALUES (?)", [(c,) for c in tournament_log])
            conn.executemany(
                f"INSERT OR REPLACE INTO director_game ({_GAME_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [self._game_row(g) for g in games],
            )
            conn.executemany(
                "INSERT OR IGNORE INTO director_seen (id, at_ms) VALUES (?, ?)",
                [(s, at_ms) for s in seen],
            )
            conn.executemany(
                "INSERT INTO director_audit (at_ms, actor, action, details) VALUES (?, ?, ?, ?)",
                [(a.at_ms, a.actor, a.action, _json(a.details)) for a in audit],
            )
            conn.executemany(
                "INSERT OR REPLACE INTO director_host (host, online, boot_id, at_ms) "
                "VALUES (?, ?, ?, ?)",
                [(h, int(s.online), s.boot_id, s.at_ms) for h, s in hosts.items()],
            )
            return self._log_seq(conn)

    @staticmethod
    def _game_row(g: Game) -> tuple[object, ...]:
        p = g.plan
        return (
            g.id,
            g.seq,
            p.round,
            p.match,
            p.slot,
            g.table,
            p.black,
            p.white,
            g.state,
            g.result.value if g.result is not None else None,
            g.reason,
            g.reported_result.value if g.reported_result is not None else None,
            g.reported_by,
            g.reported_by_event,
            g.confirmed_by,
            g.issued_ms,
            g.updated_ms,
            _json(p.to_json()),
        )
