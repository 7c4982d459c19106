"""The competition in SQLite: one database file per event.

The database holds facts only — settings, entrants, pairings, results, playoffs — and
everything else (histories, standings, knockout pools) is recomputed by the pure core
(``event.Competition``). ``TournamentStore.update`` loads the competition, lets a function
change it, and writes it back, all in one ``BEGIN IMMEDIATE`` transaction: if anything
raises, the transaction is rolled back and the file is left exactly as it was. Every
successful change appends the command that made it to the ``log`` table.

Schema version 1 (``PRAGMA user_version``); foreign keys are enforced
(``PRAGMA foreign_keys=ON``) on every connection.

Reading checks every name as entry does (``names.check_name``): a file written by an older
Wuzi, or edited by hand, with a line break or an escape sequence in a name is a
``StoreError`` naming the table, the row and the column, never a crash and never a name
passed on to an export or a screen.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from wuzi.rules.board import Colour
from wuzi.tournament.entrants import Group, Player, Sex, Team
from wuzi.tournament.errors import StoreError, TournamentError
from wuzi.tournament.event import Competition, Entrant, EventSettings, Format, TiePlayoffRecord
from wuzi.tournament.history import Pairing, Round
from wuzi.tournament.names import NAME_MAX, REASON_MAX, check_name
from wuzi.tournament.results import GameResult, MatchKind, RoundResult, Scoring
from wuzi.tournament.tiebreaks import parse_order

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE setting (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE entrant (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('player', 'team')),
    name TEXT NOT NULL UNIQUE,
    entry_order INTEGER NOT NULL UNIQUE,
    seed INTEGER UNIQUE,
    joined_round INTEGER NOT NULL DEFAULT 1,
    withdrawn_round INTEGER,
    leader TEXT NOT NULL DEFAULT '',
    coach TEXT NOT NULL DEFAULT '',
    club TEXT NOT NULL DEFAULT ''
);
CREATE TABLE player (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    sex TEXT NOT NULL CHECK (sex IN ('m', 'f')),
    rating INTEGER NOT NULL,
    club TEXT NOT NULL DEFAULT '',
    entrant TEXT NOT NULL REFERENCES entrant(id),
    board INTEGER CHECK (board BETWEEN 1 AND 3),
    UNIQUE (entrant, board)
);
CREATE TABLE round (
    number INTEGER PRIMARY KEY CHECK (number >= 1)
);
CREATE TABLE pairing (
    round INTEGER NOT NULL REFERENCES round(number),
    board INTEGER NOT NULL CHECK (board >= 1),
    first TEXT NOT NULL REFERENCES entrant(id),
    second TEXT REFERENCES entrant(id),
    result TEXT,
    playoff TEXT NOT NULL DEFAULT '',
    first_place INTEGER,
    last_place INTEGER,
    manual_reason TEXT,
    PRIMARY KEY (round, board)
);
CREATE TABLE tie_playoff (
    first TEXT NOT NULL REFERENCES entrant(id),
    second TEXT NOT NULL REFERENCES entrant(id),
    games TEXT NOT NULL,
    PRIMARY KEY (first, second)
);
CREATE TABLE log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    command TEXT NOT NULL
);
"""


def _settings_rows(s: EventSettings) -> dict[str, str]:
    return {
        "format": s.format.value,
        "name": s.name,
        "rounds": str(s.rounds),
        "match": s.match.value,
        "rules": s.rules,
        "opening": s.opening,
        "scoring": str(s.scoring),
        "game_scoring": str(s.game_scoring),
        "tiebreaks": ",".join(t.value for t in s.tiebreaks) or "none",
        "time_control": s.time_control,
        "playoff_time_control": s.playoff_time_control,
        "double_round_robin": "1" if s.double_round_robin else "0",
        "group": s.group.value if s.group is not None else "",
        "initial_colour": s.initial_colour.label,
        "prizes": ",".join(str(p) for p in s.prizes),
        "k_factor": repr(s.k_factor),
    }


def _settings_from(rows: dict[str, str]) -> EventSettings:
    try:
        return EventSettings(
            format=Format.parse(rows["format"]),
            name=rows["name"],
            rounds=int(rows["rounds"]),
            match=MatchKind.parse(rows["match"]),
            rules=rows["rules"],
            opening=rows["opening"],
            scoring=Scoring.parse(rows["scoring"]),
            game_scoring=Scoring.parse(rows["game_scoring"]),
            tiebreaks=parse_order(rows["tiebreaks"]),
            time_control=rows["time_control"],
            playoff_time_control=rows["playoff_time_control"],
            double_round_robin=rows["double_round_robin"] == "1",
            group=Group.parse(rows["group"]) if rows["group"] else None,
            initial_colour=Colour.parse(rows["initial_colour"]),
            prizes=tuple(int(p) for p in rows["prizes"].split(",") if p),
            k_factor=float(rows["k_factor"]),
        )
    except KeyError as exc:
        raise StoreError(f"the database has no setting {exc.args[0]!r}") from None
    except (TournamentError, ValueError) as exc:
        raise StoreError(f"the database holds a bad setting: {exc}") from None


class TournamentStore:
    """A tournament database file."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)

    def _connect(self, create: bool) -> sqlite3.Connection:
        mode = "rwc" if create else "rw"
        uri = f"file:{self.path.resolve().as_posix()}?mode={mode}"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the tournament database {self.path}: {exc}") from None
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    @contextmanager
    def _transaction(self, create: bool = False) -> Iterator[sqlite3.Connection]:
        if not create and not self.path.exists():
            raise StoreError(
                f"no tournament database at {self.path}; create one with "
                f"'wuzi tournament --db {self.path} new --format …'"
            )
        conn = self._connect(create)
        try:
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.path} is not a tournament database: {exc}") from None
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()

    def create(
        self,
        settings: EventSettings,
        command: str,
        start: Competition | None = None,
        also: Callable[[sqlite3.Connection], object] | None = None,
    ) -> None:
        """Create the database for a new event; the file must not exist yet. ``start`` is
        the event as it begins when it is made with its entrants (the final's, from the
        semifinal and the direct places); it must have ``settings``. ``also`` writes more
        in the same transaction (the record of the bracket's draw, ``draw_store``)."""
        if start is not None and start.settings != settings:
            raise StoreError("the event to create does not have the settings given")
        if self.path.exists():
            raise StoreError(f"{self.path} already exists; a new event needs a new file")
        try:
            with self._transaction(create=True) as conn:
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                self._write(conn, start if start is not None else Competition(settings))
                conn.execute("INSERT INTO log (command) VALUES (?)", (command,))
                if also is not None:
                    also(conn)
        except BaseException:
            if self.path.exists():
                self.path.unlink()
            raise

    def load(self) -> Competition:
        with self._transaction() as conn:
            return self._read(conn)

    def update(self, change: Callable[[Competition], Competition], command: str) -> Competition:
        """Apply ``change`` in one transaction: all of it is stored, or nothing."""
        with self._transaction() as conn:
            before = self._read(conn)
            after = change(before)
            self._write(conn, after)
            conn.execute("INSERT INTO log (command) VALUES (?)", (command,))
            return after

    def log(self) -> list[str]:
        with self._transaction() as conn:
            return [row[0] for row in conn.execute("SELECT command FROM log ORDER BY seq")]

    # -- mapping ----------------------------------------------------------------------

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "setting" not in tables:
            raise StoreError(f"{self.path} is not a tournament database (no settings table)")
        if version != SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema version {version}; this wuzi reads version "
                f"{SCHEMA_VERSION}"
            )

    def _text(
        self, table: str, key: object, column: str, value: object, max_length: int = NAME_MAX
    ) -> str:
        """A stored name, checked as entry checks it; ``StoreError`` naming where it is."""
        where = f"table {table}, row {key!r}, column {column}"
        if not isinstance(value, str):
            raise StoreError(f"{self.path}: {where}: expected text, not {value!r}")
        try:
            return check_name(column, value, max_length=max_length, allow_empty=True)
        except TournamentError as exc:
            raise StoreError(
                f"{self.path}: {where}: {exc} (entered by an older Wuzi or by hand? correct "
                "it with sqlite3)"
            ) from None

    def _read(self, conn: sqlite3.Connection) -> Competition:
        try:
            return self._read_checked(conn)
        except StoreError:
            raise
        except TournamentError as exc:
            raise StoreError(f"{self.path} holds an entrant that breaks the rules: {exc}") from None

    def _read_checked(self, conn: sqlite3.Connection) -> Competition:
        self._check_schema(conn)
        settings = _settings_from(dict(conn.execute("SELECT key, value FROM setting")))
        players: dict[str, list[tuple[int | None, Player]]] = {}
        for pid, name, sex, rating, club, entrant, board in conn.execute(
            "SELECT id, name, sex, rating, club, entrant, board FROM player ORDER BY entrant, board"
        ):
            for column, value in (("id", pid), ("name", name), ("club", club)):
                self._text("player", pid, column, value)
            if sex not in ("m", "f") or isinstance(rating, bool) or not isinstance(rating, int):
                raise StoreError(f"{self.path}: table player, row {pid!r}: bad sex or rating")
            player = Player(pid, name, Sex(sex), rating, club)
            players.setdefault(entrant, []).append((board, player))
        entrants = []
        for row in conn.execute(
            "SELECT id, kind, name, entry_order, seed, joined_round, withdrawn_round, leader, "
            "coach, club FROM entrant ORDER BY entry_order"
        ):
            eid, kind, name, order, seed, joined, withdrawn, leader, coach, club = row
            for column, value in (
                ("id", eid),
                ("name", name),
                ("leader", leader),
                ("coach", coach),
                ("club", club),
            ):
                self._text("entrant", eid, column, value)
            members = players.get(eid, [])
            if kind == "team":
                team = Team(
                    eid,
                    name,
                    tuple(p for _, p in sorted(members, key=lambda m: m[0] or 0)),
                    leader,
                    coach,
                    club,
                )
                entrants.append(
                    Entrant(eid, name, team.rating, order, seed, joined, withdrawn, team=team)
                )
            else:
                if len(members) != 1:
                    raise StoreError(f"entrant {eid!r} has {len(members)} player rows, not 1")
                player = members[0][1]
                entrants.append(
                    Entrant(eid, name, player.rating, order, seed, joined, withdrawn, player=player)
                )
        rounds: dict[int, list[Pairing]] = {
            number: [] for (number,) in conn.execute("SELECT number FROM round ORDER BY number")
        }
        for row in conn.execute(
            "SELECT round, board, first, second, result, playoff, first_place, last_place, "
            "manual_reason FROM pairing ORDER BY round, board"
        ):
            rnd, board, first, second, result, playoff, low, high, reason = row
            if reason is not None:
                self._text(
                    "pairing", f"round {rnd} board {board}", "manual_reason", reason, REASON_MAX
                )
            try:
                parsed = RoundResult.parse(result, settings.match) if result is not None else None
                games = tuple(GameResult.parse(g) for g in playoff.split(",") if g)
            except TournamentError as exc:
                raise StoreError(f"round {rnd} board {board} holds a bad result: {exc}") from None
            places = (low, high) if low is not None else None
            rounds[rnd].append(Pairing(board, first, second, parsed, games, places, reason))
        ties = tuple(
            TiePlayoffRecord(a, b, tuple(GameResult.parse(g) for g in games.split(",") if g))
            for a, b, games in conn.execute("SELECT first, second, games FROM tie_playoff")
        )
        return Competition(
            settings,
            tuple(entrants),
            tuple(Round(n, tuple(p)) for n, p in sorted(rounds.items())),
            ties,
        )

    def _write(self, conn: sqlite3.Connection, comp: Competition) -> None:
        for table in ("tie_playoff", "pairing", "round", "player", "entrant", "setting"):
            conn.execute(f"DELETE FROM {table}")
        conn.executemany(
            "INSERT INTO setting (key, value) VALUES (?, ?)", _settings_rows(comp.settings).items()
        )
        for e in comp.entrants:
            team = e.team
            conn.execute(
                "INSERT INTO entrant (id, kind, name, entry_order, seed, joined_round, "
                "withdrawn_round, leader, coach, club) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    e.id,
                    "team" if team is not None else "player",
                    e.name,
                    e.order,
                    e.seed,
                    e.joined_round,
                    e.withdrawn_round,
                    team.leader if team is not None else "",
                    team.coach if team is not None else "",
                    team.club if team is not None else "",
                ),
            )
            members: list[tuple[int | None, Player]]
            if team is not None:
                members = [(i + 1, p) for i, p in enumerate(team.players)]
            else:
                assert e.player is not None
                members = [(None, e.player)]
            conn.executemany(
                "INSERT INTO player (id, name, sex, rating, club, entrant, board) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(p.id, p.name, p.sex.value, p.rating, p.club, e.id, b) for b, p in members],
            )
        for rnd in comp.rounds:
            conn.execute("INSERT INTO round (number) VALUES (?)", (rnd.number,))
            conn.executemany(
                "INSERT INTO pairing (round, board, first, second, result, playoff, "
                "first_place, last_place, manual_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        rnd.number,
                        p.board,
                        p.first,
                        p.second,
                        str(p.result) if p.result is not None else None,
                        ",".join(g.value for g in p.playoff),
                        p.places[0] if p.places else None,
                        p.places[1] if p.places else None,
                        p.manual_reason,
                    )
                    for p in rnd.pairings
                ],
            )
        conn.executemany(
            "INSERT INTO tie_playoff (first, second, games) VALUES (?, ?, ?)",
            [(t.first, t.second, ",".join(g.value for g in t.games)) for t in comp.tie_playoffs],
        )
