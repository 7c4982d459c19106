"""The players' opening actions without a stone of their own: a decision (swap or stay,
Swap2's options), a declared number (Yamaguchi's or Soosõrv-N's N) and the offer kept.

``OpeningActions`` is a mixin of ``wuzi.table.session.TableSession``; ``handle`` finds
its ``_on_<Input>`` handlers like the session's own. Each action the game accepts is
then covered by a press of the acting seat (``_acted``): the clock runs on for whoever
acts next (docs/clock.md), and the press of a stone that follows also covers it. An
action the rules refuse is a ``refused`` alert, not an error — buttons get pressed — and
only a malformed input (a seat that is none, a number that is not one) is a
``TableError``. Pure, like the session: no I/O, no reading of the time.
"""

from __future__ import annotations

from wuzi.rules.board import point_name
from wuzi.rules.errors import RulesError
from wuzi.rules.procedure import Seat
from wuzi.table.alerts import AlertReason
from wuzi.table.checks import TableError, check_int, check_point, check_seat
from wuzi.table.inputs import Choose, Decide, Declare
from wuzi.table.outputs import (
    MoveJudged,
    OfferKept,
    OpeningDecided,
    OpeningDeclared,
)
from wuzi.table.session_state import SessionState

__all__ = ["OpeningActions"]


class OpeningActions(SessionState):
    """The opening-action handlers, mixed into ``TableSession`` (which provides the state
    declared in ``SessionState``; mypy checks that its definitions match)."""

    def _refused(self, now: int, seat: Seat, what: str, exc: RulesError) -> None:
        self._alert(now, AlertReason.REFUSED, f"{what} by the {seat.value} seat refused: {exc}")

    def _on_Decide(self, event: Decide) -> None:
        seat = check_seat(event.seat)
        if not isinstance(event.choice, str):
            raise TableError(f"a decision is text, not {event.choice!r}")
        now = event.now_ns
        try:
            self._game.decide(
                event.choice, seat=seat, t_ms=self._t_ms(now), clocks=self._reading(now)
            )
        except RulesError as exc:
            self._refused(now, seat, f"decision {event.choice!r}", exc)
            return
        self._acted = seat
        self._out.append(OpeningDecided(now, seat, event.choice))

    def _on_Declare(self, event: Declare) -> None:
        seat = check_seat(event.seat)
        number = check_int(event.number, "a declared number")
        now = event.now_ns
        try:
            self._game.declare(number, seat=seat, t_ms=self._t_ms(now), clocks=self._reading(now))
        except RulesError as exc:
            self._refused(now, seat, f"declaration of {number}", exc)
            return
        self._acted = seat
        self._out.append(OpeningDeclared(now, seat, number))

    def _on_Choose(self, event: Choose) -> None:
        seat = check_seat(event.seat)
        p = check_point(event.point)
        now, game = event.now_ns, self._game
        offers = game.offers
        try:
            game.choose(p, seat=seat, t_ms=self._t_ms(now), clocks=self._reading(now))
        except RulesError as exc:
            self._refused(now, seat, f"choice of {point_name(p)}", exc)
            return
        others = tuple(q for q in offers if q != p)
        self._unremoved_offers.update(others)
        self._acted = seat
        self._out.append(OfferKept(now, p, others))
        moves = game.moves
        if moves and moves[-1].point == p:
            m = moves[-1]
            self._out.append(MoveJudged(now, m.number, m.point, m.colour, m.seat, m.clocks))
