"""``wuzi tournament --db FILE export …`` and ``titles``: the files an event leaves.

Contracts (docs/cli.md's tournament section and docs/tournament.md):

* ``export trf|csv|html [--output FILE]`` — as before; ``html`` also draws a knockout's
  bracket, and with ``--records DIR`` (repeatable) every game's board, numbered stones.
* ``export games --records DIR [--records DIR …] --output FOLDER`` — one SGF collection
  and one RenLib library per round (``round-1.sgf``, ``round-1.lib``, …) of this event's
  game records found in the folders (the hosts' ``--records-dir``, copied to this
  machine; ``*.json`` in each folder, not below it) whose ``event`` is the event's name
  (``--event NAME``: records that name it otherwise, e.g. a venue's name written by an
  older host). Prints ``wrote FOLDER/NAME`` on stderr for each file, notes on what was
  left out too; nothing on stdout.
* ``export rating-list [--k K] [--output FILE]`` — the TRF-style rating list
  (``rating_list``); ``export rating-csv`` — the computed list as CSV (UTF-8, BOM).
* ``export certificates --output DIR [--date YYYY-MM-DD] [--font FILE]`` — one A4 PDF per
  award certificate and an index (``cli_awards``).
* ``export --format KIND`` is the same as ``export KIND``.
* ``titles [--table FILE.csv] [--json]`` — the place winners' dan/kyu titles
  (``titles``): one line per title holder, ``place  name  title``; an event that gives
  none says why. ``--json``: ``{"basis", "assumed", "provisional", "reason", "pending",
  "titles": [{"place", "shared", "id", "name", "title"}]}``.

Exit 0; 1 with ``wuzi tournament export: <what is wrong>`` (a record file that cannot be
read is named with its reason; nothing is written then).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from wuzi.base.files import RECORD_FILE, FileError, read_bytes
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.record import GameRecord
from wuzi.rules.record_json import record_from_json
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.event import Competition

__all__ = ["KINDS", "export_command", "read_records", "titles_command"]

KINDS = ("trf", "csv", "html", "games", "rating-list", "rating-csv", "certificates")
MAX_RECORD_BYTES = RECORD_FILE.max_bytes


def _say(text: str) -> None:
    print(text, file=sys.stderr)


def read_records(folders: list[str]) -> list[tuple[str, GameRecord]]:
    """Every ``*.json`` record in the folders (in name order), with its path. Raises
    ``SettingsError`` naming a folder that is not one and a file that is no record."""
    found: list[tuple[str, GameRecord]] = []
    for folder in folders:
        path = Path(folder)
        if not path.is_dir():
            raise SettingsError(f"--records {folder}: not a folder")
        for file in sorted(path.glob("*.json")):
            try:
                found.append((str(file), record_from_json(read_bytes(file, RECORD_FILE))))
            except FileError as exc:
                raise SettingsError(str(exc)) from None
            except RecordFormatError as exc:
                raise SettingsError(f"{file}: not a Wuzi game record: {exc}") from None
    return found


def _event_records(
    comp: Competition, folders: list[str], event: str | None = None
) -> list[GameRecord]:
    from wuzi.tournament.games_export import event_games

    name = event or comp.settings.name
    records, notes = event_games(name, read_records(folders))
    for note in notes:
        _say(f"note: {note}")
    if folders and not records:
        _say(f"note: no record of {name!r} in {', '.join(folders)} (--event names another)")
    return records


def kind_of(args: argparse.Namespace) -> str:
    """``export KIND`` or ``export --format KIND`` (the same; both given must agree)."""
    kind, alias = getattr(args, "kind", None), getattr(args, "format_kind", None)
    if kind and alias and kind != alias:
        raise SettingsError(f"export {kind} --format {alias}: give the kind once")
    chosen = kind or alias
    if not chosen:
        raise SettingsError(f"export needs a kind: one of {', '.join(KINDS)}")
    return str(chosen)


def export_command(args: argparse.Namespace, comp: Competition) -> int:
    kind = kind_of(args)
    folders = list(args.records or [])
    if folders and kind not in ("html", "games"):
        raise SettingsError(f"--records is for html and games, not {kind}")
    if args.event and not folders:
        raise SettingsError("--event chooses among the records: give --records DIR too")
    if kind == "games":
        return _games(args, comp, folders)
    if kind == "certificates":
        from wuzi.tournament.cli_awards import certificates_command

        return certificates_command(args, comp)
    if args.date or args.font:
        raise SettingsError("--date and --font are for export certificates")
    if kind in ("rating-list", "rating-csv"):
        from wuzi.tournament.rating_list import rating_csv, rating_trf

        text = (rating_trf if kind == "rating-list" else rating_csv)(comp, args.k)
    else:
        from wuzi.tournament.export import export

        if args.k is not None:
            raise SettingsError("--k is for the rating list")
        found = _event_records(comp, folders, args.event) if folders else []
        text = export(comp, kind, found)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        _say(f"wrote {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def _games(args: argparse.Namespace, comp: Competition, folders: list[str]) -> int:
    from wuzi.tournament.games_export import round_files, rounds_of

    if not folders:
        raise SettingsError("export games needs the records: --records DIR (the hosts' records)")
    if not args.output:
        raise SettingsError("export games writes one file per round: give --output FOLDER")
    records = _event_records(comp, folders, args.event)
    files = round_files(rounds_of(records))
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (out / name).write_bytes(data)
        _say(f"wrote {out / name}")
    _say(f"{len(records)} game(s) in {len(files) // 2} round file(s) of each kind")
    return 0


def titles_command(args: argparse.Namespace, comp: Competition) -> int:
    from wuzi.tournament.cli_awards import read_title_table
    from wuzi.tournament.titles import BASIS, award_titles

    table = read_title_table(args.table) if args.table else None
    titles = award_titles(comp, table)
    if args.json:
        data: dict[str, Any] = {
            "basis": BASIS,
            "assumed": titles.assumed,
            "provisional": titles.provisional,
            "reason": titles.reason or None,
            "pending": list(titles.pending),
            "titles": [
                {"place": r.place, "shared": r.shared, "id": r.id, "name": r.name,
                 "title": r.title}
                for r in titles.rows
            ],
        }  # fmt: skip
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    if titles.reason:
        print(f"No titles: {titles.reason}.")
        return 0
    source = (
        "the assumed default table (--table to give the regulation's)"
        if titles.assumed
        else args.table
    )
    print(f"{comp.settings.name} — titles per {BASIS}, by {source}")
    if titles.provisional:
        print("Provisional: the event is not finished.")
    for r in titles.rows:
        place = f"{r.place}=" if r.shared else str(r.place)
        print(f"{place:>4}  {r.name}  {r.title}")
    for note in titles.pending:
        print(f"No title yet: {note}")
    return 0
