"""``TableError`` and the input checks the session and the referee commands share.

Each check raises ``TableError`` naming what is wrong before anything changes, so a
malformed input leaves the session as it was (and nothing is journaled).
"""

from __future__ import annotations

from wuzi.rules.board import POINTS, Colour, Point
from wuzi.rules.procedure import Seat

__all__ = ["TableError", "check_colour", "check_int", "check_ms", "check_point", "check_seat"]


class TableError(ValueError):
    """A malformed input or a refused referee command; the session is unchanged."""


def check_seat(seat: object, what: str = "seat") -> Seat:
    if not isinstance(seat, Seat):
        raise TableError(f"{what} must be Seat.FIRST or Seat.SECOND, not {seat!r}")
    return seat


def check_point(p: object, what: str = "point", error: type[ValueError] = TableError) -> Point:
    """``p`` as a point index; ``error`` (a `TableError` unless a caller of its own, such
    as a linked game's seat, names another) naming ``what`` otherwise."""
    if isinstance(p, bool) or not isinstance(p, int):
        raise error(f"{what} must be a point index 0–224, not {p!r}")
    if not 0 <= p < POINTS:
        raise error(f"{what} {p} is off the board (indices 0–224)")
    return p


def check_ms(value: object, what: str, error: type[ValueError] = TableError) -> int:
    """``value`` as a whole, non-negative number of milliseconds (an instant or a span)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise error(f"{what} must be a whole number of ms, 0 or more, not {value!r}")
    return value


def check_colour(colour: object) -> Colour:
    if not isinstance(colour, Colour):
        raise TableError(f"colour must be Colour.BLACK or Colour.WHITE, not {colour!r}")
    return colour


def check_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TableError(f"{what} must be an integer, not {value!r}")
    return value
