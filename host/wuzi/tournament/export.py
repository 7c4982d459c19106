"""Exports: FIDE TRF (for other pairing programs and rating officers), CSV, and HTML.

* ``trf`` — the FIDE Tournament Report File (TRF16) of an individual single-game event: a
  ``001`` line per player with the results of every round in 10-column blocks (opponent's
  starting rank, colour, result). TRF comes from chess, where ``w`` is the first mover, so
  Gomoku's Black is written ``w`` (and noted in a ``###`` comment line). Results: ``1 = 0``
  played, ``+ -`` forfeits, ``U`` a bye (a full point), ``Z`` a round the player was not in.
  Fixed columns: no field spills into the next — a name is cut to its 33 columns (15–47),
  a number too wide for its columns is an error — and no field holds a line break (names
  are checked on entry and on loading; ``escape_controls`` here as well, so a line of
  the file is one record whatever reaches it). Columns count characters: the file is
  UTF-8, and a reader that counts bytes misplaces the fields after a non-ASCII name.
* ``csv`` — the standings: place, ID, name, points and every tie-break (knockouts: place,
  ID, name, prize). UTF-8 with a BOM: without it a spreadsheet reads the file in the
  machine's legacy code page and shows Chinese names as mojibake. A text cell (ID, name)
  that starts with ``=``, ``+``, ``-`` or ``@`` is written with a leading ``'``: a
  spreadsheet would otherwise run it as a formula (CSV injection: ``=HYPERLINK(…)``,
  DDE), and the apostrophe is what a spreadsheet itself uses to mark a cell as text. The
  price: a program reading the CSV sees the apostrophe (such names are rare; ``standings
  --json`` gives names as they are). Numbers are written as numbers, never prefixed.
* ``html`` — one self-contained page: standings with the tie-break formulas, a
  knockout's bracket as a picture (inline SVG, ``diagram.bracket_svg``), every round's
  pairings and results, and — given the game records (``export html --records DIR``) —
  every game's board with numbered stones, round by round (``games_export.games_html``);
  every text is ``html.escape``d (also in attributes).

The rating list (``rating_list``) and the rounds' game files (``games_export``) are
exports too; the command line (``cli_export``) writes them.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Sequence

from wuzi.base.text import escape_controls
from wuzi.rules.record import GameRecord
from wuzi.tournament.diagram import bracket_svg
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.event import Competition, Format
from wuzi.tournament.history import EntryKind
from wuzi.tournament.report import result_text, standings_json
from wuzi.tournament.results import MatchKind
from wuzi.tournament.tiebreaks import Tiebreak

FORMATS = ("trf", "csv", "html")
CSV_BOM = "\ufeff"
TRF_NAME_WIDTH = 33  # columns 15–47
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def export(comp: Competition, kind: str, records: Sequence[GameRecord] = ()) -> str:
    """The event as ``kind`` (``FORMATS``); ``records`` are its games for ``html``."""
    if kind == "trf":
        return export_trf(comp)
    if kind == "csv":
        return export_csv(comp)
    if kind == "html":
        return export_html(comp, records)
    raise SettingsError(f"export format must be one of {', '.join(FORMATS)}, not {kind!r}")


def _put(line: list[str], column: int, width: int, text: str, what: str) -> None:
    """Write ``text`` in the ``width`` columns from 1-based ``column``; a ``text`` wider
    than its columns is an error (it would overwrite the next field), never written."""
    if len(text) > width:
        last = column + width - 1
        raise SettingsError(f"TRF: {what} {text.strip()!r} does not fit columns {column}–{last}")
    for offset, char in enumerate(text):
        line[column - 1 + offset] = char


def trf_text(text: str, width: int | None = None) -> str:
    """``text`` as a TRF field: control characters escaped (one line stays one line),
    cut to ``width`` characters."""
    text = escape_controls(text)
    return text if width is None else text[:width]


def csv_text(text: str) -> str:
    """A text cell for a spreadsheet: ``'`` before a leading ``= + - @`` (not a formula)."""
    text = escape_controls(text)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def export_trf(comp: Competition) -> str:
    s = comp.settings
    if s.format.is_knockout or s.match is not MatchKind.SINGLE:
        raise SettingsError(
            "TRF is for individual events of single games (swiss or round-robin); "
            "use csv or html for this event"
        )
    numbers = comp.pairing_numbers()
    standings = {row.entrant: row for row in comp.standings().rows}
    histories = comp.histories()
    rounds = len(comp.rounds)
    out = [
        f"012 {trf_text(s.name)}",
        f"062 {len(comp.entrants)}",
        f"092 {'Swiss' if s.format is Format.SWISS else 'Round robin'}",
        f"XXR {comp.round_count()}",
        "### colours: w = Black, the first mover (Gomoku)",
    ]
    for e in sorted(comp.entrants, key=lambda e: numbers[e.id]):
        line = [" "] * (91 + 10 * rounds)
        who = f"{e.name!r}:"
        _put(line, 1, 3, "001", "record")
        _put(line, 5, 4, f"{numbers[e.id]:>4}", f"{who} starting rank")
        player = e.player
        if player is not None:
            _put(line, 10, 1, "w" if player.sex.value == "f" else "m", f"{who} sex")
        _put(line, 15, TRF_NAME_WIDTH, trf_text(e.name, TRF_NAME_WIDTH), f"{who} name")
        _put(line, 49, 4, f"{e.rating:>4}" if e.rating else "    ", f"{who} rating")
        row = standings[e.id]
        _put(line, 81, 4, f"{row.points:>4.1f}", f"{who} points")
        _put(line, 86, 4, f"{row.place:>4}", f"{who} place")
        for entry in histories[e.id]:
            col = 92 + 10 * (entry.round - 1)
            if entry.kind is EntryKind.ABSENT:
                block = "0000 - Z"
            elif entry.kind is EntryKind.BYE:
                block = "0000 - U"
            else:
                assert entry.opponent is not None
                opponent = f"{numbers[entry.opponent]:>4}"
                if entry.kind is EntryKind.FORFEIT:
                    block = f"{opponent} - {'+' if entry.fraction == 1.0 else '-'}"
                else:
                    colour = (
                        "w" if entry.colour is not None and entry.colour.label == "black" else "b"
                    )
                    code = {1.0: "1", 0.5: "=", 0.0: "0"}[entry.fraction]
                    block = f"{opponent} {colour} {code}"
            _put(line, col, 8, block, f"{who} round {entry.round}")
        out.append("".join(line).rstrip())
    return "\n".join(out) + "\n"


def export_csv(comp: Competition) -> str:
    """The standings as CSV for a spreadsheet: BOM first, text cells made safe
    (``csv_text``)."""
    data = standings_json(comp)
    buffer = io.StringIO()
    buffer.write(CSV_BOM)
    writer = csv.writer(buffer, lineterminator="\n")
    if comp.settings.format.is_knockout:
        writer.writerow(["place", "places", "id", "name", "prize"])
        for row in data["standings"]:
            low, high = row["places"]
            writer.writerow(
                [
                    row["place"],
                    f"{low}-{high}",
                    csv_text(row["id"]),
                    csv_text(row["name"]),
                    row["prize"],
                ]
            )
        return buffer.getvalue()
    keys = [t.value for t in Tiebreak]
    writer.writerow(["place", "shared", "id", "name", "points", *keys])
    for row in data["standings"]:
        writer.writerow(
            [
                row["place"],
                "yes" if row["shared"] else "",
                csv_text(row["id"]),
                csv_text(row["name"]),
                row["points"],
                *(row["tiebreaks"][k] for k in keys),
            ]
        )
    return buffer.getvalue()


def export_html(comp: Competition, records: Sequence[GameRecord] = ()) -> str:
    """The report page; ``records`` (this event's game records) add the games' boards."""
    from wuzi.tournament.games_export import games_html, rounds_of

    s = comp.settings
    data = standings_json(comp)
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="zh-CN"><head><meta charset="utf-8">',
        f"<title>{e(s.name)}</title>",
        "<style>body{font-family:sans-serif}table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:2px 8px}td.n{text-align:right}"
        "div.games{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0;max-width:360px}"
        "figcaption{font-size:12px}@media print{figure{break-inside:avoid}}</style>",
        f"</head><body><h1>{e(s.name)}</h1>",
        f"<p>{e(s.format.value)}, {len(comp.entrants)} entrants, "
        f"round {len(comp.rounds)} of {comp.round_count()}; rules {e(s.rules)}, "
        f"time control {e(s.time_control)}</p>",
        "<h2>Standings</h2><table>",
    ]
    if s.format.is_knockout:
        parts.append("<tr><th>Place</th><th>Name</th><th>Prize (CNY)</th></tr>")
        for row in data["standings"]:
            low, high = row["places"]
            label = str(low) if low == high else f"{low}–{high}"
            parts.append(
                f'<tr><td class="n">{label}</td><td>{e(row["name"])}</td>'
                f'<td class="n">{row["prize"] or ""}</td></tr>'
            )
        parts.append("</table>")
        bracket = bracket_svg(comp)
        if bracket:
            parts.append(f"<h2>Bracket</h2>{bracket}")
    else:
        order = list(s.tiebreaks)
        heads = "".join(f'<th title="{e(t.formula)}">{e(t.short)}</th>' for t in order)
        parts.append(f"<tr><th>Place</th><th>Name</th><th>Points</th>{heads}</tr>")
        for row in data["standings"]:
            place = f"{row['place']}=" if row["shared"] else str(row["place"])
            cells = "".join(f'<td class="n">{row["tiebreaks"][t.value]}</td>' for t in order)
            parts.append(
                f'<tr><td class="n">{place}</td><td>{e(row["name"])}</td>'
                f'<td class="n">{row["points"]}</td>{cells}</tr>'
            )
        parts.append("</table><h3>Tie-breaks, in order</h3><ol>")
        for t in order:
            parts.append(f"<li><b>{e(t.title)} ({e(t.chinese)})</b>: {e(t.formula)}</li>")
        parts.append("</ol>")
        for need in data["playoffs_needed"]:
            names = ", ".join(comp.entrant(w).name for w in need["entrants"])
            parts.append(f"<p>Playoff needed for place {need['place']}: {e(names)}</p>")
    for rnd in comp.rounds:
        parts.append(f"<h2>Round {rnd.number}</h2><table>")
        for p in rnd.pairings:
            first = comp.entrant(p.first).name
            second = comp.entrant(p.second).name if p.second is not None else "bye"
            result = str(p.result) if p.result is not None else ""
            parts.append(
                f'<tr><td class="n">{p.board}</td><td>{e(first)}</td><td>{e(second)}</td>'
                f"<td>{e(result)}</td><td>{e(result_text(comp, rnd, p))}</td></tr>"
            )
        parts.append("</table>")
    if records:
        parts.append(games_html(rounds_of(records)))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
