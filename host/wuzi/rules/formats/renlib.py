"""RenLib's binary files: ``.pos`` (one game's moves) and ``.lib`` (a tree of variations).

Both layouts are taken from RenLib's own source (``Pos.cpp``, ``LibraryFile.cpp``,
``MoveNode.cpp`` and ``RenLibDoc.cpp`` of RenLib 3.6). RenLib numbers points ``(x, y)``
with ``x`` 1–15 from the left (a–o) and ``y`` 1–15 from the *top* (its text board prints
row 15 first), so Wuzi's row ``r`` is RenLib's ``y = 16 - r``.

``.pos``: byte 0 is the number of moves N (RenLib refuses 0 and anything above 225), then
N bytes, one per move, ``(y - 1) * 15 + (x - 1)``. Black moves first and the colours
alternate; there is no way to write a pass. RenLib writes nothing after the moves, but its
``Pos::Read`` reads the file into a 226-byte buffer and uses only bytes 0 to N, so a file
padded after its moves opens in RenLib: Wuzi reads it the same way, with a warning.

``.lib``: a 20-byte header ``FF 'RenLib' FF 03 04`` + ten ``FF``, then the tree in
pre-order, two bytes per node: the point ``16 * (y - 1) + x`` (0 for no point: the root,
or a pass) and a flag byte. In the file ``0x80`` means "a sibling follows after this
node's subtree" and ``0x40`` "this node has no children" (RenLib's in-memory names for
them are the other way round); ``0x08`` means a comment follows (text, NUL-terminated,
padded to an even length; a one-line part and a multi-line part joined by byte 08),
``0x20`` an old-style comment (ending at the byte with the top bit set), ``0x02`` a node
that is only a board label, and ``0x01`` two extension bytes (``01`` in the second: a
board text follows). Wuzi writes one game as a single line (root, then every move, a
comment with the players and result on the last node) and reads the first variation at
every branch. Version 3.0 files, which start with h8 and omit the root, are read too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wuzi.rules.board import POINTS, SIZE, Colour, Point, point_name
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.formats.common import Warn, binary, warner
from wuzi.rules.record import GameRecord, alternating_moves

# --- .pos -----------------------------------------------------------------------------


def _pos_byte(p: Point) -> int:
    return (SIZE - 1 - p // SIZE) * SIZE + p % SIZE


def _pos_point(b: int) -> Point:
    return (SIZE - 1 - b // SIZE) * SIZE + b % SIZE


def export_pos(record: GameRecord) -> bytes:
    """The moves as a RenLib ``.pos`` file; a pass cannot be written (RecordFormatError)."""
    out = bytearray([len(record.moves)])
    for index, move in enumerate(record.moves):
        if move.point is None:
            raise RecordFormatError(
                f"move {index + 1} is a pass, which a RenLib .pos file cannot hold"
            )
        out.append(_pos_byte(move.point))
    return bytes(out)


def load_pos(data: str | bytes, *, warn: Warn | None = None) -> GameRecord:
    """Read a ``.pos`` file; errors name the byte offset. N = 0 is read as no moves.

    Bytes after the N moves are ignored, as RenLib ignores them, with a warning."""
    raw = binary(data, "RenLib .pos")
    if not raw:
        raise RecordFormatError("byte 0: empty file; a .pos file starts with its number of moves")
    n = raw[0]
    if n > POINTS:
        raise RecordFormatError(f"byte 0: {n} moves is more than the board's 225 points")
    if len(raw) < n + 1:
        raise RecordFormatError(
            f"byte {len(raw)}: the file ends after {len(raw) - 1} of its {n} moves"
        )
    if len(raw) > n + 1:
        warner(warn)(
            f"byte {n + 1}: {len(raw) - n - 1} byte(s) after the {n} moves ignored "
            "(RenLib reads only the moves too)"
        )
    points: list[Point | None] = []
    seen: dict[Point, int] = {}
    for offset in range(1, n + 1):
        b = raw[offset]
        if b >= POINTS:
            raise RecordFormatError(f"byte {offset}: {b} is not a point (0–224)")
        p = _pos_point(b)
        if p in seen:
            raise RecordFormatError(
                f"byte {offset}: {point_name(p)} is already occupied (byte {seen[p]})"
            )
        seen[p] = offset
        points.append(p)
    return GameRecord(moves=alternating_moves(points))


# --- .lib -----------------------------------------------------------------------------

LIB_HEADER = bytes([0xFF, *b"RenLib", 0xFF, 3, 4, *([0xFF] * 10)])
_HEADER_SIZE = 20

_SIBLING = 0x80  # on disk: another child of the same parent follows this subtree
_LEAF = 0x40  # on disk: no children
_OLD_COMMENT = 0x20
_COMMENT = 0x08
_NO_MOVE = 0x02
_EXTENSION = 0x01
_BOARD_TEXT = 0x01  # in the second extension byte


def _lib_byte(p: Point | None) -> int:
    if p is None:
        return 0
    return 16 * (SIZE - 1 - p // SIZE) + p % SIZE + 1


def _lib_point(b: int) -> Point | None:
    """The point of a node byte, None for 0; raises ValueError for a byte off the board."""
    if b == 0:
        return None
    x, y = b % 16, b // 16 + 1
    if not (1 <= x <= SIZE and 1 <= y <= SIZE):
        raise ValueError(b)
    return (SIZE - y) * SIZE + (x - 1)


def _lib_text(text: str) -> bytes:
    body = text.replace("\x00", " ").encode("utf-8") + b"\x00"
    return body + b"\x00" if len(body) % 2 else body


def export_lib(record: GameRecord) -> bytes:
    """One game as a RenLib library: the header, the root, then each move in order."""
    out = bytearray(LIB_HEADER)
    comment = _lib_comment(record)
    if not record.moves:
        out += bytes([0, _COMMENT]) + _lib_text(comment)
        return bytes(out)
    out += bytes([0, 0])
    last = len(record.moves) - 1
    for index, move in enumerate(record.moves):
        flags = _LEAF | _COMMENT if index == last else 0
        out += bytes([_lib_byte(move.point), flags])
    out += _lib_text(comment)
    return bytes(out)


def _lib_comment(record: GameRecord) -> str:
    """RenLib's usual game comment: ``Black - White 1-0``, then details on more lines."""
    black = record.player_of(Colour.BLACK).label or "Black"
    white = record.player_of(Colour.WHITE).label or "White"
    score = "" if record.result is None else " " + record.result.score.replace("½", "0.5")
    lines = [
        line
        for line in (
            record.event,
            f"Round: {record.round}" if record.round else "",
            f"Match: {record.match}" if record.match is not None else "",
            f"Board: {record.board}" if record.board is not None else "",
            f"Table: {record.table}" if record.table is not None else "",
            f"Start: {record.start_time}" if record.start_time else "",
            f"Rule: {record.ruleset}",
            f"Opening: {record.opening.label}",
            f"Result: {record.result.reason}" if record.result else "",
        )
        if line
    ]
    return f"{black} - {white}{score}\x08" + "\r\n".join(lines)


def export_lib_games(records: list[GameRecord] | tuple[GameRecord, ...]) -> bytes:
    """Several games as one RenLib library (a round's games, for a renju database): one
    tree from the root, games sharing their first moves sharing those nodes, each game's
    comment (``_lib_comment``) on its last node — two games ending on the same node have
    their comments joined by a blank line. RenLib opens it and shows every game as a
    variation; ``load_lib`` reads the first."""
    root = _Tree(None)
    for record in records:
        node = root
        for move in record.moves:
            child = next((c for c in node.children if c.point == move.point), None)
            if child is None:
                child = _Tree(move.point)
                node.children.append(child)
            node = child
        node.comments.append(_lib_comment(record))
    out = bytearray(LIB_HEADER)
    stack: list[tuple[_Tree, bool]] = [(root, False)]
    while stack:  # pre-order; iterative, so a long game cannot exhaust Python's stack
        node, sibling = stack.pop()
        flags = (_SIBLING if sibling else 0) | (0 if node.children else _LEAF)
        flags |= _COMMENT if node.comments else 0
        out += bytes([_lib_byte(node.point), flags])
        if node.comments:
            first, *more = node.comments
            out += _lib_text(first + "".join("\r\n\r\n" + c.replace("\x08", "\r\n") for c in more))
        last = len(node.children) - 1
        stack.extend((c, i < last) for i, c in reversed(list(enumerate(node.children))))
    return bytes(out)


@dataclass
class _Tree:
    point: Point | None
    children: list[_Tree] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


@dataclass
class _Node:
    point: Point | None
    offset: int
    is_move: bool = True
    children: list[_Node] = field(default_factory=list)


def load_lib(data: str | bytes, *, warn: Warn | None = None) -> GameRecord:
    """Read a library and return its first variation as a game; errors name the byte."""
    raw = binary(data, "RenLib .lib")
    offset = _check_header(raw)
    root = _Node(None, offset)
    path = [root]
    branches: list[int] = []
    first = True
    while offset < len(raw):
        at = offset
        pos, info, offset = _pair(raw, offset, "a node")
        extension = 0
        if info & _EXTENSION:
            _, extension, offset = _pair(raw, offset, "a node's extension")
        try:
            point = _lib_point(pos)
        except ValueError:
            raise RecordFormatError(f"byte {at}: 0x{pos:02x} is not a point of the board") from None
        if not (first and point is None):  # the first node with no point is the root
            parent = path[-1]
            node = next((c for c in parent.children if c.point == point), None)
            if node is None:
                node = _Node(point, at, is_move=not info & _NO_MOVE)
                parent.children.append(node)
            path.append(node)
        first = False
        if info & _OLD_COMMENT:
            offset = _skip_old_text(raw, offset)
        elif info & _COMMENT:
            offset = _skip_text(raw, offset)
        if extension & _BOARD_TEXT:
            offset = _skip_text(raw, offset)
        if info & _SIBLING:
            branches.append(len(path) - 1)
        if info & _LEAF and branches:
            del path[max(1, branches.pop()) :]  # the root stays: it has no siblings
    return GameRecord(moves=alternating_moves(_main_line(root)))


def _check_header(raw: bytes) -> int:
    if len(raw) >= 1 and raw[0] == 0x78:
        return 0  # a headerless library starting with h8 (RenLib still reads these)
    if len(raw) < _HEADER_SIZE or raw[:8] != LIB_HEADER[:8]:
        raise RecordFormatError("byte 0: not a RenLib library (it starts FF 'RenLib' FF)")
    major, minor = raw[8], raw[9]
    if 100 * major + minor > 304:
        raise RecordFormatError(f"byte 8: library version {major}.{minor} is newer than 3.4")
    return _HEADER_SIZE


def _pair(raw: bytes, offset: int, what: str) -> tuple[int, int, int]:
    if offset + 2 > len(raw):
        raise RecordFormatError(f"byte {offset}: the file ends inside {what} (2 bytes)")
    return raw[offset], raw[offset + 1], offset + 2


def _skip_text(raw: bytes, offset: int) -> int:
    """Skip a NUL-terminated text stored in byte pairs."""
    start = offset
    while True:
        a, b, offset = _pair(raw, offset, f"the text that starts at byte {start}")
        if a == 0 or b == 0:
            return offset


def _skip_old_text(raw: bytes, offset: int) -> int:
    """Skip an old-style comment: byte pairs up to a byte with its top bit set."""
    start = offset
    while True:
        a, b, offset = _pair(raw, offset, f"the comment that starts at byte {start}")
        if a & 0x80 or b & 0x80:
            return offset


def _main_line(root: _Node) -> list[Point | None]:
    points: list[Point | None] = []
    seen: dict[Point, int] = {}
    node = root
    while True:
        node_next = next((c for c in node.children if c.is_move), None)
        if node_next is None:
            return points
        node = node_next
        if node.point is not None:
            if node.point in seen:
                raise RecordFormatError(
                    f"byte {node.offset}: {point_name(node.point)} is already occupied "
                    f"(byte {seen[node.point]})"
                )
            seen[node.point] = node.offset
        points.append(node.point)
