"""The plain move list: ``h8 i9 j10 …``, Black first, colours alternating.

It is what a player writes on a napkin and what ``wuzi rules forbidden`` reads, so it
keeps only the points (``pass`` for a pass). Numbers are allowed and checked when read:
either per move (``1. h8 2. i9 3. j10``, renju style) or per pair of moves
(``1. h8 i9 2. j10 k11``, the chess style the numbered export writes). Lines starting
with ``#`` are comments; commas count as spaces.
"""

from __future__ import annotations

import re

from wuzi.rules.board import Point, parse_point, point_name
from wuzi.rules.errors import RecordFormatError, RulesError
from wuzi.rules.formats.common import decode_text, split_lines
from wuzi.rules.record import GameRecord, alternating_moves, point_text

_NUMBERED = re.compile(r"([0-9]{1,12})\.(.*)\Z")  # longer: no move number (nor convertible)


def export_moves(record: GameRecord) -> str:
    """``h8 i9 j10`` on one line (an empty line for a game without moves)."""
    return " ".join(point_text(m.point) for m in record.moves) + "\n"


def export_numbered(record: GameRecord) -> str:
    """One line per pair of moves: ``1. h8 i9`` / ``2. j10 k11`` …"""
    names = [point_text(m.point) for m in record.moves]
    lines = [f"{i // 2 + 1}. {' '.join(names[i : i + 2])}" for i in range(0, len(names), 2)]
    return "".join(line + "\n" for line in lines)


def load_moves(data: str | bytes) -> GameRecord:
    """Read a move list (plain or numbered); errors name the line."""
    text = decode_text(data, "move list")
    points: list[Point | None] = []
    seen: dict[Point, int] = {}
    for number, raw in enumerate(split_lines(text), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        for token in line.replace(",", " ").split():
            _read_token(token, number, points, seen)
    return GameRecord(moves=alternating_moves(points))


def _read_token(token: str, line: int, points: list[Point | None], seen: dict[Point, int]) -> None:
    numbered = _NUMBERED.match(token)
    if numbered:
        _check_number(int(numbered.group(1)), line, len(points))
        token = numbered.group(2)
        if not token:
            return
    if token.lower() == "pass":
        points.append(None)
        return
    try:
        p = parse_point(token)
    except RulesError:
        raise RecordFormatError(
            f"line {line}: {token[:30]!r}{'…' if len(token) > 30 else ''} is not a point "
            "(a–o and 1–15, e.g. h8) or 'pass'"
        ) from None
    if p in seen:
        raise RecordFormatError(
            f"line {line}: {point_name(p)} is already occupied (move {seen[p] + 1})"
        )
    seen[p] = len(points)
    points.append(p)


def _check_number(n: int, line: int, played: int) -> None:
    """A move number must number the next move, or the next pair when Black is to move."""
    per_move = played + 1
    if n == per_move or (played % 2 == 0 and n == played // 2 + 1):
        return
    pair = f" or pair {played // 2 + 1}" if played % 2 == 0 else ""
    raise RecordFormatError(
        f"line {line}: '{n}.' does not fit here: the next move is number {per_move}{pair}"
    )
