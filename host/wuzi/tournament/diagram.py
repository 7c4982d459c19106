"""Pictures for the HTML report: a game's board with numbered stones, and the bracket.

Both are inline SVG (text, no files, no scripts), so the report stays one self-contained
page a browser prints and an archive keeps. Every text put in the picture is escaped
(``html.escape`` also escapes quotes, so it is safe in attributes too). Pure: values in,
text out.

* ``board_svg(record)`` — the 15×15 board as players see it (a–o left to right, 1–15
  bottom to top, h8 the centre with its star points), every stone that stands with its
  move number (passes are numbered but not drawn, so the numbers on the board may skip),
  the last stone ringed. The opening's offers that were not kept are not stones.
* ``bracket_svg(comp)`` — a knockout as columns of match boxes, one column a round, each
  box the two entrants with their match score and the places it decides, the winner in
  bold; a line joins each entrant's box to its box in the next round, so the picture
  shows where winners and losers went (placement knockouts send both on).
"""

from __future__ import annotations

import html

from wuzi.rules.board import SIZE, Colour
from wuzi.rules.record import GameRecord
from wuzi.tournament.event import Competition
from wuzi.tournament.history import Pairing
from wuzi.tournament.results import score_round

__all__ = ["board_svg", "bracket_svg"]

CELL = 22  # px between lines
MARGIN = 24  # room for the coordinates
STONE = 10  # radius
_STARS = ("d4", "l4", "h8", "d12", "l12")
_COLUMNS = "abcdefghijklmno"


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _xy(point: int) -> tuple[int, int]:
    """The centre of ``point`` in the picture: column from the left, row 15 at the top."""
    column, row = point % SIZE, point // SIZE
    return MARGIN + column * CELL, MARGIN + (SIZE - 1 - row) * CELL


def board_svg(record: GameRecord, title: str = "") -> str:
    """The final position with numbered stones, as an ``<svg>`` element (``title`` is
    its accessible name and tooltip)."""
    side = 2 * MARGIN + (SIZE - 1) * CELL
    far = MARGIN + (SIZE - 1) * CELL
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{side}" '
        f'height="{side}" viewBox="0 0 {side} {side}" role="img">',
        f"<title>{_e(title)}</title>" if title else "",
        f'<rect width="{side}" height="{side}" fill="#dcb35c"/>',
    ]
    for i in range(SIZE):
        at = MARGIN + i * CELL
        parts.append(f'<line x1="{MARGIN}" y1="{at}" x2="{far}" y2="{at}" stroke="#333"/>')
        parts.append(f'<line x1="{at}" y1="{MARGIN}" x2="{at}" y2="{far}" stroke="#333"/>')
        parts.append(
            f'<text x="{at}" y="{side - 6}" font-size="10" text-anchor="middle">'
            f"{_COLUMNS[i]}</text>"
        )
        parts.append(
            f'<text x="{MARGIN - 14}" y="{MARGIN + (SIZE - 1 - i) * CELL + 4}" font-size="10" '
            f'text-anchor="middle">{i + 1}</text>'
        )
    for star in _STARS:
        column, row = _COLUMNS.index(star[0]), int(star[1:]) - 1
        x, y = _xy(row * SIZE + column)
        parts.append(f'<circle cx="{x}" cy="{y}" r="3" fill="#333"/>')
    stones = [(n, m) for n, m in enumerate(record.moves, start=1) if m.point is not None]
    for number, move in stones:
        assert move.point is not None
        x, y = _xy(move.point)
        black = move.colour is Colour.BLACK
        fill, ink = ("#111", "#fff") if black else ("#fafafa", "#111")
        size = 10 if number < 100 else 8
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="{STONE}" fill="{fill}" stroke="#111"/>'
            f'<text x="{x}" y="{y + size // 2 - 1}" font-size="{size}" text-anchor="middle" '
            f'fill="{ink}">{number}</text>'
        )
    if stones:
        last = stones[-1][1].point
        assert last is not None
        x, y = _xy(last)
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="{STONE + 2}" fill="none" stroke="#c00" '
            'stroke-width="2"/>'
        )
    parts.append("</svg>")
    return "".join(p for p in parts if p)


BOX_W, BOX_H, GAP_X, GAP_Y = 220, 44, 60, 16


def _score(comp: Competition, p: Pairing) -> tuple[str, str]:
    if p.result is None or p.second is None:
        return "", ""
    first, second = score_round(p.result, comp.settings.match, comp.settings.game_scoring)
    return f"{first.game_points:g}", f"{second.game_points:g}"


def bracket_svg(comp: Competition) -> str:
    """The knockout's rounds as a picture (an ``<svg>`` element); "" for an event that
    is not a knockout or has no round yet."""
    if not comp.settings.format.is_knockout or not comp.rounds:
        return ""
    rows = max(len(r.pairings) for r in comp.rounds)
    width = len(comp.rounds) * (BOX_W + GAP_X) + GAP_X
    height = rows * (BOX_H + GAP_Y) + GAP_Y + 20
    boxes: dict[tuple[int, str], tuple[int, int]] = {}  # (round, entrant) -> box's x, y
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img">',
        f"<title>{_e(comp.settings.name)}</title>",
    ]
    for column, rnd in enumerate(comp.rounds):
        x = GAP_X // 2 + column * (BOX_W + GAP_X)
        parts.append(
            f'<text x="{x + BOX_W // 2}" y="14" font-size="12" text-anchor="middle" '
            f'font-weight="bold">Round {rnd.number}</text>'
        )
        for row, p in enumerate(rnd.pairings):
            y = 20 + GAP_Y + row * (BOX_H + GAP_Y)
            winner = comp.match_winner(p) if p.result is not None or p.is_bye else None
            scores = _score(comp, p)
            places = f"places {p.places[0]}–{p.places[1]}" if p.places else f"match {p.board}"
            parts.append(
                f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" fill="#fff" '
                f'stroke="#555"/><text x="{x + BOX_W - 4}" y="{y - 3}" font-size="9" '
                f'text-anchor="end" fill="#555">{_e(places)}</text>'
            )
            for line, who in enumerate((p.first, p.second)):
                name = comp.entrant(who).name if who is not None else "bye"
                bold = ' font-weight="bold"' if who is not None and who == winner else ""
                ty = y + 17 + line * 20
                parts.append(
                    f'<text x="{x + 6}" y="{ty}" font-size="12"{bold}>{_e(name)}</text>'
                    f'<text x="{x + BOX_W - 6}" y="{ty}" font-size="12" text-anchor="end"'
                    f"{bold}>{_e(scores[line])}</text>"
                )
                if who is not None:
                    boxes[(rnd.number, who)] = (x, y + 12 + line * 20)
    for rnd in comp.rounds[1:]:
        for p in rnd.pairings:
            for who in (p.first, p.second):
                if who is None or (rnd.number - 1, who) not in boxes:
                    continue
                x0, y0 = boxes[(rnd.number - 1, who)]
                x1, y1 = boxes[(rnd.number, who)]
                mid = x0 + BOX_W + GAP_X // 2
                parts.append(
                    f'<polyline points="{x0 + BOX_W},{y0} {mid},{y0} {mid},{y1} {x1},{y1}" '
                    'fill="none" stroke="#999"/>'
                )
    parts.append("</svg>")
    return "".join(parts)
