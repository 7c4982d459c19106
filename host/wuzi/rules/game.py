"""A game in progress: turns, the opening, passes, claims, the referee's actions, the result.

``Game`` is the pure core a table host drives: it is told what happened (a stone on a
point, a pass, a claim, a decision, a referee's ruling), each with the caller's time stamp
``t_ms`` (milliseconds since the game started) and optional clock readings, and it keeps
an ordered event list from which ``Game.replay`` rebuilds an identical game. It never does
I/O and never reads the time.

While the opening procedure has a current step, stones, choices, decisions and numbers
go to the procedure, which also says which seat holds which colour (a swap changes it);
after that the colours alternate, one stone or a pass at a time.

In claim mode (the default) a forbidden move or a five is seen at once but only the
referee is told (``referee_alerts``); the game goes on until a player claims or announces
(``claim_forbidden``, ``announce_five``). Nothing a player-facing property returns
(``board``, ``moves``, ``to_move``, ``step``, ``status``, ``result``) reveals it. See
docs/game.md for the rules this follows.

The game is built in layers, one module each: ``wuzi.rules.game_state`` (the state and
how a stone changes it), ``wuzi.rules.game_referee`` (the referee's view and actions),
this module (the players' and the host's actions, the record, replay);
``wuzi.rules.events`` holds the events and their dict form, ``wuzi.rules.game_record``
builds the record. Every public name of those is importable from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from wuzi.rules.board import Colour, Point, point_name
from wuzi.rules.claims import AlertKind, ClaimKind, ClaimVerdict, RefereeAlert, Verdict
from wuzi.rules.errors import IllegalMoveError, OccupiedPointError, RecordFormatError, RulesError
from wuzi.rules.events import (
    EVENT_TYPES,
    AlertRaised,
    ClaimJudged,
    Decided,
    Declared,
    DrawAgreed,
    FiveAnnounced,
    FlagFell,
    ForbiddenClaimed,
    Forfeited,
    GameEnded,
    GameEvent,
    GameStarted,
    InfractionRecorded,
    OfferChosen,
    Passed,
    RefereeCorrected,
    RefereeDecided,
    RefereePaused,
    RefereeRemovedStone,
    RefereeReplacedStone,
    RefereeResumed,
    Resigned,
    Result,
    ResultReason,
    StonePlaced,
    event_from_dict,
    event_to_dict,
    events_from_dicts,
)
from wuzi.rules.game_record import build_record
from wuzi.rules.game_referee import RefereeActions
from wuzi.rules.game_state import Move, Status, as_point, check_seat, check_text
from wuzi.rules.procedure import Action, FreeOpening, OpeningProcedure, Seat
from wuzi.rules.record import ClockReading, GameRecord, RecordedMove

__all__ = [
    "EVENT_TYPES",
    "AlertRaised",
    "ClaimJudged",
    "Decided",
    "Declared",
    "DrawAgreed",
    "FiveAnnounced",
    "FlagFell",
    "ForbiddenClaimed",
    "Forfeited",
    "Game",
    "GameEnded",
    "GameEvent",
    "GameStarted",
    "InfractionRecorded",
    "Move",
    "OfferChosen",
    "Passed",
    "RefereeCorrected",
    "RefereeDecided",
    "RefereePaused",
    "RefereeRemovedStone",
    "RefereeReplacedStone",
    "RefereeResumed",
    "Resigned",
    "Result",
    "ResultReason",
    "Status",
    "StonePlaced",
    "event_from_dict",
    "event_to_dict",
    "events_from_dicts",
]


def _fresh_procedure(start: GameStarted) -> OpeningProcedure:
    if start.opening == FreeOpening.name:
        return FreeOpening()
    from wuzi.rules.openings import make_procedure

    try:
        return make_procedure(start.opening, **dict(start.opening_settings))
    except RulesError as exc:
        raise RecordFormatError(
            f"event 0: cannot rebuild the {start.opening!r} opening ({exc}); "
            "pass a fresh procedure as opening="
        ) from None


class Game(RefereeActions):
    """One game: construct it with the rule set, the mode and a fresh opening procedure.

    Every action takes the keyword arguments ``t_ms`` (ms since the game started, never
    earlier than the previous action's) and ``clocks`` (both readings); both go into the
    events and the record. Every error leaves the game exactly as it was. The state and
    the views are ``GameState``'s, the referee's actions ``RefereeActions``'.
    """

    # --- moves and the opening --------------------------------------------------------

    def place(
        self,
        p: Point | str,
        *,
        seat: Seat | None = None,
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> Move | None:
        """A stone on ``p`` by the side to move (``seat`` checks who placed it). Returns the
        move, or None for an opening offer that does not stand yet."""
        self._check_time(t_ms, clocks)
        self._check_playable("place a stone")
        point = as_point(p)
        step = self._opening_step()
        if step is not None:
            actor = self._check_actor(seat, step.seat)
            self._opening.place(point)
            self._emit(
                StonePlaced(
                    seat=actor,
                    point=point,
                    colour=step.colour,
                    offer=step.action is Action.OFFER,
                    t_ms=t_ms,
                    clocks=clocks,
                )
            )
            self._after_opening_action(actor, t_ms, clocks)
            return self._moves[-1] if self._moves and self._moves[-1].point == point else None
        colour = self._next
        actor = self._check_actor(seat, self.seat_of(colour))
        if self._board.cells[point]:
            raise OccupiedPointError(
                f"{point_name(point)} is already occupied: {colour.label} must play an empty point"
            )
        self._emit(StonePlaced(seat=actor, point=point, colour=colour, t_ms=t_ms, clocks=clocks))
        move = Move(len(self._moves) + 1, point, colour, actor, t_ms, clocks)
        self._play_stone(move, t_ms, clocks)
        return move

    def choose(
        self,
        p: Point | str,
        *,
        seat: Seat | None = None,
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> None:
        """The offer kept at an opening's choose-offer step."""
        self._check_time(t_ms, clocks)
        self._check_playable("choose an offer")
        point = as_point(p)
        step = self._opening_step_for("choose an offer")
        actor = self._check_actor(seat, step.seat)
        self._opening.choose(point)
        self._emit(OfferChosen(seat=actor, point=point, t_ms=t_ms, clocks=clocks))
        self._after_opening_action(actor, t_ms, clocks)

    def decide(
        self,
        choice: str,
        *,
        seat: Seat | None = None,
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> None:
        """A decision at an opening's decide step (e.g. ``swap`` or ``stay``)."""
        self._check_time(t_ms, clocks)
        self._check_playable("decide")
        if not isinstance(choice, str):
            raise IllegalMoveError(f"a decision is one of the step's choices, not {choice!r}")
        step = self._opening_step_for("decide")
        actor = self._check_actor(seat, step.seat)
        self._opening.decide(choice)
        self._emit(Decided(seat=actor, choice=choice, t_ms=t_ms, clocks=clocks))
        self._after_opening_action(actor, t_ms, clocks)

    def declare(
        self,
        n: int,
        *,
        seat: Seat | None = None,
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> None:
        """A number declared at an opening's declare step (e.g. N of the 5th-move offers)."""
        self._check_time(t_ms, clocks)
        self._check_playable("declare a number")
        if isinstance(n, bool) or not isinstance(n, int):
            raise IllegalMoveError(f"a declared number must be an integer, not {n!r}")
        step = self._opening_step_for("declare a number")
        actor = self._check_actor(seat, step.seat)
        self._opening.declare(n)
        self._emit(Declared(seat=actor, number=n, t_ms=t_ms, clocks=clocks))
        self._after_opening_action(actor, t_ms, clocks)

    def pass_turn(
        self,
        *,
        seat: Seat | None = None,
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> None:
        """The side to move passes (not during the opening); two passes in a row draw."""
        self._check_time(t_ms, clocks)
        self._check_playable("pass")
        if self._opening_step() is not None:
            raise IllegalMoveError("no pass during the opening: " + self._step_text())
        colour = self._next
        actor = self._check_actor(seat, self.seat_of(colour))
        self._emit(Passed(seat=actor, colour=colour, t_ms=t_ms, clocks=clocks))
        self._sequence.append(RecordedMove(None, colour, actor, t_ms, clocks))
        if colour is Colour.WHITE:
            self._book.note_white_move()
        self._next = colour.other
        self._passes += 1
        if self._passes >= 2:
            self._end(
                Result(
                    winner=None,
                    winner_colour=None,
                    reason=ResultReason.TWO_PASSES,
                    detail="draw: two passes in a row",
                ),
                t_ms,
                clocks,
            )
            return
        self._check_full_board(t_ms, clocks)

    # --- claims -------------------------------------------------------------------------

    def claim_forbidden(
        self,
        p: Point | str | None = None,
        *,
        seat: Seat | None = None,
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> ClaimVerdict:
        """White claims that Black's stone on ``p`` (default: Black's last stone) was a
        forbidden move. Correct → White wins; false or too late → the game waits for the
        referee."""
        self._check_time(t_ms, clocks)
        self._check_playable("claim a forbidden move")
        if not self._ruleset.forbidden:
            raise IllegalMoveError(f"rule set {self._ruleset} has no forbidden moves to claim")
        white = self.seat_of(Colour.WHITE)
        if seat is not None:
            check_seat(seat)
            if seat is not white:
                raise IllegalMoveError(
                    f"only White can claim a forbidden move; the {seat.value} seat holds Black"
                )
        if p is None:
            blacks = [m for m in self._moves if m.colour is Colour.BLACK]
            if not blacks:
                raise IllegalMoveError("no Black stone on the board to claim against")
            point = blacks[-1].point
        else:
            point = as_point(p)
            if self._board.cells[point] != Colour.BLACK:
                raise IllegalMoveError(
                    f"a forbidden-move claim names a Black stone; {point_name(point)} holds none"
                )
        verdict = self._book.judge_forbidden(point)
        self._emit(ForbiddenClaimed(seat=white, point=point, t_ms=t_ms, clocks=clocks))
        self._judged(white, verdict, t_ms, clocks)
        return verdict

    def announce_five(
        self, seat: Seat, *, t_ms: int | None = None, clocks: ClockReading | None = None
    ) -> ClaimVerdict:
        """``seat`` announces a five of its colour. A five on the board → that seat wins;
        none → a false claim: the game waits for the referee."""
        self._check_time(t_ms, clocks)
        self._check_playable("announce a five")
        check_seat(seat)
        verdict = self._book.judge_five(self.colour_of(seat))
        self._emit(FiveAnnounced(seat=seat, t_ms=t_ms, clocks=clocks))
        self._judged(seat, verdict, t_ms, clocks)
        return verdict

    # --- endings the players or the host report -------------------------------------

    def resign(
        self, seat: Seat, *, t_ms: int | None = None, clocks: ClockReading | None = None
    ) -> None:
        self._check_time(t_ms, clocks)
        self._check_open()
        check_seat(seat)
        self._emit(Resigned(seat=seat, t_ms=t_ms, clocks=clocks))
        self._win(seat.other, ResultReason.RESIGNATION, f"{self._who(seat)} resigned", t_ms, clocks)

    def agree_draw(self, *, t_ms: int | None = None, clocks: ClockReading | None = None) -> None:
        self._check_time(t_ms, clocks)
        self._check_open()
        self._emit(DrawAgreed(t_ms=t_ms, clocks=clocks))
        self._draw(ResultReason.AGREEMENT, "draw by agreement", t_ms, clocks)

    def flag(
        self, seat: Seat, *, t_ms: int | None = None, clocks: ClockReading | None = None
    ) -> None:
        """``seat``'s flag fell: it loses on time."""
        self._check_time(t_ms, clocks)
        self._check_open()
        check_seat(seat)
        self._emit(FlagFell(seat=seat, t_ms=t_ms, clocks=clocks))
        self._win(seat.other, ResultReason.FLAG, f"{self._who(seat)} lost on time", t_ms, clocks)

    def forfeit(
        self,
        seat: Seat,
        reason: str,
        *,
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> None:
        """``seat`` forfeits (absent, left the hall, stopped the clock …)."""
        self._check_time(t_ms, clocks)
        self._check_open()
        check_seat(seat)
        why = check_text(reason, "a forfeit's reason")
        self._emit(Forfeited(seat=seat, reason=why, t_ms=t_ms, clocks=clocks))
        self._win(
            seat.other, ResultReason.FORFEIT, f"{self._who(seat)} forfeited: {why}", t_ms, clocks
        )

    def record_infraction(
        self,
        seat: Seat,
        description: str,
        *,
        loses: bool = False,
        t_ms: int | None = None,
        clocks: ClockReading | None = None,
    ) -> None:
        """An infraction by ``seat`` (e.g. the clock pressed without a move). The host and
        the referee decide what it costs; ``loses=True`` ends the game against ``seat``."""
        self._check_time(t_ms, clocks)
        self._check_open()
        check_seat(seat)
        what = check_text(description, "an infraction's description")
        if not isinstance(loses, bool):
            raise RulesError(f"loses must be True or False, not {loses!r}")
        self._emit(
            InfractionRecorded(seat=seat, description=what, loses=loses, t_ms=t_ms, clocks=clocks)
        )
        self._infractions[seat] += 1
        if loses:
            detail = f"{self._who(seat)} lost by infraction no. {self._infractions[seat]}: {what}"
            self._win(seat.other, ResultReason.INFRACTION, detail, t_ms, clocks)

    # --- the record ----------------------------------------------------------------------

    def record(self, **metadata: Any) -> GameRecord:
        """The game's record so far. ``metadata`` fills the event's fields of
        ``GameRecord`` (``event``, ``round``, ``match``, ``board``, ``table``,
        ``game_number``, ``first``, ``second``, ``time_control``, ``start_time``, ``tags``;
        another name is a RulesError)."""
        return build_record(
            events=self._events,
            moves=self._sequence,
            opening=self._opening,
            ruleset=self._ruleset,
            mode=self._mode,
            black_seat=self.seat_of(Colour.BLACK),
            claim_proofs=self._claim_proofs,
            metadata=metadata,
        )

    # --- replay -----------------------------------------------------------------------

    @classmethod
    def replay(
        cls, events: Iterable[GameEvent], *, opening: OpeningProcedure | None = None
    ) -> Game:
        """Rebuild a game from its events. ``opening`` is a fresh procedure of the same kind
        and settings; without it the procedure is rebuilt from the ``started`` event's name
        and settings. The regenerated events must equal the given ones, otherwise
        RecordFormatError names the first that differs."""
        given = list(events)
        if not given or not isinstance(given[0], GameStarted):
            raise RecordFormatError("event 0: a game's events start with 'started'")
        start = given[0]
        procedure = _fresh_procedure(start) if opening is None else opening
        if procedure.name != start.opening:
            raise RecordFormatError(
                f"event 0: the game used the {start.opening!r} opening; "
                f"a fresh {procedure.name!r} procedure was given"
            )
        try:
            game = cls(start.ruleset, mode=start.mode, opening=procedure, t_ms=start.t_ms)
        except RulesError as exc:
            raise RecordFormatError(f"event 0: {exc}") from None
        for index, event in enumerate(given[1:], start=1):
            if not isinstance(event, GameEvent):
                raise RecordFormatError(f"event {index}: {event!r} is not a game event")
            if event.derived:
                continue
            try:
                _apply(game, event)
            except RulesError as exc:
                raise RecordFormatError(f"event {index} ({event.kind}): {exc}") from None
        replayed = game._events
        for index, (mine, theirs) in enumerate(zip(replayed, given, strict=False)):
            if mine != theirs:
                raise RecordFormatError(
                    f"event {index}: replay gives {mine!r} but the list holds {theirs!r}"
                )
        if len(replayed) != len(given):
            index = min(len(replayed), len(given))
            extra = replayed[index] if len(replayed) > len(given) else given[index]
            raise RecordFormatError(f"event {index}: only one side holds {extra!r}")
        return game

    # --- internals ----------------------------------------------------------------------

    def _judged(
        self, seat: Seat, verdict: ClaimVerdict, t_ms: int | None, clocks: ClockReading | None
    ) -> None:
        self._emit(ClaimJudged(seat=seat, verdict=verdict, t_ms=t_ms, clocks=clocks))
        self._claim_proofs.append(self._proof(verdict))
        if verdict.verdict is Verdict.CORRECT:
            if verdict.claim is ClaimKind.FIVE:
                self._win(seat, ResultReason.FIVE, verdict.detail, t_ms, clocks, row=verdict.row)
            else:
                self._win(
                    seat,
                    ResultReason.FORBIDDEN,
                    f"{verdict.detail} (claimed by White)",
                    t_ms,
                    clocks,
                    forbidden=verdict.forbidden,
                )
            return
        what = "five announcement" if verdict.claim is ClaimKind.FIVE else "forbidden-move claim"
        self._alert(
            RefereeAlert(
                AlertKind.CLAIM,
                f"{verdict.verdict.value} {what} by {self._who(seat)}: {verdict.detail}; "
                "the game waits for the referee",
                point=verdict.point,
                colour=self.colour_of(seat),
                forbidden=verdict.forbidden,
            ),
            t_ms,
            clocks,
        )
        self._paused = True

    def _proof(self, verdict: ClaimVerdict) -> str:
        """What the record keeps as a claim's proof: the verdict, and for a forbidden
        move the explanation the referee was shown (the lines of its threes or fours)."""
        move = None if verdict.point is None else self._book.forbidden_moves.get(verdict.point)
        if verdict.claim is ClaimKind.FORBIDDEN and move is not None:
            return f"{verdict.detail}\n{move.explanation}"
        return verdict.detail


def _apply(game: Game, event: GameEvent) -> None:
    """Feed one input event back into ``game`` (for ``Game.replay``)."""
    t_ms, clocks = event.t_ms, event.clocks
    if isinstance(event, StonePlaced):
        game.place(event.point, seat=event.seat, t_ms=t_ms, clocks=clocks)
    elif isinstance(event, OfferChosen):
        game.choose(event.point, seat=event.seat, t_ms=t_ms, clocks=clocks)
    elif isinstance(event, Decided):
        game.decide(event.choice, seat=event.seat, t_ms=t_ms, clocks=clocks)
    elif isinstance(event, Declared):
        game.declare(event.number, seat=event.seat, t_ms=t_ms, clocks=clocks)
    elif isinstance(event, Passed):
        game.pass_turn(seat=event.seat, t_ms=t_ms, clocks=clocks)
    elif isinstance(event, ForbiddenClaimed):
        game.claim_forbidden(event.point, seat=event.seat, t_ms=t_ms, clocks=clocks)
    elif isinstance(event, FiveAnnounced):
        game.announce_five(event.seat, t_ms=t_ms, clocks=clocks)
    elif isinstance(event, Resigned):
        game.resign(event.seat, t_ms=t_ms, clocks=clocks)
    elif isinstance(event, DrawAgreed):
        game.agree_draw(t_ms=t_ms, clocks=clocks)
    elif isinstance(event, FlagFell):
        game.flag(event.seat, t_ms=t_ms, clocks=clocks)
    elif isinstance(event, Forfeited):
        game.forfeit(event.seat, event.reason, t_ms=t_ms, clocks=clocks)
    elif isinstance(event, InfractionRecorded):
        game.record_infraction(
            event.seat, event.description, loses=event.loses, t_ms=t_ms, clocks=clocks
        )
    elif isinstance(event, RefereePaused):
        game.referee_pause(event.reason, referee=event.referee, t_ms=t_ms, clocks=clocks)
    elif isinstance(event, RefereeResumed):
        game.referee_resume(
            penalty=event.penalty,
            note=event.note,
            referee=event.referee,
            t_ms=t_ms,
            clocks=clocks,
        )
    elif isinstance(event, RefereeDecided):
        game.referee_decide(
            event.winner, event.reason, referee=event.referee, t_ms=t_ms, clocks=clocks
        )
    elif isinstance(event, RefereeCorrected):
        game.referee_correct(
            event.winner, event.reason, referee=event.referee, t_ms=t_ms, clocks=clocks
        )
    elif isinstance(event, RefereeRemovedStone):
        game.referee_remove_stone(
            event.point, reason=event.reason, referee=event.referee, t_ms=t_ms, clocks=clocks
        )
    elif isinstance(event, RefereeReplacedStone):
        game.referee_replace_stone(
            event.old,
            event.new,
            reason=event.reason,
            referee=event.referee,
            t_ms=t_ms,
            clocks=clocks,
        )
    else:
        raise RulesError(f"a {event.kind!r} event cannot be replayed")
