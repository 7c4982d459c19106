"""A flag is a result in every phase of a game (issue 32, item 7).

Every opening procedure the rules know is played step by step (each action with its
press); at each step — the stones of the opening, a decision, a declared number, the
fifth-move offers, the offer kept, and the middle game after it — the running seat's
flag falls. Then, whether the shell's timer or the player's action comes first:

* the clock is on record as held by ``flag`` at once (a ``ClockChanged`` with nothing
  running, which the host publishes as ``paused``), and the referee gets one ``flag`` alert;
* the acting seat's stone, offer, decision, number, choice and press count for nothing:
  the game and the clock are as they were at the flag, and each is a referee alert;
* the referee's result ends the game, as in the middle game; the journal's inputs replay
  to the same session.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from wuzi.clock.events import FLAG_HOLD
from wuzi.rules.board import Colour, Point, parse_point, sort_key
from wuzi.rules.openings import PROCEDURE_NAMES
from wuzi.rules.procedure import Action, Seat, Step
from wuzi.table.alerts import AlertReason
from wuzi.table.inputs import (
    AdjustTime,
    BoardAlert,
    Choose,
    ClockPressed,
    Decide,
    Declare,
    RefereeResume,
    SetResult,
    StoneSettled,
    TableInput,
    TableSetup,
    Tick,
)
from wuzi.table.outputs import (
    ClockChanged,
    GameOver,
    MoveJudged,
    OfferKept,
    OfferPlaced,
    OpeningDecided,
    OpeningDeclared,
    RefereeAlert,
    TableOutput,
)
from wuzi.table.session import TableError, TableSession

S = 1_000_000_000
T0 = 1000 * S
CONTROL = "600+5"
CENTRE = parse_point("h8")
COUNTED = (MoveJudged, OfferPlaced, OfferKept, OpeningDecided, OpeningDeclared)
"""The outputs of an action that counted."""


def procedures() -> list[str]:
    names = [n.replace("-N", "-3") for n in PROCEDURE_NAMES]
    assert {"free", "chinese-2013", "swap2", "designated"} <= set(names)
    return names


def reasons(outputs: list[TableOutput]) -> list[AlertReason]:
    return [o.reason for o in outputs if isinstance(o, RefereeAlert)]


def by_distance() -> list[Point]:
    """Every point, nearest the centre first (a deterministic bot's preference)."""
    cx, cy = sort_key(CENTRE)
    points = [parse_point(f"{c}{r}") for c in "abcdefghijklmno" for r in range(1, 16)]
    return sorted(points, key=lambda p: (abs(sort_key(p)[0] - cx) + abs(sort_key(p)[1] - cy), p))


@dataclass
class Phase:
    """Where a flag falls: the procedure, the step (by index) and what it asks for."""

    opening: str
    index: int
    action: str  # an Action's value, or "middle" for the middle game

    def __str__(self) -> str:
        return f"{self.opening}-{self.index}-{self.action}"


class Player:
    """Plays a session's opening, each action with its press, one second apart."""

    def __init__(self, opening: str, choices: tuple[str, ...] = ("stay", "place-two")) -> None:
        self.now = T0
        self.choices = choices
        self.s = TableSession(
            TableSetup(opening=opening, time_control=CONTROL, unpressed_alert_ms=10**9), T0
        )

    def handle(self, event: TableInput) -> list[TableOutput]:
        return self.s.handle(event)

    def later(self, seconds: int = 1) -> int:
        self.now += seconds * S
        return self.now

    def press(self, seat: Seat) -> list[TableOutput]:
        return self.handle(ClockPressed(now_ns=self.later(), seat=seat))

    def action(self, step: Step, skip: frozenset[Point] = frozenset()) -> TableInput:
        """The input that performs ``step`` now (a stone on the first point it allows)."""
        game, now = self.s.game, self.later()
        if step.action in (Action.PLACE, Action.OFFER):
            assert step.colour is not None
            point = self.free_point(step, skip)
            return StoneSettled(now_ns=now, point=point, colour=step.colour)
        if step.action is Action.DECIDE:
            choice = next((c for c in self.choices if c in step.choices), step.choices[0])
            return Decide(now_ns=now, seat=step.seat, choice=choice)
        if step.action is Action.DECLARE:
            return Declare(now_ns=now, seat=step.seat, number=int(step.choices[0]))
        return Choose(now_ns=now, seat=step.seat, point=game.offers[0])

    def free_point(self, step: Step, skip: frozenset[Point] = frozenset()) -> Point:
        board, offers = self.s.game.board, set(self.s.game.offers)
        candidates = sorted(step.allowed) if step.allowed is not None else by_distance()
        return next(
            p for p in candidates if board.is_empty(p) and p not in offers and p not in skip
        )

    def current(self) -> str:
        """What the next action is: an ``Action`` value, or ``middle`` (a move after the
        opening)."""
        step = self.s.game.step
        return "middle" if step is None else step.action.value

    def step(self) -> Step:
        """The step to do now (a move of the middle game as a ``place`` step)."""
        game = self.s.game
        if game.step is not None:
            return game.step
        seat, colour = game.to_move, game.colour_to_move
        assert seat is not None and colour is not None
        return Step(seat, Action.PLACE, colour)

    def advance(self) -> None:
        """The next action, done and pressed; a stone the rules refuse is lifted and the
        next point tried (an offer symmetric to another, say)."""
        step = self.step()
        tried: set[Point] = set()
        while True:
            event = self.action(step, frozenset(tried))
            out = self.handle(event) + self.press(step.seat)
            if any(isinstance(o, COUNTED) for o in out):
                return
            assert isinstance(event, StoneSettled), (step, out)
            tried.add(event.point)
            self.handle(BoardAlert(now_ns=self.later(), kind="removed", points=(event.point,)))
            assert len(tried) < 50, step


def phases_of(opening: str) -> list[Phase]:
    """Each step of ``opening`` on the way the ``Player`` plays it, then two moves of the
    middle game."""
    p = Player(opening)
    found: list[Phase] = []
    while sum(f.action == "middle" for f in found) < 2:
        found.append(Phase(opening, len(found), p.current()))
        p.advance()
        assert len(found) < 40, f"{opening}: no middle game after 40 steps"
    return found


PHASES = [phase for name in procedures() for phase in phases_of(name)]


@dataclass(frozen=True)
class Counted:
    """What a flag must leave alone: the game's record and both clocks."""

    events: int
    moves: tuple[Point, ...]
    offers: tuple[Point, ...]
    first_ms: int
    second_ms: int
    infractions: tuple[int, int]

    @classmethod
    def of(cls, s: TableSession, now: int) -> Counted:
        game = s.game
        return cls(
            len(game.opening.state.events),
            tuple(m.point for m in game.moves),
            game.offers,
            s.clock.remaining_ns(Seat.FIRST, now) // 1_000_000,
            s.clock.remaining_ns(Seat.SECOND, now) // 1_000_000,
            (game.infractions(Seat.FIRST), game.infractions(Seat.SECOND)),
        )


def flag_falls(phase: Phase) -> tuple[Player, Seat, int]:
    """A player at ``phase``, and the running seat whose flag falls at the instant given."""
    p = Player(phase.opening)
    for _ in range(phase.index):
        p.advance()
    assert p.current() == phase.action
    seat = p.s.clock.state.running
    assert seat is p.step().seat, (phase, seat)
    flag_ns = p.s.next_due_ns()  # the shell's timer: the flag's instant
    assert flag_ns is not None and not p.s.due(flag_ns - 1) and p.s.due(flag_ns)
    return p, seat, flag_ns


def check_flag_noted(out: list[TableOutput], s: TableSession, seat: Seat) -> None:
    """The flag is told once, and the clock's state (what the host publishes) is held."""
    told = [o for o in out if isinstance(o, RefereeAlert) and o.reason is AlertReason.FLAG]
    assert [o.seat for o in told] == [seat], out
    changed = [o for o in out if isinstance(o, ClockChanged)]
    assert changed and changed[-1].running is None, out
    assert FLAG_HOLD in s.clock.state.hold_names and s.clock.state.running is None


@pytest.mark.parametrize("ticked", [True, False], ids=["tick-first", "action-first"])
@pytest.mark.parametrize("phase", PHASES, ids=str)
def test_a_flag_in_each_phase_is_held_and_nothing_after_it_counts(
    phase: Phase, ticked: bool
) -> None:
    p, seat, flag_ns = flag_falls(phase)
    before = Counted.of(p.s, flag_ns)
    p.now = flag_ns + S
    if ticked:  # the shell's timer comes first: the state says so with nobody acting
        check_flag_noted(p.handle(Tick(now_ns=p.now)), p.s, seat)
        assert reasons(p.handle(Tick(now_ns=p.later()))) == []  # told once
    # the flagged seat does what the step asks, and presses
    out = p.handle(p.action(p.step()))
    if not ticked:  # the action itself meets the flag: told first, then refused
        check_flag_noted(out, p.s, seat)
        assert reasons(out)[0] is AlertReason.FLAG
    out += p.press(seat)
    assert not [o for o in out if isinstance(o, COUNTED)], out
    refused = [r for r in reasons(out) if r is not AlertReason.FLAG]
    assert len(refused) == 2 and set(refused) <= {AlertReason.REFUSED, AlertReason.NOT_ALLOWED}
    assert all("flag fell" in o.text for o in out if isinstance(o, RefereeAlert))
    assert Counted.of(p.s, p.now) == before  # no action, no time, no infraction
    assert p.s.pending_stone is None
    # the referee's result ends it as in the middle game
    out = p.handle(SetResult(now_ns=p.later(), winner=seat.other, reason="flag", referee="r"))
    assert [o.winner for o in out if isinstance(o, GameOver)] == [seat.other]
    assert p.s.game.is_over and p.s.clock.state.ended
    assert TableSession.replay(p.s.inputs) == p.s


def test_the_issue_a_flag_between_two_fifth_move_offers() -> None:
    """chinese-2013, two offers: Black's flag falls after the first; the second offer
    placed later is not taken (it was, and the state said ``playing``)."""
    p = Player("chinese-2013")
    while p.current() != "offer":
        p.advance()
    p.advance()  # the first offer, pressed
    assert len(p.s.game.offers) == 1 and p.current() == "offer"
    flag_ns = p.s.next_due_ns()
    assert flag_ns is not None
    p.now = flag_ns + 3 * S
    out = p.handle(p.action(p.step()))
    assert reasons(out) == [AlertReason.FLAG, AlertReason.NOT_ALLOWED]
    assert not [o for o in out if isinstance(o, OfferPlaced)]
    assert len(p.s.game.offers) == 1 and p.s.clock.state.running is None
    assert FLAG_HOLD in p.s.clock.state.hold_names


def test_a_flag_after_an_action_before_its_press_keeps_the_action() -> None:
    """The offer was made in time; its press comes after the flag: the offer stands, the
    press is not taken (no bonus, no infraction)."""
    p = Player("chinese-2013")
    while p.current() != "offer":
        p.advance()
    step = p.step()
    assert [o for o in p.handle(p.action(step)) if isinstance(o, OfferPlaced)]
    flag_ns = p.s.next_due_ns()
    assert flag_ns is not None
    p.now = flag_ns
    out = p.press(step.seat)
    assert reasons(out) == [AlertReason.FLAG, AlertReason.REFUSED]
    assert len(p.s.game.offers) == 1 and p.s.game.infractions(step.seat) == 0
    assert p.s.clock.remaining_ns(step.seat, p.now) == 0


def test_a_flag_the_equipment_caused_in_the_opening_time_given_and_play_resumes() -> None:
    """docs/host.md: the referee gives the flagged side time, which answers the flag, and
    resumes. The offer put down after the flag is a stray: lifted, it is gone without an
    alert; put down again after the resume, it counts."""
    p = Player("chinese-2013")
    while p.current() != "offer":
        p.advance()
    p.advance()
    black = p.step().seat
    flag_ns = p.s.next_due_ns()
    assert flag_ns is not None
    p.now = flag_ns + S
    late = p.action(p.step())
    assert isinstance(late, StoneSettled)
    p.handle(late)
    p.handle(AdjustTime(now_ns=p.later(), seat=black, delta_ms=60_000, referee="chief"))
    assert FLAG_HOLD not in p.s.clock.state.hold_names and p.s.clock.state.running is None
    # time given, not resumed yet: still nothing counts
    again = StoneSettled(
        now_ns=p.later(), point=p.free_point(p.step(), frozenset({late.point})), colour=Colour.BLACK
    )
    assert reasons(p.handle(again)) == [AlertReason.NOT_ALLOWED]
    for stray in (late.point, again.point):
        assert (
            reasons(p.handle(BoardAlert(now_ns=p.later(), kind="removed", points=(stray,)))) == []
        )
    p.handle(RefereeResume(now_ns=p.later(), referee="chief"))
    assert p.s.clock.state.running is black
    assert p.s.clock.remaining_ns(black, p.now) == 60 * S
    out = p.handle(StoneSettled(now_ns=p.later(), point=late.point, colour=Colour.BLACK))
    assert [o.point for o in out if isinstance(o, OfferPlaced)] == [late.point]
    out = p.press(black)
    assert p.current() == "choose-offer" and p.s.clock.state.running is black.other
    assert TableSession.replay(p.s.inputs) == p.s


def test_a_refused_referee_command_after_a_flag_changes_nothing() -> None:
    """Noting the flag is part of taking an input: a command refused leaves the clock as
    it was (the next input notes the flag)."""
    p, seat, flag_ns = flag_falls(PHASES[0])
    events = p.s.clock.events
    with pytest.raises(TableError, match="reason must be a non-empty text"):
        p.handle(SetResult(now_ns=flag_ns + S, winner=seat, reason="", referee="r"))
    assert p.s.clock.events == events and p.s.clock.state.flags == ()
    check_flag_noted(p.handle(Tick(now_ns=flag_ns + 2 * S)), p.s, seat)
