"""``new --format team-semifinal --entrants-from-preliminary PUBLIC.json
--entrants-from-preliminary PRO.json --rosters TEAMS.csv [--by NAME]``: the semifinal's
sixteen from the two preliminary groups' exports (``handoff``), no place typed.

Every file is read and checked before the database is made; the preliminary's lots come
along as draws of the kind ``preliminary`` (``draw list``), in the same transaction as
the event, with who asked for them (``--by``, default "the organisers").
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import time

from wuzi.base.files import HANDOFF_FILE, FileError, read_text
from wuzi.base.text import escape_controls
from wuzi.tournament.cli_final import DEFAULT_BY, FinalStart
from wuzi.tournament.csvfile import csv_lines, read_csv
from wuzi.tournament.draw import DrawKind, DrawRecord
from wuzi.tournament.draw_store import insert_draw
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.event import EventSettings
from wuzi.tournament.handoff import GroupExport, parse_export, semifinal_start
from wuzi.tournament.names import check_name
from wuzi.tournament.registration import parse_window
from wuzi.tournament.semifinal import label

__all__ = ["semifinal_from_preliminary"]

MAX_EXPORT_BYTES = HANDOFF_FILE.max_bytes


def _export(path: str) -> GroupExport:
    what = f"--entrants-from-preliminary {escape_controls(path)}"
    try:
        data = json.loads(read_text(path, HANDOFF_FILE))
    except FileError as exc:
        hint = " (the preliminary's --json export)" if exc.missing else ""
        raise SettingsError(f"{what}: {exc.problem}{hint}") from None
    except json.JSONDecodeError as exc:
        raise SettingsError(f"{what}: not JSON ({exc})") from None
    return parse_export(data, what)


def semifinal_from_preliminary(args: argparse.Namespace, settings: EventSettings) -> FinalStart:
    if not args.entrants_from_preliminary or not args.rosters:
        raise SettingsError(
            "the semifinal from the preliminary takes both groups' exports "
            "(--entrants-from-preliminary twice) and --rosters TEAMS.csv (the entry forms)"
        )
    if getattr(args, "entrants_from", None) or getattr(args, "direct", None):
        raise SettingsError("--entrants-from-preliminary makes the semifinal, not the final")
    exports = [_export(path) for path in args.entrants_from_preliminary]
    rosters_what = f"--rosters {escape_controls(str(args.rosters))}"
    window = parse_window(args.registration_window) if args.registration_window else None
    comp = semifinal_start(
        settings, exports, csv_lines(read_csv(args.rosters, rosters_what)), rosters_what, window
    )
    by = check_name("--by", args.by or DEFAULT_BY, error=SettingsError)
    now = time.time_ns() // 1_000_000
    records = [
        DrawRecord(
            DrawKind.PRELIMINARY,
            None,
            by,
            "lot",
            e.lot.seed,
            {
                "group": e.group.value,
                "order": [team for _, team in e.lot.drawn],
                "label": f"{e.group.value} preliminary: "
                + ", ".join(f"{place} {team}" for place, team in e.lot.drawn),
            },
            now,
            options={"export": e.lot.source.split(" ", 1)[1]},
        )
        for e in exports
        if e.lot is not None
    ]
    lines = [
        f"entrants: the top 8 of each preliminary group, in their ranking ({rosters_what})",
        *(f"{label(e.seed):>10}  {e.name}" for e in comp.seeded() if e.seed is not None),
        *(
            f"preliminary lots recorded: {r.result['label']} (seed {r.seed}; draw list)"
            for r in records
        ),
    ]

    def record(conn: sqlite3.Connection) -> None:
        for r in records:
            insert_draw(conn, r)

    return FinalStart(comp, lines, "", record)
