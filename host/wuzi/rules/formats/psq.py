"""Piskvork's ``.psq`` game files (the Gomocup manager's format).

Layout, as Piskvork's ``savePsq``/``openPsq`` write and read it::

    Piskvorky 15x15, 0:0, 0        width x height, each player's AI level (0 = human),
                                   and which player moved first (0 or 1)
    8,8,1500                       one line per move: x,y (1-based), ms the move took
    9,7,2300
    Alice                          then the players' names (first mover first)
    Bob
    0                              and an end code (0; -1 in Gomocup archives)

``x`` counts columns from the left (a = 1), ``y`` rows from the top edge as Piskvork
draws them, so Wuzi's row 15 is ``y = 1`` and h8 is ``8,8``. Piskvork's time is the time a
move took, not a time stamp: Wuzi writes the gap between press time stamps
(``t_ms[i] - t_ms[i-1]``, the first from the game's start) and reads them back by adding
up, so time stamps round-trip. A file in which every move took 0 ms (usual in
Gomocup archives) has no times: they are read as unknown. A psq file cannot hold a pass,
clock readings, claims or the opening; the names go in the trailing lines, Black's first
(Wuzi writes them so; other writers may not).
"""

from __future__ import annotations

import re

from wuzi.rules.board import SIZE, Colour, Point, point_name
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.formats.common import decode_text, split_lines
from wuzi.rules.record import GameRecord, Player, alternating_moves

_HEADER = re.compile(r"Piskvorky\s+(\d+)\s*x\s*(\d+)\s*,\s*(-?\d+)\s*:\s*(-?\d+)\s*,\s*(\d+)\s*\Z")
_MOVE = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*(?:,\s*(-?\d+)\s*)?\Z")


def export_psq(record: GameRecord) -> str:
    """The record as a psq file; a pass cannot be written (RecordFormatError)."""
    lines = [f"Piskvorky {SIZE}x{SIZE}, 0:0, 0"]
    previous = 0
    for index, move in enumerate(record.moves):
        if move.point is None:
            raise RecordFormatError(
                f"move {index + 1} is a pass, which a Piskvork .psq file cannot hold"
            )
        x = move.point % SIZE + 1
        y = SIZE - move.point // SIZE
        took = 0
        if move.t_ms is not None:
            took = move.t_ms - previous
            if took < 0:
                raise RecordFormatError(
                    f"move {index + 1}: its time stamp {move.t_ms} ms is earlier than the "
                    f"previous move's ({previous} ms); a .psq file stores how long each move took"
                )
            previous = move.t_ms
        lines.append(f"{x},{y},{took}")
    black = record.player_of(Colour.BLACK)
    white = record.player_of(Colour.WHITE)
    lines += [_name(black), _name(white), "0"]
    return "".join(line + "\n" for line in lines)


def _name(player: Player) -> str:
    # One line each; Piskvork reads the rest of the line, so only line breaks must go.
    return " ".join((player.name or "-").splitlines()).strip() or "-"


def load_psq(data: str | bytes) -> GameRecord:
    """Read a psq file; errors name the line. Times become time stamps by adding up."""
    lines = split_lines(decode_text(data, "psq"))
    if not lines:
        raise RecordFormatError("line 1: empty file; a psq file starts 'Piskvorky 15x15, …'")
    header = _HEADER.match(lines[0].strip())
    if not header:
        raise RecordFormatError(
            f"line 1: {lines[0].strip()[:60]!r} is not a psq header "
            "such as 'Piskvorky 15x15, 0:0, 0'"
        )
    width, height = int(header.group(1)), int(header.group(2))
    if (width, height) != (SIZE, SIZE):
        raise RecordFormatError(f"line 1: the board is {width}x{height}; Wuzi plays on 15x15")
    if header.group(5) not in ("0", "1"):
        raise RecordFormatError(f"line 1: the first player must be 0 or 1, not {header.group(5)}")

    points: list[Point | None] = []
    times: list[int | None] = []
    seen: dict[Point, int] = {}
    clock = 0
    number = 1
    for number, raw in enumerate(lines[1:], start=2):
        if not raw.strip():
            continue  # Piskvork skips blank lines between moves too
        move = _MOVE.match(raw)
        if not move:
            break
        x, y = int(move.group(1)), int(move.group(2))
        if not (1 <= x <= SIZE and 1 <= y <= SIZE):
            raise RecordFormatError(f"line {number}: {x},{y} is off the 15x15 board (1–15)")
        p = (SIZE - y) * SIZE + (x - 1)
        if p in seen:
            raise RecordFormatError(
                f"line {number}: {x},{y} ({point_name(p)}) is already occupied (line {seen[p]})"
            )
        seen[p] = number
        took = int(move.group(3)) if move.group(3) is not None else 0
        if took < 0:
            raise RecordFormatError(f"line {number}: a move cannot take {took} ms")
        clock += took
        points.append(p)
        times.append(clock)
    else:
        number = len(lines) + 1
    if not any(times):
        times = [None] * len(points)  # every move "took 0 ms": the file has no times
    trailing = [line.strip() for line in lines[number - 1 :] if line.strip()]
    names = [t for t in trailing[:2] if not _is_code(t)]
    black = Player(name=names[0]) if names and names[0] != "-" else Player()
    white = Player(name=names[1]) if len(names) > 1 and names[1] != "-" else Player()
    return GameRecord(moves=alternating_moves(points, times=times), first=black, second=white)


def _is_code(text: str) -> bool:
    digits = text.lstrip("-")
    return digits.isascii() and digits.isdigit()
