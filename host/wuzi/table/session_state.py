"""What the parts of a table session share: its state and the helpers each part calls.

``wuzi.table.session.TableSession`` is put together from mixins, one purpose each
(``OpeningActions``, ``RefereeCommands``, ``FlagRule``). Each reads the session's state
and calls a few of its helpers; ``SessionState`` declares them once, for mypy, so the
parts need no stubs of their own and mypy checks that the session's definitions match.
Nothing here runs: the session defines every attribute and method.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wuzi.clock.clock import Clock
from wuzi.rules.board import Colour, Point
from wuzi.rules.game import Game
from wuzi.rules.procedure import Seat
from wuzi.rules.record import ClockReading
from wuzi.table.alerts import AlertReason
from wuzi.table.outputs import TableOutput

__all__ = ["SessionState"]


class SessionState:
    """The session's state and helpers, as its parts see them."""

    _game: Game
    _clock: Clock
    _game_number: int
    _out: list[TableOutput]
    _pending: tuple[Point, Colour, int] | None  # a settled stone waiting for its press
    _strays: set[Point]
    _taken_back: set[Point]
    _host_paused: bool
    _flags_told: int
    _acted: Seat | None
    _unremoved_offers: set[Point]

    if TYPE_CHECKING:

        def _t_ms(self, now_ns: int) -> int: ...

        def _reading(self, now_ns: int) -> ClockReading: ...

        def _alert(
            self,
            now_ns: int,
            reason: AlertReason,
            text: str,
            points: tuple[Point, ...] = (),
            seat: Seat | None = None,
            infractions: int | None = None,
        ) -> None: ...

        def _begin_game(self, now_ns: int) -> None: ...
