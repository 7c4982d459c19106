"""Entrants from a CSV file (``wuzi tournament import FILE.csv``).

The first row is a header; column names are case-insensitive and other columns are
ignored. Individual events: ``name`` and ``sex`` (m/f), optionally ``rating``, ``id``,
``club``, ``seed``. Team events: one row per board with ``team``, ``board`` (1–3), ``name``,
``sex``, optionally ``rating``, ``id``, ``club``, and on any of the team's rows ``seed``,
``leader``, ``coach``. Every error names the line and the column; the import is all or
nothing.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable

from wuzi.tournament.entrants import Player, Sex, Team
from wuzi.tournament.errors import CsvError, EntryError
from wuzi.tournament.event import Competition


def _rows(lines: Iterable[str]) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    rows = list(csv.reader(lines))
    if not rows or not any(c.strip() for c in rows[0]):
        raise CsvError("import CSV line 1: expected a header row (name, sex, rating, …)")
    header = [h.strip().lower() for h in rows[0]]
    if len(set(header)) != len(header):
        raise CsvError("import CSV line 1: a column name is repeated in the header")
    found = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        if len(row) > len(header):
            raise CsvError(f"import CSV line {number}: {len(row)} cells, but {len(header)} columns")
        found.append(
            (number, {h: (row[i].strip() if i < len(row) else "") for i, h in enumerate(header)})
        )
    return header, found


def _int(row: dict[str, str], column: str, line: int, default: int | None) -> int | None:
    text = row.get(column, "")
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise CsvError(
            f"import CSV line {line}, column {column!r}: {text!r} is not a whole number"
        ) from None


def _player(row: dict[str, str], line: int) -> Player:
    name = row.get("name", "")
    if not name:
        raise CsvError(f"import CSV line {line}, column 'name': the name is empty")
    try:
        sex = Sex.parse(row.get("sex", ""))
    except EntryError as exc:
        raise CsvError(f"import CSV line {line}, column 'sex': {exc}") from None
    rating = _int(row, "rating", line, 0)
    assert rating is not None
    try:
        return Player(row.get("id") or name, name, sex, rating, row.get("club", ""))
    except EntryError as exc:
        raise CsvError(f"import CSV line {line}: {exc}") from None


def import_entrants(comp: Competition, lines: Iterable[str]) -> Competition:
    """``comp`` with every entrant of the CSV added (in file order)."""
    header, rows = _rows(lines)
    team_event = comp.settings.team_event
    needed = ("team", "board", "name", "sex") if team_event else ("name", "sex")
    for column in needed:
        if column not in header:
            kind = "a team" if team_event else "an individual"
            raise CsvError(
                f"import CSV line 1: {kind} event needs a {column!r} column "
                f"(the header has {', '.join(header)})"
            )
    if not rows:
        raise CsvError("import CSV: no entrants after the header")
    if not team_event:
        for line, row in rows:
            try:
                comp = comp.add_player(_player(row, line), _int(row, "seed", line, None))
            except EntryError as exc:
                raise CsvError(f"import CSV line {line}: {exc}") from None
        return comp
    teams: dict[str, dict[int, tuple[int, Player]]] = {}
    extra: dict[str, dict[str, str]] = {}
    first_line: dict[str, int] = {}
    for line, row in rows:
        team = row["team"]
        if not team:
            raise CsvError(f"import CSV line {line}, column 'team': the team name is empty")
        board = _int(row, "board", line, None)
        if board not in (1, 2, 3):
            raise CsvError(f"import CSV line {line}, column 'board': a board is 1, 2 or 3")
        boards = teams.setdefault(team, {})
        first_line.setdefault(team, line)
        if board in boards:
            raise CsvError(
                f"import CSV line {line}: team {team!r} board {board} is already on line "
                f"{boards[board][0]}"
            )
        boards[board] = (line, _player(row, line))
        info = extra.setdefault(team, {})
        for column in ("seed", "leader", "coach", "club"):
            if row.get(column):
                info[column] = row[column]
                if column == "seed":
                    _int(row, "seed", line, None)
    for team, boards in teams.items():
        line = first_line[team]
        if set(boards) != {1, 2, 3}:
            missing = ", ".join(str(b) for b in (1, 2, 3) if b not in boards)
            raise CsvError(f"import CSV line {line}: team {team!r} has no board {missing}")
        info = extra[team]
        try:
            entry = Team(
                team,
                team,
                tuple(boards[b][1] for b in (1, 2, 3)),
                info.get("leader", ""),
                info.get("coach", ""),
                info.get("club", ""),
            )
            seed = int(info["seed"]) if "seed" in info else None
            comp = comp.add_team(entry, seed)
        except EntryError as exc:
            raise CsvError(f"import CSV line {line}: {exc}") from None
    return comp
