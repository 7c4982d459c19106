"""The 15×15 board, its points and their notation.

A point is an ``int`` from 0 to 224: ``index = (row - 1) * 15 + column`` with column 0 for
``a`` and row 1 at the bottom, seen from the seat of the player who held Black at the start
(that orientation is kept after a colour swap). ``h8`` — column 7, row 8 — is the centre,
index 112. Integers keep the hot paths (forbidden-move scans) cheap; ``parse_point`` and
``point_name`` convert at the edges.

The letter ``i`` is used (columns a b c d e f g h i j k l m n o), as in Chinese and RIF
notation.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator

from wuzi.rules.errors import InvalidPointError, OccupiedPointError

SIZE = 15
POINTS = SIZE * SIZE
COLUMNS = "abcdefghijklmno"
CENTRE = 7 * SIZE + 7  # h8

Point = int


class Colour(enum.IntEnum):
    """A stone colour; the values are the cell codes stored on the board (0 is empty)."""

    BLACK = 1
    WHITE = 2

    @property
    def other(self) -> Colour:
        return Colour.WHITE if self is Colour.BLACK else Colour.BLACK

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Colour:
        """``black``/``white`` (or ``b``/``w``), any case."""
        key = text.strip().lower()
        if key in ("black", "b"):
            return cls.BLACK
        if key in ("white", "w"):
            return cls.WHITE
        raise ValueError(f"colour must be 'black' or 'white', not {text!r}")


EMPTY = 0


def point(column: int, row: int) -> Point:
    """The point at a 0-based ``column`` (a = 0) and 1-based ``row``."""
    if not (0 <= column < SIZE and 1 <= row <= SIZE):
        raise InvalidPointError(f"column {column} / row {row} is off the 15×15 board")
    return (row - 1) * SIZE + column


def column_of(p: Point) -> int:
    return p % SIZE


def row_of(p: Point) -> int:
    return p // SIZE + 1


def xy(p: Point) -> tuple[int, int]:
    """0-based ``(x, y)`` of a point: x = column, y = row - 1."""
    return p % SIZE, p // SIZE


def from_xy(x: int, y: int) -> Point:
    return y * SIZE + x


def on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def _ascii_digits(text: str) -> bool:
    """Only 0–9: ``str.isdigit`` also accepts ``²`` and other digits ``int`` rejects."""
    return text.isascii() and text.isdigit()


def parse_point(text: str) -> Point:
    """Parse ``h8`` (any case, surrounding spaces ignored) into a point.

    >>> parse_point("h8")
    112
    """
    s = text.strip().lower()
    if not 2 <= len(s) <= 3 or s[0] not in COLUMNS or not _ascii_digits(s[1:]):
        shown = repr(text) if len(text) <= 40 else f"{text[:30]!r}… ({len(text)} characters)"
        raise InvalidPointError(
            f"{shown} is not a point: expected a column a–o and a row 1–15, such as h8"
        )
    row = int(s[1:])
    if not 1 <= row <= SIZE or s[1] == "0":
        raise InvalidPointError(f"{text!r} is not a point: row must be 1–15")
    return (row - 1) * SIZE + COLUMNS.index(s[0])


def point_name(p: Point) -> str:
    """The notation of a point, e.g. ``112 -> 'h8'``."""
    if not 0 <= p < POINTS:
        raise InvalidPointError(f"{p} is not a point index (0–224)")
    return f"{COLUMNS[p % SIZE]}{p // SIZE + 1}"


def parse_points(text: str) -> list[Point]:
    """Parse a space- or comma-separated list of points, e.g. ``"h8 i9 j10"``."""
    return [parse_point(tok) for tok in text.replace(",", " ").split()]


def sort_key(p: Point) -> tuple[int, int]:
    """Order by column, then row: the order of ``wuzi rules forbidden`` output."""
    return p % SIZE, p // SIZE


class Board:
    """Stones on the 15×15 grid; nothing about turns or rules.

    Mutable and cheap to copy. ``cells`` is a ``bytearray`` of 225 cell codes (0 empty,
    1 black, 2 white), exposed so the rules engine can read it without call overhead.
    """

    __slots__ = ("cells",)

    def __init__(self, cells: Iterable[int] | None = None) -> None:
        self.cells = bytearray(POINTS) if cells is None else bytearray(cells)
        if len(self.cells) != POINTS:
            raise ValueError(f"a board has {POINTS} cells, not {len(self.cells)}")

    @classmethod
    def from_moves(cls, moves: Iterable[Point], first: Colour = Colour.BLACK) -> Board:
        """Stones of an alternating move list, ``first`` moving first."""
        board = cls()
        colour = first
        for n, p in enumerate(moves, start=1):
            if board.cells[p]:
                raise OccupiedPointError(f"move {n}: {point_name(p)} is already occupied")
            board.cells[p] = colour
            colour = colour.other
        return board

    def copy(self) -> Board:
        return Board(self.cells)

    def __getitem__(self, p: Point) -> int:
        return self.cells[p]

    def colour_at(self, p: Point) -> Colour | None:
        c = self.cells[p]
        return Colour(c) if c else None

    def is_empty(self, p: Point) -> bool:
        return not self.cells[p]

    def place(self, p: Point, colour: Colour) -> None:
        if not 0 <= p < POINTS:
            raise InvalidPointError(f"{p} is not a point index (0–224)")
        if self.cells[p]:
            raise OccupiedPointError(f"{point_name(p)} is already occupied")
        self.cells[p] = colour

    def remove(self, p: Point) -> None:
        if not self.cells[p]:
            raise ValueError(f"{point_name(p)} holds no stone to remove")
        self.cells[p] = EMPTY

    def stones(self, colour: Colour | None = None) -> Iterator[Point]:
        cells = self.cells
        if colour is None:
            return (p for p in range(POINTS) if cells[p])
        return (p for p in range(POINTS) if cells[p] == colour)

    def empty_points(self) -> Iterator[Point]:
        cells = self.cells
        return (p for p in range(POINTS) if not cells[p])

    def count(self) -> int:
        return POINTS - self.cells.count(EMPTY)

    def is_full(self) -> bool:
        return EMPTY not in self.cells

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.cells == other.cells

    def __hash__(self) -> int:
        return hash(bytes(self.cells))

    def __str__(self) -> str:
        """A text diagram, row 15 at the top, ``X`` black, ``O`` white, ``.`` empty."""
        lines = []
        for row in range(SIZE, 0, -1):
            cells = "".join(".XO"[self.cells[(row - 1) * SIZE + c]] for c in range(SIZE))
            lines.append(f"{row:2d} {' '.join(cells)}")
        lines.append("   " + " ".join(COLUMNS))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board(<{self.count()} stones>)"
