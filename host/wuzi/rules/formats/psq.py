"""Piskvork's ``.psq`` game files (the Gomocup manager's format).

Layout, as Piskvork's ``savePsq``/``openPsq`` (source/game.cpp) write and read it::

    Piskvorky 15x15, 0:0, 1        width x height; players 1 and 2's AI levels (0 = human,
                                   L = the L-th time per move of Piskvork's level table);
                                   the player who moved first (0 = player 1, 1 = player 2)
    8,8,1500                       one line per move: x,y (1-based), ms the move took
    9,7,2300
    Alice                          then the names in seat order, player 1's first (Piskvork
    Bob                            writes them in tournaments; a human is ``homo-1``/``homo-2``)
    0                              and an end code (Piskvork's errCode: 0, -1 when unknown)

Wuzi writes the game's names after the end code, one PGN-style tag pair a line
(``[Event "…"]``, ``[Round "2"]``, ``[Match "3"]``, ``[Board "1"]``, ``[BlackTeam
"…"]``, ``[BlackId "…"]``, the same for White, ``[Table "12"]``,
``[StartTime "2026-05-01T09:30:00+08:00"]``, ``[Result "0-1"]``, ``[Termination
"five"]``; only those known), and reads them back: a psq file has no other place for
them, Piskvork stops reading at the end code, and a line that is no tag pair there is
ignored as before.

So Black, who moved first, is player 1 when the header ends ``0`` and player 2 when it
ends ``1`` (Gomocup's alternate games). Wuzi's first seat is whoever held Black, so it
reads player ``h + 1`` as the first seat; the levels, the first player and the end code
are kept as the tags ``psq-levels`` (``11:11``), ``psq-first-player`` (``1``) and
``psq-end`` (``-1``) when they are not Wuzi's own ``0:0``, ``0`` and ``0``, and written
back from them, so a psq file read and written again has the same header and end code.
A file with the end code before the names (``-1``, then the names) is read too.

``x`` counts columns from the left (a = 1), ``y`` rows from the top edge as Piskvork
draws them, so Wuzi's row 15 is ``y = 1`` and h8 is ``8,8``. Piskvork's time is the time a
move took, not a time stamp: Wuzi writes the gap between press time stamps
(``t_ms[i] - t_ms[i-1]``, the first from the game's start) and reads them back by adding
up, so time stamps round-trip. A file in which every move took 0 ms (usual in
Gomocup archives) has no times: they are read as unknown. A psq file cannot hold a pass,
clock readings, claims or the opening.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping

from wuzi.rules.board import SIZE, Colour, Point, point_name
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.formats.common import Warn, decode_text, split_lines
from wuzi.rules.procedure import Seat
from wuzi.rules.record import GameRecord, GameResult, Player, ResultValue, alternating_moves

# Numbers of at most 12 digits: a longer one is no psq number (and Python will not even
# convert one of more than 4300 digits).
_HEADER = re.compile(
    r"Piskvorky\s+([0-9]{1,12})\s*x\s*([0-9]{1,12})\s*,\s*(-?[0-9]{1,12})\s*:\s*(-?[0-9]{1,12})\s*,"
    r"\s*([0-9]{1,12})\s*\Z"
)
_MOVE = re.compile(r"\s*(-?[0-9]{1,12})\s*,\s*(-?[0-9]{1,12})\s*(?:,\s*(-?[0-9]{1,12})\s*)?\Z")
_LEVELS = re.compile(r"([0-9]{1,12}):([0-9]{1,12})\Z")
_CODE = re.compile(r"-?[0-9]{1,12}\Z")
_MOVE_LIKE = re.compile(r"\s*[-+]?[\d.]\S*\s*,")
"""A line that starts as a move does (a number of any script, then a comma): after the
moves come names and an end code, which never do; such a line that is no move is an
error, not the silent end of the moves."""
MAX_MOVE_MS = 7 * 24 * 3600 * 1000
"""The longest time a move may take in a psq file (ms): far above any game's."""
_HUMAN = ("homo-1", "homo-2")  # Piskvork's names for human players 1 and 2

TAG_LEVELS, TAG_FIRST, TAG_END = "psq-levels", "psq-first-player", "psq-end"
"""The tags keeping the header's AI levels, its first player and the end code."""


def export_psq(record: GameRecord) -> str:
    """The record as a psq file; a pass cannot be written (RecordFormatError).

    Black moved first; the names are written in Piskvork's seat order, the header's
    levels, first player and the end code from the ``psq-…`` tags (Wuzi's ``0:0``, ``0``
    and ``0`` without them)."""
    levels, first_player, end = _header_tags(record.tags)
    lines = [f"Piskvorky {SIZE}x{SIZE}, {levels}, {first_player}"]
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
    seats = [black, white] if first_player == 0 else [white, black]
    lines += [_name(seats[0], 0), _name(seats[1], 1), str(end)]
    lines += _tag_lines(record)
    return "".join(line + "\n" for line in lines)


_TAG_LINE = re.compile(r'\[([A-Za-z]+) "((?:[^"\\]|\\.)*)"\]\Z')
_PSQ_RESULTS: dict[str, ResultValue] = {"1-0": "black", "0-1": "white", "1/2-1/2": "draw"}


def _quote(text: str) -> str:
    """A tag value: one line, ``\\`` and ``"`` escaped (as in PGN)."""
    one_line = " ".join(text.splitlines())
    return one_line.replace("\\", "\\\\").replace('"', '\\"')


def _tag_lines(record: GameRecord) -> list[str]:
    """The game's names after the end code, as ``[Key "value"]`` lines (the known ones)."""
    black, white = record.player_of(Colour.BLACK), record.player_of(Colour.WHITE)
    result = record.result
    pairs = (
        ("Event", record.event),
        ("Round", record.round),
        ("Match", "" if record.match is None else str(record.match)),
        ("Board", "" if record.board is None else str(record.board)),
        ("BlackTeam", black.team),
        ("BlackId", black.id),
        ("WhiteTeam", white.team),
        ("WhiteId", white.id),
        ("Table", "" if record.table is None else str(record.table)),
        ("StartTime", record.start_time),
        ("Result", "" if result is None else result.score.replace("½", "1/2")),
        ("Termination", "" if result is None else result.reason),
    )
    return [f'[{key} "{_quote(value)}"]' for key, value in pairs if value]


def _read_tags(lines: list[tuple[int, str]]) -> dict[str, tuple[int, str]]:
    """The tag pairs among the trailing lines: key -> (line number, value)."""
    tags: dict[str, tuple[int, str]] = {}
    for number, line in lines:
        match = _TAG_LINE.match(line)
        if match is not None:
            value = re.sub(r"\\(.)", r"\1", match.group(2))
            tags.setdefault(match.group(1), (number, value))
    return tags


def _tagged_number(tags: dict[str, tuple[int, str]], key: str, least: int = 1) -> int | None:
    if key not in tags:
        return None
    number, value = tags[key]
    if not re.fullmatch(r"[0-9]{1,9}", value) or int(value) < least:
        raise RecordFormatError(
            f"line {number}: [{key}] must be a whole number from {least}, not {value!r}"
        )
    return int(value)


def _tagged_result(tags: dict[str, tuple[int, str]]) -> GameResult | None:
    if "Result" not in tags:
        return None
    number, value = tags["Result"]
    if value in ("*", ""):
        return None
    if value not in _PSQ_RESULTS:
        raise RecordFormatError(
            f"line {number}: [Result] must be 1-0, 0-1, 1/2-1/2 or *, not {value!r}"
        )
    reason = tags.get("Termination", (0, "unknown"))[1]
    if not re.fullmatch(r"[a-z0-9][a-z0-9_.+-]*", reason):
        raise RecordFormatError(
            f"line {tags['Termination'][0]}: [Termination] {reason!r} is not a token such as 'five'"
        )
    return GameResult(_PSQ_RESULTS[value], reason)


def _tagged_time(tags: dict[str, tuple[int, str]]) -> str:
    if "StartTime" not in tags:
        return ""
    number, value = tags["StartTime"]
    try:
        datetime.datetime.fromisoformat(value)
    except ValueError:
        raise RecordFormatError(
            f"line {number}: [StartTime] {value!r} is not an ISO 8601 time"
        ) from None
    return value


def _header_tags(tags: Mapping[str, str]) -> tuple[str, int, int]:
    """The levels, first player and end code a record's tags keep (RecordFormatError names
    a tag that is not what a psq header holds)."""
    levels = tags.get(TAG_LEVELS, "0:0")
    if not _LEVELS.match(levels):
        raise RecordFormatError(
            f"tag {TAG_LEVELS}: {levels!r} is not two AI levels such as '11:11'"
        )
    first = tags.get(TAG_FIRST, "0")
    if first not in ("0", "1"):
        raise RecordFormatError(f"tag {TAG_FIRST}: must be 0 or 1, not {first!r}")
    end = tags.get(TAG_END, "0")
    if not _CODE.match(end):
        raise RecordFormatError(f"tag {TAG_END}: {end!r} is not a whole number such as -1")
    return levels, int(first), int(end)


def _name(player: Player, seat: int) -> str:
    # One line each; Piskvork reads the rest of the line, so only line breaks must go.
    name = " ".join(player.name.splitlines()).strip()
    return name or _HUMAN[seat]


def load_psq(data: str | bytes, *, warn: Warn | None = None) -> GameRecord:
    """Read a psq file; errors name the line. Times become time stamps by adding up.

    The names are read in Piskvork's seat order, the player the header names as the
    first mover holding Black (the first seat). A psq reader has nothing to warn of
    (``warn`` is taken for the registry's sake)."""
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
    if int(header.group(3)) < 0 or int(header.group(4)) < 0:
        raise RecordFormatError(
            f"line 1: an AI level cannot be negative ({header.group(3)}:{header.group(4)})"
        )
    levels = f"{int(header.group(3))}:{int(header.group(4))}"
    first_player = int(header.group(5))

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
            if _MOVE_LIKE.match(raw):  # 1e9,3,1000 or ٣,٤: a broken move, not a name
                raise RecordFormatError(
                    f"line {number}: {raw.strip()[:40]!r} is not a move 'x,y' or 'x,y,ms' "
                    "(whole numbers in the digits 0-9)"
                )
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
        if not 0 <= took <= MAX_MOVE_MS:
            raise RecordFormatError(
                f"line {number}: a move cannot take {took} ms (0 to {MAX_MOVE_MS}, 7 days)"
            )
        clock += took
        points.append(p)
        times.append(clock)
    else:
        number = len(lines) + 1
    if not any(times):
        times = [None] * len(points)  # every move "took 0 ms": the file has no times
    after = [(n, line.strip()) for n, line in enumerate(lines[number - 1 :], start=number)]
    tagged = _read_tags(after)
    trailing = [line for _, line in after if line and not _TAG_LINE.match(line)]
    # Piskvork: name 1, name 2, end code (…); some archives: end code, name 1, name 2, …
    end = "0"
    if trailing and _CODE.match(trailing[0]):
        end, names = trailing[0], trailing[1:3]
    else:
        names = [t for t in trailing[:2] if not _CODE.match(t)]
        rest = trailing[len(names) :]
        if rest and _CODE.match(rest[0]):
            end = rest[0]
    seats = [_player(names[i]) if len(names) > i else Player() for i in (0, 1)]
    black = seats[first_player]
    white = seats[1 - first_player]
    black = Player(
        name=black.name,
        id=tagged.get("BlackId", (0, ""))[1],
        team=tagged.get("BlackTeam", (0, ""))[1],
    )
    white = Player(
        name=white.name,
        id=tagged.get("WhiteId", (0, ""))[1],
        team=tagged.get("WhiteTeam", (0, ""))[1],
    )
    tags = {
        key: value
        for key, value, default in (
            (TAG_LEVELS, levels, "0:0"),
            (TAG_FIRST, str(first_player), "0"),
            (TAG_END, str(int(end)), "0"),
        )
        if value != default
    }
    return GameRecord(
        moves=alternating_moves(points, black_seat=Seat.FIRST, times=times),
        result=_tagged_result(tagged),
        event=tagged.get("Event", (0, ""))[1],
        round=tagged.get("Round", (0, ""))[1],
        match=_tagged_number(tagged, "Match"),
        board=_tagged_number(tagged, "Board"),
        table=_tagged_number(tagged, "Table", 0),
        first=black,
        second=white,
        start_time=_tagged_time(tagged),
        tags=tags,
    )


def _player(name: str) -> Player:
    return Player() if name in ("-", *_HUMAN) else Player(name=name)
