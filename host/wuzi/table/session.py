"""One table's live game: board stones, clock presses and the rules joined, sans-I/O.

The shell (serial links, GPIO, MQTT, the journal) feeds a ``TableSession`` inputs from
``wuzi.table.inputs`` — each with the host's monotonic ``now_ns`` — through ``handle``
(or the named helpers), journals every accepted input, and drains ``take_outputs()``:
an ordered list of ``wuzi.table.outputs`` values, player-safe ones and referee-only
ones told apart by type. The session never does I/O and never reads the time, so
``TableSession.replay(inputs)`` rebuilds an identical session from the journal.

A move is complete when the stone of the side to move has settled and that side pressed
the clock: then the game judges it (``Game.place`` with the clock reading after the
press) and the clock passes to ``game.to_move`` (``table_press``). Everything else is a
referee alert with a reason. An input that is malformed (an unknown seat, a point off
the board, an instant earlier than the previous one, a referee command the game or the
clock refuses) raises ``TableError`` and changes nothing. The referee's commands are
in ``wuzi.table.referee``, the opening actions without a stone in
``wuzi.table.opening_actions``, the one flag rule of every phase in
``wuzi.table.flag_rule`` (a flag fallen by an input's instant is put on record and told
before its outputs; no player action counts after it), the shared input checks in
``wuzi.table.checks``. See docs/table.md.
"""

from __future__ import annotations

from collections.abc import Iterable

from wuzi.base.sealed import SealedList
from wuzi.clock.clock import Clock
from wuzi.clock.control import NS_PER_MS
from wuzi.clock.errors import ClockError
from wuzi.clock.events import Pressed
from wuzi.clock.machine import Flag, apply_event
from wuzi.clock.opening import NO_NEW_ACTION, table_press
from wuzi.clock.timing import time_to_flag_ns
from wuzi.rules.board import Colour, Point, point_name
from wuzi.rules.claims import AlertKind, Verdict
from wuzi.rules.errors import RulesError
from wuzi.rules.events import AlertRaised, ClaimJudged, GameEnded
from wuzi.rules.game import Game, Status
from wuzi.rules.openings import make_procedure
from wuzi.rules.procedure import Action, Seat
from wuzi.rules.record import ClockReading
from wuzi.table.alerts import AlertReason, board_alert_reason
from wuzi.table.checks import TableError
from wuzi.table.checks import check_colour as _check_colour
from wuzi.table.checks import check_int as _check_int
from wuzi.table.checks import check_point as _check_point
from wuzi.table.checks import check_seat as _check_seat
from wuzi.table.flag_rule import PLAYER_ACTIONS, FlagRule
from wuzi.table.inputs import (
    BoardAlert,
    Choose,
    Claim,
    ClockPressed,
    Decide,
    Declare,
    SessionStarted,
    StoneSettled,
    TableInput,
    TableSetup,
    Tick,
)
from wuzi.table.opening_actions import OpeningActions
from wuzi.table.outputs import (
    ClockChanged,
    GameOver,
    MoveJudged,
    NextGameStarted,
    OfferPlaced,
    PlayerOutput,
    RefereeAlert,
    StatusChanged,
    TableOutput,
)
from wuzi.table.referee import ADJOURN_HOLD, RECOVERY_HOLD, REFEREE_HOLD, RefereeCommands

__all__ = ["ADJOURN_HOLD", "RECOVERY_HOLD", "REFEREE_HOLD", "TableError", "TableSession"]

_GAME_ALERTS = {
    AlertKind.FORBIDDEN: AlertReason.FORBIDDEN,
    AlertKind.FIVE: AlertReason.FIVE,
    AlertKind.CLAIM: AlertReason.CLAIM,
}
_CLAIM_KINDS = ("forbidden", "five")


def _new_game(setup: TableSetup, t_ms: int) -> Game:
    settings = dict(setup.opening_settings)
    if "rng" in settings:  # a random.Random cannot be journaled: replay would differ
        raise TableError("table setup: opening_settings: give the drawn opening_id, not an rng")
    try:
        procedure = make_procedure(setup.opening, **settings)
        return Game(setup.ruleset, mode=setup.mode, opening=procedure, t_ms=t_ms)
    except ValueError as exc:  # RulesError, and the plain ValueError of a bad symmetry
        raise TableError(f"table setup: {exc}") from None


def _new_clock(setup: TableSetup) -> Clock:
    try:
        return Clock(setup.time_control)
    except ClockError as exc:
        raise TableError(f"table setup: time_control {setup.time_control!r}: {exc}") from None


class TableSession(OpeningActions, RefereeCommands, FlagRule):
    """One table: its setup, the current game and clock, and what awaits a press.

    Construct it with the setup and the instant play may begin (the first seat's clock
    starts then); feed inputs with ``handle``; read ``take_outputs``. The referee's
    command handlers come from ``RefereeCommands`` (``wuzi.table.referee``), the opening
    actions from ``OpeningActions`` (``wuzi.table.opening_actions``).
    """

    def __init__(self, setup: TableSetup, now_ns: int) -> None:
        if not isinstance(setup, TableSetup):
            raise TableError(f"setup must be a TableSetup, not {setup!r}")
        _check_int(now_ns, "now_ns")
        _check_int(setup.unpressed_alert_ms, "setup.unpressed_alert_ms")
        self._setup = setup
        # both kept sealed in a snapshot until read (wuzi.base.sealed): a restart reads
        # neither, unless a referee command is refused (then the inputs are replayed)
        started = SessionStarted(now_ns=now_ns, setup=setup)
        self._inputs: SealedList[TableInput] = SealedList([started])
        self._history: SealedList[TableOutput] = SealedList()
        self._taken = 0  # outputs already handed out by take_outputs
        self._game_number = 0
        self._begin_game(now_ns)
        self._history.extend(self._out)

    def _begin_game(self, now_ns: int) -> None:
        game = _new_game(self._setup, 0)
        clock = _new_clock(self._setup)
        seat = game.to_move
        clock.start(now_ns, seat=Seat.FIRST if seat is None else seat)
        self._game, self._clock = game, clock
        self._start_ns = now_ns
        self._last_ns = now_ns
        self._game_number += 1
        self._seen_events = len(game.events)
        self._pending: tuple[Point, Colour, int] | None = None  # stone awaiting its press
        self._unpressed_told = False
        self._acted: Seat | None = None  # an opening action (offer, decision) awaiting its press
        self._strays: set[Point] = set()  # stones on the board the game did not accept
        self._unremoved_offers: set[Point] = set()
        self._taken_back: set[Point] = set()  # stones the referee took back, still on the wood
        self._host_paused = False  # the game awaits the referee because the host held it
        self._flags_told = 0
        self._status = game.status
        self._clock_events = len(clock.events)
        self._out: list[TableOutput] = []
        if self._game_number > 1:
            self._out.append(NextGameStarted(now_ns, self._game_number))
        self._out.append(StatusChanged(now_ns, game.status.value))
        self._out.append(ClockChanged(now_ns, clock.at(now_ns).running, self._reading(now_ns)))

    # --- what the shell reads ---------------------------------------------------------

    @property
    def setup(self) -> TableSetup:
        return self._setup

    @property
    def game(self) -> Game:
        """The game (its ``referee_*`` views are for the referee only)."""
        return self._game

    @property
    def clock(self) -> Clock:
        return self._clock

    @property
    def game_number(self) -> int:
        return self._game_number

    @property
    def inputs(self) -> tuple[TableInput, ...]:
        """Every accepted input, ``SessionStarted`` first: what the journal stores."""
        return tuple(self._inputs)

    @property
    def outputs(self) -> tuple[TableOutput, ...]:
        """Every output so far, in order (``take_outputs`` hands out the new ones)."""
        return tuple(self._history)

    @property
    def expected_colour(self) -> Colour | None:
        """The colour of the next stone, for ``Reconciler.expect`` (None: no stone now)."""
        return None if self._pending is not None else self._game.colour_to_move

    @property
    def pending_stone(self) -> Point | None:
        """A settled stone of the side to move still waiting for its press."""
        return None if self._pending is None else self._pending[0]

    @property
    def unremoved_offers(self) -> frozenset[Point]:
        return frozenset(self._unremoved_offers)

    @property
    def adjourned(self) -> bool:
        """The referee adjourned the game and has not resumed it yet."""
        return not self._game.is_over and ADJOURN_HOLD in self._clock.state.hold_names

    def due(self, now_ns: int) -> bool:
        """Whether a ``Tick`` at ``now_ns`` would produce an output (a settled stone
        overdue for its press not yet told, a flag fallen and not yet told). The shell
        journals only the ticks that matter, so the journal does not fill with ticks and
        replay stays exact. ``now_ns`` earlier than the last input's is a ``TableError``."""
        now = _check_int(now_ns, "now_ns")
        if now < self._last_ns:
            raise TableError(f"now_ns {now} is earlier than the previous input's {self._last_ns}")
        waited_ms, flags = self._overdue(now)
        return waited_ms is not None or bool(flags)

    _due_known: tuple[int | None] | None = None
    """``next_due_ns`` as computed since the last input (None: not yet): a host asks it of
    every table at every turn of its loop, and only an input changes it."""

    def next_due_ns(self) -> int | None:
        """The earliest instant from which ``due`` is true if no other input comes (None:
        nothing is scheduled; it may lie in the past: due already). What the shell sets
        its timer to; any input may change it."""
        known = self._due_known
        if known is None:
            known = self._due_known = (self._next_due_ns(),)
        return known[0]

    def _next_due_ns(self) -> int | None:
        candidates: list[int] = []
        pending = self._pending
        if pending is not None and not self._unpressed_told:
            candidates.append(pending[2] + self._setup.unpressed_alert_ms * NS_PER_MS)
        clock = self._clock
        state = clock.at(self._last_ns)  # a Tick may have told a flag no event recorded
        untold = state.flags[self._flags_told :]
        seat = state.running
        if untold:
            candidates.append(untold[0].t_ns)
        elif seat is not None and state.t_ns is not None:
            side = state.side(seat)
            if side.flagged_ns is None:
                candidates.append(state.t_ns + time_to_flag_ns(side, clock.control, in_turn=True))
        return min(candidates, default=None)

    def take_outputs(self) -> list[TableOutput]:
        """The outputs since the last call, in order."""
        new = self._history.since(self._taken)
        self._taken = len(self._history)
        return new

    def player_outputs(self) -> list[PlayerOutput]:
        """Every player-safe output so far (what the players' displays were sent)."""
        return [o for o in self._history if isinstance(o, PlayerOutput)]

    # --- the one way in -----------------------------------------------------------------

    def handle(self, event: TableInput) -> list[TableOutput]:
        """Apply one input; returns the outputs it caused (also in ``take_outputs``).
        A malformed or refused input raises ``TableError`` and changes nothing."""
        if not isinstance(event, TableInput) or isinstance(event, SessionStarted):
            raise TableError(f"not a table input: {event!r}")
        now = _check_int(event.now_ns, "now_ns")
        if now < self._last_ns:
            raise TableError(f"now_ns {now} is earlier than the previous input's {self._last_ns}")
        self._out = []
        handler = getattr(self, "_on_" + type(event).__name__, None)
        if handler is None:
            raise TableError(f"unknown table input {type(event).__name__}")
        self._due_known = None
        if isinstance(event, PLAYER_ACTIONS) and self._stopped_by_flag(now):
            self._refuse_after_flag(event)  # wuzi.table.flag_rule: nothing counts now
        else:
            handler(event)
        self._note_flags(now)  # a flag fallen by now is on record and told, whatever came
        self._last_ns = now
        self._inputs.append(event)
        self._sync(now)
        out = self._out
        self._history.extend(out)
        return out

    @classmethod
    def replay(cls, inputs: Iterable[TableInput]) -> TableSession:
        """The session these inputs (``inputs`` of a session, from the journal) make."""
        given = list(inputs)
        if not given or not isinstance(given[0], SessionStarted):
            raise TableError("input 0: a table journal starts with SessionStarted")
        session = cls(given[0].setup, given[0].now_ns)
        for index, event in enumerate(given[1:], start=1):
            try:
                session.handle(event)
            except TableError as exc:
                raise TableError(f"input {index}: {exc}") from None
        return session

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TableSession):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def _key(self) -> tuple[object, ...]:
        return (
            self._inputs,
            self._history,
            self._game.events,
            self._clock,
            self._pending,
            self._acted,
            self._strays,
            self._unremoved_offers,
            self._taken_back,
            self._host_paused,
            self._game_number,
        )

    # --- helpers for the shell and tests ----------------------------------------------

    def stone(self, now_ns: int, point: Point, colour: Colour) -> list[TableOutput]:
        return self.handle(StoneSettled(now_ns=now_ns, point=point, colour=colour))

    def press(self, now_ns: int, seat: Seat) -> list[TableOutput]:
        return self.handle(ClockPressed(now_ns=now_ns, seat=seat))

    def decide(self, now_ns: int, seat: Seat, choice: str) -> list[TableOutput]:
        return self.handle(Decide(now_ns=now_ns, seat=seat, choice=choice))

    def declare(self, now_ns: int, seat: Seat, number: int) -> list[TableOutput]:
        return self.handle(Declare(now_ns=now_ns, seat=seat, number=number))

    def choose(self, now_ns: int, seat: Seat, point: Point) -> list[TableOutput]:
        return self.handle(Choose(now_ns=now_ns, seat=seat, point=point))

    def claim(
        self, now_ns: int, seat: Seat, kind: str = "forbidden", point: Point | None = None
    ) -> list[TableOutput]:
        return self.handle(Claim(now_ns=now_ns, seat=seat, kind=kind, point=point))

    # --- internals: time, readings, alerts --------------------------------------------

    def _t_ms(self, now_ns: int) -> int:
        return (now_ns - self._start_ns) // NS_PER_MS

    def _reading(self, now_ns: int) -> ClockReading:
        clock = self._clock
        return ClockReading(
            first_ms=clock.remaining_ns(Seat.FIRST, now_ns) // NS_PER_MS,
            second_ms=clock.remaining_ns(Seat.SECOND, now_ns) // NS_PER_MS,
        )

    def _reading_after_press(self, seat: Seat, now_ns: int) -> ClockReading | None:
        """Both clocks right after ``seat``'s press at ``now_ns`` (None: the clock would
        not take it) — computed on the pure state, before the game is told, so the record
        holds the mover's clock after the press."""
        clock = self._clock
        state, result = apply_event(
            clock.control, clock.on_flag, clock.state, Pressed(t_ns=now_ns, by=seat, moves=1)
        )
        if result is None or not result.accepted:
            return None
        first, second = (
            time_to_flag_ns(state.side(s), clock.control, in_turn=state.turn is s) // NS_PER_MS
            for s in (Seat.FIRST, Seat.SECOND)
        )
        return ClockReading(first_ms=first, second_ms=second)

    def _alert(
        self,
        now_ns: int,
        reason: AlertReason,
        text: str,
        points: tuple[Point, ...] = (),
        seat: Seat | None = None,
        infractions: int | None = None,
    ) -> None:
        self._out.append(RefereeAlert(now_ns, reason, text, points, seat, infractions))

    def _sync(self, now_ns: int) -> None:
        """Turn what the game and the clock did into outputs; keep them in step (a game
        over ends the clock, a paused game holds it)."""
        game, clock = self._game, self._clock
        events = game.events
        for event in events[self._seen_events :]:
            if isinstance(event, AlertRaised):
                alert = event.alert
                points = () if alert.point is None else (alert.point,)
                self._alert(now_ns, _GAME_ALERTS[alert.kind], alert.text, points + alert.row)
            elif isinstance(event, ClaimJudged):
                verdict = event.verdict
                self._alert(
                    now_ns,
                    AlertReason.CLAIM_JUDGED,
                    f"{verdict.verdict.value}: {verdict.detail}",
                    () if verdict.point is None else (verdict.point,),
                    event.seat,
                )
            elif isinstance(event, GameEnded):
                result = event.result
                self._out.append(
                    GameOver(now_ns, result.winner, result.reason.value, result.detail)
                )
        self._seen_events = len(events)
        state = clock.state
        if game.is_over and not state.ended:
            clock.end(now_ns, reason="game over")
        elif game.status is Status.AWAITING_REFEREE and REFEREE_HOLD not in state.hold_names:
            clock.pause(now_ns, hold=REFEREE_HOLD, reason="the game awaits the referee")
        if game.status is not self._status:
            self._status = game.status
            self._out.append(StatusChanged(now_ns, game.status.value))
        if len(clock.events) != self._clock_events:
            self._clock_events = len(clock.events)
            self._out.append(ClockChanged(now_ns, clock.at(now_ns).running, self._reading(now_ns)))

    # --- stones ----------------------------------------------------------------------

    def _on_StoneSettled(self, event: StoneSettled) -> None:
        p = _check_point(event.point)
        colour = _check_colour(event.colour)
        now, game, name = event.now_ns, self._game, point_name(p)
        step = game.step
        expected = game.colour_to_move
        if self._pending is not None:
            waiting = point_name(self._pending[0])
            self._strays.add(p)
            self._alert(
                now,
                AlertReason.TWO_STONES,
                f"a second stone on {name} while {waiting} waits for its clock press",
                (self._pending[0], p),
            )
            return
        held_by_host = (
            game.status is Status.AWAITING_REFEREE
            and self._host_paused
            and expected is not None
            and (step is None or step.action is not Action.OFFER)
        )
        if (
            not held_by_host
            and game.status is not Status.OPENING
            and game.status is not Status.PLAYING
        ):
            self._strays.add(p)
            self._alert(
                now,
                AlertReason.NOT_ALLOWED,
                f"a {colour.label} stone on {name} while the game is {game.status.value}",
                (p,),
            )
            return
        if expected is None:
            self._strays.add(p)
            what = step.description if step is not None else "no stone now"
            self._alert(now, AlertReason.NOT_ALLOWED, f"no stone expected on {name}: {what}", (p,))
            return
        if colour is not expected:
            self._strays.add(p)
            self._alert(
                now,
                AlertReason.WRONG_COLOUR,
                f"a {colour.label} stone on {name}; {expected.label} is to move",
                (p,),
            )
            return
        if step is not None and step.allowed is not None and p not in step.allowed:
            self._strays.add(p)
            self._alert(
                now, AlertReason.NOT_ALLOWED, f"{name} is not allowed: {step.description}", (p,)
            )
            return
        if step is not None and step.action is Action.OFFER:
            try:
                game.place(p, seat=step.seat, t_ms=self._t_ms(now), clocks=self._reading(now))
            except RulesError as exc:
                self._strays.add(p)
                self._alert(now, AlertReason.NOT_ALLOWED, f"offer on {name} refused: {exc}", (p,))
                return
            self._acted = step.seat
            self._out.append(OfferPlaced(now, p))
            return
        if self._unremoved_offers:
            left = ", ".join(point_name(q) for q in sorted(self._unremoved_offers))
            self._alert(
                now,
                AlertReason.OFFER_NOT_REMOVED,
                f"a stone on {name} while the offers not kept ({left}) are still on the board",
                tuple(sorted(self._unremoved_offers)),
            )
        if held_by_host:
            # The host held the clock for its equipment (a board or clock unit lost): a
            # stone that reaches it now was most likely put down before or during the
            # outage, when the player could not be seen. It is not lost and not accepted
            # silently: the referee is told, and it waits for its press after the resume
            # like any stone (the referee has it lifted if it should not be there).
            self._alert(
                now,
                AlertReason.BOARD,
                f"a {colour.label} stone on {name} while the clock was held for the "
                "equipment: it waits for its clock press after the resume",
                (p,),
            )
        self._pending = (p, colour, now)
        self._unpressed_told = False

    def _on_BoardAlert(self, event: BoardAlert) -> None:
        """A board alert in the table's words (``wuzi.table.alerts``): a stone removed or
        moved may be one the session expected to go or to move; wrong or extra stones are
        set aside as strays; anything else is told as the board said it."""
        reason = board_alert_reason(event.kind)
        points = tuple(_check_point(p, "a board alert's point") for p in event.points)
        now = event.now_ns
        names = ", ".join(point_name(p) for p in points)
        if reason is AlertReason.REMOVED:
            for p in points:
                self._stone_removed(now, p)
        elif reason is AlertReason.MOVED and len(points) == 2:
            frm, to = points
            if frm in self._strays:
                self._strays.discard(frm)
                self._strays.add(to)
                return
            if self._pending is not None and self._pending[0] == frm:
                self._pending = (to, self._pending[1], self._pending[2])
            self._alert(
                now,
                AlertReason.MOVED,
                f"the stone on {point_name(frm)} was moved to {point_name(to)}",
                points,
            )
        elif reason is AlertReason.WRONG_COLOUR:
            self._strays.update(points)
            self._alert(now, AlertReason.WRONG_COLOUR, f"a stone of the wrong colour on {names}")
        elif reason is AlertReason.TWO_STONES:
            self._strays.update(points)
            self._alert(now, AlertReason.TWO_STONES, f"several new stones at once: {names}", points)
        else:
            detail = f": {event.detail}" if event.detail else ""
            text = f"board {event.kind} {names}{detail}".strip()
            self._alert(now, AlertReason.BOARD, text, points)

    def _stone_removed(self, now: int, p: Point) -> None:
        for expected_gone in (self._strays, self._unremoved_offers, self._taken_back):
            if p in expected_gone:
                expected_gone.discard(p)
                return
        if self._pending is not None and self._pending[0] == p:
            self._pending = None
            self._alert(
                now,
                AlertReason.REMOVED,
                f"the stone on {point_name(p)} was lifted before the clock press",
                (p,),
            )
            return
        self._alert(
            now, AlertReason.REMOVED, f"a standing stone was removed from {point_name(p)}", (p,)
        )

    # --- the clock --------------------------------------------------------------------

    def _on_ClockPressed(self, event: ClockPressed) -> None:
        seat = _check_seat(event.seat)
        now, game, clock = event.now_ns, self._game, self._clock
        pending = self._pending
        if pending is not None and seat is game.to_move:
            reading = self._reading_after_press(seat, now)
            if reading is None:
                result = clock.press(now, by=seat, moves=0)
                self._alert(
                    now,
                    AlertReason.REFUSED,
                    f"press not taken by the clock ({result.reason}); the stone on "
                    f"{point_name(pending[0])} still waits",
                    (pending[0],),
                    seat,
                )
                return
            point = pending[0]
            try:
                move = game.place(point, seat=seat, t_ms=self._t_ms(now), clocks=reading)
            except RulesError as exc:
                self._pending = None
                self._strays.add(point)
                self._alert(now, AlertReason.NOT_ALLOWED, f"the game refused it: {exc}", (point,))
                return
            self._pending = None
            self._acted = None  # this press also closes an action made before the stone
            table_press(clock, now, game, acted=True, by=seat)
            if move is not None:
                self._out.append(
                    MoveJudged(now, move.number, move.point, move.colour, move.seat, reading)
                )
            return
        if self._acted is seat:
            result = table_press(clock, now, game, acted=True, by=seat)
            if result.accepted:
                self._acted = None
                return
            # a held clock (a pause, an adjournment, a restart) refuses the press: the
            # action still waits for it, so the press after the resume closes it
            self._alert(
                now,
                AlertReason.REFUSED,
                f"press not taken by the clock ({result.reason}); the {seat.value} seat's "
                "opening action still waits for its press",
                seat=seat,
            )
            return
        result = table_press(clock, now, game, acted=False, by=seat)
        if not result.accepted or game.is_over:
            return
        game.record_infraction(seat, NO_NEW_ACTION, t_ms=self._t_ms(now), clocks=self._reading(now))
        count = game.infractions(seat)
        self._alert(
            now,
            AlertReason.PRESS_WITHOUT_STONE,
            f"the {seat.value} seat pressed the clock without a new stone (infraction {count})",
            seat=seat,
            infractions=count,
        )
        if count >= 2:
            self._alert(
                now,
                AlertReason.LOSS_PENDING,
                f"second infraction of the {seat.value} seat in this game: "
                "loss pending referee confirmation",
                seat=seat,
                infractions=count,
            )

    def _overdue(self, now: int) -> tuple[int | None, tuple[Flag, ...]]:
        """What a Tick at ``now`` reports: how long the pending stone has waited for its
        press (None: not overdue, or already told) and the flags not told yet."""
        pending = self._pending
        waited_ms: int | None = None
        if pending is not None and not self._unpressed_told:
            waited_ms = (now - pending[2]) // NS_PER_MS
            if waited_ms < self._setup.unpressed_alert_ms:
                waited_ms = None
        return waited_ms, self._clock.flags(now)[self._flags_told :]

    def _on_Tick(self, event: Tick) -> None:
        now = event.now_ns
        waited_ms, _ = self._overdue(now)
        if waited_ms is not None and self._pending is not None:
            point = self._pending[0]
            self._unpressed_told = True
            self._alert(
                now,
                AlertReason.UNPRESSED,
                f"the stone on {point_name(point)} has waited {waited_ms} ms for its "
                "clock press: the mover's time keeps running",
                (point,),
                self._game.to_move,
            )
        # a flag is noted and told by handle (wuzi.table.flag_rule), for a Tick as for
        # any input

    # --- claims (opening actions: wuzi.table.opening_actions) ----------------------

    def _on_Claim(self, event: Claim) -> None:
        seat = _check_seat(event.seat)
        if event.kind not in _CLAIM_KINDS:
            raise TableError(f"a claim is 'forbidden' or 'five', not {event.kind!r}")
        point = None if event.point is None else _check_point(event.point)
        now, game = event.now_ns, self._game
        t_ms, reading = self._t_ms(now), self._reading(now)
        try:
            if event.kind == "forbidden":
                verdict = game.claim_forbidden(point, seat=seat, t_ms=t_ms, clocks=reading)
            else:
                verdict = game.announce_five(seat, t_ms=t_ms, clocks=reading)
        except RulesError as exc:
            self._refused(now, seat, f"{event.kind} claim", exc)
            return
        if verdict.verdict is Verdict.CORRECT:
            self._pending = None
