"""The printable score sheet: what the players and the referee sign after a game.

Two renderings of the same content: plain text (80 columns, for a terminal or a line
printer) and a self-contained HTML page with print CSS for A4. Both carry the header
(event, round, match, board, table, game, date, players with seat, team and id, rule
set and mode, time control, the opening with who set it, the swap decisions and the
fifth-move offers),
every move with its number, its time stamp and the mover's clock after the press, the
claims, infractions and referee actions, the result with its reason, and signature lines
for both players and the referee. A score sheet is for people: it is written, never read.
"""

from __future__ import annotations

import html
import textwrap
from dataclasses import dataclass

from wuzi.rules.board import Colour, point_name
from wuzi.rules.procedure import Seat
from wuzi.rules.record import GameRecord, Player, RecordedMove, point_text

_RESULT_WORDS = {"black": "Black wins", "white": "White wins", "draw": "Draw"}


def clock_text(ms: int | None) -> str:
    """``1:02:03``, ``44:55`` or ``-0:05`` (rounded down to the second); blank if unknown."""
    if ms is None:
        return ""
    sign = "-" if ms < 0 else ""
    seconds = abs(ms) // 1000
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{sign}{h}:{m:02d}:{s:02d}" if h else f"{sign}{m}:{s:02d}"


@dataclass(frozen=True)
class _Sheet:
    """The content of a score sheet, as lines of label/value text and tables."""

    title: str
    header: list[tuple[str, str]]
    moves: list[tuple[str, str, str, str]]  # number, point, time stamp, mover's clock
    events: list[tuple[str, list[str]]]  # section title, lines
    result: str


def _who(record: GameRecord, seat: Seat) -> str:
    colour = "Black" if record.black_seat is seat else "White"
    label = record.player(seat).label
    return f"{label} ({colour})" if label else f"{seat.value} seat ({colour})"


def _player_line(player: Player, seat: Seat) -> str:
    parts = [player.name or "—"]
    if player.team:
        parts.append(f"team {player.team}")
    if player.id:
        parts.append(f"id {player.id}")
    parts.append(f"{seat.value} seat")
    return ", ".join(parts)


def _build(record: GameRecord) -> _Sheet:
    header: list[tuple[str, str]] = []
    for label, value in (
        ("Event", record.event),
        ("Round", record.round),
        ("Match", "" if record.match is None else str(record.match)),
        ("Board", "" if record.board is None else str(record.board)),
        ("Table", "" if record.table is None else str(record.table)),
        ("Game", "" if record.game_number is None else str(record.game_number)),
        ("Started", record.start_time),
    ):
        if value:
            header.append((label, value))
    for colour in (Colour.BLACK, Colour.WHITE):
        seat = record.seat_of(colour)
        header.append((colour.label.capitalize(), _player_line(record.player(seat), seat)))
    header.append(("Rule set", f"{record.ruleset}, {record.mode} mode"))
    rules = _ruleset_text(record.ruleset)
    if rules:
        header.append(("Rules", rules))
    if record.time_control:
        header.append(("Time control", record.time_control))
    opening = record.opening
    text = (
        opening.label
        if opening.label == opening.procedure
        else (f"{opening.label} ({opening.procedure})")
    )
    if opening.set_by:
        text += f", set by {'the ' if opening.set_by != 'lot' else ''}{opening.set_by}"
    header.append(("Opening", text))
    for d in opening.decisions:
        header.append(
            (
                "Decision",
                f"{_who(record, d.seat)}: {d.choice} with {d.stones} stones on the board"
                + (f" at {clock_text(d.t_ms)}" if d.t_ms is not None else ""),
            )
        )
    if opening.offers is not None:
        offers = opening.offers
        points = ", ".join(point_name(o.point) for o in offers.offers) or "none yet"
        declared = f"declared by {offers.declared_by.value} seat" if offers.declared_by else "fixed"
        kept = f"; kept {point_name(offers.kept)}" if offers.kept is not None else ""
        header.append(
            ("Offers", f"move {offers.move}, N = {offers.n} ({declared}): {points}{kept}")
        )

    moves = [
        (
            str(number),
            point_text(move.point),
            clock_text(move.t_ms),
            clock_text(mover_clock(move)),
        )
        for number, move in enumerate(record.moves, start=1)
    ]

    events: list[tuple[str, list[str]]] = [
        (
            "Claims",
            [
                f"{clock_text(c.t_ms) or '—'}  {_who(record, c.seat)} claims {c.kind}"
                + (f" at {point_name(c.point)}" if c.point is not None else "")
                + (f" ({c.forbidden})" if c.forbidden else "")
                + f": {c.verdict}"
                + (f". {c.proof}" if c.proof else "")
                for c in record.claims
            ],
        ),
        (
            "Infractions",
            [
                f"{clock_text(i.t_ms) or '—'}  {_who(record, i.seat)}: {i.description}"
                + (" (loses the game)" if i.loses else "")
                for i in record.infractions
            ],
        ),
        (
            "Referee actions",
            [
                f"{clock_text(a.t_ms) or '—'}  {a.referee or 'referee'}: {a.action}"
                + (f": {a.detail}" if a.detail else "")
                for a in record.referee_actions
            ],
        ),
    ]

    if record.result is None:
        result = "Game not finished"
    else:
        r = record.result
        result = f"{r.score}  {_RESULT_WORDS[r.winner]} ({r.reason})"
        if r.detail:
            result += f": {r.detail}"
        if r.t_ms is not None:
            result += f"  at {clock_text(r.t_ms)}"
    return _Sheet("Game score sheet", header, moves, events, result)


def _ruleset_text(ruleset: str) -> str:
    from wuzi.rules.errors import RulesError
    from wuzi.rules.ruleset import RuleSet

    try:
        return RuleSet.parse(ruleset).description
    except RulesError:
        return ""


def _pair_rows(moves: list[tuple[str, str, str, str]]) -> list[list[str]]:
    """Black's and White's moves side by side, as on a paper score sheet."""
    rows = []
    for i in range(0, len(moves), 2):
        left = list(moves[i])
        right = list(moves[i + 1]) if i + 1 < len(moves) else ["", "", "", ""]
        rows.append(left + right)
    return rows


def export_scoresheet_text(record: GameRecord) -> str:
    """The score sheet as plain text; the header is wrapped at 80 columns."""
    sheet = _build(record)
    out = [sheet.title.upper(), "=" * len(sheet.title), ""]
    width = max(len(label) for label, _ in sheet.header)
    for label, value in sheet.header:
        out += textwrap.wrap(
            value,
            80,
            initial_indent=f"{label:<{width}}  ",
            subsequent_indent=" " * (width + 2),
            break_on_hyphens=False,
        ) or [label]
    out += ["", "Moves (time since the start; the mover's clock after the press)"]
    head = f"{'No.':>4} {'move':<5} {'time':>8} {'clock':>8}"
    out.append(f"{head}  |{head}")
    for row in _pair_rows(sheet.moves):
        left = f"{row[0]:>4} {row[1]:<5} {row[2]:>8} {row[3]:>8}"
        right = f"{row[4]:>4} {row[5]:<5} {row[6]:>8} {row[7]:>8}"
        out.append(f"{left}  |{right}".rstrip())
    if not sheet.moves:
        out.append("  (no moves)")
    for title, lines in sheet.events:
        out += ["", f"{title}:"]
        out += [f"  {line}" for line in lines] or ["  none"]
    out += ["", f"Result: {sheet.result}", ""]
    black, white = record.player_of(Colour.BLACK), record.player_of(Colour.WHITE)
    out += [
        f"Black: {black.name or '':<24} signature ______________________",
        f"White: {white.name or '':<24} signature ______________________",
        f"Referee: {'':<22} signature ______________________",
    ]
    return "\n".join(out) + "\n"


_CSS = """
@page { size: A4; margin: 14mm 12mm; }
body { font-family: "Noto Sans", "DejaVu Sans", sans-serif; font-size: 10pt; color: #000; }
h1 { font-size: 15pt; margin: 0 0 4mm; }
h2 { font-size: 11pt; margin: 5mm 0 1.5mm; }
table { border-collapse: collapse; }
table.header td { padding: 0.6mm 3mm 0.6mm 0; vertical-align: top; }
table.header td.label { font-weight: bold; white-space: nowrap; }
table.moves { width: 100%; }
table.moves th, table.moves td { border: 0.3mm solid #555; padding: 0.5mm 1.5mm; }
table.moves th { background: #eee; }
table.moves td.n { text-align: right; width: 8mm; }
table.moves td.t { text-align: right; font-variant-numeric: tabular-nums; }
table.moves td.gap { border: none; width: 4mm; }
thead { display: table-header-group; }
tr { page-break-inside: avoid; }
p.result { font-size: 12pt; font-weight: bold; margin-top: 5mm; }
table.signatures { width: 100%; margin-top: 12mm; page-break-inside: avoid; }
table.signatures td { width: 33%; padding-right: 6mm; vertical-align: bottom; }
table.signatures div.line { border-bottom: 0.3mm solid #000; height: 12mm; }
@media screen { body { max-width: 186mm; margin: 10mm auto; } }
"""


def export_scoresheet_html(record: GameRecord) -> str:
    """The score sheet as one HTML page that prints on A4 (no external files)."""
    sheet = _build(record)
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{e(sheet.title)}{' — ' + e(record.event) if record.event else ''}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{e(sheet.title)}</h1>",
        '<table class="header">',
    ]
    parts += [
        f'<tr><td class="label">{e(label)}</td><td>{e(value)}</td></tr>'
        for label, value in sheet.header
    ]
    parts += ["</table>", "<h2>Moves</h2>", '<table class="moves"><thead><tr>']
    cells = "<th>No.</th><th>Black</th><th>time</th><th>clock</th>"
    parts += [cells, '<th class="gap"></th>', cells.replace("Black", "White"), "</tr></thead>"]
    parts.append("<tbody>")
    for row in _pair_rows(sheet.moves):
        left = _move_cells(row[:4])
        right = _move_cells(row[4:])
        parts.append(f'<tr>{left}<td class="gap"></td>{right}</tr>')
    if not sheet.moves:
        parts.append('<tr><td colspan="9">no moves</td></tr>')
    parts.append("</tbody></table>")
    for title, lines in sheet.events:
        parts.append(f"<h2>{e(title)}</h2>")
        if lines:
            parts.append("<ul>" + "".join(f"<li>{e(line)}</li>" for line in lines) + "</ul>")
        else:
            parts.append("<p>none</p>")
    parts.append(f'<p class="result">Result: {e(sheet.result)}</p>')
    black, white = record.player_of(Colour.BLACK), record.player_of(Colour.WHITE)
    parts.append('<table class="signatures"><tr>')
    for role, name in (("Black", black.name), ("White", white.name), ("Referee", "")):
        who = f"{role}: {name}" if name else role
        parts.append(f'<td><div class="line"></div>{e(who)}</td>')
    parts += ["</tr></table>", "</body></html>"]
    return "\n".join(parts) + "\n"


def _move_cells(cells: list[str]) -> str:
    e = html.escape
    n, p, t, c = cells
    numbers = f'<td class="t">{e(t)}</td><td class="t">{e(c)}</td>'
    return f'<td class="n">{e(n)}</td><td>{e(p)}</td>{numbers}'


def mover_clock(move: RecordedMove) -> int | None:
    """The mover's clock after the press, or None when not recorded."""
    return None if move.clocks is None else move.clocks.of(move.seat)
