"""The command's road from the semifinal to the final: ``direct-qualifiers`` and
``new --entrants-from … --direct …`` (``cli`` registers both and guards the errors).

* ``wuzi tournament direct-qualifiers --men MEN.csv --women WOMEN.csv [--places 8]`` —
  no database: each CSV has the header ``place,unit`` (last year's team results); stdout
  is the chosen units, one a line in the order they were chosen, as CSV ``unit,men 3``
  (the placing that earned the place) and nothing else; a place passed on is noted on
  stderr. Exit 1 with the file and line for a bad file or too few units (``direct``).
* ``wuzi tournament --db FINAL new --format team-knockout-placement --entrants-from
  SEMI.sqlite --direct TEAMS.csv [--direct-units UNITS.csv] [--draw-seed S]`` — the
  final with its 16 teams: the semifinal's winners from its database, the direct teams
  from their entry forms (the usual team CSV, ``club`` = the unit), checked against the
  list ``direct-qualifiers`` printed when ``--direct-units`` gives it; the bracket drawn by
  lot from ``--draw-seed`` (or a fresh random seed of 9 digits, as ``draw`` draws them),
  printed, written to the event log and recorded as a bracket draw (``--by NAME``, who
  asked for it; default "the organisers") that ``draw list`` and the director show.
  Every file is read and checked before the new database is made (``final``).
"""

from __future__ import annotations

import argparse
import csv
import secrets
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wuzi.base.text import escape_controls
from wuzi.tournament.csvfile import csv_lines, read_csv
from wuzi.tournament.direct import (
    MEN,
    WOMEN,
    Placing,
    direct_qualifiers,
    parse_placings,
    read_units,
)
from wuzi.tournament.errors import SettingsError, StoreError
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.final import FinalTeam, direct_teams, final_field, semifinal_winners
from wuzi.tournament.names import check_name

DEFAULT_BY = "the organisers"
SOURCE_OPTIONS = ("entrants_from", "direct", "direct_units", "draw_seed", "by")


def _lines(placings: Sequence[Placing]) -> str:
    lines = sorted(p.line for p in placings)
    return f"line {lines[0]}" if len(lines) == 1 else f"lines {lines[0]}–{lines[-1]}"


def direct_qualifiers_command(args: argparse.Namespace) -> int:
    men_what = f"--men {escape_controls(str(args.men))}"
    women_what = f"--women {escape_controls(str(args.women))}"
    men = parse_placings(csv_lines(read_csv(args.men, men_what)), MEN, men_what)
    women = parse_placings(csv_lines(read_csv(args.women, women_what)), WOMEN, women_what)
    source = f"{men_what} ({_lines(men)}) and {women_what} ({_lines(women)})"
    chosen, skipped = direct_qualifiers(men, women, args.places, source)
    for s in skipped:
        print(
            f"wuzi tournament direct-qualifiers: note: {s.placing.unit} already has a place "
            f"({s.holder.list} {s.holder.place}), so the place of {s.placing.list} "
            f"{s.placing.place} passes on (000 五(三)1)",
            file=sys.stderr,
        )
    writer = csv.writer(sys.stdout, lineterminator="\n")
    for place in chosen:
        writer.writerow([place.unit, place.detail])
    sys.stdout.flush()
    return 0


def wants_sources(args: argparse.Namespace) -> bool:
    return any(getattr(args, key, None) is not None for key in SOURCE_OPTIONS)


@dataclass(frozen=True)
class FinalStart:
    """What ``new`` stores and prints for a final made from its sources."""

    competition: Competition
    lines: list[str]  # to print after "created …"
    log_note: str  # appended to the command in the event's log
    record: Callable[[sqlite3.Connection], object]  # the draw's record, same transaction


def final_from_sources(args: argparse.Namespace, settings: EventSettings) -> FinalStart:
    """The final as it begins; sets ``args.draw_seed`` to the seed used (so the logged
    command repeats the draw). The bracket's draw is recorded like every draw
    (``draw_store``: who asked, the seed, the order), so ``draw list`` and the director's
    audit show it."""
    from wuzi.tournament.draw import LOTS_VERSION, DrawKind, DrawRecord, check_seed
    from wuzi.tournament.draw_cli import NEW_SEED_BELOW
    from wuzi.tournament.draw_store import insert_draw
    from wuzi.tournament.store import TournamentStore

    if settings.format is not Format.TEAM_KNOCKOUT_PLACEMENT:
        raise SettingsError(
            "--entrants-from, --direct, --direct-units, --draw-seed and --by make the final: "
            f"--format team-knockout-placement, not {settings.format.value}"
        )
    if args.entrants_from is None or args.direct is None:
        raise SettingsError(
            "the final's entrants come from --entrants-from SEMI.sqlite (the semifinal's "
            "winners) and --direct TEAMS.csv (the direct places' teams), both together"
        )
    semi_what = f"--entrants-from {escape_controls(str(args.entrants_from))}"
    direct_what = f"--direct {escape_controls(str(args.direct))}"
    units_what = (
        f"--direct-units {escape_controls(str(args.direct_units))}" if args.direct_units else ""
    )
    seed = args.draw_seed if args.draw_seed is not None else secrets.randbelow(NEW_SEED_BELOW)
    check_seed(seed)
    by = check_name("--by", args.by or DEFAULT_BY, error=SettingsError)
    units = None
    if args.direct_units is not None:
        units = read_units(csv_lines(read_csv(args.direct_units, units_what)), units_what)
    direct = direct_teams(
        settings, csv_lines(read_csv(args.direct, direct_what)), direct_what, units, units_what
    )
    store = TournamentStore(args.entrants_from)
    if not store.path.is_file():
        raise StoreError(f"{semi_what}: no such file (the semifinal's database)")
    winners = semifinal_winners(store.load(), semi_what)
    comp, order = final_field(settings, [*winners, *direct], seed)
    args.draw_seed = seed
    lines = [
        f"entrants: {len(winners)} semifinal winners ({semi_what}), {len(direct)} direct "
        f"places ({direct_what})",
        f"bracket drawn by lot: seed {seed} ({LOTS_VERSION}); round 1 pairs seeds 1 v 16, "
        "8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14, 6 v 11",
        *(_seed_line(i, t) for i, t in enumerate(order, start=1)),
    ]
    drawn = ", ".join(f"{i} {t.team.name}" for i, t in enumerate(order, start=1))
    record = DrawRecord(
        DrawKind.BRACKET,
        None,
        by,
        "lot",
        seed,
        {"order": [t.team.id for t in order]},
        time.time_ns() // 1_000_000,
        options={"entrants_from": str(args.entrants_from), "direct": str(args.direct)},
    )
    return FinalStart(
        comp,
        lines,
        escape_controls(f" | bracket by lot by {by}, seed {seed}: {drawn}"),
        lambda conn: insert_draw(conn, record),
    )


def _seed_line(seed: int, team: FinalTeam) -> str:
    return f"{seed:4d}  {team.team.name}  ({team.source})"
