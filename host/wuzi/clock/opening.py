"""Whose clock runs in the opening, and a table press that follows the game.

RULES.md ("Time"): the opener's clock runs while B1–B3 are placed; the swap decision is on
the deciding player's clock; Black's clock runs until all fifth-move offers are down;
White's through the choice and move 6; then the clocks alternate, one bonus per press.
Every one of these is "the clock of the seat that acts next", and the game already knows
that seat (``Game.to_move``: the acting seat of the opening step, then the seat holding
the colour to move). So a table host presses like this:

* the player whose clock runs pressed after an action the game accepted (a stone, an
  offer, the offer kept, a decision) → ``press(now, next_seat=game.to_move)``: when the
  same player acts again (the opener between B1 and B3, White between the choice and
  move 6) their own clock keeps running, with the bonus of the press;
* the player pressed without a new action → the press stands as any clock would take it
  (their clock stops, the other one starts, the bonus is given) but is no move, and it is
  recorded as an infraction; nothing is undone — the referee decides (warning, switching
  the clock back with ``Clock.switch``, removing the bonus with ``Clock.add_time``).

``table_press`` does exactly that; it depends only on something with ``to_move``.
"""

from __future__ import annotations

from typing import Protocol

from wuzi.clock.clock import Clock
from wuzi.clock.machine import PressResult
from wuzi.rules.procedure import Seat

__all__ = ["NO_NEW_ACTION", "TurnSource", "seat_to_run", "table_press"]

NO_NEW_ACTION = "clock pressed without a new stone or decision"


class TurnSource(Protocol):
    """What the clock needs of a game: the seat that acts next (None once it is over)."""

    @property
    def to_move(self) -> Seat | None: ...


def seat_to_run(game: TurnSource) -> Seat | None:
    """The seat whose clock must run now (see the module docstring)."""
    return game.to_move


def table_press(
    clock: Clock,
    now_ns: int,
    game: TurnSource,
    *,
    acted: bool,
    by: Seat | None = None,
    moves: int = 1,
    actor: str = "",
    detail: str = NO_NEW_ACTION,
) -> PressResult:
    """A press at a table: ``acted`` says whether the game accepted a new action of the
    pressing player since their last press (already applied to ``game``). With an action,
    the clock runs next for ``game.to_move``; without one, the press is no move, passes
    the clock as a physical clock would, and is recorded as an infraction."""
    if acted:
        return clock.press(now_ns, by=by, moves=moves, next_seat=seat_to_run(game))
    result = clock.press(now_ns, by=by, moves=0)
    if result.accepted and result.seat is not None:
        clock.record_infraction(now_ns, result.seat, detail, actor=actor)
    return result
