"""Exceptions of the rules engine.

Every error says what was wrong in words a referee or an organiser can act on, in the
style of python-chess (``IllegalMoveError`` and friends): the message names the point,
the move number or the step, and the state is left as it was before the call.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error raised by ``wuzi.rules``."""


class InvalidPointError(RulesError):
    """A coordinate that is not a point of the 15×15 board (columns a–o, rows 1–15)."""


class OccupiedPointError(RulesError):
    """A stone placed on a point that already holds one."""


class IllegalMoveError(RulesError):
    """A move the rules do not allow now (wrong turn, not allowed by the opening step…)."""


class GameOverError(RulesError):
    """An action on a game that has already ended."""


class RecordFormatError(RulesError):
    """A malformed game record; the message names the line or byte offset."""
