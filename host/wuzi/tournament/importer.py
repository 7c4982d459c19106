"""Entrants from a CSV file (``wuzi tournament import FILE.csv``).

The first row is a header; column names are case-insensitive. Individual events: ``name``
and ``sex`` (m/f), optionally ``rating``, ``id``, ``club``, ``seed``. Team events: one row
per board with ``team``, ``board`` (1–3), ``name``, ``sex``, optionally ``rating``, ``id``,
``club``, and on any of the team's rows ``seed``, ``leader``, ``coach``.

Any other column is an error naming it and the known ones: a misspelt ``ratng`` would
otherwise import every rating as 0 without a word. ``ignore_unknown_columns``
(``--ignore-unknown-columns``) imports such a file without its unknown columns. A column
with no name in the header is ignored while its cells are empty.

Every cell read holds no control, line-break or invisible format character and at most
``NAME_MAX`` characters (``csvfile.check_cell``). Every error names the line (the line in
the file, also after a quoted cell with a line break) and the column; the import is all
or nothing.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from wuzi.tournament.csvfile import check_cell, csv_records
from wuzi.tournament.entrants import Player, Sex, Team
from wuzi.tournament.errors import CsvError, EntryError
from wuzi.tournament.event import Competition
from wuzi.tournament.names import NAME_MAX

WHAT = "import CSV"
INDIVIDUAL_COLUMNS = ("name", "sex", "rating", "id", "club", "seed")
TEAM_COLUMNS = ("team", "board", "name", "sex", "rating", "id", "club", "seed", "leader", "coach")


def _unknown(header: list[str], known: tuple[str, ...], kind: str) -> CsvError:
    shown = []
    for name in header:
        if name and name not in known:
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            shown.append(f"{name!r} (did you mean {close[0]!r}?)" if close else repr(name))
    plural = "s" if len(shown) > 1 else ""
    return CsvError(
        f"{WHAT} line 1: unknown column{plural} {', '.join(shown)}; the columns of {kind} "
        f"event are {', '.join(known)} (--ignore-unknown-columns imports the file without "
        "the others)"
    )


def _rows(
    lines: Iterable[str], known: tuple[str, ...], kind: str, ignore_unknown: bool
) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    records = csv_records(lines, WHAT)
    if not records or not any(c.strip() for c in records[0][1]):
        raise CsvError(f"{WHAT} line 1: expected a header row (name, sex, rating, …)")
    raw = records[0][1]
    if raw:
        raw = [raw[0].removeprefix("\ufeff"), *raw[1:]]
    for i, cell in enumerate(raw, start=1):
        check_cell(WHAT, 1, f"header {i}", cell, NAME_MAX)
    header = [h.strip().lower() for h in raw]
    named = [h for h in header if h]
    for name in named:
        if named.count(name) > 1:
            raise CsvError(f"{WHAT} line 1: the column {name!r} is named twice in the header")
    if not ignore_unknown and any(h and h not in known for h in header):
        raise _unknown(header, known, kind)
    found = []
    for number, row in records[1:]:
        if not any(c.strip() for c in row):
            continue
        if len(row) > len(header):
            raise CsvError(f"{WHAT} line {number}: {len(row)} cells, but {len(header)} columns")
        cells: dict[str, str] = {}
        for i, cell in enumerate(row):
            column = header[i]
            if column in known:
                check_cell(WHAT, number, column, cell, NAME_MAX)
                cells[column] = cell.strip()
            elif not column and cell.strip() and not ignore_unknown:
                raise CsvError(
                    f"{WHAT} line {number}, column {i + 1}: a value in a column with no name "
                    "in the header (line 1)"
                )
        found.append((number, {h: cells.get(h, "") for h in header if h in known}))
    return header, found


def _int(row: dict[str, str], column: str, line: int, default: int | None) -> int | None:
    text = row.get(column, "")
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise CsvError(
            f"{WHAT} line {line}, column {column!r}: {text!r} is not a whole number"
        ) from None


def _player(row: dict[str, str], line: int) -> Player:
    name = row.get("name", "")
    if not name:
        raise CsvError(f"{WHAT} line {line}, column 'name': the name is empty")
    try:
        sex = Sex.parse(row.get("sex", ""))
    except EntryError as exc:
        raise CsvError(f"{WHAT} line {line}, column 'sex': {exc}") from None
    rating = _int(row, "rating", line, 0)
    assert rating is not None
    try:
        return Player(row.get("id") or name, name, sex, rating, row.get("club", ""))
    except EntryError as exc:
        raise CsvError(f"{WHAT} line {line}: {exc}") from None


def import_entrants(
    comp: Competition, lines: Iterable[str], *, ignore_unknown_columns: bool = False
) -> Competition:
    """``comp`` with every entrant of the CSV added (in file order); ``lines`` as
    ``csvfile.csv_lines`` gives them (or any lines the csv module reads)."""
    team_event = comp.settings.team_event
    known = TEAM_COLUMNS if team_event else INDIVIDUAL_COLUMNS
    kind = "a team" if team_event else "an individual"
    header, rows = _rows(lines, known, kind, ignore_unknown_columns)
    needed = ("team", "board", "name", "sex") if team_event else ("name", "sex")
    for column in needed:
        if column not in header:
            raise CsvError(
                f"{WHAT} line 1: {kind} event needs a {column!r} column "
                f"(the header has {', '.join(header)})"
            )
    if not rows:
        raise CsvError(f"{WHAT}: no entrants after the header")
    if not team_event:
        for line, row in rows:
            try:
                comp = comp.add_player(_player(row, line), _int(row, "seed", line, None))
            except EntryError as exc:
                raise CsvError(f"{WHAT} line {line}: {exc}") from None
        return comp
    teams: dict[str, dict[int, tuple[int, Player]]] = {}
    extra: dict[str, dict[str, str]] = {}
    first_line: dict[str, int] = {}
    for line, row in rows:
        team = row["team"]
        if not team:
            raise CsvError(f"{WHAT} line {line}, column 'team': the team name is empty")
        board = _int(row, "board", line, None)
        if board not in (1, 2, 3):
            raise CsvError(f"{WHAT} line {line}, column 'board': a board is 1, 2 or 3")
        boards = teams.setdefault(team, {})
        first_line.setdefault(team, line)
        if board in boards:
            raise CsvError(
                f"{WHAT} line {line}: team {team!r} board {board} is already on line "
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
            raise CsvError(f"{WHAT} line {line}: team {team!r} has no board {missing}")
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
            raise CsvError(f"{WHAT} line {line}: {exc}") from None
    return comp
