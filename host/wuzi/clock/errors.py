"""Exceptions of the clock core.

Every error says what was wrong in words a referee or an organiser can act on: the field
and character of a malformed time control, the side and the amount of a refused
adjustment, the instant of an event that came too early. A clock that raises is left
exactly as it was before the call.
"""

from __future__ import annotations


class ClockError(ValueError):
    """Base class of every error raised by ``wuzi.clock``: an action the clock refuses."""


class ControlSpecError(ClockError):
    """A malformed time-control specification; the message names the field and character."""


class ClockFormatError(ClockError):
    """A malformed serialised event, journal or snapshot; the message names the key."""
