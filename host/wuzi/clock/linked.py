"""The time rule of a linked game (docs/linked.md "The time rule"), on top of ``Clock``.

The rule: the mover's clock stops at the stamped press of their own hall; the opponent's
clock starts when the move is shown at the opponent's table, and the time the opponent
takes to place the mirrored stone is not charged, up to a grace the event sets (counted
in time the clock would otherwise run), past which it is. While a move is in transit
(pressed in one hall, not yet shown in the other) neither clock runs; a cut hall line
holds both clocks. Nobody is charged for the network.

``LinkedClockRule`` holds the *facts* (``wuzi.clock.linked_facts``) and derives from them
the events of one ordinary ``Clock``: presses at their own instants, and holds named
``transit``, ``mirroring`` and ``equipment`` (the cut line) put on and released at the
instants the rule gives. So time is counted in one place (``wuzi.clock.machine``): the
increments, the flags, byo-yomi, all as at a single table. The events are a pure function
of the *set* of facts, so facts arriving late and out of order give, once they are all
in, exactly what they give in order; a late fact can only move an instant to where it
belongs, never charge anyone for its lateness.

Where a stamp's ``error_ms`` leaves doubt, the doubt goes to the player the fact concerns:
a press counts at its earliest possible instant, a display and a mirrored stone at their
latest. The opponent pays nothing for it, because their clock is held across the transit.
"""

from __future__ import annotations

import bisect
import enum
from collections.abc import Iterable
from dataclasses import dataclass

from wuzi.clock.clock import Clock
from wuzi.clock.control import MAX_INSTANT_NS, NS_PER_MS, TimeControl, parse_control
from wuzi.clock.events import (
    EQUIPMENT_HOLD,
    FLAG_HOLD,
    ClockEvent,
    Paused,
    Pressed,
    Resumed,
    Started,
)
from wuzi.clock.linked_facts import (
    MAX_GRACE_MS,
    GameStarted,
    LineBack,
    LineCut,
    LinkedFact,
    LinkedTimeError,
    MovePressed,
    MoveShown,
    StoneMirrored,
    check_fact,
)
from wuzi.clock.machine import FlagPolicy
from wuzi.rules.procedure import Seat

__all__ = ["MIRRORING_HOLD", "TRANSIT_HOLD", "HoldReason", "LinkedClockRule", "LinkedTime"]

TRANSIT_HOLD = "transit"
MAX_MS = MAX_INSTANT_NS // NS_PER_MS
MIRRORING_HOLD = "mirroring"


class HoldReason(enum.Enum):
    """Why no clock runs: the move is crossing the hall line, the player is placing the
    opponent's stone within the grace, the line is cut, or a flag fell."""

    TRANSIT = TRANSIT_HOLD
    MIRRORING = MIRRORING_HOLD
    LINE_CUT = EQUIPMENT_HOLD
    FLAG = FLAG_HOLD


@dataclass(frozen=True)
class LinkedTime:
    """The linked clock at ``at_ms``: each seat's time left (ms, rounded down), whose
    clock runs, the holds in force with their start (``(reason, since_ms)``), the press
    count, and the first flag (``flag_ms``, ``flag_seat``) with ``flag_final``: True once
    every fact of the flagged seat's hall stamped before it has arrived (before that a
    late press may still show the flag never fell)."""

    at_ms: int
    remaining_ms: tuple[int, int]
    running: Seat | None
    turn: Seat | None
    holds: tuple[tuple[HoldReason, int], ...]
    presses: int
    flag_seat: Seat | None = None
    flag_ms: int | None = None
    flag_final: bool = False

    def remaining(self, seat: Seat) -> int:
        return self.remaining_ms[0 if seat is Seat.FIRST else 1]

    @property
    def hold_reasons(self) -> tuple[HoldReason, ...]:
        return tuple(reason for reason, _ in self.holds)


# At one instant: releases first (a press needs its turn's hold off), then the start, the
# presses, and the new holds last (the next turn's transit begins at the press).
_ORDER = {Resumed: 0, Started: 1, Pressed: 2, Paused: 3}


def _ns(ms: int) -> int:
    return ms * NS_PER_MS


def _check_now(now_ms: object) -> int:
    if isinstance(now_ms, bool) or not isinstance(now_ms, int) or not 0 <= now_ms <= MAX_MS:
        raise LinkedTimeError(f"now_ms must be a whole number of ms >= 0, not {now_ms!r}")
    return now_ms


class LinkedClockRule:
    """A linked game's clock, fed with stamped facts in owner time (docs/linked.md).

    ``grace_ms`` is the event's mirroring grace; ``control`` and ``on_flag`` are those
    of ``Clock``. Facts are the methods below (or ``apply``); queries (``at``, ``clock``,
    ``events``) change nothing. A fact the rule refuses raises ``LinkedTimeError``.
    """

    def __init__(
        self,
        control: TimeControl | str,
        *,
        grace_ms: int,
        on_flag: FlagPolicy | str = FlagPolicy.STOP,
    ) -> None:
        self._control = control if isinstance(control, TimeControl) else parse_control(control)
        if isinstance(grace_ms, bool) or not isinstance(grace_ms, int):
            raise LinkedTimeError(f"the mirroring grace must be whole ms, not {grace_ms!r}")
        if not 0 <= grace_ms <= MAX_GRACE_MS:
            raise LinkedTimeError(
                f"the mirroring grace must be between 0 and {MAX_GRACE_MS} ms, not {grace_ms}"
            )
        self._grace_ms = grace_ms
        self._policy = FlagPolicy(on_flag)
        self._start: GameStarted | None = None
        self._presses: dict[int, MovePressed] = {}
        self._shown: dict[tuple[int, Seat], MoveShown] = {}
        self._mirrored: dict[tuple[int, Seat], StoneMirrored] = {}
        self._cuts: list[LineCut | LineBack] = []
        self._heard_ms: dict[Seat, int] = {}
        self._events: tuple[ClockEvent, ...] | None = None
        self._stale: tuple[ClockEvent, ...] = ()  # the events before the last fact
        self._cache: tuple[int, Clock] | None = None  # (events applied, their clock)

    # --- facts -----------------------------------------------------------------------

    @property
    def grace_ms(self) -> int:
        return self._grace_ms

    @property
    def facts(self) -> tuple[LinkedFact, ...]:
        """Every fact held, in a fixed order (the start, the presses, displays, mirrored
        stones by move, the cuts): what a journal needs to rebuild the rule."""
        out: list[LinkedFact] = [] if self._start is None else [self._start]
        out += [self._presses[k] for k in sorted(self._presses)]
        order = sorted(self._shown, key=lambda key: (key[0], key[1].value))
        out += [self._shown[key] for key in order]
        order = sorted(self._mirrored, key=lambda key: (key[0], key[1].value))
        out += [self._mirrored[key] for key in order]
        return (*out, *self._cuts)

    @classmethod
    def replay(
        cls,
        control: TimeControl | str,
        facts: Iterable[LinkedFact],
        *,
        grace_ms: int,
        on_flag: FlagPolicy | str = FlagPolicy.STOP,
    ) -> LinkedClockRule:
        rule = cls(control, grace_ms=grace_ms, on_flag=on_flag)
        for fact in facts:
            rule.apply(fact)
        return rule

    def apply(self, fact: LinkedFact) -> None:
        """Take one fact. The same fact again is nothing (a hall replays what the other
        missed after a cut); a different fact about the same thing is refused."""
        fact = check_fact(fact)
        if isinstance(fact, GameStarted):
            self._keep_one("the start", self._start, fact)
            self._start = fact
        elif isinstance(fact, MovePressed):
            self._keep_one(f"press {fact.move}", self._presses.get(fact.move), fact)
            self._check_turns(fact)
            self._presses[fact.move] = fact
        elif isinstance(fact, MoveShown):
            key = (fact.move, fact.seat)
            self._keep_one(f"move {fact.move} shown", self._shown.get(key), fact)
            self._shown[key] = fact
        elif isinstance(fact, StoneMirrored):
            key = (fact.move, fact.seat)
            self._keep_one(f"move {fact.move} mirrored", self._mirrored.get(key), fact)
            self._mirrored[key] = fact
        else:
            self._cut_or_back(fact)
        if self._events is not None:
            self._stale = self._events
        self._events = None

    def start(self, seat: Seat, at_ms: int) -> None:
        self.apply(GameStarted(seat=seat, at_ms=at_ms))

    def pressed(
        self,
        seat: Seat,
        at_ms: int,
        *,
        move: int,
        error_ms: int = 0,
        moves: int = 1,
        next_seat: Seat | None = None,
    ) -> None:
        self.apply(
            MovePressed(
                seat=seat,
                move=move,
                at_ms=at_ms,
                error_ms=error_ms,
                moves=moves,
                next_seat=next_seat,
            )
        )

    def shown(self, seat_to_move: Seat, at_ms: int, *, move: int, error_ms: int = 0) -> None:
        self.apply(MoveShown(seat=seat_to_move, move=move, at_ms=at_ms, error_ms=error_ms))

    def mirrored(self, seat: Seat, at_ms: int, *, move: int, error_ms: int = 0) -> None:
        self.apply(StoneMirrored(seat=seat, move=move, at_ms=at_ms, error_ms=error_ms))

    def line_cut(self, at_ms: int) -> None:
        self.apply(LineCut(at_ms=at_ms))

    def line_back(self, at_ms: int) -> None:
        self.apply(LineBack(at_ms=at_ms))

    def heard_until(self, seat: Seat, at_ms: int) -> None:
        """Every fact of ``seat``'s hall stamped before ``at_ms`` (owner time, error
        taken off) has arrived: a flag of that seat up to then is final. Only moves on."""
        if isinstance(at_ms, bool) or not isinstance(at_ms, int) or at_ms < 0:
            raise LinkedTimeError(f"heard_until: at_ms must be a whole number >= 0, not {at_ms!r}")
        if not isinstance(seat, Seat):
            raise LinkedTimeError(f"heard_until: seat must be a Seat, not {seat!r}")
        self._heard_ms[seat] = max(at_ms, self._heard_ms.get(seat, 0))

    def _keep_one(self, what: str, held: LinkedFact | None, fact: LinkedFact) -> None:
        if held is not None and held != fact:
            raise LinkedTimeError(f"{what} is already known as {held}, not {fact}")

    def _turn_seat(self, move: int) -> Seat | None:
        """Whose press number ``move`` must be, as far as the facts held say."""
        if move == 1:
            return None if self._start is None else self._start.seat
        before = self._presses.get(move - 1)
        if before is None:
            return None
        return before.seat.other if before.next_seat is None else before.next_seat

    def _check_turns(self, fact: MovePressed) -> None:
        expected = self._turn_seat(fact.move)
        if expected is not None and fact.seat is not expected:
            raise LinkedTimeError(
                f"press {fact.move} is {expected.value}'s, not {fact.seat.value}'s"
            )
        after = self._presses.get(fact.move + 1)
        follows = fact.seat.other if fact.next_seat is None else fact.next_seat
        if after is not None and after.seat is not follows:
            raise LinkedTimeError(
                f"press {fact.move} gives the turn to {follows.value}, but press "
                f"{after.move} is {after.seat.value}'s"
            )

    def _cut_or_back(self, fact: LineCut | LineBack) -> None:
        """Cuts are the owner's own facts, so they come in order: cut, back, cut…"""
        last = self._cuts[-1] if self._cuts else None
        if last is not None and fact.at_ms < last.at_ms:
            raise LinkedTimeError(
                f"{type(fact).__name__} at {fact.at_ms} ms is earlier than the last cut or "
                f"return ({last.at_ms} ms): the owner's line facts come in order"
            )
        if isinstance(fact, LineCut) and isinstance(last, LineCut):
            raise LinkedTimeError(f"the line is already cut (since {last.at_ms} ms)")
        if isinstance(fact, LineBack) and not isinstance(last, LineCut):
            raise LinkedTimeError("the line is not cut: there is nothing to come back from")
        self._cuts.append(fact)

    # --- the derivation --------------------------------------------------------------

    def _cut_spans(self) -> list[tuple[int, int | None]]:
        spans: list[tuple[int, int | None]] = []
        for fact in self._cuts:
            if isinstance(fact, LineCut):
                spans.append((fact.at_ms, None))
            else:
                spans[-1] = (spans[-1][0], fact.at_ms)
        return spans

    def _grace_end_ms(self, shown_ms: int, spans: list[tuple[int, int | None]]) -> int | None:
        """When the grace that began at ``shown_ms`` is used up: ``grace_ms`` of time not
        held by a cut (a cut does not eat the grace). None: a cut still open decides."""
        t, left = shown_ms, self._grace_ms
        for cut_ms, back_ms in spans:
            if back_ms is not None and back_ms <= t:
                continue
            if cut_ms > t:
                if cut_ms - t >= left:
                    return t + left
                left -= cut_ms - t
            if back_ms is None:
                return None
            t = max(t, back_ms)
        return t + left

    def events(self) -> tuple[ClockEvent, ...]:
        """The clock events the facts make, in order (``Clock.replay`` takes them). Some
        may lie after the present (a grace that ends later): ``clock`` stops at ``now``."""
        if self._events is None:
            self._events = self._derive()
            self._keep_cache(self._stale, self._events)
        return self._events

    def _keep_cache(self, old: tuple[ClockEvent, ...], new: tuple[ClockEvent, ...]) -> None:
        """Keep the cached clock if a new fact changed only later events (the usual case:
        a fact about the present), so a query costs the events since, not the game."""
        if self._cache is None:
            return
        same = 0
        for before, after in zip(old, new, strict=False):
            if before != after:
                break
            same += 1
        if self._cache[0] > same:
            self._cache = None

    def _clock_upto(self, now_ns: int) -> Clock:
        """The clock of the events up to ``now_ns``, built on the cached one when it can
        be (queries move forward; an earlier one replays from the start)."""
        events = self.events()
        count = bisect.bisect_right(events, now_ns, key=lambda e: e.t_ns)
        if self._cache is None or self._cache[0] > count:
            self._cache = (0, Clock(self._control, on_flag=self._policy))
        done, clock = self._cache
        for event in events[done:count]:
            clock.apply(event)
        self._cache = (count, clock)
        return clock

    def _derive(self) -> tuple[ClockEvent, ...]:
        if self._start is None:
            return ()
        spans = self._cut_spans()
        out: list[ClockEvent] = [Started(t_ns=_ns(self._start.at_ms), seat=self._start.seat)]
        for cut_ms, back_ms in spans:
            out.append(Paused(t_ns=_ns(cut_ms), hold=EQUIPMENT_HOLD, reason="hall line cut"))
            if back_ms is not None:
                out.append(Resumed(t_ns=_ns(back_ms), hold=EQUIPMENT_HOLD, reason="line back"))
        seat = self._start.seat
        turn_from = self._start.at_ms  # the earliest instant this turn's press may have
        move = 1
        while (press := self._presses.get(move)) is not None and press.seat is seat:
            press_ms = max(turn_from, press.at_ms - press.error_ms)
            out.append(
                Pressed(t_ns=_ns(press_ms), by=seat, moves=press.moves, next_seat=press.next_seat)
            )
            following = seat.other if press.next_seat is None else press.next_seat
            if following is not seat:
                self._holds_of_turn(out, move, following, press_ms, spans)
            seat, turn_from, move = following, press_ms, move + 1
        return tuple(sorted(out, key=lambda e: (e.t_ns, _ORDER[type(e)])))

    def _holds_of_turn(
        self,
        out: list[ClockEvent],
        move: int,
        seat: Seat,
        press_ms: int,
        spans: list[tuple[int, int | None]],
    ) -> None:
        """The holds before ``seat``'s clock starts after press ``move``: transit until
        the move is shown at ``seat``'s table, then mirroring until the stone is placed
        or the grace is used up. The first fact of that table proves the display: a
        stone mirrored or a press there before the display's report is the display."""
        shown = self._shown.get((move, seat))
        mirrored = self._mirrored.get((move, seat))
        reply = self._presses.get(move + 1)
        reply_ms = None if reply is None else max(press_ms, reply.at_ms - reply.error_ms)
        mirrored_ms = None if mirrored is None else mirrored.at_ms + mirrored.error_ms
        proofs = [t for t in (mirrored_ms, reply_ms) if t is not None]
        if shown is not None:
            proofs.append(shown.at_ms + shown.error_ms)
        out.append(Paused(t_ns=_ns(press_ms), hold=TRANSIT_HOLD, reason=f"move {move} sent"))
        if not proofs:
            return  # still in transit
        shown_ms = max(press_ms, min(proofs))
        if shown_ms == press_ms:
            out.pop()  # shown at once: no transit to hold (an empty hold is no hold)
        else:
            out.append(Resumed(t_ns=_ns(shown_ms), hold=TRANSIT_HOLD, reason=f"move {move} shown"))
        grace_end = self._grace_end_ms(shown_ms, spans)
        ends = [t for t in (mirrored_ms, reply_ms, grace_end) if t is not None]
        end_ms = None if not ends else max(shown_ms, min(ends))
        if end_ms == shown_ms:
            return  # mirrored at once (or no grace): the clock starts at the display
        out.append(Paused(t_ns=_ns(shown_ms), hold=MIRRORING_HOLD, reason=f"mirroring {move}"))
        if end_ms is not None:
            out.append(Resumed(t_ns=_ns(end_ms), hold=MIRRORING_HOLD, reason=f"mirrored {move}"))

    # --- queries ---------------------------------------------------------------------

    def clock(self, now_ms: int) -> Clock:
        """The ``Clock`` of the events up to ``now_ms`` (its ``at(now)`` is the truth), a
        fresh one the caller may drive on."""
        now_ns = _ns(_check_now(now_ms))
        return Clock.replay(
            self._control, (e for e in self.events() if e.t_ns <= now_ns), on_flag=self._policy
        )

    def at(self, now_ms: int) -> LinkedTime:
        """What the linked clock shows at ``now_ms`` (owner time), as the facts held say."""
        now_ns = _ns(_check_now(now_ms))
        clock = self._clock_upto(now_ns)
        state = clock.at(now_ns)
        left = tuple(clock.remaining_ns(s, now_ns) // NS_PER_MS for s in (Seat.FIRST, Seat.SECOND))
        holds = tuple(
            (HoldReason(name), since // NS_PER_MS)
            for name, since in state.holds
            if name in {r.value for r in HoldReason}
        )
        flag = state.first_flag
        flag_ms = None if flag is None else flag.t_ns // NS_PER_MS
        return LinkedTime(
            at_ms=now_ms,
            remaining_ms=(left[0], left[1]),
            running=state.running,
            turn=state.turn,
            holds=holds,
            presses=sum(1 for e in clock.events if isinstance(e, Pressed)),
            flag_seat=None if flag is None else flag.seat,
            flag_ms=flag_ms,
            flag_final=flag is not None
            and flag_ms is not None
            and self._heard_ms.get(flag.seat, -1) >= flag_ms,
        )
