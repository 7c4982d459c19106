"""Entrants from a CSV file (``wuzi tournament import FILE.csv``).

The first row is a header; column names are case-insensitive. Individual events: ``name``
and ``sex`` (m/f), optionally ``rating``, ``id``, ``club``, ``seed``. Team events: one row
per board with ``team``, ``board`` (1–3), ``name``, ``sex``, optionally ``rating``, ``id``,
``club``, and on any of the team's rows ``seed``, ``leader``, ``coach``, ``registered`` (the
date its entry form came in, checked against a registration window: ``registration``). A semifinal
(``team-semifinal``) also needs ``group`` (``public`` or ``pro``) and ``seed`` (the team's
place in that group's preliminary, 1–8) for every team; a group named in the file must
then hold exactly 8 teams (with those entered before), one per place (000 五(二)).

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

from wuzi.base.numbers import NumberError, parse_int
from wuzi.tournament import semifinal
from wuzi.tournament.csvfile import check_cell, csv_records
from wuzi.tournament.entrants import Player, Sex, Team
from wuzi.tournament.errors import CsvError, EntryError
from wuzi.tournament.event import Competition, Format
from wuzi.tournament.names import NAME_MAX
from wuzi.tournament.registration import Window, check_registered

WHAT = "import CSV"
INDIVIDUAL_COLUMNS = ("name", "sex", "rating", "id", "club", "seed")
TEAM_COLUMNS = (
    "team", "board", "name", "sex", "rating", "id", "club", "seed", "leader", "coach",
    "registered",
)  # fmt: skip
SEMIFINAL_COLUMNS = (*TEAM_COLUMNS, "group")


def _unknown(header: list[str], known: tuple[str, ...], kind: str, what: str) -> CsvError:
    shown = []
    for name in header:
        if name and name not in known:
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            shown.append(f"{name!r} (did you mean {close[0]!r}?)" if close else repr(name))
    plural = "s" if len(shown) > 1 else ""
    return CsvError(
        f"{what} line 1: unknown column{plural} {', '.join(shown)}; the columns of {kind} "
        f"event are {', '.join(known)} (--ignore-unknown-columns imports the file without "
        "the others)"
    )


def _rows(
    lines: Iterable[str], known: tuple[str, ...], kind: str, ignore_unknown: bool, what: str
) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    records = csv_records(lines, what)
    if not records or not any(c.strip() for c in records[0][1]):
        raise CsvError(f"{what} line 1: expected a header row (name, sex, rating, …)")
    raw = records[0][1]
    if raw:
        raw = [raw[0].removeprefix("\ufeff"), *raw[1:]]
    for i, cell in enumerate(raw, start=1):
        check_cell(what, 1, f"header {i}", cell, NAME_MAX)
    header = [h.strip().lower() for h in raw]
    named = [h for h in header if h]
    for name in named:
        if named.count(name) > 1:
            raise CsvError(f"{what} line 1: the column {name!r} is named twice in the header")
    if not ignore_unknown and any(h and h not in known for h in header):
        raise _unknown(header, known, kind, what)
    found = []
    for number, row in records[1:]:
        if not any(c.strip() for c in row):
            continue
        if len(row) > len(header):
            raise CsvError(f"{what} line {number}: {len(row)} cells, but {len(header)} columns")
        cells: dict[str, str] = {}
        for i, cell in enumerate(row):
            column = header[i]
            if column in known:
                check_cell(what, number, column, cell, NAME_MAX)
                cells[column] = cell.strip()
            elif not column and cell.strip() and not ignore_unknown:
                raise CsvError(
                    f"{what} line {number}, column {i + 1}: a value in a column with no name "
                    "in the header (line 1)"
                )
        found.append((number, {h: cells.get(h, "") for h in header if h in known}))
    return header, found


_RANGES = {"rating": (0, 4000), "seed": (1, 99_999), "board": (1, 99)}
"""What each number column may hold: a rating as `Player` allows it, a seed or a board
number far above any event's (the event's own checks then say what it allows)."""


def _int(
    row: dict[str, str], column: str, line: int, default: int | None, what: str = WHAT
) -> int | None:
    text = row.get(column, "")
    if not text:
        return default
    return _number(text, column, line, what)


def _number(text: str, column: str, line: int, what: str) -> int:
    """A cell as an ASCII decimal number in its column's range (``٣٤٥٦`` is no rating)."""
    low, high = _RANGES[column]
    try:
        return parse_int(text, column, low, high)
    except NumberError as exc:
        raise CsvError(f"{what} line {line}, column {column!r}: {exc}") from None


def _player(row: dict[str, str], line: int, what: str) -> Player:
    name = row.get("name", "")
    if not name:
        raise CsvError(f"{what} line {line}, column 'name': the name is empty")
    try:
        sex = Sex.parse(row.get("sex", ""))
    except EntryError as exc:
        raise CsvError(f"{what} line {line}, column 'sex': {exc}") from None
    rating = _int(row, "rating", line, 0, what)
    assert rating is not None
    try:
        return Player(row.get("id") or name, name, sex, rating, row.get("club", ""))
    except EntryError as exc:
        raise CsvError(f"{what} line {line}: {exc}") from None


def import_entrants(
    comp: Competition,
    lines: Iterable[str],
    *,
    ignore_unknown_columns: bool = False,
    what: str = WHAT,
    registration: Window | None = None,
) -> Competition:
    """``comp`` with every entrant of the CSV added (in file order); ``lines`` as
    ``csvfile.csv_lines`` gives them (or any lines the csv module reads). ``what`` starts
    every error message (``import CSV``, or a file's role and name). ``registration``:
    every team's ``registered`` date must fall in it (``registration``)."""
    team_event = comp.settings.team_event
    semi = comp.settings.format is Format.TEAM_SEMIFINAL
    known = SEMIFINAL_COLUMNS if semi else TEAM_COLUMNS if team_event else INDIVIDUAL_COLUMNS
    kind = "a team-semifinal" if semi else "a team" if team_event else "an individual"
    header, rows = _rows(lines, known, kind, ignore_unknown_columns, what)
    needed = ("team", "board", "name", "sex") if team_event else ("name", "sex")
    if semi:
        needed = (*needed, "group", "seed")
    for column in needed:
        if column not in header:
            raise CsvError(
                f"{what} line 1: {kind} event needs a {column!r} column "
                f"(the header has {', '.join(header)})"
            )
    if not rows:
        raise CsvError(f"{what}: no entrants after the header")
    if not team_event:
        for line, row in rows:
            try:
                comp = comp.add_player(
                    _player(row, line, what), _int(row, "seed", line, None, what)
                )
            except EntryError as exc:
                raise CsvError(f"{what} line {line}: {exc}") from None
        return comp
    teams: dict[str, dict[int, tuple[int, Player]]] = {}
    extra: dict[str, dict[str, tuple[int, str]]] = {}
    first_line: dict[str, int] = {}
    for line, row in rows:
        team = row["team"]
        if not team:
            raise CsvError(f"{what} line {line}, column 'team': the team name is empty")
        board = _int(row, "board", line, None, what)
        if board not in (1, 2, 3):
            raise CsvError(f"{what} line {line}, column 'board': a board is 1, 2 or 3")
        boards = teams.setdefault(team, {})
        first_line.setdefault(team, line)
        if board in boards:
            raise CsvError(
                f"{what} line {line}: team {team!r} board {board} is already on line "
                f"{boards[board][0]}"
            )
        boards[board] = (line, _player(row, line, what))
        info = extra.setdefault(team, {})
        for column in ("seed", "leader", "coach", "club", "group", "registered"):
            value = row.get(column, "")
            if not value:
                continue
            if column == "seed":
                _int(row, "seed", line, None, what)
            if (
                column in ("seed", "group", "registered")
                and column in info
                and info[column][1] != value
            ):
                raise CsvError(
                    f"{what} line {line}, column {column!r}: team {team!r} has {column} "
                    f"{info[column][1]!r} on line {info[column][0]}, {value!r} here"
                )
            if column not in ("seed", "group", "registered") or column not in info:
                info[column] = (line, value)
    seeds = _semifinal_seeds(comp, extra, first_line, what) if semi else {}
    for team, boards in teams.items():
        line = first_line[team]
        if set(boards) != {1, 2, 3}:
            missing = ", ".join(str(b) for b in (1, 2, 3) if b not in boards)
            raise CsvError(f"{what} line {line}: team {team!r} has no board {missing}")
        cells = {column: value for column, (_, value) in extra[team].items()}
        try:
            check_registered(team, cells.get("registered", ""), registration)
            entry = Team(
                team,
                team,
                tuple(boards[b][1] for b in (1, 2, 3)),
                cells.get("leader", ""),
                cells.get("coach", ""),
                cells.get("club", ""),
            )
            seed_text = cells.get("seed", "")
            seed = (
                seeds[team]
                if semi
                else _number(seed_text, "seed", extra[team]["seed"][0], what)
                if seed_text
                else None
            )
            comp = comp.add_team(entry, seed)
        except EntryError as exc:
            raise CsvError(f"{what} line {line}: {exc}") from None
    return comp


def _semifinal_seeds(
    comp: Competition,
    extra: dict[str, dict[str, tuple[int, str]]],
    first_line: dict[str, int],
    what: str,
) -> dict[str, int]:
    """Every team's seed on the semifinal's sheet (``semifinal.sheet_seed``) from its
    ``group`` and ``seed`` cells; each place taken once, each group named complete."""
    taken = {e.seed: f"{e.name!r} (entered before)" for e in comp.entrants if e.seed is not None}
    seeds: dict[str, int] = {}
    for team, info in extra.items():
        for column in ("group", "seed"):
            if column not in info:
                raise CsvError(
                    f"{what} line {first_line[team]}, column {column!r}: team {team!r} has no "
                    f"{column} (a semifinal team needs its preliminary group and place in it)"
                )
        group_line, group_text = info["group"]
        seed_line, seed_text = info["seed"]
        try:
            group = semifinal.PreliminaryGroup.parse(group_text)
        except EntryError as exc:
            raise CsvError(f"{what} line {group_line}, column 'group': {exc}") from None
        try:
            seed = semifinal.sheet_seed(group, _number(seed_text, "seed", seed_line, what))
        except EntryError as exc:
            raise CsvError(f"{what} line {seed_line}, column 'seed': {exc}") from None
        if seed in taken:
            raise CsvError(
                f"{what} line {seed_line}, column 'seed': {semifinal.label(seed)} is already "
                f"{taken[seed]}"
            )
        taken[seed] = f"{team!r} (line {seed_line})"
        seeds[team] = seed
    named = {semifinal.group_place(s)[0] for s in seeds.values()}
    for group in sorted(named, key=lambda g: g.value):
        places = {
            semifinal.group_place(s)[1] for s in taken if semifinal.group_place(s)[0] is group
        }
        missing = [str(k) for k in range(1, semifinal.GROUP_SIZE + 1) if k not in places]
        if missing:
            raise CsvError(
                f"{what}, column 'seed': the {group.value} group has "
                f"{semifinal.GROUP_SIZE - len(missing)} teams, no #{', #'.join(missing)}; the "
                f"semifinal takes each group's top {semifinal.GROUP_SIZE} (000 五(二)), one per "
                f"place (last line {max(first_line.values())})"
            )
    return seeds
