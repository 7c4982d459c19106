"""A paired round printed again: text, HTML or CSV (``pair --show ROUND``).

The pairing sheet on the wall gets lost, torn or needs a second copy for the arbiters'
table; pairing again is no way to reprint it (the round would be paired anew, or refused
once results are in). ``round_sheet`` prints a round that is already paired, any round,
from the database as it stands, and changes nothing. Each entrant's points are those
**before** that round, as on the sheet printed when it was paired. The text is
``report.pairing_text``'s; the HTML is one table for printing (every text escaped); the CSV
is one row per game (per board of a team match), UTF-8 with a BOM, text cells made safe
for a spreadsheet (``export.csv_text``). Pure.
"""

from __future__ import annotations

import csv
import html
import io
from dataclasses import replace

from wuzi.tournament.errors import PairingError
from wuzi.tournament.event import Competition
from wuzi.tournament.export import CSV_BOM, csv_text
from wuzi.tournament.history import Round
from wuzi.tournament.report import pairing_text
from wuzi.tournament.team_match import board_games

__all__ = ["SHEET_FORMATS", "round_sheet"]

SHEET_FORMATS = ("text", "html", "csv")


def _rows(comp: Competition, rnd: Round) -> list[list[str]]:
    """(match, board, first, second, black, white, places, by hand) per game."""
    rows = []
    for p in rnd.pairings:
        first = comp.entrant(p.first)
        second = comp.entrant(p.second) if p.second is not None else None
        places = f"{p.places[0]}-{p.places[1]}" if p.places else ""
        reason = p.manual_reason or ""
        if second is None:
            rows.append([str(p.board), "", first.name, "bye", "", "", places, reason])
        elif first.team is not None and second.team is not None:
            for g in board_games(first.team, second.team):
                rows.append([str(p.board), str(g.board), first.name, second.name, g.black.name,
                             g.white.name, places, reason])  # fmt: skip
        else:
            rows.append([str(p.board), "", first.name, second.name, first.name, second.name,
                         places, reason])  # fmt: skip
    return rows


HEADER = ["match", "board", "first", "second", "black", "white", "places", "by_hand"]


def _csv(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    buffer.write(CSV_BOM)
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    for row in rows:
        writer.writerow([csv_text(cell) for cell in row])
    return buffer.getvalue()


def _html(comp: Competition, rnd: Round, rows: list[list[str]]) -> str:
    e = html.escape
    title = f"{comp.settings.name} — round {rnd.number} of {comp.round_count()}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="zh-CN"><head><meta charset="utf-8">',
        f"<title>{e(title)}</title>",
        "<style>body{font-family:sans-serif}table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:4px 10px}</style>",
        f"</head><body><h1>{e(title)}</h1><table>",
        "<tr>" + "".join(f"<th>{e(h)}</th>" for h in HEADER) + "</tr>",
    ]
    for row in rows:
        parts.append("<tr>" + "".join(f"<td>{e(cell)}</td>" for cell in row) + "</tr>")
    parts.append("</table></body></html>")
    return "\n".join(parts) + "\n"


def round_sheet(comp: Competition, number: int, kind: str = "text") -> str:
    """Round ``number``'s pairings as ``kind`` (text, html, csv); nothing changes."""
    if kind not in SHEET_FORMATS:
        raise PairingError(f"a pairing sheet is {', '.join(SHEET_FORMATS)}, not {kind!r}")
    if not 1 <= number <= len(comp.rounds):
        paired = f"rounds 1–{len(comp.rounds)}" if comp.rounds else "no round yet"
        raise PairingError(f"round {number} is not paired ({paired} paired)")
    rnd = comp.rounds[number - 1]
    if kind == "text":
        before = replace(comp, rounds=comp.rounds[: number - 1])  # the points it was paired on
        return pairing_text(before, rnd)
    rows = _rows(comp, rnd)
    return _csv(rows) if kind == "csv" else _html(comp, rnd, rows)
