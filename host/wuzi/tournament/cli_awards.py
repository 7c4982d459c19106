"""``wuzi tournament awards`` and ``export certificates``: the organisers' prize list.

Contracts (docs/cli.md's tournament section and docs/tournament.md):

* ``awards [--json] [--table FILE.csv]`` — per prize place the entrant, the medal (gold,
  silver, bronze), the certificate, the prize money with its currency and the title
  (``awards``; ``--table`` is the titles' table, as for ``titles``). ``--json``:
  ``{"event", "prize_places", "basis", "provisional", "pending", "titles_assumed",
  "awards": [{"place", "shared", "id", "name", "team", "recipients", "medal",
  "certificate", "money", "currency", "title", "clause"}]}``.
* ``export certificates --output DIR [--date YYYY-MM-DD] [--font FILE]`` — one A4 PDF per
  certificate (``certificates``) and ``DIR/index.csv``; ``wrote DIR/NAME`` on stderr for
  each. The date printed is ``--date`` (default: today). Without fpdf2 the command says
  to install ``wuzi[desk]`` (``wuzi.cli``).

A place still open prints what it waits for (``pending``) and gets nothing yet; before
the last round everything is marked provisional.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

from wuzi.tournament.awards import AwardRow, Awards, compute_awards
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.event import Competition
from wuzi.tournament.titles import TitleRule

__all__ = ["awards_command", "awards_json", "certificates_command", "read_title_table"]


def _awards(args: argparse.Namespace, comp: Competition) -> Awards:
    table = None
    if getattr(args, "table", None):
        table = read_title_table(args.table)
    return compute_awards(comp, table)


def read_title_table(path: str) -> tuple[TitleRule, ...]:
    """The titles' table of ``--table FILE.csv`` (header from,to,title)."""
    from wuzi.tournament.csvfile import csv_lines, csv_records, read_csv
    from wuzi.tournament.titles import parse_table

    rows = csv_records(csv_lines(read_csv(path, "titles table")), "titles table")
    if not rows or [c.strip() for c in rows[0][1]] != ["from", "to", "title"]:
        raise SettingsError(f"{path} line 1: the header must be from,to,title")
    header = ["from", "to", "title"]
    body = [(n, dict(zip(header, row, strict=False))) for n, row in rows[1:] if any(row)]
    return parse_table(body, str(path))


def awards_json(awards: Awards) -> dict[str, Any]:
    return {
        "event": awards.event,
        "prize_places": awards.prize_places,
        "basis": list(awards.basis),
        "provisional": awards.provisional,
        "pending": list(awards.pending),
        "titles_assumed": awards.titles_assumed,
        "awards": [
            {
                "place": r.place,
                "shared": r.shared,
                "id": r.id,
                "name": r.name,
                "team": r.team or None,
                "recipients": list(r.recipients),
                "medal": r.medal,
                "certificate": r.certificate,
                "money": r.money,
                "currency": r.currency,
                "title": r.title,
                "clause": r.clause,
            }
            for r in awards.rows
        ],
    }


def _row_text(r: AwardRow, assumed: bool) -> str:
    place = "-" if r.place is None else f"{r.place}{'=' if r.shared else ''}"
    money = f"{r.money} {r.currency}" if r.money else "-"
    title = (r.title + (" (assumed table)" if assumed else "")) if r.title else "-"
    who = r.name if not r.team or r.team == r.name else f"{r.name} ({r.team})"
    return f"{place:>5}  {who:<24} {r.medal or '-':<7} {r.certificate:<22} {money:>10}  {title}"


def awards_command(args: argparse.Namespace, comp: Competition) -> int:
    awards = _awards(args, comp)
    if args.json:
        print(json.dumps(awards_json(awards), ensure_ascii=False, indent=2))
        return 0
    places = f"{awards.prize_places} prize places" if awards.prize_places else "no places"
    print(f"{awards.event} — awards ({places})")
    for line in awards.basis:
        print(f"  {line}")
    if awards.provisional:
        print("Provisional: the event is not finished.")
    print(f"{'Place':>5}  {'Name':<24} {'Medal':<7} {'Certificate':<22} {'Prize':>10}  Title")
    for r in awards.rows:
        print(_row_text(r, awards.titles_assumed))
    for note in awards.pending:
        print(f"Not awarded yet: {note}")
    return 0


def _day(text: str | None) -> date:
    if text is None:
        return date.today()
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise SettingsError(f"--date {text!r}: give the date as YYYY-MM-DD") from None


def certificates_command(args: argparse.Namespace, comp: Competition) -> int:
    from wuzi.tournament.certificates import certificate_files, find_font

    if not args.output:
        raise SettingsError("export certificates writes one PDF per certificate: --output DIR")
    day = _day(args.date)
    awards = compute_awards(comp)
    if not awards.rows:
        raise SettingsError(
            "no certificate to print yet"
            + (f": {'; '.join(awards.pending)}" if awards.pending else "")
        )
    files = certificate_files(awards, day, find_font(args.font))  # all made before writing
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (out / name).write_bytes(data)
        print(f"wrote {out / name}", file=sys.stderr)
    for note in awards.pending:
        print(f"note: not awarded yet: {note}", file=sys.stderr)
    print(f"{len(files) - 1} certificate(s) in {out}", file=sys.stderr)
    return 0
